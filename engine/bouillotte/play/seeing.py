"""The seeing of a straddle before the deal (``forced_bets.straddle_must_be_seen``): each
player after the last straddler meets his stake (``call``) or drops out (``fold``)."""

from __future__ import annotations

from .actions import Action, LegalAction
from .board import Board
from .phases import FOLD, GOES_ON, ONE_LEFT, SEEING, STAKED, Exit, Stage

__all__ = ["Seeing", "begin_seeing"]


class Seeing(Stage):
    """The stake to see (``bet``), and who is still to see it (``pending``, in order)."""

    __slots__ = ("pending",)

    def __init__(self, bet: int, pending: list[int]) -> None:
        super().__init__(SEEING, bet)
        self.pending = pending

    def copy(self, board: Board) -> Seeing:
        return Seeing(self.bet, list(self.pending))

    def legal(self, board: Board, seat: int) -> list[LegalAction]:
        total = board.contrib[seat] + board.cave[seat]
        return [LegalAction("call", min(self.bet, total)), FOLD]

    def refusal(self, board: Board, seat: int, action: Action) -> tuple[str, str]:
        return (
            f"before the deal {board.names[seat]} must see the raise ('call' {self.bet}) or "
            "drop out ('fold')",
            "forced_bets.straddle_must_be_seen",
        )

    def do(self, board: Board, seat: int, action: Action) -> Exit:
        if action.kind == "call":
            adds = min(self.bet - board.contrib[seat], board.cave[seat])
            board.record(seat, "call", adds, sight=board.contrib[seat] + adds < self.bet)
        else:
            board.fold(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        return self.advance(board)

    def advance(self, board: Board) -> Exit:
        """Whose turn it is now, or how the seeing ended (one left: the straddle is a
        stake, and the pool goes whole; everyone has seen: the deal)."""
        if board.live == 1:
            return ONE_LEFT
        if self.pending:
            board.to_act_seat = self.pending[0]
            return GOES_ON
        return STAKED


def begin_seeing(board: Board, last_straddler: int) -> Seeing:
    """Everyone after the last straddler who has not met his stake is to see it."""
    bet = board.top_stake
    contrib, cave = board.contrib, board.cave
    pending = [s for s in board.after(last_straddler) if contrib[s] < bet and cave[s] > 0]
    return Seeing(bet, pending)
