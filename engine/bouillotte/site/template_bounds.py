"""Bounds on what one expression of a theme's template may make (issue 47): a number, a text
or a list that would take minutes or gigabytes is refused at once, as a
:class:`TooLarge` (a :class:`~jinja2.exceptions.SecurityError`) that the build reports at the
template's line.

The loops and ``*`` of short sequences are bounded in ``theme.py``; here the rest a
template can reach in Jinja2's sandbox, each checked before the value is made where its
size can be told beforehand, after otherwise:

- ``**`` and ``*`` of whole numbers, by the size of the result (``((10**64)**64)**64``);
  the ``int`` filter (a long text read in base 16) and ``round`` (to ``10**precision``) by
  the same :data:`NUMBER_BITS`;
- ``+`` and ``~`` of texts, bytes or lists (a text doubled in a loop);
- a format (``%``, ``str.format``, the ``format`` filter): its widths and precisions
  added up (``"%1048576s" * 256``), those given by a value too (``%*s``, ``{0:{1}}``), and
  its fields, each as long as the longest value it is given (``("{0}" * 10**6).format(s)``);
- padding and spreading: ``center``, ``ljust``, ``rjust``, ``zfill``, ``expandtabs`` of
  texts and bytes, ``to_bytes``, and the ``center``, ``indent``, ``wordwrap`` (its
  ``wrapstring`` between every two lines) and ``urlize`` (its ``target`` and ``rel`` in
  every link) filters, by the size of the result;
- ``replace``, ``join`` and ``translate`` of texts and bytes (a text put in place of each of
  its own letters), ``sum`` of lists or texts (added in linear time), a list grown by
  ``append``, ``extend`` or ``insert``, ``slice`` into more than :data:`SEQUENCE_ITEMS` lists,
  ``batch`` filled up to more than :data:`SEQUENCE_ITEMS` items;
- turning a value into text: written (``{{ x }}``), ``~``, a format, ``string``, ``tojson``,
  ``pprint``, every other filter that writes its value as text (:data:`TEXT_FILTERS`), the
  error of ``index`` and of a missing item (``d[x]``: its name is then the type of ``x``).
  Its text is estimated without being made (:func:`text_size`), by a walk that counts each
  list, tuple, set, dict, namespace or record once however often it is held: forty lists
  each holding the one before twice (``[l, l]`` in a loop) are told at once as 2^40 items.
  Past :data:`RESULT_ITEMS` characters, with the indentation that ``tojson(indent=...)``
  and ``pprint`` add to each line, it is refused;
- ``lipsum``: at most 20 paragraphs of at most 1,000 words.

Ordinary use is untouched: ``"%d" % n``, ``"{:,}".format(n)``, ``"{} of 100000000
deals".format(n)`` (a number in the text is no width), ``2 ** 100``, ``[1, 2]|sum``,
``items|batch(3, "")``, ``data|tojson``.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from itertools import chain
from string import Formatter
from typing import Any

from jinja2 import Environment
from jinja2.exceptions import SecurityError
from jinja2.filters import make_attrgetter
from jinja2.utils import Namespace

SEQUENCE_ITEMS = 2**20
"""The widest a single width, padding or format field may be (and the longest list a
template may grow)."""
RESULT_ITEMS = 2**24
"""The longest text or list one expression of a template may make (the whole page may hold
64 MiB: ``theme.PAGE_CHARACTERS``)."""
NUMBER_BITS = 2**16
"""The largest whole number a template may make by ``*`` or ``**`` (some 20,000 digits)."""
ROUND_DIGITS = NUMBER_BITS * 3 // 10
"""The most digits ``round`` may keep or drop: ``10 ** ROUND_DIGITS`` is within
:data:`NUMBER_BITS`."""
LIPSUM_PARAGRAPHS = 20
LIPSUM_WORDS = 1_000
TEXT_FILTERS = (
    *("capitalize", "center", "e", "escape", "forceescape", "format", "indent", "join"),
    *("lower", "pprint", "replace", "safe", "string", "striptags", "title", "tojson"),
    *("trim", "truncate", "upper", "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr"),
)
"""The built-in filters that write what they are given as text (and the tests ``lower`` and
``upper``): each refuses a value whose text would pass :data:`RESULT_ITEMS`."""

_PERCENT = re.compile(
    r"%(?:\([^)]*\))?[#0\- +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?[a-zA-Z%]"
)
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d+)?[,_]?(?:\.(?P<precision>\d+))?")
_GROWS_A_LIST = frozenset({"append", "extend", "insert"})
_TEXTS = (str, bytes, bytearray)
_SEQUENCES = (*_TEXTS, list, tuple)


class TooLarge(SecurityError):
    """A bound of this module or of ``theme.py`` passed: work or a value too large for one
    page. With the bundled templates alone it comes from the inputs (a title of a million
    characters), and is bad input naming the page, not a bug (``builder._render``)."""


def _refuse(what: str) -> TooLarge:
    return TooLarge(f"{what} (a template may make at most {RESULT_ITEMS:,} items at once)")


def sized(value: Any) -> Any:
    """``value`` itself, if it is no text, bytes or list longer than :data:`RESULT_ITEMS`
    nor a number past :data:`NUMBER_BITS` (every ``~`` of a template passes its result
    through it: ``theme.py``)."""
    if isinstance(value, _SEQUENCES) and len(value) > RESULT_ITEMS:
        raise _refuse(f"a value of {len(value):,} items")
    if isinstance(value, int) and value.bit_length() > NUMBER_BITS:
        raise TooLarge(f"a number of more than {NUMBER_BITS:,} bits")
    return value


# -- a value's text, estimated without making it ----------------------------------------------

_Shape = tuple[int, int, int, int]
"""A value's text, estimated: its characters written on one line; its lines once indented
(an item a line, a long text split at every few words as ``pprint`` splits it); its depth;
the indentation ``pprint`` gives its lines, added up (a list's items by one, a dict's values
by the width of their key)."""


def _leaf(value: Any) -> _Shape | None:
    """The shape of a value written as one word (a text, bytes, a number), else ``None``."""
    if isinstance(value, _TEXTS):
        return (len(value) + 3, 1 + len(value) // 4, 0, 0)
    if isinstance(value, int):
        return (value.bit_length() * 77 // 256 + 1, 1, 0, 0)
    if isinstance(value, float) or value is None:
        return (len(repr(value)), 1, 0, 0)
    return None


def _flat(items: list[Any]) -> tuple[int, int, int] | None:
    """The characters, lines and widest item of ``items`` if each is a text, or each a whole
    number, summed without a loop of Python's (a list of 10^6 words is told at once)."""
    kinds = set(map(type, items))
    if kinds <= {str}:
        size = sum(map(len, items))
        return size + 2 * len(items), len(items) + size // 4, max(map(len, items), default=0) + 2
    if kinds <= {int, bool}:
        bits = list(map(int.bit_length, items))
        return sum(bits) * 77 // 256 + len(items), len(items), max(bits, default=0) * 77 // 256 + 1
    return None


