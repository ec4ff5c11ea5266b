"""The point: which suit wins when no brelan is shown, and who owns it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..rules.cards import SUIT_NAMES, SUITS, Card, card_str, rank_of, suit_of
from ..rules.profile import Point

NO_SUIT: Final = -1
"""The suit of a point won by a whole hand's pips: no suit wins."""


class PointResult:
    """Who won by the point, with which suit, why, and the winning count.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one or more every deal)."""

    __slots__ = ("reason", "suit", "total", "winner")

    def __init__(self, winner: int, suit: int, reason: str, total: int = 0) -> None:
        self.winner: Final = winner
        self.suit: Final = suit
        """The winning suit, or ``NO_SUIT`` where the point is counted over a whole hand."""
        self.reason: Final = reason
        self.total: Final = total
        """The winning point: the suit's (or the hand's) count."""

    def _fields(self) -> tuple[int, int, str, int]:
        return (self.winner, self.suit, self.reason, self.total)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PointResult) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"PointResult(winner={self.winner!r}, suit={self.suit!r}, "
            f"reason={self.reason!r}, total={self.total!r})"
        )


@dataclass(frozen=True, slots=True)
class Seating:
    """Names and order, for ties and for the reasons written in the outcome."""

    names: Sequence[str]
    order: Sequence[int]
    """Seats in speaking order: the dealer's neighbour first, the dealer last."""
    dealer: int

    def tie_priority(self, rule: str) -> list[int]:
        """Seats in the order in which they win ties between suits."""
        if rule == "dealer-first":
            return [self.dealer, *self.order[:-1]]
        return list(self.order)


def _suit_name(suit: int) -> str:
    return SUIT_NAMES[SUITS[suit]]


def _best_holder(hands: Sequence[Sequence[Card]], seats: Sequence[int], suit: int) -> int | None:
    """The seat among ``seats`` holding the highest card of ``suit`` (rank 0 is the ace)."""
    return _best_of(_rows(hands), seats, suit)


