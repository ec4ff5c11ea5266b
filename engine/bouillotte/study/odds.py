"""Exact odds of a Bouillotte deal under a profile's rules.

The deal is a uniformly random assignment of ``players * 3 + 1`` cards of the pack (four
suits of ``rules.table.pack_ranks()``) to the labelled hands and the retourne; every such
deal is equally likely. Everything here is counted exactly, as :class:`~fractions.Fraction`;
floats appear only as display decimals. Nothing is sampled.

Two counts are made, both by combinatorics rather than by going through deals.

*Brelans* depend only on ranks, and every rank has four cards, so the retourne's rank may be
fixed (all ranks are alike). The counts are closed forms (:func:`_brelan_counts`): the
deals with exactly ``s`` simple brelans come from inclusion and exclusion over sets of
simple brelans (each set of ``m`` placed in a counted number of ways, the other hands dealt
freely), and the same with one hand holding the carré or the favori.

*The point* (when no brelan is shown) needs the suits, and follows the profile's
``point.counted_cards``: over every exposed card (``all-exposed``) the winning point is the
richest suit's total; over each player's whole hand (``whole-hand``) it is the best hand's
pips. Both are counted in :mod:`bouillotte.study.odds_point`, the first by a dynamic
programme over the ranks that keeps only the suits that can still win, the second by value
with the brelans taken out by inclusion and exclusion. For a point counted in each player's
best suit (``own-hand``, ``own-hand-and-retourne``) no exact count is made (the suits of
every hand would have to be followed together); the report says so and gives no point
figures, rather than the figures of another rule.

"No brelan" means: no hand holds a brelan the rules recognise. Three of a kind in hand is
always a brelan (a carré if it matches the retourne's rank, and a simple brelan where the
carré is not recognised); a pair in hand of the retourne's rank is a brelan (favori) only
where ``rules.hands.favori`` is not ``none``; the mistigri card with a pair of another rank
is a brelan de Mistigri where ``rules.hands.mistigri`` is true (unless that pair is the
favori). Where ``rules.hands.brelans_recognised`` is false every deal goes to the point.
The brelan mignon, where it is a hand of its own (no favori with the retourne), is not
counted: the report refuses, saying why.

*The brelan de Mistigri* is one card: :func:`_mistigri_counts` chooses, for each
retourne, the mistigri's hand (its card and a pair of an allowed rank) and deals the other
hands with no brelan (:func:`_clean_hands`, by ranks); the point is counted by
:func:`~bouillotte.study.odds_point.mistigri_point_totals`. The two must agree on
P(no brelan), as the others do.

What the engine itself makes of a deal (``play.hands.classify``, ``play.point``) is the
model these counts must follow: :mod:`bouillotte.study.chance` goes through every deal of a
small pack, or deals shuffled packs, judged by the engine, and the tests hold every figure
here to it (``tests/test_odds_chance.py``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Any

from ..play.showdown import rank_values
from ..rules.cards import RANKS, parse_card, rank_of
from ..rules.profile import Rules
from . import odds_point
from .odds_point import (
    HAND_SIZE,
    SUIT_COUNT,
    hand_point_counts,
    mistigri_point_totals,
    suit_point_totals,
)

_Totals = tuple[int, int, int, int]  # retourne's suit, then the other three sorted


def fraction_json(value: Fraction) -> dict[str, Any]:
    """A fraction as ``{"fraction": "n/d", "decimal": 0.123...}``."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": float(value)}


def _maybe(value: Fraction | None) -> dict[str, Any] | None:
    return None if value is None else fraction_json(value)


