"""Exact odds of a Bouillotte deal under a profile's rules.

The deal is a uniformly random assignment of ``players * 3 + 1`` cards of the pack (four
suits of ``rules.table.pack_ranks()``) to the labelled hands and the retourne; every such
deal is equally likely. Everything here is counted exactly, as :class:`~fractions.Fraction`;
floats appear only as display decimals. Nothing is sampled.

Two counts are made.

*Brelans* depend only on ranks, and every rank has four cards, so the retourne's rank may be
fixed (all ranks are alike) and the hands dealt one after another from the remaining
counts of each rank. The state of that count is the retourne rank's count with the sorted
counts of the other ranks, which keeps it tiny.

*The point* (when no brelan is shown) needs the suits. The retourne's suit is fixed (the
suits are alike), and a dynamic programme runs over the ranks, choosing for each rank which
suits went into the hands and adding its point value to those suits' totals; the other three
suits are alike, so their totals are kept sorted. Whether the cards chosen can be split into
the hands with no brelan is counted by inclusion and exclusion over the "bad" hands
(three of a kind, and with the favori a pair of the retourne's rank), whose number only
needs one more small counter in the state; see :func:`_point_counts`.

The point statistics follow the profile's ``point.counted_cards``. Over every exposed card
(``all-exposed``), the winning point is the richest suit's total, counted as above. Over each
player's whole hand (``whole-hand``) it is the best hand's pips, which depend on ranks alone:
a third dynamic programme gives each rank's cards to the hands by how many each receives
(:func:`_whole_hand_counts`). For a point counted in each player's best suit (``own-hand``,
``own-hand-and-retourne``) no exact count is made (the suits of every hand would have to be
followed together); the report says so and gives no point figures, rather than the figures
of another rule.

"No brelan" means: no hand holds a brelan the rules recognise. Three of a kind in hand is
always a brelan (a carré if it matches the retourne's rank, and a simple brelan where the
carré is not recognised); a pair in hand of the retourne's rank is a brelan (favori) only
where ``rules.hands.favori`` is not ``none``. Where ``rules.hands.brelans_recognised`` is
false every deal goes to the point. The brelan de Mistigri is not modelled.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, factorial
from typing import Any

from ..rules.profile import Rules

HAND_SIZE = 3
SUIT_COUNT = 4

_COMB = [[comb(n, k) for k in range(HAND_SIZE + 1)] for n in range(SUIT_COUNT + 1)]
"""``comb(n, k)`` for the cards of one rank: ``_COMB[n][k]``."""


def fraction_json(value: Fraction) -> dict[str, Any]:
    """A fraction as ``{"fraction": "n/d", "decimal": 0.123...}``."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": float(value)}


def _maybe(value: Fraction | None) -> dict[str, Any] | None:
    return None if value is None else fraction_json(value)


def odds_key(rules: Rules) -> str:
    """What the odds depend on: two profiles with the same key share their figures."""
    return json.dumps(
        [rules.table.model_dump(), rules.hands.model_dump(), rules.point.counted_cards],
        sort_keys=True,
    )


