"""Bounds on what one expression of a theme's template may make (issue 47): a number, a text
or a list that would take minutes or gigabytes is refused at once, as a
:class:`TooLarge` (a :class:`~jinja2.exceptions.SecurityError`) that the build reports at the
template's line.

The loops and ``*`` of short sequences are bounded in ``theme.py``; here the rest a
template can reach in Jinja2's sandbox, each checked before the value is made where its
size can be told beforehand, after otherwise:

- ``**`` and ``*`` of whole numbers, by the size of the result (``((10**64)**64)**64``);
- ``+`` and ``~`` of texts or lists (a text doubled in a loop);
- a format (``%``, ``str.format``, the ``format`` filter): its widths and precisions
  added up (``"%1048576s" * 256``), those given by a value too (``%*s``, ``{0:{1}}``);
- padding and spreading: ``center``, ``ljust``, ``rjust``, ``zfill``, ``expandtabs`` and
  the ``center`` and ``indent`` filters, by the size of the result;
- ``replace`` and ``join`` (a text put in place of each of its own letters), ``sum`` of lists
  or texts (added in linear time), a list grown by ``append``, ``extend`` or ``insert``;
- ``lipsum``: at most 20 paragraphs of at most 1,000 words.

Ordinary use is untouched: ``"%d" % n``, ``"{:,}".format(n)``, ``"{} of 100000000
deals".format(n)`` (a number in the text is no width), ``2 ** 100``, ``[1, 2]|sum``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from string import Formatter
from typing import Any

from jinja2 import Environment
from jinja2.exceptions import SecurityError
from jinja2.filters import make_attrgetter

SEQUENCE_ITEMS = 2**20
"""The widest a single width, padding or format field may be (and the longest list a
template may grow)."""
RESULT_ITEMS = 2**24
"""The longest text or list one expression of a template may make (the whole page may hold
64 MiB: ``theme.PAGE_CHARACTERS``)."""
NUMBER_BITS = 2**16
"""The largest whole number a template may make by ``*`` or ``**`` (some 20,000 digits)."""
LIPSUM_PARAGRAPHS = 20
LIPSUM_WORDS = 1_000

_PERCENT = re.compile(
    r"%(?:\([^)]*\))?[#0\- +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?[a-zA-Z%]"
)
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d+)?[,_]?(?:\.(?P<precision>\d+))?")
_GROWS_A_LIST = frozenset({"append", "extend", "insert"})


class TooLarge(SecurityError):
    """A bound of this module or of ``theme.py`` passed: work or a value too large for one
    page. With the bundled templates alone it comes from the inputs (a title of a million
    characters), and is bad input naming the page, not a bug (``builder._render``)."""


def _refuse(what: str) -> TooLarge:
    return TooLarge(f"{what} (a template may make at most {RESULT_ITEMS:,} items at once)")


def sized(value: Any) -> Any:
    """``value`` itself, if it is no text or list longer than :data:`RESULT_ITEMS` (every
    ``~`` of a template passes its result through it: ``theme.py``)."""
    if isinstance(value, str | list | tuple) and len(value) > RESULT_ITEMS:
        raise _refuse(f"a value of {len(value):,} items")
    return value


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left * right`` of a text or list past :data:`SEQUENCE_ITEMS` items,
    ``left ** right`` or ``left * right`` of whole numbers past :data:`NUMBER_BITS` bits,
    ``left + right`` of texts or lists past :data:`RESULT_ITEMS`, and a ``%`` format
    (:func:`check_format`)."""
    if operator == "%" and isinstance(left, str):
        check_format(left, right if isinstance(right, tuple) else (right,))
        return
    if operator == "*":
        for items, times in ((left, right), (right, left)):
            if isinstance(items, str | list | tuple) and isinstance(times, int):
                if len(items) * times > SEQUENCE_ITEMS:
                    raise TooLarge(f"a value of more than {SEQUENCE_ITEMS:,} items made by '*'")
                return
    if operator == "+" and isinstance(left, str | list | tuple) and isinstance(right, type(left)):
        if len(left) + len(right) > RESULT_ITEMS:
            raise _refuse("a '+' of too long a value")
        return
    if not (isinstance(left, int) and isinstance(right, int)):
        return
    if operator == "**" and right > 0 and abs(left) > 1:
        bits = (abs(left).bit_length() - 1) * right
    elif operator == "*":
        bits = abs(left).bit_length() + abs(right).bit_length()
    else:
        return
    if bits > NUMBER_BITS:
        raise TooLarge(f"a number of more than {NUMBER_BITS:,} bits made by '{operator}'")