def _only(key: str, value: Fraction | None) -> dict[str, Any]:
    """``{key: value}`` where there is a value, else nothing (a figure only some rules
    have leaves the others' JSON as it was)."""
    return {} if value is None else {key: fraction_json(value)}


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
    mistigri_recognised: bool
    """Whether the brelan de Mistigri is a hand (``hands.mistigri``, where brelans count)."""

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
    player_mistigri: Fraction | None
    """Where the mistigri is recognised: the hand is a brelan de Mistigri (the mistigri card
    and a pair of another rank, unless that pair is a recognised favori); else ``None``."""
    table_mistigri: Fraction | None
    """Where the mistigri is recognised: some hand is a brelan de Mistigri (at most one
    can be)."""

    no_brelan: Fraction
    """The deal goes to the point: no hand holds a brelan the rules recognise."""
    point_counted: str
    """The profile's ``point.counted_cards``, which the point figures below follow."""
    point_exact: bool
    """Whether the point figures were counted (see the module docstring); where not, they
    are empty and ``None``."""
    point_not_counted: str | None
    """Where the point figures were not counted: why, in words."""
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
            **({"mistigri_recognised": True} if self.mistigri_recognised else {}),
            "player": {
                "simple_brelan": fraction_json(self.player_simple_brelan),
                "carre": fraction_json(self.player_carre),
                "favori": fraction_json(self.player_favori),
                "brelan": fraction_json(self.player_brelan),
                **_only("mistigri", self.player_mistigri),
            },
            "table": {
                "brelan": fraction_json(self.table_brelan),
                "carre": fraction_json(self.table_carre),
                "favori": fraction_json(self.table_favori),
                "brelan_or_favori": fraction_json(self.table_brelan_or_favori),
                **_only("mistigri", self.table_mistigri),
                "two_or_more_brelans": fraction_json(self.table_two_or_more_brelans),
                "brelan_count": {str(k): fraction_json(v) for k, v in self.brelan_count.items()},
            },
            "point": {
                "counted_cards": self.point_counted,
                "exact": self.point_exact,
                **({"not_counted": self.point_not_counted} if self.point_not_counted else {}),
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


# -- brelans: by ranks only, in closed form --------------------------------------------

_NONE, _SIMPLE, _CARRE, _FAVORI = 0, 1, 2, 3

_Tally = tuple[int, int, int]  # simple brelans, carrés, favoris


def _hands(cards: int, hands: int) -> int:
    """Ways to deal ``hands`` labelled hands of three from ``cards`` cards."""
    if hands < 0 or cards < HAND_SIZE * hands:
        return 0
    hand_orders: int = factorial(HAND_SIZE) ** hands
    return factorial(cards) // (hand_orders * factorial(cards - HAND_SIZE * hands))


def _exactly(at_least: list[int]) -> list[int]:
    """From ``S[m]``, the deals counted once for each set of ``m`` chosen events they meet,
    the deals meeting exactly ``s`` events: ``sum over m >= s of (-1)^(m-s) C(m, s) S[m]``."""
    return [
        sum((-1) ** (m - s) * comb(m, s) * at_least[m] for m in range(s, len(at_least)))
        for s in range(len(at_least))
    ]


@cache
def _brelan_counts(rank_count: int, players: int) -> tuple[dict[int, int], dict[_Tally, int]]:
    """Count deals of the hands after a retourne of rank 0.

    Returns the first hand's kind counts (times the ways to deal the other hands) and the
    table's tally counts, both over the same total: ordered choices of labelled hands
    from the ``4 * rank_count - 1`` cards left (three of the retourne's rank, four of each
    other).

    Whatever the first hand holds, the others are dealt from as many cards, so the first
    hand's kinds are counted on their own (the hands of each kind, times the ways to deal
    the rest). The table's tally is counted by inclusion and exclusion: a set of ``m``
    simple brelans uses ``m`` distinct ranks (``4`` ways each) on ``m`` distinct hands
    (``n!/(n-m)!`` ways), the other hands being dealt freely from the cards left, which
    gives the deals with exactly ``s`` simple brelans. The retourne's three cards make at
    most one carré or one favori; counting the same with one hand holding the carré (its
    three cards), or the favori (two of them, ``3`` ways, and a card of another rank not in
    the simple brelans), and taking both from the total, gives the deals with neither.
    """
    cards = SUIT_COUNT * rank_count - 1
    others = rank_count - 1  # ranks of four cards
    n = players
    rest = _hands(cards - HAND_SIZE, n - 1)
    first = {
        _SIMPLE: others * comb(SUIT_COUNT, 3) * rest,
        _CARRE: rest,
        _FAVORI: comb(SUIT_COUNT - 1, 2) * SUIT_COUNT * others * rest,
    }

    def chosen(m: int) -> int:  # m ranks of four, each three of a kind (4 ways), in order
        threes: int = SUIT_COUNT**m
        return comb(others, m) * threes * factorial(n) // factorial(n - m)

    def chosen_besides(m: int) -> int:  # the same on the hands but one, chosen first
        threes: int = SUIT_COUNT**m
        return n * comb(others, m) * threes * factorial(n - 1) // factorial(n - 1 - m)

    simple = _exactly([chosen(m) * _hands(cards - 3 * m, n - m) for m in range(n + 1)])
    carre = _exactly([chosen_besides(m) * _hands(cards - 3 - 3 * m, n - 1 - m) for m in range(n)])
    favori = _exactly(
        [
            chosen_besides(m)
            * comb(SUIT_COUNT - 1, 2)
            * (SUIT_COUNT * others - 3 * m)
            * _hands(cards - 3 - 3 * m, n - 1 - m)
            for m in range(n)
        ]
    )
    tallies: dict[_Tally, int] = {}
    for s, ways in enumerate(simple):
        with_carre = carre[s] if s < len(carre) else 0
        with_favori = favori[s] if s < len(favori) else 0
        for tally, count in (
            ((s, 0, 0), ways - with_carre - with_favori),
            ((s, 1, 0), with_carre),
            ((s, 0, 1), with_favori),
        ):
            if count:
                tallies[tally] = count
    return first, tallies


# -- the brelan de Mistigri: by ranks, with its one card ---------------------------------


def _clean_hands(counts: tuple[int, ...], hands: int, favori_rank: int | None) -> int:
    """Ways to deal ``hands`` labelled hands of three, the rest undealt, from cards of which
    ``counts[r]`` are of rank ``r``, such that no hand holds three of a rank, nor (where
    ``favori_rank`` is given) two or more of that rank.

    Inclusion and exclusion over the "bad" hands: a set of ``m`` of them uses distinct hands
    and distinct ranks, so it is placed in ``n!/(n-m)!`` ways and the other hands are dealt
    freely. Three of rank ``r`` is ``C(c_r, 3)`` hands; two or more of the favori's rank is
    ``C(c, 3)`` hands, or ``C(c, 2)`` times a third card of another rank not in the other bad
    hands."""
    cards = sum(counts)
    ordinary = [c for r, c in enumerate(counts) if r != favori_rank]
    poly = [1]  # poly[m]: sets of m ranks, each three of a kind, by the ways to choose them
    for c in ordinary:
        threes = comb(c, HAND_SIZE)
        if threes:
            poly = [a + (threes * poly[m - 1] if m else 0) for m, a in enumerate([*poly, 0])]

    def placed(m: int) -> int:
        return factorial(hands) // factorial(hands - m) if m <= hands else 0

    total = 0
    for m, ways in enumerate(poly):
        if m > hands:
            break
        sign = -1 if m % 2 else 1
        total += sign * ways * placed(m) * _hands(cards - HAND_SIZE * m, hands - m)
        if favori_rank is not None and m < hands:
            c = counts[favori_rank]
            bad = comb(c, 3) + comb(c, 2) * (cards - c - HAND_SIZE * m)
            total -= (
                sign
                * ways
                * bad
                * placed(m + 1)
                * _hands(cards - HAND_SIZE * (m + 1), hands - m - 1)
            )
    return total


@dataclass(frozen=True)
class _MistigriCounts:
    """Over every deal (every retourne), for the mistigri card of rank index ``wild``."""

    held: int
    """Deals in which the first hand is a brelan de Mistigri (at most one hand can be)."""
    clean: int
    """Deals with no brelan and no favori the rules recognise, nor a brelan de Mistigri."""
    mistigri_only: int
    """Deals whose only recognised hand is a brelan de Mistigri."""


@cache
def _mistigri_counts(rank_count: int, wild: int, players: int, favori: bool) -> _MistigriCounts:
    """The deals that the brelan de Mistigri changes, by ranks (one card of rank ``wild``
    is the mistigri).

    A hand is a brelan de Mistigri when it holds the mistigri and a pair of another rank,
    unless that pair, with the retourne of its rank, is a recognised favori (then it is the
    favori). For each retourne, the mistigri's hand is chosen (the mistigri, a pair of an
    allowed rank) and the other hands are dealt with no brelan or favori
    (:func:`_clean_hands`); the deals with no recognised hand are those with no brelan or
    favori less those."""
    held = clean = only = 0
    n = players
    cards = SUIT_COUNT * rank_count - 1
    for turned in range(rank_count):
        # the retourne's cards of this rank: the mistigri itself (rank wild) is one of them
        retournes = SUIT_COUNT if turned != wild else SUIT_COUNT - 1
        counts = [SUIT_COUNT] * rank_count
        counts[turned] -= 1
        fav = turned if favori else None
        no_hand = _clean_hands(tuple(counts), n, fav)
        with_wild = list(counts)
        with_wild[wild] -= 1
        shown = spoiled = 0
        for pair in range(rank_count):
            if pair == wild or (favori and pair == turned):
                continue
            left = list(with_wild)
            ways = comb(left[pair], 2)
            left[pair] -= 2
            shown += ways * _hands(cards - HAND_SIZE, n - 1)
            spoiled += ways * _clean_hands(tuple(left), n - 1, fav)
        held += retournes * shown
        clean += retournes * (no_hand - n * spoiled)
        only += retournes * n * spoiled
        if turned == wild:  # the mistigri turned up: no hand can hold it
            clean += no_hand
    return _MistigriCounts(held, clean, only)


# -- the point ------------------------------------------------------------------------


def _point_statistics(
    counts: dict[_Totals, int],
) -> tuple[int, dict[int, Fraction], Fraction, Fraction, Fraction]:
    """Total weight, winning total distribution, tie, retourne suit strictly/at least best.

    ``counts`` are by the retourne suit's total and the other three sorted; a suit that
    cannot win is ``GONE`` there, below every total, which is all these figures need."""
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


def forget_counts() -> None:
    """Drop every cached count, so that the next :func:`compute_odds` counts afresh (the
    benchmarks time the counting this way, not a look-up)."""
    _brelan_counts.cache_clear()
    odds_point.forget_counts()


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
    hands_rules = rules.hands
    pair_favori = hands_rules.favori != "none" and (
        hands_rules.favori_meaning == "pair-with-the-retourne"
    )
    if hands_rules.mignon and hands_rules.brelans_recognised and not pair_favori:
        raise ValueError(
            "not counted: the brelan mignon (hands.mignon) is a hand of its own here (two aces "
            "and a king, the ace turned up of the king's suit), which the exact count does not "
            "follow; `bouillotte simulate` plays such deals"
        )
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
    # The brelan de Mistigri: where recognised (and brelans count at all), its card with a
    # pair in hand is a hand, so fewer deals go to the point.
    mistigri = brelans and hands_rules.mistigri
    player_mistigri: Fraction | None = None
    table_mistigri: Fraction | None = None
    not_counted: str | None = None
    if mistigri:
        wild = rank_of(parse_card(hands_rules.mistigri_card))
        wild_index = [RANKS.index(r) for r in ranks].index(wild)
        found = _mistigri_counts(len(ranks), wild_index, players, favori)
        player_mistigri = Fraction(found.held, deals)
        table_mistigri = players * player_mistigri
        if Fraction(found.clean + found.mistigri_only, deals) != no_brelan:
            raise AssertionError("the mistigri's count and the rank count disagree")
        no_brelan = Fraction(found.clean, deals)
        if counted == "whole-hand":
            not_counted = (
                "the brelan de Mistigri (hands.mistigri) with the point over each whole hand "
                "is not counted exactly"
            )
    if counted not in ("all-exposed", "whole-hand"):
        not_counted = (
            f"the point is counted in each player's own best suit (point.counted_cards: "
            f"{counted}): the suits of every hand would have to be followed together"
        )
    best: dict[int, Fraction] = {}
    mean: Fraction | None = None
    tie: Fraction | None = None
    strict: Fraction | None = None
    at_least: Fraction | None = None
    retournes = SUIT_COUNT  # the counts below fix the retourne's suit
    if not_counted is not None:
        weight = None
    elif counted == "all-exposed" and mistigri:
        # counted over every retourne: the weights sum to the deals themselves (ranks of
        # one value are alike, so the mistigri's rank is the first of its value)
        wild_value = rank_values(rules)[wild]
        counts = mistigri_point_totals(tuple(values), values.index(wild_value), players, favori)
        weight, best, tie, strict, at_least = _point_statistics(counts)
        retournes = 1
    elif counted == "all-exposed":
        counts = suit_point_totals(tuple(values), players, favori, brelans)
        weight, best, tie, strict, at_least = _point_statistics(counts)
    elif counted == "whole-hand":
        hand_counts = hand_point_counts(tuple(values), players, favori, brelans)
        weight = sum(hand_counts.values())
        if weight:
            tops: dict[int, int] = defaultdict(int)
            for (top, _), w in hand_counts.items():
                tops[top] += w
            best = {k: Fraction(v, weight) for k, v in sorted(tops.items())}
            tie = Fraction(sum(w for (_, tied), w in hand_counts.items() if tied), weight)
    else:  # pragma: no cover - every other rule is not counted (above)
        weight = None
    if weight is not None:
        if Fraction(weight * retournes, deals) != no_brelan:
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
        mistigri_recognised=mistigri,
        player_simple_brelan=simple,
        player_carre=carre,
        player_favori=fav,
        player_brelan=simple + carre,
        table_brelan=share(_sum_where(tallies, [t for t in keys if t[0] + t[1] > 0])),
        table_carre=share(_sum_where(tallies, [t for t in keys if t[1] > 0])),
        table_favori=share(_sum_where(tallies, [t for t in keys if t[2] > 0])),
        table_brelan_or_favori=share(_sum_where(tallies, [t for t in keys if sum(t) > 0])),
        player_mistigri=player_mistigri,
        table_mistigri=table_mistigri,
        table_two_or_more_brelans=share(_sum_where(tallies, [t for t in keys if t[0] + t[1] >= 2])),
        brelan_count={k: share(v) for k, v in sorted(brelan_count.items())},
        no_brelan=no_brelan,
        point_counted=counted,
        point_exact=weight is not None,
        point_not_counted=not_counted,
        point_total=best,
        point_mean=mean,
        point_tie=tie,
        retourne_suit_strictly_richest=strict,
        retourne_suit_at_least_richest=at_least,
    )
