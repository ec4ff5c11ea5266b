"""The showdown: Foster's card under the retourne, then each pool to its winner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.cards import RANKS, SUIT_NAMES, SUITS, Card, card_str, rank_of
from ..rules.errors import UserError
from ..rules.profile import Rules
from .events import Decision, WonByBrelan, WonByPoint, WonBySuit, WonUncontested, once
from .hands import HandValue, Kind, classify, tier_of
from .point import NO_SUIT, Seating, best_holder_of, decide_by_point
from .pots import Pot


class Award:
    """A pool awarded: to which seat, why in words and as data.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one or more every deal)."""

    __slots__ = ("decision", "pot", "reason", "winner")

    def __init__(self, pot: Pot, winner: int, reason: str, decision: Decision) -> None:
        self.pot: Final = pot
        self.winner: Final = winner
        self.reason: Final = reason
        self.decision: Final = decision
        """Why, as data: the brelan, the point's suit and total, the suit that cannot lose,
        or no contest."""

    def _fields(self) -> tuple[Pot, int, str, Decision]:
        return (self.pot, self.winner, self.reason, self.decision)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Award) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Award(pot={self.pot!r}, winner={self.winner!r}, reason={self.reason!r}, "
            f"decision={self.decision!r})"
        )


class MissingCardError(UserError, ValueError):
    """The rules need a card the scenario did not give (the card under the retourne)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, path=("under_retourne",))


def hand_values(
    hands: Sequence[Sequence[Card]],
    retourne: Card,
    under_retourne: Card | None,
    contenders: Sequence[int],
    rules: Rules,
    *,
    declared: int | None = None,
    dealt: Sequence[Sequence[Card]] | None = None,
) -> tuple[list[HandValue], str | None]:
    """Every seat's hand value, with Foster's card under the retourne applied.

    ``declared`` is the rank declared favori for the deal; ``dealt`` the hands as dealt
    before any draw. Returns the values and, when the card under the retourne was turned,
    what it did.
    """
    hand_rules = rules.hands  # the group, read once (what is noted is each field's read)
    values = [
        classify(
            hand,
            retourne,
            hand_rules,
            declared=declared,
            dealt=dealt[seat] if dealt is not None else None,
        )
        for seat, hand in enumerate(hands)
    ]
    # Whether the card under the retourne is turned is read only where it could be: a
    # carré shown against a higher brelan (so a sweep knows it changes no other deal).
    carres = [values[s].rank for s in contenders if values[s].kind is Kind.CARRE]
    if not carres:
        return values, None
    lowest_carre = max(carres)  # the largest rank index is the lowest carré
    hopeful = [
        s for s in contenders if values[s].kind is Kind.BRELAN and values[s].rank < lowest_carre
    ]
    if not hopeful or not hand_rules.card_under_retourne:
        return values, None
    if under_retourne is None:
        raise MissingCardError(
            "a player holds a brelan higher than the brelan carré, so the card under the "
            "retourne must be turned (hands.card_under_retourne), but the deal does not give "
            "it: add 'under_retourne:' to the scenario"
        )
    turned = rank_of(under_retourne)
    for seat in hopeful:
        if values[seat].rank == turned:
            values[seat] = HandValue(Kind.CARRE, turned, tier_of(Kind.CARRE, hand_rules))
            return values, (
                f"the card under the retourne, {card_str(under_retourne)}, completes a higher "
                "brelan carré"
            )
    return values, f"the card under the retourne, {card_str(under_retourne)}, completes nothing"


def award_pots(
    pots: Sequence[Pot],
    hands: Sequence[Sequence[Card]],
    retourne: Card,
    values: Sequence[HandValue],
    rules: Rules,
    seating: Seating,
    shown: Sequence[int] | None = None,
) -> list[Award]:
    """Award each pool among its contenders: the best brelan, or else the point.

    Where the profile says that "the suit that wins cannot lose", a side pool goes to the
    best holder of the main pool's winning suit among its contenders, if any holds it.
    ``shown`` are the seats still in (whose hands are shown at the call); where a brelan is
    shown and the profile keeps the hands of those who passed out hidden, a side pool's
    point counts only the shown hands.
    """
    point_values = rank_values(rules)
    brelan_shown = any(values[s].is_brelan for s in (shown or ()))
    if shown is not None and brelan_shown and rules.point.folded_hands_in_side_pools == "not-shown":
        hands = [hand if seat in shown else [] for seat, hand in enumerate(hands)]
    awards: list[Award] = []
    winning_suit: int | None = None
    names = seating.names
    for index, pot in enumerate(pots):
        contenders = pot.contenders
        if len(contenders) == 1:
            awards.append(Award(pot, contenders[0], "uncontested", once(WonUncontested)))
            continue
        best = _best_hand(contenders, values, seating.order)
        if values[best].is_brelan:
            reason = f"{values[best].describe()} ({names[best]})"
            awards.append(Award(pot, best, reason, WonByBrelan(values[best])))
            continue
        if index > 0 and winning_suit is not None and rules.point.side_pots_by_winning_suit:
            holder = best_holder_of(hands, contenders, winning_suit)
            if holder is not None:
                seat, card = holder
                suit = SUIT_NAMES[SUITS[winning_suit]]
                awards.append(
                    Award(
                        pot,
                        seat,
                        f"{suit}, the suit that won the main pool, cannot lose: "
                        f"{names[seat]} holds {card_str(card)}",
                        WonBySuit(winning_suit, card),
                    )
                )
                continue
        result = decide_by_point(contenders, hands, retourne, point_values, rules.point, seating)
        if index == 0 and result.suit != NO_SUIT:
            winning_suit = result.suit
        decision = once(WonByPoint, result.suit, result.total)
        awards.append(Award(pot, result.winner, result.reason, decision))
    return awards


def _best_hand(contenders: Sequence[int], values: Sequence[HandValue], order: Sequence[int]) -> int:
    """The contender with the best hand (the highest tier, then the highest rank: rank 0 is
    the ace); between equal hands, the first in speaking ``order`` (nearest the dealer's
    right). A loop rather than ``max`` with a key: compiled, no call per contender."""
    best, tier, rank, at = -1, 0, 0, 0
    for seat in contenders:
        value = values[seat]
        t, r, a = value.tier, value.rank, order.index(seat)
        if best < 0 or t > tier or (t == tier and (r < rank or (r == rank and a < at))):
            best, tier, rank, at = seat, t, r, a
    return best


def rank_values(rules: Rules) -> list[int]:
    """Point value by rank index."""
    table = rules.table.point_values
    return [table.get(rank, 0) for rank in RANKS]  # type: ignore[call-overload]