@dataclass(frozen=True)
class OddsReport:
    """Exact probabilities of one deal under one profile's rules.

    Per-player fields are for any one player (all seats are alike before the betting).
    The point fields are conditional on no brelan being dealt (see the module docstring).
    """

    players: int
    pack: tuple[str, ...]
    point_values: tuple[tuple[str, int], ...]
    deals: int
    """How many distinct deals there are (labelled hands, the retourne; order within a hand
    ignored)."""

    favori_recognised: bool
    carre_recognised: bool
    brelans_recognised: bool

    player_simple_brelan: Fraction
    """Three of a kind in hand, not of the retourne's rank."""
    player_carre: Fraction
    """Three of a kind in hand of the retourne's rank (a brelan carré where recognised)."""
    player_favori: Fraction
    """Exactly a pair in hand of the retourne's rank (a brelan favori where recognised)."""
    player_brelan: Fraction
    """Three of a kind in hand (simple or carré)."""

    table_brelan: Fraction
    """At least one hand holds three of a kind (simple or carré)."""
    table_carre: Fraction
    table_favori: Fraction
    """Some hand holds exactly a pair of the retourne's rank (at most one hand can)."""
    table_brelan_or_favori: Fraction
    """At least one brelan of the three kinds, favori included."""
    table_two_or_more_brelans: Fraction
    """Two or more hands hold three of a kind (simple or carré)."""
    brelan_count: dict[int, Fraction]
    """How many hands hold three of a kind: 0, 1, 2, ..."""

    no_brelan: Fraction
    """The deal goes to the point: no hand holds a brelan the rules recognise."""
    point_counted: str
    """The profile's ``point.counted_cards``, which the point figures below follow."""
    point_exact: bool
    """Whether the point figures were counted (see the module docstring); where not, they
    are empty and ``None``."""
    point_total: dict[int, Fraction]
    """Given no brelan: the winning point. ``all-exposed``: the winning suit's total (pips
    of the best suit over every hand and the retourne); ``whole-hand``: the best hand's
    pips."""
    point_mean: Fraction | None
    point_tie: Fraction | None
    """Given no brelan: two or more suits (``whole-hand``: hands) share the best total."""
    retourne_suit_strictly_richest: Fraction | None
    """Given no brelan: the retourne's suit is the richest alone (``all-exposed`` only)."""
    retourne_suit_at_least_richest: Fraction | None

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "pack": list(self.pack),
            "point_values": dict(self.point_values),
            "deals": self.deals,
            "favori_recognised": self.favori_recognised,
            "carre_recognised": self.carre_recognised,
            "brelans_recognised": self.brelans_recognised,
            "player": {
                "simple_brelan": fraction_json(self.player_simple_brelan),
                "carre": fraction_json(self.player_carre),
                "favori": fraction_json(self.player_favori),
                "brelan": fraction_json(self.player_brelan),
            },
            "table": {
                "brelan": fraction_json(self.table_brelan),
                "carre": fraction_json(self.table_carre),
                "favori": fraction_json(self.table_favori),
                "brelan_or_favori": fraction_json(self.table_brelan_or_favori),
                "two_or_more_brelans": fraction_json(self.table_two_or_more_brelans),
                "brelan_count": {str(k): fraction_json(v) for k, v in self.brelan_count.items()},
            },
            "point": {
                "counted_cards": self.point_counted,
                "exact": self.point_exact,
                "no_brelan": fraction_json(self.no_brelan),
                "winning_total": {
                    str(k): fraction_json(v) for k, v in sorted(self.point_total.items())
                },
                "mean": _maybe(self.point_mean),
                "tie": _maybe(self.point_tie),
                "retourne_suit_strictly_richest": _maybe(self.retourne_suit_strictly_richest),
                "retourne_suit_at_least_richest": _maybe(self.retourne_suit_at_least_richest),
            },
        }


def deal_count(pack_size: int, players: int) -> int:
    """Distinct deals: labelled hands of three, the retourne, the rest undealt."""
    dealt = players * HAND_SIZE
    hand_orders: int = factorial(HAND_SIZE) ** players
    return factorial(pack_size) // (hand_orders * factorial(pack_size - dealt - 1))


# -- brelans: by ranks only ------------------------------------------------------------

_NONE, _SIMPLE, _CARRE, _FAVORI = 0, 1, 2, 3

_Tally = tuple[int, int, int]  # simple brelans, carrés, favoris


def _take(ways: int, counts: Sequence[int], taken: list[tuple[int, int]]) -> tuple[int, list[int]]:
    """A hand of ``m`` cards of each rank ``r`` in ``taken``, dealt from ``counts`` cards
    left of each rank: the ways times the ways to choose it, and the counts left after it
    (the product is 0, and the counts unchanged, when a rank has too few cards)."""
    for r, m in taken:
        ways *= _COMB[counts[r]][m]
    left = list(counts)
    if ways:
        for r, m in taken:
            left[r] -= m
    return ways, left


def _hand_kinds(rank_count: int) -> list[tuple[tuple[int, ...], int]]:
    """Every hand as rank multiplicities (position 0 is the retourne's rank), with its kind."""
    kinds = []
    for combo in combinations_with_replacement(range(rank_count), HAND_SIZE):
        mult = tuple(combo.count(r) for r in range(rank_count))
        if mult[0] == 3:
            kind = _CARRE
        elif 3 in mult:
            kind = _SIMPLE
        elif mult[0] == 2:
            kind = _FAVORI
        else:
            kind = _NONE
        kinds.append((mult, kind))
    return kinds


