"""Bouillotte as a game tree for equilibrium computation, played by the project's engine.

A :class:`GameTable` is the game (a profile and an :class:`~.abstraction.Abstraction`); a
:class:`Node` is one state of it. A node drives a :class:`~bouillotte.play.deal.Deal`: what
is legal, whose turn it is and what a deal pays are the engine's, never worked out here.
This module adds only what a game tree needs and the engine does not have:

- **chance steps for the deal** (:meth:`Node.chance_outcomes`): the engine deals a pack
  given in order (``new_deal(deck=...)``), so chance here picks the pack's cards one at a
  time, top first, and hands the order to the engine once enough are known
  (:func:`cards_needed`); with sampled deals, chance picks one of the engine's shuffles;
- **numbered actions**: every word and every amount (a bet's or raise's total) is a
  number (:func:`action_id`), as OpenSpiel needs;
- **information states**: what a player knows, his own cards (or their class), the
  retourne and the public words, as a string (:meth:`Node.info_key`);
- **returns that sum to zero**: a deal's nets sum to minus the pool carried to the next
  deal (a void deal); in a one-deal game the carried pool is shared equally among the
  players (:meth:`Node.returns`), as a session shares a pool still carried at its end
  (``session.carried_pot_at_end: split-equally``).

It imports no OpenSpiel: ``game.py`` wraps it for ``pyspiel``, and the solver
(``solve.py``) walks it directly.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ..play.actions import Action, LegalAction
from ..play.deal import Deal, new_deal
from ..play.dealing import shuffled_pack
from ..play.hands import Kind, classify
from ..play.phases import Phase
from ..play.showdown import rank_values
from ..play.stream import deal_seed
from ..rules.cards import Card, card_str, pack
from ..rules.errors import InputError
from ..rules.idtext import id_fault
from ..rules.profiles import Library
from ..rules.variant import Variant
from .abstraction import BOUNDS, Abstraction, AbstractionError, checked

FULL: Final = Abstraction()
"""No abstraction: the full game."""

CHANCE: Final = -1
TERMINAL: Final = -4
"""OpenSpiel's player ids for a chance node and a terminal state."""

_BEFORE_THE_DEAL: Final = (Phase.STRADDLE, Phase.SEEING)

WORDS: Final = ("straddle", "decline", "pass", "call", "fold", "all-in", "no-more", "buy")
"""The words without an amount, numbered 0 to 7; then the discards (one number per set of
the hand's cards thrown), then each bet's total, then each raise's total."""

_SHORT: Final = {
    "straddle": "s",
    "decline": "d",
    "pass": "p",
    "call": "c",
    "fold": "f",
    "all-in": "a",
    "no-more": "n",
    "buy": "y",
}


def load_variant(variant: str) -> Variant:
    """A bundled profile by id, or a user's own profile file by its path (``.yaml``): a
    path that names no file, or a file that is not a ``.yaml``, is refused as such (not
    as an unknown id)."""
    path = Path(variant)
    if variant.endswith(".yml"):
        raise InputError("a profile file's name ends in .yaml (rename it)", file=variant)
    if variant.endswith(".yaml"):
        if path.exists() and not path.is_file():  # a folder, a named pipe, a device
            raise InputError(
                "not a regular file (a folder, device, pipe or socket): give a profile's "
                ".yaml file",
                file=variant,
            )
        if not path.is_file():
            raise InputError("no such profile file (a profile is a .yaml file)", file=variant)
        return Library([path.parent]).get(path.stem)
    if id_fault(variant) is not None and path.exists():  # an id is an id, whatever cwd holds
        raise InputError(
            "not a profile: give a variant id (bouillotte variants list) or the path of "
            "your own profile, a .yaml file",
            file=variant,
        )
    return Library().get(variant)


def cards_needed(variant: Variant, players: int) -> int:
    """How many cards of the pack the engine reads to deal: the hands, the retourne, the
    card under it (Foster's carré), and the whole stock where the rules have a draw."""
    table = variant.rules.table
    size = len(table.pack_ranks()) * 4
    if table.draw != "none":
        return size
    return min(size, players * table.hand_size + 2)


