"""The sampled deals that are one game but for their payoffs, walked as one.

Where hands are known by class (``classes`` > 0), two sampled deals that give every seat
the same class are the same game up to the payoffs: the same states, information states
and actions, in the same places. A strategy is a choice per information state, so it
plays both deals alike, and a player's expected return over the sampled deals is the
same whether chance picks one of the N deals (probability 1/N each) or one of the groups
of alike deals (probability: its share of the N) whose payoffs are its deals' mean. The
two games have the same values and the same NashConv for every strategy; the merged one
has a tree as many times smaller as the deals outnumber their groups, so CFR+ runs over
more sampled deals in the same time and memory (``docs/strong-play.md``).

Every deal is still walked through the engine, one at a time; deals are merged only where
their walks agree on everything but the payoffs and pools (a hash of each state's actor,
information state, actions and chance probabilities), never by their classes alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .abstraction import AbstractionError
from .core import CHANCE, TERMINAL, GameTable, Node
from .infostates import InfoStates
from .solve import (
    MAX_STATES,
    MOST_STATES,
    Tree,
    build_tree,
    collection_paused,
    edge_levels,
    memory_fault,
)


@dataclass
class _Walk:
    """One sampled deal's subtree, breadth first (its first node is the state just dealt):
    per node its actor, depth (from the game's start) and parent (-1 for the first), the
    number of its action among its parent's moves, the probability of that move, and its
    information state's key and legal actions (a player's node) or its payoffs and pool
    (a terminal one)."""

    actor: Any  # per node (numpy arrays, as the lists below)
    depth: Any
    parent: Any
    move: Any
    prob: Any
    infos: dict[int, tuple[str, list[int]]]
    returns: Any  # per node x player, zero but at terminal nodes
    pools: Any  # per node
    signature: str


@dataclass
class _Group:
    """Alike sampled deals: the first one's walk, how many they are, and their payoffs and
    pools summed node by node."""

    walk: _Walk
    count: int
    returns: Any
    pools: Any


def _too_many(bound: int, what: str) -> AbstractionError:
    return AbstractionError(
        f"the merged game has more than {bound:,} states {what}: sample fewer deals, cap the "
        "raises, offer fewer bet sizes or make the caves smaller (--max-states allows up to "
        f"{MOST_STATES:,})"
    )


def _walk_deal(table: GameTable, root: Node, outcome: int, bound: int) -> _Walk:
    """Deal ``outcome``'s subtree; :class:`AbstractionError` once it alone passes
    ``bound`` states, or the walk passes its share of memory (as the whole walk's)."""
    import numpy as np

    first = root.clone()
    first.apply(outcome)
    nodes: list[Node | None] = [first]
    actor: list[int] = []
    depth = [1]
    parent = [-1]
    move = [0]
    prob = [1.0]
    infos: dict[int, tuple[str, list[int]]] = {}
    paid: dict[int, tuple[list[float], int]] = {}
    shape = hashlib.blake2b(digest_size=20)
    i = 0
    while i < len(nodes):
        node = nodes[i]
        nodes[i] = None  # free it: only the lists are kept
        assert node is not None
        who = node.current()
        actor.append(who)
        if 1 + len(nodes) > bound:  # with the chance node above it
            raise _too_many(bound, f"in deal {outcome + 1:,} alone")
        if i % 65_536 == 0 and (fault := memory_fault(len(nodes))) is not None:
            raise AbstractionError(fault)
        if who == TERMINAL:
            assert node.deal is not None
            paid[i] = (node.returns(), sum(pot.amount for pot in node.deal.outcome.pots))
            shape.update(b"T\n")
            i += 1
            continue
        if who == CHANCE:
            moves = node.chance_outcomes()
            shape.update(f"C{moves}\n".encode())
        else:
            legal = node.legal()
            key = node.info_key(who)
            infos[i] = (key, legal)
            moves = [(a, 1.0) for a in legal]
            shape.update(f"{who}|{key}|{legal}\n".encode())
        for k, (action, p) in enumerate(moves):
            after = node.clone()
            after.apply(action)
            nodes.append(after)
            depth.append(depth[i] + 1)
            parent.append(i)
            move.append(k)
            prob.append(p)
        i += 1
    returns = np.zeros((len(actor), table.players))
    pools = np.zeros(len(actor))
    for n, (values, pool) in paid.items():
        returns[n] = values
        pools[n] = pool
    return _Walk(
        np.array(actor),
        np.array(depth),
        np.array(parent),
        np.array(move),
        np.array(prob),
        infos,
        returns,
        pools,
        shape.hexdigest(),
    )


def merged_tree(
    table: GameTable,
    max_states: int | None = None,
    step: Callable[[int], None] = lambda _: None,
) -> tuple[Tree, int]:
    """The game's tree with its alike sampled deals merged (the module's docstring), and
    how many groups the deals made; ``step(1)`` after each deal walked (the command's
    progress). ``max_states`` bounds the merged tree as :func:`~.solve.build_tree`'s
    bounds the whole one. A game of every deal (no sampled deals) is walked whole."""
    deals = table.abstraction.deals
    if not deals:
        return build_tree(table, max_states), 0
    bound = MAX_STATES if max_states is None else max_states
    if not 1 <= bound <= MOST_STATES:
        raise AbstractionError(f"max_states: {bound:,} is not between 1 and {MOST_STATES:,}")
    root = Node(table)
    if root.current() != CHANCE:  # the deal is chance's first move in every sampled game
        raise AbstractionError("the game does not begin with chance's pick of a deal")
    try:
        with collection_paused():
            return _merged(table, root, bound, step)
    except (MemoryError, SystemError):  # as build_tree: numpy or CPython failing to allocate
        raise AbstractionError(
            "the abstracted game's tree ran out of memory while it was walked: sample fewer "
            "deals, cap the raises, offer fewer bet sizes, make the caves smaller, or lower "
            "--max-states"
        ) from None


def _merged(
    table: GameTable, root: Node, bound: int, step: Callable[[int], None]
) -> tuple[Tree, int]:
    """:func:`merged_tree`'s walk: deal by deal, each kept only where it is the first of
    its group."""
    deals = table.abstraction.deals
    groups: dict[str, _Group] = {}  # by the walk's signature
    states = 1
    for outcome, _ in root.chance_outcomes():
        walk = _walk_deal(table, root, outcome, bound)
        group = groups.get(walk.signature)
        if group is None:
            states += len(walk.actor)
            if states > bound:
                raise _too_many(
                    bound,
                    f"after {outcome + 1:,} of its {deals:,} deals "
                    f"({len(groups) + 1:,} groups of alike deals)",
                )
            groups[walk.signature] = _Group(walk, 1, walk.returns, walk.pools)
            if (fault := memory_fault(states)) is not None:
                raise AbstractionError(fault)
        else:
            group.count += 1
            group.returns = group.returns + walk.returns
            group.pools = group.pools + walk.pools
        step(1)
    return _assembled(table, list(groups.values()), deals), len(groups)


def _assembled(table: GameTable, groups: list[_Group], deals: int) -> Tree:
    """The tree of a chance node over ``groups``, its nodes in breadth-first order as
    :func:`~.solve.build_tree` numbers them: each level holds the groups' nodes of that
    depth, group by group."""
    import numpy as np

    walks = [g.walk for g in groups]
    locals_: list[Any] = [w.depth for w in walks]
    top = max(int(d.max()) for d in locals_)
    where: list[Any] = [np.empty(len(w.actor), dtype=np.int64) for w in walks]
    order: list[tuple[int, Any]] = []  # (group, its local nodes) in the merged order
    size = 1
    for level in range(1, top + 1):
        for j, d in enumerate(locals_):
            at = np.nonzero(d == level)[0]  # contiguous: a walk is breadth first
            where[j][at] = np.arange(size, size + len(at))
            order.append((j, at))
            size += len(at)
    actor = np.empty(size, dtype=np.int64)
    depth = np.empty(size, dtype=np.int64)
    returns = np.zeros((size, table.players))
    pools = np.zeros(size)
    parent = np.empty(size - 1, dtype=np.int64)
    prob = np.empty(size - 1)
    move = np.empty(size - 1, dtype=np.int64)
    actor[0], depth[0] = CHANCE, 0
    arrays = [(w.actor, w.parent, w.move, w.prob) for w in walks]
    for j, at in order:
        to = where[j][at]
        acts, parents, moves, probs = arrays[j]
        count = groups[j].count
        actor[to] = acts[at]
        depth[to] = locals_[j][at]
        returns[to] = groups[j].returns[at] / count
        pools[to] = groups[j].pools[at] / count
        up = parents[at]
        parent[to - 1] = np.where(up < 0, 0, where[j][np.maximum(up, 0)])
        move[to - 1] = np.where(up < 0, j, moves[at])
        prob[to - 1] = np.where(up < 0, count / deals, probs[at])
    # information states numbered as they are met, breadth first, as build_tree does
    infos = InfoStates()
    base = np.full(size, -1, dtype=np.int64)
    met = sorted(
        (int(where[j][n]), key, legal)
        for j, w in enumerate(walks)
        for n, (key, legal) in w.infos.items()
    )
    for node, key, legal in met:
        base[node] = infos.first_slot(key, legal)
    slot = np.where(base[parent] >= 0, base[parent] + move, -1)
    levels = edge_levels(depth, parent)
    return Tree(
        table.players,
        depth,
        actor,
        returns,
        pools,
        parent,
        np.arange(1, size),
        slot,
        prob,
        infos.keys,
        infos.actions,
        np.array(infos.first),
        infos.info_of_slot(),
        levels,
    )