@cache
def _brelan_counts(rank_count: int, players: int) -> tuple[dict[int, int], dict[_Tally, int]]:
    """Count deals of the hands after a retourne of rank 0.

    Returns the first hand's kind counts (times the ways to deal the other hands) and the
    table's tally counts, both over the same total: ordered choices of labelled hands
    from the ``4 * rank_count - 1`` cards left.

    Whatever the first hand holds, the others are dealt from as many cards, so the first
    hand's kinds are counted on their own (the hands of each kind, times the ways to deal
    the rest); the table's tally is a dynamic programme over the seats whose state is the
    cards left of each rank (the other ranks' counts sorted, as they are alike) and the
    tally so far.
    """
    kinds = _hand_kinds(rank_count)
    start = (SUIT_COUNT - 1, *([SUIT_COUNT] * (rank_count - 1)))
    left_after_first = SUIT_COUNT * rank_count - 1 - HAND_SIZE
    dealt_after_first = HAND_SIZE * (players - 1)
    rest = factorial(left_after_first) // (
        factorial(HAND_SIZE) ** (players - 1) * factorial(left_after_first - dealt_after_first)
    )
    first_counts: dict[int, int] = defaultdict(int)
    for mult, kind in kinds:
        ways = 1
        for c, m in zip(start, mult, strict=True):
            ways *= _COMB[c][m]
        if ways:
            first_counts[kind] += ways * rest
    # state: (counts left, tally) -> ways
    layer: dict[tuple[tuple[int, ...], _Tally], int] = {(start, (0, 0, 0)): 1}
    steps = [([(r, m) for r, m in enumerate(mult) if m], kind) for mult, kind in kinds]
    for _ in range(players):
        nxt: dict[tuple[tuple[int, ...], _Tally], int] = defaultdict(int)
        for (counts, (simple, carre, favori)), ways in layer.items():
            for taken, kind in steps:
                w, left = _take(ways, counts, taken)
                if not w:
                    continue
                key_counts = (left[0], *sorted(left[1:]))
                if kind == _SIMPLE:
                    tally = (simple + 1, carre, favori)
                elif kind == _CARRE:
                    tally = (simple, carre + 1, favori)
                elif kind == _FAVORI:
                    tally = (simple, carre, favori + 1)
                else:
                    tally = (simple, carre, favori)
                nxt[(key_counts, tally)] += w
        layer = nxt
    tallies: dict[_Tally, int] = defaultdict(int)
    for (_, tally), ways in layer.items():
        tallies[tally] += ways
    return dict(first_counts), dict(tallies)


# -- the point: by suits, with inclusion and exclusion over brelans ---------------------

_Totals = tuple[int, int, int, int]  # retourne's suit, then the other three sorted


def _sort3(a: int, b: int, c: int) -> tuple[int, int, int]:
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a, b, c