def _rows(hands: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """The hands as lists: compiled, a loop over a list of ints is native, over any other
    sequence a call per card (a showdown reads every hand several times)."""
    return [hand if isinstance(hand, list) else list(hand) for hand in hands]


def _best_of(rows: list[list[Card]], seats: Sequence[int], suit: int) -> int | None:
    """:func:`_best_holder`, of hands as lists."""
    best_rank, best_seat = 99, None  # cards as rank * 4 + suit (rules.cards), inlined
    for seat in seats:
        for card in rows[seat]:
            if card & 3 == suit and card >> 2 < best_rank:
                best_rank, best_seat = card >> 2, seat
    return best_seat


def suit_totals(
    hands: Sequence[Sequence[Card]], retourne: Card, values: Sequence[int]
) -> list[int]:
    """Each suit's pips over every hand and the retourne."""
    return _totals(_rows(hands), retourne, list(values))


def _totals(rows: list[list[Card]], retourne: Card, values: list[int]) -> list[int]:
    """:func:`suit_totals`, of hands and values as lists."""
    totals = [0, 0, 0, 0]
    for hand in rows:
        for card in hand:  # rank * 4 + suit (rules.cards), inlined: a showdown adds many
            totals[card & 3] = totals[card & 3] + values[card >> 2]
    totals[retourne & 3] = totals[retourne & 3] + values[retourne >> 2]
    return totals


def _break_tie(
    tied: list[tuple[int, int]], rule: Point, seating: Seating, retourne: Card
) -> tuple[int, int, str]:
    """Pick among ``(suit, owner)`` pairs of equal points; returns suit, owner, why."""
    if rule.suit_tie == "retourne-suit":
        for suit, owner in tied:
            if suit == suit_of(retourne):
                return suit, owner, f"the retourne's suit ({_suit_name(suit)}) wins the tie"
    priority = seating.tie_priority(rule.suit_tie)
    suit, owner = min(tied, key=lambda pair: priority.index(pair[1]))
    if owner == seating.dealer and rule.suit_tie == "dealer-first":
        why = f"{seating.names[owner]} is the dealer, who wins ties"
    else:
        why = f"{seating.names[owner]} is nearest the dealer's right"
    return suit, owner, why


def decide_by_point(
    contenders: Sequence[int],
    hands: Sequence[Sequence[Card]],
    retourne: Card,
    values: Sequence[int],
    rule: Point,
    seating: Seating,
) -> PointResult:
    """Award a pool among ``contenders`` by the point, under the profile's rule."""
    if rule.counted_cards != "all-exposed":
        return _own_hand_point(contenders, hands, retourne, values, rule, seating)
    rows = _rows(hands)
    totals = _totals(rows, retourne, list(values))
    everyone = range(len(rows))
    owner_rule = rule.suit_owner  # read once, not once a suit
    if owner_rule == "best-card-else-own-pips":
        return _richest_suit_else_own_pips(contenders, rows, totals, values, rule, seating)
    owners: dict[int, int] = {}
    dead: list[int] = []
    for suit in range(4):
        if not totals[suit]:
            continue
        if owner_rule == "best-card-of-all-hands":
            holder = _best_of(rows, everyone, suit)
            owner = holder if holder in contenders else None
        else:
            owner = _best_of(rows, contenders, suit)
        if owner is None:
            dead.append(suit)
        else:
            owners[suit] = owner
    fallback = ""
    if not owners:
        # Every suit's best card lies in a folded hand: no source says who wins then. The
        # suits go to the contenders' best cards (``best-card-among-contenders``), said so.
        owners = {s: o for s in dead if (o := _best_of(rows, contenders, s)) is not None}
        dead = []
        fallback = (
            "; every suit's best card lies in a folded hand, so each suit goes to the best"
            " card of the players still in"
        )
    best = max(totals[s] for s in owners)
    tied = [(s, owners[s]) for s in sorted(owners) if totals[s] == best]
    names = seating.names
    dead_note = (
        ""
        if not dead
        else "".join(
            f"; {_suit_name(s)} {totals[s]} cannot win (no player still in holds "
            + ("its best card" if owner_rule == "best-card-of-all-hands" else "one")
            + ")"
            for s in sorted(dead, key=lambda s: -totals[s])
            if totals[s] >= best
        )
    )
    if len(tied) == 1:
        suit, owner = tied[0]
        return PointResult(
            owner,
            suit,
            f"point: {_suit_name(suit)} {best}, best card held by {names[owner]}"
            f"{dead_note}{fallback}",
            best,
        )
    suit, owner, why = _break_tie(tied, rule, seating, retourne)
    ranked = sorted(tied, key=lambda pair: pair[0] != suit)
    ties = " ties ".join(f"{_suit_name(s)} {best}" for s, _ in ranked)
    return PointResult(owner, suit, f"point: {ties}; {why}{dead_note}{fallback}", best)


def _richest_suit_else_own_pips(
    contenders: Sequence[int],
    hands: Sequence[Sequence[Card]],
    totals: Sequence[int],
    values: Sequence[int],
    rule: Point,
    seating: Seating,
) -> PointResult:
    """The holder of the richest suit's best card wins if still in; otherwise the player
    still in with the most pips of his own in any other suit."""
    names = seating.names
    richest = max(totals)
    priority = seating.tie_priority(rule.suit_tie)
    everyone = range(len(hands))
    holders = {s: _best_holder(hands, everyone, s) for s in range(4) if totals[s] == richest}
    # Suits tied for richest go by the tie rule, as between their best cards' holders.
    suit = min(
        holders, key=lambda s: priority.index(h) if (h := holders[s]) is not None else len(hands)
    )
    holder = holders[suit]
    if holder in contenders:
        assert holder is not None
        return PointResult(
            holder,
            suit,
            f"point: {_suit_name(suit)} {richest}, best card held by {names[holder]}",
            richest,
        )
    scored = []
    for seat in contenders:
        own = [0, 0, 0, 0]
        for card in hands[seat]:
            if suit_of(card) != suit:
                own[suit_of(card)] = own[suit_of(card)] + values[rank_of(card)]
        scored.append((max(own), seat))
    best = max(points for points, _ in scored)
    tied = [seat for points, seat in scored if points == best]
    winner = min(tied, key=priority.index)
    gone = "no player holds it" if holder is None else f"its best card is {names[holder]}'s"
    why = f"; {names[winner]} is nearest the dealer's right" if len(tied) > 1 else ""
    if len(tied) > 1 and winner == seating.dealer and rule.suit_tie == "dealer-first":
        why = f"; {names[winner]} is the dealer, who wins ties"
    return PointResult(
        winner,
        suit,
        f"point: {_suit_name(suit)} {richest}, but {gone}, out of the pool; "
        f"{names[winner]} counts most in another suit ({best}){why}",
        richest,
    )


def _own_hand_point(
    contenders: Sequence[int],
    hands: Sequence[Sequence[Card]],
    retourne: Card,
    values: Sequence[int],
    rule: Point,
    seating: Seating,
) -> PointResult:
    """Each player's best suit in his own hand (with the retourne if the rule says so), or
    his whole hand's pips whatever their suits."""
    if rule.counted_cards == "whole-hand":
        return _whole_hand_point(contenders, hands, values, rule, seating)
    scored: list[tuple[int, int, int]] = []  # (points, suit, seat)
    for seat in contenders:
        sums = [0, 0, 0, 0]
        for card in hands[seat]:
            sums[suit_of(card)] = sums[suit_of(card)] + values[rank_of(card)]
        held = {suit_of(c) for c in hands[seat]}
        if rule.counted_cards == "own-hand-and-retourne" and suit_of(retourne) in held:
            sums[suit_of(retourne)] = sums[suit_of(retourne)] + values[rank_of(retourne)]
        if rule.counted_cards == "own-hand-with-capture":
            for suit, taken in _captured(seat, contenders, hands, values).items():
                sums[suit] = sums[suit] + taken
        suit = max(sorted(held), key=lambda s: sums[s])
        trump = suit_of(retourne)
        if rule.suit_tie == "retourne-suit" and trump in held and sums[trump] == sums[suit]:
            # His best total stands in the retourne's suit too: counted there, the tie
            # "broken by the retourné's suit" is his.
            suit = trump
        scored.append((sums[suit], suit, seat))
    best = max(points for points, _, _ in scored)
    tied = [(suit, seat) for points, suit, seat in scored if points == best]
    names = seating.names
    capture = rule.counted_cards == "own-hand-with-capture"
    taking = " with the lower cards it takes" if capture else " in hand"
    if len(tied) == 1:
        suit, seat = tied[0]
        return PointResult(
            seat, suit, f"point: {names[seat]}'s {_suit_name(suit)} {best}{taking} is best", best
        )
    suit, seat, why = _break_tie(tied, rule, seating, retourne)
    who = ", ".join(f"{names[s]} {_suit_name(su)}" for su, s in tied)
    return PointResult(seat, suit, f"point: {who} tie at {best}; {why}", best)


def _captured(
    seat: int,
    contenders: Sequence[int],
    hands: Sequence[Sequence[Card]],
    values: Sequence[int],
) -> dict[int, int]:
    """The Encyclopédie's capture: for each suit ``seat`` holds, the pips of the lower
    cards of that suit in the other contenders' hands, except cards making up a brelan."""
    taken: dict[int, int] = {}
    for suit in {suit_of(c) for c in hands[seat]}:
        top = min(rank_of(c) for c in hands[seat] if suit_of(c) == suit)  # 0 is the ace
        for other in contenders:
            if other == seat:
                continue
            ranks = [rank_of(c) for c in hands[other]]
            for card in hands[other]:
                in_brelan = ranks.count(rank_of(card)) >= 3
                if suit_of(card) == suit and rank_of(card) > top and not in_brelan:
                    taken[suit] = taken.get(suit, 0) + values[rank_of(card)]
    return taken


def _whole_hand_point(
    contenders: Sequence[int],
    hands: Sequence[Sequence[Card]],
    values: Sequence[int],
    rule: Point,
    seating: Seating,
) -> PointResult:
    """The player whose three cards hold the most pips wins; no suit wins."""
    pips = {seat: sum(values[rank_of(card)] for card in hands[seat]) for seat in contenders}
    best = max(pips.values())
    tied = [seat for seat in contenders if pips[seat] == best]
    names = seating.names
    if len(tied) == 1:
        return PointResult(
            tied[0], NO_SUIT, f"point: {names[tied[0]]}'s hand holds {best} pips", best
        )
    # Seats go by the tie rule's order (a retourne-suit rule has no suit to look at here).
    order = seating.tie_priority(rule.suit_tie)
    winner = min(tied, key=order.index)
    who = ", ".join(names[s] for s in tied)
    if winner == seating.dealer and rule.suit_tie == "dealer-first":
        why = f"{names[winner]} is the dealer, who wins ties"
    else:
        why = f"{names[winner]} is nearest the dealer's right"
    return PointResult(winner, NO_SUIT, f"point: {who} tie at {best} pips; {why}", best)


def best_holder_of(
    hands: Sequence[Sequence[Card]], seats: Sequence[int], suit: int
) -> tuple[int, Card] | None:
    """The seat holding the best card of ``suit`` among ``seats``, with that card."""
    seat = _best_holder(hands, seats, suit)
    if seat is None:
        return None
    card = min((c for c in hands[seat] if suit_of(c) == suit), key=rank_of)
    return seat, card


__all__ = ["PointResult", "Seating", "best_holder_of", "card_str", "decide_by_point"]
