"""Rule attribution: which differing rules make two variants' outcomes differ.

Two answers, from the same plays. The *minimal sets* (:mod:`.reproduce`): every smallest
set of differing rules which, switched from the first variant's values to the second's,
gives exactly the second's outcome, found by playing the combinations in order of size;
and the same from the second towards the first. And, as before, the rules *responsible*:
each differing rule changed alone; a rule is responsible if that change alone changes the
outcome; when no single rule does, the smallest sets that do (pairs, then triples).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from pydantic import BaseModel

from ..rules.profile import rule_paths
from ..rules.variant import Provenance, Variant, differing_rules
from .reproduce import Search, Trial
from .scenario import RunResult, Scenario
from .trajectories import (
    INVALID,
    UNFIT,
    GroupKey,
    Leaf,
    Paths,
    PlayResult,
    minimal,
    play_recorded,
    ways,
)

WAYS_LIMIT = 1024
"""At most this many ways of the deal (plays) for one side's actions in one direction,
found smallest combinations first (:func:`.trajectories.ways`): every combination of up
to 10 rules read is decided. A deal reads most of the rules that differ whatever their
values, so it goes up to 2^k ways over k rules, and the bundled pairs read up to 12. Where
the search stops is said, with the one-at-a-time answer beside it."""

SITE_WAYS_LIMIT = 32
"""The site's bound (the site explains 572 pairs of scenarios at once: searching each as
far as :data:`WAYS_LIMIT` cost 140,000 plays, two minutes of a cold build): every
combination of up to 2 of 7 rules read, or of 1 of up to 30; ``bouillotte compare``
searches on from there."""

MAX_SET = 3
"""The one-at-a-time answer (``responsible``) tries sets of up to this many rules."""


def signature(data: dict[str, Any]) -> tuple[Any, ...]:
    """What counts as "the outcome": status, refusal rule, pots, bonuses, nets (with the part
    kept on a ledger), carry."""
    error = data.get("error") or {}
    return (
        data["status"],
        error.get("rule"),
        tuple((p["amount"], p["winner"]) for p in data["pots"]),
        tuple(sorted((b["from"], b["to"], b["amount"]) for b in data["bonuses"])),
        tuple(sorted((n, p["net"], p["ledger"]) for n, p in data["players"].items())),
        data["carry"],
    )


def way(data: dict[str, Any]) -> tuple[Any, ...]:
    """The outcome with its reasons: :func:`signature`, each pool's reason as the transcript
    words it, each bonus's reason, and the step of a refusal."""
    error = data.get("error") or {}
    return (
        signature(data),
        error.get("step"),
        tuple(p["reason"] for p in data["pots"]),
        tuple(sorted((b["from"], b["to"], b["amount"], b["reason"]) for b in data["bonuses"])),
    )


