"""Where a deal stands (:class:`Phase`), and what each phase keeps (:class:`Stage`).

A deal holds one stage at a time, and each stage holds only what its phase needs: the
straddles offered (``straddles.py``), the seeing of a straddle (``seeing.py``), the betting
round with its closing round (``betting.py``, ``closing.py``), the draw (``draw.py``), the
settlement (``settlement.py``). A cursor of one phase (whose turn it is in the draw, who
is asked in Foster's privilege, ...) lives in that phase's stage, and goes with it: no
field of the deal is valid in some phases only.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Final

from .actions import Action, LegalAction

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["CLOSING", "FOLD", "Phase", "Stage"]


class Phase(StrEnum):
    """Where a deal stands: whose words are awaited, and which."""

    STRADDLE = "straddle"
    """A player is offered the straddle (before the deal)."""
    SEEING = "seeing"
    """A straddle to be seen (``call``) or refused (``fold``) before the deal."""
    BETTING = "betting"
    """The betting, before and after the opening."""
    PRIVILEGE = "privilege"
    """Foster's calling privilege: the holder may raise or pass the word."""
    NO_MORE = "no-more"
    """The teaching card's closing round: each says no more, or raises."""
    DRAW = "draw"
    """Cards thrown away and bought, where the profile has a draw."""
    OVER = "over"


# The phases as module names, Final (a C static compiled): reading an Enum member off its
# class costs a lookup each time, and so does any module name that is not Final.
STRADDLE: Final = Phase.STRADDLE
SEEING: Final = Phase.SEEING
BETTING: Final = Phase.BETTING
PRIVILEGE: Final = Phase.PRIVILEGE
NO_MORE: Final = Phase.NO_MORE
DRAW: Final = Phase.DRAW
OVER: Final = Phase.OVER

CLOSING: Final = frozenset({PRIVILEGE, NO_MORE})
"""The closing rounds of the betting, once everyone has met the bet."""

FOLD: Final = LegalAction("fold")
"""The word that takes no amount, offered in the seeing and the betting (made once)."""


class Stage:
    """What one phase of a deal keeps, and the rules of that phase: what is legal, why a
    word is refused, and what a permitted word does (each stage, a subclass, says).

    A plain class with slots, not a dataclass or an ABC: compiled (``hatch_build.py``), its
    methods are called through the class's own table, with no interpreted check."""

    __slots__ = ("bet", "phase")

    phase: Phase
    bet: int
    """The stake to meet in this phase (none before the deal is offered: 0); in the draw
    and after, the bet the betting closed at (what a player's view shows)."""

    def __init__(self, phase: Phase, bet: int) -> None:
        self.phase = phase
        self.bet = bet

    def legal(self, deal: Deal, seat: int) -> list[LegalAction]:
        """What ``seat``, whose turn it is, may do in this phase."""
        raise NotImplementedError

    def copy(self, deal: Deal) -> Stage:
        """This stage as it stands, for ``deal``, a copy of its deal (:meth:`Deal.copy`):
        nothing that either changes is shared. What the stage has read of the rules is kept
        (the copy's rules give the same values); what it has not read yet, it will read from
        ``deal``'s."""
        raise NotImplementedError

    def permits(self, deal: Deal, seat: int, legal: LegalAction, action: Action) -> bool:
        """Whether ``legal`` (an entry of the list offered, of the action's word) covers
        ``action``, whose word takes an amount or cards."""
        amount = action.amount
        if amount is None or legal.low is None or legal.high is None:
            return False
        if not legal.low <= amount <= legal.high:
            return False
        whole = deal.contrib[seat] + deal.cave[seat]
        return not legal.step or (amount - legal.low) % legal.step == 0 or amount == whole

    def refusal(self, deal: Deal, seat: int, action: Action) -> tuple[str, str]:
        """Why ``action`` is not among the legal ones: the message and the rule."""
        raise NotImplementedError

    def do(self, deal: Deal, seat: int, action: Action) -> None:
        """Play ``action``, already checked, and move the deal on."""
        raise NotImplementedError