def _widths(spec: str, values: tuple[Any, ...]) -> int:
    """The characters the fields of the format ``spec`` may pad to, added up; a width given
    by a value (``*``, ``{0:{1}}``) counted as the largest whole number among ``values``."""
    given = max((v for v in values if isinstance(v, int)), default=0)
    total = 0
    for found in _PERCENT.finditer(spec):
        for part in (found["width"], found["precision"]):
            total += given if part == "*" else int(part or 0)
    try:
        fields = list(Formatter().parse(spec)) if "{" in spec else []
    except ValueError:  # not a str.format format: its % fields are counted above
        fields = []
    for _, _, format_spec, _ in fields:
        if not format_spec:
            continue
        if "{" in format_spec:
            total += given
            continue
        spec_found = _SPEC.match(format_spec)
        if spec_found:
            total += int(spec_found["width"] or 0) + int(spec_found["precision"] or 0)
    return total


def check_format(spec: str, values: tuple[Any, ...] = ()) -> None:
    """Refuse a format whose fields would pad past :data:`SEQUENCE_ITEMS` characters in all
    (a number in the text itself is no width)."""
    if _widths(spec, values) > SEQUENCE_ITEMS:
        raise TooLarge(f"a format of widths past {SEQUENCE_ITEMS:,} characters")


