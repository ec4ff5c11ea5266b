"""Exact deal odds: checked against brute force on small packs and against closed forms."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bouillotte.rules.cards import RANKS, pack, rank_of, suit_of
from bouillotte.rules.profile import Rules
from bouillotte.study.odds import OddsReport, compute_odds, deal_count

VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8, "7": 7}
FOSTER_PACKS = {
    3: ["A", "K", "9", "8"],
    4: ["A", "K", "Q", "9", "8"],
    5: ["A", "K", "Q", "J", "9", "8"],
}


def make_rules(
    players: int,
    ranks: Sequence[str],
    *,
    favori: str = "by-rank",
    brelans: bool = True,
    carre: bool = True,
    counted: str = "all-exposed",
) -> Rules:
    """A Foster-like profile with the given table, pack and hand rules."""
    bonus = {"amount": 1, "amount_if_wins_pool": 2, "paid_by": "every-other-player"}
    return Rules.model_validate(
        {
            "table": {
                "players": players,
                "packs": {players: list(ranks)},
                "point_values": {r: VALUES[r] for r in ranks},
                "hand_size": 3,
                "direction": "right",
                "cut_by": "player-on-dealers-left",
                "deal_singly": True,
                "packets": "as-deal-singly",
                "draw": "none",
            },
            "stakes": {
                "cave": 100,
                "cave_can_be_topped_up": False,
                "rebuy_amount": "players-option",
                "skip_dealer_who_rebought": True,
            },
            "forced_bets": {
                "dealer_blind": 5,
                "others_ante": 0,
                "straddles": True,
                "straddle_amount": "double-the-last",
                "straddle_limit": "to-the-dealer",
                "straddling_ends_at_first_refusal": True,
                "straddle_must_be_seen": False,
            },
            "betting": {
                "pass_before_opening": "keeps-cards",
                "opening_minimum": "equal-the-blind",
                "opening_short_of_the_pot": "cannot-open",
                "minimum_raise": 1,
                "raises": "by-any-amount",
                "all_in_may_open_or_raise": True,
                "return_uncalled_excess": True,
                "closing": "calling-privilege",
                "two_players_call_ends": True,
                "two_players_betting": "two-still-in",
                "privilege_after_the_word": "from-the-raiser",
            },
            "void_deals": {
                "nobody_opens": "pot-carried",
                "nobody_opens_after_straddles": "pot-carried",
                "void_levy": 5,
                "levy_and_next_blind": "levy-and-blind",
                "carried_pool_stake": "blind-and-antes",
            },
            "hands": {
                "brelans_recognised": brelans,
                "carre": carre,
                "card_under_retourne": False,
                "favori": favori,
                "favori_meaning": "pair-with-the-retourne",
                "carre_made_with": "the-retourne",
                "mignon": False,
                "mistigri": False,
                "mistigri_card": "QC",
            },
            "point": {
                "counted_cards": counted,
                "suit_owner": "best-card-among-contenders",
                "suit_tie": "dealer-first",
                "side_pots_by_winning_suit": True,
                "folded_hands_in_side_pools": "shown-and-counted",
            },
            "bonuses": {
                "carre": {"amount": 4, "amount_if_wins_pool": 4, "paid_by": "every-other-player"},
                "brelan": bonus,
                "favori": bonus,
                "mistigri": bonus,
                "folded_players_pay": True,
                "beaten_carre": "still-paid",
                "claimed_without_showdown": True,
                "paid_from": "cave",
            },
            "misdeals": {
                "exposed_card_is_misdeal": True,
                "triplet_payment": 1,
                "inferior_triplet_pays": False,
                "higher_triplet": "pays-the-inferior-nothing",
                "stakes_on_a_misdeal": "returned",
                "dealer_keeps_deal": True,
            },
            "session": {"deals": None, "carried_pot_at_end": "split-equally"},
        }
    )


# -- brute force: every deal, one by one ---------------------------------------------


class Tally:
    """Counts over deals, accumulated by the brute force."""

    def __init__(self) -> None:
        self.deals = 0
        self.first: Counter[str] = Counter()
        self.table: Counter[str] = Counter()
        self.brelan_count: Counter[int] = Counter()
        # point statistics under each definition of "no brelan"
        self.point: dict[str, Counter[Any]] = {
            "favori": Counter(),
            "no-favori": Counter(),
            "no-brelans": Counter(),
        }


def _kind(hand: Sequence[int], retourne_rank: int) -> str:
    ranks = [rank_of(c) for c in hand]
    if ranks[0] == ranks[1] == ranks[2]:
        return "carre" if ranks[0] == retourne_rank else "simple"
    if ranks.count(retourne_rank) == 2:
        return "favori"
    return "none"


def _record_point(
    counter: Counter[Any], totals: list[int], retourne_suit: int, ways: int = 1
) -> None:
    top = max(totals)
    counter["deals"] += ways
    counter[("total", top)] += ways
    counter["tie"] += ways * (totals.count(top) >= 2)
    others = max(t for s, t in enumerate(totals) if s != retourne_suit)
    counter["strict"] += ways * (totals[retourne_suit] > others)
    counter["at_least"] += ways * (totals[retourne_suit] >= others)


def brute_force(players: int, ranks: Sequence[str]) -> Tally:
    cards = pack(ranks)
    value = {RANKS.index(r): VALUES[r] for r in ranks}
    tally = Tally()

    def deal_hands(left: list[int], kinds: list[str], totals: list[int], retourne: int) -> None:
        if len(kinds) == players:
            finish(kinds, totals, retourne)
            return
        for hand in combinations(left, 3):
            rest = [c for c in left if c not in hand]
            added = list(totals)
            for card in hand:
                added[suit_of(card)] += value[rank_of(card)]
            deal_hands(rest, [*kinds, _kind(hand, rank_of(retourne))], added, retourne)

    raw: Counter[tuple[tuple[str, ...], tuple[int, ...], int]] = Counter()

    def finish(kinds: list[str], totals: list[int], retourne: int) -> None:
        raw[(tuple(kinds), tuple(totals), suit_of(retourne))] += 1

    for retourne in cards:
        totals = [0, 0, 0, 0]
        totals[suit_of(retourne)] += value[rank_of(retourne)]
        deal_hands([c for c in cards if c != retourne], [], totals, retourne)

    for (kinds, seen, retourne_suit), ways in raw.items():
        tally.deals += ways
        tally.first[kinds[0]] += ways
        brelans = kinds.count("simple") + kinds.count("carre")
        tally.brelan_count[brelans] += ways
        for name in ("simple", "carre", "favori"):
            tally.table[name] += ways * (name in kinds)
        tally.table["brelan"] += ways * (brelans > 0)
        tally.table["brelan_or_favori"] += ways * (brelans > 0 or "favori" in kinds)
        tally.table["two_or_more"] += ways * (brelans >= 2)
        _record_point(tally.point["no-brelans"], list(seen), retourne_suit, ways)
        if brelans == 0:
            _record_point(tally.point["no-favori"], list(seen), retourne_suit, ways)
            if "favori" not in kinds:
                _record_point(tally.point["favori"], list(seen), retourne_suit, ways)
    return tally


def check_against(report: OddsReport, tally: Tally, point_key: str) -> None:
    total = tally.deals
    assert report.deals == total

    def p(count: int) -> Fraction:
        return Fraction(count, total)

    assert report.player_simple_brelan == p(tally.first["simple"])
    assert report.player_carre == p(tally.first["carre"])
    assert report.player_favori == p(tally.first["favori"])
    assert report.player_brelan == p(tally.first["simple"] + tally.first["carre"])
    assert report.table_brelan == p(tally.table["brelan"])
    assert report.table_carre == p(tally.table["carre"])
    assert report.table_favori == p(tally.table["favori"])
    assert report.table_brelan_or_favori == p(tally.table["brelan_or_favori"])
    assert report.table_two_or_more_brelans == p(tally.table["two_or_more"])
    assert report.brelan_count == {k: p(v) for k, v in tally.brelan_count.items()}

    point = tally.point[point_key]
    n = point["deals"]
    assert report.no_brelan == p(n)
    expected_totals = {key[1]: Fraction(v, n) for key, v in point.items() if isinstance(key, tuple)}
    assert report.point_total == expected_totals
    mean = Fraction(sum(key[1] * v for key, v in point.items() if isinstance(key, tuple)), n)
    assert report.point_mean == mean
    assert report.point_tie == Fraction(point["tie"], n)
    assert report.retourne_suit_strictly_richest == Fraction(point["strict"], n)
    assert report.retourne_suit_at_least_richest == Fraction(point["at_least"], n)


@cache
def brute_force_cached(players: int, ranks: tuple[str, ...]) -> Tally:
    return brute_force(players, ranks)


SLOW = pytest.mark.slow
"""A case whose brute force or exact count takes seconds: left out of the everyday run."""

SMALL_CASES = [
    (2, ("A", "K", "9")),
    pytest.param(3, ("A", "K", "9"), marks=SLOW),
    pytest.param(2, ("A", "K", "9", "8"), marks=SLOW),
]


@pytest.mark.parametrize("players, ranks", SMALL_CASES)
@pytest.mark.parametrize(
    "favori, brelans, point_key",
    [("by-rank", True, "favori"), ("none", True, "no-favori"), ("by-rank", False, "no-brelans")],
)
def test_matches_brute_force(
    players: int, ranks: tuple[str, ...], favori: str, brelans: bool, point_key: str
) -> None:
    report = compute_odds(make_rules(players, ranks, favori=favori, brelans=brelans))
    check_against(report, brute_force_cached(players, ranks), point_key)


@pytest.mark.slow  # it counts the larger pack by brute force
def test_brute_force_is_not_degenerate() -> None:
    """The small packs do exercise every case the odds count."""
    tally = brute_force_cached(2, ("A", "K", "9", "8"))
    assert tally.table["carre"] and tally.table["favori"] and tally.table["two_or_more"]
    point = tally.point["favori"]
    assert point["tie"] and point["strict"] and point["at_least"] > point["strict"]
    assert point["deals"] > point["tie"]  # not every point deal is a tie


# -- Foster's 16-card pack: by card sets, splitting each one into hands by hand --------


@cache
def _clean_splits(signature: tuple[int, ...], retourne_count: int, hands: int) -> int:
    """Ways to split cards with these rank counts into labelled hands, none a brelan.

    ``signature`` gives each rank's count, the retourne's rank first (``retourne_count`` is
    its count); a brelan is three of a kind, or a pair of the retourne's rank (favori).
    """
    cards = [(r, i) for r, count in enumerate(signature) for i in range(count)]

    def split(left: tuple[tuple[int, int], ...], todo: int) -> int:
        if todo == 0:
            return 1
        ways = 0
        for hand in combinations(left, 3):
            ranks = [r for r, _ in hand]
            if ranks[0] == ranks[1] == ranks[2] or ranks.count(0) >= 2:
                continue
            ways += split(tuple(c for c in left if c not in hand), todo - 1)
        return ways

    return split(tuple(cards), hands)


@pytest.mark.slow
def test_foster_three_player_point_by_card_sets() -> None:
    """Every set of ten cards from the 16-card pack, every retourne among them."""
    players, ranks = 3, FOSTER_PACKS[3]
    cards = pack(ranks)
    value = {RANKS.index(r): VALUES[r] for r in ranks}
    rank_ids = sorted(value)
    counter: Counter[Any] = Counter()
    for dealt in combinations(cards, 3 * players + 1):
        for retourne in dealt:
            counts = Counter(rank_of(c) for c in dealt if c != retourne)
            rho = rank_of(retourne)
            signature = (counts[rho], *sorted(counts[r] for r in rank_ids if r != rho))
            ways = _clean_splits(signature, counts[rho], players)
            if not ways:
                continue
            totals = [0, 0, 0, 0]
            for card in dealt:
                totals[suit_of(card)] += value[rank_of(card)]
            _record_point(counter, totals, suit_of(retourne), ways)
    report = compute_odds(make_rules(players, ranks))
    n = counter["deals"]
    assert report.no_brelan == Fraction(n, deal_count(len(cards), players))
    assert report.point_total == {
        key[1]: Fraction(v, n) for key, v in counter.items() if isinstance(key, tuple)
    }
    assert report.point_tie == Fraction(counter["tie"], n)
    assert report.retourne_suit_strictly_richest == Fraction(counter["strict"], n)
    assert report.retourne_suit_at_least_richest == Fraction(counter["at_least"], n)


# -- closed forms and sanity on every pack --------------------------------------------


def check_closed_forms(report: OddsReport) -> None:
    players = report.players
    ranks = len(report.pack)
    size = 4 * ranks
    trips = Fraction(4 * ranks, comb(size, 3))  # a given hand is three of a kind
    assert report.player_simple_brelan == trips * Fraction(size - 4, size - 3)
    assert report.player_carre == trips * Fraction(1, size - 3)
    pair_hands = ranks * comb(4, 2) * (size - 4)
    assert report.player_favori == Fraction(pair_hands, comb(size, 3)) * Fraction(2, size - 3)
    # at most one hand can hold a carré or a favori (three cards of the rank are left)
    assert report.table_carre == players * report.player_carre
    assert report.table_favori == players * report.player_favori
    # expected number of brelans, by linearity
    mean = sum((k * p for k, p in report.brelan_count.items()), Fraction(0))
    assert mean == players * report.player_brelan
    assert sum(report.brelan_count.values()) == 1
    assert report.table_brelan == 1 - report.brelan_count[0]
    assert report.table_two_or_more_brelans == 1 - report.brelan_count[0] - report.brelan_count.get(
        1, Fraction(0)
    )
    assert report.player_brelan <= report.table_brelan <= report.table_brelan_or_favori <= 1


def check_point_sanity(report: OddsReport) -> None:
    assert report.point_mean is not None and report.point_tie is not None  # counted here
    assert report.retourne_suit_strictly_richest is not None
    assert report.retourne_suit_at_least_richest is not None
    assert sum(report.point_total.values()) == 1
    assert all(p > 0 for p in report.point_total.values())
    lowest, highest = min(report.point_total), max(report.point_total)
    assert lowest <= report.point_mean <= highest
    assert highest <= sum(v for _, v in report.point_values)
    # the 3n+1 exposed cards' pips are shared by four suits: the best has a quarter at least
    cards = 3 * report.players + 1
    least_pips = sum(sorted(v for _, v in report.point_values for _ in range(4))[:cards])
    assert 4 * lowest >= least_pips
    assert 0 <= report.retourne_suit_strictly_richest <= report.retourne_suit_at_least_richest
    assert report.retourne_suit_at_least_richest <= 1
    # a retourne suit that is best but not strictly best is tied
    assert (
        report.retourne_suit_at_least_richest - report.retourne_suit_strictly_richest
        <= report.point_tie
    )
    # the retourne's suit is richest more often than a quarter of the time (it has a card)
    assert report.retourne_suit_at_least_richest > Fraction(1, 4)


@pytest.mark.parametrize(
    "players", [pytest.param(n, marks=SLOW) if n == 5 else n for n in sorted(FOSTER_PACKS)]
)
def test_foster_packs(players: int) -> None:
    report = compute_odds(make_rules(players, FOSTER_PACKS[players]))
    check_closed_forms(report)
    check_point_sanity(report)
    assert report.no_brelan == 1 - report.table_brelan_or_favori
    data = report.to_json()
    assert data["table"]["brelan"]["fraction"] == (
        f"{report.table_brelan.numerator}/{report.table_brelan.denominator}"
    )
    assert data["table"]["brelan"]["decimal"] == pytest.approx(float(report.table_brelan))


def test_favori_rule_only_changes_the_point_condition() -> None:
    ranks = FOSTER_PACKS[4]
    with_favori = compute_odds(make_rules(4, ranks, favori="above-simple"))
    without = compute_odds(make_rules(4, ranks, favori="none"))
    assert with_favori.table_brelan == without.table_brelan
    assert with_favori.player_favori == without.player_favori
    assert without.no_brelan == 1 - without.table_brelan
    assert with_favori.no_brelan == 1 - with_favori.table_brelan_or_favori
    no_brelans = compute_odds(make_rules(4, ranks, brelans=False))
    assert no_brelans.no_brelan == 1


PACKS_WITH_TENS = [
    (4, ["A", "K", "10", "9", "8"]),
    pytest.param(5, ["A", "K", "Q", "10", "9", "8"], marks=SLOW),
    pytest.param(5, ["A", "K", "Q", "J", "10", "9", "8"], marks=SLOW),
]


@pytest.mark.parametrize("players, ranks", PACKS_WITH_TENS)
def test_packs_with_tens(players: int, ranks: list[str]) -> None:
    report = compute_odds(make_rules(players, ranks))
    check_closed_forms(report)
    check_point_sanity(report)
    assert report.deals == deal_count(4 * len(ranks), players)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    players=st.integers(min_value=2, max_value=4),
    favori=st.sampled_from(["none", "below-simple", "by-rank", "above-simple"]),
)
def test_random_packs(data: st.DataObject, players: int, favori: str) -> None:
    least = -(-(3 * players + 1) // 4)
    size = data.draw(st.integers(min_value=least, max_value=min(least + 2, 6)))
    chosen = data.draw(st.lists(st.sampled_from(RANKS), min_size=size, max_size=size, unique=True))
    ranks = [r for r in RANKS if r in chosen]
    report = compute_odds(make_rules(players, ranks, favori=favori))
    check_closed_forms(report)
    check_point_sanity(report)
    json = report.to_json()
    total = sum(Fraction(v["fraction"]) for v in json["point"]["winning_total"].values())
    assert total == 1


# -- the point over each whole hand (Britannica's literal reading) --------------------


@cache
def whole_hand_brute_force_both(players: int, ranks: tuple[str, ...]) -> dict[bool, Counter[Any]]:
    """Every deal, one by one: the best hand's pips when no hand holds a brelan, counted
    with a favori a brelan (``True``) and without (``False``). One walk gives both: the
    deals of the first are those of the second in which no hand holds a favori."""
    cards = pack(ranks)
    value = {RANKS.index(r): VALUES[r] for r in ranks}
    raw: Counter[tuple[bool, int, bool]] = Counter()  # (a favori held, best pips, a tie)

    def deal(left: list[int], pips: list[int], retourne: int, favori_held: bool) -> None:
        if len(pips) == players:
            top = max(pips)
            raw[(favori_held, top, pips.count(top) >= 2)] += 1
            return
        for hand in combinations(left, 3):
            kind = _kind(hand, rank_of(retourne))
            if kind in ("simple", "carre"):
                continue
            rest = [c for c in left if c not in hand]
            pip = sum(value[rank_of(c)] for c in hand)
            deal(rest, [*pips, pip], retourne, favori_held or kind == "favori")

    for retourne in cards:
        deal([c for c in cards if c != retourne], [], retourne, False)
    counters: dict[bool, Counter[Any]] = {True: Counter(), False: Counter()}
    for (favori_held, top, tie), ways in raw.items():
        for favori in (False,) if favori_held else (False, True):
            counters[favori]["deals"] += ways
            counters[favori][("total", top)] += ways
            counters[favori]["tie"] += ways * tie
    return counters


def whole_hand_brute_force(players: int, ranks: tuple[str, ...], favori: bool) -> Counter[Any]:
    """Every deal, one by one: the best hand's pips when no hand holds a brelan (with
    ``favori``, a pair of the retourne's rank is one too)."""
    return whole_hand_brute_force_both(players, ranks)[favori]


