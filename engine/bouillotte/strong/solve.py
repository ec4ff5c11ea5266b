"""CFR+ over the abstracted game, and its NashConv, exactly.

The game tree is walked once from :class:`~.core.Node` (every state drives the engine)
and kept as arrays (:class:`Tree`); CFR+ (regret matching+, alternating updates, linear
averaging) and the best responses then run over the arrays with numpy, level by level.
OpenSpiel's own Python CFR walks the states at every iteration, through the engine: far
too slow for this tree (``docs/strong-play.md`` gives the figures). numpy comes with the
``strong`` extra.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.variant import Variant
from .abstraction import Abstraction, AbstractionError
from .core import CHANCE, TERMINAL, GameTable, Node
from .infostates import InfoStates

MAX_STATES = 2_000_000
"""The most states a game's tree may have unless the caller allows more (``strong solve
--max-states``, up to :data:`MOST_STATES`): a state costs about 1 KB of memory while the
tree is walked and CFR+ runs (3.5 KB under a draw; ``docs/strong-play.md``), so some minutes
and about 2 GB (7 GB under a draw) at most; the walk also stops where it has taken
:data:`MEMORY_SHARE` of the machine's memory. The walk stops as soon as it passes it,
whichever parameter made the tree so large (a cap on raises lifted, every bet size, a large
cave, many sampled deals)."""

MEMORY_SHARE: Final = 0.75
"""The share of this machine's memory the walk of a tree may take before it is stopped: a
state costs about 1 KB under foster-three, 3.5 KB under a system with a draw (brelan-pierer,
measured at 100,000 states), so that no bound on states alone keeps every system within a
machine's memory."""


def _memory_limit() -> tuple[float, str] | None:
    """The memory this process may take, in bytes, and what sets it: the machine's, or
    less where ``ulimit -v`` (``RLIMIT_AS``) or a container's cgroup (``memory.max``) says
    so; ``None`` where no figure is known."""
    limits: list[tuple[float, str]] = []
    with contextlib.suppress(ValueError, OSError, AttributeError):
        limits.append((os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "this machine's"))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        limits.append((soft, "the process's limit (ulimit -v) of"))
    try:
        cgroup = Path("/sys/fs/cgroup/memory.max").read_text().strip()
    except OSError:
        cgroup = "max"
    if cgroup.isdigit():
        limits.append((int(cgroup), "the container's limit (memory.max) of"))
    return min(limits) if limits else None


def _used_memory(whole: bool) -> float:
    """The process's memory in bytes: its address space where ``ulimit -v`` bounds that
    (``whole``), else the most it has held in RAM."""
    if whole:
        try:
            pages = int(Path("/proc/self/statm").read_text().split()[0])
            return pages * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def memory_fault(states: int) -> str | None:
    """Why the walk must stop now (its process has taken more than :data:`MEMORY_SHARE` of
    the memory it may take, :func:`_memory_limit`, at ``states`` states), or ``None``."""
    limit = _memory_limit()
    if limit is None:
        return None
    total, whose = limit
    used = _used_memory(whole=whose.startswith("the process's"))
    if used <= MEMORY_SHARE * total:
        return None
    return (
        f"the abstracted game's tree has taken {used / 2**30:.1f} GiB of memory at "
        f"{states:,} states, more than {MEMORY_SHARE:.0%} of {whose} "
        f"{total / 2**30:.1f} GiB: sample fewer deals, cap the raises, offer fewer bet sizes "
        "or make the caves smaller"
    )


MOST_STATES: Final = 10_000_000
"""The largest bound ``--max-states`` may set: about 10 GB."""

MAX_ITERATIONS = 100_000
"""The most CFR+ iterations one solve may run (the stored solutions ran 1,000 and 2,000)."""


