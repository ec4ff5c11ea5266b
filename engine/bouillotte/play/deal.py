"""One deal as a state machine: forced bets and straddles, the deal, betting, the draw
(where the profile has one: ``table.draw``), settlement.

``Deal`` knows whose turn it is (``to_act``), what is legal (``legal_actions()``), applies
an action (``apply()``) or refuses it with the rule and its citation, and appends a typed
event (``events.py``) to its log at every step. The outcome is kept as the deal settles,
and equals the replay of its log (``outcome.replay``). Nothing here knows which historical
system it plays: every difference is a rule of the profile.

The deal keeps the table (seats, caves, stakes, hands, the log); what holds in one phase
only is its stage's (``phases.py``): the straddles (``straddles.py``), the seeing of a
straddle (``seeing.py``), the betting and its closing round (``betting.py``,
``closing.py``), the draw (``draw.py``), the settlement (``settlement.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Final, NoReturn, TypeAlias

from ..rules.cards import Card
from ..rules.errors import UserError
from ..rules.profile import ForcedBets
from ..rules.variant import Variant
from .actions import Action, LegalAction
from .betting import deal_cards
from .caches import cache, keep
from .dealing import SetupError, check_setup, checked_stock, deal_from_pack, shuffled_pack
from .events import Act, Ante, Blind, Bonus, CarriedIn, Event, NoBlind, PotWon, once
from .outcome import Outcome, PlayerResult
from .phases import CLOSING, OVER, Phase, Stage
from .point import Seating
from .settlement import Over
from .straddles import Straddling, offer_straddles

__all__ = ["CLOSING", "Deal", "IllegalAction", "Phase", "SetupError", "new_deal"]

_AMOUNTED: Final = frozenset({"bet", "raise", "discard", "buy"})
"""Words whose legality depends on more than the word: an amount, or cards."""


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


_NOBODY: Final[frozenset[str]] = frozenset()
"""Nobody stifles (most deals): one empty set for all of them, rather than one made per deal."""


class Deal:
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

    __slots__ = (
        "_after",
        "_legal",
        "_outcome",
        "bonuses",
        "came_in",
        "carried_in",
        "cave",
        "contrib",
        "dealer",
        "dealt",
        "events",
        "exposed",
        "favori_rank",
        "folded",
        "hands",
        "in_by_choice",
        "initial_caves",
        "last_straddler",
        "ledger",
        "live",
        "names",
        "opened",
        "order",
        "position",
        "pots",
        "public",
        "raises",
        "retourne",
        "rules",
        "seat_of",
        "seating",
        "spoken",
        "staked",
        "standing_blind",
        "state",
        "steps",
        "stifled",
        "stock",
        "to_act_seat",
        "top_stake",
        "under_retourne",
        "variant",
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
        copy_of: Deal | None = None,
    ) -> None:
        if copy_of is not None:  # :meth:`copy`: the other arguments are not read
            self._take_up(variant, copy_of)
            return
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
        self.seat_of, self.dealer, self.order, self.position, self.seating, self._after = table
        self.hands = [list(hands[name]) for name in self.names]
        """Each seat's hand as it stands now (a draw replaces it)."""
        self.dealt = tuple([tuple(hand) for hand in self.hands])
        """The hands as dealt, before any draw (a favori "held from the deal"): a copy,
        never changed, whatever is done to ``hands``."""
        self.favori_rank = favori_rank
        """The rank declared favori at the start of play, where the favori is declared."""
        self.retourne = retourne
        self.stock = [retourne, *stock]
        """The cards to be bought in a draw: the turned card first, then the stock in order."""
        self.under_retourne = under_retourne
        self.exposed = exposed
        self.stifled = frozenset(stifled) if stifled else _NOBODY
        self.carried_in = carried_in
        self.initial_caves = {name: caves[name] for name in self.names}
        self.cave = [caves[name] for name in self.names]
        self.contrib = [0] * n
        """Each seat's stake in the pool; changed only through :meth:`put` (and the
        settlement's returns), which keep ``staked`` and ``top_stake`` with it."""
        self.staked = 0
        """The sum of the stakes (``sum(contrib)``, kept rather than summed at every step)."""
        self.top_stake = 0
        """The largest stake (``max(contrib)``, kept likewise)."""
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
        self.opened = False
        """Whether somebody has opened the game (it stays open to the end of the deal)."""
        self.last_straddler: int | None = None
        """Who straddled last before the deal: he stakes last, and the speaking after the
        deal begins at his left (or right)."""
        self.standing_blind = 0
        """The blind's usual amount where a carried levy stands for the blind (else 0)."""
        self.to_act_seat: int | None = None
        """Whose turn it is (``None`` once the deal is over)."""
        self.steps = 0
        self.pots: list[PotWon] = []
        self.bonuses: list[Bonus] = []
        self._outcome: Outcome | None = None
        self._legal: tuple[LegalAction, ...] | None = None
        forced = rules.forced_bets
        straddling = Straddling(forced)
        self.state: Stage = straddling
        """What the phase the deal is in keeps (:mod:`phases`): one stage at a time."""
        self._post_forced_bets(straddling, forced)

    def copy(self, variant: Variant) -> Deal:
        """The deal as it stands, to be played on under ``variant``, sharing nothing that
        either changes: both may go on apart. ``variant`` must give the same value as the
        deal's for every rule read so far (what the stage has read is kept); what is read
        from here on is read from it. A sweep takes a row's play of a deal up from a copy
        of the base's, made before the base first read a rule the row changes
        (``study/sweep.py``)."""
        return Deal(variant, (), "", {}, {}, self.retourne, copy_of=self)

    def _take_up(self, variant: Variant, source: Deal) -> None:
        """:meth:`copy`: every slot of ``source``, each list anew (the events are
        immutable and shared; the seating is the table's, immutable)."""
        self.variant = variant
        self.rules = variant.rules
        self.names = list(source.names)
        self.seat_of, self.dealer, self.order = source.seat_of, source.dealer, source.order
        self.position, self.seating, self._after = source.position, source.seating, source._after
        self.hands = [list(hand) for hand in source.hands]
        self.dealt = source.dealt
        self.favori_rank = source.favori_rank
        self.retourne = source.retourne
        self.stock = list(source.stock)
        self.under_retourne = source.under_retourne
        self.exposed = source.exposed
        self.stifled = source.stifled
        self.carried_in = source.carried_in
        self.initial_caves = dict(source.initial_caves)
        self.cave = list(source.cave)
        self.contrib = list(source.contrib)
        self.staked = source.staked
        self.top_stake = source.top_stake
        self.folded = list(source.folded)
        self.live = source.live
        self.ledger = list(source.ledger)
        self.events = list(source.events)
        self.public = list(source.public)
        self.came_in = list(source.came_in)
        self.in_by_choice = source.in_by_choice
        self.raises = list(source.raises)
        self.spoken = source.spoken
        self.opened = source.opened
        self.last_straddler = source.last_straddler
        self.standing_blind = source.standing_blind
        self.to_act_seat = source.to_act_seat
        self.steps = source.steps
        self.pots = list(source.pots)
        self.bonuses = list(source.bonuses)
        self._outcome = source._outcome
        self._legal = source._legal
        self.state = source.state.copy(self)

    # -- the public API ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def bet(self) -> int:
        """The stake to meet (:attr:`phases.Stage.bet`)."""
        return self.state.bet

    @property
    def is_over(self) -> bool:
        return self.state.phase is OVER

    @property
    def to_act(self) -> str | None:
        return None if self.to_act_seat is None else self.names[self.to_act_seat]

    @property
    def outcome(self) -> Outcome:
        """The settlement, as the deal kept it (made once, when first asked for)."""
        over = self.state
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

    def pot_total(self) -> int:
        return self.staked + self.carried_in

    def legal_actions(self) -> list[LegalAction]:
        """What the player to act may do now (computed once per step)."""
        return list(self.offered())

    def offered(self) -> tuple[LegalAction, ...]:
        """:meth:`legal_actions` as the deal keeps it for this step, made once."""
        if self._legal is None:
            seat = self.to_act_seat
            self._legal = () if seat is None else tuple(self.state.legal(self, seat))
        return self._legal

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` with the deal unchanged.

        The action is checked first, against the same list :meth:`legal_actions` offers;
        only a permitted action changes anything."""
        state = self.state
        if isinstance(state, Over):
            raise IllegalAction(
                f"the deal is over ({state.status}): no action can follow its settlement",
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
            self.refuse(
                f"it is {self.to_act}'s turn, not {action.player}'s (play passes to the "
                f"{self.rules.table.direction})",
                "table.direction",
            )
        if isinstance(state, Straddling) and action.kind not in ("straddle", "decline"):
            # The first betting word declines the straddle, then is played as said.
            after = state.check_after_decline(self, seat, action)
            state.decline(self, seat, explicit=False)
            if after is not OVER:
                self.state.do(self, seat, action)
        else:
            self.check(seat, action, state, self.offered())
            state.do(self, seat, action)
        self.steps += 1
        self._legal = None

    # -- for the stages: one check to offer an action and to refuse it --------------------

    def check(self, seat: int, action: Action, stage: Stage, legal: Sequence[LegalAction]) -> None:
        """Refuse ``action`` unless an entry of ``legal`` (what ``stage`` offers) covers it."""
        kind = action.kind
        plain = kind not in _AMOUNTED
        for offered in legal:
            if offered.kind == kind and (plain or stage.permits(self, seat, offered, action)):
                return
        message, rule = stage.refusal(self, seat, action)
        raise IllegalAction(message, rule, self.variant.cite(rule), list(legal))

    def refuse(self, message: str, rule: str) -> NoReturn:
        self.refuse_with(message, rule, self.legal_actions())

    def refuse_with(self, message: str, rule: str, legal: list[LegalAction]) -> NoReturn:
        raise IllegalAction(message, rule, self.variant.cite(rule), legal)

    # -- for the stages: the table and the log ----------------------------------------

    def witness(self, event: Event) -> None:
        """Log an event every player sees."""
        self.events.append(event)
        self.public.append(event)

    def say(self, seat: int, word: str) -> None:
        """A betting word that puts in nothing (pass, fold, no-more)."""
        self.spoken += 1
        self.witness(Act(self.names[seat], word))

    def put(self, seat: int, chips: int) -> None:
        self.cave[seat] = self.cave[seat] - chips
        stake = self.contrib[seat] + chips
        self.contrib[seat] = stake
        self.staked += chips
        if stake > self.top_stake:
            self.top_stake = stake

    def record(self, seat: int, word: str, adds: int, *, sight: bool = False) -> None:
        """A betting word that puts chips in (bet, call, raise, all-in)."""
        self.put(seat, adds)
        self.spoken += 1
        if not self.came_in[seat]:
            self.came_in[seat] = True
            self.in_by_choice += 1
        if word != "call":
            self.raises[seat] = self.raises[seat] + 1
        all_in = self.cave[seat] == 0 and adds > 0
        total = self.contrib[seat]
        self.witness(Act(self.names[seat], word, adds, total, self.pot_total(), all_in, sight))

    def fold(self, seat: int) -> None:
        self.folded[seat] = True
        self.live -= 1
        if self.came_in[seat]:
            self.in_by_choice -= 1
        self.say(seat, "fold")

    def contenders(self) -> list[int]:
        """Who has not folded, in speaking order."""
        return [s for s in self.order if not self.folded[s]]

    def active(self) -> list[int]:
        """Who has not folded and has chips left to bet, in speaking order."""
        return [s for s in self.order if not self.folded[s] and self.cave[s] > 0]

    def next_active(self, seat: int) -> int:
        """The next player after ``seat`` still able to bet (``seat`` if none)."""
        order, n = self.order, len(self.order)
        start = self.position[seat]
        for k in range(1, n + 1):
            other = order[(start + k) % n]
            if not self.folded[other] and self.cave[other] > 0:
                return other
        return seat

    def after(self, seat: int) -> tuple[int, ...]:
        """Every other seat, in speaking order from the one after ``seat``."""
        return self._after[seat]

    def first_to_speak(self) -> int:
        """Who speaks first after the deal: the eldest, or the one after the last straddler."""
        last = self.last_straddler
        if last is None:
            return self.order[0]
        return self.order[(self.position[last] + 1) % len(self.order)]

    def largest_stake(self) -> int:
        """The largest stake on the table (the blind's usual amount where a levy stands
        for it)."""
        largest = self.top_stake
        return largest if largest > self.standing_blind else self.standing_blind

    def _post_forced_bets(self, straddling: Straddling, forced: ForcedBets) -> None:
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
        if forced.straddles:
            offer_straddles(self, straddling)
        else:
            deal_cards(self)


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


_Table: TypeAlias = tuple[
    Mapping[str, int], int, tuple[int, ...], tuple[int, ...], Seating, tuple[tuple[int, ...], ...]
]
_TABLES: Final[dict[tuple[tuple[str, ...], str, bool], _Table]] = cache("deal.tables")
"""Each table's :func:`_seat_table`, made once (a compiled dict: ``lru_cache`` is a Python
call, at every deal); 256 kept, then all forgotten."""


def _table(names: tuple[str, ...], dealer: str, to_the_right: bool) -> _Table:
    """:func:`_seat_table`, remembered."""
    key = (names, dealer, to_the_right)
    found = _TABLES.get(key)
    if found is None:
        found = keep(_TABLES, key, _seat_table(names, dealer, to_the_right), 256)
    return found


def _seat_table(names: tuple[str, ...], dealer: str, to_the_right: bool) -> _Table:
    """Each name's seat, the dealer's seat, the seats in speaking order (the dealer last),
    each seat's place in that order (indexed by seat), the seating for ties, and for each
    seat every other in speaking order from the one after it: shared by
    every deal at that table, so all of it immutable (a read-only mapping and tuples): no
    deal can change what the next one is handed."""
    seat_of = {name: i for i, name in enumerate(names)}
    n, first = len(names), seat_of[dealer]
    step = 1 if to_the_right else -1
    order = tuple([(first + step * k) % n for k in range(1, n + 1)])
    places = [0] * n
    for k, seat in enumerate(order):
        places[seat] = k
    position = tuple(places)
    after = tuple([order[places[seat] + 1 :] + order[: places[seat]] for seat in range(n)])
    return MappingProxyType(seat_of), first, order, position, Seating(names, order, first), after
