"""The betting round, from the deal of the cards to the end of its closing round: what is
legal before and after the opening, why a word is refused, and what each word does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.profile import Rules
from .actions import Action, LegalAction
from .closing import CallingPrivilege, ClosingRound, NoMoreRound
from .draw import begin_draw
from .events import Dealt, Privilege, once
from .phases import BETTING, CLOSING, FOLD, Stage
from .settlement import misdeal, nobody_opens, showdown, uncontested

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Betting", "deal_cards", "straddle_word_out_of_place"]

# The words that take no amount, made once (a legal list is made at every step).
_PASS: Final = LegalAction("pass")
_SAY_NO_MORE: Final = LegalAction("no-more")


class Betting(Stage):
    """The betting round: the bet to meet (``bet``), who is still to meet it (``pending``,
    in order), the last to bet or raise (``aggressor``, ``None`` until the opening), what
    the opener added (``first_stake``), who holds Foster's privilege, and the closing round
    once everyone has met the bet (``closing``, ``None`` until then; a raise ends it)."""

    __slots__ = (
        "_all_in",
        "_betting",
        "_forced",
        "_fresh",
        "_min_raise",
        "_opening",
        "_raises",
        "_short",
        "aggressor",
        "closing",
        "first_stake",
        "pending",
        "privilege_holder",
    )

    def __init__(self, rules: Rules, bet: int, pending: list[int]) -> None:
        super().__init__(BETTING, bet)
        self.pending = pending
        self.aggressor: int | None = None
        self.privilege_holder: int | None = None
        self.first_stake = 0
        """What the opener added to open the game (Pierer's *Einsatz*, which raises multiply
        under some readings of his raises)."""
        self.closing: ClosingRound | None = None
        # The rules of the betting, each read where it first decides something and kept
        # (a sweep knows that a deal which never reached it cannot be changed by it:
        # study/rule_reads.py). Their groups are taken here: a group's read is not noted.
        self._betting = rules.betting
        self._forced = rules.forced_bets
        self._all_in: bool | None = None
        self._min_raise: int | None = None
        self._raises: str | None = None
        self._opening: str | None = None
        self._fresh: int | None = None
        self._short: str | None = None

    def copy(self, deal: Deal) -> Betting:
        other = Betting(deal.rules, self.bet, list(self.pending))
        other.phase = self.phase
        other.aggressor, other.privilege_holder = self.aggressor, self.privilege_holder
        other.first_stake = self.first_stake
        other.closing = None if self.closing is None else self.closing.copy()
        # What was read is the same under the copy's rules (Deal.copy).
        other._all_in, other._min_raise, other._raises = self._all_in, self._min_raise, self._raises
        other._opening, other._fresh = self._opening, self._fresh
        other._short = self._short
        return other

    def _may_go_all_in(self) -> bool:
        """``betting.all_in_may_open_or_raise``."""
        known = self._all_in
        if known is None:
            known = self._all_in = self._betting.all_in_may_open_or_raise
        return known

    def _opening_minimum(self) -> str:
        """``betting.opening_minimum``."""
        known = self._opening
        if known is None:
            known = self._opening = self._betting.opening_minimum
        return known

    def _short_of_the_pot(self) -> str:
        """``betting.opening_short_of_the_pot`` (read only where a player holds less than an
        opening at the pot asks)."""
        known = self._short
        if known is None:
            known = self._short = self._betting.opening_short_of_the_pot
        return known

    def _least_added(self) -> int:
        """What an opening adds at the least: a counter, or the blind (equal-the-blind)."""
        known = self._fresh
        if known is None:
            blind = self._opening_minimum() == "equal-the-blind"
            known = self._fresh = max(self._forced.dealer_blind, 1) if blind else 1
        return known

    def _minimum_raise(self) -> int:
        """``betting.minimum_raise``."""
        known = self._min_raise
        if known is None:
            known = self._min_raise = self._betting.minimum_raise
        return known

    def _raise_rule(self) -> str:
        """``betting.raises``."""
        known = self._raises
        if known is None:
            known = self._raises = self._betting.raises
        return known

    def _close(self, closing: ClosingRound | None) -> None:
        """Begin a closing round, or (``None``) end it: the phase follows."""
        self.closing = closing
        self.phase = BETTING if closing is None else closing.phase

    # -- what is legal ------------------------------------------------------------------

    def legal(self, deal: Deal, seat: int) -> list[LegalAction]:
        stake, total = deal.contrib[seat], deal.contrib[seat] + deal.cave[seat]
        may_go_all_in = self._may_go_all_in()
        top = total if may_go_all_in else total - 1
        betting = self.closing is None
        if betting and not deal.opened:
            legal = [_PASS]
            low = self._min_open(deal, seat)
            if low <= top or (low == total and self._opens_short(deal, seat)):
                legal.append(LegalAction("bet", low, self._max_open(deal, seat, top)))
            if may_go_all_in and low <= total <= self._max_open(deal, seat, total):
                legal.append(LegalAction("all-in", total, total))
            legal.append(FOLD)
            return legal
        legal = [LegalAction("call", min(self.bet, total)) if betting else _SAY_NO_MORE]
        low, step = self._least_raise()
        if low <= top:
            legal.append(LegalAction("raise", low, top, step))
        if (total <= self.bet and betting and stake < total) or (may_go_all_in and total >= low):
            legal.append(LegalAction("all-in", total, total))
        legal.append(FOLD)
        return legal

    def _min_open(self, deal: Deal, seat: int) -> int:
        largest = deal.largest_stake()
        opening = self._opening_minimum()
        if opening in ("as-much-as-the-pot", "exactly-the-pot"):
            need = max(largest, deal.contrib[seat] + max(deal.pot_total(), 1))
            whole = deal.contrib[seat] + deal.cave[seat]
            if need > whole > largest and self._short_of_the_pot() == "all-he-has":
                return whole  # short of the pot: he opens for all he has
            return need
        if opening == "equal-the-largest":
            return max(largest, 1)
        least = deal.contrib[seat] + self._least_added()
        return largest if largest > least else least

    def _opens_short(self, deal: Deal, seat: int) -> bool:
        """Whether the player opens for all he has, holding less than the pot asks."""
        if self._opening_minimum() not in ("as-much-as-the-pot", "exactly-the-pot"):
            return False
        whole = deal.contrib[seat] + deal.cave[seat]
        return whole < deal.contrib[seat] + max(deal.pot_total(), 1)

    def _max_open(self, deal: Deal, seat: int, top: int) -> int:
        """The most an opening may be, given ``top``, the most the cave allows."""
        return self._min_open(deal, seat) if self._opening_minimum() == "exactly-the-pot" else top

    def _least_raise(self) -> tuple[int, int | None]:
        """The least total a raise may reach, and the step between allowed totals (each
        allowed total is the least one and a whole number of steps above it)."""
        bet, raises, least = self.bet, self._raise_rule(), self._minimum_raise()
        low = bet + least
        if raises == "by-any-amount" or bet <= 0:
            return low, None
        if raises == "multiples-of-the-bet":  # make it 2, 3, ... times the bet
            return _first_multiple(max(low, 2 * bet), bet), bet
        unit = self.first_stake if self.first_stake > 0 else bet
        if raises == "multiples-of-the-first-stake":  # make it 2, 3, ... times the stake
            return _first_multiple(max(low, 2 * unit), unit), unit
        if raises == "adds-multiples-of-the-first-stake":  # add 2, 3, ... times the stake
            return bet + max(2 * unit, _first_multiple(least, unit)), unit
        # adds-multiples-of-the-bet: add 2, 3, ... times the bet
        return bet + max(2 * bet, _first_multiple(least, bet)), bet

    # -- why a word is refused ----------------------------------------------------------

    def refusal(self, deal: Deal, seat: int, action: Action) -> tuple[str, str]:
        name, kind = deal.names[seat], action.kind
        whole = deal.contrib[seat] + deal.cave[seat]
        closing = self.phase in CLOSING
        if not closing and not deal.opened:
            if kind in ("bet", "all-in"):
                total = action.amount if kind == "bet" else whole
                assert total is not None
                return self._open_fault(deal, seat, total)
            if kind in ("straddle", "decline"):
                return straddle_word_out_of_place(deal, seat, kind)
            return (
                f"nobody has opened yet, so {name} cannot '{kind}': pass, open with 'bet N', "
                "or fold",
                "betting.pass_before_opening",
            )
        if kind == "raise" or (kind == "all-in" and whole > self.bet):
            total = action.amount if kind == "raise" else whole
            assert total is not None
            return self._raise_fault(deal, seat, total)
        if kind == "all-in":
            return (f"{name} has met the bet; 'all-in' would add nothing", "betting.closing")
        if kind == "pass":
            return (
                f"the game is open: {name} cannot pass now, only call, raise or fold (withdraw "
                "from the pool)",
                "betting.pass_before_opening",
            )
        if kind == "bet":
            return (
                f"the game is already open at {self.bet}: raise to a total with 'raise N'",
                "betting.opening_minimum",
            )
        if kind == "call" and closing:
            return (f"{name} has already met the bet: say 'no-more' or raise", "betting.closing")
        if kind == "no-more" and not closing:
            return (
                f"'no-more' is said only when everyone has met the bet; {name} must call "
                f"{self.bet}, raise or fold",
                "betting.closing",
            )
        return straddle_word_out_of_place(deal, seat, kind)

    def _open_fault(self, deal: Deal, seat: int, total: int) -> tuple[str, str]:
        low = self._min_open(deal, seat)
        whole = deal.contrib[seat] + deal.cave[seat]
        if total < low and low > whole:
            return (
                f"{deal.names[seat]} cannot open: the opening adds as much as the pot holds, "
                f"to {low}, and {deal.names[seat]} holds {whole}",
                "betting.opening_short_of_the_pot",
            )
        if total < low:
            return (
                f"{deal.names[seat]} cannot open for {total}: the least opening is {low}",
                "betting.opening_minimum",
            )
        if self._opening_minimum() == "exactly-the-pot" and total > low:
            return (
                f"{deal.names[seat]} cannot open for {total}: the opening adds exactly as much "
                f"as the pot holds, to {low}; raising comes after",
                "betting.opening_minimum",
            )
        return _stake_fault(deal, seat, total, "open")

    def _raise_fault(self, deal: Deal, seat: int, total: int) -> tuple[str, str]:
        name = deal.names[seat]
        low, step = self._least_raise()
        if total < low:
            return (
                f"{name} cannot raise to {total}: the bet is {self.bet} and a raise must reach "
                f"at least {low}",
                "betting.minimum_raise",
            )
        if step and (total - low) % step and total != deal.contrib[seat] + deal.cave[seat]:
            return (
                f"{name} cannot raise to {total}: {self._raise_grid_words()} (to {low}, "
                f"{low + step}, ...)",
                "betting.raises",
            )
        return _stake_fault(deal, seat, total, "raise")

    def _raise_grid_words(self) -> str:
        """What the allowed totals of a raise are, in words (for a refusal)."""
        raises, bet = self._raise_rule(), self.bet
        if raises == "multiples-of-the-bet":
            return f"a raise doubles, quadruples or otherwise multiplies the bet of {bet}"
        unit = self.first_stake if self.first_stake > 0 else bet
        if raises == "multiples-of-the-first-stake":
            return f"a raise makes the stake a multiple (twice or more) of the first stake, {unit}"
        if raises == "adds-multiples-of-the-first-stake":
            return (
                f"a raise adds to the bet of {bet} twice, three times or more the first "
                f"stake, {unit}"
            )
        return f"a raise adds to the bet of {bet} twice, three times or more that bet"

    # -- what a word does ---------------------------------------------------------------

    def do(self, deal: Deal, seat: int, action: Action) -> None:
        if self.closing is None and not deal.opened:
            self._before_opening(deal, seat, action)
        else:
            self._after_opening(deal, seat, action)
        self.advance(deal)

    def _before_opening(self, deal: Deal, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "pass":
            if deal.rules.betting.pass_before_opening == "folds":
                self._fold(deal, seat)
                return
            deal.say(seat, "pass")
            self._drop_pending(seat)
        elif kind == "fold":
            self._fold(deal, seat)
        elif kind == "bet":
            assert action.amount is not None
            self._open(deal, seat, action.amount, "bet")
        else:  # all-in
            self._open(deal, seat, deal.contrib[seat] + deal.cave[seat], "all-in")

    def _after_opening(self, deal: Deal, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "fold":
            self._fold(deal, seat)
            if self.closing is not None:
                self.closing.step(deal, seat, True)
        elif kind == "raise":
            assert action.amount is not None
            self._raise(deal, seat, action.amount, "raise")
        elif kind == "all-in":
            total = deal.contrib[seat] + deal.cave[seat]
            if total > self.bet:
                self._raise(deal, seat, total, "all-in")
            else:
                self._call(deal, seat, "all-in")
        elif kind == "call":
            self._call(deal, seat, "call")
        else:  # no-more
            deal.say(seat, "no-more")
            assert self.closing is not None
            self.closing.step(deal, seat, False)

    def _open(self, deal: Deal, seat: int, total: int, word: str) -> None:
        self.first_stake = total - deal.contrib[seat]
        deal.record(seat, word, total - deal.contrib[seat])
        deal.opened = True
        self.bet = total
        self.aggressor = seat
        self.privilege_holder = seat
        self._everyone_else_to_act(deal, seat)

    def _raise(self, deal: Deal, seat: int, total: int, word: str) -> None:
        closing = self.closing
        if isinstance(closing, CallingPrivilege) and seat == closing.asked:
            took_over = (
                closing.word_passed
                and deal.rules.betting.privilege_after_the_word == "from-the-holder"
            )
            # The privilege moves on from its holder of this round, or from the raiser.
            self.privilege_holder = deal.next_active(closing.holder if took_over else seat)
        deal.record(seat, word, total - deal.contrib[seat])
        self.bet = total
        self.aggressor = seat
        self._close(None)
        self._everyone_else_to_act(deal, seat)

    def _call(self, deal: Deal, seat: int, word: str) -> None:
        adds = min(self.bet - deal.contrib[seat], deal.cave[seat])
        deal.record(seat, word, adds, sight=deal.contrib[seat] + adds < self.bet)
        self._drop_pending(seat)

    def _fold(self, deal: Deal, seat: int) -> None:
        deal.fold(seat)
        self._drop_pending(seat)
        closing = self.closing
        if isinstance(closing, NoMoreRound) and seat in closing.queue:
            closing.queue.remove(seat)

    def _drop_pending(self, seat: int) -> None:
        if seat in self.pending:
            self.pending.remove(seat)

    def _everyone_else_to_act(self, deal: Deal, seat: int) -> None:
        cave, folded = deal.cave, deal.folded
        self.pending = [s for s in deal.after(seat) if not folded[s] and cave[s] > 0]

    # -- moving on ----------------------------------------------------------------------

    def advance(self, deal: Deal) -> None:
        """Whose turn it is now, or the end of the betting."""
        if deal.live == 1:
            uncontested(deal, deal.folded.index(False), "every other player has withdrawn")
            return
        closing = self.closing
        if closing is not None:
            seat = closing.next_to_act(deal)
            if seat is None:
                self._end(deal)
            else:
                deal.to_act_seat = seat
        elif self.pending:
            deal.to_act_seat = self.pending[0]
        elif not deal.opened:
            nobody_opens(deal)
        else:
            self._round_complete(deal)

    def _round_complete(self, deal: Deal) -> None:
        betting = deal.rules.betting
        active = deal.active()
        still_in, can_bet = len(deal.contenders()), len(active)
        if still_in == can_bet or 2 not in (still_in, can_bet):
            # Whichever players count as betting, two are (or are not): how they are
            # counted is not read, so a sweep knows it could not change this deal.
            two_betting = can_bet == 2
        else:
            counted = still_in if betting.two_players_betting == "two-still-in" else can_bet
            two_betting = counted == 2
        if (
            can_bet <= 1
            or (two_betting and betting.two_players_call_ends)
            or betting.closing == "single-round"
        ):
            self._end(deal)
        elif betting.closing == "calling-privilege":
            holder = self.privilege_holder
            assert holder is not None
            if deal.folded[holder] or deal.cave[holder] == 0:
                holder = deal.next_active(holder)
            self._close(CallingPrivilege(holder))
            deal.witness(once(Privilege, deal.names[holder], self.bet))
            deal.to_act_seat = holder
        else:
            assert self.aggressor is not None
            queue = [s for s in deal.after(self.aggressor) if s in active]
            if not queue:
                self._end(deal)
            else:
                self._close(NoMoreRound(queue))
                deal.to_act_seat = queue[0]

    def _end(self, deal: Deal) -> None:
        """The betting is over: the draw, where the rules have one, then the showdown."""
        if deal.rules.table.draw == "discard-and-buy":
            begin_draw(deal, self.bet)
        else:
            showdown(deal)


def deal_cards(deal: Deal) -> None:
    """Deal (or find the misdeal), and open the betting."""
    names, hands, order = deal.names, deal.hands, deal.order
    deal.events.append(Dealt(tuple([(names[s], tuple(hands[s])) for s in order]), deal.retourne))
    if deal.exposed is not None and deal.rules.misdeals.exposed_card_is_misdeal:
        misdeal(deal)
        return
    first, cave, folded = deal.first_to_speak(), deal.cave, deal.folded
    pending = [s for s in deal.after(first) if not folded[s] and cave[s] > 0]
    if not folded[first] and cave[first] > 0:
        pending.insert(0, first)
    betting = Betting(deal.rules, deal.top_stake, pending)
    deal.state = betting
    betting.advance(deal)


def straddle_word_out_of_place(deal: Deal, seat: int, kind: str) -> tuple[str, str]:
    if not deal.rules.forced_bets.straddles:
        why = "this system has no straddles"
    else:
        why = "a straddle is offered only before the deal, and that time is past"
    return f"{deal.names[seat]} cannot '{kind}': {why}", "forced_bets.straddles"


def _stake_fault(deal: Deal, seat: int, total: int, word: str) -> tuple[str, str]:
    name, most = deal.names[seat], deal.contrib[seat] + deal.cave[seat]
    if total > most:
        return (
            f"{name} cannot stake {total}: his cave allows at most {most} (bets are "
            "limited to the cave)",
            "stakes.cave",
        )
    return (
        f"{name} cannot {word} with his whole cave ({most}): going all in is only a call "
        "under this system",
        "betting.all_in_may_open_or_raise",
    )


def _first_multiple(least: int, unit: int) -> int:
    """The smallest whole multiple of ``unit`` that is at least ``least``."""
    return -(-least // unit) * unit
