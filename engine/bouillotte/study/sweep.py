"""What one rule does over many deals: a base variant against the same variant with rules
changed, every combination played on the SAME seeded deals (the sweep's runner; what is
varied is :mod:`sweep_combinations`, the Dask backend :mod:`sweep_cluster`, the text, CSV
and JSON report :mod:`sweep_report`).
changed, every combination played on the SAME seeded deals.

Deal ``i`` is dealt from the stream of (``S``, ``i``) whatever the rules, void deals played
on (:func:`void_chain.play_one`), so each combination sees the same cards as the base and
its players draw from the same generator: the difference between a combination and the
base, deal by deal, is what the rule (and the players' response to it) does, not dealing
noise ("common random numbers").
A rule that cannot change a deal gives a difference of exactly zero, with a zero interval.

Every count is an integer sum (of each per-deal value, its square, and of each per-deal
difference from the base and its square), so the tallies of seed ranges merge in any order
into exactly the same numbers: one process, ``--jobs`` worker processes and a Dask cluster
give identical results for the same seeds. Only the reported rates, means and intervals are
floats: Wilson intervals for a combination's rates, normal intervals for its means, and a
normal interval on the mean of the paired per-deal differences for every difference, each
mean's and each difference's given only where enough deals moved and none dominates
(:mod:`intervals`; the deals whose value, or difference, is not 0 and the largest are
counted for it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from ..play.caches import cache
from ..rules.variant import Variant, differing_rules
from .chain_points import ChainPoint, StepPoint
from .deal_streams import DealStarts
from .player_view import Policy
from .policies import get_policy, sweep_player
from .rule_reads import READS, recording
from .situations import CLASSES, decided_by
from .sweep_cluster import dask_results, workers_of
from .sweep_combinations import Combination
from .void_chain import Chain, play_one, player_names, pools_awarded
from .workers import check_run, worker_pool

BRELAN_KINDS: Final = ("carré", "brelan", "favori", "mistigri")


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    kind: Literal["rate", "mean"]


def metrics_for(players: int) -> list[Metric]:
    """What is measured on every deal, in report order."""
    rates = [Metric(f"decided_by.{c}", f"decided by {c}", "rate") for c in CLASSES]
    rates.insert(
        CLASSES.index("point"), Metric("decided_by.any_brelan", "decided by a brelan", "rate")
    )
    means = [
        Metric(
            "pool",
            "pool awarded per deal, the deals played on its carried pool included (void = 0)",
            "mean",
        ),
        Metric("bonus_flow", "counters paid for brelans per deal", "mean"),
        Metric(
            "carried",
            "counters still carried at the cut of a chain of void deals that never ended",
            "mean",
        ),
    ]
    seats = [
        Metric(
            f"seat_net.{p}",
            f"net per deal: seat {p} (numbered from the first deal's dealer's right)",
            "mean",
        )
        for p in range(1, players + 1)
    ]
    # Last, so that every other measure keeps its place.
    stalls = [Metric("chains_cut", "chains of void deals cut unended (the game stalls)", "rate")]
    return rates + means + seats + stalls


POOL_AT: Final = len(CLASSES) + 1
"""Where the pool stands among a deal's measures (after the rates)."""


def deal_values(played: Chain) -> list[int]:
    """One deal's measures, in the order of :func:`metrics_for`: what decided deal ``i``
    and its bonuses; the pools awarded and each seat's net over it and the deals played on
    its pool (a chain cut unended: its pool still carried apart, not the seats' loss);
    whether the chain was cut."""
    deal = played.first
    decided, _ = decided_by(deal)
    values = [int(decided == c) for c in CLASSES]
    values.insert(CLASSES.index("point"), int(decided in BRELAN_KINDS))
    outcome = deal.outcome
    values.append(pools_awarded(played))
    values.append(sum(b.amount for b in outcome.bonuses))
    values.append(played.carried)
    values.extend(played.net)
    values.append(int(played.carried != 0))
    return values


