"""Bounds on what one expression of a theme's template may make (issue 47): a number, a text
or a list that would take minutes or gigabytes is refused at once, as a
:class:`~jinja2.exceptions.SecurityError` that the build reports at the template's line.

The loops and ``*`` and ``**`` of short sequences are bounded in ``theme.py``; here the
rest a template can reach in Jinja2's sandbox:

- ``**`` and ``*`` of whole numbers, by the size of the result (``((10**64)**64)**64``);
- a width or a precision in a format (``"%2000000000s" % x``, ``"{:2000000000}".format``,
  the ``format`` filter), and the width of ``center``, ``ljust``, ``rjust``, ``zfill``,
  ``expandtabs`` and the ``center`` and ``indent`` filters;
- ``sum`` of lists or texts, at most :data:`SEQUENCE_ITEMS` items in all, added in linear
  time (Python's ``+`` copies all before each step: ``sum`` of 20,000 lists took minutes);
- ``lipsum``, at most a few paragraphs.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment
from jinja2.exceptions import SecurityError
from jinja2.filters import make_attrgetter

SEQUENCE_ITEMS = 2**20
"""The longest text or list a template may make by multiplying, padding or formatting."""
NUMBER_BITS = 2**16
"""The largest whole number a template may make by ``*`` or ``**`` (some 20,000 digits)."""
LIPSUM_PARAGRAPHS = 20
"""The most paragraphs of ``lipsum`` (its words are picked at random: a page needs few)."""

_WIDTHS = re.compile(r"\d+")
_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
_FORMAT_METHODS = frozenset({"format", "format_map"})


def check_number(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left ** right`` or ``left * right`` of whole numbers past
    :data:`NUMBER_BITS` bits."""
    if not (isinstance(left, int) and isinstance(right, int)):
        return
    if operator == "**" and right > 0 and abs(left) > 1:
        bits = (abs(left).bit_length() - 1) * right
    elif operator == "*":
        bits = abs(left).bit_length() + abs(right).bit_length()
    else:
        return
    if bits > NUMBER_BITS:
        raise SecurityError(f"a number of more than {NUMBER_BITS:,} bits made by '{operator}'")


def check_format(spec: str) -> None:
    """Refuse a format (``%`` or ``str.format``) whose width or precision, or any number
    in it, is past :data:`SEQUENCE_ITEMS`, or a ``%`` format whose width is given as ``*``
    (read from the values)."""
    if any(int(n) > SEQUENCE_ITEMS for n in _WIDTHS.findall(spec)):
        raise SecurityError(f"a format of a width past {SEQUENCE_ITEMS:,} characters")
    if re.search(r"%[-+ #0]*\*|%[-+ #0]*\d*\.\*|\{[^{}]*:[^{}]*\{", spec):
        raise SecurityError("a format whose width is given by a value ('*', '{0:{1}}')")


def check_call(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse a call of a text's method that would pad it past :data:`SEQUENCE_ITEMS`
    characters (``"x".center(10**9)``) or format it so."""
    owner = getattr(function, "__self__", None)
    name = getattr(function, "__name__", "")
    if not isinstance(owner, str):
        return
    if name in _WIDTH_METHODS:
        _check_widths([*args, *kwargs.values()])
    elif name in _FORMAT_METHODS:
        check_format(owner)


def _check_widths(values: list[Any]) -> None:
    if any(isinstance(v, int) and v > SEQUENCE_ITEMS for v in values):
        raise SecurityError(f"a width past {SEQUENCE_ITEMS:,} characters")


def bound_filters_and_globals(env: Environment) -> None:
    """Replace the filters and globals of ``env`` that could make an unbounded value by
    bounded ones of the same name and use."""
    center, indent, fmt, total = (env.filters[n] for n in ("center", "indent", "format", "sum"))
    lipsum: Any = env.globals["lipsum"]

    def bounded_center(value: Any, width: int = 80) -> Any:
        _check_widths([width])
        return center(value, width)

    def bounded_indent(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> Any:
        _check_widths([width, len(width) if isinstance(width, str) else 0])
        return indent(value, width, *args, **kwargs)

    def bounded_format(value: Any, *args: Any, **kwargs: Any) -> Any:
        check_format(str(value))
        return fmt(value, *args, **kwargs)

    def bounded_sum(env_: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
        if isinstance(start, int | float):
            return total(env_, iterable, attribute, start)
        if not isinstance(start, list | tuple | str):
            raise SecurityError("'sum' adds numbers, lists or texts")
        items = iterable if attribute is None else map(make_attrgetter(env_, attribute), iterable)
        parts: list[Any] = [start]
        size = len(start)
        for item in items:
            if not isinstance(item, type(start)):
                raise SecurityError(f"'sum' of {type(start).__name__}s met a {type(item).__name__}")
            size += len(item)
            if size > SEQUENCE_ITEMS:
                raise SecurityError(f"a 'sum' of more than {SEQUENCE_ITEMS:,} items")
            parts.append(item)
        if isinstance(start, str):
            return "".join(parts)
        joined = [x for part in parts for x in part]
        return joined if isinstance(start, list) else tuple(joined)

    def bounded_lipsum(n: int = 5, *args: Any, **kwargs: Any) -> Any:
        if isinstance(n, int) and n > LIPSUM_PARAGRAPHS:
            raise SecurityError(f"lipsum of more than {LIPSUM_PARAGRAPHS} paragraphs")
        return lipsum(n, *args, **kwargs)

    bounded_sum.jinja_pass_arg = total.jinja_pass_arg  # type: ignore[attr-defined]
    env.filters.update(
        center=bounded_center, indent=bounded_indent, format=bounded_format, sum=bounded_sum
    )
    env.globals["lipsum"] = bounded_lipsum