@cache
def _point_counts(
    values: tuple[int, ...], players: int, favori: bool, brelans: bool
) -> dict[_Totals, int]:
    """Deals with no recognised brelan and the retourne in suit 0, by suit totals.

    ``values`` are the point values of the pack's ranks. The state after some ranks is
    ``(cards in hands, bad hands chosen, retourne rank state, totals)``. Inclusion and
    exclusion: the deals of a card set with no brelan are
    ``sum over sets E of bad events (-1)^|E| * deals meeting every event in E``; a bad event
    is "hand i is three of rank r" (or, with the favori, "hand i holds at least two of the
    retourne's rank"). Events of one set use distinct hands and distinct ranks (a rank has
    four cards, the retourne's three), so a set of ``m`` events is placed on the hands in
    ``n!/(n-m)!`` ways, and the remaining ``3(n-m)`` cards are split freely in
    ``(3(n-m))!/6^(n-m)`` ways. Which events are taken is tracked by their number ``j``
    (with their card choices multiplied into the weight), and for the retourne's rank by
    the number of its cards in hand (``rho``: -1 not yet seen, 0 no event, 2 or 3 event).
    The state is kept as ``{(c, j, rho): {t0: {(t1, t2, t3): ways}}}``, so that each
    choice of suits for a rank moves a whole inner table to one target; the other three
    suits' sorted totals after a rank's cards are added are looked up in a table per value
    and choice (:class:`_Moves`), not sorted again for every state.
    """
    need = players * HAND_SIZE
    patterns = [(p & 1, p >> 1 & 1, p >> 2 & 1) for p in range(8)]  # suits 1, 2, 3
    Layer = dict[tuple[int, int, int], dict[int, dict[tuple[int, int, int], int]]]
    layer: Layer = {(0, 0, -1): {0: {(0, 0, 0): 1}}}
    # after the last rank, each state's ways are multiplied by its deals (see _deals) and
    # summed by totals alone
    final: dict[int, dict[tuple[int, int, int], int]] = {}
    remaining = len(values)
    for v in values:
        remaining -= 1
        moves = [_Moves(v, pattern) for pattern in patterns]
        nxt: Layer = {}

        def put(
            table: dict[tuple[int, int, int], int],
            move: _Moves,
            state: tuple[int, int, int],
            t0: int,
            times: int,
            into: Layer = nxt,
            last: bool = remaining == 0,
        ) -> None:
            if not last:
                _move_into(table, move, into.setdefault(state, {}).setdefault(t0, {}), times)
                return
            deals = _deals(*state, players)
            if deals:
                _move_into(table, move, final.setdefault(t0, {}), times * deals)

        for (c, j, rho), by_t0 in layer.items():
            # this rank is not the retourne's: any of its four cards may be in hand
            spare = SUIT_COUNT * remaining + (SUIT_COUNT - 1 if rho < 0 else 0)
            for pattern, move in zip(patterns, moves, strict=True):
                for a0 in (0, 1):
                    k = a0 + sum(pattern)
                    nc = c + k
                    if nc > need or nc + spare < need:
                        continue
                    event = comb(k, 3) if brelans and k >= 3 else 0
                    for t0, table in by_t0.items():
                        n0 = t0 + v * a0
                        put(table, move, (nc, j, rho), n0, 1)
                        if event:
                            put(table, move, (nc, j + 1, rho), n0, event)
            if rho >= 0:
                continue
            # this rank is the retourne's: its card of suit 0 is turned up
            spare = SUIT_COUNT * remaining
            for pattern, move in zip(patterns, moves, strict=True):
                k = sum(pattern)
                nc = c + k
                if nc > need or nc + spare < need:
                    continue
                for t0, table in by_t0.items():
                    n0 = t0 + v
                    put(table, move, (nc, j, 0), n0, 1)
                    if not brelans:
                        continue
                    if favori and k >= 2:
                        put(table, move, (nc, j, k), n0, 1)
                    elif not favori and k == 3:
                        put(table, move, (nc, j + 1, 0), n0, 1)
        layer = nxt
    return {
        (t0, t1, t2, t3): w for t0, table in final.items() for (t1, t2, t3), w in table.items() if w
    }


@cache
def _deals(c: int, j: int, rho: int, players: int) -> int:
    """The signed deals of one state of :func:`_point_counts` once every rank is placed:
    ``c`` cards in hand (all of them, or none is a deal), ``j`` events of three of a kind
    and the retourne's rank state ``rho`` (see there)."""
    need = players * HAND_SIZE
    if c != need or rho < 0:
        return 0
    m = j + (1 if rho > 0 else 0)
    if m > players:
        return 0
    free = players - m
    ways = factorial(players) // factorial(free)
    hand_orders: int = factorial(HAND_SIZE) ** free
    ways *= factorial(HAND_SIZE * free) // hand_orders
    if rho > 0:
        # the favori's hand: three of the retourne's rank, or two and any other card
        # not taken by the other events
        ways *= comb(rho, 3) + comb(rho, 2) * (need - rho - HAND_SIZE * j)
    return -ways if m % 2 else ways


class _Moves(dict[tuple[int, int, int], tuple[int, int, int]]):
    """Sorted totals of suits 1 to 3 -> the same after one rank's cards of the suits in
    ``pattern`` (one flag per position of the sorted totals) add ``value`` to them, sorted;
    each entry is worked out the first time it is asked for."""

    def __init__(self, value: int, pattern: tuple[int, int, int]) -> None:
        super().__init__()
        self.value, self.pattern = value, pattern

    def __missing__(self, totals: tuple[int, int, int]) -> tuple[int, int, int]:
        a, b, c = (t + self.value * f for t, f in zip(totals, self.pattern, strict=True))
        moved = _sort3(a, b, c)
        self[totals] = moved
        return moved


def _move_into(
    table: dict[tuple[int, int, int], int],
    move: _Moves,
    into: dict[tuple[int, int, int], int],
    times: int,
) -> None:
    """Add ``times`` the ways of every entry of ``table``, moved, into ``into``."""
    get = into.get
    if times == 1:
        for totals, w in table.items():
            moved = move[totals]
            into[moved] = get(moved, 0) + w
    else:
        for totals, w in table.items():
            moved = move[totals]
            into[moved] = get(moved, 0) + w * times


