"""Betting policies for simulated players.

A policy chooses one legal action for the player to act, from a :class:`View`: what that
player may see at the table (his own three cards, the retourne, the caves, the stakes and
the betting so far), never the other hands. Three policies are bundled:

``simple``
    After Foster's "Suggestions for Good Play": a brelan is always backed (and raised once);
    the point is backed only above a threshold that rises with the number of players
    already in: 21 alone ("The first player to say, having only 21 in his hand, should
    ante"), 26 against one, 32 against two ("if two other players had already anted, 31,
    or even 40 would be a doubtful hand"), never against three ("if four players are
    engaged, it is almost a certainty that brelans will be shown"); three cards of one suit
    to the King are bet high.
``cautious``
    Backs a brelan, or a point of 40 or more when nobody else is in; never raises.
``random``
    A uniformly random legal action, with a uniformly random legal amount (seeded).

Policies are deterministic given the view and the random generator, so seeded play is
reproducible.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol, cast

from ..play.actions import ACTION_WORDS, Action, LegalAction
from ..play.deal import CLOSING, Deal, Phase
from ..play.dealing import Draws, below, in_steps
from ..play.events import Act, Event
from ..play.hands import Kind, classify
from ..play.showdown import rank_values
from ..rules.cards import Card
from ..rules.errors import InputError
from ..rules.nearest import did_you_mean
from ..rules.profile import Hands, Rules
from .strong_policy import STRONG_SENTENCE, StrongPolicy

_SEEING: Final = Phase.SEEING
_STRADDLE: Final = Phase.STRADDLE
_DRAW: Final = Phase.DRAW
_POINT: Final = Kind.POINT  # module names: an Enum member read off its class costs a lookup


class View:
    """What one player may see when it is his turn (one is made every step).

    Everything in it is read from what the deal keeps up to date as it goes, so making a
    view costs the same at the first step as at the fiftieth. A plain class with slots
    rather than a named tuple: compiled (``hatch_build.py``), its fields are read directly."""

    __slots__ = (
        "bet",
        "cave",
        "hand",
        "legal",
        "opened",
        "others",
        "phase",
        "player",
        "pot",
        "public",
        "raised",
        "retourne",
        "rules",
        "seen",
        "spoke",
        "stake",
    )

    player: str
    hand: tuple[Card, ...]
    retourne: Card
    rules: Rules
    legal: tuple[LegalAction, ...]
    phase: Phase
    """``straddle``, ``seeing`` (a straddle to be seen before the deal), ``betting``,
    ``privilege`` (Foster's word) or ``no-more``."""
    opened: bool
    bet: int
    """The largest stake on the table."""
    stake: int
    """This player's own stake so far."""
    cave: int
    """What is left in this player's cave."""
    pot: int
    others: int
    """How many other players have come in voluntarily (bet, called or raised) and are
    still in."""
    raised: int
    """How often this player has bet or raised (or gone all in) in this deal."""
    spoke: bool
    """Whether anybody has spoken in the betting yet (forced bets do not count)."""
    public: Sequence[Event]
    """The deal's public log (read through :attr:`history`)."""
    seen: int
    """How much of ``public`` had happened when the view was made."""

    def __init__(
        self,
        player: str,
        hand: tuple[Card, ...],
        retourne: Card,
        rules: Rules,
        legal: tuple[LegalAction, ...],
        phase: Phase,
        opened: bool,
        bet: int,
        stake: int,
        cave: int,
        pot: int,
        others: int,
        raised: int,
        spoke: bool,
        public: Sequence[Event],
        seen: int,
    ) -> None:
        self.player = player
        self.hand = hand
        self.retourne = retourne
        self.rules = rules
        self.legal = legal
        self.phase = phase
        self.opened = opened
        self.bet = bet
        self.stake = stake
        self.cave = cave
        self.pot = pot
        self.others = others
        self.raised = raised
        self.spoke = spoke
        self.public = public
        self.seen = seen

    @property
    def history(self) -> tuple[Event, ...]:
        """The public events so far: forced bets, straddles and every betting word."""
        return tuple(self.public[: self.seen])

    def others_in(self) -> int:
        """How many other players have come in voluntarily (bet, called or raised)."""
        return self.others

    def folded(self) -> set[str]:
        return {e.player for e in self.history if isinstance(e, Act) and e.action == "fold"}

    def my_raises(self) -> int:
        return self.raised

    def anybody_spoke(self) -> bool:
        """Whether anybody has spoken in the betting yet (forced bets do not count)."""
        return self.spoke

    def find(self, kind: str) -> LegalAction | None:
        for legal in self.legal:
            if legal.kind == kind:
                return legal
        return None


def view_of(deal: Deal) -> View:
    """The view of the player whose turn it is."""
    seat = deal.to_act_seat
    if seat is None:
        raise ValueError("nobody is to act: the deal is over")
    others = deal.in_by_choice
    if deal.came_in[seat]:  # the player to act has not folded
        others -= 1
    return View(
        deal.names[seat],
        tuple(deal.hands[seat]),
        deal.retourne,
        deal.rules,
        deal.offered(),
        deal.phase,
        deal.opened,
        deal.bet,
        deal.contrib[seat],
        deal.cave[seat],
        deal.pot_total(),
        others,
        deal.raises[seat],
        deal.spoken > 0,
        deal.public,
        len(deal.public),
    )


class Policy(Protocol):
    name: str
    needs_rng: bool
    """Whether :meth:`choose` draws from its generator (if not, none need be made)."""

    def choose(self, view: View, rng: Draws) -> Action: ...


# -- what a hand is worth to its holder ---------------------------------------------------


def best_suit(
    hand: tuple[Card, ...], retourne: Card, values: list[int]
) -> tuple[int, int, int, int]:
    """What a player can count for sure in his best suit, in one pass over the cards: his
    cards of each suit plus the retourne where of that suit. Returns (pips of the best
    suit, his cards of it, his best rank index, the suit).

    The one helper the policies value a hand's point by. Two suits of equal pips: the
    pips and cards are those of the suit with more cards (a player counts the stronger
    holding), while the suit named is the first of them in suit order (the suit a player
    keeps when he draws); the two tie-breaks are kept as the policies always had them, so
    that every simulation plays as before."""
    pips = [0, 0, 0, 0]
    count = [0, 0, 0, 0]
    top = 99
    for card in hand:
        suit, rank = card & 3, card >> 2
        pips[suit] = pips[suit] + values[rank]
        count[suit] = count[suit] + 1
        if rank < top:
            top = rank
    turned = retourne & 3
    if count[turned]:
        pips[turned] = pips[turned] + values[retourne >> 2]
    best_pips, best_count, first = -1, 0, 0
    first_pips = -1
    for suit in range(4):
        cards = count[suit]
        if not cards:
            continue
        if pips[suit] > best_pips or (pips[suit] == best_pips and cards > best_count):
            best_pips, best_count = pips[suit], cards
        if pips[suit] > first_pips:
            first_pips, first = pips[suit], suit
    return best_pips, best_count, top, first


def _amount(legal: LegalAction, wanted: int) -> int:
    low = legal.low if legal.low is not None else 0
    high = legal.high if legal.high is not None else low
    amount = max(low, min(high, wanted))
    if legal.step:  # only whole steps above the least (Pierer's raises)
        amount = max(low, amount - (amount - low) % legal.step)
    return amount


_SAFE: Final = ("no-more", "pass", "fold", "decline")
_FALLBACKS: Final = {
    "raise": ("raise", "call", "no-more", *_SAFE),
    "bet": ("bet", "pass", *_SAFE),
    "call": ("call", "all-in", "no-more", *_SAFE),
}
_FALLBACKS.update({word: (word, *_SAFE) for word in ACTION_WORDS if word not in _FALLBACKS})


_SAID: Final[dict[tuple[str, str], Action]] = {}


def _said(player: str, word: str) -> Action:
    """The action of a word without an amount (actions are immutable: made once each)."""
    action = _SAID.get((player, word))
    if action is None:
        action = _SAID[player, word] = Action(player, word)
    return action


def _act(view: View, kind: str, wanted: int | None = None) -> Action:
    """The action ``kind`` if legal (amount clamped to the legal range), else the nearest
    safe one: call → all-in (a sight) → no-more → pass → fold → decline."""
    offered = view.legal
    for word in _FALLBACKS[kind]:
        for legal in offered:
            if legal.kind != word:
                continue
            if word in ("bet", "raise"):
                return Action(view.player, word, _amount(legal, wanted or 0))
            return _said(view.player, word)
    first = view.legal[0]
    return Action(view.player, first.kind, first.low if first.kind in ("bet", "raise") else None)


def _back(view: View, strong: bool, size: int) -> Action:
    """Come in (or stay in) with a hand worth backing; raise once if ``strong``."""
    if view.phase is _SEEING:  # before the deal nobody has seen his cards: always see
        return _act(view, "call")
    if view.phase is _STRADDLE:
        return _act(view, "decline")
    if not view.opened:
        return _act(view, "bet", view.bet + size if strong else 0)
    if strong and view.my_raises() < 1:
        return _act(view, "raise", view.bet + size)
    if view.phase in CLOSING:
        return _act(view, "no-more")
    return _act(view, "call")


def _lay_down(view: View) -> Action:
    if view.phase is _SEEING:  # before the deal nobody has seen his cards: always see
        return _act(view, "call")
    if view.phase is _STRADDLE:
        return _act(view, "decline")
    if not view.opened:
        return _act(view, "pass")
    if view.phase in CLOSING:
        return _act(view, "no-more") if view.stake >= view.bet else _act(view, "fold")
    return _act(view, "fold")


# -- the policies ---------------------------------------------------------------------------

SIMPLE_THRESHOLDS: Final = (21, 26, 32)
"""The least point the simple policy backs with 0, 1 or 2 other players in; with 3, none.
Foster gives the first and calls 31 "doubtful" against two; 26 is our midpoint."""


_HANDS_KEPT: Final = 512
"""How many hands a policy remembers before it forgets them all: a deal deals at most six
and a draw a few more, and in a sweep a void deal's chain deals more under each row; the
rows that read hands alike share their entries (:meth:`_HandCache.worth`)."""


class _HandCache:
    """What a hand is worth to its holder, remembered: a player's hand does not change while
    he bets, and he decides several times with it; in a sweep, every row plays the same
    hands.

    A hand's worth is read from the rules of hands and the point values only, so it is
    remembered for the *reading* of them, not for the rule set: the rows of a sweep that
    leave both alike share one entry (measured in 40 deals of the full sweep: 1,152 hands
    valued under ``simple`` rather than 4,004 when an entry was a rule set's, 2,542 under
    ``bold`` rather than 7,388).

    Only the last few hundred hands are kept: a hand seldom recurs in another deal, and a
    memory that grew over a whole run kept every entry alive for the garbage collector to
    walk again and again (measured: a quarter of the policy's cost per deal)."""

    def __init__(self) -> None:
        self._worth: dict[tuple[tuple[Card, ...], Card, int], tuple[Kind, int, int, int]] = {}
        self._reading: dict[int, tuple[Rules, int]] = {}
        """Each rule set met (kept alive, so that its ``id`` is never another's), with the
        number of its reading in :attr:`_readings`."""
        self._readings: list[tuple[Hands, list[int]]] = []
        """Each distinct reading met: the rules of hands and the point values by rank."""

    def worth(self, view: View) -> tuple[Kind, int, int, int]:
        """(kind, own point, cards of that suit, best rank index in hand) of the hand of the
        player to act."""
        rules = view.rules
        known = self._reading.get(id(rules))
        if known is None:
            known = self._reading[id(rules)] = (rules, self._reading_of(rules))
        key = (view.hand, view.retourne, known[1])
        found = self._worth.get(key)
        if found is not None:
            return found
        if len(self._worth) >= _HANDS_KEPT:
            self._worth.clear()
        hands, values = self._readings[known[1]]
        kind = classify(view.hand, view.retourne, hands).kind
        pips, cards, top, _ = best_suit(view.hand, view.retourne, values)
        found = self._worth[key] = (kind, pips, cards, top)
        return found

    def _reading_of(self, rules: Rules) -> int:
        """The number of ``rules``' reading of a hand, the first rule set met with the same
        rules of hands and point values giving it its number."""
        values = rank_values(rules)
        for number, (hands, known) in enumerate(self._readings):
            if known == values and hands == rules.hands:
                return number
        self._readings.append((rules.hands, values))
        return len(self._readings) - 1


class SimplePolicy(_HandCache):
    """Foster's "Suggestions for Good Play", reduced to a rule of thumb (see the module)."""

    name = "simple"
    needs_rng = False

    def choose(self, view: View, rng: Draws) -> Action:
        kind, pips, cards, top = self.worth(view)
        if kind is not _POINT:
            eldest = not view.opened and not view.anybody_spoke()
            if eldest and view.find("pass") is not None:
                # "With good cards it is always better for the eldest hand to pass."
                return _act(view, "pass")
            return _back(view, strong=True, size=max(view.pot // 2, 1))
        others = view.others_in()
        if others >= len(SIMPLE_THRESHOLDS) or pips < SIMPLE_THRESHOLDS[others]:
            return _lay_down(view)
        # "With three cards of one suit to the King, it is usual to bet high."
        high = cards == 3 and top <= 1
        return _back(view, strong=high, size=2 * view.pot)


class CautiousPolicy(_HandCache):
    """Backs only a brelan, or a point of 40 or more when nobody else is in; never raises."""

    name = "cautious"
    needs_rng = False

    def choose(self, view: View, rng: Draws) -> Action:
        kind, pips, _, _ = self.worth(view)
        if kind is not _POINT:
            return _back(view, strong=False, size=0)
        if pips >= 40 and view.others_in() == 0:
            return _back(view, strong=False, size=0)
        return _lay_down(view)


class RandomPolicy:
    """Any legal action, uniformly; bets and raises of a uniformly random legal amount."""

    name = "random"
    needs_rng = True

    def choose(self, view: View, rng: Draws) -> Action:
        offered = view.legal
        legal = offered[below(rng, len(offered))]  # rng.choice(offered), draw for draw
        if legal.kind in ("bet", "raise"):
            assert legal.low is not None
            high = legal.high or legal.low
            return Action(view.player, legal.kind, in_steps(rng, legal.low, high, legal.step or 1))
        return _said(view.player, legal.kind)


TENDENCIES: Final[dict[str, str]] = {
    "straddle": "chance of straddling when offered, before seeing one's cards",
    "see": "chance of seeing a straddle that must be seen before the deal (else drop out)",
    "open_point": "the least point it backs with nobody else in (Foster: 21)",
    "point_shift": "added to the least point backed against others (26 against one, 32 "
    "against two): below 0 follows looser",
    "against_three": "the least point backed against three others already in (0: never)",
    "bluff": "chance of betting or raising on a hand it would otherwise lay down",
    "raises": "how many times in a deal it raises on a strong hand (re-raises past 1)",
    "strong_point": "the least point it counts strong (raised like a brelan)",
    "privilege_raise": "chance of raising in the closing round (Foster's privilege, the "
    "card's no-more round) on a strong hand, rather than passing the word",
    "call_all_in": "1: calls all in for what is left (a sight) with a hand it backs; 0: "
    "folds instead",
    "eldest_passes": "1: the eldest passes first with a brelan (Foster); 0: bets at once",
    "no_ace_alone": "1: never backs a lone ace unless of the retourne's suit (Foster); acts "
    "only where the least point backed is lowered to 11 or less (an ace alone counts 11)",
    "three_way_limit": "1: with two others in, lays down a point that is not strong once "
    "the betting has been raised (a strict reading of Foster); 0: follows",
    "met_point": "the least point it follows with once a bet has been made and met by another "
    "player (Foster: such a point should generally be laid down); 0: no such limit",
    "buy_fourth": "1: in a draw, buys a fourth to three equal cards where allowed",
    "push": "chance of putting in the whole cave (all in) on a strong hand, where allowed",
}
"""Each tendency in a sentence (``--help`` and the site list them)."""


class Tendencies:
    """How a player of the ``table`` family plays: every rule of the schema that depends on
    a choice is reached by one of these (``docs/simulation.md``, "Policies").

    Chances are between 0 and 1 and drawn from the policy's seeded generator."""

    __slots__ = (
        "against_three",
        "bluff",
        "buy_fourth",
        "call_all_in",
        "eldest_passes",
        "met_point",
        "no_ace_alone",
        "open_point",
        "point_shift",
        "privilege_raise",
        "push",
        "raises",
        "see",
        "straddle",
        "strong_point",
        "three_way_limit",
    )

    def __init__(
        self,
        straddle: float = 0.0,
        see: float = 1.0,
        point_shift: int = 0,
        against_three: int = 0,
        bluff: float = 0.0,
        raises: int = 1,
        strong_point: int = 99,
        privilege_raise: float = 0.0,
        call_all_in: int = 1,
        eldest_passes: int = 1,
        no_ace_alone: int = 0,
        three_way_limit: int = 0,
        buy_fourth: int = 1,
        push: float = 0.0,
        open_point: int = 21,
        met_point: int = 0,
    ) -> None:
        self.straddle = straddle
        self.see = see
        self.point_shift = point_shift
        self.against_three = against_three
        self.bluff = bluff
        self.raises = raises
        self.strong_point = strong_point
        self.privilege_raise = privilege_raise
        self.call_all_in = call_all_in
        self.eldest_passes = eldest_passes
        self.no_ace_alone = no_ace_alone
        self.three_way_limit = three_way_limit
        self.buy_fourth = buy_fourth
        self.push = push
        self.open_point = open_point
        self.met_point = met_point

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in TENDENCIES}

    def changed(self, values: Mapping[str, float]) -> Tendencies:
        merged = self.as_dict() | dict(values)
        return Tendencies(
            float(merged["straddle"]),
            float(merged["see"]),
            int(merged["point_shift"]),
            int(merged["against_three"]),
            float(merged["bluff"]),
            int(merged["raises"]),
            int(merged["strong_point"]),
            float(merged["privilege_raise"]),
            int(merged["call_all_in"]),
            int(merged["eldest_passes"]),
            int(merged["no_ace_alone"]),
            int(merged["three_way_limit"]),
            int(merged["buy_fourth"]),
            float(merged["push"]),
            int(merged["open_point"]),
            int(merged["met_point"]),
        )


_CHANCES: Final = frozenset({"straddle", "see", "bluff", "privilege_raise", "push"})


class TablePolicy(_HandCache):
    """A player of the ``table`` family: Foster's thresholds for the point, moved by its
    :class:`Tendencies`, with straddles, sights, re-raises, raises in the closing round and
    draws as its tendencies say."""

    needs_rng = True

    def __init__(self, name: str, tendencies: Tendencies) -> None:
        super().__init__()
        self.name = name
        self.tendencies = tendencies

    def choose(self, view: View, rng: Draws) -> Action:
        t = self.tendencies
        phase = view.phase
        if phase is _STRADDLE:  # before the deal: nobody has seen his cards
            if t.straddle > 0 and rng.random() < t.straddle:
                return _act(view, "straddle")
            return _act(view, "decline")
        if phase is _SEEING:
            if t.see >= 1 or rng.random() < t.see:
                return _act(view, "call")
            return _act(view, "fold")
        kind, pips, cards, top = self.worth(view)
        if phase is _DRAW:
            return self._draw(view, kind)
        brelan = kind is not _POINT
        others = view.others_in()
        if brelan:
            backed, strong = True, True
        else:
            backed = self._backs_point(view, pips, cards, top, others)
            strong = pips >= t.strong_point
        if not backed and t.bluff > 0 and rng.random() < t.bluff:
            backed, strong = True, True  # a bluff: bet or raise as on a strong hand
        if not backed:
            return _lay_down(view)
        eldest = not view.opened and not view.anybody_spoke()
        if brelan and t.eldest_passes and eldest and view.find("pass") is not None:
            # "With good cards it is always better for the eldest hand to pass."
            return _act(view, "pass")
        if not brelan and t.met_point and pips < t.met_point and _bet_made_and_met(view):
            # "If a bet had been made and met by another player, such a point should
            # generally be laid down."
            return _lay_down(view)
        if (
            t.three_way_limit
            and not strong
            and others >= 2
            and view.raised == 0
            and view.bet > view.stake
            and _raises_seen(view) >= 1
        ):
            # "If three play in a pool the point should be very strong to follow beyond
            # the first raise."
            return _lay_down(view)
        size = max(view.pot, 1)
        pushing = strong and t.push > 0 and view.raised < t.raises
        if pushing and rng.random() < t.push:
            # The whole cave: all in where the rules allow it, else the largest bet or raise
            # (which the others can meet only by calling all in, for a sight).
            if view.find("all-in") is not None and view.find("raise" if view.opened else "bet"):
                return _said(view.player, "all-in")
            everything = view.stake + view.cave
            return _act(view, "raise" if view.opened else "bet", everything)
        if phase in CLOSING:
            if strong and view.raised < t.raises and rng.random() < t.privilege_raise:
                return _act(view, "raise", view.bet + size)
            return _act(view, "no-more")
        if not view.opened:
            return _act(view, "bet", view.bet + size if strong else 0)
        if strong and view.raised < t.raises:
            return _act(view, "raise", view.bet + size)
        if view.bet - view.stake >= view.cave and not t.call_all_in:
            return _act(view, "fold")
        return _act(view, "call")

    def _backs_point(self, view: View, pips: int, cards: int, top: int, others: int) -> bool:
        t = self.tendencies
        if others >= len(SIMPLE_THRESHOLDS):
            return t.against_three > 0 and pips >= t.against_three
        least = t.open_point if others == 0 else SIMPLE_THRESHOLDS[others] + t.point_shift
        if pips < least:
            return False
        # "Good players will not bet on an ace alone, unless the suit is turned up."
        ace_alone = cards == 1 and top == 0 and (view.retourne & 3) != _suit_of_best(view)
        return not (t.no_ace_alone and ace_alone)

    def _draw(self, view: View, kind: Kind) -> Action:
        if kind is not _POINT:
            if self.tendencies.buy_fourth and view.find("buy") is not None:
                return _said(view.player, "buy")
            return Action(view.player, "discard")
        legal = view.find("discard")
        most = legal.high if legal is not None and legal.high is not None else 0
        keep = _suit_of_best(view)
        thrown = tuple(card for card in view.hand if card & 3 != keep)[:most]
        return Action(view.player, "discard", cards=thrown)


def _suit_of_best(view: View) -> int:
    """The suit of the player's best point (the retourne counted where of that suit)."""
    return best_suit(view.hand, view.retourne, rank_values(view.rules))[3]


def _bet_made_and_met(view: View) -> bool:
    """Whether the bet the player now faces was made by one player and met (called, or
    called all in for the whole of it) by another, read from the public log: Foster's "a
    bet had been made and met by another player". Only words count: forced bets and
    straddles are not a bet made."""
    if not view.opened or view.bet <= view.stake:
        return False
    bettor = ""
    largest = 0
    met = False
    for event in view.public[: view.seen]:
        if not isinstance(event, Act) or event.total is None:
            continue
        action, total = event.action, event.total
        if action in ("bet", "raise") or (action == "all-in" and total > largest):
            bettor, largest, met = event.player, total, False
        elif bettor and event.player != bettor and total >= largest:
            met = True  # a call, or an all-in for the whole bet
    return met and bettor != view.player


def _raises_seen(view: View) -> int:
    """How many raises the betting has seen so far (read from the public log)."""
    raised = 0
    for event in view.public[: view.seen]:
        if isinstance(event, Act) and event.action == "raise":
            raised += 1
    return raised


TABLE_PLAYERS: Final[dict[str, tuple[str, Tendencies]]] = {
    "advised": (
        "Plays by what the sources advise where they do (Foster's Suggestions for Good Play: "
        "21 to back alone, 26 against one and 32 against two, a point below 41 laid down "
        "once a bet has been made and met, no following beyond the first raise "
        "three-handed unless strong, the eldest passing with a brelan, a sight called with "
        "what is left) and straddles a quarter of the time, where they say nothing of when "
        "to.",
        Tendencies(
            straddle=0.25,
            see=1.0,
            point_shift=0,
            against_three=0,
            raises=2,
            strong_point=40,
            privilege_raise=0.5,
            met_point=41,
            three_way_limit=1,
        ),
    ),
    "bold": (
        "Meets every rule a choice can reach: straddles half the time, sees nine straddles "
        "in ten, opens from 24 but follows 6 below Foster's points, bluffs three hands in a "
        "hundred, raises up to three times (in the closing round too) and goes all in on a "
        "strong hand one time in five.",
        Tendencies(
            straddle=0.5,
            see=0.9,
            open_point=24,
            point_shift=-6,
            against_three=32,
            bluff=0.03,
            raises=3,
            strong_point=36,
            privilege_raise=0.6,
            push=0.2,
        ),
    ),
    "table": (
        "The family's neutral member: Foster's thresholds, never straddles, raises a brelan "
        "once; its tendencies are set as table:straddle=0.3,bluff=0.1 (see --help).",
        Tendencies(),
    ),
}
"""The named players of the ``table`` family: each a sentence and its tendencies."""


POLICY_DESCRIPTIONS: Final[dict[str, str]] = {
    "simple": "Foster's Suggestions for Good Play as a rule of thumb: backs a point from 21 "
    "alone, 26 against one, 32 against two, never against three; backs and raises a brelan "
    "once; never straddles.",
    "cautious": "Backs only a brelan, or a point of 40 or more when nobody else is in; never "
    "raises or straddles.",
    "random": "A uniformly random legal action, with a uniformly random legal amount.",
    "strong": STRONG_SENTENCE,
} | {name: sentence for name, (sentence, _) in TABLE_PLAYERS.items()}
"""Each policy in a sentence (``--help``, the site and the reports name it)."""


POLICIES: Final[dict[str, Callable[[], Policy]]] = {
    "simple": SimplePolicy,
    "cautious": CautiousPolicy,
    "random": RandomPolicy,
    "strong": lambda: StrongPolicy(TablePolicy("advised", TABLE_PLAYERS["advised"][1])),
}


_WHOLE_RANGES: Final[dict[str, tuple[int, int]]] = {
    "open_point": (0, 99),
    "point_shift": (-99, 99),
    "against_three": (0, 99),
    "met_point": (0, 99),
    "raises": (0, 99),
    "strong_point": (0, 99),
    "call_all_in": (0, 1),
    "eldest_passes": (0, 1),
    "no_ace_alone": (0, 1),
    "three_way_limit": (0, 1),
    "buy_fourth": (0, 1),
}
"""The whole numbers each tendency that is not a chance may take (a point is below 99; 99
means never; 0 and 1 are no and yes)."""

_CHANCE_TEXT: Final = re.compile(r"(?:[01](?:\.[0-9]*)?|\.[0-9]+)")
_WHOLE_TEXT: Final = re.compile(r"-?[0-9]{1,3}")


def _tendency_value(name: str, key: str, text: str) -> float:
    """One tendency's value, written in ASCII digits and within its range, else one line
    saying what it takes."""
    if key in _CHANCES:
        if _CHANCE_TEXT.fullmatch(text) and 0 <= float(text) <= 1:
            return float(text)
        words = "a chance, from 0 to 1 (as 0.25, in ASCII digits)"
    else:
        low, high = _WHOLE_RANGES[key]
        if _WHOLE_TEXT.fullmatch(text) and low <= int(text) <= high:
            return int(text)
        words = (
            "0 or 1" if (low, high) == (0, 1) else f"a whole number from {low} to {high}"
        ) + " (in ASCII digits)"
    raise InputError(f"policy {name!r}: {key} is {words}, not {text!r}", value=name, has_value=True)


def _parse_tendencies(name: str, given: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for part in given.split(","):
        key, equals, text = part.partition("=")
        key = key.strip().replace("-", "_")
        if not equals or key not in TENDENCIES:
            raise InputError(
                f"policy {name!r}: {part.strip()!r} is not a tendency; give NAME:tendency=value,"
                f"... with tendencies {', '.join(TENDENCIES)}",
                value=name,
                has_value=True,
            )
        if key in values:
            raise InputError(
                f"policy {name!r}: {key} is set twice; set each tendency once",
                value=name,
                has_value=True,
            )
        values[key] = _tendency_value(name, key, text.strip())
    return values


def get_policy(name: str) -> Policy:
    """A policy by name: ``simple``, ``cautious``, ``random``, or a player of the ``table``
    family (``advised``, ``bold``, ``table``), whose tendencies may be set after a colon:
    ``bold:straddle=0.2,bluff=0``."""
    base, colon, given = name.partition(":")
    if base in TABLE_PLAYERS:
        tendencies = TABLE_PLAYERS[base][1]
        if colon:
            tendencies = tendencies.changed(_parse_tendencies(name, given))
        return TablePolicy(name, tendencies)
    if colon and base in POLICIES:
        raise InputError(
            f"policy {base!r} has no tendencies to set; those of {', '.join(TABLE_PLAYERS)} do",
            value=name,
            has_value=True,
        )
    try:
        return POLICIES[name]()
    except KeyError:
        known = ", ".join([*POLICIES, *TABLE_PLAYERS])
        raise InputError(
            f"unknown policy {name!r}{did_you_mean(name, [*POLICIES, *TABLE_PLAYERS])}; "
            f"the policies are {known}",
            value=name,
            has_value=True,
        ) from None


def describe_policy(name: str) -> str:
    """A policy in a sentence, with any tendencies set after its name."""
    base, colon, given = name.partition(":")
    sentence = POLICY_DESCRIPTIONS.get(base, "")
    return sentence + (f" Tendencies set: {given}." if colon else "")


def policy_help() -> str:
    """The ``--policy`` option's help: every policy in a sentence, and the tendencies."""
    named = " ".join(f"{name}: {sentence}" for name, sentence in POLICY_DESCRIPTIONS.items())
    tendencies = "; ".join(f"{key} ({words})" for key, words in TENDENCIES.items())
    return (
        f"The players' policy. {named} A player of the table family (advised, bold, table) "
        f"takes tendencies after a colon, as bold:straddle=0.2,bluff=0: {tendencies}."
    )


def policy_names() -> list[str]:
    """Every named policy, the simple ones first."""
    return [*POLICIES, *TABLE_PLAYERS]


def play(
    deal: Deal,
    policies: Mapping[str, Policy] | Policy,
    rng: Draws,
    trace: list[Any] | None = None,
    before_step: Callable[[Deal], None] | None = None,
) -> list[Action]:
    """Play the deal on to its end (from wherever it stands); returns the actions taken, in
    order. ``trace``, where given, receives at each step the choices offered, then the
    action taken (a sweep compares two traces to tell whether a rule changed an offered
    action). ``before_step``, where given, is handed the deal before each step (a sweep
    keeps a copy of the base's deal there, to take a row's play up from it)."""
    taken: list[Action] = []
    # One policy for every player is told from a mapping by its method, looked up once
    # (``isinstance(policies, Mapping)`` is an ABC's check in Python, once a deal).
    one = None if isinstance(policies, dict) else getattr(policies, "choose", None)
    choose: Callable[[View, Draws], Action]
    if one is None:
        table = cast("Mapping[str, Policy]", policies)
        choose = lambda view, rng: table[view.player].choose(view, rng)  # noqa: E731
    else:
        choose = one
    over = Phase.OVER
    while deal.phase is not over:
        if before_step is not None:
            before_step(deal)
        view = view_of(deal)
        action = choose(view, rng)
        if trace is not None:
            trace.append(view.legal)
            trace.append(action)
        deal.apply(action)  # a direct call compiled; a bound method kept would be a Python call
        taken.append(action)
    return taken
