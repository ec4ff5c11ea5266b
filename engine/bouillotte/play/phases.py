"""Where a deal stands (:class:`Phase`), what each phase keeps (:class:`Stage`), and how a
phase ends (:class:`Exit`).

A deal holds one stage at a time, and each stage holds only what its phase needs: the
straddles offered (``straddles.py``), the seeing of a straddle (``seeing.py``), the betting
round with its closing round (``betting.py``, ``closing.py``), the draw (``draw.py``), the
settlement (``settlement.py``). A cursor of one phase (whose turn it is in the draw, who
is asked in Foster's privilege, ...) lives in that phase's stage, and goes with it: no
field of the deal is valid in some phases only.

A stage works on the :class:`~bouillotte.play.board.Board` (seats, caves, stakes, hands,
the log) and knows no other stage's class: a word it plays returns how its phase went on
(:data:`GOES_ON`, whose turn it is being set) or ended (the other :class:`Exit` values), and
:meth:`Deal._follow <bouillotte.play.deal.Deal._follow>`, the phase graph in one function,
makes the stage that follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from .actions import Action, LegalAction
from .board import Board

__all__ = ["CLOSING", "FOLD", "Exit", "Phase", "Stage"]


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

_AMOUNTED: Final = frozenset({"bet", "raise", "discard", "buy"})
"""Words whose legality depends on more than the word: an amount, or cards."""


class Exit(StrEnum):
    """How a word left its phase: going on, or ended, and how (what the phase graph,
    ``Deal._follow``, reads to make the next stage)."""

    GOES_ON = "goes-on"
    """The phase goes on; whose turn it is has been set."""
    STRADDLES_OVER = "straddles-over"
    """No more straddles are offered: the straddle is seen, where it must be, then the deal."""
    STAKED = "staked"
    """The stakes before the deal are in (and seen): the cards are shown dealt."""
    ONE_LEFT = "one-left"
    """Every other player has withdrawn: the one left takes the pool."""
    NOBODY_OPENED = "nobody-opened"
    """Nobody opened the game."""
    BETTING_CLOSED = "betting-closed"
    """The betting is over: the draw, where the rules have one, then the showdown."""
    DRAWN = "drawn"
    """Everyone still in has drawn: the showdown."""


# As module names, Final (a C static compiled), as the phases above.
GOES_ON: Final = Exit.GOES_ON
STRADDLES_OVER: Final = Exit.STRADDLES_OVER
STAKED: Final = Exit.STAKED
ONE_LEFT: Final = Exit.ONE_LEFT
NOBODY_OPENED: Final = Exit.NOBODY_OPENED
BETTING_CLOSED: Final = Exit.BETTING_CLOSED
DRAWN: Final = Exit.DRAWN


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

    def legal(self, board: Board, seat: int) -> list[LegalAction]:
        """What ``seat``, whose turn it is, may do in this phase."""
        raise NotImplementedError

    def copy(self, board: Board) -> Stage:
        """This stage as it stands, for ``board``, a copy of its deal's (:meth:`Deal.copy`):
        nothing that either changes is shared. What the stage has read of the rules is kept
        (the copy's rules give the same values); what it has not read yet, it will read from
        ``board``'s."""
        raise NotImplementedError

    def permits(self, board: Board, seat: int, legal: LegalAction, action: Action) -> bool:
        """Whether ``legal`` (an entry of the list offered, of the action's word) covers
        ``action``, whose word takes an amount or cards."""
        amount = action.amount
        if amount is None or legal.low is None or legal.high is None:
            return False
        if not legal.low <= amount <= legal.high:
            return False
        whole = board.contrib[seat] + board.cave[seat]
        return not legal.step or (amount - legal.low) % legal.step == 0 or amount == whole

    def refusal(self, board: Board, seat: int, action: Action) -> tuple[str, str]:
        """Why ``action`` is not among the legal ones: the message and the rule."""
        raise NotImplementedError

    def do(self, board: Board, seat: int, action: Action) -> Exit:
        """Play ``action``, already checked: whether the phase goes on (whose turn it is
        set) or how it ended."""
        raise NotImplementedError

    def check(self, board: Board, seat: int, action: Action, legal: Sequence[LegalAction]) -> None:
        """Refuse ``action`` (:class:`~bouillotte.play.board.IllegalAction`) unless an entry
        of ``legal`` (what this stage offers ``seat``) covers it."""
        kind = action.kind
        plain = kind not in _AMOUNTED
        for offered in legal:
            if offered.kind == kind and (plain or self.permits(board, seat, offered, action)):
                return
        message, rule = self.refusal(board, seat, action)
        board.refuse_with(message, rule, list(legal))