def _point_statistics(
    counts: dict[_Totals, int],
) -> tuple[int, dict[int, Fraction], Fraction, Fraction, Fraction]:
    """Total weight, winning total distribution, tie, retourne suit strictly/at least best."""
    total = sum(counts.values())
    if total == 0:
        return 0, {}, Fraction(0), Fraction(0), Fraction(0)
    best: dict[int, int] = defaultdict(int)
    tie = strict = at_least = 0
    for (t0, t1, t2, t3), w in counts.items():
        if w < 0:
            raise AssertionError("inclusion-exclusion left a negative count")
        top = max(t0, t3)
        best[top] += w
        if (t0 == top) + (t1 == top) + (t2 == top) + (t3 == top) >= 2:
            tie += w
        if t0 > t3:
            strict += w
        if t0 >= t3:
            at_least += w
    return (
        total,
        {k: Fraction(v, total) for k, v in sorted(best.items())},
        Fraction(tie, total),
        Fraction(strict, total),
        Fraction(at_least, total),
    )


# -- the point over each whole hand: by ranks only -------------------------------------

_Partial = tuple[int, int]  # cards in hand, their pips


@cache
def _whole_hand_counts(
    values: tuple[int, ...], players: int, favori: bool, brelans: bool
) -> dict[tuple[int, int], int]:
    """Deals with no recognised brelan, the retourne being one given card, by the best
    hand's pips: ``{(best pips, how many hands hold them): deals}``, summed over the
    retourne's rank.

    A hand's pips depend on its ranks alone, so the hands are dealt one after another as
    rank multisets from the cards left of each rank (three of the retourne's rank, four of
    the others), a multiset taking ``prod comb(left, taken)`` choices of cards; a hand of
    three of one rank (or, with the favori, two of the retourne's) holds a brelan and is not
    dealt. The state is the cards left of each rank, with the best pips so far and how many
    hands hold them; ranks of equal value other than the retourne's are alike, so their
    counts are kept sorted, and retournes of equal value give equal counts, so each value is
    counted once and multiplied by how many ranks have it.
    """
    result: dict[tuple[int, int], int] = defaultdict(int)
    for turned_value, alike in sorted(Counter(values).items()):
        others = sorted(values)
        others.remove(turned_value)
        order = [turned_value, *others]  # position 0 is the retourne's rank
        groups = [
            (i, j) for i, j in _runs(order[1:], offset=1) if j - i > 1
        ]  # ranges of alike ranks
        hands: list[tuple[list[tuple[int, int]], int]] = []
        for combo in combinations_with_replacement(range(len(order)), HAND_SIZE):
            per_rank = tuple(combo.count(r) for r in range(len(order)))
            if brelans and (HAND_SIZE in per_rank or (favori and per_rank[0] >= 2)):
                continue
            pips = sum(order[r] for r in combo)
            hands.append(([(r, m) for r, m in enumerate(per_rank) if m], pips))
        start = (SUIT_COUNT - 1, *([SUIT_COUNT] * len(others)))
        layer: dict[tuple[tuple[int, ...], int, int], int] = {(start, -1, 0): 1}
        for _ in range(players - 1):
            nxt: dict[tuple[tuple[int, ...], int, int], int] = defaultdict(int)
            for (left, top, held), w in layer.items():
                for taken, pips in hands:
                    ways, new = _take(w, left, taken)
                    if not ways:
                        continue
                    for i, j in groups:
                        new[i:j] = sorted(new[i:j])
                    if pips > top:
                        key = (tuple(new), pips, 1)
                    elif pips == top:
                        key = (tuple(new), top, held + 1)
                    else:
                        key = (tuple(new), top, held)
                    nxt[key] += ways
            layer = nxt
        # the last hand: only its pips count, in how many ways, from the cards left
        last: dict[tuple[int, ...], dict[int, int]] = {}
        for (left, top, held), w in layer.items():
            if left not in last:
                by_pips: dict[int, int] = defaultdict(int)
                for taken, pips in hands:
                    ways = 1
                    for r, m in taken:
                        ways *= _COMB[left[r]][m]
                    if ways:
                        by_pips[pips] += ways
                last[left] = by_pips
            w *= alike
            for pips, ways in last[left].items():
                if pips > top:
                    result[(pips, 1)] += w * ways
                elif pips == top:
                    result[(top, held + 1)] += w * ways
                else:
                    result[(top, held)] += w * ways
    return dict(result)


