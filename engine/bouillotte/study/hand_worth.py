"""What a hand is worth to its holder, as the policies judge it: the point he can count for
sure in his best suit (:func:`best_suit`) and the hand's kind, remembered for the hands he
decides with (:class:`_HandCache`, the base of the policies that value hands)."""

from __future__ import annotations

from typing import Final

from ..play.hands import Kind, classify
from ..play.showdown import rank_values
from ..rules.cards import Card
from ..rules.profile import Hands, Rules
from .player_view import View


def best_suit(
    hand: tuple[Card, ...], retourne: Card, values: list[int]
) -> tuple[int, int, int, int]:
    """What a player can count for sure in his best suit, in one pass over the cards: his
    cards of each suit plus the retourne where of that suit. Returns (pips of the best
    suit, his cards of it, his best rank index, the suit).

    The one helper the policies value a hand's point by. Two suits of equal pips: the
    pips and cards are those of the suit with more cards (a player counts the stronger
    holding), while the suit named is the first of them in suit order (the suit a player
    keeps when he draws); the two tie-breaks are kept as the policies always had them, so
    that every simulation plays as before."""
    pips = [0, 0, 0, 0]
    count = [0, 0, 0, 0]
    top = 99
    for card in hand:
        suit, rank = card & 3, card >> 2
        pips[suit] = pips[suit] + values[rank]
        count[suit] = count[suit] + 1
        if rank < top:
            top = rank
    turned = retourne & 3
    if count[turned]:
        pips[turned] = pips[turned] + values[retourne >> 2]
    best_pips, best_count, first = -1, 0, 0
    first_pips = -1
    for suit in range(4):
        cards = count[suit]
        if not cards:
            continue
        if pips[suit] > best_pips or (pips[suit] == best_pips and cards > best_count):
            best_pips, best_count = pips[suit], cards
        if pips[suit] > first_pips:
            first_pips, first = pips[suit], suit
    return best_pips, best_count, top, first


_HANDS_KEPT: Final = 512
"""How many hands a policy remembers before it forgets them all: a deal deals at most six
and a draw a few more, and in a sweep a void deal's chain deals more under each row; the
rows that read hands alike share their entries (:meth:`_HandCache.worth`)."""


class _HandCache:
    """What a hand is worth to its holder, remembered: a player's hand does not change while
    he bets, and he decides several times with it; in a sweep, every row plays the same
    hands.

    A hand's worth is read from the rules of hands and the point values only, so it is
    remembered for the *reading* of them, not for the rule set: the rows of a sweep that
    leave both alike share one entry (measured in 40 deals of the full sweep: 1,152 hands
    valued under ``simple`` rather than 4,004 when an entry was a rule set's, 2,542 under
    ``bold`` rather than 7,388).

    Only the last few hundred hands are kept: a hand seldom recurs in another deal, and a
    memory that grew over a whole run kept every entry alive for the garbage collector to
    walk again and again (measured: a quarter of the policy's cost per deal)."""

    def __init__(self) -> None:
        self._worth: dict[tuple[tuple[Card, ...], Card, int], tuple[Kind, int, int, int]] = {}
        self._reading: dict[int, tuple[Rules, int]] = {}
        """Each rule set met (kept alive, so that its ``id`` is never another's), with the
        number of its reading in :attr:`_readings`."""
        self._readings: list[tuple[Hands, list[int]]] = []
        """Each distinct reading met: the rules of hands and the point values by rank."""

    def worth(self, view: View) -> tuple[Kind, int, int, int]:
        """(kind, own point, cards of that suit, best rank index in hand) of the hand of the
        player to act."""
        rules = view.rules
        known = self._reading.get(id(rules))
        if known is None:
            known = self._reading[id(rules)] = (rules, self._reading_of(rules))
        key = (view.hand, view.retourne, known[1])
        found = self._worth.get(key)
        if found is not None:
            return found
        if len(self._worth) >= _HANDS_KEPT:
            self._worth.clear()
        hands, values = self._readings[known[1]]
        kind = classify(view.hand, view.retourne, hands).kind
        pips, cards, top, _ = best_suit(view.hand, view.retourne, values)
        found = self._worth[key] = (kind, pips, cards, top)
        return found

    def _reading_of(self, rules: Rules) -> int:
        """The number of ``rules``' reading of a hand, the first rule set met with the same
        rules of hands and point values giving it its number."""
        values = rank_values(rules)
        for number, (hands, known) in enumerate(self._readings):
            if known == values and hands == rules.hands:
                return number
        self._readings.append((rules.hands, values))
        return len(self._readings) - 1
