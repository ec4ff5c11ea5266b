"""Oracles of the attribution's search, for the tests alone: the search that plays every
combination of switched rules in order of size (what :func:`trajectories.ways` must agree
with), and the end of a deal read off the ways it goes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from bouillotte.study.reproduce import Search, Trial
from bouillotte.study.trajectories import Leaf, PlayResult

PLAY_LIMIT = 512
"""At most this many combinations of rules are played for one direction of one pair in one
scenario (every combination of nine rules is 511): about a tenth of a second."""


Play = Callable[[tuple[str, ...]], Trial]


def search_sets(
    differing: Sequence[str],
    play: Play,
    start: tuple[Any, ...],
    limit: int = PLAY_LIMIT,
    same_way: bool = False,
) -> Search:
    """Every minimal set of ``differing`` rules whose switch reproduces the target, by
    playing combinations in order of size with at most ``limit`` plays. ``play`` gives
    what one combination does (callers memoise it); ``start`` is the base outcome;
    ``same_way``: the target's reasons must be reproduced too."""
    rules = list(differing)
    found: list[frozenset[str]] = []
    sets: list[list[str]] = []
    played = invalid = 0
    up_to = 0
    changes: list[str] = []
    cut = False
    for size in range(1, len(rules) + 1):
        for paths in combinations(rules, size):
            if any(f <= set(paths) for f in found):
                continue
            if played >= limit:
                cut = True
                break
            got = play(paths)
            played += 1
            if got.outcome is None:
                invalid += 1
            if size == 1 and got.outcome is not None and got.outcome != start:
                changes.append(paths[0])
            if got.same_way if same_way else got.reproduces:
                found.append(frozenset(paths))
                sets.append(list(paths))
        if cut:
            break
        up_to = size
    return Search(
        sets=sets,
        changes=changes,
        complete=not cut,
        up_to=up_to,
        played=played,
        invalid=invalid,
        limit=limit,
        rules=len(rules),
    )


def outcome_of(leaves: Sequence[Leaf], switched: frozenset[str]) -> PlayResult:
    """The end of the deal with ``switched`` rules switched."""
    for leaf in leaves:
        if leaf.covers(switched):
            return leaf.outcome
    raise AssertionError(f"no way of the deal covers {sorted(switched)}")
