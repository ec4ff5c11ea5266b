"""The fast exact counts behind ``bouillotte odds``, each against a plain enumeration.

``test_odds.py`` checks every figure of a report against brute force; this file checks the
counts that make the figures, one by one, where they are quick to get wrong:

- the brelans' closed forms, against every deal of small packs and against dealing the
  hands seat by seat as rank patterns on larger ones;
- the point over every exposed card: one count per pack serves every reading of the
  favori and of brelans, and suits that can no longer win are forgotten, so its table is
  compared with a direct enumeration of every set of cards in hand;
- the point over each whole hand, counted by value with the brelans taken out by
  inclusion and exclusion: against every deal, under every reading of the rules, on packs
  with several ranks of one value (where grouping by value could go wrong);
- the hands dealt by value alone, against every sequence of hands from distinct cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, factorial

import pytest

from bouillotte.study.odds import (
    _CARRE,
    _FAVORI,
    _SIMPLE,
    _brelan_counts,
    compute_odds,
    forget_counts,
)
from bouillotte.study.odds_point import (
    GONE,
    _free_hands,
    _signed_deals,
    hand_point_counts,
    suit_point_counts,
)

from .test_odds import VALUES, brute_force_cached, check_against, make_rules

SLOW = pytest.mark.slow

# -- brelans ---------------------------------------------------------------------------


def _kind(ranks: Sequence[int]) -> int:
    """A hand's kind, rank 0 being the retourne's: 0 none, else _SIMPLE, _CARRE, _FAVORI."""
    if ranks[0] == ranks[1] == ranks[2]:
        return _CARRE if ranks[0] == 0 else _SIMPLE
    return _FAVORI if list(ranks).count(0) == 2 else 0


def _tally(kinds: Sequence[int]) -> tuple[int, int, int]:
    return (kinds.count(_SIMPLE), kinds.count(_CARRE), kinds.count(_FAVORI))


def brelans_by_every_deal(
    rank_count: int, players: int
) -> tuple[Counter[int], Counter[tuple[int, int, int]]]:
    """Every deal of labelled hands from the cards left after a retourne of rank 0."""
    cards = [(r, s) for r in range(rank_count) for s in range(4) if (r, s) != (0, 0)]
    first: Counter[int] = Counter()
    tallies: Counter[tuple[int, int, int]] = Counter()

    def deal(left: list[tuple[int, int]], kinds: list[int]) -> None:
        if len(kinds) == players:
            first[kinds[0]] += 1
            tallies[_tally(kinds)] += 1
            return
        for hand in combinations(left, 3):
            rest = [c for c in left if c not in hand]
            deal(rest, [*kinds, _kind([r for r, _ in hand])])

    deal(cards, [])
    return first, tallies


def brelans_seat_by_seat(
    rank_count: int, players: int
) -> tuple[Counter[int], Counter[tuple[int, int, int]]]:
    """The hands dealt one after another as rank patterns, each weighted by the ways to
    choose its cards from those left (no closed form; rank 0 the retourne's)."""
    patterns = [
        (combo, _kind(combo)) for combo in combinations_with_replacement(range(rank_count), 3)
    ]

    @cache
    def deal(counts: tuple[int, ...], seats: int) -> tuple[tuple[tuple[int, ...], int], ...]:
        if seats == 0:
            return (((), 1),)
        out: Counter[tuple[int, ...]] = Counter()
        for combo, kind in patterns:
            ways = 1
            left = list(counts)
            for r in set(combo):
                ways *= comb(left[r], combo.count(r))
                left[r] -= combo.count(r)
            if ways:
                for kinds, w in deal(tuple(left), seats - 1):
                    out[(kind, *kinds)] += ways * w
        return tuple(out.items())

    first: Counter[int] = Counter()
    tallies: Counter[tuple[int, int, int]] = Counter()
    for kinds, ways in deal((3, *[4] * (rank_count - 1)), players):
        first[kinds[0]] += ways
        tallies[_tally(kinds)] += ways
    return first, tallies


def check_brelans(
    rank_count: int,
    players: int,
    first: Counter[int],
    tallies: Counter[tuple[int, int, int]],
) -> None:
    counted_first, counted = _brelan_counts(rank_count, players)
    for kind in (_SIMPLE, _CARRE, _FAVORI):
        assert counted_first[kind] == first[kind], (kind, rank_count, players)
    assert counted == {t: w for t, w in tallies.items() if w}


@pytest.mark.parametrize("rank_count, players", [(2, 2), (3, 2), (3, 3), (4, 2)])
def test_brelans_match_every_deal(rank_count: int, players: int) -> None:
    check_brelans(rank_count, players, *brelans_by_every_deal(rank_count, players))


@pytest.mark.parametrize(
    "rank_count, players",
    [(4, 3), (5, 4), (6, 4), (6, 5), (7, 4)]
    + [pytest.param(r, n, marks=SLOW) for r, n in [(7, 6), (8, 4)]],
)
def test_brelans_match_the_hands_dealt_seat_by_seat(rank_count: int, players: int) -> None:
    check_brelans(rank_count, players, *brelans_seat_by_seat(rank_count, players))


# -- the point over every exposed card ------------------------------------------------


def suit_point_by_card_sets(
    values: Sequence[int], players: int
) -> dict[int, dict[tuple[int, int, int, int], list[int]]]:
    """Every retourne rank (its suit-0 card turned up) and every set of ``3 * players``
    cards in hand: the suit totals (only the winning ones kept, the others ``GONE``, the
    three other suits sorted) and, for each ``j``, the ways to choose ``j`` ranks other
    than the retourne's with three or four cards in hand, three of them."""
    table: dict[int, dict[tuple[int, int, int, int], list[int]]] = {}
    for turned, turned_value in enumerate(values):
        cards = [(r, s) for r in range(len(values)) for s in range(4) if (r, s) != (turned, 0)]
        for hand in combinations(cards, 3 * players):
            totals = [0, 0, 0, 0]
            totals[0] += turned_value
            held = Counter(r for r, _ in hand)
            for r, s in hand:
                totals[s] += values[r]
            top = max(totals)
            seen = [t if t == top else GONE for t in totals]
            t1, t2, t3 = sorted(seen[1:])
            key = (seen[0], t1, t2, t3)
            # elementary symmetric sums of comb(k, 3) over the other ranks
            by_j = [1] + [0] * players
            for r, k in held.items():
                if r != turned and k >= 3:
                    for j in range(players, 0, -1):
                        by_j[j] += by_j[j - 1] * comb(k, 3)
            row = table.setdefault(held[turned], {}).setdefault(key, [0] * (players + 1))
            for j, w in enumerate(by_j):
                row[j] += w
    return table


@pytest.mark.parametrize(
    "values, players",
    [
        ((11, 10, 9), 2),
        ((10, 10, 9), 2),
        ((11, 10, 10, 9), 3),
        ((11, 10, 9, 8), 3),
        pytest.param((11, 10, 10, 9, 8), 3, marks=SLOW),
    ],
)
def test_suit_point_table_matches_every_card_set(values: tuple[int, ...], players: int) -> None:
    """Packs with two ranks of one value included: the sorted totals of alike suits, the
    forgotten suits and the packed counter of three-of-a-kind ranks all show here."""
    expected = suit_point_by_card_sets(values, players)
    counted = suit_point_counts(values, players)
    assert counted == {
        rho: {k: w for k, w in rows.items() if any(w)} for rho, rows in expected.items()
    }


def test_suit_point_deals_agree_with_a_direct_split() -> None:
    """The signed deals of a state, summed over the inclusion-exclusion terms, are the
    splits of the cards into hands with no brelan, counted one by one."""
    players = 2

    def clean_splits(ranks: Sequence[int], favori: bool, brelans: bool) -> int:
        cards = list(enumerate(ranks))  # rank 0 is the retourne's

        def split(left: list[tuple[int, int]], todo: int) -> int:
            if todo == 0:
                return 1
            total = 0
            for hand in combinations(left, 3):
                kind = _kind([r for _, r in hand])
                bad = kind in (_SIMPLE, _CARRE) or (favori and kind == _FAVORI)
                if brelans and bad:
                    continue
                total += split([c for c in left if c not in hand], todo - 1)
            return total

        return split(cards, players)

    # six cards in hand: rho of the retourne's rank, the rest of ranks 1 and 2
    for rho in range(4):
        for k1 in range(5):
            k2 = 6 - rho - k1
            if not 0 <= k2 <= 4:
                continue
            ranks = [0] * rho + [1] * k1 + [2] * k2
            events = [1] + [0] * players
            for k in (k1, k2):
                if k >= 3:
                    for j in range(players, 0, -1):
                        events[j] += events[j - 1] * comb(k, 3)
            for favori in (True, False):
                for brelans in (True, False):
                    signed = sum(
                        w * _signed_deals(j, rho, players, favori, brelans)
                        for j, w in enumerate(events)
                    )
                    assert signed == clean_splits(ranks, favori, brelans), (ranks, favori)


@pytest.mark.parametrize(
    "players, ranks",
    [(2, ("K", "Q", "9")), pytest.param(3, ("K", "Q", "9"), marks=SLOW)],
)
@pytest.mark.parametrize(
    "favori, brelans, point_key",
    [("by-rank", True, "favori"), ("none", True, "no-favori"), ("by-rank", False, "no-brelans")],
)
def test_point_with_alike_ranks_matches_brute_force(
    players: int, ranks: tuple[str, ...], favori: str, brelans: bool, point_key: str
) -> None:
    """Every figure of the report, on a pack with two ranks of one value (K and Q are
    both worth ten in the brute force's table, as in the profiles)."""
    assert VALUES["K"] == VALUES["Q"]
    report = compute_odds(make_rules(players, ranks, favori=favori, brelans=brelans))
    check_against(report, brute_force_cached(players, ranks), point_key)


# -- the point over each whole hand ---------------------------------------------------


def whole_hand_by_every_deal(
    values: Sequence[int], players: int, favori: bool, brelans: bool
) -> Counter[tuple[int, bool]]:
    """Every deal with a given retourne card of each rank: the best hand's pips and whether
    two hands or more hold them, when no hand holds a brelan the rules recognise."""
    counts: Counter[tuple[int, bool]] = Counter()
    for turned in range(len(values)):
        cards = [(r, s) for r in range(len(values)) for s in range(4) if (r, s) != (turned, 0)]

        def deal(left: list[tuple[int, int]], pips: list[int], turned: int = turned) -> None:
            if len(pips) == players:
                top = max(pips)
                counts[(top, pips.count(top) >= 2)] += 1
                return
            for hand in combinations(left, 3):
                ranks = [r for r, _ in hand]
                if brelans and (
                    ranks[0] == ranks[1] == ranks[2] or (favori and ranks.count(turned) == 2)
                ):
                    continue
                rest = [c for c in left if c not in hand]
                deal(rest, [*pips, sum(values[r] for r in ranks)])

        deal(cards, [])
    return counts


@pytest.mark.parametrize(
    "values, players",
    [
        ((11, 10, 9), 2),
        ((10, 10, 9), 2),
        ((10, 10, 10), 2),
        pytest.param((11, 10, 10, 9), 2, marks=SLOW),
        pytest.param((10, 10, 9), 3, marks=SLOW),
    ],
)
@pytest.mark.parametrize("favori, brelans", [(True, True), (False, True), (True, False)])
def test_whole_hand_matches_every_deal(
    values: tuple[int, ...], players: int, favori: bool, brelans: bool
) -> None:
    expected = whole_hand_by_every_deal(values, players, favori, brelans)
    assert hand_point_counts(values, players, favori, brelans) == dict(expected)


@pytest.mark.parametrize(
    "values, pool, hands",
    [((8, 9, 10), (2, 3, 1), 2), ((9, 10), (3, 4), 2), ((8, 10, 11), (3, 3, 3), 3)],
)
def test_hands_dealt_by_value_match_every_sequence(
    values: tuple[int, ...], pool: tuple[int, ...], hands: int
) -> None:
    cards = [v for v, n in zip(values, pool, strict=True) for _ in range(n)]
    expected: Counter[tuple[int, bool]] = Counter()

    def deal(left: list[int], pips: list[int]) -> None:
        if len(pips) == hands:
            top = max(pips)
            expected[(top, pips.count(top) >= 2)] += 1
            return
        for hand in combinations(range(len(left)), 3):
            rest = [c for i, c in enumerate(left) if i not in hand]
            deal(rest, [*pips, sum(left[i] for i in hand)])

    deal(cards, [])
    assert _free_hands(values, pool, hands) == dict(expected)
    # nothing is lost: every sequence of hands is counted once
    assert sum(expected.values()) == factorial(len(cards)) // (
        6**hands * factorial(len(cards) - 3 * hands)
    )


def test_forgotten_counts_are_counted_afresh_to_the_same_report() -> None:
    """``forget_counts`` (the benchmark's way to time the counting) empties every cache,
    and a second count gives the same report."""
    rules = make_rules(3, ("A", "K", "9", "8"))
    first = compute_odds(rules)
    forget_counts()
    assert suit_point_counts.cache_info().currsize == 0
    assert _brelan_counts.cache_info().currsize == 0
    assert compute_odds(rules) == first
