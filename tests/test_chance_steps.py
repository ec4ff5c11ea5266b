"""The deal as chance steps (``play.dealing.ChanceDeal``): OpenSpiel's chance node.

Its promise is that it is the engine's own dealing: a shuffled pack, every order equally
likely, dealt by ``deal_from_pack``. On a pack small enough to deal in every one of its
orders (eight cards, two hands of three, the retourne and the card under it: 8! = 40,320
orders), each deal the chance steps reach must come from the same number of orders, and
no order may give a deal they cannot reach.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb, factorial

import pytest

from bouillotte.play.dealing import (
    HAND,
    RETOURNE,
    UNDER,
    ChanceDeal,
    deal_from_pack,
    every_deal,
)
from bouillotte.rules.cards import pack, parse_cards
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant
from bouillotte.study.odds import deal_count

from .test_odds import make_rules

LIBRARY = Library()


def small_variant(players: int, ranks: list[str], **table: object) -> Variant:
    rules = make_rules(players, ranks)
    changed = rules.model_copy(update={"table": rules.table.model_copy(update=table)})
    return dataclasses.replace(LIBRARY.get("pagat"), rules=changed)


Dealt = tuple[tuple[tuple[int, ...], ...], int, int | None]


def _key(deal: ChanceDeal) -> Dealt:
    assert deal.retourne is not None
    return deal.hands, deal.retourne, deal.under


@pytest.mark.parametrize(
    "table",
    [
        {"deal_singly": True, "direction": "right"},
        {"deal_singly": False, "direction": "left"},
        {"packets": "one-then-two"},
    ],
    ids=["singly", "in-threes", "packets"],
)
def test_the_chance_steps_are_the_engine_s_dealing_of_every_order(
    table: dict[str, object],
) -> None:
    variant = small_variant(2, ["A", "K"], **table)
    names = ["A", "B"]
    cards = pack(variant.rules.table.pack_ranks())
    by_orders: Counter[Dealt] = Counter()
    for order in permutations(cards):
        hands, retourne, under = deal_from_pack(variant, names, "B", list(order))
        by_orders[(tuple(tuple(sorted(hands[n])) for n in names), retourne, under)] += 1
    steps = {_key(dealt): p for p, dealt in every_deal(ChanceDeal.of(variant, under=True))}
    assert set(by_orders) == set(steps)
    # 8 cards: C(8,3) * C(5,3) hands, then 2 retournes and 1 card under it
    assert len(steps) == comb(8, 3) * comb(5, 3) * 2 == 1120
    assert set(by_orders.values()) == {factorial(8) // 1120}
    assert set(steps.values()) == {Fraction(1, 1120)}


def test_the_steps_and_their_outcomes() -> None:
    start = ChanceDeal.of(small_variant(2, ["A", "K", "Q"]), under=True)
    assert start.step() == HAND
    outcomes = start.outcomes()
    assert len(outcomes) == comb(12, 3) == 220
    assert sum(p for _, p in outcomes) == 1 and start.chance() == Fraction(1, 220)
    first = start.apply(parse_cards(["KH", "AS", "QC"]))
    assert first.hands == (tuple(sorted(parse_cards(["AS", "KH", "QC"]))),)
    assert start.hands == () and len(start.left) == 12  # the deal before is unchanged
    second = first.apply(parse_cards(["AH", "AD", "AC"]))
    assert second.step() == RETOURNE and len(second.outcomes()) == 6
    turned = second.apply(parse_cards(["KS"]))
    assert turned.retourne == parse_cards(["KS"])[0]
    assert turned.step() == UNDER and turned.chance() == Fraction(1, 5)
    done = turned.apply(parse_cards(["QS"]))
    assert done.step() is None and done.outcomes() == [] and done.chance() == 0
    assert len(done.left) == 4  # the stock


@pytest.mark.parametrize(
    ("cards", "error"),
    [
        (["KH", "AS"], "cannot be given at this step"),
        (["KH", "KH", "AS"], "cannot be given at this step"),
        (["KH", "AS", "JC"], "JC not among the cards left"),
    ],
)
def test_an_outcome_chance_cannot_give_is_refused(cards: list[str], error: str) -> None:
    start = ChanceDeal.of(small_variant(2, ["A", "K", "Q"]))
    with pytest.raises(ValueError, match=error):
        start.apply(parse_cards(cards))


def test_a_dealt_deal_takes_no_more_and_a_short_pack_none() -> None:
    start = ChanceDeal.of(small_variant(2, ["A", "K"]))
    (_, dealt), *_ = every_deal(start)
    with pytest.raises(ValueError, match="the deal is dealt"):
        dealt.apply(dealt.left[:1])
    with pytest.raises(ValueError, match="7 cards cannot deal 3 to each of 2 players"):
        ChanceDeal(pack(["A", "K"])[:7], 2, 3, under=True)


def test_every_deal_counts_the_closed_form_s_deals_and_sums_to_one() -> None:
    start = ChanceDeal.of(small_variant(2, ["A", "K", "Q"]))
    total = Fraction(0)
    deals = 0
    for probability, _ in every_deal(start):
        total += probability
        deals += 1
    assert total == 1
    assert deals == deal_count(12, 2) == 110_880


def test_a_dealt_chance_deal_starts_the_engine_s_deal() -> None:
    """docs/chance.md's example: the chance steps first, then the engine's deal."""
    from bouillotte.play.deal import new_deal

    variant = LIBRARY.get("foster")
    names = ["A", "B", "C", "D"]
    chance = ChanceDeal.of(variant)
    while chance.step() is not None:
        chance = chance.apply(chance.outcomes()[-1][0])
    assert chance.retourne is not None
    deal = new_deal(
        variant,
        names,
        "D",
        hands=dict(zip(names, chance.hands, strict=True)),
        retourne=chance.retourne,
        stock=list(chance.left),
    )
    assert [tuple(sorted(hand)) for hand in deal.hands] == list(chance.hands)
    assert deal.retourne == chance.retourne
    # the last outcome of each step: the last three cards of those left, then the last
    assert chance.hands[0] == tuple(pack(variant.rules.table.pack_ranks())[-3:])
