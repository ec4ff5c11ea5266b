"""Many seeded deals played by betting policies, and what they tell about a rule system.

Deal ``i`` of a run with seed ``S`` is shuffled with its own seed, :func:`deal_seed` of the
pair (``S``, ``i``): 62 bits of a SHA-256 hash of both, so two seeds share no deal and a
deal is fixed by its number alone (a run split over several processes gives exactly the
numbers of a run in one). Its policies draw from their own generator, seeded from the same
number. Every deal starts with the variant's caves, the last player dealing; seats are
reported by position relative to that dealer (1 is the dealer's right, the first to speak;
the dealer is last).

No counter vanishes: where a deal is void its carried pool is played for, as at a table,
in the deals that follow it (:func:`play_one`): the deal passes on, the caves are those the
void deal left, and each of those deals is shuffled from the stream of the pair (``S``,
``i``) too. Each seat's net over deal ``i`` and the deals that play on its pool is what the
report calls its net per deal. A chain of void deals that has not ended after
:data:`MAX_PLAYED_ON` deals is cut: under some rules it never ends (a pool carried beyond
every cave that nobody may open for), so it is counted as its own figure, the chains cut
and the counters still carried at the cut, never as the seats' losses: over a cut chain
each seat's net leaves out what it put into the pool still carried (every deal of such a
chain is void, so that is all it lost). The seats' nets sum to zero, and what they put
into the pools cut sums to the counters carried at the cut.

Counters are integers, so the tallies are exact integer sums and merge in any order; only
the reported rates, means and 95% confidence intervals are floats (Wilson intervals for
rates, normal intervals for means).
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import signal
import sys
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Any, Final

from ..play.deal import Deal, new_deal
from ..play.dealing import Draws
from ..play.events import (
    Act,
    Bonus,
    CarriedIn,
    Dealt,
    Decline,
    DrawBegins,
    NobodyOpens,
    Privilege,
    Showdown,
    Straddle,
    WonByPoint,
    WonUncontested,
)
from ..play.hands import Kind
from ..play.seeding import POLICY, reseeded_by_text, seeded_by_text
from ..rules.cards import RANKS
from ..rules.variant import Variant
from .intervals import judge, mean_interval
from .policies import Policy, get_policy, play

Z95: Final = 1.959963984540054
CLASSES: Final = ("carré", "brelan", "favori", "mistigri", "point", "uncontested", "void")
"""What decides a deal's main pool: a kind of brelan at the showdown, the point, no
showdown at all (one player left), or nobody opening."""

_KIND_CLASS: Final = {
    Kind.CARRE: "carré",
    Kind.BRELAN: "brelan",
    Kind.FAVORI: "favori",
    Kind.MISTIGRI: "mistigri",
    Kind.POINT: "point",
}


@dataclass
class Moments:
    """Integer count, sum and sum of squares, the values that are not 0 and the largest
    magnitude (whether an interval can be given: :mod:`intervals`): exact, and mergeable
    in any order."""

    n: int = 0
    total: int = 0
    squares: int = 0
    nonzero: int = 0
    largest: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        if value != 0:
            self.total += value
            self.squares += value * value
            self.nonzero += 1
            size = value if value > 0 else -value
            if size > self.largest:
                self.largest = size

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        self.nonzero += other.nonzero
        self.largest = max(self.largest, other.largest)

    def summary(self) -> dict[str, Any]:
        """The mean with its normal 95% interval, and ``interval``: ``normal``,
        ``declined`` (too few values not 0, or one too large for the interval to hold:
        :func:`intervals.judge`; ``nonzero`` and ``largest`` say how many and how large) or
        ``unchanged`` (every value 0)."""
        if self.n == 0:
            return {"n": 0, "mean": None, "ci95": None}
        mean, low, high = mean_interval(self.total, self.squares, self.n)
        judged = judge(self.total, self.squares, self.n, self.nonzero, self.largest)
        return {
            "n": self.n,
            "mean": _r(mean),
            "ci95": [_r(low), _r(high)],
            "interval": judged,
            "nonzero": self.nonzero,
            "largest": self.largest,
        }


def _r(x: float) -> float:
    return round(x, 6)


def wilson(hits: int, n: int) -> dict[str, Any]:
    """A rate with its 95% Wilson score interval."""
    if n == 0:
        return {"count": 0, "n": 0, "rate": None, "ci95": None}
    p = hits / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return {"count": hits, "n": n, "rate": _r(p), "ci95": [_r(centre - half), _r(centre + half)]}


@dataclass
class Tally:
    """Everything counted over a run of deals."""

    deals: int = 0
    decided_by: Counter[str] = field(default_factory=Counter)
    pot: Moments = field(default_factory=Moments)
    """The pools awarded in a deal, over deals that are not void."""
    bonus_flow: Moments = field(default_factory=Moments)
    """Counters paid for brelans in a deal, over every deal."""
    seat_net: list[Moments] = field(default_factory=list)
    point_deals: int = 0
    point_suit_is_retourne: int = 0
    hands_dealt: int = 0
    dealt: Counter[str] = field(default_factory=Counter)
    """Hands as dealt (before any betting): simple brelan, carré, favori (a pair of the
    retourne's rank)."""
    played_on: int = 0
    """Deals played on a void deal's carried pool (beyond the ``deals`` counted)."""
    carried: Moments = field(default_factory=Moments)
    """What is still carried at the cut after a deal and those played on its pool (0 but
    where the chain was cut)."""
    cut: int = 0
    """Deals whose chain of void deals was cut unended after :data:`MAX_PLAYED_ON`."""
    pools: Moments = field(default_factory=Moments)
    """The pools awarded over a deal and those played on its carried pool (a pool won
    after void deals counts once, carried counters included; a cut chain counts 0)."""
    met: Counter[str] = field(default_factory=Counter)
    """In how many deals each situation a rule governs arose (:data:`SITUATIONS`)."""

    def merge(self, other: Tally) -> None:
        self.deals += other.deals
        self.decided_by.update(other.decided_by)
        self.pot.merge(other.pot)
        self.bonus_flow.merge(other.bonus_flow)
        if not self.seat_net:
            self.seat_net = [Moments() for _ in other.seat_net]
        for mine, theirs in zip(self.seat_net, other.seat_net, strict=True):
            mine.merge(theirs)
        self.point_deals += other.point_deals
        self.point_suit_is_retourne += other.point_suit_is_retourne
        self.hands_dealt += other.hands_dealt
        self.dealt.update(other.dealt)
        self.played_on += other.played_on
        self.carried.merge(other.carried)
        self.cut += other.cut
        self.pools.merge(other.pools)
        self.met.update(other.met)


def player_names(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


def _count_dealt(deal: Deal, tally: Tally) -> None:
    turned = deal.retourne >> 2  # the rank index (rules.cards: rank * 4 + suit)
    dealt = tally.dealt
    for hand in deal.hands:
        counts = [0] * len(RANKS)
        three = -1
        for card in hand:
            rank = card >> 2
            counts[rank] = counts[rank] + 1
            if counts[rank] == 3:
                # No more than one rank can be held three times in a hand of three to five.
                three = rank
        if three >= 0:
            dealt["carre" if three == turned else "simple_brelan"] += 1
        elif counts[turned] == 2:
            dealt["favori"] += 1
    tally.hands_dealt += len(deal.hands)


def decided_by(deal: Deal) -> tuple[str, bool | None]:
    """The class that decided the main pool, and (for the point won by a suit) whether the
    winning suit is the retourne's (``None`` where no suit won it: a whole hand's pips):
    read from the outcome, which records why each pool was won."""
    outcome = deal.outcome
    if outcome.status != "settled":
        return str(outcome.status), None
    main = outcome.pots[0]
    value = main.winner_value
    assert value is not None  # a showdown valued every hand shown
    decision = main.decision
    if value.kind is not Kind.POINT or not isinstance(decision, WonByPoint):
        return _KIND_CLASS[value.kind], None
    if decision.suit < 0:  # NO_SUIT: the whole hand's pips counted
        return "point", None
    return "point", decision.suit == deal.retourne & 3


def deal_seed(seed: int, i: int, after: int = 0) -> int:
    """The shuffle seed of deal ``i`` of a run with seed ``seed`` (``after`` > 0: of the
    ``after``-th deal that plays on its carried pool): 62 bits of the SHA-256 of the
    numbers, so that no two pairs share a stream. A scenario or a session file given this
    number as its ``seed`` deals the same cards."""
    text = f"bouillotte:{seed}:{i}" + (f":{after}" if after else "")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


MAX_PLAYED_ON: Final = 30
"""The most deals played on a void deal's carried pool before the chain is cut and what
is still carried is reported apart. Thirty void deals in a row by chance alone are out of
reach (under 0.6**30 with the most void deals measured); a chain that long is one that
cannot end: a pool that nobody may open for (``betting.opening_short_of_the_pot``
``cannot-open`` with an opening at the pot)."""


class Played:
    """Deal ``i`` of a run, with the deals that played on its carried pool.

    ``deals[0]`` is deal ``i`` itself (what decided it, its pool, its bonuses and hands as
    dealt are read from it); ``net`` is each seat's net over all of them, by position
    relative to the first dealer; ``carried`` is what is still carried after the last,
    0 unless the chain was cut unended (``cut``): then ``net`` leaves out what each seat
    put into the pool still carried, which is ``stakes`` (summing to ``carried``)."""

    __slots__ = ("carried", "deals", "net", "stakes")

    def __init__(
        self, deals: list[Deal], net: list[int], carried: int, stakes: list[int] | None = None
    ) -> None:
        self.deals = deals
        self.net = net
        self.carried = carried
        self.stakes = stakes

    @property
    def cut(self) -> bool:
        """Whether the chain of void deals was cut unended."""
        return self.carried != 0

    @property
    def first(self) -> Deal:
        return self.deals[0]


SITUATIONS: Final[dict[str, str]] = {
    "straddle-offered": "a straddle was offered",
    "straddled": "somebody straddled",
    "straddle-refused": "a straddle was refused after another",
    "straddle-seen": "a straddle was seen or refused before the deal",
    "passed": "somebody passed before the opening",
    "raised": "somebody raised",
    "re-raised": "a raise was raised again",
    "all-in": "somebody went all in (a sight)",
    "closing": "the betting reached its closing round",
    "draw": "the players drew cards",
    "void": "nobody opened (a void deal)",
    "carried-in": "a carried pool was played for",
    "uncontested": "one player was left (no showdown)",
    "showdown": "hands were shown",
    "brelan-shown": "a brelan was shown",
    "point": "the point decided a pool",
    "side-pools": "a side pool was formed",
    "bonus": "a bonus was paid",
}
"""The situations a deal can reach, each governed by some rules (:data:`RULE_SITUATIONS`)."""

RULE_SITUATIONS: Final[dict[str, str]] = {
    "forced_bets.straddles": "straddle-offered",
    "forced_bets.straddle_amount": "straddled",
    "forced_bets.straddle_limit": "straddled",
    "forced_bets.straddling_ends_at_first_refusal": "straddle-refused",
    "forced_bets.straddle_must_be_seen": "straddled",
    "betting.pass_before_opening": "passed",
    "betting.minimum_raise": "raised",
    "betting.raises": "raised",
    "betting.all_in_may_open_or_raise": "all-in",
    "betting.return_uncalled_excess": "all-in",
    "betting.closing": "closing",
    "betting.two_players_call_ends": "closing",
    "betting.two_players_betting": "all-in",
    "betting.privilege_after_the_word": "closing",
    "table.draw": "draw",
    "void_deals.nobody_opens": "void",
    "void_deals.nobody_opens_after_straddles": "straddled",
    "void_deals.void_levy": "void",
    "void_deals.levy_and_next_blind": "carried-in",
    "void_deals.carried_pool_stake": "carried-in",
    "point.folded_hands_in_side_pools": "side-pools",
    "point.side_pots_by_winning_suit": "side-pools",
    "bonuses.folded_players_pay": "bonus",
    "bonuses.claimed_without_showdown": "brelan-shown",
    "bonuses.paid_from": "bonus",
}
"""For each rule that acts only in some situation, that situation: ``simulate`` reports in
how many deals each was met (a rule whose situation never arises cannot act)."""


def situations_met(deal: Deal) -> set[str]:
    """The situations (:data:`SITUATIONS`) deal ``deal`` reached, read from its log."""
    met: set[str] = set()
    dealt = False
    raises = 0
    straddled = False
    for event in deal.events:
        if isinstance(event, Dealt):
            dealt = True
        elif isinstance(event, Straddle):
            met.add("straddle-offered")
            met.add("straddled")
            straddled = True
        elif isinstance(event, Decline):
            met.add("straddle-offered")
            if straddled:
                met.add("straddle-refused")
        elif isinstance(event, Act):
            word = event.action
            if not dealt:
                met.add("straddle-seen")
            elif word == "pass":
                met.add("passed")
            elif word == "raise":
                raises += 1
                met.add("raised")
                if raises > 1:
                    met.add("re-raised")
            elif word == "no-more":
                met.add("closing")
            if event.all_in or event.sight or word == "all-in":
                met.add("all-in")
        elif isinstance(event, Privilege):
            met.add("closing")
        elif isinstance(event, DrawBegins):
            met.add("draw")
        elif isinstance(event, NobodyOpens):
            met.add("void")
        elif isinstance(event, CarriedIn):
            met.add("carried-in")
        elif isinstance(event, Showdown):
            met.add("showdown")
            if any(value.kind is not Kind.POINT for _, value in event.hands):
                met.add("brelan-shown")
        elif isinstance(event, Bonus):
            met.add("bonus")
    pots = deal.outcome.pots
    for pot in pots:
        decision = pot.decision
        if isinstance(decision, WonUncontested) and decision.why != "":
            met.add("uncontested")
        elif isinstance(decision, WonByPoint):
            met.add("point")
    if len(pots) > 1:
        met.add("side-pools")
    return met


def play_one(
    variant: Variant,
    policy: Policy,
    names: Sequence[str],
    seed: int,
    i: int,
    traces: list[list[Any]] | None = None,
    starts: DealStarts | None = None,
    start: ChainPoint | None = None,
    mark: Callable[[ChainPoint], None] | None = None,
) -> Played:
    """Deal ``i`` of a run with seed ``seed``, played to its end by ``policy``, and where it
    is void the deals that play on its pool: the same cards whatever the variant (the
    shuffle depends on ``seed`` and ``i`` alone), which is what lets a sweep compare rules
    on common random numbers. ``traces``, where given, receives each deal's trace (every
    offered choice and the action taken, :func:`policies.play`). ``starts``, where given,
    keeps each deal's shuffle seed and the words its policy's generator drew, for a
    caller that plays the same deal again (a sweep, under every rule set): the same cards
    and the same draws, for less (:class:`DealStarts`).

    ``mark``, where given, is handed the chain's state before each of its deals
    (:class:`ChainPoint`) and before each step of each deal (:class:`StepPoint`);
    ``start``, one of those states, plays the chain on from there instead of from deal
    ``i`` itself (its deals before it are taken as they were played; ``traces`` must
    already hold their traces, and for a step the trace of its deal so far). A sweep takes
    up a rule set's play of a chain where the base's stood before it first read a rule the
    set changes: everything before is played the same under both."""
    step = 1 if variant.rules.table.direction == "right" else -1
    cave = variant.rules.stakes.cave
    if start is None:
        dealer = names[-1]
        caves: dict[str, int] | None = None
        carried, after = 0, 0
        deals: list[Deal] = []
        net = [0] * len(names)
    else:
        dealer, caves, carried, after = start.dealer, start.caves, start.carried, start.after
        deals = list(start.deals)
        net = list(start.net)
    order: list[int] = list(deals[0].order) if deals else []
    taken_up = start if isinstance(start, StepPoint) else None
    while True:
        number = deal_seed(seed, i, after) if starts is None else starts.seed(seed, i, after)
        # Seeding from a string hashes it: made only for a policy that draws from it.
        # Nothing keeps the generator past its deal unless a mark is taken: then a new one.
        rng = policy_rng(number, starts, own=mark is None) if policy.needs_rng else _NO_DRAWS
        trace: list[Any] | None = None
        chain: ChainPoint | None = None
        if taken_up is not None:  # within the deal: its copy, its draws and trace so far
            deal = taken_up.deal.copy(variant)
            if isinstance(rng, ReplayedDraws):
                rng.at = taken_up.drawn
            if traces is not None:
                trace = traces.pop()
            chain, taken_up = taken_up, None
        else:
            if mark is not None:
                chain = ChainPoint(after, dealer, caves, carried, tuple(deals), tuple(net))
                mark(chain)
            deal = new_deal(variant, names, dealer, caves, seed=number, carried_in=carried)
            if traces is not None:
                trace = []
        marks = None
        if mark is not None and chain is not None:
            marks = _StepMarks(chain, mark, rng, trace)
        play(deal, policy, rng, trace, marks)
        if traces is not None and trace is not None:
            traces.append(trace)
        if not deals:
            order = list(deal.order)
        deals.append(deal)
        outcome = deal.outcome
        players = outcome.players
        for position, seat in enumerate(order):
            net[position] = net[position] + players[names[seat]].net
        carried = outcome.carry if outcome.status == "void" else 0
        if not carried:
            return Played(deals, net, 0)
        if after >= MAX_PLAYED_ON:
            return _cut(deals, net, carried)
        after += 1
        dealer = names[(names.index(dealer) + step) % len(names)]
        # The caves the void deal left; one emptied is bought anew, as between deals.
        caves = {p: players[p].cave or cave for p in names}


def _cut(deals: list[Deal], net: list[int], carried: int) -> Played:
    """A chain cut unended: every deal of it was void, so all each seat lost over it is
    in the pool still carried. That pool is reported apart, not as the seats' losses: each
    seat's net leaves out its stake in it (``Played.stakes``)."""
    stakes = [-n for n in net]
    assert sum(stakes) == carried  # counters are conserved: the pool is what they put in
    return Played(deals, [n + s for n, s in zip(net, stakes, strict=True)], carried, stakes)


class ChainPoint:
    """Where the chain of deal ``i`` of a run stood before one of its deals (``after``: 0
    for deal ``i`` itself, then each deal played on its carried pool): who deals, the caves
    (``None``: the variant's), what is carried, the deals played so far and each seat's net
    over them (:func:`play_one`)."""

    __slots__ = ("after", "carried", "caves", "dealer", "deals", "net")

    def __init__(
        self,
        after: int,
        dealer: str,
        caves: dict[str, int] | None,
        carried: int,
        deals: tuple[Deal, ...],
        net: tuple[int, ...],
    ) -> None:
        self.after = after
        self.dealer = dealer
        self.caves = caves
        self.carried = carried
        self.deals = deals
        self.net = net


class StepPoint(ChainPoint):
    """Where the chain stood before one step of its deal ``after``: the chain's state before
    that deal, the deal as it stood (``deal``), how many words the policy's generator had
    drawn in it (``drawn``) and how long its trace was (``traced``). The ``mark`` of
    :func:`play_one` is handed the deal being played: a caller that keeps the point keeps a
    copy of it (:meth:`Deal.copy`), and a ``start`` at the point plays on from a copy of
    that."""

    __slots__ = ("deal", "drawn", "traced")

    def __init__(self, chain: ChainPoint, deal: Deal, drawn: int, traced: int) -> None:
        super().__init__(
            chain.after, chain.dealer, chain.caves, chain.carried, chain.deals, chain.net
        )
        self.deal = deal
        self.drawn = drawn
        self.traced = traced


class _StepMarks:
    """:func:`play_one`'s ``mark`` called before each step of a deal, with the step's
    :class:`StepPoint`."""

    __slots__ = ("chain", "mark", "rng", "trace")

    def __init__(
        self,
        chain: ChainPoint,
        mark: Callable[[ChainPoint], None],
        rng: Draws,
        trace: list[Any] | None,
    ) -> None:
        self.chain = chain
        self.mark = mark
        self.rng = rng
        self.trace = trace

    def __call__(self, deal: Deal) -> None:
        rng, trace = self.rng, self.trace
        drawn = rng.at if isinstance(rng, ReplayedDraws) else 0
        self.mark(StepPoint(self.chain, deal, drawn, 0 if trace is None else len(trace)))


_NO_DRAWS: Final[Draws] = random.Random(0)
"""The generator handed to a policy that never draws (``Policy.needs_rng``)."""


class DealStarts:
    """What a caller that plays the same deals again (a sweep: each deal under every rule
    set) keeps of their first play: each deal's shuffle seed (:func:`deal_seed`, a
    SHA-256) and the words its policy's generator gave (:class:`Words`), so that the next
    play neither hashes nor seeds anew. The same numbers and the same draws; :meth:`clear`
    it between deals, so that it stays small."""

    __slots__ = ("numbers", "words")

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, int, int], int] = {}
        self.words: dict[int, Words] = {}

    def seed(self, seed: int, i: int, after: int) -> int:
        """:func:`deal_seed` of the same numbers, worked out once."""
        key = (seed, i, after)
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = deal_seed(seed, i, after)
        return number

    def clear(self) -> None:
        self.numbers.clear()
        self.words.clear()