def best_point(hand: Sequence[Card], retourne: Card, values: Sequence[int]) -> int:
    """A player's point as he can count it: his best suit's pips, the retourne added where
    it is of that suit."""
    pips = [0, 0, 0, 0]
    held = [False] * 4
    for card in hand:
        pips[card & 3] += values[card >> 2]
        held[card & 3] = True
    if held[retourne & 3]:
        pips[retourne & 3] += values[retourne >> 2]
    return max(pips[s] for s in range(4) if held[s])


def forced_bets(variant: Variant) -> list[tuple[str, int]]:
    """What a deal takes from a player before anyone chooses, in words, with its amount:
    the dealer's blind, the others' ante, the levy of a void deal (those that are not 0)."""
    rules = variant.rules
    found = [
        ("the dealer's blind", rules.forced_bets.dealer_blind),
        ("the ante", rules.forced_bets.others_ante),
        ("the void levy", rules.void_deals.void_levy),
    ]
    return [(what, amount) for what, amount in found if amount]


def _check_cave(variant: Variant, given: int, cave: int) -> None:
    """:class:`AbstractionError` for a profile's own cave (``--cave 0``) past the bound the
    game takes (``abstraction.BOUNDS``), as for a cave given: a profile of one's own may
    say anything (a 30-digit cave overflowed the bets' range)."""
    most = BOUNDS["cave"]
    if not given and cave > most:
        raise AbstractionError(
            f"cave: {variant.id}'s own cave (stakes.cave), {cave:,}, is more than {most:,} "
            f"counters, the most the game takes; give --cave 1 to {most:,}"
        )


def _check_forced_bets(variant: Variant, cave: int) -> None:
    """:class:`AbstractionError` where a forced bet takes a whole cave (a dealer's blind of
    5 at caves of 5): the game solved would be one in which nothing can happen (every
    deal returns 0, NashConv 0)."""
    found = forced_bets(variant)
    most = max((amount for _, amount in found), default=0)
    if cave <= most:
        named = ", ".join(f"{what} {amount}" for what, amount in found)
        raise AbstractionError(
            f"cave: {cave} is not more than {variant.id}'s forced bets ({named}): one would "
            f"take a whole cave before anyone chooses; give at least {most + 1}"
        )


