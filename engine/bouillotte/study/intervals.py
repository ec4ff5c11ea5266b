"""When a 95% interval on a mean can be stood behind, and how a mean is written.

A normal interval on the mean of ``n`` per-deal values (a seat's net, or the paired
difference between a rule set's deal and the base's) keeps its 95% only where the mean is
the sum of many comparable contributions. A rule that moves a few deals in thousands, one of
them by hundreds of counters, breaks that: most samples of a few thousand deals hold none of
those deals and give a narrow interval near zero that misses the effect, and a sample that
holds one gives an interval the one deal alone decides. So an interval is **declined** (no
interval is given, nothing is called clear; the count of deals that moved and the largest of
their values are given instead) where:

- fewer than :data:`MIN_MOVED` deals moved (a nonzero value): a value that arises in one
  moved deal in :data:`MIN_MOVED` or fewer is then likely not in the sample at all, and
  nothing in it tells how large it is; or
- one deal carries more than :data:`MAX_SHARE` of the sum of squares: the sample's spread
  is one deal's, and so is the interval.

Every count is an integer (the deals that moved, the largest value's magnitude), so the
tallies still merge in any order into the same numbers. ``docs/simulation.md`` ("Intervals
on rare, large effects") gives the coverage measured.

No interval at all can be computed from fewer than two values (:func:`ends` is then
``None``, which the JSON writes ``null`` and the CSV an empty cell, never an infinite end).
A standard deviation's interval is judged the same way (:func:`judge_spread`): it rests on
the fourth moment, which one deal decides sooner still than it decides a mean's spread.
"""

from __future__ import annotations

import math
from typing import Any, Final, Literal

Z95: Final = 1.959963984540054

MIN_MOVED: Final = 100
"""The fewest deals that moved (a nonzero value) for a normal interval."""

MAX_SHARE: Final = 0.1
"""The largest share of the sum of squares one deal may carry for a normal interval."""

Judged = Literal["normal", "declined", "unchanged"]


def judge(total: int, squares: int, n: int, moved: int, largest: int) -> Judged:
    """``unchanged`` where every value is 0, ``declined`` where too few deals moved or one
    deal carries too much of the spread (module docstring), else ``normal``."""
    if moved == 0:
        return "unchanged"
    if n < 2 or moved < MIN_MOVED or largest * largest > MAX_SHARE * squares:
        return "declined"
    return "normal"


def mean_interval(total: int, squares: int, n: int) -> tuple[float, float, float]:
    """The mean of ``n`` values from their integer sum and sum of squares, with its normal
    95% interval (infinite for one value: a report gives :func:`ends`, ``None`` then)."""
    mean = total / n
    if n > 1:
        variance = max((squares - total * total / n) / (n - 1), 0.0)
        half = Z95 * math.sqrt(variance / n)
    else:
        half = math.inf
    return mean, mean - half, mean + half


def _r(x: float) -> float:
    return round(x, 6)


def ends(total: int, squares: int, n: int) -> list[float] | None:
    """The normal 95% interval's ends as a report gives them (to six places), or ``None``
    where fewer than two values leave it unknown (not infinite: JSON has no infinity)."""
    if n < 2:
        return None
    _, low, high = mean_interval(total, squares, n)
    return [_r(low), _r(high)]


def judge_spread(powers: list[int], n: int, largest: int) -> Judged:
    """How far the delta-method interval of a standard deviation may be stood behind, from
    the sums of the first four powers of ``n`` values that are never below 0 (a pool) and
    the largest of them: ``declined`` on fewer than :data:`MIN_MOVED` values (on 2 or 3
    the interval is no 95% interval; on 2 equal ones it would be [0, 0]) or where one value
    may carry more than :data:`MAX_SHARE` of the sum of the fourth powers of the deviations
    (the interval is then that value's); ``unchanged`` where every value is the same;
    else ``normal``. A value's deviation is at most ``largest`` less the mean, or the mean
    (no value is below 0): the bound is the one deal's share where it cannot be known."""
    if n < MIN_MOVED:
        return "declined"
    p1, p2, p3, p4 = powers
    # In whole numbers, so that equal values are exactly unchanged: n² times the variance,
    # n⁴ times the fourth central moment, n times the largest deviation's bound.
    if n * p2 - p1 * p1 == 0:
        return "unchanged"
    fourth = n**3 * p4 - 4 * n * n * p1 * p3 + 6 * n * p1 * p1 * p2 - 3 * p1**4
    deviation = max(n * largest - p1, p1)
    return "declined" if deviation**4 > MAX_SHARE * fourth * n else "normal"


def difference(total: int, squares: int, n: int, moved: int, largest: int) -> dict[str, Any]:
    """A paired difference's JSON fields: ``diff`` and ``diff_ci95`` (the normal interval,
    as always, but ``None`` on fewer than two deals: :func:`ends`), and what may be said of
    them: ``diff_interval`` (``normal``, ``declined`` or ``unchanged``), ``diff_clear``
    (the interval is normal and excludes 0), ``diff_moved`` (deals whose difference is not
    0) and ``diff_largest`` (the largest difference's magnitude)."""
    mean, low, high = mean_interval(total, squares, n)
    judged = judge(total, squares, n, moved, largest)
    return {
        "diff": _r(mean),
        "diff_ci95": ends(total, squares, n),
        "diff_interval": judged,
        "diff_clear": judged == "normal" and (low > 0 or high < 0),
        "diff_moved": moved,
        "diff_largest": largest,
    }


def places_for(value: float, half: float, *bounds: float) -> int:
    """Decimal places that show ``value``, the half-width ``half`` and each of ``bounds``
    (an interval's ends, where it is called clear: a starred interval must not print an end
    as 0) as more than 0 (2 at the least, 6 at the most)."""
    places = 2
    smallest = min((abs(x) for x in (value, half, *bounds) if x != 0), default=1.0)
    while places < 6 and round(smallest, places) == 0:
        places += 1
    return places


def moved_in_words(moved: int, largest: int, scale: int = 1) -> str:
    """``no interval: 3 deals moved, the largest by 312``."""
    deals = "deal" if moved == 1 else "deals"
    size = f"{largest * scale:g}"
    return f"no interval: {moved:,} {deals} moved, the largest by {size}"