def values_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The values a call is given, those of a list, tuple or mapping among them too (a
    format's widths may come from any of them)."""
    flat: list[Any] = []
    for value in (*args, *kwargs.values()):
        if isinstance(value, tuple | list):
            flat.extend(value)
        elif isinstance(value, dict):
            flat.extend(value.values())
        else:
            flat.append(value)
    return tuple(flat)


def check_call(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Before a call of a text's or a list's method: refuse what would make a value past the
    bounds (``"x".center(10**9)``, ``s.replace("x", s)``, ``"\\t".expandtabs(10**6)``)."""
    owner = getattr(function, "__self__", None)
    name = getattr(function, "__name__", "")
    given = values_of(args, kwargs)
    if isinstance(owner, str):
        size = _str_method_size(owner, name, args, given)
        if size > RESULT_ITEMS:
            raise _refuse(f"'{name}' of a text of {len(owner):,} characters")
        padding = name in ("center", "ljust", "rjust", "zfill", "expandtabs")
        if padding and any(isinstance(v, int) and v > SEQUENCE_ITEMS for v in given):
            raise TooLarge(f"a width past {SEQUENCE_ITEMS:,} characters")
    elif isinstance(owner, list) and name in _GROWS_A_LIST:
        added = len(args[0]) if name == "extend" and hasattr(args[0], "__len__") else 1
        if len(owner) + added > SEQUENCE_ITEMS:
            raise _refuse(f"a list grown past {SEQUENCE_ITEMS:,} items")


def _str_method_size(owner: str, name: str, args: tuple[Any, ...], given: tuple[Any, ...]) -> int:
    """The length a text's method would give, where it can be told beforehand (else 0)."""
    widest = max((v for v in given if isinstance(v, int)), default=0)
    if name in ("center", "ljust", "rjust", "zfill"):
        return max(len(owner), widest)
    if name == "expandtabs":
        return len(owner) + owner.count("\t") * max(widest, 8)
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str):
        old, new = args[0], str(args[1])
        count = owner.count(old) if old else len(owner) + 1
        return len(owner) + count * max(0, len(new) - len(old))
    if name == "join" and args and isinstance(args[0], list | tuple | str):
        items = args[0]
        return sum(len(str(x)) for x in items) + len(owner) * max(0, len(items) - 1)
    return 0


def checked_call(function: Any, call: Callable[[], Any]) -> Any:
    """The result of ``call()``, refused past :data:`RESULT_ITEMS` (what could not be told
    before), and for a list's ``append``/``extend``/``insert``, the list's length after."""
    result = call()
    owner = getattr(function, "__self__", None)
    grows = isinstance(owner, list) and getattr(function, "__name__", "") in _GROWS_A_LIST
    if grows and isinstance(owner, list) and len(owner) > SEQUENCE_ITEMS:
        del owner[SEQUENCE_ITEMS:]
        raise _refuse(f"a list grown past {SEQUENCE_ITEMS:,} items")
    return sized(result)


def bound_filters_and_globals(env: Environment) -> None:
    """Replace the filters and globals of ``env`` that could make an unbounded value by
    bounded ones of the same name and use."""
    center, indent, fmt, total = (env.filters[n] for n in ("center", "indent", "format", "sum"))
    replace, join = env.filters["replace"], env.filters["join"]
    lipsum: Any = env.globals["lipsum"]

    def bounded_center(value: Any, width: int = 80) -> Any:
        if isinstance(width, int) and width > SEQUENCE_ITEMS:
            raise TooLarge(f"a width past {SEQUENCE_ITEMS:,} characters")
        return center(value, width)

    def bounded_indent(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> Any:
        step = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        if step * (str(value).count("\n") + 1) + len(str(value)) > RESULT_ITEMS:
            raise _refuse("an 'indent' of too many lines by too much")
        return indent(value, width, *args, **kwargs)

    def bounded_format(value: Any, *args: Any, **kwargs: Any) -> Any:
        check_format(str(value), values_of(args, kwargs))
        return fmt(value, *args, **kwargs)

    def bounded_replace(ctx: Any, s: Any, old: Any, new: Any, count: Any = None) -> Any:
        text = str(s)
        times = text.count(str(old)) if str(old) else len(text) + 1
        if isinstance(count, int):
            times = min(times, count)
        if len(text) + times * max(0, len(str(new)) - len(str(old))) > RESULT_ITEMS:
            raise _refuse("a 'replace' that grows the text too much")
        return replace(ctx, s, old, new, count)

    def bounded_join(ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
        countable = attribute is None and isinstance(value, list | tuple | str)
        if countable and _str_method_size(str(d), "join", (value,), ()) > RESULT_ITEMS:
            raise _refuse(f"a 'join' of {len(value):,} items")
        return sized(join(ctx, value, d, attribute))

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
                raise TooLarge(f"a 'sum' of more than {SEQUENCE_ITEMS:,} items")
            parts.append(item)
        if isinstance(start, str):
            return "".join(parts)
        joined = [x for part in parts for x in part]
        return joined if isinstance(start, list) else tuple(joined)

    def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> Any:
        if any(isinstance(v, int) and v > LIPSUM_WORDS for v in (min, max)) or (
            isinstance(n, int) and n > LIPSUM_PARAGRAPHS
        ):
            raise TooLarge(
                f"lipsum of more than {LIPSUM_PARAGRAPHS} paragraphs of {LIPSUM_WORDS} words"
            )
        return lipsum(n, html, min, max)

    passes: list[tuple[Any, Any]] = [(bounded_sum, total), (bounded_replace, replace)]
    passes.append((bounded_join, join))
    for bounded, original in passes:  # each takes the context or environment its own took
        bounded.jinja_pass_arg = original.jinja_pass_arg
    env.filters.update(
        center=bounded_center,
        indent=bounded_indent,
        format=bounded_format,
        sum=bounded_sum,
        replace=bounded_replace,
        join=bounded_join,
    )
    env.globals["lipsum"] = bounded_lipsum
