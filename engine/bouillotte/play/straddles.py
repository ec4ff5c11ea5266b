"""The straddles before the deal (``forced_bets.straddles``): each player in turn is offered
the straddle, and straddles or declines; a betting word said instead declines it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.profile import ForcedBets
from .actions import Action, LegalAction
from .betting import Betting, deal_cards
from .events import Decline, Straddle, once
from .phases import BETTING, FOLD, OVER, SEEING, STRADDLE, Phase, Stage
from .seeing import begin_seeing

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Straddling", "offer_straddles"]

_DECLINE: Final = LegalAction("decline")


class Straddling(Stage):
    """The straddles: how many offers have been made (``offers``: the next goes to that
    place in the speaking order)."""

    __slots__ = ("_ends", "_forced", "_limit", "_whole_pot", "offers")

    def __init__(self, forced: ForcedBets) -> None:
        super().__init__(STRADDLE, 0)
        self.offers = 0
        # The rules of the straddles, each read where it first decides something and kept
        # (a sweep knows that a deal which never reached it cannot be changed by it:
        # study/rule_reads.py). Their group is taken here: a group's read is not noted.
        self._forced = forced
        self._limit: int | None = None
        """How many may be offered the straddle, once :meth:`_limit_reached` has read it."""
        self._whole_pot: bool | None = None
        self._ends: bool | None = None

    def copy(self, deal: Deal) -> Straddling:
        other = Straddling(deal.rules.forced_bets)
        other.bet, other.phase, other.offers = self.bet, self.phase, self.offers
        # What was read is the same under the copy's rules (Deal.copy).
        other._limit, other._whole_pot, other._ends = self._limit, self._whole_pot, self._ends
        return other

    def _ends_at_first_refusal(self, deal: Deal) -> bool:
        """``forced_bets.straddling_ends_at_first_refusal``."""
        known = self._ends
        if known is None:
            known = self._ends = self._forced.straddling_ends_at_first_refusal
        return known

    def cost(self, deal: Deal, seat: int) -> int:
        """What ``seat`` must add to straddle."""
        whole_pot = self._whole_pot
        if whole_pot is None:
            whole_pot = self._whole_pot = self._forced.straddle_amount == "the-whole-pot"
        if whole_pot:
            return deal.pot_total()
        return max(2 * deal.largest_stake() - deal.contrib[seat], 0)

    def legal(self, deal: Deal, seat: int) -> list[LegalAction]:
        legal = [_DECLINE]
        cost = self.cost(deal, seat)
        if cost <= deal.cave[seat]:
            legal.insert(0, LegalAction("straddle", deal.contrib[seat] + cost))
        return legal

    def refusal(self, deal: Deal, seat: int, action: Action) -> tuple[str, str]:
        # Only a straddle can be refused here.
        return (
            f"{deal.names[seat]} cannot afford the straddle ({self.cost(deal, seat)} "
            f"counters; {deal.cave[seat]} left in the cave)",
            "forced_bets.straddle_amount",
        )

    def do(self, deal: Deal, seat: int, action: Action) -> None:
        if action.kind == "straddle":
            cost = self.cost(deal, seat)
            deal.put(seat, cost)
            self.offers += 1
            deal.last_straddler = seat
            deal.witness(
                once(Straddle, deal.names[seat], cost, deal.contrib[seat], deal.pot_total())
            )
            self._offer(deal)
        else:
            self.decline(deal, seat, explicit=True)

    def decline(self, deal: Deal, seat: int, explicit: bool) -> None:
        deal.witness(once(Decline, deal.names[seat], not explicit))
        if self._ends_at_first_refusal(deal):
            _end_straddling(deal, self._forced)
        else:
            self.offers += 1
            self._offer(deal)

    def _limit_reached(self, deal: Deal, offers: int) -> bool:
        """Whether ``offers`` offers reach the limit. How far straddles go is read only
        where it decides (the offer to the dealer), so a sweep knows that a deal whose
        straddles stop short of him cannot be changed by it (rule_reads)."""
        n = len(deal.order)
        if offers != n - 1:
            return offers >= n
        if self._limit is None:
            to_dealer = self._forced.straddle_limit == "to-the-dealer"
            self._limit = n if to_dealer else n - 1
        return offers >= self._limit

    def _offer(self, deal: Deal) -> None:
        if self._limit_reached(deal, self.offers):
            _end_straddling(deal, self._forced)
            return
        deal.state = self
        deal.to_act_seat = deal.order[self.offers]

    def check_after_decline(self, deal: Deal, seat: int, action: Action) -> Phase:
        """Check a betting word said in place of the straddle's answer, as it will be played
        once the straddle is declined; returns the phase the decline leads to."""
        forced = self._forced
        ends = self._ends_at_first_refusal(deal) or self._limit_reached(deal, self.offers + 1)
        name = deal.names[seat]
        if not ends:
            deal.refuse(
                f"{name} is offered the straddle, and after him the next player: "
                "'straddle' or 'decline' first",
                "forced_bets.straddles",
            )
        last = deal.last_straddler
        if last is not None and forced.straddle_must_be_seen:
            bet = deal.top_stake
            contrib, cave = deal.contrib, deal.cave
            pending = [s for s in deal.after(last) if contrib[s] < bet and cave[s] > 0]
            if not pending or pending[0] != seat:
                deal.refuse(
                    f"{name} is offered the straddle: 'straddle' or 'decline' first",
                    "forced_bets.straddles",
                )
            if action.kind not in ("call", "fold"):  # the words of the seeing, at this stake
                total = contrib[seat] + cave[seat]
                deal.refuse_with(
                    f"before the deal {name} must see the raise ('call' {bet}) or drop out "
                    "('fold')",
                    "forced_bets.straddle_must_be_seen",
                    [LegalAction("call", min(bet, total)), FOLD],
                )
            return SEEING
        if deal.exposed is not None and deal.rules.misdeals.exposed_card_is_misdeal:
            return OVER  # the deal ends at the misdeal: the word has nothing to do
        first = deal.first_to_speak()
        if first != seat or deal.cave[seat] == 0:
            deal.refuse(
                f"{name} is offered the straddle, but {deal.names[first]} speaks first after "
                "the deal: 'straddle' or 'decline' first",
                "forced_bets.straddles",
            )
        # The betting to come, not opened yet, at the stakes as they stand.
        betting = Betting(deal.rules, deal.top_stake, [])
        deal.check(seat, action, betting, betting.legal(deal, seat))
        return BETTING


def offer_straddles(deal: Deal, straddling: Straddling) -> None:
    """The forced bets are in: offer the first straddle (or deal, if none can be)."""
    straddling._offer(deal)


def _end_straddling(deal: Deal, forced: ForcedBets) -> None:
    """Deal, or first have the straddle seen where the rules say so."""
    last = deal.last_straddler
    if last is None or not forced.straddle_must_be_seen:
        deal_cards(deal)
    else:
        begin_seeing(deal, last)
