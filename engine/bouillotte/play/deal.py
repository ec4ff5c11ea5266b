"""One deal as a state machine: forced bets and straddles, the deal, betting, the draw
(where the profile has one: ``table.draw``), settlement.

``Deal`` knows whose turn it is (``to_act``), what is legal (``legal_actions()``), applies
an action (``apply()``) or refuses it with the rule and its citation, and appends a typed
event (``events.py``) to its log at every step. The outcome is kept as the deal settles,
and equals the replay of its log (``outcome.replay``). Nothing here knows which historical
system it plays: every difference is a rule of the profile.

A deal is a :class:`~bouillotte.play.board.Board` (seats, caves, stakes, hands, the log)
with one stage on it (``phases.py``), what holds in one phase only: the straddles
(``straddles.py``), the seeing of a straddle (``seeing.py``), the betting and its closing
round (``betting.py``, ``closing.py``), the draw (``draw.py``), the settlement
(``settlement.py``). A stage plays a word on the board and says how its phase went on or
ended (:class:`~bouillotte.play.phases.Exit`); :meth:`Deal._follow`, the phase graph, makes
the stage that follows, and :meth:`Deal._move_on` is the one place the stage changes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NoReturn

from ..rules.cards import Card
from ..rules.profile import ForcedBets
from ..rules.variant import Variant
from .actions import Action, LegalAction
from .betting import open_betting
from .board import Board, IllegalAction
from .closing import CallingPrivilege
from .dealing import (
    SetupError,
    check_deck,
    check_setup,
    checked_stock,
    deal_from_pack,
    shuffled_pack,
)
from .draw import begin_draw
from .events import Ante, Blind, CarriedIn, NoBlind, once
from .outcome import Outcome, PlayerResult
from .phases import (
    BETTING_CLOSED,
    CLOSING,
    DRAWN,
    GOES_ON,
    NOBODY_OPENED,
    ONE_LEFT,
    OVER,
    SEEING,
    STAKED,
    STRADDLES_OVER,
    Exit,
    Phase,
    Stage,
)
from .seeing import begin_seeing
from .settlement import Over, misdeal, nobody_opens, showdown, uncontested
from .straddles import Straddling

__all__ = ["CLOSING", "Deal", "IllegalAction", "Phase", "SetupError", "new_deal"]


class Deal(Board):
    """A deal in progress. Build it with :func:`new_deal`.

    Every action is checked before anything changes: :meth:`legal_actions` lists what the
    player to act may do, and :meth:`apply` refuses whatever that list does not permit, with
    the rule that forbids it. The public history and the counters a player can see are kept
    as the deal goes (``public``, ``came_in``, ``raises``, ``spoken``), so a policy reads
    them without going through the log.

    One whole deal under Foster's rules, from hands given (paste it into ``python``; the
    tests run it). D deals and puts in his blind of 5; A, first to speak, is offered the
    straddle, and a betting word declines it:

    >>> from bouillotte.play.actions import parse_action
    >>> from bouillotte.play.deal import IllegalAction, new_deal
    >>> from bouillotte.play.outcome import replay
    >>> from bouillotte.rules.cards import parse_card, parse_cards
    >>> from bouillotte.rules.profiles import Library
    >>> foster = Library().get("foster")
    >>> hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 8C", "D": "AH KH QH"}
    >>> deal = new_deal(
    ...     foster,
    ...     ["A", "B", "C", "D"],
    ...     "D",
    ...     hands={name: parse_cards(cards.split()) for name, cards in hands.items()},
    ...     retourne=parse_card("AD"),
    ... )
    >>> deal.to_act, [str(legal) for legal in deal.legal_actions()]
    ('A', ['straddle 10', 'decline'])
    >>> deal.apply(parse_action("A bet 10"))
    >>> deal.to_act, [str(legal) for legal in deal.legal_actions()]
    ('B', ['call 10', 'raise 11-100', 'all-in 100', 'fold'])

    An action the rules forbid is refused, with the rule, and changes nothing:

    >>> try:
    ...     deal.apply(parse_action("B pass"))
    ... except IllegalAction as refused:
    ...     print(refused.rule)
    ...     print(refused.message)
    betting.pass_before_opening
    the game is open: B cannot pass now, only call, raise or fold (withdraw from the pool)
    >>> deal.to_act
    'B'
    >>> for word in ["B fold", "C raise 20", "D fold", "A call"]:
    ...     deal.apply(parse_action(word))
    >>> deal.is_over
    True

    C's three eights take the pool (the blind 5, A's 10 and 10 more, C's 20) and a
    counter of bonus for the brelan from each other player:

    >>> outcome = deal.outcome
    >>> [(pot.amount, pot.winner, pot.reason) for pot in outcome.pots]
    [(45, 'C', 'brelan of eights (C)')]
    >>> [(bonus.payer, bonus.payee, bonus.amount) for bonus in outcome.bonuses]
    [('A', 'C', 1), ('B', 'C', 1), ('D', 'C', 1)]
    >>> {name: result.net for name, result in outcome.players.items()}
    {'A': -21, 'B': -1, 'C': 28, 'D': -6}

    The log alone gives the same outcome, and its JSON is ``bouillotte run --json``'s:

    >>> replay(deal.events, deal.initial_caves) == outcome
    True
    >>> import json
    >>> print(json.dumps(outcome.to_json()["events"][-1]))
    {"type": "end", "status": "settled", "carry": 0}
    """

    __slots__ = ("_legal", "_outcome", "stage", "steps")

    stage: Stage
    """What the phase the deal is in keeps (:mod:`phases`): one stage at a time, changed
    only by :meth:`_move_on`."""
    steps: int
    """How many actions have been applied."""
    _outcome: Outcome | None
    _legal: tuple[LegalAction, ...] | None

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
        copy_of: Deal | None = None,
    ) -> None:
        if copy_of is not None:  # :meth:`copy`: the other arguments are not read
            self._take_up_board(variant, copy_of)
            self.steps = copy_of.steps
            self._outcome = copy_of._outcome
            self._legal = copy_of._legal
            self.stage = copy_of.stage.copy(self)
            return
        check_setup(
            variant,
            list(players),
            dealer,
            caves,
            hands,
            retourne,
            under_retourne,
            exposed,
            cards=not shuffled_here,  # the variant's own pack, shuffled: nothing to check
        )
        super().__init__(
            variant,
            players,
            dealer,
            caves,
            hands,
            retourne,
            under_retourne,
            carried_in,
            exposed,
            stifled,
            favori_rank,
            stock,
        )
        self.steps = 0
        self._outcome = None
        self._legal = None
        forced = self.rules.forced_bets
        straddling = Straddling(forced)
        self.stage = straddling
        self._post_forced_bets(forced)
        self._move_on(straddling, straddling.begin(self) if forced.straddles else STAKED)

    def copy(self, variant: Variant) -> Deal:
        """The deal as it stands, to be played on under ``variant``, sharing nothing that
        either changes: both may go on apart. ``variant`` must give the same value as the
        deal's for every rule read so far (what the stage has read is kept); what is read
        from here on is read from it. A sweep takes a row's play of a deal up from a copy
        of the base's, made before the base first read a rule the row changes
        (``study/sweep.py``)."""
        return Deal(variant, (), "", {}, {}, self.retourne, copy_of=self)

    # -- the public API ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.stage.phase

    @property
    def bet(self) -> int:
        """The stake to meet (:attr:`phases.Stage.bet`)."""
        return self.stage.bet

    @property
    def is_over(self) -> bool:
        return self.stage.phase is OVER

    @property
    def to_act(self) -> str | None:
        return None if self.to_act_seat is None else self.names[self.to_act_seat]

    @property
    def outcome(self) -> Outcome:
        """The settlement, as the deal kept it (made once, when first asked for)."""
        over = self.stage
        if not isinstance(over, Over):
            raise RuntimeError("the deal is not over yet")
        if self._outcome is None:
            starts = list(self.initial_caves.values())  # in seat order, as the caves
            players: dict[str, PlayerResult] = {}
            for seat, name in enumerate(self.names):  # by index: compiled, no zip to call
                cave, ledger = self.cave[seat], self.ledger[seat]
                players[name] = PlayerResult(cave, ledger, cave - starts[seat] + ledger)
            self._outcome = Outcome(
                over.status,
                tuple(self.pots),
                tuple(self.bonuses),
                over.carry,
                self.carried_in,
                players,
                tuple(self.events),
            )
        return self._outcome

    def legal_actions(self) -> list[LegalAction]:
        """What the player to act may do now (computed once per step)."""
        return list(self.offered())

    def offered(self) -> tuple[LegalAction, ...]:
        """:meth:`legal_actions` as the deal keeps it for this step, made once."""
        if self._legal is None:
            seat = self.to_act_seat
            self._legal = () if seat is None else tuple(self.stage.legal(self, seat))
        return self._legal

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` with the deal unchanged.

        The action is checked first, against the same list :meth:`legal_actions` offers;
        only a permitted action changes anything."""
        stage = self.stage
        if isinstance(stage, Over):
            raise IllegalAction(
                f"the deal is over ({stage.status}): no action can follow its settlement",
                "-",
                "no rule is at issue: the deal has ended",
                [],
            )
        seat = self.to_act_seat
        if seat is None or action.player != self.names[seat]:  # not his turn: why not?
            seat = self.seat_of.get(action.player)
        if seat is None:
            self.refuse(
                f"there is no player {action.player!r} at this table ({', '.join(self.names)})",
                "table.players",
            )
        if seat != self.to_act_seat:
            closing = getattr(stage, "closing", None)
            if isinstance(closing, CallingPrivilege) and not closing.word_passed:
                # the holder speaks first, wherever the turn stood: the privilege's rule
                self.refuse(
                    f"it is {self.to_act}'s turn, not {action.player}'s: {self.to_act} holds "
                    "the privilege of raising",
                    "betting.closing",
                )
            self.refuse(
                f"it is {self.to_act}'s turn, not {action.player}'s (play passes to the "
                f"{self.rules.table.direction})",
                "table.direction",
            )
        if isinstance(stage, Straddling) and action.kind not in ("straddle", "decline"):
            # The first betting word declines the straddle, then is played as said.
            stage.check_after_decline(self, seat, action)
            self._move_on(stage, stage.decline(self, seat, explicit=False))
            stage = self.stage
            self._move_on(stage, stage.do(self, seat, action))
        else:
            stage.check(self, seat, action, self.offered())
            self._move_on(stage, stage.do(self, seat, action))
        self.steps += 1
        self._legal = None

    def refuse(self, message: str, rule: str) -> NoReturn:
        """Refuse the word said now under ``rule``, with what is legal now."""
        self.refuse_with(message, rule, self.legal_actions())

    # -- the phase graph ----------------------------------------------------------------

    def _move_on(self, stage: Stage, went: Exit) -> None:
        """The one place the stage changes: to what follows ``stage``, which ``went`` so."""
        self.stage = self._follow(stage, went)

    def _follow(self, stage: Stage, went: Exit) -> Stage:
        """The phase graph: the stage that follows ``stage``, whose last word (or start)
        ``went`` as it says; ``stage`` itself while its phase goes on.

        straddles --> (the straddle seen, where it must be) --> the hands dealt -->
        betting (with its closing round) --> (the draw, where the rules have one) -->
        showdown; and, on the way, a pool won uncontested, nobody opening, a misdeal."""
        if went is GOES_ON:
            return stage
        if went is STRADDLES_OVER:
            last = self.last_straddler
            if last is not None and self.rules.forced_bets.straddle_must_be_seen:
                seeing = begin_seeing(self, last)
                return self._follow(seeing, seeing.advance(self))
            return self._follow(stage, STAKED)
        if went is STAKED:
            self.log_the_hands()
            if self.exposed is not None and self.rules.misdeals.exposed_card_is_misdeal:
                return misdeal(self, stage.bet)
            betting = open_betting(self)
            return self._follow(betting, betting.advance(self))
        if went is ONE_LEFT:
            seat = self.folded.index(False)
            if stage.phase is SEEING:  # the straddle is a stake: the pool goes whole
                reason = "nobody saw the raise"
                return uncontested(
                    self, seat, reason, stage.bet, bets_made=False, hands_dealt=False
                )
            return uncontested(self, seat, "every other player has withdrawn", stage.bet)
        if went is NOBODY_OPENED:
            return nobody_opens(self, stage.bet)
        if went is BETTING_CLOSED:
            if self.rules.table.draw == "discard-and-buy":
                return begin_draw(self, stage.bet)
            return showdown(self, stage.bet)
        assert went is DRAWN
        return showdown(self, stage.bet)

    def _post_forced_bets(self, forced: ForcedBets) -> None:
        if self.carried_in:
            self.witness(once(CarriedIn, self.carried_in))
        levy_stands = (
            self.carried_in > 0
            and self.rules.void_deals.levy_and_next_blind == "levy-instead-of-blind"
        )
        if levy_stands:
            # The carried levy is this deal's stake: no blind or ante, but straddles and
            # the opening are reckoned as if the blind stood at its usual amount.
            self.standing_blind = forced.dealer_blind
            self.events.append(
                NoBlind(self.names[self.dealer], "the carried levy stands for the blind")
            )
        else:
            blind, ante = forced.dealer_blind, forced.others_ante  # each read once a deal
            if self.carried_in > 0:
                # "next dealer adds 1" (the teaching card): on a carried pool the dealer
                # alone stakes, where the rule names a number.
                stake = self.rules.void_deals.carried_pool_stake
                if isinstance(stake, int):
                    blind, ante = stake, 0
            for seat in self.order:
                owed = blind if seat == self.dealer else ante
                chips = min(owed, self.cave[seat])
                if chips:
                    self.put(seat, chips)
                    name = self.names[seat]
                    if seat == self.dealer:
                        self.witness(once(Blind, name, chips, chips))
                    else:
                        self.witness(once(Ante, name, chips, chips))


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
        cave = variant.rules.stakes.cave
        caves = {name: cave for name in players}
    shuffled_here = hands is None and deck is None and exposed is None
    own_stock = False
    if hands is None:
        if deck is None:
            if seed is None:
                raise SetupError("give hands and a retourne, a deck, or a seed", "hands")
            deck = shuffled_pack(variant, seed)  # the variant's own pack: no card twice
        else:
            check_deck(variant, deck)
        hands, retourne, dealt_under = deal_from_pack(variant, players, dealer, deck)
        under_retourne = under_retourne if under_retourne is not None else dealt_under
        if stock is None:
            stock = deck[len(players) * variant.rules.table.hand_size + 1 :]
            # the rest of the variant's own pack, shuffled here: nothing to check
            own_stock = shuffled_here
    if retourne is None:
        raise SetupError("no retourne given", "retourne")
    if stock is None or not own_stock:
        stock = checked_stock(variant, hands, retourne, stock or ())
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
