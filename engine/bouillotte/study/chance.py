"""The deal as chance steps, counted by the engine's own hands and point.

One model of a deal's chance, the engine's: :class:`bouillotte.play.dealing.ChanceDeal`
gives each labelled hand, then the retourne, as chance steps whose outcomes are equally
likely (the rest undealt), which is what a shuffled pack dealt by
:func:`bouillotte.play.dealing.deal_from_pack` gives (``tests/test_chance_steps.py`` checks
the two against each other on every order of a small pack). Each deal is judged by the
engine itself: :func:`bouillotte.play.hands.classify` says what every hand is under the
profile's rules of hands, and the point is counted from
:func:`bouillotte.play.point.suit_totals` (the richest suit over every exposed card) or each
hand's pips (``whole-hand``), as :mod:`bouillotte.study.odds` reports it.

Two ways through the deals share that judgement: :func:`enumerate_deals` walks every path of
the chance steps of a small pack (:func:`bouillotte.play.dealing.every_deal`: exact, as
counts), and :func:`sample_deals` deals shuffled packs with the engine's own dealing (for
the packs too large to go through). The closed forms of :mod:`bouillotte.study.odds` are
checked against both (``tests/test_odds_chance.py``), so the odds and the engine cannot
drift apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..play.dealing import ChanceDeal, deal_from_pack, every_deal
from ..play.hands import Kind, classify
from ..play.point import suit_totals
from ..play.showdown import rank_values
from ..play.stream import SHUFFLE, Stream, shuffle
from ..rules.cards import Card, pack
from ..rules.profile import Rules
from ..rules.variant import Variant


@dataclass
class DealTally:
    """What the engine makes of a set of deals under ``rules``, by count (every deal weighs
    one)."""

    rules: Rules
    deals: int = 0
    player: Counter[Kind] = field(default_factory=Counter)
    """The first hand's kind (``Kind.POINT`` where it is no brelan of any kind)."""
    table: Counter[Kind] = field(default_factory=Counter)
    """Deals in which at least one hand is of the kind."""
    to_point: int = 0
    """Deals in which no hand is a brelan of any kind the rules recognise."""
    winning: Counter[int] = field(default_factory=Counter)
    """Given the point: the winning total (the richest suit over every exposed card, or the
    best hand's pips)."""
    tie: int = 0
    """Given the point: two or more suits (hands) share the winning total."""
    retourne_strictly: int = 0
    """Given the point (``all-exposed``): the retourne's suit is the richest alone."""
    retourne_at_least: int = 0
    _kinds: dict[tuple[tuple[Card, ...], Card], Kind] = field(default_factory=dict, repr=False)
    """The engine's verdict on each hand met, with its retourne (a hand's kind depends on
    nothing else; every deal of a pack meets the same few hundred hands again and again)."""

    def add(self, hands: Sequence[Sequence[Card]], retourne: Card) -> None:
        """Judge one deal with the engine and count it."""
        rules = self.rules
        self.deals += 1
        kinds = []
        for hand in hands:
            key = (tuple(hand), retourne)
            kind = self._kinds.get(key)
            if kind is None:
                kind = self._kinds[key] = classify(hand, retourne, rules.hands).kind
            kinds.append(kind)
        self.player[kinds[0]] += 1
        for kind in set(kinds):
            self.table[kind] += 1
        if any(kind is not Kind.POINT for kind in kinds):
            return
        self.to_point += 1
        values = rank_values(rules)
        if rules.point.counted_cards == "whole-hand":
            totals = [sum(values[c >> 2] for c in hand) for hand in hands]
        else:
            totals = suit_totals(hands, retourne, values)
        best = max(totals)
        self.winning[best] += 1
        if totals.count(best) >= 2:
            self.tie += 1
        if rules.point.counted_cards != "whole-hand":
            turned = totals[retourne & 3]
            if turned == best:
                self.retourne_at_least += 1
                if totals.count(best) == 1:
                    self.retourne_strictly += 1


def enumerate_deals(rules: Rules) -> DealTally:
    """Every deal of the profile's pack, reached through the engine's chance steps and
    judged by the engine (exact; small packs only: two players with twelve cards is 110,880
    deals). Every deal is equally likely, so each counts one: the chance steps' own
    probability of each is checked to be one over the number of deals."""
    table = rules.table
    start = ChanceDeal(pack(table.pack_ranks()), table.players, table.hand_size)
    tally = DealTally(rules)
    chances: set[Fraction] = set()
    for probability, dealt in every_deal(start):
        assert dealt.retourne is not None  # every_deal yields dealt deals
        chances.add(probability)
        tally.add(dealt.hands, dealt.retourne)
    if chances != {Fraction(1, tally.deals)}:
        raise AssertionError(f"deals not equally likely: {sorted(chances)[:3]}")
    return tally


def sample_deals(variant: Variant, deals: int, seed: int) -> DealTally:
    """``deals`` shuffled packs dealt by the engine's own dealing, judged by the engine:
    the packs are shuffled one after the other from the shuffle stream of ``seed``."""
    rules = variant.rules
    names = [chr(ord("A") + i) for i in range(rules.table.players)]
    cards = pack(rules.table.pack_ranks())
    stream = Stream(seed, SHUFFLE)
    tally = DealTally(rules)
    for _ in range(deals):
        order = list(cards)
        shuffle(order, stream)
        dealt, retourne, _ = deal_from_pack(variant, names, names[-1], order)
        tally.add([dealt[name] for name in names], retourne)
    return tally
