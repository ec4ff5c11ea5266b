"""Where the bundled profiles, scenarios, site templates and sources live.

In a wheel they are package data under ``bouillotte/bundled/``; in a checkout (or an
editable install) they are the top-level folders of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def bundled(name: str) -> Path:
    """The bundled folder ``name`` (``variants``, ``scenarios``, ``site``)."""
    inside = _PACKAGE / "bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent.parent / name