@dataclass
class SweepTally:
    """Integer sums over a range of deals, for every combination (index 0 is the base)."""

    deals: int = 0
    sums: list[list[int]] = field(default_factory=list)
    squares: list[list[int]] = field(default_factory=list)
    diff_sums: list[list[int]] = field(default_factory=list)
    diff_squares: list[list[int]] = field(default_factory=list)
    pool_powers: list[list[int]] = field(default_factory=list)
    """Sums of the pool to the powers 1 to 4, for the spread's interval."""
    diff_moved: list[list[int]] = field(default_factory=list)
    """For each combination and measure, the deals whose difference from the base is not 0
    (whether an interval can be given: :mod:`intervals`)."""
    diff_largest: list[list[int]] = field(default_factory=list)
    """For each combination and measure, the largest magnitude of a deal's difference."""
    nonzero: list[list[int]] = field(default_factory=list)
    """For each combination and measure, the deals whose value is not 0 (whether the
    interval of the combination's own mean can be given, as ``simulate`` judges a mean:
    :mod:`intervals`)."""
    largest: list[list[int]] = field(default_factory=list)
    """For each combination and measure, the largest magnitude of a deal's value."""
    came_into_play: list[int] = field(default_factory=list)
    """For each combination, the deals in which its rules came into play: something
    offered to a player, an action taken or a measure differs from the base's deal."""
    rules_read: list[int] = field(default_factory=list)
    """For each combination, the deals whose play under the base read one of the rules it
    changes (counted where the sweep spares plays, :func:`sweep_range`): where it is 0,
    the rule never came into play, whoever the players."""
    failed: dict[int, tuple[int, str]] = field(default_factory=dict)
    """The combinations the engine could not play: the first deal it failed on, and its
    error (the row is reported as failed, the other rows go on)."""

    @classmethod
    def empty(cls, combinations: int, metrics: int) -> SweepTally:
        def grid(width: int) -> list[list[int]]:
            return [[0] * width for _ in range(combinations)]

        return cls(
            deals=0,
            sums=grid(metrics),
            squares=grid(metrics),
            diff_sums=grid(metrics),
            diff_squares=grid(metrics),
            pool_powers=grid(4),
            diff_moved=grid(metrics),
            diff_largest=grid(metrics),
            nonzero=grid(metrics),
            largest=grid(metrics),
            came_into_play=[0] * combinations,
            rules_read=[0] * combinations,
        )

    def merge(self, other: SweepTally) -> None:
        self.deals += other.deals
        for c, count in enumerate(other.came_into_play):
            self.came_into_play[c] += count
        for c, count in enumerate(other.rules_read):
            self.rules_read[c] += count
        for c, first in other.failed.items():
            self.failed[c] = min(self.failed.get(c, first), first)
        for mine, theirs in (
            (self.sums, other.sums),
            (self.squares, other.squares),
            (self.diff_sums, other.diff_sums),
            (self.diff_squares, other.diff_squares),
            (self.pool_powers, other.pool_powers),
            (self.diff_moved, other.diff_moved),
            (self.nonzero, other.nonzero),
        ):
            for row, add in zip(mine, theirs, strict=True):
                for k, value in enumerate(add):
                    row[k] += value
        for grid, theirs in (
            (self.diff_largest, other.diff_largest),
            (self.largest, other.largest),
        ):
            for row, add in zip(grid, theirs, strict=True):
                for k, value in enumerate(add):
                    row[k] = max(row[k], value)


