"""A page of the site: where it is written, its template, its title and what it shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Log = Callable[[str], None]


def quiet(message: str) -> None:
    del message


@dataclass
class Page:
    path: str
    """Where the page is written, relative to the site root (``variants/foster.html``)."""
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)
    description: str = ""
