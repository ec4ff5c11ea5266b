"""The work one page of a theme may take in all (issue 47): its loop steps, its calls, and
the memory its values take.

``template_bounds.py`` bounds each value one expression makes (a text of at most 16 MiB
characters). Bounding each value does not bound a page: 3,000 texts each within the bound,
kept in a list by a loop (``ns.l.append(big ~ i)``), a captured block (``{% set %}``,
a macro) repeating a long text thousands of times, or ``range(3000)|map("center",
2**20)|list`` each took gigabytes. So a page has a budget (:data:`MADE_BYTES`) that every
value its templates make is counted against, as it is made: the result of each ``~``,
``+``, ``*``, ``**`` and ``%``, of each call (a macro, a function, a method), of each filter
(also those ``map`` applies), of each slice (``text[::-1]``), and each captured block once
joined (its parts counted before they are joined). A value is counted by the memory Python
gives it (``sys.getsizeof``; a list, tuple, set or mapping with its items'), whether or not
it is kept, so the budget bounds what a page may hold at once and the work of making it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import _lru_cache_wrapper
from inspect import isfunction
from typing import Any

from jinja2.utils import Namespace

from .template_bounds import TooLarge, check_text, guarded

LOOP_STEPS = 2_000_000
"""The most loop steps (items of every ``for``, nested ones counted each time) one page may
take: the bundled templates take at most a few tens of thousands on the largest page;
nested loops in a theme that would run for hours are stopped at once."""

CALLS = 250_000
"""The most calls (of a macro, a function, a method) one page may make: the bundled
templates make at most some 2,000 on the largest page; a macro calling itself twice at each
of 40 levels (2^40 calls, no loop, no output) is stopped in about a second."""

MADE_BYTES = 2**30
"""The most memory (1 GiB) the values one page's templates make may take in all, counted as
each is made: the bundled templates make at most about 2 MiB on a page, a heavy theme of
macros, captured blocks, ``tojson`` and ``markdown`` some 140 MiB on an 11-system site."""

_COUNTED_ONE_BY_ONE = (list, tuple, set, frozenset)
_COUNTED_AS_A_WHOLE = (str, bytes, bytearray, int, float)
_TEMPLATES_MAKE = (*_COUNTED_ONE_BY_ONE, dict, Namespace)
"""The values a template makes that the site's own filters and functions are checked for
(a text or number is written as it is; the page's own objects are the site's)."""


def size_of(value: Any, items: bool = True) -> int:
    """The memory ``value`` takes, as counted against a page's budget: a text's, bytes' or
    number's own; a list's, tuple's or set's with each item's own, a mapping's with each
    value's (a list of new texts takes the texts' memory, not only the list's), or without
    ``items`` its own alone (the items of ``l + [x]`` are held already: counted again each
    time the idiom grows a list, a list of 2,000 labels counted 120 MiB); 0 for other values
    (the page's own objects, which a template does not make)."""
    if isinstance(value, (*_COUNTED_ONE_BY_ONE, dict)) and not items:
        return sys.getsizeof(value)
    if isinstance(value, _COUNTED_ONE_BY_ONE):
        return sys.getsizeof(value) + sum(map(sys.getsizeof, value))
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(map(sys.getsizeof, value.values()))
    if isinstance(value, _COUNTED_AS_A_WHOLE):
        return sys.getsizeof(value)
    return 0


class Steps:
    """The work of the page being rendered: every ``for`` of a template iterates through
    this, which counts its steps and stops the page past :data:`LOOP_STEPS`; every call
    counts itself here (:meth:`call`), stopped past :data:`CALLS`; every value made is
    counted here (:meth:`made`), stopped past :data:`MADE_BYTES`."""

    def __init__(self) -> None:
        self.left = LOOP_STEPS
        self.calls = CALLS
        self.room = MADE_BYTES

    def reset(self) -> None:
        self.left = LOOP_STEPS
        self.calls = CALLS
        self.room = MADE_BYTES

    def call(self) -> None:
        self.calls -= 1
        if self.calls < 0:
            raise TooLarge(
                f"the template made more than {CALLS:,} calls on one page (a macro that "
                "calls itself more than once at each level?)"
            )

    def made(self, value: Any, items: bool = True) -> Any:
        """``value`` itself, its memory counted against the page's budget
        (:func:`size_of`)."""
        self._spend(size_of(value, items))
        return value

    def _spend(self, size: int) -> None:
        self.room -= size
        if self.room < 0:
            raise TooLarge(
                f"the values the templates made on one page would take more than "
                f"{MADE_BYTES // 2**20:,} MiB (texts or lists made over and over, and kept?)"
            )

    def joined(self, parts: Iterable[str]) -> str:
        """``parts`` joined (Jinja2's ``concat``: a captured block's, a macro's output),
        their memory counted before they are joined (a block may repeat one long text
        thousands of times: the parts are only that text, held again and again)."""
        held = list(parts)
        self._spend(sum(map(sys.getsizeof, held)))
        return "".join(held)

    def __call__(self, iterable: Any) -> Iterator[Any]:
        for item in iterable:
            self.left -= 1
            if self.left < 0:
                raise TooLarge(
                    f"the loops took more than {LOOP_STEPS:,} steps on one page "
                    "(nested loops over large ranges?)"
                )
            yield item


def counted(original: Any, steps: Steps) -> Any:
    """The filter ``original``, its result counted against the page's budget."""
    passes = getattr(original, "jinja_pass_arg", None)

    def counted_filter(*args: Any, **kwargs: Any) -> Any:
        return steps.made(original(*args, **kwargs))

    if passes is not None:
        counted_filter.jinja_pass_arg = passes  # type: ignore[attr-defined]
    return counted_filter


def _given_as_text(given: tuple[Any, ...], named: dict[str, Any]) -> None:
    """Refuse a list, tuple, set, mapping or namespace whose text would be too long (as
    ``template_bounds.check_text``): the site's own filters and functions write what they
    are given as text."""
    for value in (*given, *named.values()):
        if isinstance(value, _TEMPLATES_MAKE):
            check_text(value, "a filter or function of the site")


class Filters(dict[str, Any]):
    """An environment's filters, each counted (:func:`counted`). A filter set once the
    environment is made is one of the site's own (``markdown``, ``slug``...): what a
    template gives it is checked too (:func:`_given_as_text`), as the built-in filters that
    write text check it (a list that nests itself forty times is refused, not written out
    for hours)."""

    def __init__(self, filters: dict[str, Any], steps: Steps) -> None:
        super().__init__({name: counted(f, steps) for name, f in filters.items()})
        self.steps = steps

    def __setitem__(self, name: str, original: Any) -> None:
        super().__setitem__(name, counted(guarded(original, _given_as_text), self.steps))


class Globals(dict[str, Any]):
    """An environment's globals. A function set once the environment is made is one of the
    site's own (``href``, ``variant_page``...): what a template gives it is checked as
    :class:`Filters` checks it; any other value (the site's configuration, a class
    holding names) is set as it is."""

    def __setitem__(self, name: str, value: Any) -> None:
        if isfunction(value) or isinstance(value, _lru_cache_wrapper):
            value = guarded(value, _given_as_text)
        super().__setitem__(name, value)