def _parts(value: Any) -> tuple[int, list[Any], bool] | None:
    """What ``value``'s text is made of: its own characters (brackets, names), the values
    written in it (a record's: a dataclass's or pydantic model's fields), and whether they
    come in pairs (a key, its value); ``None`` for a value of another kind (one character)."""
    if isinstance(value, list | tuple | set | frozenset):
        return 12 if isinstance(value, frozenset) else 2, list(value), False
    if isinstance(value, dict):
        return 2, list(chain.from_iterable(value.items())), True
    if isinstance(value, Namespace):
        return 12, [object.__getattribute__(value, "_Namespace__attrs")], False
    model = getattr(type(value), "model_fields", None)
    names = list(model) if isinstance(model, dict) else []
    if dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value) if f.repr]
    if not names or isinstance(value, type):
        return None
    own = len(type(value).__name__) + 2 + sum(len(n) + 3 for n in names)
    return own, [getattr(value, n, None) for n in names], False


def _combine(own: int, pairs: bool, shapes: list[_Shape], times: list[int]) -> _Shape:
    held = list(zip(times, shapes, strict=True))
    chars = own + sum(t * s[0] for t, s in held) + 2 * sum(times)
    lines = 1 + sum(t * s[1] for t, s in held)
    depth = 1 + max((s[2] for s in shapes), default=0)
    if not pairs:
        return chars, lines, depth, sum(t * (s[3] + s[1]) for t, s in held)
    entries = zip(shapes[::2], shapes[1::2], strict=True)
    return chars, lines, depth, sum(k[3] + k[1] + v[3] + (k[0] + 3) * v[1] for k, v in entries)


