"""Deal ``i`` of a run played to its end, and the deals played on its pool where it is void.

No counter vanishes: where a deal is void its carried pool is played for, as at a table,
in the deals that follow it (:func:`play_one`): the deal passes on, the caves are those the
void deal left, and each of those deals is shuffled from the stream of the pair (``S``,
``i``) too (:mod:`deal_streams`). Every deal starts with the variant's caves, the last
player dealing; seats are reported by position relative to that dealer (1 is the dealer's
right, the first to speak; the dealer is last). Each seat's net over deal ``i`` and the
deals that play on its pool is what the report calls its net per deal. A chain of void
deals that has not ended after :data:`MAX_PLAYED_ON` deals is cut: under some rules it
never ends (a pool carried beyond every cave that nobody may open for), so it is counted as
its own figure, the chains cut and the counters still carried at the cut, never as the
seats' losses: over a cut chain each seat's net leaves out what it put into the pool still
carried (every deal of such a chain is void, so that is all it lost). The seats' nets sum
to zero, and what they put into the pools cut sums to the counters carried at the cut.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ..play.deal import Deal, new_deal
from ..play.stream import Stream, deal_seed
from ..rules.variant import Variant
from .autoplay import play
from .chain_points import ChainPoint, StepPoint
from .deal_streams import DealStarts, policy_stream
from .player_view import Policy


def player_names(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


MAX_PLAYED_ON: Final = 30
"""The most deals played on a void deal's carried pool before the chain is cut and what
is still carried is reported apart. Thirty void deals in a row by chance alone are out of
reach (under 0.6**30 with the most void deals measured); a chain that long is one that
cannot end: a pool that nobody may open for (``betting.opening_short_of_the_pot``
``cannot-open`` with an opening at the pot)."""


class Chain:
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
) -> Chain:
    """Deal ``i`` of a run with seed ``seed``, played to its end by ``policy``, and where it
    is void the deals that play on its pool: the same cards whatever the variant (the
    shuffle depends on ``seed`` and ``i`` alone), which is what lets a sweep compare rules
    on common random numbers. ``traces``, where given, receives each deal's trace (every
    offered choice and the action taken, :func:`autoplay.play`). ``starts``, where given,
    keeps each deal's number and the blocks of its policy stream, for a caller that plays
    the same deal again (a sweep, under every rule set): the same cards
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
        rng = policy_stream(number, starts)
        trace: list[Any] | None = None
        chain: ChainPoint | None = None
        if taken_up is not None:  # within the deal: its copy, its draws and trace so far
            deal = taken_up.deal.copy(variant)
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
            return Chain(deals, net, 0)
        if after >= MAX_PLAYED_ON:
            return _cut(deals, net, carried)
        after += 1
        dealer = names[(names.index(dealer) + step) % len(names)]
        # The caves the void deal left; one emptied is bought anew, as between deals.
        caves = {p: players[p].cave or cave for p in names}


def _cut(deals: list[Deal], net: list[int], carried: int) -> Chain:
    """A chain cut unended: every deal of it was void, so all each seat lost over it is
    in the pool still carried. That pool is reported apart, not as the seats' losses: each
    seat's net leaves out its stake in it (``Chain.stakes``)."""
    stakes = [-n for n in net]
    assert sum(stakes) == carried  # counters are conserved: the pool is what they put in
    return Chain(deals, [n + s for n, s in zip(net, stakes, strict=True)], carried, stakes)


class _StepMarks:
    """:func:`play_one`'s ``mark`` called before each step of a deal, with the step's
    :class:`StepPoint`."""

    __slots__ = ("chain", "mark", "rng", "trace")

    def __init__(
        self,
        chain: ChainPoint,
        mark: Callable[[ChainPoint], None],
        rng: Stream,
        trace: list[Any] | None,
    ) -> None:
        self.chain = chain
        self.mark = mark
        self.rng = rng
        self.trace = trace

    def __call__(self, deal: Deal) -> None:
        rng, trace = self.rng, self.trace
        drawn = rng.at
        self.mark(StepPoint(self.chain, deal, drawn, 0 if trace is None else len(trace)))


def pools_awarded(played: Chain) -> int:
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
