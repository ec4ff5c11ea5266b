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

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from ..play.actions import ACTION_WORDS, Action, LegalAction
from ..play.deal import CLOSING, Deal, Phase
from ..play.dealing import below
from ..play.events import Act, Event
from ..play.hands import Kind, classify
from ..play.showdown import rank_values
from ..rules.cards import Card
from ..rules.errors import InputError
from ..rules.nearest import did_you_mean
from ..rules.profile import Rules

_SEEING, _STRADDLE = Phase.SEEING, Phase.STRADDLE
_POINT = Kind.POINT  # module names: an Enum member read off its class costs a lookup


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

    def choose(self, view: View, rng: random.Random) -> Action: ...


# -- what a hand is worth to its holder ---------------------------------------------------


def own_point(
    hand: Sequence[Card], retourne: Card, rules: Rules, values: Sequence[int] | None = None
) -> tuple[int, int]:
    """The best suit a player can count for sure: his cards of it plus the retourne if of
    that suit. Returns (pips, cards of that suit in hand). ``values``: the point value by
    rank index, if already at hand."""
    values = values if values is not None else rank_values(rules)
    pips = [0, 0, 0, 0]
    count = [0, 0, 0, 0]
    for card in hand:
        pips[card & 3] += values[card >> 2]
        count[card & 3] += 1
    turned = retourne & 3
    if count[turned]:
        pips[turned] += values[retourne >> 2]
    return max((pips[s], count[s]) for s in range(4) if count[s])


def _amount(legal: LegalAction, wanted: int) -> int:
    low = legal.low if legal.low is not None else 0
    high = legal.high if legal.high is not None else low
    amount = max(low, min(high, wanted))
    if legal.step:  # only whole steps above the least (Pierer's raises)
        amount = max(low, amount - (amount - low) % legal.step)
    return amount


_SAFE = ("no-more", "pass", "fold", "decline")
_FALLBACKS = {
    "raise": ("raise", "call", "no-more", *_SAFE),
    "bet": ("bet", "pass", *_SAFE),
    "call": ("call", "all-in", "no-more", *_SAFE),
}
_FALLBACKS |= {word: (word, *_SAFE) for word in ACTION_WORDS if word not in _FALLBACKS}


_SAID: dict[tuple[str, str], Action] = {}


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

SIMPLE_THRESHOLDS = (21, 26, 32)
"""The least point the simple policy backs with 0, 1 or 2 other players in; with 3, none.
Foster gives the first and calls 31 "doubtful" against two; 26 is our midpoint."""


_HANDS_KEPT = 64
"""How many hands a policy remembers before it forgets them all (a deal deals at most six
and a draw a few more)."""


class _HandCache:
    """What a hand is worth to its holder, remembered for the deal: a player's hand does
    not change while he bets, and he decides several times with it.

    Only the last few dozen hands are kept: a hand seldom recurs in another deal, and a
    memory that grew over a whole run kept every entry alive for the garbage collector to
    walk again and again (measured: a quarter of the policy's cost per deal)."""

    def __init__(self) -> None:
        self._worth: dict[tuple[tuple[Card, ...], Card, int], tuple[Kind, int, int, int]] = {}
        self._values: dict[int, list[int]] = {}

    def worth(self, view: View) -> tuple[Kind, int, int, int]:
        """(kind, own point, cards of that suit, best rank index in hand)."""
        key = (view.hand, view.retourne, id(view.rules))
        found = self._worth.get(key)
        if found is None:
            if len(self._worth) >= _HANDS_KEPT:
                self._worth.clear()
            rules = view.rules
            values = self._values.get(id(rules))
            if values is None:
                values = self._values[id(rules)] = rank_values(rules)
            kind = classify(view.hand, view.retourne, rules.hands).kind
            found = self._worth[key] = (kind, *_point_and_top(view.hand, view.retourne, values))
        return found


def _point_and_top(
    hand: Sequence[Card], retourne: Card, values: Sequence[int]
) -> tuple[int, int, int]:
    """:func:`own_point` and the best rank index in hand, in one pass over the cards (made
    for every new hand a policy meets: several per deal)."""
    pips = [0, 0, 0, 0]
    count = [0, 0, 0, 0]
    top = 99
    for card in hand:
        suit, rank = card & 3, card >> 2
        pips[suit] += values[rank]
        count[suit] += 1
        if rank < top:
            top = rank
    turned = retourne & 3
    if count[turned]:
        pips[turned] += values[retourne >> 2]
    best_pips, best_count = -1, 0
    for suit in (0, 1, 2, 3):
        cards = count[suit]
        if cards and (pips[suit] > best_pips or (pips[suit] == best_pips and cards > best_count)):
            best_pips, best_count = pips[suit], cards
    return best_pips, best_count, top


class SimplePolicy(_HandCache):
    """Foster's "Suggestions for Good Play", reduced to a rule of thumb (see the module)."""

    name = "simple"
    needs_rng = False

    def choose(self, view: View, rng: random.Random) -> Action:
        found = self._worth.get((view.hand, view.retourne, id(view.rules)))
        kind, pips, cards, top = found if found is not None else self.worth(view)
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

    def choose(self, view: View, rng: random.Random) -> Action:
        found = self._worth.get((view.hand, view.retourne, id(view.rules)))
        kind, pips, _, _ = found if found is not None else self.worth(view)
        if kind is not _POINT:
            return _back(view, strong=False, size=0)
        if pips >= 40 and view.others_in() == 0:
            return _back(view, strong=False, size=0)
        return _lay_down(view)


class RandomPolicy:
    """Any legal action, uniformly; bets and raises of a uniformly random legal amount."""

    name = "random"
    needs_rng = True

    def choose(self, view: View, rng: random.Random) -> Action:
        offered = view.legal
        legal = offered[below(rng, len(offered))]  # rng.choice(offered), draw for draw
        if legal.kind in ("bet", "raise"):
            assert legal.low is not None
            high = legal.high or legal.low
            return Action(
                view.player, legal.kind, rng.randrange(legal.low, high + 1, legal.step or 1)
            )
        return _said(view.player, legal.kind)


POLICIES: dict[str, Callable[[], Policy]] = {
    "simple": SimplePolicy,
    "cautious": CautiousPolicy,
    "random": RandomPolicy,
}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]()
    except KeyError:
        raise InputError(
            f"unknown policy {name!r}{did_you_mean(name, POLICIES)}; "
            f"the policies are {', '.join(POLICIES)}",
            value=name,
            has_value=True,
        ) from None


def play(deal: Deal, policies: Mapping[str, Policy] | Policy, rng: random.Random) -> list[Action]:
    """Play the deal to its end; returns the actions taken, in order."""
    taken: list[Action] = []
    choose: Callable[[View, random.Random], Action]
    if isinstance(policies, Mapping):
        table = policies
        choose = lambda view, rng: table[view.player].choose(view, rng)  # noqa: E731
    else:
        choose = policies.choose  # one policy for every player: its method, looked up once
    over, act = Phase.OVER, deal.apply
    while deal.phase is not over:
        action = choose(view_of(deal), rng)
        act(action)
        taken.append(action)
    return taken