@dataclass(frozen=True)
class Direction:
    """The minimal sets from one system towards the other."""

    outcome: Search
    """Sets that give the other's outcome (pools, bonuses, nets, carry)."""
    same_way: Search
    """Sets that give it for the other's reasons too (each pool won the same way)."""

    def to_json(self, other: str, base: str) -> dict[str, Any]:
        """``base``: the system whose rules are switched; ``other``: the one aimed at."""
        return {
            **self.outcome.to_json(),
            "explanation": [f.to_json(other, base) for f in findings(self)],
            "same_way": {
                "minimal_sets": self.same_way.sets,
                "search": self.same_way.to_json()["search"],
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Direction:
        same = data["same_way"]
        return cls(
            Search.from_json(data),
            Search.from_json({**same, "changes_alone": data["changes_alone"]}),
        )


@dataclass(frozen=True)
class Finding:
    """One line of an explanation: what some rules, or sets of rules, do to the outcome."""

    kind: str
    """``together``: each set, of several rules, is minimal and gives the other's outcome;
    ``alone``: each rule alone gives it; ``changes``: each rule alone changes the outcome,
    but not to the other's; ``same-way``: each set is minimal and gives the other's outcome
    for the other's reasons too (each pool won as its transcript says; listed when these
    are not the sets of the outcome alone); ``no-rule``: the empty set is minimal (its
    ``sets`` is ``[[]]``): no rule needs switching, the other's own written actions played
    under the base's rules already give the other's outcome."""
    sets: list[list[str]]

    def says(self, other: str, base: str) -> str:
        """What the finding means, in words (the terminal, the JSON and the site say the
        same); ``base`` is the system whose rules are switched."""
        many = len(self.sets) > 1
        if self.kind == "no-rule":
            return (
                f"under {base}'s rules, {other}'s written actions already give {other}'s "
                "outcome: the difference comes from how the deal was played, not from a rule"
            )
        if self.kind == "together":
            return f"these rules together produce {other}'s outcome" + (
                " (each set on its own)" if many else ""
            )
        if self.kind == "alone":
            return (
                f"{'each of these rules' if many else 'this rule'} alone produces {other}'s outcome"
            )
        if self.kind == "same-way":
            return f"these rules together produce it for {other}'s reasons too" + (
                " (each set on its own)" if many else ""
            )
        return (
            f"{'each of these rules' if many else 'this rule'} alone changes the outcome, "
            f"but not to {other}'s"
        )

    def names_rules(self) -> bool:
        """Whether the finding lists rules (``no-rule`` lists none: its one set is empty)."""
        return any(self.sets)

    def to_json(self, other: str, base: str) -> dict[str, Any]:
        return {"kind": self.kind, "sets": self.sets, "says": self.says(other, base)}


def findings(direction: Direction) -> list[Finding]:
    """That no rule needs switching (the empty set is minimal: the other's written actions
    alone give its outcome), the minimal sets of several rules, the rules that alone give
    the other's outcome, those that alone change it but not to the other's, then (when they
    are other sets) the sets that give the other's reasons too; each in the order the
    search found them."""
    search = direction.outcome
    out = [
        Finding("no-rule", [[]] if [] in search.sets else []),
        Finding("together", [s for s in search.sets if len(s) > 1]),
        Finding("alone", [[r] for r in search.alone()]),
        Finding("changes", [[r] for r in search.changes_not_to_target()]),
    ]
    if direction.same_way.sets != search.sets:
        out.append(Finding("same-way", direction.same_way.sets))
    return [f for f in out if f.sets]


@dataclass(frozen=True)
class Attribution:
    base: str
    other: str
    differing: list[str]
    """Every rule on which the two variants differ."""
    responsible: list[list[str]]
    """Rules (or smallest sets of rules) whose change alone changes the base outcome."""
    reproduces: list[list[str]]
    """Of those, the ones whose change alone gives exactly the other variant's outcome."""
    provenance: dict[str, dict[str, Provenance]] = field(default_factory=dict)
    """For each differing rule, how each variant's source stands behind its value."""
    towards: Direction | None = None
    """The minimal sets from the base towards the other (the base's rules switched)."""
    back: Direction | None = None
    """The minimal sets from the other towards the base (the other's rules switched)."""
    sentences: dict[str, dict[str, str]] = field(default_factory=dict)
    """For each differing rule, each variant's sentence for it (``Variant.cite``)."""

    def standing_text(self, path: str) -> str:
        """``rule (foster: documented; britannica-1911: inherited from foster — … is silent)``."""
        sides = self.provenance.get(path)
        if not sides:
            return path
        return f"{path} ({'; '.join(f'{v}: {p.label}' for v, p in sides.items())})"

    def back_differs(self) -> bool:
        """Whether the other direction names other sets or other rules."""
        if self.towards is None or self.back is None:
            return False
        there, back = self.towards, self.back
        return (there.outcome.sets, there.outcome.changes, there.same_way.sets) != (
            back.outcome.sets,
            back.outcome.changes,
            back.same_way.sets,
        )

    def named(self) -> list[str]:
        """Every rule an explanation names, in the order of the differing rules."""
        found: set[str] = {p for group in self.responsible for p in group}
        for direction in (self.towards, self.back):
            if direction is not None:
                for search in (direction.outcome, direction.same_way):
                    found.update(p for s in search.sets for p in s)
                found.update(direction.outcome.changes)
        return [p for p in self.differing if p in found]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "base": self.base,
            "other": self.other,
            "differing_rules": self.differing,
            "responsible": self.responsible,
            "reproduces": self.reproduces,
            "provenance": {
                path: {v: p.to_json() for v, p in sides.items()}
                for path, sides in self.provenance.items()
            },
            "sentences": self.sentences,
        }
        if self.towards is not None:
            data.update(self.towards.to_json(self.other, self.base))
        if self.back is not None:
            data["reverse"] = {
                "base": self.other,
                "other": self.base,
                **self.back.to_json(self.base, self.other),
            }
        return data


def sides(a: Variant, b: Variant, differing: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """For each differing rule, both variants' standing and sentence."""
    provenance = {p: {a.id: a.provenance(p), b.id: b.provenance(p)} for p in differing}
    sentences = {p: {a.id: a.cite(p), b.id: b.cite(p)} for p in differing}
    return provenance, sentences


class PlayCache:
    """The plays of one scenario under changed rules, by the rules and the actions: the
    same system arises in many pairs and both directions (switching foster's point rule to
    pagat's and to britannica's gives one system), and is played once."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.paths: dict[tuple[str, ...], Paths] = {}
        """The plays made (:mod:`.trajectories`), by the actions played, each found by the
        values of the rules it read."""
        self.groups: dict[GroupKey, BaseModel] = {}
        """Each group of rules made for a recorded play, by its values."""
        self.values: dict[int, tuple[Variant, dict[str, str]]] = {}
        """Each system's rules as JSON (:func:`_values`), by the system (kept, so that its
        ``id`` stays its own)."""

    def values_of(self, variant: Variant) -> dict[str, str]:
        if id(variant) not in self.values:
            self.values[id(variant)] = (variant, _values(variant))
        return self.values[id(variant)][1]


def _values(variant: Variant) -> dict[str, str]:
    return {p: json.dumps(_plain(variant.value(p)), sort_keys=True) for p in rule_paths()}


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


class _Player:
    """Plays the scenario under ``base`` with some rules switched to ``other``'s values,
    each combination once. The base's actions are played first; when they do not fit, or
    do not give the target and the scenario writes the other variant its own actions,
    the other's actions are played too (the deal as the other's players play it)."""

    def __init__(
        self, scenario: Scenario, base: Variant, other: Variant, target: Any, cache: PlayCache
    ) -> None:
        self.scenario, self.base, self.other = scenario, base, other
        self.target, self.way = signature(target), way(target)
        own, theirs = scenario.actions_for(base.id)[0], scenario.actions_for(other.id)[0]
        self.owners = [(base.id, tuple(own))]
        if own != theirs:
            self.owners.append((other.id, tuple(theirs)))
        self.memo: dict[tuple[str, ...], Trial] = {}
        self.cache = cache if cache.scenario is scenario else PlayCache(scenario)
        self.mine, self.theirs = self.cache.values_of(base), self.cache.values_of(other)

    def __call__(self, paths: tuple[str, ...]) -> Trial:
        if paths not in self.memo:
            self.memo[paths] = self._play(paths)
        return self.memo[paths]

    def recorded(
        self, switched: frozenset[str], owner: str, actions: tuple[str, ...]
    ) -> tuple[PlayResult, list[str]]:
        """One combination played with one side's actions (once for every combination
        that agrees with it on the rules it reads): its outcome and the rules it read."""
        mine, theirs = self.mine, self.theirs

        def value(path: str) -> str:
            return theirs[path] if path in switched else mine[path]

        paths = self.cache.paths.setdefault(actions, Paths())
        found = paths.find(value)
        if found is None:
            rules = tuple(value(p) for p in mine)
            values = {p: self.other.value(p) for p in switched}
            found = play_recorded(
                self.scenario, self.base, values, owner, _scored, self.cache.groups, rules
            )
            paths.add(value, found)
        return found

    def _play(self, paths: tuple[str, ...]) -> Trial:
        first: tuple[Any, ...] | None = None
        reproduces = False
        for owner, actions in self.owners:
            got, _ = self.recorded(frozenset(paths), owner, actions)
            if got == INVALID:
                return Trial(None, False)  # that combination of rules is not a valid system
            if got == UNFIT:
                continue  # these actions do not fit the deal under these rules
            assert isinstance(got, tuple)
            first = got[0] if first is None else first
            if got[0] == self.target:
                reproduces = True
                if got[1] == self.way:
                    return Trial(first, True, True)
        return Trial(first, reproduces)


def _one_at_a_time(
    differing: list[str], play: Callable[[tuple[str, ...]], Trial], start: Any, target: Any
) -> tuple[list[list[str]], list[list[str]]]:
    """The rules responsible (each set changed alone changes the outcome), of the smallest
    size that has any, and of those the ones that give exactly the target."""
    responsible: list[list[str]] = []
    reproduces: list[list[str]] = []
    for size in range(1, MAX_SET + 1):
        for paths in combinations(differing, size):
            if any(set(found) <= set(paths) for found in responsible):
                continue
            got = play(paths).outcome
            if got is not None and got != start:
                responsible.append(list(paths))
                if got == target:
                    reproduces.append(list(paths))
        if responsible:
            break
    return responsible, reproduces


class _Exact:
    """What the combinations of switched rules give, from the ways the deal goes
    (:func:`.trajectories.ways`), for each side's actions, smallest combinations first."""

    def __init__(self, player: _Player, differing: list[str], limit: int) -> None:
        self.player, self.differing, self.limit = player, differing, limit
        aim = player.way

        def settled(outcome: PlayResult) -> bool:
            # Every combination beyond a way that gives the other's outcome for its reasons
            # holds that way's rules: it is no smaller set, for either search.
            return isinstance(outcome, tuple) and outcome[1] == aim

        self.found = [
            ways(differing, self._recorder(owner, actions), limit, settled)
            for owner, actions in player.owners
        ]

    def _recorder(
        self, owner: str, actions: tuple[str, ...]
    ) -> Callable[[frozenset[str]], tuple[PlayResult, list[str]]]:
        return lambda switched: self.player.recorded(switched, owner, actions)

    def leaves(self) -> list[Leaf]:
        return [leaf for found in self.found for leaf in found.leaves]

    def __call__(self, paths: tuple[str, ...]) -> Trial:
        # Each combination is a lookup in the plays made (played if none holds it).
        return self.player(paths)

    def direction(self, start: Any) -> Direction:
        target, aim = self.player.target, self.player.way
        ends = self.leaves()
        hits = [
            x.switched() for x in ends if isinstance(x.outcome, tuple) and x.outcome[0] == target
        ]
        same = [x.switched() for x in ends if isinstance(x.outcome, tuple) and x.outcome[1] == aim]
        changes = []
        for rule in self.differing:
            got = self((rule,)).outcome
            if got is not None and got != start:
                changes.append(rule)
        n = len(self.differing)
        complete = all(f.complete for f in self.found)
        up_to = min(f.up_to for f in self.found)
        invalid = sum(1 for x in ends if isinstance(x.outcome, str))

        def search(found: list[frozenset[str]]) -> Search:
            sets = minimal(found, self.differing)
            return Search(
                sets=[s for s in sets if complete or len(s) <= up_to],
                changes=changes,
                complete=complete,
                up_to=up_to,
                played=len(ends),
                invalid=invalid,
                limit=self.limit,
                rules=n,
                by_ways=True,
            )

        return Direction(search(hits), search(same))