def _runs(items: list[int], offset: int = 0) -> list[tuple[int, int]]:
    """The ranges ``(start, stop)`` of equal neighbours in ``items`` (sorted), shifted by
    ``offset``."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(items) + 1):
        if i == len(items) or items[i] != items[start]:
            runs.append((start + offset, i + offset))
            start = i
    return runs


def _sum_where(tallies: dict[_Tally, int], test: Iterable[_Tally]) -> int:
    return sum(tallies[t] for t in test)


def compute_odds(rules: Rules) -> OddsReport:
    """The exact odds of one deal under ``rules``."""
    table = rules.table
    if table.draw != "none":
        raise ValueError(
            "not counted: the draw (table.draw) lets each player throw cards away and buy "
            "others, so the hands shown depend on the players' choices; odds of the hands "
            "as dealt would be wrong figures for the hands that decide the pot"
        )
    if table.hand_size != HAND_SIZE:
        raise ValueError(f"odds are computed for hands of {HAND_SIZE} cards, not {table.hand_size}")
    ranks = list(table.pack_ranks())
    players = table.players
    pack_size = SUIT_COUNT * len(ranks)
    # the counts are sums over the ranks, in any order; from the highest value down
    # their tables stay smallest
    values = sorted((table.point_values[r] for r in ranks), reverse=True)
    # The favori counted here is the pair with the retourne; a declared rank's favori is one
    # of the brelans, and a favori held from the deal is every brelan where there is no draw.
    favori = rules.hands.favori != "none" and rules.hands.favori_meaning == "pair-with-the-retourne"
    brelans = rules.hands.brelans_recognised

    first, tallies = _brelan_counts(len(ranks), players)
    hands_total = sum(tallies.values())

    def share(ways: int) -> Fraction:
        return Fraction(ways, hands_total)

    simple = share(first.get(_SIMPLE, 0))
    carre = share(first.get(_CARRE, 0))
    fav = share(first.get(_FAVORI, 0))
    keys = list(tallies)
    brelan_count: dict[int, int] = defaultdict(int)
    for (s, c, _), w in tallies.items():
        brelan_count[s + c] += w

    if brelans:
        goes_to_point = [t for t in keys if t[0] + t[1] == 0 and (not favori or t[2] == 0)]
    else:
        goes_to_point = keys
    no_brelan = share(_sum_where(tallies, goes_to_point))

    deals = deal_count(pack_size, players)
    counted = rules.point.counted_cards
    best: dict[int, Fraction] = {}
    mean: Fraction | None = None
    tie: Fraction | None = None
    strict: Fraction | None = None
    at_least: Fraction | None = None
    if counted == "all-exposed":
        counts = _point_counts(tuple(values), players, favori, brelans)
        weight, best, tie, strict, at_least = _point_statistics(counts)
    elif counted == "whole-hand":
        hand_counts = _whole_hand_counts(tuple(values), players, favori, brelans)
        weight = sum(hand_counts.values())
        if weight:
            tops: dict[int, int] = defaultdict(int)
            for (top, _), w in hand_counts.items():
                tops[top] += w
            best = {k: Fraction(v, weight) for k, v in sorted(tops.items())}
            tie = Fraction(sum(w for (_, n), w in hand_counts.items() if n >= 2), weight)
    else:
        weight = None
    if weight is not None:
        if Fraction(weight * SUIT_COUNT, deals) != no_brelan:
            raise AssertionError("the point count and the rank count disagree on P(no brelan)")
        mean = sum((total * p for total, p in best.items()), Fraction(0))

    return OddsReport(
        players=players,
        pack=tuple(ranks),
        point_values=tuple((r, table.point_values[r]) for r in ranks),
        deals=deals,
        favori_recognised=favori,
        carre_recognised=rules.hands.carre,
        brelans_recognised=brelans,
        player_simple_brelan=simple,
        player_carre=carre,
        player_favori=fav,
        player_brelan=simple + carre,
        table_brelan=share(_sum_where(tallies, [t for t in keys if t[0] + t[1] > 0])),
        table_carre=share(_sum_where(tallies, [t for t in keys if t[1] > 0])),
        table_favori=share(_sum_where(tallies, [t for t in keys if t[2] > 0])),
        table_brelan_or_favori=share(_sum_where(tallies, [t for t in keys if sum(t) > 0])),
        table_two_or_more_brelans=share(_sum_where(tallies, [t for t in keys if t[0] + t[1] >= 2])),
        brelan_count={k: share(v) for k, v in sorted(brelan_count.items())},
        no_brelan=no_brelan,
        point_counted=counted,
        point_exact=weight is not None,
        point_total=best,
        point_mean=mean,
        point_tie=tie,
        retourne_suit_strictly_richest=strict,
        retourne_suit_at_least_richest=at_least,
    )
