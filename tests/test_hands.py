"""The three-card shortcut of hand classification against the general count.

``classify_three`` (used on every simulated deal) must agree with ``classify_any`` on every
hand it can meet: every ordered triple of ranks (the three cards in every order, since the
shortcut reads them by position), against every rank of retourne, for every place of the
favori and with and without the carré. Suits do not matter to either, so each triple is
given three different suits and the retourne the fourth.
"""

from __future__ import annotations

from itertools import product

import pytest

from bouillotte.play.hands import Kind, classify_any, classify_three
from bouillotte.rules.cards import RANKS
from bouillotte.rules.profile import Hands
from bouillotte.rules.profiles import Library

BASE = Library().get("foster").rules.hands


@pytest.mark.parametrize("favori", ["none", "below-simple", "by-rank", "above-simple"])
@pytest.mark.parametrize("carre", [True, False])
def test_the_shortcut_agrees_with_the_general_count(favori: str, carre: bool) -> None:
    rules = BASE.model_copy(update={"favori": favori, "carre": carre})
    ranks = range(len(RANKS))
    kinds: set[Kind] = set()
    for r0, r1, r2 in product(ranks, repeat=3):
        hand = [r0 << 2 | 0, r1 << 2 | 1, r2 << 2 | 2]
        for turned in ranks:
            retourne = turned << 2 | 3
            fast = classify_three(hand, retourne, rules)
            assert fast == classify_any(hand, retourne, rules), (hand, retourne, rules)
            kinds.add(fast.kind)
    # every kind the rules recognise was met, so the agreement is not vacuous
    expected = {Kind.POINT, Kind.BRELAN}
    expected |= {Kind.CARRE} if carre else set()
    expected |= {Kind.FAVORI} if favori != "none" else set()
    assert kinds == expected


def test_a_pair_held_first_and_third_makes_the_favori() -> None:
    rules = BASE.model_copy(update={"favori": "by-rank"})
    assert isinstance(rules, Hands)
    king, nine = RANKS.index("K"), RANKS.index("9")
    for hand in (
        [king << 2, king << 2 | 1, nine << 2],
        [king << 2, nine << 2, king << 2 | 1],
        [nine << 2, king << 2, king << 2 | 1],
    ):
        assert classify_three(hand, king << 2 | 3, rules).kind is Kind.FAVORI
