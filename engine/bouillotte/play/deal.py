"""One deal as a state machine: forced bets and straddles, the deal, betting, the draw
(where the profile has one: ``table.draw``), settlement.

``Deal`` knows whose turn it is (``to_act``), what is legal (``legal_actions()``), applies
an action (``apply()``) or refuses it with the rule and its citation, and appends a typed
event (``events.py``) to its log at every step. The outcome is kept as the deal settles,
and equals the replay of its log (``outcome.replay``). Nothing here knows which historical
system it plays: every difference is a rule of the profile.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from functools import lru_cache

from ..rules.cards import Card, card_str, pack, rank_of
from ..rules.errors import UserError
from ..rules.variant import Variant
from .actions import Action, LegalAction
from .bonuses import Transfer, brelan_claims, triplet_claims
from .dealing import SetupError, check_setup, deal_from_pack, shuffled_pack
from .events import (
    Act,
    Ante,
    Blind,
    Bonus,
    CarriedIn,
    Dealt,
    Decision,
    Decline,
    DrawBegins,
    End,
    Event,
    Levy,
    Misdeal,
    NoBlind,
    NobodyOpens,
    PotWon,
    Privilege,
    Redeal,
    Return,
    Showdown,
    Stifle,
    Straddle,
    UnderRetourne,
    WonUncontested,
    once,
)
from .events import Draw as DrawEvent
from .hands import POINT_VALUE, HandValue, classify, triplets
from .outcome import Outcome, PlayerResult, Status
from .point import Seating
from .pots import build_pots, uncalled_excess
from .showdown import award_pots, hand_values

__all__ = ["CLOSING", "Deal", "IllegalAction", "Phase", "SetupError", "new_deal"]


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


# The phases as module names: reading an Enum member off its class costs a lookup each time.
_STRADDLE, _SEEING, _BETTING, _PRIVILEGE, _NO_MORE, _DRAW, _OVER = Phase

CLOSING = frozenset({_PRIVILEGE, _NO_MORE})
"""The closing rounds of the betting, once everyone has met the bet."""

# The words that take no amount, made once (a legal list is made at every step).
_DECLINE, _PASS, _FOLD = LegalAction("decline"), LegalAction("pass"), LegalAction("fold")
_SAY_NO_MORE, _BUY = LegalAction("no-more"), LegalAction("buy")
_AMOUNTED = frozenset({"bet", "raise", "discard", "buy"})
"""Words whose legality depends on more than the word: an amount, or cards."""


class Deal:
    """A deal in progress. Build it with :func:`new_deal`.

    Every action is checked before anything changes: :meth:`legal_actions` lists what the
    player to act may do, and :meth:`apply` refuses whatever that list does not permit, with
    the rule that forbids it. The public history and the counters a player can see are kept
    as the deal goes (``public``, ``came_in``, ``raises``, ``spoken``), so a policy reads
    them without going through the log.
    """

    __slots__ = (
        "_bonuses",
        "_carry",
        "_fresh",
        "_legal",
        "_may_go_all_in",
        "_min_raise",
        "_opening",
        "_outcome",
        "_pots",
        "_raises",
        "_status",
        "aggressor",
        "asked",
        "bet",
        "bought",
        "came_in",
        "carried_in",
        "cave",
        "contrib",
        "dealer",
        "dealt",
        "draw_queue",
        "events",
        "exposed",
        "favori_rank",
        "first_stake",
        "folded",
        "hands",
        "in_by_choice",
        "initial_caves",
        "last_straddler",
        "ledger",
        "live",
        "names",
        "no_more_queue",
        "opened",
        "order",
        "pending",
        "phase",
        "position",
        "privilege_holder",
        "public",
        "raises",
        "retourne",
        "round_holder",
        "rules",
        "seat_of",
        "seating",
        "spoken",
        "standing_blind",
        "steps",
        "stifled",
        "stock",
        "straddles",
        "to_act_seat",
        "under_retourne",
        "variant",
        "word_passed",
    )

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
        table = _table(tuple(self.names), dealer, rules.table.direction == "right")
        self.seat_of, self.dealer, self.order, self.position, self.seating = table
        self.hands = [list(hands[name]) for name in self.names]
        self.dealt = list(self.hands)  # a draw replaces a hand, never changes one
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
        self.live = n
        """How many have not folded."""
        self.ledger = [0] * n
        self.events: list[Event] = []
        self.public: list[Event] = []
        """The events every player witnesses (:data:`events.PUBLIC`), as they happen."""
        self.came_in = [False] * n
        """Who has put chips in by his own word (bet, call, raise, all-in)."""
        self.in_by_choice = 0
        """How many of those are still in."""
        self.raises = [0] * n
        """How often each has bet or raised (or gone all in)."""
        self.spoken = 0
        """How many betting words have been said (forced bets do not count)."""
        self.phase = _STRADDLE
        self.straddles = 0
        self.last_straddler: int | None = None
        self.opened = False
        self.bet = 0
        self.first_stake = 0
        """What the opener added to open the game (Pierer's *Einsatz*, which raises multiply
        under some readings of his raises)."""
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
        self._pots: list[PotWon] = []
        self._bonuses: list[Bonus] = []
        self._status = Status.VOID
        self._carry = 0
        self._outcome: Outcome | None = None
        self._legal: tuple[LegalAction, ...] | None = None
        betting = rules.betting  # read at every step: looked up once
        self._may_go_all_in = betting.all_in_may_open_or_raise
        self._min_raise = betting.minimum_raise
        self._raises = betting.raises
        self._opening = betting.opening_minimum
        self._fresh = (
            max(rules.forced_bets.dealer_blind, 1)
            if betting.opening_minimum == "equal-the-blind"
            else 1
        )
        self._post_forced_bets()

    # -- the public API ---------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def to_act(self) -> str | None:
        return None if self.to_act_seat is None else self.names[self.to_act_seat]

    @property
    def outcome(self) -> Outcome:
        """The settlement, as the deal kept it (made once, when first asked for)."""
        if self.phase is not _OVER:
            raise RuntimeError("the deal is not over yet")
        if self._outcome is None:
            names = self.names
            self._outcome = Outcome(
                self._status,
                tuple(self._pots),
                tuple(self._bonuses),
                self._carry,
                self.carried_in,
                {
                    name: once(PlayerResult, cave, ledger, cave - start + ledger)
                    for name, start, cave, ledger in zip(
                        names, self.initial_caves.values(), self.cave, self.ledger, strict=True
                    )
                },
                tuple(self.events),
            )
        return self._outcome

    def pot_total(self) -> int:
        return sum(self.contrib) + self.carried_in

    def legal_actions(self) -> list[LegalAction]:
        """What the player to act may do now (computed once per step)."""
        return list(self.offered())

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` with the deal unchanged.

        The action is checked first, against the same list :meth:`legal_actions` offers;
        only a permitted action changes anything."""
        if self.phase is _OVER:
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
        if self.phase is _STRADDLE and action.kind not in ("straddle", "decline"):
            # The first betting word declines the straddle, then is played as said.
            after = self._check_after_decline(seat, action)
            self._decline(seat, explicit=False)
            if after is not _OVER:
                self._do(seat, action)
        else:
            self._check(seat, action, self.phase, self.offered())
            self._do(seat, action)
        self.steps += 1
        self._legal = None

    # -- what is legal: one check to offer an action and to refuse it ---------------------

    def offered(self) -> tuple[LegalAction, ...]:
        """:meth:`legal_actions` as the deal keeps it for this step, made once."""
        if self._legal is None:
            seat = self.to_act_seat
            self._legal = (
                () if seat is None else tuple(self._legal_in(seat, self.phase, self.opened))
            )
        return self._legal

    def _legal_in(self, seat: int, phase: Phase, opened: bool) -> list[LegalAction]:
        if phase is _STRADDLE:
            legal = [_DECLINE]
            cost = self._straddle_cost(seat)
            if cost <= self.cave[seat]:
                legal.insert(0, LegalAction("straddle", self.contrib[seat] + cost))
            return legal
        if phase is _SEEING:
            total = self.contrib[seat] + self.cave[seat]
            return [LegalAction("call", min(self.bet, total)), _FOLD]
        if phase is _DRAW:
            legal = [LegalAction("discard", 0, len(self.hands[seat]))]
            if self._may_buy_a_fourth(seat):
                legal.append(_BUY)
            return legal
        stake, total = self.contrib[seat], self.contrib[seat] + self.cave[seat]
        may_go_all_in = self._may_go_all_in
        top = total if may_go_all_in else total - 1
        if phase is _BETTING and not opened:
            legal = [_PASS]
            low = self._min_open(seat)
            if low <= top:
                legal.append(LegalAction("bet", low, self._max_open(seat, top)))
            if may_go_all_in and low <= total <= self._max_open(seat, total):
                legal.append(LegalAction("all-in", total, total))
            legal.append(_FOLD)
            return legal
        legal = []
        if phase is _BETTING:
            legal.append(LegalAction("call", min(self.bet, total)))
        else:
            legal.append(_SAY_NO_MORE)
        low, step = self._least_raise()
        if low <= top:
            legal.append(LegalAction("raise", low, top, step))
        if (total <= self.bet and phase is _BETTING and stake < total) or (
            may_go_all_in and total >= low
        ):
            legal.append(LegalAction("all-in", total, total))
        legal.append(_FOLD)
        return legal

    def _permits(self, legal: LegalAction, seat: int, action: Action) -> bool:
        """Whether ``legal`` (one entry of the list offered) covers ``action``."""
        kind = action.kind
        if legal.kind != kind:
            return False
        if kind in ("bet", "raise"):
            amount = action.amount
            if amount is None or legal.low is None or legal.high is None:
                return False
            if not legal.low <= amount <= legal.high:
                return False
            whole = self.contrib[seat] + self.cave[seat]
            return not legal.step or (amount - legal.low) % legal.step == 0 or amount == whole
        if kind == "discard":
            return self._draw_fault(seat, action) is None
        if kind == "buy":
            return self._draw_fault(seat, action) is None
        return True

    def _check(self, seat: int, action: Action, phase: Phase, legal: Sequence[LegalAction]) -> None:
        kind = action.kind
        plain = kind not in _AMOUNTED
        for offered in legal:
            if offered.kind == kind and (plain or self._permits(offered, seat, action)):
                return
        message, rule = self._refusal(seat, action, phase)
        raise IllegalAction(message, rule, self.variant.cite(rule), list(legal))

    def _check_after_decline(self, seat: int, action: Action) -> Phase:
        """Check a betting word said in place of the straddle's answer, as it will be played
        once the straddle is declined; returns the phase the decline leads to."""
        forced = self.rules.forced_bets
        ends = forced.straddling_ends_at_first_refusal or (
            self.straddles + 1 >= self._straddle_limit()
        )
        name = self.names[seat]
        if not ends:
            self._illegal(
                f"{name} is offered the straddle, and after him the next player: "
                "'straddle' or 'decline' first",
                "forced_bets.straddles",
            )
        if self.last_straddler is not None and forced.straddle_must_be_seen:
            start = self.position[self.last_straddler]
            rotated = self.order[start + 1 :] + self.order[:start]
            bet = max(self.contrib)
            pending = [s for s in rotated if self.contrib[s] < bet and self.cave[s] > 0]
            if not pending or pending[0] != seat:
                self._illegal(
                    f"{name} is offered the straddle: 'straddle' or 'decline' first",
                    "forced_bets.straddles",
                )
            if action.kind not in ("call", "fold"):  # the words of the seeing, at this stake
                total = self.contrib[seat] + self.cave[seat]
                self._illegal_with(
                    f"before the deal {name} must see the raise ('call' {bet}) or drop out "
                    "('fold')",
                    "forced_bets.straddle_must_be_seen",
                    [LegalAction("call", min(bet, total)), _FOLD],
                )
            return _SEEING
        if self.exposed is not None and self.rules.misdeals.exposed_card_is_misdeal:
            return _OVER  # the deal ends at the misdeal: the word has nothing to do
        first = self.order[
            0
            if self.last_straddler is None
            else (self.position[self.last_straddler] + 1) % len(self.order)
        ]
        if first != seat or self.cave[seat] == 0:
            self._illegal(
                f"{name} is offered the straddle, but {self.names[first]} speaks first after "
                "the deal: 'straddle' or 'decline' first",
                "forced_bets.straddles",
            )
        self._check(seat, action, _BETTING, self._legal_in(seat, _BETTING, False))
        return _BETTING

    def _refusal(self, seat: int, action: Action, phase: Phase) -> tuple[str, str]:
        """Why ``action`` is not among the legal ones: the message and the rule."""
        name, kind = self.names[seat], action.kind
        if phase is _STRADDLE:  # only a straddle can be refused here
            return (
                f"{name} cannot afford the straddle ({self._straddle_cost(seat)} counters; "
                f"{self.cave[seat]} left in the cave)",
                "forced_bets.straddle_amount",
            )
        if phase is _SEEING:
            return (
                f"before the deal {name} must see the raise ('call' {self.bet}) or drop out "
                "('fold')",
                "forced_bets.straddle_must_be_seen",
            )
        if phase is _DRAW:
            fault = self._draw_fault(seat, action)
            assert fault is not None
            return fault
        whole = self.contrib[seat] + self.cave[seat]
        if phase is _BETTING and not self.opened:
            if kind in ("bet", "all-in"):
                total = action.amount if kind == "bet" else whole
                assert total is not None
                return self._open_fault(seat, total)
            if kind in ("straddle", "decline"):
                return self._straddle_word_out_of_place(seat, kind)
            return (
                f"nobody has opened yet, so {name} cannot '{kind}': pass, open with 'bet N', "
                "or fold",
                "betting.pass_before_opening",
            )
        closing = phase in CLOSING
        if kind == "raise" or (kind == "all-in" and whole > self.bet):
            total = action.amount if kind == "raise" else whole
            assert total is not None
            return self._raise_fault(seat, total)
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
        return self._straddle_word_out_of_place(seat, kind)

    def _open_fault(self, seat: int, total: int) -> tuple[str, str]:
        low = self._min_open(seat)
        if total < low:
            return (
                f"{self.names[seat]} cannot open for {total}: the least opening is {low}",
                "betting.opening_minimum",
            )
        if self._opening == "exactly-the-pot" and total > low:
            return (
                f"{self.names[seat]} cannot open for {total}: the opening adds exactly as much "
                f"as the pot holds, to {low}; raising comes after",
                "betting.opening_minimum",
            )
        return self._stake_fault(seat, total, "open")

    def _raise_fault(self, seat: int, total: int) -> tuple[str, str]:
        name = self.names[seat]
        low, step = self._least_raise()
        if total < low:
            return (
                f"{name} cannot raise to {total}: the bet is {self.bet} and a raise must reach "
                f"at least {low}",
                "betting.minimum_raise",
            )
        if step and (total - low) % step and total != self.contrib[seat] + self.cave[seat]:
            return (
                f"{name} cannot raise to {total}: {self._raise_grid_words()} (to {low}, "
                f"{low + step}, ...)",
                "betting.raises",
            )
        return self._stake_fault(seat, total, "raise")

    def _stake_fault(self, seat: int, total: int, word: str) -> tuple[str, str]:
        name, most = self.names[seat], self.contrib[seat] + self.cave[seat]
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

    def _straddle_word_out_of_place(self, seat: int, kind: str) -> tuple[str, str]:
        if not self.rules.forced_bets.straddles:
            why = "this system has no straddles"
        else:
            why = "a straddle is offered only before the deal, and that time is past"
        return f"{self.names[seat]} cannot '{kind}': {why}", "forced_bets.straddles"

    def _draw_fault(self, seat: int, action: Action) -> tuple[str, str] | None:
        """What is wrong with a word said in the draw, or ``None``."""
        name, hand = self.names[seat], self.hands[seat]
        if action.kind == "discard":
            for card in action.cards:
                if card not in hand:
                    return f"{name} does not hold {card_str(card)}", "table.draw"
            if len(set(action.cards)) != len(action.cards):
                return f"{name} names a card twice", "table.draw"
            wanted = len(action.cards)
        elif action.kind == "buy":
            if not self._may_buy_a_fourth(seat):
                return f"{name} holds no three equal cards, so cannot buy a fourth", "table.draw"
            wanted = 1
        else:
            return (
                f"this is the draw: {name} throws cards away and buys as many ('discard' and "
                "the cards, or 'discard' alone to keep his hand)",
                "table.draw",
            )
        if self.bought + wanted > len(self.stock):
            return (
                f"{name} would buy {wanted} cards, but only {len(self.stock) - self.bought} are "
                "left to buy (give the scenario a longer 'stock:' or a 'deck:')",
                "table.draw",
            )
        return None

    # -- playing a permitted action -------------------------------------------------------

    def _do(self, seat: int, action: Action) -> None:
        """Play ``action``, already checked."""
        phase, kind = self.phase, action.kind
        if phase is _STRADDLE:
            if kind == "straddle":
                self._straddle(seat)
            else:
                self._decline(seat, explicit=True)
            return
        if phase is _DRAW:
            self._draw(seat, action)
            return
        if phase is _SEEING:
            if kind == "call":
                self._call(seat, "call")
            else:
                self._fold(seat)
        elif phase is _BETTING and not self.opened:
            self._before_opening(seat, action)
        else:
            self._after_opening(seat, action)
        self._advance()

    def _before_opening(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind == "pass":
            if self.rules.betting.pass_before_opening == "folds":
                self._fold(seat)
                return
            self._say(seat, "pass")
            self._drop_pending(seat)
        elif kind == "fold":
            self._fold(seat)
        elif kind == "bet":
            assert action.amount is not None
            self._open(seat, action.amount, "bet")
        else:  # all-in
            self._open(seat, self.contrib[seat] + self.cave[seat], "all-in")

    def _after_opening(self, seat: int, action: Action) -> None:
        kind = action.kind
        closing = self.phase in CLOSING
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
            else:
                self._call(seat, "all-in")
        elif kind == "call":
            self._call(seat, "call")
        else:  # no-more
            self._say(seat, "no-more")
            self._closing_step(seat, folded=False)

    # -- the log ----------------------------------------------------------------------

    def _log(self, event: Event) -> None:
        self.events.append(event)

    def _witness(self, event: Event) -> None:
        """Log an event every player sees."""
        self.events.append(event)
        self.public.append(event)

    def _say(self, seat: int, word: str) -> None:
        """A betting word that puts in nothing (pass, fold, no-more)."""
        self.spoken += 1
        self._witness(once(Act, self.names[seat], word))

    # -- forced bets and straddles ----------------------------------------------------

    def _put(self, seat: int, chips: int) -> None:
        self.cave[seat] -= chips
        self.contrib[seat] += chips

    def _post_forced_bets(self) -> None:
        forced = self.rules.forced_bets
        if self.carried_in:
            self._witness(once(CarriedIn, self.carried_in))
        levy_stands = (
            self.carried_in > 0
            and self.rules.void_deals.levy_and_next_blind == "levy-instead-of-blind"
        )
        if levy_stands:
            # The carried levy is this deal's stake: no blind or ante, but straddles and
            # the opening are reckoned as if the blind stood at its usual amount.
            self.standing_blind = forced.dealer_blind
            self._log(NoBlind(self.names[self.dealer], "the carried levy stands for the blind"))
        else:
            for seat in self.order:
                owed = forced.dealer_blind if seat == self.dealer else forced.others_ante
                chips = min(owed, self.cave[seat])
                if chips:
                    self._put(seat, chips)
                    name = self.names[seat]
                    if seat == self.dealer:
                        self._witness(once(Blind, name, chips, chips))
                    else:
                        self._witness(once(Ante, name, chips, chips))
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
        largest = max(self.contrib)
        return largest if largest > self.standing_blind else self.standing_blind

    def _offer_straddle(self) -> None:
        if self.straddles >= self._straddle_limit():
            self._end_straddling()
            return
        self.phase = _STRADDLE
        self.to_act_seat = self.order[self.straddles]

    def _straddle(self, seat: int) -> None:
        cost = self._straddle_cost(seat)
        self._put(seat, cost)
        self.straddles += 1
        self.last_straddler = seat
        self._witness(once(Straddle, self.names[seat], cost, self.contrib[seat], self.pot_total()))
        self._offer_straddle()

    def _decline(self, seat: int, explicit: bool) -> None:
        self._witness(once(Decline, self.names[seat], not explicit))
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
        self.phase = _SEEING
        self.bet = max(self.contrib)
        start = self.position[self.last_straddler]
        rotated = self.order[start + 1 :] + self.order[:start]
        self.pending = [s for s in rotated if self.contrib[s] < self.bet and self.cave[s] > 0]
        self._advance()

    # -- the deal ---------------------------------------------------------------------

    def _deal_cards(self) -> None:
        names, hands = self.names, self.hands
        self._log(Dealt(tuple([(names[s], tuple(hands[s])) for s in self.order]), self.retourne))
        if self.exposed is not None and self.rules.misdeals.exposed_card_is_misdeal:
            self._misdeal()
            return
        first = (
            self.order[0]
            if self.last_straddler is None
            else self.order[(self.position[self.last_straddler] + 1) % len(self.order)]
        )
        self.phase = _BETTING
        self.bet = max(self.contrib)
        start = self.position[first]
        rotated = self.order[start:] + self.order[:start]
        self.pending = [s for s in rotated if not self.folded[s] and self.cave[s] > 0]
        self._advance()

    def _misdeal(self) -> None:
        assert self.exposed is not None
        self._log(Misdeal(self.exposed))
        stakes_stay = self.rules.misdeals.stakes_on_a_misdeal == "stay-in-the-pool"
        for seat in self.order:
            if self.contrib[seat] and not stakes_stay:
                self._return(seat, self.contrib[seat], "stakes returned: the hands are abandoned")
        ranks = [triplets(hand) for hand in self.hands]
        self._pay(triplet_claims(ranks, self.order, self.rules))
        keeps = self.rules.misdeals.dealer_keeps_deal
        self._log(Redeal(self.names[self.dealer] if keeps else None))
        self._finish(Status.VOID, carry=self.pot_total())

    # -- betting ----------------------------------------------------------------------

    def _min_open(self, seat: int) -> int:
        largest = self._largest_stake()
        if self._opening in ("as-much-as-the-pot", "exactly-the-pot"):
            return max(largest, self.contrib[seat] + max(self.pot_total(), 1))
        if self._opening == "equal-the-largest":
            return max(largest, 1)
        least = self.contrib[seat] + self._fresh  # a counter, or the blind (equal-the-blind)
        return largest if largest > least else least

    def _max_open(self, seat: int, top: int) -> int:
        """The most an opening may be, given ``top``, the most the cave allows."""
        return self._min_open(seat) if self._opening == "exactly-the-pot" else top

    def _record(self, seat: int, word: str, adds: int, *, sight: bool = False) -> None:
        """A betting word that puts chips in (bet, call, raise, all-in)."""
        self._put(seat, adds)
        self.spoken += 1
        if not self.came_in[seat]:
            self.came_in[seat] = True
            self.in_by_choice += 1
        if word != "call":
            self.raises[seat] += 1
        all_in = self.cave[seat] == 0 and adds > 0
        total = self.contrib[seat]
        self._witness(
            once(Act, self.names[seat], word, adds, total, self.pot_total(), all_in, sight)
        )

    def _open(self, seat: int, total: int, word: str) -> None:
        self.first_stake = total - self.contrib[seat]
        self._record(seat, word, total - self.contrib[seat])
        self.opened = True
        self.bet = total
        self.aggressor = seat
        self.privilege_holder = seat
        self._everyone_else_to_act(seat)

    def _least_raise(self) -> tuple[int, int | None]:
        """The least total a raise may reach, and the step between allowed totals (each
        allowed total is the least one and a whole number of steps above it)."""
        bet, raises = self.bet, self._raises
        low = bet + self._min_raise
        if raises == "by-any-amount" or bet <= 0:
            return low, None
        if raises == "multiples-of-the-bet":  # make it 2, 3, ... times the bet
            return _first_multiple(max(low, 2 * bet), bet), bet
        unit = self.first_stake if self.first_stake > 0 else bet
        if raises == "multiples-of-the-first-stake":  # make it 2, 3, ... times the stake
            return _first_multiple(max(low, 2 * unit), unit), unit
        if raises == "adds-multiples-of-the-first-stake":  # add 2, 3, ... times the stake
            return bet + max(2 * unit, _first_multiple(self._min_raise, unit)), unit
        # adds-multiples-of-the-bet: add 2, 3, ... times the bet
        return bet + max(2 * bet, _first_multiple(self._min_raise, bet)), bet

    def _raise_grid_words(self) -> str:
        """What the allowed totals of a raise are, in words (for a refusal)."""
        raises, bet = self._raises, self.bet
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

    def _raise(self, seat: int, total: int, word: str) -> None:
        if self.phase is _PRIVILEGE and seat == self.asked:
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
        self.phase = _BETTING
        self.word_passed = False
        self._everyone_else_to_act(seat)

    def _call(self, seat: int, word: str) -> None:
        adds = min(self.bet - self.contrib[seat], self.cave[seat])
        self._record(seat, word, adds, sight=self.contrib[seat] + adds < self.bet)
        self._drop_pending(seat)

    def _fold(self, seat: int) -> None:
        self.folded[seat] = True
        self.live -= 1
        if self.came_in[seat]:
            self.in_by_choice -= 1
        self._say(seat, "fold")
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
        if self.phase is _NO_MORE:
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
        phase = self.phase
        if phase is _OVER:
            return
        if self.live == 1:
            last = self.folded.index(False)
            if phase is _SEEING:  # the straddle is a stake: the pool goes whole
                self._uncontested(last, "nobody saw the raise", bets_made=False)
            else:
                self._uncontested(last, "every other player has withdrawn")
            return
        if phase is _SEEING:
            if self.pending:
                self.to_act_seat = self.pending[0]
            else:
                self._deal_cards()
        elif phase is _BETTING:
            if self.pending:
                self.to_act_seat = self.pending[0]
            elif not self.opened:
                self._nobody_opens()
            else:
                self._round_complete()
        elif phase is _PRIVILEGE:
            if self.asked is None or len(self._active()) <= 1:
                self._end_of_betting()
            else:
                self.to_act_seat = self.asked
        elif phase is _NO_MORE:
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
            self.phase = _PRIVILEGE
            self.word_passed = False
            self.asked = holder
            self.round_holder = holder
            self._witness(once(Privilege, self.names[holder], self.bet))
            self.to_act_seat = holder
        else:
            assert self.aggressor is not None
            start = self.position[self.aggressor]
            rotated = self.order[start + 1 :] + self.order[:start]
            self.no_more_queue = [s for s in rotated if s in active]
            self.phase = _NO_MORE
            if not self.no_more_queue:
                self._end_of_betting()
            else:
                self.to_act_seat = self.no_more_queue[0]

    # -- settlement -------------------------------------------------------------------

    def _return(self, seat: int, chips: int, reason: str) -> None:
        self.contrib[seat] -= chips
        self.cave[seat] += chips
        self._log(once(Return, self.names[seat], chips, reason))

    def _return_uncalled(self) -> None:
        if not self.rules.betting.return_uncalled_excess:
            return
        seat, excess = uncalled_excess(self.contrib)
        if excess:
            self._return(seat, excess, "uncalled excess withdrawn")

    def _pay(self, transfers: Sequence[Transfer]) -> None:
        ledger = self.rules.bonuses.paid_from == "ledger"
        book = self.ledger if ledger else self.cave
        for t in transfers:
            amount = t.amount if ledger else min(t.amount, self.cave[t.payer])
            book[t.payer] -= amount
            book[t.payee] += amount
            if amount or not ledger:
                bonus = once(
                    Bonus,
                    self.names[t.payer],
                    self.names[t.payee],
                    amount,
                    t.reason,
                    ledger,
                    t.amount - amount,
                )
                self._bonuses.append(bonus)
                self._log(bonus)

    def _award(
        self,
        seat: int,
        amount: int,
        contenders: Sequence[int],
        reason: str,
        decision: Decision,
        value: HandValue | None = None,
    ) -> None:
        self.cave[seat] += amount
        names = self.names
        pot = PotWon(
            amount, tuple([names[s] for s in contenders]), names[seat], reason, decision, value
        )
        self._pots.append(pot)
        self._log(pot)

    # -- the draw -------------------------------------------------------------------

    def _end_of_betting(self) -> None:
        """The betting is over: the draw, where the rules have one, then the showdown."""
        if self.rules.table.draw == "discard-and-buy" and self.phase is not _DRAW:
            self.phase = _DRAW
            self.draw_queue = self._contenders()
            self._log(DrawBegins(self.retourne))
            self.to_act_seat = self.draw_queue[0]
            return
        self._showdown()

    def _may_buy_a_fourth(self, seat: int) -> bool:
        ranks = [rank_of(c) for c in self.hands[seat]]
        return any(ranks.count(r) >= 3 for r in set(ranks))

    def _draw(self, seat: int, action: Action) -> None:
        """Throw away cards and buy as many (``discard``), or buy a fourth (``buy``)."""
        hand = self.hands[seat]
        thrown = action.cards if action.kind == "discard" else ()
        wanted = len(thrown) if action.kind == "discard" else 1
        bought = self.stock[self.bought : self.bought + wanted]
        self.bought += wanted
        self.hands[seat] = [c for c in hand if c not in thrown] + bought
        self._log(
            DrawEvent(self.names[seat], tuple(thrown), tuple(bought), tuple(self.hands[seat]))
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
            self._log(UnderRetourne(self.under_retourne, note))
        names = self.names
        self._log(Showdown(tuple([(names[s], values[s]) for s in contenders])))
        awards = award_pots(
            pots, self.hands, self.retourne, values, self.rules, self.seating, shown=contenders
        )
        for award in awards:
            self._award(
                award.winner,
                award.pot.amount,
                award.pot.contenders,
                award.reason,
                award.decision,
                values[award.winner],
            )
        winners = {a.winner for a in awards}
        self._pay(brelan_claims(contenders, values, winners, self.folded, self.order, self.rules))
        self._finish(Status.SETTLED)

    def _uncontested(self, seat: int, reason: str, *, bets_made: bool = True) -> None:
        if bets_made:  # forced stakes that nobody opened against are not "uncalled" bets
            self._return_uncalled()
        self._award(
            seat, self.pot_total(), [seat], f"uncontested: {reason}", WonUncontested(reason)
        )
        # Before the deal (a straddle nobody saw) there is no hand to show.
        if self.rules.bonuses.claimed_without_showdown and self.phase is not _SEEING:
            # Only the winner shows his hand, so only his can claim, unless he stifles it.
            value = classify(
                self.hands[seat],
                self.retourne,
                self.rules.hands,
                declared=self.favori_rank,
                dealt=self.dealt[seat],
            )
            if value.is_brelan and self.names[seat] in self.stifled:
                self._log(Stifle(self.names[seat]))
            elif value.is_brelan:
                values = [POINT_VALUE] * len(self.hands)
                values[seat] = value
                claims = brelan_claims([seat], values, {seat}, self.folded, self.order, self.rules)
                self._pay(claims)
        self._finish(Status.UNCONTESTED)

    def _nobody_opens(self) -> None:
        void = self.rules.void_deals
        rule = (
            void.nobody_opens if self.last_straddler is None else void.nobody_opens_after_straddles
        )
        self._log(once(NobodyOpens))
        taker = self.last_straddler if self.last_straddler is not None else self.dealer
        if rule == "last-straddler-takes" and not self.folded[taker]:
            self._uncontested(
                taker, "nobody opened; the last to stake takes the pool", bets_made=False
            )
            return
        levied = 0
        for seat in self.order:
            levy = min(void.void_levy, self.cave[seat])
            if levy:
                self.cave[seat] -= levy
                levied += levy
                self._log(once(Levy, self.names[seat], levy))
        self._finish(Status.VOID, carry=self.pot_total() + levied)

    def _finish(self, status: Status, carry: int = 0) -> None:
        self._status, self._carry = status, carry
        self._log(once(End, status, carry))
        self.phase = _OVER
        self.to_act_seat = None

    def _illegal(self, message: str, rule: str) -> None:
        self._illegal_with(message, rule, self.legal_actions())

    def _illegal_with(self, message: str, rule: str, legal: list[LegalAction]) -> None:
        raise IllegalAction(message, rule, self.variant.cite(rule), legal)


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
    own_stock = False
    if hands is None:
        if deck is None:
            if seed is None:
                raise SetupError("give hands and a retourne, a deck, or a seed", "hands")
            deck = shuffled_pack(variant, seed)  # the variant's own pack: no card twice
        elif len(set(deck)) != len(deck):
            raise SetupError("the deck holds a card twice", "deck")
        hands, retourne, dealt_under = deal_from_pack(variant, players, dealer, deck)
        under_retourne = under_retourne if under_retourne is not None else dealt_under
        if stock is None:
            stock = deck[len(players) * variant.rules.table.hand_size + 1 :]
            # the rest of the variant's own pack, shuffled here: nothing to check
            own_stock = shuffled_here
    if retourne is None:
        raise SetupError("no retourne given", "retourne")
    if stock is None or not own_stock:
        stock = _checked_stock(variant, hands, retourne, stock or ())
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
        stock=stock,
    )


@lru_cache(maxsize=256)
def _first_multiple(least: int, unit: int) -> int:
    """The smallest whole multiple of ``unit`` that is at least ``least``."""
    return -(-least // unit) * unit


def _table(
    names: tuple[str, ...], dealer: str, to_the_right: bool
) -> tuple[dict[str, int], int, list[int], dict[int, int], Seating]:
    """Each name's seat, the dealer's seat, the seats in speaking order (the dealer last),
    each seat's place in that order, and the seating for ties: shared by every deal at
    that table, and never changed."""
    seat_of = {name: i for i, name in enumerate(names)}
    n, first = len(names), seat_of[dealer]
    step = 1 if to_the_right else -1
    order = [(first + step * k) % n for k in range(1, n + 1)]
    position = {seat: k for k, seat in enumerate(order)}
    return seat_of, first, order, position, Seating(list(names), order, first)


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