class _Cut(Exception):
    """A walk cut short: the value is too large to write."""


def _shape(value: Any) -> _Shape:
    """``value``'s text estimated without making it: each list, tuple, set, dict, namespace
    or record is walked once however often it is held (its shape kept by its id while the
    walk holds it), and a list's repeated items once each, so that forty lists each holding
    the one before twice are told at once as 2^40 items; cut short (as too large) past
    ``RESULT_ITEMS // 3`` items walked one by one (each adds three characters at least)."""
    found = _leaf(value)
    if found is not None:
        return found
    memo: dict[int, _Shape] = {}
    kept: list[Any] = []  # each value told, so that no other takes its id meanwhile
    walking: set[int] = set()
    left = RESULT_ITEMS // 3
    # each: (id, own characters, pairs, items, how often each is held, their shapes)
    stack: list[tuple[int, int, bool, list[Any], list[int], list[_Shape]]] = []

    def told(node: Any) -> _Shape | None:
        """``node``'s shape if it is told at once; else ``None``, and ``node`` is walked."""
        nonlocal left
        found = _leaf(node) or memo.get(id(node))
        if found is not None:
            return found
        if id(node) in walking:  # a value holding itself is written "[...]"
            return (5, 1, 0, 0)
        parts = _parts(node)
        if parts is None:
            return (1, 1, 0, 0)
        own, items, pairs = parts
        kept.append(node)
        keys, values = (
            (_flat(items[::2]), _flat(items[1::2])) if pairs else (_flat(items), (0,) * 3)
        )
        if keys is not None and values is not None:
            (kc, kl, kw), (vc, vl, _) = keys, values
            indented = kl + vl * (kw + 3)  # a dict's values as if each had its widest key
            memo[id(node)] = (own + kc + vc + 2 * len(items), 1 + kl + vl, 1, indented)
            return memo[id(node)]
        times = [1] * len(items)
        if not pairs:
            held = Counter(map(id, items))
            if len(held) < len(items):
                items = list(dict(zip(map(id, items), items, strict=True)).values())
                times = [held[id(item)] for item in items]
        left -= len(items)
        if left < 0:
            raise _Cut
        walking.add(id(node))
        stack.append((id(node), own, pairs, items, times, []))
        return None

    try:
        root = told(value)
        if root is not None:
            return root
        while stack:
            key, own, pairs, items, times, shapes = stack[-1]
            if len(shapes) < len(items):
                shape = told(items[len(shapes)])
                if shape is not None:
                    shapes.append(shape)
                continue
            stack.pop()
            walking.discard(key)
            memo[key] = _combine(own, pairs, shapes, times)
            if stack:
                stack[-1][5].append(memo[key])
        return memo[id(value)]
    except _Cut:
        return (RESULT_ITEMS + 1, 1, 0, 0)


def text_size(value: Any) -> int:
    """The characters of ``value`` written as text, estimated (:func:`_shape`)."""
    if isinstance(value, _TEXTS):
        return len(value)
    return _shape(value)[0]


def _too_long(what: str) -> TooLarge:
    return TooLarge(
        f"a value whose text would hold more than {RESULT_ITEMS:,} characters, written by {what}"
    )


