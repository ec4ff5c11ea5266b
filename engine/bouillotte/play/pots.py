"""Pools and side pools, derived from what each player has put in.

Following PokerKit, pools are never tracked step by step: they are computed from the
contributions, so they cannot drift from them. Each level at which a player still in is
all in closes a pool; the chips of players who folded fall into the pools they reached.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final


class Pot:
    """A pool: its amount and who may win it.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one or more every deal)."""

    __slots__ = ("amount", "contenders")

    def __init__(self, amount: int, contenders: tuple[int, ...]) -> None:
        self.amount: Final = amount
        self.contenders: Final = contenders
        """Seat indices of the players still in who may win it, in seating order."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Pot)
            and self.amount == other.amount
            and self.contenders == other.contenders
        )

    def __hash__(self) -> int:
        return hash((self.amount, self.contenders))

    def __repr__(self) -> str:
        return f"Pot(amount={self.amount!r}, contenders={self.contenders!r})"


def build_pots(
    contributions: Sequence[int], folded: Sequence[bool], carried_in: int = 0
) -> list[Pot]:
    """The main pool first, then each side pool, from each seat's total contribution.

    ``carried_in`` (a pool carried over from a void deal) belongs to the main pool.
    """
    if len(folded) != len(contributions):
        raise ValueError("one contribution and one folded flag per seat")
    # As lists: compiled, reading a list of ints is native, any other sequence a call.
    contrib, out = list(contributions), list(folded)
    seats = range(len(contrib))
    live = sorted({contrib[i] for i in seats if not out[i] and contrib[i] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in live:
        amount = 0
        contenders: list[int] = []
        for i in seats:
            c = contrib[i]
            if c > previous:
                amount += (c if c < level else level) - previous
            # Each level is the stake of a player still in, who is not among the contenders
            # of the next level: the contenders shrink at every level, so no two pools share
            # them.
            if c >= level and not out[i]:
                contenders.append(i)
        pots.append(Pot(amount, tuple(contenders)))
        previous = level
    # Chips of folded players above every live level (possible only if they were never
    # called) stay in the last pool.
    leftover = 0
    for c in contrib:
        if c > previous:
            leftover += c - previous
    if not pots:
        everyone = tuple([i for i in seats if not out[i]])
        return [Pot(carried_in + leftover, everyone)]
    first = pots[0]
    pots[0] = Pot(first.amount + carried_in, first.contenders)
    if leftover:
        last = pots[-1]
        pots[-1] = Pot(last.amount + leftover, last.contenders)
    return pots


def uncalled_excess(contributions: Sequence[int]) -> tuple[int, int]:
    """The seat whose stake no one has met, and by how much (``(-1, 0)`` if none)."""
    if len(contributions) < 2:
        return -1, 0
    # The largest stake, and the next largest (the largest again if two share it).
    top, largest, second = -1, -1, -1
    for i, c in enumerate(list(contributions)):  # a list: compiled, read natively
        if c > largest:  # the first of the largest, as list.index finds it
            top, largest, second = i, c, largest
        elif c > second:
            second = c
    excess = largest - second
    return (top, excess) if excess > 0 else (-1, 0)