@pytest.mark.parametrize("players, ranks", SMALL_CASES)
@pytest.mark.parametrize("favori", ["by-rank", "none"])
def test_whole_hand_point_matches_brute_force(
    players: int, ranks: tuple[str, ...], favori: str
) -> None:
    report = compute_odds(make_rules(players, ranks, favori=favori, counted="whole-hand"))
    counter = whole_hand_brute_force(players, ranks, favori != "none")
    n = counter["deals"]
    assert report.point_counted == "whole-hand" and report.point_exact
    assert report.no_brelan == Fraction(n, deal_count(4 * len(ranks), players))
    assert report.point_total == {
        key[1]: Fraction(v, n) for key, v in counter.items() if isinstance(key, tuple)
    }
    assert report.point_tie == Fraction(counter["tie"], n)
    assert report.retourne_suit_strictly_richest is None  # no suit wins a whole-hand point


def test_a_best_suit_point_is_not_given_the_figures_of_another_rule() -> None:
    for counted in ("own-hand", "own-hand-and-retourne"):
        report = compute_odds(make_rules(4, FOSTER_PACKS[4], counted=counted))
        assert not report.point_exact and report.point_total == {}
        assert report.point_mean is None and report.point_tie is None
        data = report.to_json()["point"]
        assert data["counted_cards"] == counted and data["exact"] is False
        assert data["no_brelan"]["fraction"]  # the brelan figures stand: they are the pack's
