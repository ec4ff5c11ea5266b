"""Errors a user can act on: which file, which line, which field, which value.

:class:`UserError` is the base of everything a user can cause: a profile or a scenario
written wrong, a card or an action miswritten, cards that cannot be dealt, an action the
rules refuse. The command line turns any of them into one line (:meth:`UserError.describe`)
and exit status 2. An error raised far from any file (the engine refusing an action) knows
only its message, and perhaps its ``path`` within what it was given; whoever read the file
places it there, as an :class:`InputError` at a file and line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from .idtext import HIDDEN_MARKS, REORDERING_MARKS, as_escape

MAX_VALUE_SHOWN = 120
"""A longer value is cut in messages, which stay one readable line."""

_INVISIBLE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{REORDERING_MARKS}{HIDDEN_MARKS}]")
"""What a line of a message must not hold as it is: a line break (a file named
``a\nb.csv`` would make a second, forged ``error:`` line), a control character (a
terminal obeys ``\x1b[31m``; a pipe loses it), a mark that reorders the text or shows
nothing (``idtext.HIDDEN_MARKS``)."""


def _visible(text: str) -> str:
    """``text`` on one line, each character of :data:`_INVISIBLE` as its escape."""
    return _INVISIBLE.sub(as_escape, text)


def shown(value: object) -> str:
    """A user's value (a path, a title) as a line of output shows it: on one line, each
    line break, control character or reordering mark as its escape, as error lines show
    it; a folder named ``n\nerror: x`` cannot print a line the tool never wrote."""
    return _visible(str(value))


def quoted(text: str) -> str:
    """A value quoted in a message's words, cut as :attr:`InputError.value` is shown (a
    300,000-digit card was echoed whole): ``'9999...' (300,001 characters)``."""
    if len(text) <= MAX_VALUE_SHOWN:
        return repr(text)
    return f"{text[: MAX_VALUE_SHOWN - 20]!r}... ({len(text):,} characters)"


MAX_PATH_SHOWN = 400
"""The longest path (or other run of characters without a space) a message shows whole: a
deep folder's is often past 120 characters, and its end is the file's name."""


def ends(text: str) -> str:
    """``text``'s beginning and its end, ``...`` between them, within
    :data:`MAX_PATH_SHOWN` characters (a path's end is its file's name)."""
    half = MAX_PATH_SHOWN // 2 - 20
    return f"{text[:half]}...{text[-half:]}"


def cut(text: str) -> str:
    """A path or a value shown as it is (not quoted): whole up to :data:`MAX_PATH_SHOWN`
    characters, else by its :func:`ends`, ``/home/a...ours.yaml (100,000 characters)``."""
    if len(text) <= MAX_PATH_SHOWN:
        return text
    return f"{ends(text)} ({len(text):,} characters)"


MAX_LINE_SHOWN = 2_000
"""The longest message once each long value in it is cut (:func:`cut_within`; the list of
every bundled scenario, some 700 characters, stays whole): what is longer still (a value of
many short words, not quoted) is cut in its middle, keeping its beginning (the place, the
field) and its end (what would be valid)."""

_LONG_RUN = re.compile(
    rf"(?<![\w'\"\\])'(?:[^'\\\n]|\\.){{{MAX_PATH_SHOWN},}}'"
    rf"|(?<![\w'\"\\])\"(?:[^\"\\\n]|\\.){{{MAX_PATH_SHOWN},}}\""
    rf"|[^\s'\"]{{{MAX_PATH_SHOWN + 1},}}"
)
"""What a message holds that is too long to show whole, past :data:`MAX_PATH_SHOWN`
characters: a value in quotes (as ``repr`` writes one; each begins at most one such, so the
search takes linear time), or a run of characters without a space or quote (a path)."""


def _cut_run(match: re.Match[str]) -> str:
    """A long run cut as :func:`cut` cuts it, its beginning and end kept (a quoted path's
    file name): ``'/home/a...ours.yaml' (100,000 characters)``."""
    run = match.group()
    if run[0] in "'\"" and run[-1] == run[0] and len(run) > 1:
        return f"{ends(run)} ({len(run) - 2:,} characters)"
    return cut(run)


def cut_within(message: str) -> str:
    """``message`` with each value and path in it longer than :data:`MAX_PATH_SHOWN` cut
    (a 100,000-character policy, rule or folder was echoed whole), whoever wrote it: no
    line of a message is longer than about :data:`MAX_LINE_SHOWN` characters, whatever a
    user typed."""
    if len(message) <= MAX_PATH_SHOWN:
        return message
    message = _LONG_RUN.sub(_cut_run, message)
    if len(message) <= MAX_LINE_SHOWN:
        return message
    half = MAX_LINE_SHOWN // 2 - 30
    return f"{message[:half]}... ({len(message) - 2 * half:,} characters) ...{message[-half:]}"


class UserError(Exception):
    """Something the user caused and can put right, described in one line."""

    def __init__(
        self,
        message: str,
        *,
        file: Path | str | None = None,
        line: int | None = None,
        field: str | None = None,
        value: Any = None,
        has_value: bool = False,
        path: Sequence[str | int] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = tuple(path)
        """Where the fault stands within what was given, as ``("hands", "A", 2)``."""
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field if field is not None else ".".join(map(str, path)) or None
        self.value = value
        self.has_value = has_value

    def describe(self) -> str:
        where = cut(self.file or "")
        if self.file and self.line:
            where += f":{self.line}"
        parts = [f"{where}: " if where else ""]
        if self.field:
            parts.append(f"{cut(self.field)}: ")
        parts.append(cut_within(self.message))
        if self.has_value:
            try:
                value = self.value
                shown = repr(value.isoformat() if isinstance(value, date) else value)
            except ValueError:  # an int of more digits than Python will write
                shown = "a number too long to show"
            if len(shown) > MAX_VALUE_SHOWN:
                shown = f"{shown[: MAX_VALUE_SHOWN - 20]}... ({len(shown):,} characters)"
            parts.append(f" (value: {shown})")
        return _visible("".join(parts))

    def __str__(self) -> str:
        return self.describe()


class InputError(UserError):
    """Bad input at a known place: a file and line (a profile, a scenario, a session), or a
    command-line value."""