def _scored(data: dict[str, Any]) -> tuple[Any, ...]:
    return (signature(data), way(data))


def attribute(
    scenario: Scenario,
    base: RunResult,
    other: RunResult,
    limit: int = WAYS_LIMIT,
    plays: PlayCache | None = None,
) -> Attribution:
    """Why ``other`` ends differently from ``base``: the minimal sets both ways, and the
    one-at-a-time answer; each direction follows at most ``limit`` ways of the deal for
    each side's actions. ``plays``: the scenario's plays, shared by the attributions of
    one scenario (only a saving of time: the answer is the same)."""
    cache = plays if plays is not None else PlayCache(scenario)
    a, b = base.variant, other.variant
    differing = differing_rules(a, b)
    target, start = signature(other.data), signature(base.data)
    forward = _Player(scenario, a, b, other.data, cache)
    backward = _Player(scenario, b, a, base.data, cache)
    provenance, sentences = sides(a, b, differing)
    there, back = _Exact(forward, differing, limit), _Exact(backward, differing, limit)
    responsible, reproduces = _one_at_a_time(differing, there, start, target)
    return Attribution(
        a.id,
        b.id,
        differing,
        responsible,
        reproduces,
        provenance,
        there.direction(start),
        back.direction(target),
        sentences,
    )
