"""The user's cache folder, and a result stored in it whole or not at all.

The folder is ``$BOUILLOTTE_CACHE``, else ``$XDG_CACHE_HOME/bouillotte``, else
``~/.cache/bouillotte``; deleting it is always safe. Whoever stores a result there keys it
by a hash of everything the result depends on, so that reading it back can never change
what a command prints; a folder that is missing, unreadable or read-only only costs the
time. (The site build's cache, ``site/cache.py``, keeps its results in the same folder.)

This module imports nothing beyond the standard library: ``bouillotte variants list``
reads its cached rows through it before anything else is loaded.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.util import find_spec
from pathlib import Path


def cache_dir() -> Path:
    """``$BOUILLOTTE_CACHE``, else ``$XDG_CACHE_HOME/bouillotte``, else ``~/.cache/bouillotte``."""
    if os.environ.get("BOUILLOTTE_CACHE"):
        return Path(os.environ["BOUILLOTTE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bouillotte"


def read_text(path: Path, limit: int) -> str | None:
    """The text of a cached result, or ``None`` where there is none, it cannot be read, or
    it is longer than ``limit`` bytes (no result is: something else put it there)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(limit + 1)
        return data.decode("utf-8") if len(data) <= limit else None
    except (OSError, ValueError):  # missing, unreadable, a folder, not UTF-8
        return None


def store(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a file written beside it, then
    renamed); where the folder cannot be written, store nothing: the result is the same,
    only computed again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass


LIBRARIES = ("pydantic", "yaml")
"""The libraries whose code reads and validates the files (their version is part of a key)."""
VERSION_FILES = {"pydantic": "version.py", "yaml": "__init__.py"}
"""The file of each library that states its version (read as bytes, without importing it)."""


def code_digest(*layers: str) -> str:
    """A hash of the code that computes a result: every file of the named layers of the
    package (``rules``, ...; the source, or whatever a compiled install holds), the Python
    that runs it and the version files of :data:`LIBRARIES`, found without importing them."""
    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parent.parent
    for layer in layers:
        for path in sorted((package / layer).rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    for library in LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        digest.update(library.encode())
        if origin is not None:
            digest.update((Path(origin).parent / VERSION_FILES[library]).read_bytes())
    return digest.hexdigest()