def checked_iterations(iterations: int) -> int:
    """``iterations`` if it is a whole number from 1 to :data:`MAX_ITERATIONS`, else
    :class:`AbstractionError` saying so, before any work."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise AbstractionError(f"iterations: {iterations!r} is not a whole number of 1 or more")
    if iterations > MAX_ITERATIONS:
        raise AbstractionError(
            f"iterations: {iterations} is more than {MAX_ITERATIONS:,} CFR+ iterations, "
            "the most one solve runs"
        )
    return iterations


@dataclass
class Tree:
    """The game tree as arrays: nodes in breadth-first order (a parent before its
    children, a parent's children one after another), each edge from a parent to a child,
    numbered as its child less one (the root is the one node no edge leads to)."""

    players: int
    depth: Any  # per node
    actor: Any  # per node: the seat to act, CHANCE or TERMINAL
    returns: Any  # per node x player (terminal nodes only)
    pools: Any  # per node: the pools awarded (terminal nodes only; 0 for a void deal)
    parent: Any  # per edge
    child: Any  # per edge
    slot: Any  # per edge: its (information state, action) number, or -1 for chance
    prob: Any  # per edge: chance's probability (1 for a player's edge)
    keys: list[str]  # per information state
    actions: list[list[int]]  # per information state: its action numbers
    first: Any  # per information state: its first slot
    info_of_slot: Any  # per slot: its information state
    levels: list[slice]  # the edges from each depth's nodes (contiguous: breadth first)


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (and restored as it was): a walk keeps
    millions of objects alive, and each full collection scans them all, more often as
    they grow (``docs/speed.md``: the walk of 160 deals of four players took five times
    the CPU with it). A walk leaves no cycles to collect: ``gc.collect()`` after one of 30
    deals with the collector paused finds none."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def build_tree(table: GameTable, max_states: int | None = None) -> Tree:
    """Walk every state of the game from the start (the engine plays each step); at most
    ``max_states`` (:data:`MAX_STATES` unless given; never more than :data:`MOST_STATES`).
    Where memory runs out first (a limit lower than the one :func:`memory_fault` sees),
    one :class:`AbstractionError` says so."""
    try:
        with collection_paused():
            return _walk(table, max_states)
    except (MemoryError, SystemError):  # SystemError: numpy or CPython failing to allocate
        raise AbstractionError(
            "the abstracted game's tree ran out of memory while it was walked: sample fewer "
            "deals, cap the raises, offer fewer bet sizes, make the caves smaller, or lower "
            "--max-states"
        ) from None


def _walk(table: GameTable, max_states: int | None) -> Tree:
    import numpy as np

    bound = MAX_STATES if max_states is None else max_states
    if not 1 <= bound <= MOST_STATES:
        raise AbstractionError(f"max_states: {bound:,} is not between 1 and {MOST_STATES:,}")

    nodes: list[Node] = [Node(table)]
    depth = [0]
    actor: list[int] = []
    rets: dict[int, list[float]] = {}
    pooled: dict[int, int] = {}
    parent: list[int] = []
    child: list[int] = []
    slot: list[int] = []
    prob: list[float] = []
    infos = InfoStates()
    i = 0
    while i < len(nodes):
        node = nodes[i]
        nodes[i] = None  # type: ignore[call-overload]  # free it: only the arrays are kept
        who = node.current()
        actor.append(who)
        if who == TERMINAL:
            rets[i] = node.returns()
            assert node.deal is not None
            pooled[i] = sum(pot.amount for pot in node.deal.outcome.pots)
        else:
            if who == CHANCE:
                moves = node.chance_outcomes()
                base = -1
            else:
                legal = node.legal()
                base = infos.first_slot(node.info_key(who), legal)
                moves = [(a, 1.0) for a in legal]
            if i % 65_536 == 0 and (fault := memory_fault(len(nodes))) is not None:
                raise AbstractionError(fault)
            if len(nodes) + len(moves) > bound:
                raise AbstractionError(
                    f"the abstracted game has more than {bound:,} states: "
                    "sample fewer deals, cap the raises, offer fewer bet sizes or make the "
                    f"caves smaller (--max-states allows up to {MOST_STATES:,}: "
                    "about 1 KB of memory a state, 3.5 KB under a draw)"
                )
            for k, (action, p) in enumerate(moves):
                after = node.clone()
                after.apply(action)
                parent.append(i)
                child.append(len(nodes))
                slot.append(-1 if base < 0 else base + k)
                prob.append(p)
                depth.append(depth[i] + 1)
                nodes.append(after)
        i += 1
    returns = np.zeros((len(actor), table.players))
    for n, values in rets.items():
        returns[n] = values
    pools = np.zeros(len(actor))
    for n, amount in pooled.items():
        pools[n] = amount
    depth_a = np.array(depth)
    parent_a = np.array(parent)
    levels = edge_levels(depth_a, parent_a)
    return Tree(
        table.players,
        depth_a,
        np.array(actor),
        returns,
        pools,
        parent_a,
        np.array(child),
        np.array(slot),
        np.array(prob),
        infos.keys,
        infos.actions,
        np.array(infos.first),
        infos.info_of_slot(),
        levels,
    )


def edge_levels(depth: Any, parent: Any) -> list[slice]:
    """The edges from the nodes of each depth, as a slice of the edges: breadth first,
    a deeper parent's edges come after a shallower one's."""
    import numpy as np

    if not bool(np.all(parent[1:] >= parent[:-1])):
        raise ValueError("the tree's nodes are not numbered breadth first")
    by_depth = depth[parent]
    bounds = np.searchsorted(by_depth, np.arange(int(depth.max()) + 1))
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds)]


def _matched(tree: Tree, regrets: Any) -> Any:
    """Regret matching: each information state's strategy (uniform where no regret)."""
    import numpy as np

    positive = np.maximum(regrets, 0.0)
    sums = np.bincount(tree.info_of_slot, positive, minlength=len(tree.keys))
    counts = np.bincount(tree.info_of_slot, minlength=len(tree.keys))
    total = sums[tree.info_of_slot]
    uniform = 1.0 / counts[tree.info_of_slot]
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def _edge_weights(tree: Tree, strategy: Any) -> Any:
    import numpy as np

    chance = tree.slot < 0
    return np.where(chance, tree.prob, strategy[np.where(chance, 0, tree.slot)])


def _reach(tree: Tree, weights: Any) -> Any:
    """Each node's reach: one column per player, the last for chance."""
    import numpy as np

    reach = np.ones((len(tree.actor), tree.players + 1))
    column = np.where(tree.actor >= 0, tree.actor, tree.players)
    for edges in tree.levels:
        p = tree.parent[edges]
        block = reach[p]
        block[np.arange(len(p)), column[p]] *= weights[edges]
        reach[edges.start + 1 : edges.stop + 1] = block  # edge e's child is node e + 1
    return reach


@dataclass
class Solution:
    strategy: Any  # the average strategy, per slot
    iterations: int
    cpu_seconds: float
    nash_conv: float
    values: list[float]  # each player's expected return under the average strategy


def cfr_plus(
    tree: Tree, iterations: int, step: Callable[[int], None] = lambda _: None
) -> tuple[Any, float]:
    """CFR+ (alternating updates, linear averaging): the average strategy per slot, and
    the CPU seconds taken. ``step(1)`` after each iteration (the command's progress)."""
    import numpy as np

    checked_iterations(iterations)
    start = time.process_time()
    slots = len(tree.info_of_slot)
    regrets = np.zeros(slots)
    average = np.zeros(slots)
    owner = np.where(tree.slot >= 0, tree.actor[tree.parent], -1)
    mine = [np.nonzero(owner == i)[0] for i in range(tree.players)]
    for t in range(1, iterations + 1):
        for i in range(tree.players):
            strategy = _matched(tree, regrets)
            weights = _edge_weights(tree, strategy)
            reach = _reach(tree, weights)
            values = _own_values(tree, weights, i)
            edges = mine[i]
            p, c, s = tree.parent[edges], tree.child[edges], tree.slot[edges]
            others = np.prod(np.delete(reach[p], i, axis=1), axis=1)
            gain = others * (values[c] - values[p])
            regrets += np.bincount(s, gain, minlength=slots)
            np.maximum(regrets, 0.0, out=regrets)
            average += t * np.bincount(s, reach[p, i] * strategy[s], minlength=slots)
        step(1)
    return _normalised(tree, average), time.process_time() - start


def _own_values(tree: Tree, weights: Any, player: int) -> Any:
    return _backed_up(tree, weights, tree.returns[:, player])


def _backed_up(tree: Tree, weights: Any, leaves: Any) -> Any:
    """Each node's expectation of a terminal quantity (``leaves``, per node) when every
    edge is taken with its weight."""
    import numpy as np

    values = np.array(leaves, dtype=float)
    for edges in reversed(tree.levels):
        p = tree.parent[edges]  # one depth's nodes: a run of node numbers from p[0]
        below = weights[edges] * values[edges.start + 1 : edges.stop + 1]
        values[p[0] : p[-1] + 1] += np.bincount(p - p[0], below, minlength=p[-1] - p[0] + 1)
    return values


def _normalised(tree: Tree, average: Any) -> Any:
    import numpy as np

    sums = np.bincount(tree.info_of_slot, average, minlength=len(tree.keys))[tree.info_of_slot]
    counts = np.bincount(tree.info_of_slot, minlength=len(tree.keys))[tree.info_of_slot]
    return np.where(sums > 0, average / np.where(sums > 0, sums, 1.0), 1.0 / counts)


def nash_conv(tree: Tree, strategy: Any) -> tuple[float, list[float]]:
    """NashConv of a strategy (per slot), exactly: the sum over players of what a best
    response gains against the others' strategies; and each player's expected return."""
    return nash_conv_of(tree, _edge_weights(tree, strategy))


def nash_conv_of(tree: Tree, weights: Any) -> tuple[float, list[float]]:
    """:func:`nash_conv` of any behaviour (each edge's probability): a best response of
    one player at a time against the others' behaviour."""
    gains, on_policy = best_response_gains_of(tree, weights)
    return sum(gains), on_policy


def best_response_gains(tree: Tree, strategy: Any) -> tuple[list[float], list[float]]:
    """What a best response gains for each player against the others' strategies (their
    sum is :func:`nash_conv`), and each player's expected return."""
    return best_response_gains_of(tree, _edge_weights(tree, strategy))


def best_response_gains_of(tree: Tree, weights: Any) -> tuple[list[float], list[float]]:
    """:func:`best_response_gains` of any behaviour (each edge's probability)."""
    import numpy as np

    reach = _reach(tree, weights)
    on_policy = [float(_own_values(tree, weights, i)[0]) for i in range(tree.players)]
    owner = np.where(tree.slot >= 0, tree.actor[tree.parent], -1)
    gains: list[float] = []
    for i in range(tree.players):
        others = np.prod(np.delete(reach, i, axis=1), axis=1)
        values = tree.returns[:, i].copy()
        for level in reversed(tree.levels):
            edges = np.arange(level.start, level.stop)
            own = owner[edges] == i
            rest = edges[~own]
            values += np.bincount(
                tree.parent[rest], weights[rest] * values[tree.child[rest]], minlength=len(values)
            )
            mine = edges[own]
            if len(mine) == 0:
                continue
            s = tree.slot[mine]
            worth = np.bincount(
                s,
                others[tree.parent[mine]] * values[tree.child[mine]],
                minlength=len(tree.info_of_slot),
            )
            best: dict[int, int] = {}
            for slot in np.unique(s):
                info = int(tree.info_of_slot[slot])
                if info not in best or worth[slot] > worth[best[info]]:
                    best[info] = int(slot)
            chosen = np.array([best[int(tree.info_of_slot[x])] == x for x in s])
            picked = mine[chosen]
            values[tree.parent[picked]] = values[tree.child[picked]]
        gains.append(float(values[0]) - on_policy[i])
    return gains, on_policy


def expected_pool(tree: Tree, strategy: Any) -> float:
    """The pools awarded in a deal, in expectation under a strategy (per slot): 0 where
    the deal is void (its pool is carried, not awarded)."""
    return float(_backed_up(tree, _edge_weights(tree, strategy), tree.pools)[0])


def same_game(one: Tree, other: Tree) -> bool:
    """Whether two trees are the same game: the same states, information states, actions,
    chance probabilities, payoffs and pools awarded (a rule that changes none of these
    does not act in the game)."""
    import numpy as np

    exact = ("actor", "parent", "child", "slot", "prob")
    # payoffs to within rounding: a levy carried and shared back equally is -5 + 20/3
    # under one value and 0 + 5/3 under the other, equal but for the last bit
    amounts = ("returns", "pools")
    return (
        one.players == other.players
        and one.keys == other.keys
        and one.actions == other.actions
        and all(getattr(one, n).shape == getattr(other, n).shape for n in exact + amounts)
        and all(bool(np.array_equal(getattr(one, n), getattr(other, n))) for n in exact)
        and all(
            bool(np.allclose(getattr(one, n), getattr(other, n), rtol=0.0, atol=1e-9))
            for n in amounts
        )
    )


def behaviour(table: GameTable, tree: Tree, choose: Callable[[Node], dict[int, float]]) -> Any:
    """Each edge's probability when every player acts by ``choose`` (a node's action
    numbers and their probabilities; chance as the game says): the states are walked again
    in the order :func:`build_tree` numbered them."""
    import numpy as np

    weights = np.array(tree.prob, dtype=float)
    nodes: list[Node] = [Node(table)]
    edge = 0
    i = 0
    while i < len(nodes):
        node = nodes[i]
        nodes[i] = None  # type: ignore[call-overload]
        who = node.current()
        if who != TERMINAL:
            if who == CHANCE:
                moves = [a for a, _ in node.chance_outcomes()]
            else:
                moves = node.legal()
                chosen = choose(node)
                for k, action in enumerate(moves):
                    weights[edge + k] = chosen.get(action, 0.0)
            for action in moves:
                after = node.clone()
                after.apply(action)
                nodes.append(after)
            edge += len(moves)
        i += 1
    return weights


def stored_weights(tree: Tree, strategy: dict[str, list[list[float]]]) -> Any:
    """Each edge's probability under a stored strategy (``payload``'s ``strategy``: each
    information state's actions and their probabilities); chance as the game says. An
    information state the strategy does not have is :class:`AbstractionError`: the
    strategy was solved on another game."""
    import numpy as np

    per_slot = np.zeros(len(tree.info_of_slot))
    for info, key in enumerate(tree.keys):
        row = strategy.get(key)
        if row is None:
            raise AbstractionError(f"the strategy has no information state {key!r}")
        chosen = {int(action): p for action, p in row}
        start = int(tree.first[info])
        for k, action in enumerate(tree.actions[info]):
            per_slot[start + k] = chosen.get(action, 0.0)
    return _edge_weights(tree, per_slot)


def seat_values(tree: Tree, strong: Any, others: Any) -> list[float]:
    """Each seat's expected return when it alone acts by ``strong`` and every other seat
    by ``others`` (each edge's probability, as :func:`behaviour` and
    :func:`stored_weights` give them)."""
    import numpy as np

    owner = np.where(tree.slot >= 0, tree.actor[tree.parent], -1)
    return [
        float(_own_values(tree, np.where(owner == seat, strong, others), seat)[0])
        for seat in range(tree.players)
    ]


def solve(table: GameTable, iterations: int) -> tuple[Tree, Solution]:
    tree = build_tree(table)
    strategy, cpu = cfr_plus(tree, iterations)
    conv, values = nash_conv(tree, strategy)
    return tree, Solution(strategy, iterations, cpu, conv, values)


SAMPLE_DEALS: Final = 2
"""How many sampled deals :func:`game_sample` walks (a few thousand states: well under a
second)."""


def game_sample(variant: Variant, abstraction: Abstraction) -> str:
    """The digest of the abstracted game on its first :data:`SAMPLE_DEALS` sampled deals:
    every state, information state, action, chance probability, payoff and pool awarded
    (payoffs to six places). Needs numpy (the ``strong`` extra)."""
    tree = build_tree(GameTable(variant, replace(abstraction, deals=SAMPLE_DEALS)))
    exact = [getattr(tree, name).tobytes() for name in ("actor", "parent", "child", "slot")]
    amounts = [
        repr([round(float(x), 6) for x in getattr(tree, name).ravel()])
        for name in ("prob", "returns", "pools")
    ]
    return content_digest(
        str(tree.players), "\n".join(tree.keys), repr(tree.actions), *exact, *amounts
    )


DEFAULT: Abstraction = Abstraction(
    cave=20, bets=("pot",), raises=2, straddles=True, deals=200, classes=5, seed=1
)
"""The abstraction ``bouillotte strong solve`` solves unless told otherwise
(``docs/strong-play.md``: what each choice changes)."""


def payload(table: GameTable, tree: Tree, solution: Solution) -> dict[str, Any]:
    """What is stored of a solution: its address's parts, its figures, the strategy."""
    from .store import GAME_VERSION, rules_digest

    ab = table.abstraction
    strategy: dict[str, list[list[float]]] = {}
    for info, key in enumerate(tree.keys):
        start = int(tree.first[info])
        strategy[key] = [
            [action, round(float(solution.strategy[start + k]), 5)]
            for k, action in enumerate(tree.actions[info])
        ]
    return {
        "variant": table.variant.id,
        "rules": rules_digest(table.variant),
        "game_version": GAME_VERSION,
        "game_sample": game_sample(table.variant, ab),
        "abstraction": {
            "cave": table.cave,
            "bets": list(ab.bets),
            "raises": ab.raises,
            "straddles": ab.straddles,
            "deals": ab.deals,
            "classes": ab.classes,
            "seed": ab.seed,
        },
        "bands": table.bands,
        "algorithm": "CFR+ (alternating updates, linear averaging)",
        "iterations": solution.iterations,
        "nash_conv": round(solution.nash_conv, 6),
        "values": [round(v, 6) for v in solution.values],
        "strategy": strategy,
    }