class Words:
    """The 32-bit words a seeded generator gives, one by one (``getrandbits(32)``), kept
    for every play of the same deal: drawn from the generator only the first time a play
    reaches them."""

    __slots__ = ("drawn", "source")

    def __init__(self, source: random.Random) -> None:
        self.source = source
        self.drawn: list[int] = []


_LITTLE_ENDIAN: Final = sys.byteorder == "little"


class ReplayedDraws:
    """A policy's generator for one play of a deal: what ``random.Random`` would draw from
    the state ``words`` started in, made of the same words in the same order, so that
    every play of the deal draws exactly what a freshly seeded generator draws, without
    seeding one or copying its 624-word state at every play.

    ``random()`` and ``getrandbits(k)`` are CPython's own arithmetic over the words
    (``genrand_res53``: two words, 27 and 26 bits; ``getrandbits``: one word shifted, or
    ``k / 32`` words rounded up, least significant first on a little-endian machine and
    the last one shifted); tests/test_replayed_draws.py checks every draw against
    ``random.Random``'s."""

    __slots__ = ("at", "words")

    def __init__(self, words: Words) -> None:
        self.words = words
        self.at = 0

    def _word(self) -> int:
        at = self.at
        drawn = self.words.drawn
        if at == len(drawn):
            drawn.append(self.words.source.getrandbits(32))
        self.at = at + 1
        return drawn[at]

    def random(self) -> float:
        a = self._word() >> 5
        b = self._word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int, /) -> int:
        if k <= 32:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0 if k == 0 else self._word() >> (32 - k)
        words = (k - 1) // 32 + 1
        result = 0
        for i in range(words):
            word = self._word()
            if k < 32:
                word >>= 32 - k
            k -= 32
            result |= word << (32 * (i if _LITTLE_ENDIAN else words - 1 - i))
        return result


