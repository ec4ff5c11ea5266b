"""Every way a deal can go when some rules are switched, played once each.

The engine is deterministic, and a deal reads only some rules, in an order that depends
on what it read before. Played under a copy of the rules that records each rule it reads
(the checks of a whole system first, then the deal), a play tells which of the differing
rules it depended on: every combination of switched rules that agrees with it on those
rules plays the same deal, to the same end. So the combinations fall into a few classes
(one per way the deal can go), and all of them are found by playing, level by level, each
first-read rule the other way while keeping the rules read before it (the way a program's
paths are enumerated by flipping one branch at a time). Each class is one play; together
they decide every combination, so the search over every combination is exact. A deal
reads most of the rules that differ whatever their values, so it goes up to 2^k ways over
k rules read: the search is bounded (:func:`ways`), smallest combinations first, and says
up to which size it decided every combination. Plays are shared by the values of the rules
they read (:class:`Paths`).

A rule is recorded when the engine reads it from its group (``rules.point.suit_tie``):
the copy's groups are subclasses that note each field read. Nothing in the engine reads
the rules any other way (the dumps and hashes of a profile happen before a deal starts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel

from ..rules.errors import InputError
from ..rules.profile import GROUPS, Rules, check_system
from ..rules.variant import Variant
from .scenario import Scenario, run_scenario

_READS: list[dict[str, None]] = []
"""The rules read by the play being recorded (innermost last), in the order first read."""

INVALID = "invalid"
"""The outcome of a combination that is no valid system."""
UNFIT = "unfit"
"""The outcome of a combination under which the actions do not fit the deal."""

PlayResult = tuple[Any, ...] | str
"""What a play gives: ``(signature, way)``, or :data:`INVALID`, or :data:`UNFIT`."""


def _noting(path: str, field: str) -> property:
    def read(self: BaseModel) -> Any:
        if _READS:
            _READS[-1].setdefault(path)
        return self.__dict__[field]

    return property(read)


@cache
def _recording(cls: type[BaseModel], group: str) -> type[BaseModel]:
    """A subclass of a group whose fields are properties that note each read (a property
    comes before the instance's own values, and costs no more than a lookup)."""
    kind = type(f"Recorded{cls.__name__}", (cls,), {})
    for field in cls.model_fields:
        setattr(kind, field, _noting(f"{group}.{field}", field))
    return kind


GroupKey = tuple[str, tuple[str, ...]]
"""A group of rules by its name and its values (as JSON, in schema order)."""


def recorded(
    rules: Rules,
    values: dict[str, Any],
    known: dict[GroupKey, BaseModel] | None = None,
    key: Sequence[str] = (),
) -> Rules:
    """A copy of ``rules`` with ``values`` switched, whose groups note every rule read. It
    is not validated: each value is one of a valid profile's, so only the checks of a
    whole system (:func:`check_system`) can refuse it, and :func:`play_recorded` runs them
    on the copy, recording what they read. ``key``: every rule's value as JSON in schema
    order, under which ``known`` keeps each group made (a group is only read, and the
    reads are noted by the play, not by the group, so one copy serves every play)."""
    groups: dict[str, Any] = {}
    start = 0
    for name, cls in GROUPS.items():
        fields = cls.model_fields
        part: GroupKey = (name, tuple(key[start : start + len(fields)]))
        start += len(fields)
        if known is not None and key and part in known:
            groups[name] = known[part]
            continue
        group = getattr(rules, name)
        made = _recording(cls, name).model_construct(
            **{f: values.get(f"{name}.{f}", getattr(group, f)) for f in fields}
        )
        if known is not None and key:
            known[part] = made
        groups[name] = made
    return Rules.model_construct(**groups)


@contextmanager
def _recording_reads() -> Iterator[dict[str, None]]:
    reads: dict[str, None] = {}
    _READS.append(reads)
    try:
        yield reads
    finally:
        _READS.pop()


def play_recorded(
    scenario: Scenario,
    base: Variant,
    values: dict[str, Any],
    owner: str,
    score: Callable[[dict[str, Any]], tuple[Any, ...]],
    known: dict[GroupKey, BaseModel] | None = None,
    key: Sequence[str] = (),
) -> tuple[PlayResult, list[str]]:
    """``base`` with ``values`` switched, checked and played with ``owner``'s actions: the
    outcome (``score`` of the data) and every rule read, in the order first read (``known``
    and ``key``: as :func:`recorded`)."""
    copy = recorded(base.rules, values, known, key)
    with _recording_reads() as reads:
        try:
            check_system(copy)
        except ValueError:
            return INVALID, list(reads)
        variant = dataclasses.replace(base, rules=copy)
        try:
            result = run_scenario(scenario, variant, actions_of=owner)
        except InputError:
            return UNFIT, list(reads)
        return score(result.data), list(reads)


@dataclass(frozen=True)
class Leaf:
    """One way the deal goes: the differing rules it read, switched or not, and its end."""

    assignment: dict[str, bool]
    """For each differing rule read: whether it is switched."""
    outcome: PlayResult

    def switched(self) -> frozenset[str]:
        """The smallest combination that goes this way."""
        return frozenset(r for r, on in self.assignment.items() if on)

    def covers(self, switched: frozenset[str]) -> bool:
        return all((r in switched) == on for r, on in self.assignment.items())


@dataclass(frozen=True)
class Ways:
    """The ways of a deal found, smallest combinations first, as far as the limit allows."""

    leaves: list[Leaf]
    up_to: int
    """Every combination of up to this many switched rules is decided (covered by a leaf,
    or holding the switched rules of a leaf that ``settled`` stopped at)."""
    complete: bool
    """Every combination is so decided."""


def ways(
    differing: Sequence[str],
    play: Callable[[frozenset[str]], tuple[PlayResult, list[str]]],
    limit: int,
    settled: Callable[[PlayResult], bool] = lambda outcome: False,
) -> Ways:
    """The ways the deal goes over the combinations of ``differing`` rules switched,
    found level by level: the base (nothing switched), then each way reached by switching
    one more of the rules a way read. After level k every combination of k rules or fewer
    is decided, since the way of a combination is reached by switching, in the order they
    are read, the rules of it the deal reads. A level is played only if it fits within
    ``limit`` ways in all (so where the search stops does not depend on what is cached).
    ``play`` plays one combination and says which rules it read; a way whose outcome is
    ``settled`` is not followed further (every combination below it holds its rules).
    """
    relevant = set(differing)
    leaves: list[Leaf] = []
    level: list[dict[str, bool]] = [{}]
    size = -1
    while level and len(leaves) + len(level) <= limit:
        following: list[dict[str, bool]] = []
        for fixed in level:
            switched = frozenset(r for r, on in fixed.items() if on)
            outcome, reads = play(switched)
            read = [r for r in reads if r in relevant]
            leaves.append(Leaf({r: r in switched for r in read}, outcome))
            if settled(outcome):
                continue
            prefix = dict(fixed)
            for rule in read:
                if rule not in fixed:
                    following.append({**prefix, rule: True})
                prefix[rule] = rule in switched
        size += 1
        level = following
    return Ways(leaves, len(differing) if not level else size, not level)


class Paths:
    """Every play of one scenario with one list of actions, by the values of the rules it
    read, as a tree: the first rule a play reads is always the same one, the next depends
    only on its value, and so on (the engine is deterministic), and a play ends the same
    under any rules that agree on those it read. So a combination of rules whose values
    lead to an end already played need not be played again: the two directions of a pair
    and the pairs sharing values share their plays."""

    def __init__(self) -> None:
        self.root = _Node()
        self.played = 0
        """Plays made (the others were found in the tree)."""

    def find(self, value: Callable[[str], str]) -> tuple[PlayResult, list[str]] | None:
        """The end of the play under the rules ``value`` gives (each rule's value as JSON),
        if those rules lead to one already played."""
        node = self.root
        while node.end is None:
            if node.rule is None:
                return None
            child = node.kids.get(value(node.rule))
            if child is None:
                return None
            node = child
        return node.end

    def add(self, value: Callable[[str], str], end: tuple[PlayResult, list[str]]) -> None:
        """Record a play: its reads, in order, and its end."""
        self.played += 1
        node = self.root
        for rule in end[1]:
            if node.end is not None or node.rule not in (None, rule):
                return  # not the path the tree holds: keep the tree as it is
            node.rule = rule
            node = node.kids.setdefault(value(rule), _Node())
        if node.rule is None and not node.kids:
            node.end = end


class _Node:
    __slots__ = ("end", "kids", "rule")

    def __init__(self) -> None:
        self.rule: str | None = None
        self.kids: dict[str, _Node] = {}
        self.end: tuple[PlayResult, list[str]] | None = None


def minimal(candidates: Sequence[frozenset[str]], order: Sequence[str]) -> list[list[str]]:
    """The inclusion-minimal sets among ``candidates``, smallest first, then in the order
    of the rules; each set in that order."""
    place = {r: n for n, r in enumerate(order)}
    unique = sorted(set(candidates), key=lambda s: (len(s), sorted(place[r] for r in s)))
    kept: list[frozenset[str]] = []
    for found in unique:
        if not any(k <= found for k in kept):
            kept.append(found)
    return [sorted(s, key=place.__getitem__) for s in kept]
