"""The straddles before the deal (``forced_bets.straddles``): each player in turn is offered
the straddle, and straddles or declines; a betting word said instead declines it."""

from __future__ import annotations

from typing import Final

from ..rules.profile import ForcedBets
from .actions import Action, LegalAction
from .betting import BettingRound
from .board import Board
from .decides import Decides
from .events import Decline, Straddle, once
from .phases import (
    BETTING,
    FOLD,
    GOES_ON,
    SEEING,
    STRADDLE,
    STRADDLES_OVER,
    Exit,
    Phase,
    Stage,
)

__all__ = ["Straddling"]

_DECLINE: Final = LegalAction("decline")


class Straddling(Stage):
    """The straddles: how many offers have been made (``offers``: the next goes to that
    place in the speaking order)."""

    __slots__ = ("_amount", "_ends", "_limit", "offers")

    def __init__(self, forced: ForcedBets) -> None:
        super().__init__(STRADDLE, 0)
        self.offers = 0
        # The rules of the straddles, each read where it first decides (play/__init__.py).
        self._amount: Decides[str] = Decides(forced, "straddle_amount")
        self._ends: Decides[bool] = Decides(forced, "straddling_ends_at_first_refusal")
        self._limit: Decides[str] = Decides(forced, "straddle_limit")

    def copy(self, board: Board) -> Straddling:
        other = Straddling(board.rules.forced_bets)
        other.bet, other.phase, other.offers = self.bet, self.phase, self.offers
        other._amount.keep_from(self._amount)
        other._ends.keep_from(self._ends)
        other._limit.keep_from(self._limit)
        return other

    def begin(self, board: Board) -> Exit:
        """The forced bets are in: offer the first straddle (or end, if none can be)."""
        return self._offer(board)

    def cost(self, board: Board, seat: int) -> int:
        """What ``seat`` must add to straddle."""
        if self._amount.value() == "the-whole-pot":
            return board.pot_total()
        return max(2 * board.largest_stake() - board.contrib[seat], 0)

    def legal(self, board: Board, seat: int) -> list[LegalAction]:
        legal = [_DECLINE]
        cost = self.cost(board, seat)
        if cost <= board.cave[seat]:
            legal.insert(0, LegalAction("straddle", board.contrib[seat] + cost))
        return legal

    def refusal(self, board: Board, seat: int, action: Action) -> tuple[str, str]:
        # Only a straddle can be refused here.
        return (
            f"{board.names[seat]} cannot afford the straddle ({self.cost(board, seat)} "
            f"counters; {board.cave[seat]} left in the cave)",
            "forced_bets.straddle_amount",
        )

    def do(self, board: Board, seat: int, action: Action) -> Exit:
        if action.kind == "straddle":
            cost = self.cost(board, seat)
            board.put(seat, cost)
            self.offers += 1
            board.last_straddler = seat
            board.witness(
                once(Straddle, board.names[seat], cost, board.contrib[seat], board.pot_total())
            )
            return self._offer(board)
        return self.decline(board, seat, explicit=True)

    def decline(self, board: Board, seat: int, explicit: bool) -> Exit:
        board.witness(once(Decline, board.names[seat], not explicit))
        if self._ends.value():
            return STRADDLES_OVER
        self.offers += 1
        return self._offer(board)

    def _limit_reached(self, board: Board, offers: int) -> bool:
        """Whether ``offers`` offers reach the limit. How far straddles go is read only
        where it decides (the offer to the dealer), so a sweep knows that a deal whose
        straddles stop short of him cannot be changed by it (rule_reads)."""
        n = len(board.order)
        if offers != n - 1:
            return offers >= n
        limit = n if self._limit.value() == "to-the-dealer" else n - 1
        return offers >= limit

    def _offer(self, board: Board) -> Exit:
        if self._limit_reached(board, self.offers):
            return STRADDLES_OVER
        board.to_act_seat = board.order[self.offers]
        return GOES_ON

    def check_after_decline(self, board: Board, seat: int, action: Action) -> Phase:
        """Check a betting word said in place of the straddle's answer, as it will be played
        once the straddle is declined; returns the phase the decline leads to."""
        ends = self._ends.value() or self._limit_reached(board, self.offers + 1)
        name = board.names[seat]
        if not ends:
            board.refuse_with(
                f"{name} is offered the straddle, and after him the next player: "
                "'straddle' or 'decline' first",
                "forced_bets.straddles",
                self.legal(board, seat),
            )
        last = board.last_straddler
        if last is not None and board.rules.forced_bets.straddle_must_be_seen:
            bet = board.top_stake
            contrib, cave = board.contrib, board.cave
            pending = [s for s in board.after(last) if contrib[s] < bet and cave[s] > 0]
            if not pending or pending[0] != seat:
                board.refuse_with(
                    f"{name} is offered the straddle: 'straddle' or 'decline' first",
                    "forced_bets.straddles",
                    self.legal(board, seat),
                )
            if action.kind not in ("call", "fold"):  # the words of the seeing, at this stake
                total = contrib[seat] + cave[seat]
                board.refuse_with(
                    f"before the deal {name} must see the raise ('call' {bet}) or drop out "
                    "('fold')",
                    "forced_bets.straddle_must_be_seen",
                    [LegalAction("call", min(bet, total)), FOLD],
                )
            return SEEING
        if board.exposed is not None and board.rules.misdeals.exposed_card_is_misdeal:
            # the deal ends at the misdeal once the straddle is declined: a betting word
            # would never be played, so it is not taken for a decline
            board.refuse_with(
                f"an exposed card makes the deal a misdeal once the straddles are over: "
                f"'{action.kind}' would never be played; {name} says 'straddle' or 'decline'",
                "misdeals.exposed_card_is_misdeal",
                self.legal(board, seat),
            )
        first = board.first_to_speak()
        if first != seat or board.cave[seat] == 0:
            board.refuse_with(
                f"{name} is offered the straddle, but {board.names[first]} speaks first after "
                "the deal: 'straddle' or 'decline' first",
                "forced_bets.straddles",
                self.legal(board, seat),
            )
        # The betting to come, not opened yet, at the stakes as they stand.
        betting = BettingRound(board.rules, board.top_stake, [])
        betting.check(board, seat, action, betting.legal(board, seat))
        return BETTING
