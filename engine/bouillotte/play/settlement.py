"""How a deal ends: the showdown, a pool won uncontested, a deal nobody opens, a misdeal;
the pools and bonuses paid, and the :class:`Over` stage that keeps the status."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bonuses import Transfer, brelan_claims, triplet_claims
from .events import (
    Bonus,
    Decision,
    End,
    Levy,
    Misdeal,
    NobodyOpens,
    PotWon,
    Redeal,
    Return,
    Showdown,
    Stifle,
    UnderRetourne,
    WonUncontested,
    once,
)
from .hands import POINT_VALUE, HandValue, classify, triplets
from .outcome import Status
from .phases import OVER, SEEING, Stage
from .pots import build_pots, uncalled_excess
from .showdown import award_pots, hand_values

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Over", "misdeal", "nobody_opens", "showdown", "uncontested"]


class Over(Stage):
    """The deal has settled: how (``status``), and what is carried to the next deal."""

    __slots__ = ("carry", "status")

    def __init__(self, status: Status, carry: int, bet: int) -> None:
        super().__init__(OVER, bet)
        self.status = status
        self.carry = carry

    def copy(self, deal: Deal) -> Over:
        return Over(self.status, self.carry, self.bet)


def finish(deal: Deal, status: Status, carry: int = 0) -> None:
    deal.events.append(once(End, status, carry))
    deal.state = Over(status, carry, deal.state.bet)
    deal.to_act_seat = None


def give_back(deal: Deal, seat: int, chips: int, reason: str) -> None:
    deal.contrib[seat] = deal.contrib[seat] - chips
    deal.staked -= chips
    deal.top_stake = max(deal.contrib)
    deal.cave[seat] = deal.cave[seat] + chips
    deal.events.append(Return(deal.names[seat], chips, reason))


def _return_uncalled(deal: Deal) -> None:
    # The rule is read only where there is an excess it could return (rule_reads).
    seat, excess = uncalled_excess(deal.contrib)
    if excess and deal.rules.betting.return_uncalled_excess:
        give_back(deal, seat, excess, "uncalled excess withdrawn")


def _pay(deal: Deal, transfers: Sequence[Transfer]) -> None:
    if not transfers:
        return  # nothing to pay: how bonuses are paid is not read (rule_reads)
    ledger = deal.rules.bonuses.paid_from == "ledger"
    book = deal.ledger if ledger else deal.cave
    for t in transfers:
        amount = t.amount if ledger else min(t.amount, deal.cave[t.payer])
        book[t.payer] = book[t.payer] - amount
        book[t.payee] = book[t.payee] + amount
        if amount or not ledger:
            bonus = once(
                Bonus,
                deal.names[t.payer],
                deal.names[t.payee],
                amount,
                t.reason,
                ledger,
                t.amount - amount,
            )
            deal.bonuses.append(bonus)
            deal.events.append(bonus)


def _award(
    deal: Deal,
    seat: int,
    amount: int,
    contenders: Sequence[int],
    reason: str,
    decision: Decision,
    value: HandValue | None = None,
) -> None:
    deal.cave[seat] = deal.cave[seat] + amount
    names = deal.names
    pot = PotWon(
        amount, tuple([names[s] for s in contenders]), names[seat], reason, decision, value
    )
    deal.pots.append(pot)
    deal.events.append(pot)


def showdown(deal: Deal) -> None:
    _return_uncalled(deal)
    contenders = deal.contenders()
    rules = deal.rules
    pots = build_pots(deal.contrib, deal.folded, deal.carried_in)
    values, note = hand_values(
        deal.hands,
        deal.retourne,
        deal.under_retourne,
        contenders,
        rules,
        declared=deal.favori_rank,
        dealt=deal.dealt,
    )
    if note:
        deal.events.append(UnderRetourne(deal.under_retourne, note))
    names = deal.names
    deal.events.append(Showdown(tuple([(names[s], values[s]) for s in contenders])))
    awards = award_pots(
        pots, deal.hands, deal.retourne, values, rules, deal.seating, shown=contenders
    )
    for award in awards:
        _award(
            deal,
            award.winner,
            award.pot.amount,
            award.pot.contenders,
            award.reason,
            award.decision,
            values[award.winner],
        )
    winners = {a.winner for a in awards}
    _pay(deal, brelan_claims(contenders, values, winners, deal.folded, deal.order, rules))
    finish(deal, Status.SETTLED)


def uncontested(deal: Deal, seat: int, reason: str, *, bets_made: bool = True) -> None:
    if bets_made:  # forced stakes that nobody opened against are not "uncalled" bets
        _return_uncalled(deal)
    _award(deal, seat, deal.pot_total(), [seat], f"uncontested: {reason}", WonUncontested(reason))
    rules = deal.rules
    # Before the deal (a straddle nobody saw) there is no hand to show. The hand is looked
    # at first, so that whether a brelan may be claimed is read only for a brelan.
    if deal.state.phase is not SEEING:
        # Only the winner shows his hand, so only his can claim, unless he stifles it.
        value = classify(
            deal.hands[seat],
            deal.retourne,
            rules.hands,
            declared=deal.favori_rank,
            dealt=deal.dealt[seat],
        )
        if value.is_brelan and rules.bonuses.claimed_without_showdown:
            if deal.names[seat] in deal.stifled:
                deal.events.append(Stifle(deal.names[seat]))
            else:
                values = [POINT_VALUE] * len(deal.hands)
                values[seat] = value
                _pay(deal, brelan_claims([seat], values, {seat}, deal.folded, deal.order, rules))
    finish(deal, Status.UNCONTESTED)


def nobody_opens(deal: Deal) -> None:
    void = deal.rules.void_deals
    last = deal.last_straddler
    rule = void.nobody_opens if last is None else void.nobody_opens_after_straddles
    deal.events.append(once(NobodyOpens))
    taker = last if last is not None else deal.dealer
    if rule == "last-straddler-takes" and not deal.folded[taker]:
        uncontested(deal, taker, "nobody opened; the last to stake takes the pool", bets_made=False)
        return
    levied = 0
    for seat in deal.order:
        levy = min(void.void_levy, deal.cave[seat])
        if levy:
            deal.cave[seat] = deal.cave[seat] - levy
            levied += levy
            deal.events.append(once(Levy, deal.names[seat], levy))
    finish(deal, Status.VOID, carry=deal.pot_total() + levied)


def misdeal(deal: Deal) -> None:
    exposed = deal.exposed
    assert exposed is not None
    in_pack = all(exposed not in hand for hand in deal.hands)
    deal.events.append(Misdeal(exposed, in_pack))
    misdeals = deal.rules.misdeals
    stakes_stay = misdeals.stakes_on_a_misdeal == "stay-in-the-pool"
    for seat in deal.order:
        if deal.contrib[seat] and not stakes_stay:
            give_back(deal, seat, deal.contrib[seat], "stakes returned: the hands are abandoned")
    ranks = [triplets(hand) for hand in deal.hands]
    _pay(deal, triplet_claims(ranks, deal.order, deal.rules))
    deal.events.append(Redeal(deal.names[deal.dealer] if misdeals.dealer_keeps_deal else None))
    finish(deal, Status.VOID, carry=deal.pot_total())
