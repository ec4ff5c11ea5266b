"""The seeing of a straddle before the deal (``forced_bets.straddle_must_be_seen``): each
player after the last straddler meets his stake (``call``) or drops out (``fold``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, LegalAction
from .betting import deal_cards
from .phases import FOLD, SEEING, Stage
from .settlement import uncontested

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Seeing", "begin_seeing"]


class Seeing(Stage):
    """The stake to see (``bet``), and who is still to see it (``pending``, in order)."""

    __slots__ = ("pending",)

    def __init__(self, bet: int, pending: list[int]) -> None:
        super().__init__(SEEING, bet)
        self.pending = pending

    def copy(self, deal: Deal) -> Seeing:
        return Seeing(self.bet, list(self.pending))

    def legal(self, deal: Deal, seat: int) -> list[LegalAction]:
        total = deal.contrib[seat] + deal.cave[seat]
        return [LegalAction("call", min(self.bet, total)), FOLD]

    def refusal(self, deal: Deal, seat: int, action: Action) -> tuple[str, str]:
        return (
            f"before the deal {deal.names[seat]} must see the raise ('call' {self.bet}) or "
            "drop out ('fold')",
            "forced_bets.straddle_must_be_seen",
        )

    def do(self, deal: Deal, seat: int, action: Action) -> None:
        if action.kind == "call":
            adds = min(self.bet - deal.contrib[seat], deal.cave[seat])
            deal.record(seat, "call", adds, sight=deal.contrib[seat] + adds < self.bet)
        else:
            deal.fold(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        self.advance(deal)

    def advance(self, deal: Deal) -> None:
        if deal.live == 1:  # the straddle is a stake: the pool goes whole
            uncontested(deal, deal.folded.index(False), "nobody saw the raise", bets_made=False)
        elif self.pending:
            deal.to_act_seat = self.pending[0]
        else:
            deal_cards(deal)


def begin_seeing(deal: Deal, last_straddler: int) -> None:
    """Everyone after the last straddler who has not met his stake is to see it."""
    bet = deal.top_stake
    contrib, cave = deal.contrib, deal.cave
    pending = [s for s in deal.after(last_straddler) if contrib[s] < bet and cave[s] > 0]
    seeing = Seeing(bet, pending)
    deal.state = seeing
    seeing.advance(deal)
