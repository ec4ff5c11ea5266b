"""The nearest valid name to a mistyped one, for "did you mean ...?" in messages."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

LONGEST = 200
"""A name longer than this is no slip of the keyboard: nothing is suggested (and no time is
spent comparing a megabyte with every known name)."""


def did_you_mean(name: object, known: Iterable[str]) -> str:
    """`` (did you mean 'foster'?)`` when one of ``known`` is close to ``name`` (difflib's
    ratio of at least 0.6), else the empty string, so a message reads the same either way:
    ``f"unknown variant {name!r}{did_you_mean(name, ids)}; known variants: ..."``."""
    if not isinstance(name, str) or len(name) > LONGEST:
        return ""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