def sweep_range(
    variants: Sequence[Variant],
    policy_name: str,
    seed: int,
    start: int,
    stop: int,
    spare: bool = True,
    changed: Sequence[frozenset[str]] | None = None,
    recorded: Variant | None = None,
) -> SweepTally:
    """Deals ``start`` to ``stop - 1``, each played under every variant (the first is the
    base) with the same cards and the same policy generator.

    ``spare``: the base's play of each deal notes the rules it read
    (:mod:`rule_reads`); a combination that changes none of them would play the deal
    exactly as the base did, so it is counted with the base's values without being
    played. The rules read before each deal of its chain (where it was void) and before
    each step of each deal are noted apart, with a copy of the deal at each step: a
    combination is played on from the last of those points before which no rule it changes
    was read, what came before taken from the base (the result is the same as playing it
    all: ``tests/test_sweep_spare.py``).

    ``changed`` (each variant's rules that differ from the base's, :func:`changed_rules`)
    and ``recorded`` (the base's recording copy) are what every seed range of a sweep
    shares: a worker is given them once (:func:`run_sweep`), else they are worked out
    here."""
    names = player_names(variants[0].players)
    base_rules = variants[0].rules
    policy: Policy = sweep_player(policy_name, base_rules)
    width = len(metrics_for(len(names)))
    tally = SweepTally.empty(len(variants), width)
    if changed is None:
        changed = changed_rules(variants)
    if not spare:
        recorded = variants[0]
    elif recorded is None:
        recorded = recording(variants[0])
    # A combination's sums are the base's plus its differences from the base, so only the
    # deals it changed cost anything: what each adds to the squares and the pool's powers
    # beyond the base's is kept apart and added to the base's at the end.
    others = range(1, len(variants))
    squares_beyond = [[0] * width for _ in variants]
    powers_beyond = [[0] * 4 for _ in variants]
    nonzero_beyond = [[0] * width for _ in variants]
    base_sums, base_squares, base_powers = tally.sums[0], tally.squares[0], tally.pool_powers[0]
    base_nonzero, base_largest = tally.nonzero[0], tally.largest[0]
    # The largest value of a combination's measure is the largest of its own in the deals
    # where the measure moved and of the base's in the others: each deal's base values
    # (their size) and, for each combination and measure, the deals where it moved.
    base_sizes: list[list[int]] = [[] for _ in range(width)]
    moved_at: dict[tuple[int, int], set[int]] = {}
    largest_moved = [[0] * width for _ in variants]
    # The shuffle seeds and the words the policy generators drew, of the deal being played,
    # kept for its other rows.
    starts = DealStarts()
    points = TakeUpPoints(variants[0])

    for i in range(start, stop):
        tally.deals += 1
        starts.clear()
        base_traces: list[list[Any]] = []
        if spare:
            READS.clear()
            points.clear()
            # A policy of its own, so that nothing it remembers of another deal hides a
            # read of this one.
            played = play_one(
                recorded,
                sweep_player(policy_name, base_rules),
                names,
                seed,
                i,
                base_traces,
                starts,
                mark=points.mark,
            )
            read = frozenset(READS)
        else:
            played = play_one(variants[0], policy, names, seed, i, base_traces, starts)
        base = deal_values(played)
        for k, value in enumerate(base):
            size = value if value >= 0 else -value
            base_sizes[k].append(size)
            if size:
                base_sums[k] += value
                base_squares[k] += value * value
                base_nonzero[k] += 1
                if size > base_largest[k]:
                    base_largest[k] = size
        pool = base[POOL_AT]
        base_powers[0] += pool
        base_powers[1] += pool**2
        base_powers[2] += pool**3
        base_powers[3] += pool**4
        for c in others:
            if spare:
                if read.isdisjoint(changed[c]):
                    continue  # it would play the deal as the base did
                tally.rules_read[c] += 1
            if c in tally.failed:
                continue
            resume = resume_point(points.points, points.read_before, changed[c]) if spare else None
            traces = taken_up_traces(base_traces, resume)
            try:
                values = deal_values(
                    play_one(variants[c], policy, names, seed, i, traces, starts, resume)
                )
            except Exception as exc:  # an engine error under this rule set alone
                tally.failed[c] = (i, f"{type(exc).__name__}: {exc}")
                continue
            if values == base and traces == base_traces:
                continue
            # The rule changed an offered choice, an action or an outcome.
            tally.came_into_play[c] += 1
            dsums, dsquares = tally.diff_sums[c], tally.diff_squares[c]
            dmoved, dlargest = tally.diff_moved[c], tally.diff_largest[c]
            beyond, nonzero, largest = squares_beyond[c], nonzero_beyond[c], largest_moved[c]
            for k, value in enumerate(values):
                was = base[k]
                d = value - was
                if d == 0:
                    continue
                dsums[k] += d
                dsquares[k] += d * d
                dmoved[k] += 1
                if abs(d) > dlargest[k]:
                    dlargest[k] = abs(d)
                beyond[k] += value * value - was * was
                nonzero[k] += (value != 0) - (was != 0)
                if abs(value) > largest[k]:
                    largest[k] = abs(value)
                moved_at.setdefault((c, k), set()).add(i - start)
            mine, was = values[POOL_AT], base[POOL_AT]
            powers = powers_beyond[c]
            powers[0] += mine - was
            powers[1] += mine**2 - was**2
            powers[2] += mine**3 - was**3
            powers[3] += mine**4 - was**4
    for c in others:
        tally.sums[c] = [b + d for b, d in zip(base_sums, tally.diff_sums[c], strict=True)]
        tally.squares[c] = [b + d for b, d in zip(base_squares, squares_beyond[c], strict=True)]
        tally.pool_powers[c] = [b + d for b, d in zip(base_powers, powers_beyond[c], strict=True)]
        tally.nonzero[c] = [b + d for b, d in zip(base_nonzero, nonzero_beyond[c], strict=True)]
        tally.largest[c] = list(base_largest)
    # Where a measure moved, the base's largest may be in a deal it moved: the largest of
    # the deals it left alone (found from the largest down) and of those it moved.
    by_size: dict[int, list[int]] = {}
    for (c, k), moved in moved_at.items():
        if k not in by_size:
            by_size[k] = sorted(range(len(base_sizes[k])), key=base_sizes[k].__getitem__)[::-1]
        kept = next((base_sizes[k][j] for j in by_size[k] if j not in moved), 0)
        tally.largest[c][k] = max(kept, largest_moved[c][k])
    return tally