def policy_rng(number: int, starts: DealStarts | None = None, *, own: bool = False) -> Draws:
    """The policy's generator for the deal shuffled with seed ``number``: seeded from
    ``"{number}:policy"``, or, where ``starts`` keeps the deal's words, a replay of that
    seeding's draws (:class:`ReplayedDraws`: cheaper than seeding, hashing the string and
    then the generator's initialisation, or than copying a state). ``own``: the thread's
    own policy generator seeded again, not a new one (``seeding.reseeded``), for a caller
    done with it before it asks for the next deal's."""
    if starts is None:
        text = f"{number}:policy"
        return reseeded_by_text(text, POLICY) if own else seeded_by_text(text)
    kept = starts.words
    words = kept.get(number)
    if words is None:
        words = kept[number] = Words(seeded_by_text(f"{number}:policy"))
    return ReplayedDraws(words)


def play_range(variant: Variant, policy_name: str, seed: int, start: int, stop: int) -> Tally:
    """Play deals ``start`` to ``stop - 1`` of a run and count them."""
    names = player_names(variant.players)
    policy: Policy = get_policy(policy_name)
    tally = Tally(seat_net=[Moments() for _ in names])
    # Counted in plain dicts, added to the tally's Counters once at the end: compiled, a
    # dict of ints is read and written natively, a Counter (a Python class) is not.
    decided_count: dict[str, int] = {}
    met_count: dict[str, int] = {}
    seat_net = tally.seat_net
    for i in range(start, stop):
        played = play_one(variant, policy, names, seed, i)
        deal = played.first
        _count_dealt(deal, tally)
        outcome = deal.outcome
        tally.deals += 1
        tally.played_on += len(played.deals) - 1
        decided, retourne_suit = decided_by(deal)
        decided_count[decided] = decided_count.get(decided, 0) + 1
        if retourne_suit is not None:
            tally.point_deals += 1
            tally.point_suit_is_retourne += int(retourne_suit)
        if outcome.status != "void":
            tally.pot.add(sum([p.amount for p in outcome.pots]))
        tally.bonus_flow.add(sum([b.amount for b in outcome.bonuses]))
        tally.carried.add(played.carried)
        if played.carried:
            tally.cut += 1
        tally.pools.add(pools_awarded(played))
        net = played.net
        for position in range(len(seat_net)):
            seat_net[position].add(net[position])
        met: set[str] = set()
        for one in played.deals:
            met.update(situations_met(one))
        for situation in met:
            met_count[situation] = met_count.get(situation, 0) + 1
    tally.decided_by.update(decided_count)
    tally.met.update(met_count)
    return tally


