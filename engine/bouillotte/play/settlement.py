"""How a deal ends: the showdown, a pool won uncontested, a deal nobody opens, a misdeal;
the pools and bonuses paid, and the :class:`Over` stage that keeps the status.

Each ending settles the board and returns the :class:`Over` stage; ``bet`` is the bet of
the stage that ended (what a player's view of the settled deal shows)."""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
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
    Showdown,
    Stifle,
    UnderRetourne,
    WonUncontested,
    once,
)
from .hands import POINT_VALUE, HandValue, classify, triplets
from .outcome import Status
from .phases import OVER, Stage
from .pots import build_pots, uncalled_excess
from .showdown import award_pots, hand_values

__all__ = ["Over", "misdeal", "nobody_opens", "showdown", "uncontested"]


class Over(Stage):
    """The deal has settled: how (``status``), and what is carried to the next deal."""

    __slots__ = ("carry", "status")

    def __init__(self, status: Status, carry: int, bet: int) -> None:
        super().__init__(OVER, bet)
        self.status = status
        self.carry = carry

    def copy(self, board: Board) -> Over:
        return Over(self.status, self.carry, self.bet)


def _finish(board: Board, status: Status, bet: int, carry: int = 0) -> Over:
    board.events.append(once(End, status, carry))
    board.to_act_seat = None
    return Over(status, carry, bet)


def _return_uncalled(board: Board) -> None:
    # The rule is read only where there is an excess it could return (rule_reads).
    seat, excess = uncalled_excess(board.contrib)
    if excess and board.rules.betting.return_uncalled_excess:
        board.give_back(seat, excess, "uncalled excess withdrawn")


def _pay(board: Board, transfers: Sequence[Transfer]) -> None:
    if not transfers:
        return  # nothing to pay: how bonuses are paid is not read (rule_reads)
    ledger = board.rules.bonuses.paid_from == "ledger"
    book = board.ledger if ledger else board.cave
    for t in transfers:
        amount = t.amount if ledger else min(t.amount, board.cave[t.payer])
        book[t.payer] = book[t.payer] - amount
        book[t.payee] = book[t.payee] + amount
        if amount or not ledger:
            bonus = once(
                Bonus,
                board.names[t.payer],
                board.names[t.payee],
                amount,
                t.reason,
                ledger,
                t.amount - amount,
            )
            board.bonuses.append(bonus)
            board.events.append(bonus)


def _award(
    board: Board,
    seat: int,
    amount: int,
    contenders: Sequence[int],
    reason: str,
    decision: Decision,
    value: HandValue | None = None,
) -> None:
    board.cave[seat] = board.cave[seat] + amount
    names = board.names
    pot = PotWon(
        amount, tuple([names[s] for s in contenders]), names[seat], reason, decision, value
    )
    board.pots.append(pot)
    board.events.append(pot)


def showdown(board: Board, bet: int) -> Over:
    _return_uncalled(board)
    contenders = board.contenders()
    rules = board.rules
    pots = build_pots(board.contrib, board.folded, board.carried_in)
    values, note = hand_values(
        board.hands,
        board.retourne,
        board.under_retourne,
        contenders,
        rules,
        declared=board.favori_rank,
        dealt=board.dealt,
    )
    if note:
        board.events.append(UnderRetourne(board.under_retourne, note))
    names = board.names
    board.events.append(Showdown(tuple([(names[s], values[s]) for s in contenders])))
    awards = award_pots(
        pots, board.hands, board.retourne, values, rules, board.seating, shown=contenders
    )
    for award in awards:
        _award(
            board,
            award.winner,
            award.pot.amount,
            award.pot.contenders,
            award.reason,
            award.decision,
            values[award.winner],
        )
    winners = {a.winner for a in awards}
    _pay(board, brelan_claims(contenders, values, winners, board.folded, board.order, rules))
    return _finish(board, Status.SETTLED, bet)


def uncontested(
    board: Board,
    seat: int,
    reason: str,
    bet: int,
    *,
    bets_made: bool = True,
    hands_dealt: bool = True,
) -> Over:
    """``seat`` takes the pool uncontested. ``bets_made``: the stakes include bets made
    by word (an uncalled excess may go back); ``hands_dealt``: the cards are dealt (a straddle
    nobody saw ends the deal before they are), so the winner may claim a brelan."""
    if bets_made:  # forced stakes that nobody opened against are not "uncalled" bets
        _return_uncalled(board)
    _award(board, seat, board.pot_total(), [seat], f"uncontested: {reason}", WonUncontested(reason))
    rules = board.rules
    # Before the deal (a straddle nobody saw) there is no hand to show. The hand is looked
    # at first, so that whether a brelan may be claimed is read only for a brelan.
    if hands_dealt:
        # Only the winner shows his hand, so only his can claim, unless he stifles it.
        value = classify(
            board.hands[seat],
            board.retourne,
            rules.hands,
            declared=board.favori_rank,
            dealt=board.dealt[seat],
        )
        if value.is_brelan and rules.bonuses.claimed_without_showdown:
            if board.names[seat] in board.stifled:
                board.events.append(Stifle(board.names[seat]))
            else:
                values = [POINT_VALUE] * len(board.hands)
                values[seat] = value
                _pay(board, brelan_claims([seat], values, {seat}, board.folded, board.order, rules))
    return _finish(board, Status.UNCONTESTED, bet)


def nobody_opens(board: Board, bet: int) -> Over:
    void = board.rules.void_deals
    last = board.last_straddler
    rule = void.nobody_opens if last is None else void.nobody_opens_after_straddles
    board.events.append(once(NobodyOpens))
    taker = last if last is not None else board.dealer
    if rule == "last-straddler-takes" and not board.folded[taker]:
        return uncontested(
            board, taker, "nobody opened; the last to stake takes the pool", bet, bets_made=False
        )
    levied = 0
    for seat in board.order:
        levy = min(void.void_levy, board.cave[seat])
        if levy:
            board.cave[seat] = board.cave[seat] - levy
            levied += levy
            board.events.append(once(Levy, board.names[seat], levy))
    return _finish(board, Status.VOID, bet, carry=board.pot_total() + levied)


def misdeal(board: Board, bet: int) -> Over:
    exposed = board.exposed
    assert exposed is not None
    in_pack = all(exposed not in hand for hand in board.hands)
    board.events.append(Misdeal(exposed, in_pack))
    misdeals = board.rules.misdeals
    stakes_stay = misdeals.stakes_on_a_misdeal == "stay-in-the-pool"
    for seat in board.order:
        if board.contrib[seat] and not stakes_stay:
            board.give_back(seat, board.contrib[seat], "stakes returned: the hands are abandoned")
    ranks = [triplets(hand) for hand in board.hands]
    _pay(board, triplet_claims(ranks, board.order, board.rules))
    board.events.append(Redeal(board.names[board.dealer] if misdeals.dealer_keeps_deal else None))
    return _finish(board, Status.VOID, bet, carry=board.pot_total())
