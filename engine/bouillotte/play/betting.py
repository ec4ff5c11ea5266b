"""The betting round, from the deal of the cards to the end of its closing round: what is
legal before and after the opening, why a word is refused, and what each word does."""

from __future__ import annotations

from typing import Final

from ..rules.profile import Rules
from .actions import Action, LegalAction
from .board import Board
from .closing import CallingPrivilege, ClosingRound, NoMoreRound
from .decides import Decides
from .events import Privilege, once
from .phases import (
    BETTING,
    BETTING_CLOSED,
    CLOSING,
    FOLD,
    GOES_ON,
    NOBODY_OPENED,
    ONE_LEFT,
    Exit,
    Stage,
)

__all__ = ["BettingRound", "open_betting", "straddle_word_out_of_place"]

# The words that take no amount, made once (a legal list is made at every step).
_PASS: Final = LegalAction("pass")
_SAY_NO_MORE: Final = LegalAction("no-more")


class BettingRound(Stage):
    """The betting round: the bet to meet (``bet``), who is still to meet it (``pending``,
    in order), the last to bet or raise (``aggressor``, ``None`` until the opening), what
    the opener added (``first_stake``), who holds Foster's privilege, and the closing round
    once everyone has met the bet (``closing``, ``None`` until then; a raise ends it)."""

    __slots__ = (
        "_all_in",
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
        # The rules of the betting, each read where it first decides (play/__init__.py).
        betting = rules.betting
        self._all_in: Decides[bool] = Decides(betting, "all_in_may_open_or_raise")
        self._min_raise: Decides[int] = Decides(betting, "minimum_raise")
        self._raises: Decides[str] = Decides(betting, "raises")
        self._opening: Decides[str] = Decides(betting, "opening_minimum")
        self._short: Decides[str] = Decides(betting, "opening_short_of_the_pot")
        """Read only where a player holds less than an opening at the pot asks."""
        self._forced = rules.forced_bets
        self._fresh = 0
        """What an opening adds at the least (:meth:`_least_added`; 0 until it is known)."""

    def copy(self, board: Board) -> BettingRound:
        rules = board.rules
        other = BettingRound(rules, self.bet, list(self.pending))
        other.phase = self.phase
        other.aggressor, other.privilege_holder = self.aggressor, self.privilege_holder
        other.first_stake = self.first_stake
        other.closing = None if self.closing is None else self.closing.copy()
        # What was read is the same under the copy's rules (Deal.copy).
        other._all_in.keep_from(self._all_in)
        other._min_raise.keep_from(self._min_raise)
        other._raises.keep_from(self._raises)
        other._opening.keep_from(self._opening)
        other._short.keep_from(self._short)
        other._fresh = self._fresh
        return other

    def _least_added(self) -> int:
        """What an opening adds at the least: a counter, or the blind (equal-the-blind)."""
        known = self._fresh
        if known == 0:
            blind = self._opening.value() == "equal-the-blind"
            known = self._fresh = max(self._forced.dealer_blind, 1) if blind else 1
        return known

    def _close(self, closing: ClosingRound | None) -> None:
        """Begin a closing round, or (``None``) end it: the phase follows."""
        self.closing = closing
        self.phase = BETTING if closing is None else closing.phase

    # -- what is legal ------------------------------------------------------------------

    def legal(self, board: Board, seat: int) -> list[LegalAction]:
        stake, total = board.contrib[seat], board.contrib[seat] + board.cave[seat]
        may_go_all_in = self._all_in.value()
        top = total if may_go_all_in else total - 1
        betting = self.closing is None
        if betting and not board.opened:
            legal = [_PASS]
            low = self._min_open(board, seat)
            if low <= top or (low == total and self._opens_short(board, seat)):
                legal.append(LegalAction("bet", low, self._max_open(board, seat, top)))
            if may_go_all_in and low <= total <= self._max_open(board, seat, total):
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

    def _min_open(self, board: Board, seat: int) -> int:
        largest = board.largest_stake()
        opening = self._opening.value()
        if opening in ("as-much-as-the-pot", "exactly-the-pot"):
            need = max(largest, board.contrib[seat] + max(board.pot_total(), 1))
            whole = board.contrib[seat] + board.cave[seat]
            if need > whole > largest and self._short.value() == "all-he-has":
                return whole  # short of the pot: he opens for all he has
            return need
        if opening == "equal-the-largest":
            return max(largest, 1)
        least = board.contrib[seat] + self._least_added()
        return largest if largest > least else least

    def _opens_short(self, board: Board, seat: int) -> bool:
        """Whether the player opens for all he has, holding less than the pot asks."""
        if self._opening.value() not in ("as-much-as-the-pot", "exactly-the-pot"):
            return False
        whole = board.contrib[seat] + board.cave[seat]
        return whole < board.contrib[seat] + max(board.pot_total(), 1)

    def _max_open(self, board: Board, seat: int, top: int) -> int:
        """The most an opening may be, given ``top``, the most the cave allows."""
        return self._min_open(board, seat) if self._opening.value() == "exactly-the-pot" else top

    def _least_raise(self) -> tuple[int, int | None]:
        """The least total a raise may reach, and the step between allowed totals (each
        allowed total is the least one and a whole number of steps above it)."""
        bet, raises, least = self.bet, self._raises.value(), self._min_raise.value()
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

    def refusal(self, board: Board, seat: int, action: Action) -> tuple[str, str]:
        name, kind = board.names[seat], action.kind
        whole = board.contrib[seat] + board.cave[seat]
        closing = self.phase in CLOSING
        if not closing and not board.opened:
            if kind in ("bet", "all-in"):
                total = action.amount if kind == "bet" else whole
                assert total is not None
                return self._open_fault(board, seat, total)
            if kind in ("straddle", "decline"):
                return straddle_word_out_of_place(board, seat, kind)
            return (
                f"nobody has opened yet, so {name} cannot '{kind}': pass, open with 'bet N', "
                "or fold",
                "betting.pass_before_opening",
            )
        if kind == "raise" or (kind == "all-in" and whole > self.bet):
            total = action.amount if kind == "raise" else whole
            assert total is not None
            return self._raise_fault(board, seat, total)
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
        if kind == "no-more" and not closing and board.contrib[seat] >= self.bet:
            return (
                f"{name}'s stake already meets the bet of {self.bet} (a blind or straddle), "
                f"but {name} still speaks before the betting can close: call (adds nothing), "
                "raise or fold",
                "betting.closing",
            )
        if kind == "no-more" and not closing:
            return (
                f"'no-more' is said only when everyone has met the bet; {name} must call "
                f"{self.bet}, raise or fold",
                "betting.closing",
            )
        return straddle_word_out_of_place(board, seat, kind)

    def _open_fault(self, board: Board, seat: int, total: int) -> tuple[str, str]:
        low = self._min_open(board, seat)
        whole = board.contrib[seat] + board.cave[seat]
        if total < low and low > whole:
            if self._opening.value() in ("as-much-as-the-pot", "exactly-the-pot"):
                return (
                    f"{board.names[seat]} cannot open: the opening adds as much as the pot "
                    f"holds, to {low}, and {board.names[seat]} holds {whole}",
                    "betting.opening_short_of_the_pot",
                )
            # any other opening asks no more than the blind or the largest stake: the rule
            # of an opening short of the pot is not consulted (its docstring)
            return (
                f"{board.names[seat]} cannot open: the least opening is {low}, and "
                f"{board.names[seat]} holds {whole}",
                "betting.opening_minimum",
            )
        if total < low:
            return (
                f"{board.names[seat]} cannot open for {total}: the least opening is {low}",
                "betting.opening_minimum",
            )
        if self._opening.value() == "exactly-the-pot" and total > low:
            return (
                f"{board.names[seat]} cannot open for {total}: the opening adds exactly as much "
                f"as the pot holds, to {low}; raising comes after",
                "betting.opening_minimum",
            )
        return _stake_fault(board, seat, total, "open")

    def _raise_fault(self, board: Board, seat: int, total: int) -> tuple[str, str]:
        name = board.names[seat]
        low, step = self._least_raise()
        if total < low:
            return (
                f"{name} cannot raise to {total}: the bet is {self.bet} and a raise must reach "
                f"at least {low}",
                "betting.minimum_raise",
            )
        if step and (total - low) % step and total != board.contrib[seat] + board.cave[seat]:
            return (
                f"{name} cannot raise to {total}: {self._raise_grid_words()} (to {low}, "
                f"{low + step}, ...)",
                "betting.raises",
            )
        return _stake_fault(board, seat, total, "raise")

    def _raise_grid_words(self) -> str:
        """What the allowed totals of a raise are, in words (for a refusal)."""
        raises, bet = self._raises.value(), self.bet
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

    def do(self, board: Board, seat: int, action: Action) -> Exit:
        if self.closing is None and not board.opened:
            self._before_opening(board, seat, action)
        else:
            self._after_opening(board, seat, action)
        return self.advance(board)

    def _before_opening(self, board: Board, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "pass":
            if board.rules.betting.pass_before_opening == "folds":
                self._fold(board, seat)
                return
            board.say(seat, "pass")
            self._drop_pending(seat)
        elif kind == "fold":
            self._fold(board, seat)
        elif kind == "bet":
            assert action.amount is not None
            self._open(board, seat, action.amount, "bet")
        else:  # all-in
            self._open(board, seat, board.contrib[seat] + board.cave[seat], "all-in")

    def _after_opening(self, board: Board, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "fold":
            self._fold(board, seat)
            if self.closing is not None:
                self.closing.step(board, seat, True)
        elif kind == "raise":
            assert action.amount is not None
            self._raise(board, seat, action.amount, "raise")
        elif kind == "all-in":
            total = board.contrib[seat] + board.cave[seat]
            if total > self.bet:
                self._raise(board, seat, total, "all-in")
            else:
                self._call(board, seat, "all-in")
        elif kind == "call":
            self._call(board, seat, "call")
        else:  # no-more
            board.say(seat, "no-more")
            assert self.closing is not None
            self.closing.step(board, seat, False)

    def _open(self, board: Board, seat: int, total: int, word: str) -> None:
        self.first_stake = total - board.contrib[seat]
        board.record(seat, word, total - board.contrib[seat])
        board.opened = True
        self.bet = total
        self.aggressor = seat
        self.privilege_holder = seat
        self._everyone_else_to_act(board, seat)

    def _raise(self, board: Board, seat: int, total: int, word: str) -> None:
        closing = self.closing
        if isinstance(closing, CallingPrivilege) and seat == closing.asked:
            took_over = (
                closing.word_passed
                and board.rules.betting.privilege_after_the_word == "from-the-holder"
            )
            # The privilege moves on from its holder of this round, or from the raiser.
            self.privilege_holder = board.next_active(closing.holder if took_over else seat)
        board.record(seat, word, total - board.contrib[seat])
        self.bet = total
        self.aggressor = seat
        self._close(None)
        self._everyone_else_to_act(board, seat)

    def _call(self, board: Board, seat: int, word: str) -> None:
        adds = min(self.bet - board.contrib[seat], board.cave[seat])
        board.record(seat, word, adds, sight=board.contrib[seat] + adds < self.bet)
        self._drop_pending(seat)

    def _fold(self, board: Board, seat: int) -> None:
        board.fold(seat)
        self._drop_pending(seat)
        closing = self.closing
        if isinstance(closing, NoMoreRound) and seat in closing.queue:
            closing.queue.remove(seat)

    def _drop_pending(self, seat: int) -> None:
        if seat in self.pending:
            self.pending.remove(seat)

    def _everyone_else_to_act(self, board: Board, seat: int) -> None:
        cave, folded = board.cave, board.folded
        self.pending = [s for s in board.after(seat) if not folded[s] and cave[s] > 0]

    # -- moving on ----------------------------------------------------------------------

    def advance(self, board: Board) -> Exit:
        """Whose turn it is now, or how the betting ended."""
        if board.live == 1:
            return ONE_LEFT
        closing = self.closing
        if closing is not None:
            seat = closing.next_to_act(board)
            if seat is None:
                return BETTING_CLOSED
            board.to_act_seat = seat
        elif self.pending:
            board.to_act_seat = self.pending[0]
        elif not board.opened:
            return NOBODY_OPENED
        else:
            return self._round_complete(board)
        return GOES_ON

    def _round_complete(self, board: Board) -> Exit:
        """Everyone has met the bet: the betting ends, or its closing round begins."""
        betting = board.rules.betting
        active = board.active()
        still_in, can_bet = len(board.contenders()), len(active)
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
            return BETTING_CLOSED
        if betting.closing == "calling-privilege":
            holder = self.privilege_holder
            assert holder is not None
            if board.folded[holder] or board.cave[holder] == 0:
                holder = board.next_active(holder)
            self._close(CallingPrivilege(holder))
            board.witness(once(Privilege, board.names[holder], self.bet))
            board.to_act_seat = holder
            return GOES_ON
        assert self.aggressor is not None
        queue = [s for s in board.after(self.aggressor) if s in active]
        if not queue:
            return BETTING_CLOSED
        self._close(NoMoreRound(queue))
        board.to_act_seat = queue[0]
        return GOES_ON


def open_betting(board: Board) -> BettingRound:
    """The betting round after the deal, not opened yet: who is to speak, in order, from
    the first to speak after the deal (whoever can bet)."""
    first, cave, folded = board.first_to_speak(), board.cave, board.folded
    pending = [s for s in board.after(first) if not folded[s] and cave[s] > 0]
    if not folded[first] and cave[first] > 0:
        pending.insert(0, first)
    return BettingRound(board.rules, board.top_stake, pending)


def straddle_word_out_of_place(board: Board, seat: int, kind: str) -> tuple[str, str]:
    if not board.rules.forced_bets.straddles:
        why = "this system has no straddles"
    else:
        why = "a straddle is offered only before the deal, and that time is past"
    return f"{board.names[seat]} cannot '{kind}': {why}", "forced_bets.straddles"


def _stake_fault(board: Board, seat: int, total: int, word: str) -> tuple[str, str]:
    name, most = board.names[seat], board.contrib[seat] + board.cave[seat]
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
