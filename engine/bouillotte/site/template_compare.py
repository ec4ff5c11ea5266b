"""Comparing, sorting and hashing in a theme's template, bounded (issue 47): the work each
takes grows with the whole of the values compared, and a value a template grows by nesting
(forty lists, each holding the one before twice) is small in memory but has 2^40 items to
compare: ``ns.a == ns.b``, ``x in ns.l``, ``{ns.t: 1}``, ``ns.l|unique`` or ``|sort`` ran for
hours. Each such value is refused at once, as :mod:`.template_bounds` refuses writing it
as text: its size is told by the same walk (:func:`~.template_bounds.text_size`), which
counts each container once however often it is held.

- :data:`COMPARED` is the global every operand of a comparison (``==``, ``<``, ``in``...)
  and every key of a mapping written in a template passes through (``theme.py`` rewrites
  them so);
- :func:`bound_comparisons` guards the filters that compare or hash what they are given
  (``unique``, ``sort``, ``dictsort``, ``groupby``, ``min``, ``max``) and the tests that
  compare (``==``, ``eq``, ``in``...).

A text, a number or ``none`` is compared as it is: only containers are walked.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

from .template_bounds import RESULT_ITEMS, TooLarge, guarded, text_size

COMPARED = "_bouillotte_compared"
"""The global every operand of a comparison, and every key of a mapping, passes through."""

COMPARING_FILTERS = ("unique", "sort", "dictsort", "groupby", "min", "max")
COMPARING_TESTS = (
    *("==", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge"),
    *("equalto", "lessthan", "greaterthan", "in"),
)
_PLAIN = (str, bytes, int, float, type(None))


def compared(value: Any) -> Any:
    """``value`` itself, if comparing or hashing it is bounded work."""
    if not isinstance(value, _PLAIN) and text_size(value) > RESULT_ITEMS:
        raise TooLarge(
            f"a value of more than {RESULT_ITEMS:,} items, compared, sorted or hashed (a list "
            "that holds itself over and over): compare a smaller value"
        )
    return value


def _all_compared(given: tuple[Any, ...], named: dict[str, Any]) -> None:
    for value in (*given, *named.values()):
        compared(value)


def bound_comparisons(env: Environment) -> None:
    """Guard ``env``'s comparing filters and tests, and give it :data:`COMPARED`."""
    env.globals[COMPARED] = compared
    for name in COMPARING_FILTERS:
        env.filters[name] = guarded(env.filters[name], _all_compared)
    for name in COMPARING_TESTS:
        env.tests[name] = guarded(env.tests[name], _all_compared)
