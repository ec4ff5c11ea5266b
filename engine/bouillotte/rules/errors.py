"""Errors a user can act on: which file, which line, which field, which value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_VALUE_SHOWN = 120
"""A longer value is cut in messages, which stay one readable line."""


class InputError(Exception):
    """Bad input (a profile, a scenario, a card, a command-line value).

    The command line prints :meth:`describe` and exits with status 2.
    """

    def __init__(
        self,
        message: str,
        *,
        file: Path | str | None = None,
        line: int | None = None,
        field: str | None = None,
        value: Any = None,
        has_value: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.value = value
        self.has_value = has_value

    def describe(self) -> str:
        where = self.file or ""
        if self.file and self.line:
            where += f":{self.line}"
        parts = [f"{where}: " if where else ""]
        if self.field:
            parts.append(f"{self.field}: ")
        parts.append(self.message)
        if self.has_value:
            shown = repr(self.value)
            if len(shown) > MAX_VALUE_SHOWN:
                shown = f"{shown[: MAX_VALUE_SHOWN - 20]}... ({len(shown):,} characters)"
            parts.append(f" (value: {shown})")
        return "".join(parts)

    def __str__(self) -> str:
        return self.describe()