class TakeUpPoints:
    """Where a row's play of a deal may be taken up from the base's (:func:`play_one`'s
    ``mark``): before each deal of its chain and before each step of each deal, each with
    the rules read before it (``read_before``, of :data:`READS`), and at a step a copy of
    the deal made under ``plain`` (the base unrecorded: copying reads no rule into the
    record). A step before which nothing more was read than before the step ahead of it is
    dropped: a row would be taken up at the later one."""

    __slots__ = ("plain", "points", "read_before")

    def __init__(self, plain: Variant) -> None:
        self.plain = plain
        self.points: list[ChainPoint] = []
        self.read_before: list[frozenset[str]] = []

    def clear(self) -> None:
        self.points.clear()
        self.read_before.clear()

    def mark(self, point: ChainPoint) -> None:
        points, read_before = self.points, self.read_before
        read = frozenset(READS)
        if isinstance(point, StepPoint):
            if len(read) == len(read_before[-1]) and isinstance(points[-1], StepPoint):
                points.pop()
                read_before.pop()
            point.deal = point.deal.copy(self.plain)  # the base's deal plays on
        points.append(point)
        read_before.append(read)


def resume_point(
    points: Sequence[ChainPoint], read_before: Sequence[frozenset[str]], changed: frozenset[str]
) -> ChainPoint | None:
    """Where a combination that changes the rules ``changed`` may take up the base's
    chain: at the last of its points (before a deal or a step: ``points``) before which no
    rule it changes was read (``read_before``), so that everything before it plays the
    same under both; ``None`` where that is the chain's beginning (nothing to take)."""
    found = None
    for point, read in zip(points[1:], read_before[1:], strict=True):
        if not read.isdisjoint(changed):
            break
        found = point
    return found


def taken_up_traces(traces: list[list[Any]], point: ChainPoint | None) -> list[list[Any]]:
    """What a row's play taken up at ``point`` starts from: the base's traces (``traces``)
    of the deals before it, and at a step, its deal's up to that step."""
    if point is None:
        return []
    if isinstance(point, StepPoint):
        return [*traces[: point.after], traces[point.after][: point.traced]]
    return traces[: point.after]


def changed_rules(variants: Sequence[Variant]) -> list[frozenset[str]]:
    """For each variant (the base first), the rules on which it differs from the base."""
    return [frozenset(differing_rules(variants[0], v)) for v in variants]


