"""Every way a deal can go when some rules are switched, played once each.

The engine is deterministic, and a deal reads only some rules, in an order that depends
on what it read before. Played under a copy of the rules that records each rule it reads
(the checks of a whole system first, then the deal), a play tells which of the differing
rules it depended on: every combination of switched rules that agrees with it on those
rules plays the same deal, to the same end. So the combinations fall into a few classes
(one per way the deal can go), and all of them are found by playing, depth first, each
first-read rule the other way while keeping the rules read before it (the way a program's
paths are enumerated by flipping one branch at a time). Each class is one play; together
they decide every combination, so the search over every combination is exact and
complete with a few dozen plays instead of 2^n.

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

Outcome = tuple[Any, ...] | str
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
) -> tuple[Outcome, list[str]]:
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
    outcome: Outcome

    def switched(self) -> frozenset[str]:
        """The smallest combination that goes this way."""
        return frozenset(r for r, on in self.assignment.items() if on)

    def covers(self, switched: frozenset[str]) -> bool:
        return all((r in switched) == on for r, on in self.assignment.items())


class TooManyWays(Exception):
    """The deal goes more ways than the limit allows: the caller searches otherwise."""


def ways(
    differing: Sequence[str],
    play: Callable[[frozenset[str]], tuple[Outcome, list[str]]],
    limit: int,
) -> list[Leaf]:
    """Every way the deal goes over all combinations of ``differing`` rules switched.
    ``play`` plays one combination and says which rules it read."""
    relevant = set(differing)
    leaves: list[Leaf] = []

    def explore(fixed: dict[str, bool]) -> None:
        if len(leaves) >= limit:
            raise TooManyWays
        switched = frozenset(r for r, on in fixed.items() if on)
        outcome, reads = play(switched)
        read = [r for r in reads if r in relevant]
        leaves.append(Leaf({r: r in switched for r in read}, outcome))
        prefix = dict(fixed)
        for rule in read:
            if rule not in fixed:
                explore({**prefix, rule: rule not in switched})
            prefix[rule] = rule in switched

    explore({})
    return leaves


def outcome_of(leaves: Sequence[Leaf], switched: frozenset[str]) -> Outcome:
    """The end of the deal with ``switched`` rules switched."""
    for leaf in leaves:
        if leaf.covers(switched):
            return leaf.outcome
    raise AssertionError(f"no way of the deal covers {sorted(switched)}")


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
