"""Exact odds against seeded deals, for every bundled profile under its own rules.

Deals are shuffled and dealt by the engine's own dealing (``deal_from_pack``), and the
figures the exact count gives are checked to lie within the interval of what the
sampled deals show: how often the point decides, and how rich the winning point is, counted
as each profile counts it (the richest suit over every exposed card, or the best hand's
pips). Nothing here reads the odds module's internals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from bouillotte.play.dealing import deal_from_pack
from bouillotte.rules.cards import RANKS, pack, parse_card, rank_of, suit_of
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant
from bouillotte.study.odds import compute_odds

pytestmark = pytest.mark.slow  # exact odds against many seeded deals, for every system

LIBRARY = Library()
DEALS = 4000
Z = 3.9
"""A 99.99% interval: two figures for each of a dozen profiles are compared, so a 95%
interval would fail one by chance more often than not; a wrong rule moves a figure by far
more (counting the 18th-century favori as a pair with the retourne moved P(no brelan) from
0.966 to 0.875)."""


def _no_brelan(hands: Sequence[Sequence[int]], retourne: int, variant: Variant) -> bool:
    hands_rules = variant.rules.hands
    if not hands_rules.brelans_recognised:
        return True
    for hand in hands:
        ranks = [rank_of(c) for c in hand]
        if ranks[0] == ranks[1] == ranks[2]:
            return False
        pair_is_favori = (
            hands_rules.favori != "none" and hands_rules.favori_meaning == "pair-with-the-retourne"
        )
        if pair_is_favori and ranks.count(rank_of(retourne)) == 2:
            return False
        # the brelan de Mistigri: its card and two cards of one rank (not a favori: above)
        wild = parse_card(hands_rules.mistigri_card)
        others = [rank_of(c) for c in hand if c != wild]
        if hands_rules.mistigri and wild in hand and others[0] == others[1]:
            return False
    return True


def _winning_point(hands: Sequence[Sequence[int]], retourne: int, variant: Variant) -> int:
    table = variant.rules.table
    value = {rank: table.point_values[rank] for rank in table.pack_ranks()}

    def pips(card: int) -> int:
        return value[RANKS[rank_of(card)]]  # type: ignore[index]

    if variant.rules.point.counted_cards == "whole-hand":
        return max(sum(pips(c) for c in hand) for hand in hands)
    totals = [0, 0, 0, 0]
    for card in [*[c for hand in hands for c in hand], retourne]:
        totals[suit_of(card)] += pips(card)
    return max(totals)


def _interval(mean: float, variance: float, n: int) -> tuple[float, float]:
    half = Z * math.sqrt(variance / n) if n else math.inf
    return mean - half, mean + half


@pytest.mark.parametrize("variant_id", [v.id for v in LIBRARY.all()])
def test_exact_odds_agree_with_seeded_deals(variant_id: str) -> None:
    variant = LIBRARY.get(variant_id)
    if variant.rules.table.draw != "none":
        # The hands shown depend on what the players buy: the odds refuse, saying why.
        with pytest.raises(ValueError, match="not counted: the draw"):
            compute_odds(variant.rules)
        return
    report = compute_odds(variant.rules)
    names = [chr(ord("A") + i) for i in range(variant.players)]
    cards = pack(variant.rules.table.pack_ranks())
    rng = random.Random(20261130)
    to_point = 0
    points: list[int] = []
    for _ in range(DEALS):
        order = list(cards)
        rng.shuffle(order)
        dealt, retourne, _ = deal_from_pack(variant, names, names[-1], order)
        hands = [dealt[name] for name in names]
        if _no_brelan(hands, retourne, variant):
            to_point += 1
            points.append(_winning_point(hands, retourne, variant))
    share = to_point / DEALS
    low, high = _interval(share, share * (1 - share), DEALS)
    assert low <= float(report.no_brelan) <= high, (variant_id, float(report.no_brelan), share)
    if not report.point_exact:
        assert variant.rules.point.counted_cards != "all-exposed"
        return
    assert report.point_mean is not None
    mean = sum(points) / len(points)
    variance = sum((p - mean) ** 2 for p in points) / (len(points) - 1)
    low, high = _interval(mean, variance, len(points))
    assert low <= float(report.point_mean) <= high, (variant_id, float(report.point_mean), mean)