def pools_awarded(played: Played) -> int:
    """The counters in the pools awarded over deal ``i`` and the deals played on its
    carried pool (void deals award none; a pool won after void deals counts once, its
    carried counters included)."""
    total = 0
    for deal in played.deals:
        outcome = deal.outcome
        if outcome.status != "void":
            for pot in outcome.pots:
                total += pot.amount
    return total


def _chunks(deals: int, jobs: int) -> list[tuple[int, int]]:
    """The deals cut into runs for one process (a hundredth each, for the progress) or for
    workers: about fifty per worker, so that the bar moves and the workers end together,
    of 250 to 2,000 deals, so that a chunk's overhead (a few milliseconds) stays small."""
    if jobs <= 1:
        size = max(500, deals // 100)
    else:
        size = min(2000, max(250, math.ceil(deals / (jobs * 50))))
    return [(start, min(start + size, deals)) for start in range(0, deals, size)]


def simulate(
    variant: Variant,
    deals: int,
    seed: int,
    policy: str = "simple",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``deals`` seeded deals; ``progress`` is called with the number of deals done."""
    get_policy(policy)  # an unknown policy is an input error before any work starts
    total = Tally(seat_net=[Moments() for _ in range(variant.players)])
    chunks = _chunks(deals, jobs)
    if jobs <= 1:
        for start, stop in chunks:
            total.merge(play_range(variant, policy, seed, start, stop))
            if progress:
                progress(stop - start)
        return total
    with worker_pool(jobs, _start_simulation, (variant, policy, seed)) as pool:
        for (start, stop), tally in zip(chunks, pool.imap(_play_chunk, chunks), strict=True):
            total.merge(tally)
            if progress:
                progress(stop - start)
    return total


@contextmanager
def worker_pool(
    jobs: int,
    setup: Callable[..., None] | None = None,
    setup_args: tuple[Any, ...] = (),
) -> Iterator[Pool]:
    """``jobs`` worker processes that no Ctrl-C leaves behind, each first running
    ``setup(*setup_args)`` where given (to receive once what every task shares).

    Workers ignore Ctrl-C: this process catches it and ends them at once (terminate),
    rather than waiting for every chunk already queued.
    """
    pool = multiprocessing.Pool(jobs, initializer=_start_worker, initargs=(setup, setup_args))
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _start_worker(setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*setup_args)


_RUN: tuple[Variant, str, int] | None = None
"""In a simulation's worker: the variant, policy and seed every chunk shares, received
once when the worker starts rather than with each chunk."""


def _start_simulation(variant: Variant, policy: str, seed: int) -> None:
    global _RUN
    _RUN = (variant, policy, seed)


def _play_chunk(bounds: tuple[int, int]) -> Tally:
    assert _RUN is not None, "a simulation worker plays only after _start_simulation"
    variant, policy, seed = _RUN
    return play_range(variant, policy, seed, *bounds)


def report(variant: Variant, tally: Tally, seed: int, policy: str) -> dict[str, Any]:
    """The statistics of a run, as JSON data."""
    n = tally.deals
    hands = variant.rules.hands
    absent = {"favori": hands.favori == "none", "mistigri": not hands.mistigri}
    classes = [c for c in CLASSES if not absent.get(c, False) or tally.decided_by[c]]
    return {
        "variant": variant.id,
        "policy": policy,
        "seed": seed,
        "deals": n,
        "decided_by": {c: wilson(tally.decided_by[c], n) for c in classes},
        "average_pot": tally.pot.summary(),
        "bonus_flow_per_deal": tally.bonus_flow.summary(),
        "seat_net_per_deal": {
            str(position + 1): moments.summary() for position, moments in enumerate(tally.seat_net)
        },
        "still_carried_per_deal": tally.carried.summary(),
        "chains_cut": chains_cut(tally.cut, tally.carried.total, n),
        "pool_per_deal": tally.pools.summary(),
        "deals_played_on_carried_pools": tally.played_on,
        "situations_met": {key: wilson(tally.met[key], n) for key in SITUATIONS},
        "point_suit_is_retourne": wilson(tally.point_suit_is_retourne, tally.point_deals)
        | (
            {"cannot_occur": NO_WINNING_SUIT}
            if variant.rules.point.counted_cards == "whole-hand"
            else {}
        ),
        "dealt_per_hand": {
            key: wilson(tally.dealt[key], tally.hands_dealt)
            for key in ("simple_brelan", "carre", "favori")
        },
    }


def chains_cut(cut: int, carried: int, deals: int) -> dict[str, Any]:
    """The chains of void deals cut unended, as their own figure: how many (a rate of the
    deals), the counters still carried at the cut (in all), and whether the rules stall."""
    return {
        **wilson(cut, deals),
        "carried_at_cut": carried,
        "after": MAX_PLAYED_ON,
        "stalls": cut > 0,
    }


def stall_words(cut: int, carried: int, deals: int) -> str:
    """A rule set that makes the game stall, said in words (empty where none was cut)."""
    if not cut:
        return ""
    chains = "chain" if cut == 1 else "chains"
    return (
        f"The game stalls: in {cut} of {deals} deals nobody opened for {MAX_PLAYED_ON + 1} "
        f"deals in a row, so the {chains} of void deals never ended (a pool carried beyond "
        "what anyone may open for, or players who will not open); "
        f"{carried} counters were still carried at the cut, reported apart and not charged "
        "to the seats."
    )


NO_WINNING_SUIT: Final = "no suit wins the point: the pips of the whole hand count"
"""Why the point cannot be won by the retourne's suit where the whole hand counts."""


def _ci(summary: dict[str, Any], percent: bool = False) -> str:
    if summary.get("cannot_occur"):
        return "cannot occur"
    if summary.get("rate" if percent else "mean") is None:
        return "-"
    if percent:
        low, high = summary["ci95"]
        return f"{100 * summary['rate']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"
    judged = summary.get("interval", "normal")
    if judged == "unchanged":
        return f"{summary['mean']:.3f} (0 in every deal)"
    if judged == "declined":
        nonzero, largest = summary["nonzero"], summary["largest"]
        return f"{summary['mean']:.3f} (no interval: {nonzero} not 0, largest {largest})"
    low, high = summary["ci95"]
    return f"{summary['mean']:.3f} [{low:.3f}, {high:.3f}]"


def report_text(reports: Sequence[dict[str, Any]]) -> str:
    """The reports of several variants side by side (95% confidence intervals)."""
    from .render import table

    headers = ["", *(r["variant"] for r in reports)]
    rows: list[list[str]] = [["deals", *(str(r["deals"]) for r in reports)]]
    keys = [c for c in CLASSES if any(c in r["decided_by"] for r in reports)]
    for key in keys:
        rows.append(
            [f"decided by {key}"]
            + [_ci(r["decided_by"][key], True) if key in r["decided_by"] else "-" for r in reports]
        )
    rows.append(["average pot (not void)", *(_ci(r["average_pot"]) for r in reports)])
    rows.append(["bonus flow per deal", *(_ci(r["bonus_flow_per_deal"]) for r in reports)])
    seats = max(len(r["seat_net_per_deal"]) for r in reports)
    for position in range(1, seats + 1):
        rows.append(
            [f"net per deal: {seat_label(position, seats)}"]
            + [
                _ci(r["seat_net_per_deal"][str(position)])
                if str(position) in r["seat_net_per_deal"]
                else "-"
                for r in reports
            ]
        )
    rows.append(["pool per deal (carried-pool deals incl.)", *(_pool(r) for r in reports)])
    rows.append(["still carried per deal", *(_ci(r["still_carried_per_deal"]) for r in reports)])
    rows.append(["chains cut unended", *(_cut_text(r) for r in reports)])
    rows.append(
        [
            "deals played on carried pools",
            *(str(r["deals_played_on_carried_pools"]) for r in reports),
        ]
    )
    rows.append(
        ["point won by retourne's suit", *(_ci(r["point_suit_is_retourne"], True) for r in reports)]
    )
    for key in ("simple_brelan", "carre", "favori"):
        rows.append(
            [f"dealt per hand: {key}", *(_ci(r["dealt_per_hand"][key], True) for r in reports)]
        )
    for key, words in SITUATIONS.items():
        rows.append([f"met: {words}", *(_met(r, key) for r in reports)])
    policy = reports[0]["policy"] if reports else ""
    seed = reports[0]["seed"] if reports else ""
    head = f"Simulation: policy {policy}, seed {seed}; 95% confidence intervals in brackets"
    stalls = [
        f"{r['variant']}: " + stall_words(c["count"], c["carried_at_cut"], r["deals"])
        for r in reports
        if (c := r.get("chains_cut")) and c["count"]
    ]
    body = head + "\n\n" + table(headers, rows)
    if stalls:
        body += "\n\n" + "\n".join(textwrap.fill(words, 92) for words in stalls)
    return body + "\n\n" + SIMULATE_NOTES


def _pool(report: dict[str, Any]) -> str:
    entry = report.get("pool_per_deal")
    return "-" if entry is None else _ci(entry)


def _cut_text(report: dict[str, Any]) -> str:
    entry = report.get("chains_cut")
    if entry is None:
        return "-"
    if not entry["count"]:
        return "none"
    return f"{entry['count']} ({entry['carried_at_cut']} counters carried)"


def seat_label(position: int, seats: int) -> str:
    """A seat by its number, with the role it holds in the deal counted (not in the deals
    played on its carried pool, where the deal has passed on)."""
    if position == 1:
        return "seat 1 (eldest in the deal counted)"
    if position == seats:
        return f"seat {seats} (dealer of the deal counted)"
    return f"seat {position}"


def _met(report: dict[str, Any], key: str) -> str:
    entry = report.get("situations_met", {}).get(key)
    if entry is None:
        return "-"
    if entry["count"] == 0:
        return f"not met in {entry['n']} deals"
    deals = "deal" if entry["count"] == 1 else "deals"
    return f"{entry['count']} {deals} ({100 * entry['rate']:.1f}%)"


SIMULATE_NOTES: Final = """\
What the rows mean:
  deals: deals played, each from its own stream of (seed, deal number); a void deal's pool
    is played for in the deals after it (counted apart, "deals played on carried pools").
  decided by X: the share of deals whose main pool went to X: a kind of brelan at the
    showdown, the point, a player left alone (uncontested), or nobody opening (void).
  average pot (not void): the counters in the pools of a deal that was not void.
  bonus flow per deal: the counters paid for brelans in a deal.
  net per deal: what a seat gained or lost over a deal and those played on its carried
    pool. Seats are numbered from the right of the dealer of the deal counted (seat 1 is
    its eldest, speaking first; the last seat deals it); in the deals played on a carried
    pool the deal has passed on and the seat holds another role, so a seat's net is the
    seat's, not a role's; a chain cut unended is left out (its pool is not the seats'
    loss): the seats sum to zero. "no interval: N not 0, largest X" where fewer than 100
    deals gave the seat a nonzero net, or one deal carries more than a tenth of the sum of
    squares: a normal interval would rest on a few deals (docs/simulation.md).
  pool per deal (carried-pool deals incl.): the counters in the pools awarded over a deal
    and the deals played on its carried pool (a void deal awards none; a pool won after
    void deals counts once, its carried counters included).
  still carried per deal: the counters no deal had won yet when a chain of void deals was
    cut unended after 30 deals played on its pool, per deal.
  chains cut unended: the deals whose chain of void deals was cut so, and the counters
    still carried at the cut (what the seats had put in): where there are any, the game
    stalls, as the sentence under the table says.
  point won by retourne's suit ("cannot occur" where no suit wins the point, the whole
    hand's pips counting): of the deals won by the point, those whose winning suit is
    the retourne's.
  dealt per hand: hands as dealt, before any betting (checked against `bouillotte odds`).
  met: the deals in which the situation arose (a rule that acts only then can act only in
    those deals; see docs/simulation.md for which rule needs which situation)."""
