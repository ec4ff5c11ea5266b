"""The board of a deal: what every stage works on, and nothing of the state machine.

:class:`Board` holds the seats, the caves, the stakes, the hands, the stock and the log,
and the counters a player can see (who came in, how many raises, how many words); the
stages (``phases.py`` and the modules of each phase) read and change it through its
methods, and know nothing of :class:`~bouillotte.play.deal.Deal`, which is a board with
a stage on it and the phase graph that moves the stage on. No module of ``play/`` names
``Deal`` for its types: the stages are written against this class.

The stakes (``contrib``, with their sum ``staked`` and their largest ``top_stake``) change
only through :meth:`Board.put` (a return is a negative put), so the three agree at every
step; ``tests/test_board.py`` finds any other write.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Final, NoReturn, TypeAlias

from ..rules.cards import Card
from ..rules.errors import UserError
from ..rules.profile import Rules
from ..rules.variant import Variant
from .actions import LegalAction
from .caches import cache, keep
from .events import Act, Bonus, Dealt, Event, PotWon, Return
from .point import Seating

__all__ = ["Board", "IllegalAction"]


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


class Board:
    """The seats, caves, stakes, hands and log of one deal, and the counters a player can
    see, kept as the deal goes (``public``, ``came_in``, ``raises``, ``spoken``), so a
    policy reads them without going through the log. Made by :class:`Deal` (its base)."""

    __slots__ = (
        "_after",
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
        under_retourne: Card | None,
        carried_in: int,
        exposed: Card | None,
        stifled: Collection[str],
        favori_rank: int | None,
        stock: Sequence[Card],
    ) -> None:
        self.variant = variant
        self.rules: Rules = variant.rules
        self.names = list(players)
        n = len(self.names)
        table = _table(tuple(self.names), dealer, self.rules.table.direction == "right")
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
        """Each seat's stake in the pool; changed only through :meth:`put`, which keeps
        ``staked`` and ``top_stake`` with it."""
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
        self.pots: list[PotWon] = []
        self.bonuses: list[Bonus] = []

    def _take_up_board(self, variant: Variant, source: Board) -> None:
        """Every slot of ``source``'s board, each list anew (the events are immutable and
        shared; the seating is the table's, immutable): for :meth:`Deal.copy`."""
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
        self.pots = list(source.pots)
        self.bonuses = list(source.bonuses)

    # -- refusing a word ----------------------------------------------------------------

    def refuse_with(self, message: str, rule: str, legal: list[LegalAction]) -> NoReturn:
        """Refuse a word under ``rule`` (cited from the variant), ``legal`` being what is."""
        raise IllegalAction(message, rule, self.variant.cite(rule), legal)

    # -- the log --------------------------------------------------------------------------

    def witness(self, event: Event) -> None:
        """Log an event every player sees."""
        self.events.append(event)
        self.public.append(event)

    def log(self, event: Event) -> None:
        """Log an event the players do not all see (the hands, a draw, the settlement)."""
        self.events.append(event)

    def log_the_hands(self) -> None:
        """Log the hands as they were dealt (in speaking order) and the turned card."""
        names, hands, order = self.names, self.hands, self.order
        self.events.append(
            Dealt(tuple([(names[s], tuple(hands[s])) for s in order]), self.retourne)
        )

    # -- the stakes -----------------------------------------------------------------------

    def put(self, seat: int, chips: int) -> None:
        """Move ``chips`` from ``seat``'s cave to his stake (negative: back to the cave):
        the one way the stakes change, keeping ``staked`` and ``top_stake`` with them."""
        self.cave[seat] = self.cave[seat] - chips
        stake = self.contrib[seat] + chips
        self.contrib[seat] = stake
        self.staked += chips
        if stake > self.top_stake:
            self.top_stake = stake
        elif chips < 0:
            self.top_stake = max(self.contrib)

    def give_back(self, seat: int, chips: int, reason: str) -> None:
        """Return ``chips`` of ``seat``'s stake to his cave, and log why."""
        self.put(seat, -chips)
        self.events.append(Return(self.names[seat], chips, reason))

    def pot_total(self) -> int:
        return self.staked + self.carried_in

    def largest_stake(self) -> int:
        """The largest stake on the table (the blind's usual amount where a levy stands
        for it)."""
        largest = self.top_stake
        return largest if largest > self.standing_blind else self.standing_blind

    # -- the words ------------------------------------------------------------------------

    def say(self, seat: int, word: str) -> None:
        """A betting word that puts in nothing (pass, fold, no-more)."""
        self.spoken += 1
        self.witness(Act(self.names[seat], word))

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

    # -- the seats --------------------------------------------------------------------------

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
