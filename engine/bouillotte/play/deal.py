"""One deal as a state machine: forced bets and straddles, the deal, betting, the draw
(where the profile has one: ``table.draw``), settlement.

``Deal`` knows whose turn it is (``to_act``), what is legal (``legal_actions()``), applies
an action (``apply()``) or refuses it with the rule and its citation, and appends an
event to its log at every step. The outcome is derived from that log (``outcome.py``).
Nothing here knows which historical system it plays: every difference is a rule of the
profile.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..rules.cards import Card, card_str, cards_str, pack, rank_of
from ..rules.errors import UserError
from ..rules.variant import Variant
from .actions import Action, LegalAction
from .bonuses import Transfer, brelan_claims, triplet_claims
from .dealing import SetupError, check_setup, deal_from_pack, shuffled_pack
from .hands import POINT_VALUE, classify, triplets
from .outcome import Outcome, outcome_from_events
from .point import Seating
from .pots import build_pots, uncalled_excess
from .showdown import award_pots, hand_values

Event = dict[str, Any]


class IllegalAction(UserError):
    """An action the rules do not allow now: says why, under which rule, and what is legal."""

    def __init__(self, message: str, rule: str, citation: str, legal: Sequence[LegalAction]):
        super().__init__(message)
        self.rule = rule
        self.citation = citation
        self.legal = list(legal)

    def describe(self) -> str:
        legal = ", ".join(str(a) for a in self.legal) or "nothing (the deal is over)"
        return f"{self.message} [rule {self.rule}: {self.citation}] Legal now: {legal}."


class Deal:
    """A deal in progress. Build it with :func:`new_deal`."""

    def __init__(
        self,
        variant: Variant,
        players: Sequence[str],
        dealer: str,
        caves: Mapping[str, int],
        hands: Mapping[str, Sequence[Card]],
        retourne: Card,
        under_retourne: Card | None = None,
        carried_in: int = 0,
        exposed: Card | None = None,
        stifled: Collection[str] = (),
        *,
        shuffled_here: bool = False,
        favori_rank: int | None = None,
        stock: Sequence[Card] = (),
    ) -> None:
        self.variant = variant
        self.rules = rules = variant.rules
        self.names = list(players)
        n = len(self.names)
        check_setup(
            variant,
            self.names,
            dealer,
            caves,
            hands,
            retourne,
            under_retourne,
            exposed,
            cards=not shuffled_here,  # the variant's own pack, shuffled: nothing to check
        )
        self.seat_of = {name: i for i, name in enumerate(self.names)}
        self.dealer = self.seat_of[dealer]
        step = 1 if rules.table.direction == "right" else -1
        self.order = [(self.dealer + step * k) % n for k in range(1, n + 1)]
        self.position = {seat: k for k, seat in enumerate(self.order)}
        self.seating = Seating(self.names, self.order, self.dealer)
        self.hands = [list(hands[name]) for name in self.names]
        self.dealt = [list(hand) for hand in self.hands]
        """The hands as dealt, before any draw (a favori "held from the deal")."""
        self.favori_rank = favori_rank
        """The rank declared favori at the start of play, where the favori is declared."""
        self.retourne = retourne
        # The cards to be bought in a draw: the turned card first, then the stock in order.
        self.stock = [retourne, *stock]
        self.bought = 0
        self.draw_queue: list[int] = []
        self.under_retourne = under_retourne
        self.exposed = exposed
        self.stifled = frozenset(stifled)
        self.carried_in = carried_in
        self.initial_caves = {name: caves[name] for name in self.names}
        self.cave = [caves[name] for name in self.names]
        self.contrib = [0] * n
        self.folded = [False] * n
        self.events: list[Event] = []
        self.phase = "straddle"
        self.straddles = 0
        self.last_straddler: int | None = None
        self.opened = False
        self.bet = 0
        self.aggressor: int | None = None
        self.pending: list[int] = []
        self.privilege_holder: int | None = None
        self.round_holder: int | None = None
        self.standing_blind = 0
        self.word_passed = False
        self.asked: int | None = None
        self.no_more_queue: list[int] = []
        self.to_act_seat: int | None = None
        self.steps = 0
        self._outcome: Outcome | None = None
        self._legal: list[LegalAction] | None = None
        self._post_forced_bets()
        self._legal = None

    # -- the public API ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> str | None:
        return None if self.to_act_seat is None else self.names[self.to_act_seat]

    @property
    def outcome(self) -> Outcome:
        """The settlement, replayed from the event log (once, when first asked for)."""
        if self.phase != "over":
            raise RuntimeError("the deal is not over yet")
        if self._outcome is None:
            self._outcome = outcome_from_events(self.events, self.initial_caves)
        return self._outcome

    def pot_total(self) -> int:
        return sum(self.contrib) + self.carried_in

    def legal_actions(self) -> list[LegalAction]:
        """What the player to act may do now (computed once per step)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[LegalAction]:
        seat = self.to_act_seat
        if seat is None:
            return []
        if self.phase == "straddle":
            legal = [LegalAction("decline")]
            cost = self._straddle_cost(seat)
            if cost <= self.cave[seat]:
                legal.insert(0, LegalAction("straddle", self.contrib[seat] + cost))
            return legal
        if self.phase == "seeing":
            total = self.contrib[seat] + self.cave[seat]
            return [LegalAction("call", min(self.bet, total)), LegalAction("fold")]
        if self.phase == "draw":
            legal = [LegalAction("discard", 0, len(self.hands[seat]))]
            if self._may_buy_a_fourth(seat):
                legal.append(LegalAction("buy"))
            return legal
        stake, total = self.contrib[seat], self.contrib[seat] + self.cave[seat]
        may_go_all_in = self.rules.betting.all_in_may_open_or_raise
        top = total if may_go_all_in else total - 1
        if self.phase == "betting" and not self.opened:
            legal = [LegalAction("pass")]
            low = self._min_open(seat)
            if low <= top:
                legal.append(LegalAction("bet", low, top))
            if may_go_all_in and total >= low:
                legal.append(LegalAction("all-in", total, total))
            legal.append(LegalAction("fold"))
            return legal
        legal = []
        if self.phase == "betting":
            legal.append(LegalAction("call", min(self.bet, total)))
        else:
            legal.append(LegalAction("no-more"))
        low, step = self._least_raise()
        if low <= top:
            legal.append(LegalAction("raise", low, top, step))
        if (total <= self.bet and self.phase == "betting" and stake < total) or (
            may_go_all_in and total >= low
        ):
            legal.append(LegalAction("all-in", total, total))
        legal.append(LegalAction("fold"))
        return legal

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` leaving the deal unchanged."""
        if self.phase == "over":
            raise IllegalAction(
                f"the deal is over ({self.outcome.status}): no action can follow its settlement",
                "-",
                "no rule is at issue: the deal has ended",
                [],
            )
        seat = self.seat_of.get(action.player)
        if seat is None:
            self._illegal(
                f"there is no player {action.player!r} at this table ({', '.join(self.names)})",
                "table.players",
            )
        assert seat is not None
        if seat != self.to_act_seat:
            self._illegal(
                f"it is {self.to_act}'s turn, not {action.player}'s (play passes to the "
                f"{self.rules.table.direction})",
                "table.direction",
            )
        if self.phase == "straddle" and action.kind not in ("straddle", "decline"):
            # The first betting word declines the straddle; undo that if the word is refused.
            saved = self._snapshot()
            try:
                self._decline(seat, explicit=False)
                self._legal = None  # a refusal now lists the betting words, not the straddle
                self._play(seat, action)
            except IllegalAction:
                self.__dict__.update(saved)
                raise
        elif self.phase == "straddle":
            if action.kind == "straddle":
                self._straddle(seat)
            else:
                self._decline(seat, explicit=True)
        elif self.phase == "seeing":
            self._see(seat, action)
        elif self.phase == "draw":
            self._draw(seat, action)
        else:
            self._play(seat, action)
        self.steps += 1
        self._legal = None

    def _play(self, seat: int, action: Action) -> None:
        if self.phase == "over":
            return
        if self.phase == "betting" and not self.opened:
            self._before_opening(seat, action)
        else:
            self._after_opening(seat, action)
        self._advance()

    def _snapshot(self) -> dict[str, Any]:
        saved = dict(self.__dict__)
        for key in ("cave", "contrib", "folded", "events", "pending", "no_more_queue"):
            saved[key] = list(saved[key])
        return saved

    # -- forced bets and straddles ----------------------------------------------------

    def _put(self, seat: int, chips: int) -> None:
        self.cave[seat] -= chips
        self.contrib[seat] += chips

    def _post_forced_bets(self) -> None:
        forced = self.rules.forced_bets
        if self.carried_in:
            self.events.append({"type": "carried-in", "amount": self.carried_in})
        levy_stands = (
            self.carried_in > 0
            and self.rules.void_deals.levy_and_next_blind == "levy-instead-of-blind"
        )
        if levy_stands:
            # The carried levy is this deal's stake: no blind or ante, but straddles and
            # the opening are reckoned as if the blind stood at its usual amount.
            self.standing_blind = forced.dealer_blind
            self.events.append(
                {
                    "type": "no-blind",
                    "player": self.names[self.dealer],
                    "reason": "the carried levy stands for the blind",
                }
            )
        for seat in self.order:
            if levy_stands:
                break
            owed = forced.dealer_blind if seat == self.dealer else forced.others_ante
            chips = min(owed, self.cave[seat])
            if chips:
                self._put(seat, chips)
                kind = "blind" if seat == self.dealer else "ante"
                self.events.append(
                    {"type": kind, "player": self.names[seat], "adds": chips, "total": chips}
                )
        if forced.straddles:
            self._offer_straddle()
        else:
            self._deal_cards()

    def _straddle_limit(self) -> int:
        n = len(self.order)
        return n if self.rules.forced_bets.straddle_limit == "to-the-dealer" else n - 1

    def _straddle_cost(self, seat: int) -> int:
        if self.rules.forced_bets.straddle_amount == "the-whole-pot":
            return self.pot_total()
        return max(2 * self._largest_stake() - self.contrib[seat], 0)

    def _largest_stake(self) -> int:
        """The largest stake on the table (the blind's usual amount where a levy stands
        for it)."""
        return max(max(self.contrib), self.standing_blind)

    def _offer_straddle(self) -> None:
        if self.straddles >= self._straddle_limit():
            self._end_straddling()
            return
        self.phase = "straddle"
        self.to_act_seat = self.order[self.straddles]

    def _straddle(self, seat: int) -> None:
        cost = self._straddle_cost(seat)
        if cost > self.cave[seat]:
            self._illegal(
                f"{self.names[seat]} cannot afford the straddle ({cost} counters; "
                f"{self.cave[seat]} left in the cave)",
                "forced_bets.straddle_amount",
            )
        self._put(seat, cost)
        self.straddles += 1
        self.last_straddler = seat
        self.events.append(
            {
                "type": "straddle",
                "player": self.names[seat],
                "adds": cost,
                "total": self.contrib[seat],
                "pot": self.pot_total(),
            }
        )
        self._offer_straddle()

    def _decline(self, seat: int, explicit: bool) -> None:
        self.events.append(
            {"type": "decline", "player": self.names[seat], "implicit": not explicit}
        )
        if self.rules.forced_bets.straddling_ends_at_first_refusal:
            self._end_straddling()
        else:
            self.straddles += 1
            self._offer_straddle()

    def _end_straddling(self) -> None:
        """Deal, or first have the straddle seen where the rules say so."""
        if self.last_straddler is None or not self.rules.forced_bets.straddle_must_be_seen:
            self._deal_cards()
            return
        self.phase = "seeing"
        self.bet = max(self.contrib)
        start = self.position[self.last_straddler]
        rotated = self.order[start + 1 :] + self.order[:start]
        self.pending = [s for s in rotated if self.contrib[s] < self.bet and self.cave[s] > 0]
        self._advance()

    def _see(self, seat: int, action: Action) -> None:
        """Before the deal, a player sees the straddle (``call``) or drops out (``fold``)."""
        if action.kind == "call":
            self._call(seat, "call")
        elif action.kind == "fold":
            self._fold(seat)
        else:
            self._illegal(
                f"before the deal {self.names[seat]} must see the raise ('call' {self.bet}) "
                "or drop out ('fold')",
                "forced_bets.straddle_must_be_seen",
            )
        self._advance()

    # -- the deal ---------------------------------------------------------------------

    def _deal_cards(self) -> None:
        self.events.append(
            {
                "type": "deal",
                "hands": {self.names[s]: cards_str(self.hands[s]) for s in self.order},
                "retourne": card_str(self.retourne),
            }
        )
        if self.exposed is not None and self.rules.misdeals.exposed_card_is_misdeal:
            self._misdeal()
            return
        first = (
            self.order[0]
            if self.last_straddler is None
            else self.order[(self.position[self.last_straddler] + 1) % len(self.order)]
        )
        self.phase = "betting"
        self.bet = max(self.contrib)
        start = self.position[first]
        rotated = self.order[start:] + self.order[:start]
        self.pending = [s for s in rotated if not self.folded[s] and self.cave[s] > 0]
        self._advance()

    def _misdeal(self) -> None:
        assert self.exposed is not None
        self.events.append({"type": "misdeal", "exposed": card_str(self.exposed)})
        stakes_stay = self.rules.misdeals.stakes_on_a_misdeal == "stay-in-the-pool"
        for seat in self.order:
            if self.contrib[seat] and not stakes_stay:
                self._return(seat, self.contrib[seat], "stakes returned: the hands are abandoned")
        ranks = [triplets(hand) for hand in self.hands]
        self._pay(triplet_claims(ranks, self.order, self.rules))
        self.events.append(
            {
                "type": "redeal",
                "dealer": self.names[self.dealer]
                if self.rules.misdeals.dealer_keeps_deal
                else None,
            }
        )
        self._finish("void", carry=self.pot_total())

    # -- betting ----------------------------------------------------------------------

    def _min_open(self, seat: int) -> int:
        betting, forced = self.rules.betting, self.rules.forced_bets
        largest = self._largest_stake()
        if betting.opening_minimum == "as-much-as-the-pot":
            return max(largest, self.contrib[seat] + max(self.pot_total(), 1))
        if betting.opening_minimum == "equal-the-largest":
            return max(largest, 1)
        fresh = 1
        if betting.opening_minimum == "equal-the-blind":
            fresh = max(forced.dealer_blind, 1)
        return max(largest, self.contrib[seat] + fresh)

    def _check_all_in_permission(self, seat: int, total: int, word: str) -> None:
        if total - self.contrib[seat] == self.cave[seat] and not (
            self.rules.betting.all_in_may_open_or_raise
        ):
            self._illegal(
                f"{self.names[seat]} cannot {word} with his whole cave "
                f"({self.contrib[seat] + self.cave[seat]}): going all in is only a call "
                "under this system",
                "betting.all_in_may_open_or_raise",
            )

    def _check_affordable(self, seat: int, total: int) -> None:
        most = self.contrib[seat] + self.cave[seat]
        if total > most:
            self._illegal(
                f"{self.names[seat]} cannot stake {total}: his cave allows at most {most} "
                "(bets are limited to the cave)",
                "stakes.cave",
            )

    def _record(self, seat: int, word: str, adds: int, **extra: Any) -> None:
        self._put(seat, adds)
        event: Event = {
            "type": "action",
            "player": self.names[seat],
            "action": word,
            "adds": adds,
            "total": self.contrib[seat],
            "pot": self.pot_total(),
        }
        if self.cave[seat] == 0 and adds:
            event["all_in"] = True
        event.update(extra)
        self.events.append(event)

    def _open(self, seat: int, total: int, word: str) -> None:
        low = self._min_open(seat)
        if total < low:
            self._illegal(
                f"{self.names[seat]} cannot open for {total}: the least opening is {low}",
                "betting.opening_minimum",
            )
        self._check_affordable(seat, total)
        self._check_all_in_permission(seat, total, "open")
        self._record(seat, word, total - self.contrib[seat])
        self.opened = True
        self.bet = total
        self.aggressor = seat
        self.privilege_holder = seat
        self._everyone_else_to_act(seat)

    def _least_raise(self) -> tuple[int, int | None]:
        """The least total a raise may reach, and the step between allowed totals."""
        low = self.bet + self.rules.betting.minimum_raise
        if self.rules.betting.raises == "multiples-of-the-bet" and self.bet > 0:
            return max(low, 2 * self.bet), self.bet
        return low, None

    def _raise(self, seat: int, total: int, word: str) -> None:
        low, step = self._least_raise()
        if total < low:
            self._illegal(
                f"{self.names[seat]} cannot raise to {total}: the bet is {self.bet} and a raise "
                f"must reach at least {low}",
                "betting.minimum_raise",
            )
        if step and total % step and total != self.contrib[seat] + self.cave[seat]:
            self._illegal(
                f"{self.names[seat]} cannot raise to {total}: a raise doubles, quadruples or "
                f"otherwise multiplies the bet of {self.bet} (to {2 * step}, {3 * step}, ...)",
                "betting.raises",
            )
        self._check_affordable(seat, total)
        self._check_all_in_permission(seat, total, "raise")
        if self.phase == "privilege" and seat == self.asked:
            took_over = (
                self.word_passed
                and self.rules.betting.privilege_after_the_word == "from-the-holder"
                and self.round_holder is not None
            )
            # The privilege moves on from its holder of this round, or from the raiser.
            self.privilege_holder = self._next_active(
                self.round_holder if took_over and self.round_holder is not None else seat
            )
        self._record(seat, word, total - self.contrib[seat])
        self.bet = total
        self.aggressor = seat
        self.phase = "betting"
        self.word_passed = False
        self._everyone_else_to_act(seat)

    def _call(self, seat: int, word: str) -> None:
        adds = min(self.bet - self.contrib[seat], self.cave[seat])
        short = self.contrib[seat] + adds < self.bet
        self._record(seat, word, adds, **({"sight": True} if short else {}))
        self._drop_pending(seat)

    def _fold(self, seat: int) -> None:
        self.folded[seat] = True
        self.events.append({"type": "action", "player": self.names[seat], "action": "fold"})
        self._drop_pending(seat)
        if seat in self.no_more_queue:
            self.no_more_queue.remove(seat)

    def _drop_pending(self, seat: int) -> None:
        if seat in self.pending:
            self.pending.remove(seat)

    def _everyone_else_to_act(self, seat: int) -> None:
        start = self.position[seat]
        rotated = self.order[start + 1 :] + self.order[:start]
        self.pending = [s for s in rotated if not self.folded[s] and self.cave[s] > 0]

    def _before_opening(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "pass":
            if self.rules.betting.pass_before_opening == "folds":
                self._fold(seat)
                return
            self.events.append({"type": "action", "player": self.names[seat], "action": "pass"})
            self._drop_pending(seat)
        elif kind == "fold":
            self._fold(seat)
        elif kind == "bet":
            assert action.amount is not None
            self._open(seat, action.amount, "bet")
        elif kind == "all-in":
            self._open(seat, self.contrib[seat] + self.cave[seat], "all-in")
        elif kind in ("straddle", "decline"):
            self._straddle_word_out_of_place(seat, kind)
        else:
            self._illegal(
                f"nobody has opened yet, so {self.names[seat]} cannot '{kind}': "
                "pass, open with 'bet N', or fold",
                "betting.pass_before_opening",
            )

    def _after_opening(self, seat: int, action: Action) -> None:
        kind = action.kind
        closing = self.phase in ("privilege", "no-more")
        if kind == "fold":
            self._fold(seat)
            if closing:
                self._closing_step(seat, folded=True)
        elif kind == "raise":
            assert action.amount is not None
            self._raise(seat, action.amount, "raise")
        elif kind == "all-in":
            total = self.contrib[seat] + self.cave[seat]
            if total > self.bet:
                self._raise(seat, total, "all-in")
            elif closing:
                self._illegal(
                    f"{self.names[seat]} has met the bet; 'all-in' would add nothing",
                    "betting.closing",
                )
            else:
                self._call(seat, "all-in")
        elif kind == "call" and not closing:
            self._call(seat, "call")
        elif kind == "no-more" and closing:
            self.events.append({"type": "action", "player": self.names[seat], "action": "no-more"})
            self._closing_step(seat, folded=False)
        elif kind == "pass":
            self._illegal(
                f"the game is open: {self.names[seat]} cannot pass now, only call, raise or "
                "fold (withdraw from the pool)",
                "betting.pass_before_opening",
            )
        elif kind == "bet":
            self._illegal(
                f"the game is already open at {self.bet}: raise to a total with 'raise N'",
                "betting.opening_minimum",
            )
        elif kind == "call":
            self._illegal(
                f"{self.names[seat]} has already met the bet: say 'no-more' or raise",
                "betting.closing",
            )
        elif kind == "no-more":
            self._illegal(
                f"'no-more' is said only when everyone has met the bet; {self.names[seat]} "
                f"must call {self.bet}, raise or fold",
                "betting.closing",
            )
        else:
            self._straddle_word_out_of_place(seat, kind)

    def _straddle_word_out_of_place(self, seat: int, kind: str) -> None:
        if not self.rules.forced_bets.straddles:
            why = "this system has no straddles"
        else:
            why = "a straddle is offered only before the deal, and that time is past"
        self._illegal(f"{self.names[seat]} cannot '{kind}': {why}", "forced_bets.straddles")

    # -- closing the betting ----------------------------------------------------------

    def _contenders(self) -> list[int]:
        return [s for s in self.order if not self.folded[s]]

    def _active(self) -> list[int]:
        return [s for s in self.order if not self.folded[s] and self.cave[s] > 0]

    def _next_active(self, seat: int) -> int:
        n = len(self.order)
        start = self.position[seat]
        for k in range(1, n + 1):
            other = self.order[(start + k) % n]
            if not self.folded[other] and self.cave[other] > 0:
                return other
        return seat

    def _closing_step(self, seat: int, folded: bool) -> None:
        """A player in the closing round said no more (or folded)."""
        if self.phase == "no-more":
            if seat in self.no_more_queue:
                self.no_more_queue.remove(seat)
            return
        # Foster's calling privilege: the word passes to the right; a second refusal calls.
        if self.word_passed and not folded:
            self.asked = None
            return
        self.word_passed = True
        self.asked = self._next_active(seat)

    def _advance(self) -> None:
        if self.phase == "over":
            return
        contenders = self._contenders()
        if len(contenders) == 1:
            if self.phase == "seeing":  # the straddle is a stake: the pool goes whole
                self._uncontested(contenders[0], "nobody saw the raise", bets_made=False)
            else:
                self._uncontested(contenders[0], "every other player has withdrawn")
            return
        if self.phase == "seeing":
            if self.pending:
                self.to_act_seat = self.pending[0]
            else:
                self._deal_cards()
            return
        if self.phase == "betting":
            if self.pending:
                self.to_act_seat = self.pending[0]
                return
            if not self.opened:
                self._nobody_opens()
                return
            self._round_complete()
            return
        if self.phase == "privilege":
            if self.asked is None or len(self._active()) <= 1:
                self._end_of_betting()
            else:
                self.to_act_seat = self.asked
            return
        if self.phase == "no-more":
            if not self.no_more_queue:
                self._end_of_betting()
            else:
                self.to_act_seat = self.no_more_queue[0]

    def _round_complete(self) -> None:
        betting = self.rules.betting
        contenders, active = self._contenders(), self._active()
        betting_against = (
            len(contenders) if betting.two_players_betting == "two-still-in" else len(active)
        )
        if (
            len(active) <= 1
            or (betting_against == 2 and betting.two_players_call_ends)
            or betting.closing == "single-round"
        ):
            self._end_of_betting()
        elif betting.closing == "calling-privilege":
            holder = self.privilege_holder
            assert holder is not None
            if self.folded[holder] or self.cave[holder] == 0:
                holder = self._next_active(holder)
            self.phase = "privilege"
            self.word_passed = False
            self.asked = holder
            self.round_holder = holder
            self.events.append({"type": "privilege", "player": self.names[holder], "bet": self.bet})
            self.to_act_seat = holder
        else:
            assert self.aggressor is not None
            start = self.position[self.aggressor]
            rotated = self.order[start + 1 :] + self.order[:start]
            self.no_more_queue = [s for s in rotated if s in active]
            self.phase = "no-more"
            if not self.no_more_queue:
                self._end_of_betting()
            else:
                self.to_act_seat = self.no_more_queue[0]

    # -- settlement -------------------------------------------------------------------

    def _return(self, seat: int, chips: int, reason: str) -> None:
        self.contrib[seat] -= chips
        self.cave[seat] += chips
        self.events.append(
            {"type": "return", "player": self.names[seat], "amount": chips, "reason": reason}
        )

    def _return_uncalled(self) -> None:
        if not self.rules.betting.return_uncalled_excess:
            return
        seat, excess = uncalled_excess(self.contrib)
        if excess:
            self._return(seat, excess, "uncalled excess withdrawn")

    def _pay(self, transfers: Sequence[Transfer]) -> None:
        ledger = self.rules.bonuses.paid_from == "ledger"
        for t in transfers:
            amount = t.amount if ledger else min(t.amount, self.cave[t.payer])
            event: Event = {
                "type": "bonus",
                "from": self.names[t.payer],
                "to": self.names[t.payee],
                "amount": amount,
                "reason": t.reason,
                "ledger": ledger,
            }
            if amount < t.amount:
                event["unpaid"] = t.amount - amount
            if not ledger:
                self.cave[t.payer] -= amount
                self.cave[t.payee] += amount
            if amount or not ledger:
                self.events.append(event)

    def _award(self, seat: int, amount: int, contenders: Sequence[int], reason: str) -> None:
        self.cave[seat] += amount
        self.events.append(
            {
                "type": "pot",
                "amount": amount,
                "contenders": [self.names[s] for s in contenders],
                "winner": self.names[seat],
                "reason": reason,
            }
        )

    # -- the draw -------------------------------------------------------------------

    def _end_of_betting(self) -> None:
        """The betting is over: the draw, where the rules have one, then the showdown."""
        if self.rules.table.draw == "discard-and-buy" and self.phase != "draw":
            self.phase = "draw"
            self.draw_queue = self._contenders()
            self.events.append({"type": "draw-begins", "to_buy_first": card_str(self.retourne)})
            self.to_act_seat = self.draw_queue[0]
            return
        self._showdown()

    def _may_buy_a_fourth(self, seat: int) -> bool:
        ranks = [rank_of(c) for c in self.hands[seat]]
        return any(ranks.count(r) >= 3 for r in set(ranks))

    def _draw(self, seat: int, action: Action) -> None:
        """Throw away cards and buy as many (``discard``), or buy a fourth (``buy``)."""
        hand = self.hands[seat]
        name = self.names[seat]
        if action.kind == "discard":
            thrown = list(action.cards)
            for card in thrown:
                if card not in hand:
                    self._illegal(f"{name} does not hold {card_str(card)}", "table.draw")
            if len(set(thrown)) != len(thrown):
                self._illegal(f"{name} names a card twice", "table.draw")
            wanted = len(thrown)
        elif action.kind == "buy":
            if not self._may_buy_a_fourth(seat):
                self._illegal(
                    f"{name} holds no three equal cards, so cannot buy a fourth", "table.draw"
                )
            thrown, wanted = [], 1
        else:
            self._illegal(
                f"this is the draw: {name} throws cards away and buys as many ('discard' "
                "and the cards, or 'discard' alone to keep his hand)",
                "table.draw",
            )
            return
        if self.bought + wanted > len(self.stock):
            self._illegal(
                f"{name} would buy {wanted} cards, but only {len(self.stock) - self.bought} "
                "are left to buy (give the scenario a longer 'stock:' or a 'deck:')",
                "table.draw",
            )
        bought = self.stock[self.bought : self.bought + wanted]
        self.bought += wanted
        self.hands[seat] = [c for c in hand if c not in thrown] + bought
        self.events.append(
            {
                "type": "draw",
                "player": name,
                "discards": cards_str(thrown),
                "buys": cards_str(bought),
                "hand": cards_str(self.hands[seat]),
            }
        )
        self.draw_queue.remove(seat)
        if self.draw_queue:
            self.to_act_seat = self.draw_queue[0]
        else:
            self._showdown()

    def _showdown(self) -> None:
        self._return_uncalled()
        contenders = self._contenders()
        pots = build_pots(self.contrib, self.folded, self.carried_in)
        values, note = hand_values(
            self.hands,
            self.retourne,
            self.under_retourne,
            contenders,
            self.rules,
            declared=self.favori_rank,
            dealt=self.dealt,
        )
        if note:
            self.events.append(
                {
                    "type": "under-retourne",
                    "card": card_str(self.under_retourne)
                    if self.under_retourne is not None
                    else None,
                    "note": note,
                }
            )
        self.events.append(
            {
                "type": "showdown",
                "hands": {self.names[s]: values[s].describe() for s in contenders},
            }
        )
        awards = award_pots(
            pots, self.hands, self.retourne, values, self.rules, self.seating, shown=contenders
        )
        for award in awards:
            self._award(award.winner, award.pot.amount, award.pot.contenders, award.reason)
        winners = {a.winner for a in awards}
        self._pay(brelan_claims(contenders, values, winners, self.folded, self.order, self.rules))
        self._finish("settled")

    def _uncontested(self, seat: int, reason: str, *, bets_made: bool = True) -> None:
        if bets_made:  # forced stakes that nobody opened against are not "uncalled" bets
            self._return_uncalled()
        self._award(seat, self.pot_total(), [seat], f"uncontested: {reason}")
        # Before the deal (a straddle nobody saw) there is no hand to show.
        if self.rules.bonuses.claimed_without_showdown and self.phase != "seeing":
            # Only the winner shows his hand, so only his can claim, unless he stifles it.
            values = [POINT_VALUE] * len(self.hands)
            values[seat] = classify(
                self.hands[seat],
                self.retourne,
                self.rules.hands,
                declared=self.favori_rank,
                dealt=self.dealt[seat],
            )
            if values[seat].is_brelan and self.names[seat] in self.stifled:
                self.events.append({"type": "stifle", "player": self.names[seat]})
            elif values[seat].is_brelan:
                claims = brelan_claims([seat], values, {seat}, self.folded, self.order, self.rules)
                self._pay(claims)
        self._finish("uncontested")

    def _nobody_opens(self) -> None:
        void = self.rules.void_deals
        rule = (
            void.nobody_opens if self.last_straddler is None else void.nobody_opens_after_straddles
        )
        self.events.append({"type": "nobody-opens"})
        taker = self.last_straddler if self.last_straddler is not None else self.dealer
        if rule == "last-straddler-takes" and not self.folded[taker]:
            self._uncontested(
                taker, "nobody opened; the last to stake takes the pool", bets_made=False
            )
            return
        for seat in self.order:
            levy = min(void.void_levy, self.cave[seat])
            if levy:
                self.cave[seat] -= levy
                self.events.append({"type": "levy", "player": self.names[seat], "amount": levy})
        carry = self.pot_total() + sum(e["amount"] for e in self.events if e["type"] == "levy")
        self._finish("void", carry=carry)

    def _finish(self, status: str, carry: int = 0) -> None:
        self.events.append({"type": "end", "status": status, "carry": carry})
        self.phase = "over"
        self.to_act_seat = None

    def _illegal(self, message: str, rule: str) -> None:
        raise IllegalAction(message, rule, self.variant.cite(rule), self.legal_actions())


def new_deal(
    variant: Variant,
    players: Sequence[str],
    dealer: str,
    caves: Mapping[str, int] | None = None,
    *,
    hands: Mapping[str, Sequence[Card]] | None = None,
    retourne: Card | None = None,
    under_retourne: Card | None = None,
    deck: Sequence[Card] | None = None,
    seed: int | None = None,
    carried_in: int = 0,
    exposed: Card | None = None,
    stifled: Collection[str] = (),
    favori_rank: int | None = None,
    stock: Sequence[Card] | None = None,
) -> Deal:
    """Start a deal from explicit hands, a pack in order (top first), or a seed.

    ``stock`` is the order of the cards to be bought after the turned card, where the rules
    have a draw (by default the rest of the pack given or shuffled)."""
    if caves is None:
        caves = {name: variant.rules.stakes.cave for name in players}
    shuffled_here = hands is None and deck is None and exposed is None
    if hands is None:
        if deck is None:
            if seed is None:
                raise SetupError("give hands and a retourne, a deck, or a seed", "hands")
            deck = shuffled_pack(variant, seed)
        if len(set(deck)) != len(deck):
            raise SetupError("the deck holds a card twice", "deck")
        hands, retourne, dealt_under = deal_from_pack(variant, players, dealer, deck)
        under_retourne = under_retourne if under_retourne is not None else dealt_under
        if stock is None:
            stock = deck[len(players) * variant.rules.table.hand_size + 1 :]
    if retourne is None:
        raise SetupError("no retourne given", "retourne")
    return Deal(
        variant,
        players,
        dealer,
        caves,
        hands,
        retourne,
        under_retourne,
        carried_in=carried_in,
        exposed=exposed,
        stifled=stifled,
        shuffled_here=shuffled_here,
        favori_rank=favori_rank,
        stock=_checked_stock(variant, hands, retourne, stock or ()),
    )


def _checked_stock(
    variant: Variant,
    hands: Mapping[str, Sequence[Card]],
    retourne: Card,
    stock: Sequence[Card],
) -> list[Card]:
    """The stock to buy from: cards of the pack that were not dealt."""
    dealt = {card for hand in hands.values() for card in hand} | {retourne}
    pack_cards = set(pack(variant.rules.table.pack_ranks()))
    seen: set[Card] = set()
    for i, card in enumerate(stock):
        if card in dealt or card in seen:
            raise SetupError(f"{card_str(card)} in the stock is dealt already", "stock", i)
        if card not in pack_cards:
            raise SetupError(f"{card_str(card)} in the stock is not in the pack", "stock", i)
        seen.add(card)
    return list(stock)
