"""What a run of deals counts, exactly: integer moments of each figure, rates with their
Wilson intervals, and the :class:`Tally` of a run (:mod:`simulate` fills it, deal by deal).

Counters are integers, so the tallies are exact integer sums and merge in any order; only
the reported rates, means and 95% confidence intervals are floats (Wilson intervals for
rates, normal intervals for means).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from .intervals import ends, judge

Z95: Final = 1.959963984540054


@dataclass
class Moments:
    """Integer count, sum and sum of squares, the values that are not 0 and the largest
    magnitude (whether an interval can be given: :mod:`intervals`): exact, and mergeable
    in any order."""

    n: int = 0
    total: int = 0
    squares: int = 0
    nonzero: int = 0
    largest: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        if value != 0:
            self.total += value
            self.squares += value * value
            self.nonzero += 1
            size = value if value > 0 else -value
            if size > self.largest:
                self.largest = size

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        self.nonzero += other.nonzero
        self.largest = max(self.largest, other.largest)

    def summary(self) -> dict[str, Any]:
        """The mean with its normal 95% interval (``None`` on one value: :func:`intervals.ends`),
        and ``interval``: ``normal``, ``declined`` (too few values not 0, or one too large
        for the interval to hold: :func:`intervals.judge`; ``nonzero`` and ``largest`` say
        how many and how large) or ``unchanged`` (every value 0)."""
        if self.n == 0:
            return {"n": 0, "mean": None, "ci95": None}
        judged = judge(self.total, self.squares, self.n, self.nonzero, self.largest)
        return {
            "n": self.n,
            "mean": _r(self.total / self.n),
            "ci95": ends(self.total, self.squares, self.n),
            "interval": judged,
            "nonzero": self.nonzero,
            "largest": self.largest,
        }


def _r(x: float) -> float:
    return round(x, 6)


def wilson(hits: int, n: int) -> dict[str, Any]:
    """A rate with its 95% Wilson score interval."""
    if n == 0:
        return {"count": 0, "n": 0, "rate": None, "ci95": None}
    p = hits / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return {"count": hits, "n": n, "rate": _r(p), "ci95": [_r(centre - half), _r(centre + half)]}


@dataclass
class Tally:
    """Everything counted over a run of deals."""

    deals: int = 0
    decided_by: Counter[str] = field(default_factory=Counter)
    pot: Moments = field(default_factory=Moments)
    """The pools awarded in a deal, over deals that are not void."""
    bonus_flow: Moments = field(default_factory=Moments)
    """Counters paid for brelans in a deal, over every deal."""
    seat_net: list[Moments] = field(default_factory=list)
    point_deals: int = 0
    point_suit_is_retourne: int = 0
    hands_dealt: int = 0
    dealt: Counter[str] = field(default_factory=Counter)
    """Hands as dealt (before any betting): simple brelan, carré, favori (a pair of the
    retourne's rank)."""
    played_on: int = 0
    """Deals played on a void deal's carried pool (beyond the ``deals`` counted)."""
    carried: Moments = field(default_factory=Moments)
    """What is still carried at the cut after a deal and those played on its pool (0 but
    where the chain was cut)."""
    cut: int = 0
    """Deals whose chain of void deals was cut unended after :data:`MAX_PLAYED_ON`."""
    pools: Moments = field(default_factory=Moments)
    """The pools awarded over a deal and those played on its carried pool (a pool won
    after void deals counts once, carried counters included; a cut chain counts 0)."""
    met: Counter[str] = field(default_factory=Counter)
    """In how many deals each situation a rule governs arose (:data:`SITUATIONS`)."""

    def merge(self, other: Tally) -> None:
        self.deals += other.deals
        self.decided_by.update(other.decided_by)
        self.pot.merge(other.pot)
        self.bonus_flow.merge(other.bonus_flow)
        if not self.seat_net:
            self.seat_net = [Moments() for _ in other.seat_net]
        for mine, theirs in zip(self.seat_net, other.seat_net, strict=True):
            mine.merge(theirs)
        self.point_deals += other.point_deals
        self.point_suit_is_retourne += other.point_suit_is_retourne
        self.hands_dealt += other.hands_dealt
        self.dealt.update(other.dealt)
        self.played_on += other.played_on
        self.carried.merge(other.carried)
        self.cut += other.cut
        self.pools.merge(other.pools)
        self.met.update(other.met)