def check_text(value: Any, what: str) -> None:
    """Refuse writing ``value`` as text (by ``what``) past :data:`RESULT_ITEMS` characters;
    a text, bytes or number is written as it is."""
    if not isinstance(value, (*_TEXTS, int, float)) and text_size(value) > RESULT_ITEMS:
        raise _too_long(what)


def textable(value: Any) -> Any:
    """``value`` itself, if it may be written as text (every operand of a ``~``)."""
    check_text(value, "'~'")
    return value


# -- operators, formats and methods -----------------------------------------------------------


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left * right`` of a text, bytes or list past :data:`SEQUENCE_ITEMS` items,
    ``left ** right`` or ``left * right`` of whole numbers past :data:`NUMBER_BITS` bits,
    ``left + right`` of texts, bytes or lists past :data:`RESULT_ITEMS`, and a ``%`` format
    (:func:`check_format`)."""
    if operator == "%" and isinstance(left, _TEXTS):
        check_format(left, right if isinstance(right, tuple) else (right,))
        return
    if operator == "*":
        for items, times in ((left, right), (right, left)):
            if isinstance(items, _SEQUENCES) and isinstance(times, int):
                if len(items) * times > SEQUENCE_ITEMS:
                    raise TooLarge(f"a value of more than {SEQUENCE_ITEMS:,} items made by '*'")
                return
    if operator == "+" and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
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


def _widths(spec: str, values: tuple[Any, ...]) -> tuple[int, int]:
    """The characters the fields of the format ``spec`` may pad to, added up (a width given
    by a value, ``*`` or ``{0:{1}}``, counted as the largest whole number among ``values``),
    and how many fields it has (of either kind: ``%s`` and ``{}``)."""
    given = max((v for v in values if isinstance(v, int)), default=0)
    total, fields = 0, 0
    for found in _PERCENT.finditer(spec):
        fields += found[0][-1] != "%"
        for part in (found["width"], found["precision"]):
            total += given if part == "*" else int(part or 0)
    try:
        parsed = list(Formatter().parse(spec)) if "{" in spec else []
    except ValueError:  # not a str.format format: its % fields are counted above
        parsed = []
    for _, name, format_spec, _ in parsed:
        fields += name is not None
        if not format_spec:
            continue
        if "{" in format_spec:
            total += given
            continue
        spec_found = _SPEC.match(format_spec)
        if spec_found:
            total += int(spec_found["width"] or 0) + int(spec_found["precision"] or 0)
    return total, fields


def check_format(
    spec: str | bytes | bytearray, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None
) -> None:
    """Refuse a format given ``args`` and ``kwargs`` whose fields would pad past
    :data:`SEQUENCE_ITEMS` characters in all (a number in the text itself is no width), or
    whose result would pass :data:`RESULT_ITEMS`: each field counted as long as the longest
    value given (``("{0}" * 10**6).format(s)`` writes ``s`` a million times)."""
    kwargs = kwargs or {}
    text = spec if isinstance(spec, str) else bytes(spec).decode("latin-1")
    widths, fields = _widths(text, values_of(args, kwargs))
    if widths > SEQUENCE_ITEMS:
        raise TooLarge(f"a format of widths past {SEQUENCE_ITEMS:,} characters")
    longest = max((text_size(v) for v in (*args, *kwargs.values())), default=0)
    if len(text) + widths + fields * longest > RESULT_ITEMS:
        raise _refuse(f"a format of {fields:,} fields given a value of {longest:,} characters")


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
    """Before a call of a text's, bytes', number's or list's method: refuse what would make
    a value past the bounds (``"x".center(10**9)``, ``s.replace("x", s)``,
    ``"\\t".expandtabs(10**6)``, ``(1).to_bytes(10**9)``)."""
    owner = getattr(function, "__self__", None)
    name = getattr(function, "__name__", "")
    given = values_of(args, kwargs)
    if isinstance(owner, _TEXTS):
        for value in (*args, *kwargs.values()):  # a Markup writes what it is given as text
            check_text(value, f"'{name}'")
        size = _text_method_size(owner, name, args, given)
        if size > RESULT_ITEMS:
            raise _refuse(f"'{name}' of a text of {len(owner):,} characters")
        padding = name in ("center", "ljust", "rjust", "zfill", "expandtabs")
        if padding and any(isinstance(v, int) and v > SEQUENCE_ITEMS for v in given):
            raise TooLarge(f"a width past {SEQUENCE_ITEMS:,} characters")
    elif isinstance(owner, int) and name == "to_bytes":
        length = args[0] if args else kwargs.get("length", 1)
        if isinstance(length, int) and length > RESULT_ITEMS:
            raise _refuse(f"'to_bytes' of {length:,} bytes")
    elif isinstance(owner, list | tuple) and name == "index" and args:
        check_text(args[0], "'index'")  # its error writes what it did not find
    elif isinstance(owner, list) and name in _GROWS_A_LIST:
        added = len(args[0]) if name == "extend" and hasattr(args[0], "__len__") else 1
        if len(owner) + added > SEQUENCE_ITEMS:
            raise _refuse(f"a list grown past {SEQUENCE_ITEMS:,} items")


def _joined(items: Any) -> int:
    """The characters of ``items`` (a list or a text) put end to end."""
    if isinstance(items, _TEXTS):
        return len(items)
    if all(issubclass(kind, _TEXTS) for kind in set(map(type, items))):
        return sum(map(len, items))
    return sum(map(text_size, items))


def _text_method_size(
    owner: str | bytes | bytearray, name: str, args: tuple[Any, ...], given: tuple[Any, ...]
) -> int:
    """The length a text's or bytes' method would give, where it can be told beforehand
    (else 0)."""
    widest = max((v for v in given if isinstance(v, int)), default=0)
    if name in ("center", "ljust", "rjust", "zfill"):
        return max(len(owner), widest)
    if name == "expandtabs":
        tab: Any = "\t" if isinstance(owner, str) else b"\t"
        return len(owner) + owner.count(tab) * max(widest, 8)
    if name == "replace" and len(args) >= 2 and isinstance(args[0], _TEXTS):
        old, new = args[0], args[1]
        try:
            count = owner.count(old) if old else len(owner) + 1  # type: ignore[arg-type]
        except TypeError:  # bytes in a text or a text in bytes: the call refuses it
            return 0
        return len(owner) + count * max(0, text_size(new) - len(old))
    if name == "join" and args and isinstance(args[0], list | tuple | str):
        items = args[0]
        return _joined(items) + len(owner) * max(0, len(items) - 1)
    if name == "translate" and args and isinstance(owner, str):
        size = 0
        for letter, times in Counter(owner).items():
            try:
                new = args[0][ord(letter)]
            except (LookupError, TypeError):
                new = letter
            size += times * (text_size(new) if isinstance(new, str) else new is not None)
        return size
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


# -- the filters and globals ------------------------------------------------------------------


def guarded(original: Any, check: Callable[[tuple[Any, ...], dict[str, Any]], None]) -> Any:
    """The filter or test ``original``, what a template gives it passed to ``check`` first
    (not the context or environment Jinja passes before it)."""
    passes = getattr(original, "jinja_pass_arg", None)
    skip = 0 if passes is None else 1

    def guarded(*args: Any, **kwargs: Any) -> Any:
        check(args[skip:], kwargs)
        return original(*args, **kwargs)

    if passes is not None:
        guarded.jinja_pass_arg = passes  # type: ignore[attr-defined]
    return guarded


def _filter_check(env: Environment, name: str) -> Callable[[tuple[Any, ...], dict[str, Any]], None]:
    return lambda given, named: _check_filter(env, name, given, named)


def _arg(given: tuple[Any, ...], named: dict[str, Any], at: int, name: str) -> Any:
    """A filter's argument ``name``, given in place ``at`` (its value's is 0) or by name."""
    return named.get(name, given[at] if len(given) > at else None)


def _past(value: Any, bound: int) -> bool:
    return isinstance(value, int) and abs(value) > bound


def _check_filter(env: Environment, name: str, a: tuple[Any, ...], k: dict[str, Any]) -> None:
    """Refuse, before the filter ``name`` is given ``a`` and ``k``, what would pass a bound."""
    value = _arg(a, k, 0, "s" if name == "wordwrap" else "value")
    if name in TEXT_FILTERS:
        for given in (*a, *k.values()):
            check_text(given, f"'{name}'")
    if name == "slice" and _past(_arg(a, k, 1, "slices"), SEQUENCE_ITEMS):
        raise TooLarge(f"a 'slice' into more than {SEQUENCE_ITEMS:,} lists")
    filled = name == "batch" and _arg(a, k, 2, "fill_with") is not None
    if filled and _past(_arg(a, k, 1, "linecount"), SEQUENCE_ITEMS):
        raise TooLarge(f"a 'batch' filled up to more than {SEQUENCE_ITEMS:,} items")
    if name == "round" and _past(_arg(a, k, 1, "precision"), ROUND_DIGITS):
        raise TooLarge(f"a 'round' to more than {ROUND_DIGITS:,} digits")
    if name in ("tojson", "pprint"):  # each line indented: by its depth, or its keys' widths
        chars, lines, depth, indented = _shape(value)
        indent = _arg(a, k, 1, "indent") if name == "tojson" else None
        step = indent if isinstance(indent, int) else text_size(indent) if indent else 0
        if name == "pprint" or step > 0:
            chars += lines + (indented if name == "pprint" else lines * depth * step)
        if chars > RESULT_ITEMS:
            raise _too_long(f"'{name}'")
    text = str(value) if name in ("wordwrap", "urlize") else ""
    if name == "wordwrap":  # between every two lines: each holds a letter, or is a paragraph
        wrap = _arg(a, k, 3, "wrapstring") or env.newline_sequence
        if len(text) + (len(text) + 1) * text_size(wrap) > RESULT_ITEMS:
            raise _refuse(f"a 'wordwrap' of {len(text):,} characters")
    if name == "urlize":  # in every link, which holds a '.', '@' or ':' at least
        links = sum(map(text.count, ".@:"))
        target = _arg(a, k, 3, "target") or env.policies["urlize.target"] or ""
        rel = _arg(a, k, 4, "rel") or env.policies["urlize.rel"] or ""
        if 2 * len(text) + links * (64 + text_size(target) + text_size(rel)) > RESULT_ITEMS:
            raise _refuse(f"an 'urlize' of {links:,} links with a long attribute")


def bound_filters_and_globals(env: Environment) -> None:
    """Replace the filters, tests and globals of ``env`` that could make an unbounded value
    by bounded ones of the same name and use."""
    center, indent, fmt, total = (env.filters[n] for n in ("center", "indent", "format", "sum"))
    replace, join, to_int = env.filters["replace"], env.filters["join"], env.filters["int"]
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
        check_format(str(value), args, kwargs)
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
        if countable and _text_method_size(str(d), "join", (value,), ()) > RESULT_ITEMS:
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

    def bounded_int(value: Any, default: Any = 0, base: Any = 10) -> Any:
        number = to_int(value, default, base)
        if isinstance(number, int) and number.bit_length() > NUMBER_BITS:
            raise TooLarge(f"a number of more than {NUMBER_BITS:,} bits made by 'int'")
        return number

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
        int=bounded_int,
    )
    for name in (*TEXT_FILTERS, "slice", "batch", "round"):
        env.filters[name] = guarded(env.filters[name], _filter_check(env, name))
    for name in ("lower", "upper"):
        env.tests[name] = guarded(env.tests[name], _filter_check(env, name))
    env.globals["lipsum"] = bounded_lipsum
