"""Text that is shown on one line (a system's or a work's title, a short name, an author):
no line break or control character, a bounded length, and for a name, some words.

A title is printed by ``variants list``, ``sources`` and ``run`` on a line of its own and
put in every page's headings: a line break in it printed a line that looked like one of
the tool's own ``error:`` lines, and a short name of 450,000 characters made a table page
of 31 MB. Each field says how long it may be (:data:`TITLE_LENGTH`...), as ``site.yaml``'s
title does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from .idtext import as_escape

TITLE_LENGTH = 200
"""The most characters of a system's or a scenario's title (the longest bundled: 85)."""
SHORT_LENGTH = 60
"""The most characters of a short name, a table's column header (the longest bundled: 28)."""
WORK_TITLE_LENGTH = 500
"""The most characters of a work's title (an eighteenth-century one runs long: the
longest bundled has 113)."""
NAME_LENGTH = 300
"""The most characters of a work's author (the longest bundled: 53)."""

_NOT_ON_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""A line break (also U+2028 and U+2029, the separators of lines and paragraphs) or a
control character."""


def one_line_fault(text: str, limit: int) -> str | None:
    """Why ``text`` is not one line of at most ``limit`` characters (``None``: it is)."""
    found = _NOT_ON_ONE_LINE.search(text)
    if found is not None:
        return (
            f"is shown on one line: it may not hold a line break or a control character "
            f"({as_escape(found)} at character {found.start() + 1})"
        )
    if len(text) > limit:
        return f"has at most {limit:,} characters, not {len(text):,}"
    return None


_LINE_BREAK = re.compile("[\n\x0b\x0c\r\x1c-\x1e\x85\u2028\u2029]")
"""Every character :meth:`str.splitlines` breaks a line at."""


def line_break_fault(text: str, limit: int) -> str | None:
    """Why ``text`` is not one line of at most ``limit`` characters for a field whose other
    control characters every output shows as their escapes (``None``: it is): a line break
    alone would print a line of its own (a forged row of ``bouillotte sources``)."""
    found = _LINE_BREAK.search(text)
    if found is not None:
        return (
            f"is shown on one line: it may not hold a line break "
            f"({as_escape(found)} at character {found.start() + 1})"
        )
    if len(text) > limit:
        return f"has at most {limit:,} characters, not {len(text):,}"
    return None


def holds_words(text: str) -> bool:
    """Whether ``text`` holds a letter, a digit, a mark of punctuation or a symbol (not
    only spaces and invisible characters such as U+200B)."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in text)


def _line(
    limit: int, words: bool, fault_of: Callable[[str, int], str | None] = one_line_fault
) -> Callable[[str], str]:
    def check(text: str) -> str:
        fault = fault_of(text, limit)
        if fault is not None:
            raise ValueError(fault)
        if words and not holds_words(text):
            raise ValueError("must hold words, not be empty or blank")
        return text

    return check


Title = Annotated[str, AfterValidator(_line(TITLE_LENGTH, words=True))]
"""A system's or a scenario's title."""
Short = Annotated[str, AfterValidator(_line(SHORT_LENGTH, words=True))]
"""A short name (``Foster 1897``)."""
WorkTitle = Annotated[str, AfterValidator(_line(WORK_TITLE_LENGTH, words=True))]
"""A work's title."""
Name = Annotated[str, AfterValidator(_line(NAME_LENGTH, words=True))]
"""A work's author, as cited."""

LINE_LENGTH = 500
"""The most characters of another field shown on one line (a locator, an identifier)."""


def _words(text: str) -> str:
    if not holds_words(text):
        raise ValueError("must hold words, not be empty or blank")
    return text


Line = Annotated[str, AfterValidator(_line(LINE_LENGTH, words=True))]
"""A locator (``Bouillotte: The Point``), an identifier's label or value."""
WorkLine = Annotated[str, AfterValidator(_line(LINE_LENGTH, True, line_break_fault))]
"""A work's other one-line field (``place``, ``publisher``, ``edition``, ``entry``,
``container``, ``locator_scheme``, ``file``): no line break, at most :data:`LINE_LENGTH`
characters, some words. Another control character is let through, as it always was: the
terminal and the pages show it as its escape (``tests/hostile/test_site_formats.py``
publishes one)."""
Words = Annotated[str, AfterValidator(_words)]
"""Prose that may run over several lines (a definition, what is known of a work), but is
not blank."""