Shared: TypeAlias = tuple[list[Variant], list[frozenset[str]]]
"""What every seed range of one sweep shares: the variants (the base first) and the rules
each changes, worked out once by :func:`run_sweep` and sent once to each worker."""

_SHARED: Final[dict[str, tuple[Shared, Variant]]] = cache("sweep.shared")
"""In a worker, under ``"sweep"``: the sweep's shared part and the base's recording copy,
made once per worker (a process pool's worker receives it when it starts; a Dask worker
keeps the scattered object, the same for each of its tasks)."""


def _start_sweep(shared: Shared) -> None:
    _SHARED.clear()
    _SHARED["sweep"] = (shared, recording(shared[0][0]))


def _sweep_task(task: tuple[str, int, int, int]) -> SweepTally:
    """A seed range in a process pool's worker, from what :func:`_start_sweep` received."""
    shared, recorded = _SHARED["sweep"]
    name, seed, start, stop = task
    return sweep_range(shared[0], name, seed, start, stop, True, shared[1], recorded)


def sweep_range_shared(shared: Shared, name: str, seed: int, start: int, stop: int) -> SweepTally:
    """A seed range on a Dask worker: ``shared`` is the scattered object, the same for
    every task the worker runs, so the base's recording copy is made once per worker."""
    held = _SHARED.get("sweep")
    if held is None or held[0] is not shared:
        _start_sweep(shared)
        held = _SHARED["sweep"]
    return sweep_range(shared[0], name, seed, start, stop, True, shared[1], held[1])


TASK_DEALS: Final = (50, 1000)
"""The fewest and the most deals in one task (one seed range): a task of a few
milliseconds' overhead at the least, and a bounded one, so that a cluster gets many more
tasks than it has workers (a worker that joins late, or one that is lost, costs at most
one task's work) and the progress moves."""


def chunks(deals: int, parts: int) -> list[tuple[int, int]]:
    """Seed ranges: about 25 per part (worker), of :data:`TASK_DEALS` deals, for a steady
    progress line and an even spread of work. The tallies of any cut merge into the same
    numbers, so the result does not depend on it."""
    fewest, most = TASK_DEALS
    size = min(most, max(fewest, math.ceil(deals / (max(parts, 1) * 25))))
    return [(start, min(start + size, deals)) for start in range(0, deals, size)]


def run_sweep(
    base: Variant,
    combinations: Sequence[Combination],
    policies: Sequence[str],
    deals: int,
    seed: int,
    jobs: int = 1,
    client: Any = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, SweepTally]:
    """Every valid combination against the base under each policy, on deals ``0`` to
    ``deals - 1`` of seed ``seed``; worker processes (``jobs``) or a Dask ``client``
    share the seed ranges, with the same result as one process. ``progress`` is called
    with the number of deals done (each under every combination)."""
    check_run(deals, seed, jobs)
    for name in policies:
        get_policy(name)  # an unknown policy is an input error before any work starts
    variants = [base, *(c.variant for c in combinations if c.variant is not None)]
    width = len(metrics_for(base.players))
    totals = {name: SweepTally.empty(len(variants), width) for name in policies}
    ranges = chunks(deals, jobs if client is None else workers_of(client))
    # The variants and the rules each changes go to each worker once, not with each task.
    shared: Shared = (variants, changed_rules(variants))
    tasks = [(name, seed, start, stop) for name in policies for start, stop in ranges]

    def add(task: tuple[str, int, int, int], tally: SweepTally) -> None:
        totals[task[0]].merge(tally)
        if progress:
            progress(task[3] - task[2])

    if client is not None:
        for task, tally in dask_results(client, shared, tasks, sweep_range_shared):
            add(task, tally)
    elif jobs <= 1:
        recorded = recording(base)
        for name, seed_, start, stop in tasks:
            tally = sweep_range(variants, name, seed_, start, stop, True, shared[1], recorded)
            add((name, seed_, start, stop), tally)
    else:
        with worker_pool(jobs, _start_sweep, (shared,)) as pool:
            for task, tally in zip(tasks, pool.imap(_sweep_task, tasks), strict=True):
                add(task, tally)
    return totals