class GameTable:
    """The game: a profile, the abstraction, the seats (A, B, ... in speaking order, the
    last one deals) and everything fixed for every deal."""

    def __init__(self, variant: Variant, abstraction: Abstraction = FULL, source: str = "") -> None:
        self.variant = variant
        self.source = source or variant.id
        """What the profile was named by (an id, or a file's path): a pickled table is
        made again from it."""
        self.abstraction = checked(abstraction)
        rules = variant.rules
        self.players = rules.table.players
        self.names = [chr(ord("A") + i) for i in range(self.players)]
        self.dealer = self.names[-1]
        self.cave = abstraction.cave or rules.stakes.cave
        _check_cave(variant, abstraction.cave, self.cave)
        _check_forced_bets(variant, self.cave)
        self.caves = dict.fromkeys(self.names, self.cave)
        self.hand_size = rules.table.hand_size
        self.pack = pack(rules.table.pack_ranks())
        self.values = rank_values(rules)
        self.needed = cards_needed(variant, self.players)
        self.bet_base = len(WORDS) + (1 << self.hand_size)
        self.raise_base = self.bet_base + self.cave + 1
        self.num_actions = self.raise_base + self.cave + 1
        self.packs: list[list[Card]] = [
            shuffled_pack(variant, deal_seed(abstraction.seed, i)) for i in range(abstraction.deals)
        ]
        self.bands: list[int] = self._bands() if abstraction.classes else []

    def __deepcopy__(self, memo: object) -> GameTable:
        """The game is never changed once made: a copy of a state or of the game (OpenSpiel
        copies both) shares it."""
        return self

    def __reduce__(self) -> tuple[object, tuple[str, Abstraction]]:
        return (table_for, (self.source, self.abstraction))

    def _bands(self) -> list[int]:
        """The points that begin each band but the first: quantiles of every hand's point
        over the sampled deals."""
        points: list[int] = []
        for order in self.packs:
            deal = self.deal_from(order)
            points.extend(best_point(h, deal.retourne, self.values) for h in deal.hands)
        points.sort()
        k = self.abstraction.classes
        cuts = sorted({points[len(points) * j // k] for j in range(1, k)})
        return cuts

    def deal_from(self, order: Sequence[Card]) -> Deal:
        return new_deal(self.variant, self.names, self.dealer, self.caves, deck=list(order))

    def hand_class(self, hand: Sequence[Card], retourne: Card) -> str:
        """A brelan (``B``, with its kind), or the band of the point (``P0``, ``P1``...)."""
        kind = classify(hand, retourne, self.variant.rules.hands).kind
        if kind is not Kind.POINT:
            return "B"
        return f"P{bisect.bisect_right(self.bands, best_point(hand, retourne, self.values))}"

    def max_chance_outcomes(self) -> int:
        return max(self.abstraction.deals, max(self.pack) + 1)

    def max_game_length(self) -> int:
        chance = 1 if self.abstraction.deals else self.needed
        words = self.players * (2 * self.cave + 6)
        return chance + words

    def bound(self) -> float:
        """A bound on what a player can win or lose in a deal (his cave, the others',
        and bonuses paid from the ledger)."""
        return float(self.cave * self.players + 100 * self.players)

    def action_text(self, action: int) -> str:
        if action < len(WORDS):
            return WORDS[action]
        if action < self.bet_base:
            mask = action - len(WORDS)
            places = [str(i + 1) for i in range(self.hand_size) if mask >> i & 1]
            return "discard " + (" ".join(f"card {p}" for p in places) or "nothing")
        if action < self.raise_base:
            return f"bet {action - self.bet_base}"
        return f"raise {action - self.raise_base}"


_TABLES: Final[dict[tuple[str, Abstraction], GameTable]] = {}


def table_for(variant: str, abstraction: Abstraction = FULL) -> GameTable:
    """The game of a profile (an id or a file's path) and an abstraction, made once."""
    key = (variant, abstraction)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = GameTable(load_variant(variant), abstraction, variant)
    return found


def action_id(table: GameTable, legal_kind: str, amount: int | None = None, mask: int = 0) -> int:
    """The number of a word (with its total, for ``bet`` and ``raise``; with the set of
    hand positions thrown, for ``discard``)."""
    if legal_kind == "bet":
        assert amount is not None
        return table.bet_base + amount
    if legal_kind == "raise":
        assert amount is not None
        return table.raise_base + amount
    if legal_kind == "discard":
        return len(WORDS) + mask
    return WORDS.index(legal_kind)


def amounts(deal: Deal, legal: LegalAction, menu: Sequence[str]) -> list[int]:
    """The totals offered for a bet or raise: every legal one, or those of the menu."""
    assert legal.low is not None
    low = legal.low
    high = legal.high if legal.high is not None else low
    step = legal.step or 1
    seat = deal.to_act_seat
    assert seat is not None
    whole = deal.contrib[seat] + deal.cave[seat]
    if not menu:
        found = list(range(low, high + 1, step))
        if low <= whole <= high and whole not in found:
            found.append(whole)
        return sorted(found)
    pot = deal.pot_total()
    wanted = {
        "min": low,
        "half": deal.bet + pot // 2,
        "pot": deal.bet + pot,
        "max": high,
    }
    chosen: set[int] = set()
    for size in menu:
        total = max(low, min(high, wanted[size]))
        if total != whole:
            total = low + (total - low) // step * step
        chosen.add(total)
    return sorted(chosen)


class Node:
    """One state of the game: dealing (chance), a player to act, or the deal settled."""

    __slots__ = ("bets_made", "cards", "deal", "history", "said", "table")

    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.cards: list[Card] = []
        """The pack's cards chance has turned so far, top first."""
        self.deal: Deal | None = None
        self.history: list[tuple[int, int]] = []
        """Every (seat, action number) said so far."""
        self.bets_made = 0
        """Bets and raises so far (the abstraction's cap counts them)."""
        self.said: list[int] = []
        """Every action applied, chance's too, in order: the node replays from them."""

    def clone(self) -> Node:
        other = Node(self.table)
        other.cards = list(self.cards)
        other.deal = None if self.deal is None else self.deal.copy(self.table.variant)
        other.history = list(self.history)
        other.bets_made = self.bets_made
        other.said = list(self.said)
        return other

    def __reduce__(self) -> tuple[object, tuple[GameTable, list[int]]]:
        """Pickled as the game and the actions (OpenSpiel serialises a state so)."""
        return (replayed, (self.table, self.said))

    def __deepcopy__(self, memo: object) -> Node:
        """OpenSpiel copies a state by deep-copying its attributes: the deal is copied by
        the engine (``Deal.copy``), the game shared."""
        return self.clone()

    # -- whose turn ------------------------------------------------------------------

    def current(self) -> int:
        deal = self.deal
        if deal is None:
            return CHANCE
        if deal.is_over:
            return TERMINAL
        seat = deal.to_act_seat
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_over

    # -- chance ------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        table = self.table
        if table.abstraction.deals:
            p = 1.0 / table.abstraction.deals
            return [(i, p) for i in range(table.abstraction.deals)]
        left = sorted(set(table.pack) - set(self.cards))
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    def _deal_chance(self, outcome: int) -> None:
        table = self.table
        if table.abstraction.deals:
            self.deal = table.deal_from(table.packs[outcome])
            return
        self.cards.append(outcome)
        if len(self.cards) == table.needed:
            self.deal = table.deal_from(self.cards)

    # -- the players' words ------------------------------------------------------------

    def legal(self) -> list[int]:
        """Every action number the engine allows now (within the abstraction), ascending."""
        deal = self.deal
        assert deal is not None and not deal.is_over
        table = self.table
        ab = table.abstraction
        capped = ab.raises > 0 and self.bets_made >= ab.raises
        seat = deal.to_act_seat
        assert seat is not None
        found: list[int] = []
        offered = deal.offered()
        kinds = {legal.kind for legal in offered}
        for legal in offered:
            kind = legal.kind
            if kind in ("bet", "raise"):
                if not capped:
                    found.extend(action_id(table, kind, a) for a in amounts(deal, legal, ab.bets))
            elif kind == "discard":
                most = legal.high if legal.high is not None else 0
                size = len(deal.hands[seat])
                found.extend(
                    len(WORDS) + mask
                    for mask in range(1 << size)
                    if bin(mask).count("1") <= most and self._permitted(deal, seat, legal, mask)
                )
            elif kind == "buy" and not self._permitted(deal, seat, legal, None):
                continue  # no card left to buy: the engine refuses it
            elif (kind == "straddle" and not ab.straddles and "decline" in kinds) or (
                kind == "all-in" and capped and self._raises_all_in(deal, seat)
            ):
                continue  # not offered in the abstraction
            else:
                found.append(WORDS.index(kind))
        return sorted(set(found))

    def _permitted(self, deal: Deal, seat: int, legal: LegalAction, mask: int | None) -> bool:
        """Whether the engine takes this word of the draw (a discard of the places of
        ``mask``; ``None``: a buy of a fourth): its own check (``Stage.permits``), which
        refuses to buy more cards than are left in the stock, where its list offers a
        discard of the whole hand (a 16-card pack with a draw runs short)."""
        action = (
            Action(deal.names[seat], "buy") if mask is None else self._discard(deal, seat, mask)
        )
        return deal.stage.permits(deal, seat, legal, action)

    @staticmethod
    def _discard(deal: Deal, seat: int, mask: int) -> Action:
        hand = deal.hands[seat]
        thrown = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
        return Action(deal.names[seat], "discard", cards=thrown)

    @staticmethod
    def _raises_all_in(deal: Deal, seat: int) -> bool:
        return deal.contrib[seat] + deal.cave[seat] > deal.largest_stake()

    def to_engine(self, action: int) -> Action:
        """The engine's action for a number."""
        deal = self.deal
        assert deal is not None
        seat = deal.to_act_seat
        assert seat is not None
        name = deal.names[seat]
        table = self.table
        if action < len(WORDS):
            return Action(name, WORDS[action])
        if action < table.bet_base:
            return self._discard(deal, seat, action - len(WORDS))
        if action < table.raise_base:
            return Action(name, "bet", action - table.bet_base)
        return Action(name, "raise", action - table.raise_base)

    def apply(self, action: int) -> None:
        self.said.append(action)
        if self.deal is None:
            self._deal_chance(action)
            return
        deal = self.deal
        seat = deal.to_act_seat
        assert seat is not None
        if action >= self.table.bet_base or (
            action == WORDS.index("all-in") and self._raises_all_in(deal, seat)
        ):
            self.bets_made += 1
        deal.apply(self.to_engine(action))
        self.history.append((seat, action))

    # -- what is paid --------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Each player's net over the deal, the carried pool (a void deal's) shared equally:
        they sum to zero."""
        deal = self.deal
        if deal is None or not deal.is_over:
            return [0.0] * self.table.players
        outcome = deal.outcome
        share = outcome.carry / self.table.players
        return [outcome.players[name].net + share for name in self.table.names]

    # -- what a player knows -------------------------------------------------------------

    def _token(self, seat: int, action: int) -> str:
        table = self.table
        name = table.names[seat]
        if action < len(WORDS):
            return name + _SHORT[WORDS[action]]
        if action < table.bet_base:
            return f"{name}x{bin(action - len(WORDS)).count('1')}"  # how many thrown: public
        if action < table.raise_base:
            return f"{name}b{action - table.bet_base}"
        return f"{name}r{action - table.raise_base}"

    def public(self) -> str:
        """The words every player has heard, in order (a discard as the number thrown)."""
        return " ".join(self._token(seat, action) for seat, action in self.history)

    def private(self, seat: int) -> str:
        """What ``seat`` alone knows: his cards as dealt and as they stand (or their
        class), with the retourne; nothing while the cards are being dealt, nor while
        straddles are offered and seen (the engine holds the hands already, but they are
        dealt only after the straddles: Foster, "Before the distribution of the cards, the
        dealer puts up a blind ... which the player on his right has the privilege of
        straddling")."""
        deal = self.deal
        if deal is None:
            return f"dealing {len(self.cards)}"
        if deal.phase in _BEFORE_THE_DEAL:
            return "unseen"  # straddles are said before the cards are dealt
        table = self.table
        if table.abstraction.classes:
            dealt = table.hand_class(deal.dealt[seat], deal.retourne)
            now = table.hand_class(deal.hands[seat], deal.retourne)
            return dealt if deal.hands[seat] == list(deal.dealt[seat]) else f"{dealt}>{now}"
        dealt_text = " ".join(card_str(c) for c in sorted(deal.dealt[seat]))
        now_text = " ".join(card_str(c) for c in sorted(deal.hands[seat]))
        hand = dealt_text if dealt_text == now_text else f"{dealt_text}>{now_text}"
        return f"{hand} ret {card_str(deal.retourne)}"

    def info_key(self, seat: int) -> str:
        """Player ``seat``'s information state: who he is, what he alone knows, and the
        public words (perfect recall)."""
        return f"{self.table.names[seat]}|{self.private(seat)}|{self.public()}"

    def observation(self, seat: int) -> str:
        """What ``seat`` sees now, without the history: his cards, each player's stake
        and who has folded."""
        deal = self.deal
        if deal is None:
            return f"{self.table.names[seat]}|dealing {len(self.cards)}"
        stakes = " ".join(
            f"{name}{'-' if deal.folded[i] else ''}{deal.contrib[i]}"
            for i, name in enumerate(deal.names)
        )
        return f"{self.table.names[seat]}|{self.private(seat)}|{stakes}"

    def __str__(self) -> str:
        deal = self.deal
        if deal is None:
            return "dealing: " + " ".join(card_str(c) for c in self.cards)
        hands = " / ".join(" ".join(card_str(c) for c in hand) for hand in deal.hands)
        return f"{hands} ret {card_str(deal.retourne)} | {self.public()}"


def replayed(table: GameTable, actions: Sequence[int]) -> Node:
    """The node reached from the start by ``actions``."""
    node = Node(table)
    for action in actions:
        node.apply(action)
    return node
