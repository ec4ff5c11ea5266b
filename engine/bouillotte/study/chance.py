"""The deal as chance steps, counted by the engine's own hands and point.

One model of a deal's chance: the retourne is one card of the pack, then each labelled hand
is three of the cards left (the order within a hand does not matter), the rest undealt;
every such deal is equally likely, which is what a shuffled pack dealt by
:func:`bouillotte.play.dealing.deal_from_pack` gives (the cards' places in the deal are
fixed, the pack's order uniform). Each deal is judged by the engine itself:
:func:`bouillotte.play.hands.classify` says what every hand is under the profile's rules of
hands, and the point is counted from :func:`bouillotte.play.point.suit_totals` (the richest
suit over every exposed card) or each hand's pips (``whole-hand``), as
:mod:`bouillotte.study.odds` reports it.

Two ways through the deals share that judgement: :func:`enumerate_deals` goes through every
deal of a small pack (exact, as counts), and :func:`sample_deals` deals shuffled packs with
the engine's own dealing (for the packs too large to go through). The closed forms of
:mod:`bouillotte.study.odds` are checked against both (``tests/test_odds_chance.py``), so
the odds and the engine cannot drift apart.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ..play.dealing import deal_from_pack
from ..play.hands import Kind, classify
from ..play.point import suit_totals
from ..play.showdown import rank_values
from ..rules.cards import Card, pack
from ..rules.profile import Rules
from ..rules.variant import Variant

HAND_SIZE = 3


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


def every_deal(cards: Sequence[Card], players: int) -> Iterator[tuple[Card, list[list[Card]]]]:
    """Every deal of ``cards``: the retourne, then ``players`` labelled hands of three (each
    as a sorted list), the rest undealt; each deal once."""

    def hands_from(left: tuple[Card, ...], todo: int) -> Iterator[list[list[Card]]]:
        if todo == 0:
            yield []
            return
        for hand in combinations(left, HAND_SIZE):
            rest = tuple(c for c in left if c not in hand)
            for others in hands_from(rest, todo - 1):
                yield [list(hand), *others]

    for i, retourne in enumerate(cards):
        left = tuple(cards[:i]) + tuple(cards[i + 1 :])
        for hands in hands_from(left, players):
            yield retourne, hands


def enumerate_deals(rules: Rules) -> DealTally:
    """Every deal of the profile's pack, judged by the engine (exact; small packs only: two
    players with twelve cards is 110,880 deals)."""
    tally = DealTally(rules)
    for retourne, hands in every_deal(pack(rules.table.pack_ranks()), rules.table.players):
        tally.add(hands, retourne)
    return tally


def sample_deals(variant: Variant, deals: int, seed: int) -> DealTally:
    """``deals`` shuffled packs dealt by the engine's own dealing, judged by the engine."""
    rules = variant.rules
    names = [chr(ord("A") + i) for i in range(rules.table.players)]
    cards = pack(rules.table.pack_ranks())
    rng = random.Random(seed)
    tally = DealTally(rules)
    for _ in range(deals):
        order = list(cards)
        rng.shuffle(order)
        dealt, retourne, _ = deal_from_pack(variant, names, names[-1], order)
        tally.add([dealt[name] for name in names], retourne)
    return tally
