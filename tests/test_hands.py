"""The three-card shortcut of hand classification against the general count.

``classify_three`` (used on every simulated deal) must agree with ``classify_any`` on every
hand it can meet: every ordered triple of ranks (the three cards in every order, since the
shortcut reads them by position), against every rank of retourne, for every place of the
favori and with and without the carré. Suits do not matter to either, so each triple is
given three different suits and the retourne the fourth.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from bouillotte.play.hands import Kind, classify, classify_any, classify_three
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


# -- every rule of hands, and which of them a hand reads ------------------------------------

CHOICES: dict[str, list[object]] = {
    "brelans_recognised": [True, False],
    "carre": [True, False],
    "favori": ["none", "below-simple", "by-rank", "above-simple"],
    "favori_meaning": ["pair-with-the-retourne", "declared-rank", "held-from-the-deal"],
    "carre_made_with": ["the-retourne", "a-bought-fourth"],
    "mignon": [True, False],
    "mistigri": [True, False],
    "mistigri_card": ["QC", "AS", "9H"],
}
"""Every value of every rule of hands that classifying reads (the mistigri card: three)."""


def _hands_to_try() -> list[tuple[list[int], int]]:
    """Three-card hands and retournes: every hand with a pair or three of a rank among a
    seeded sample (most hands without one are points whatever the rules), some without,
    and the hands each rule is about (a mignon, the mistigri beside a pair, three with the
    fourth turned up), in the 32-card pack's ranks and all four suits."""
    rng = random.Random(27)
    pack = [rank << 2 | suit for rank in range(len(RANKS)) for suit in range(4)]
    chosen: list[tuple[list[int], int]] = []
    plain = 0
    while len(chosen) < 500:
        cards = rng.sample(pack, 4)
        hand, retourne = cards[:3], cards[3]
        paired = len({c >> 2 for c in hand}) < 3
        if paired or plain < 60:
            plain += not paired
            chosen.append((hand, retourne))
    ace, king, queen = RANKS.index("A"), RANKS.index("K"), RANKS.index("Q")
    chosen += [
        ([ace << 2 | 0, ace << 2 | 1, king << 2 | 2], ace << 2 | 2),  # Littré's mignon
        ([ace << 2 | 0, ace << 2 | 1, king << 2 | 3], ace << 2 | 2),  # the king of another suit
        ([queen << 2 | 3, king << 2 | 0, king << 2 | 1], ace << 2 | 2),  # QC beside a pair
        ([king << 2 | 0, king << 2 | 1, king << 2 | 2], king << 2 | 3),  # the fourth turned up
    ]
    return chosen


def _every_rule_set() -> list[Hands]:
    names = [n for n in CHOICES if n != "mistigri_card"]
    out = []
    for values in product(*(CHOICES[n] for n in names)):
        update = dict(zip(names, values, strict=True)) | {"mistigri_card": "QC"}
        out.append(BASE.model_copy(update=update))
    return out


def test_classify_agrees_with_the_general_count_under_every_rule_of_hands() -> None:
    """The shortcuts of :func:`classify` (a hand that cannot beat the point, the three-card
    count) give what :func:`classify_any` gives, for every rule set of hands."""
    kinds: set[Kind] = set()
    for hand, retourne in _hands_to_try():
        for rules in _every_rule_set():
            value = classify(hand, retourne, rules)
            if rules.brelans_recognised:
                assert value == classify_any(hand, retourne, rules), (hand, retourne, rules)
            else:
                assert value.kind is Kind.POINT
            kinds.add(value.kind)
    assert kinds == set(Kind), "every kind was met, so the agreement is not vacuous"


@pytest.mark.parametrize("variant", [v.id for v in Library().all()])
def test_a_rule_of_hands_that_classifying_did_not_read_cannot_change_the_hand(
    variant: str,
) -> None:
    """What a sweep relies on to spare a play (``study/rule_reads.py``): a hand valued
    under a system's rules, with every read noted, is valued the same under every other
    value of each rule of hands that was not read, and under several of them changed at
    once (a sweep may vary several rules together)."""
    from bouillotte.study.rule_reads import READS, recording

    base = Library().get(variant)
    recorded = recording(base).rules.hands
    rng = random.Random(variant)
    unread_somewhere = set()
    for hand, retourne in _hands_to_try():
        READS.clear()
        value = classify(hand, retourne, recorded)
        read = set(READS)
        unread = [name for name in CHOICES if f"hands.{name}" not in read]
        unread_somewhere.update(unread)
        for name in unread:
            for other in CHOICES[name]:
                changed = base.rules.hands.model_copy(update={name: other})
                assert classify(hand, retourne, changed) == value, (variant, hand, name, other)
        for _ in range(3):
            update = {name: rng.choice(CHOICES[name]) for name in unread}
            changed = base.rules.hands.model_copy(update=update)
            assert classify(hand, retourne, changed) == value, (variant, hand, update)
    assert "favori" in unread_somewhere, "some hands read no rule of hands at all"
