"""The smallest sets of rules that reproduce a difference, found by playing them.

Two systems X and Y differ on a few rules, and a deal ends differently under them. Switch
some of those rules in X to Y's values and play the deal again: a set of rules
*reproduces* the difference if the deal then ends exactly as under Y. A reproducing set is
*minimal* if no proper subset of it reproduces it. Rules can act together (a tie-break
matters only once a counting rule has made a tie), so the sets are searched exactly, not
guessed, from the ways the deal goes (:mod:`trajectories`); this module holds what a
search found (:class:`Search`) and what one combination gave (:class:`Trial`). Playing
every combination in order of size, the smallest first, is the oracle the tests check
that search against (``tests/attribution_oracles.py``). A search is bounded; when it is
cut, the result says so, and up to which size every combination was decided.

A combination that is not a valid system (the schema refuses it) is not a system at all:
it reproduces nothing and is counted apart (``invalid``). A combination under which the
scenario's actions do not fit the deal is the same. A refused action is an outcome like
any other: it reproduces Y's outcome only if Y refuses the same action by the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Trial:
    """What one combination of switched rules gave."""

    outcome: tuple[Any, ...] | None
    """The outcome (:func:`attribution.signature`) with the actions that fit first; None if
    the combination is no valid system or no action list fits it."""
    reproduces: bool
    """Whether it gives exactly the target outcome (with either side's actions)."""
    same_way: bool = False
    """Whether it gives the target outcome for the target's reasons too: each pool won as
    the other's transcript says it is (the same reason, word for word), each bonus paid
    for the same reason, a refusal at the same step."""


@dataclass(frozen=True)
class Search:
    """The minimal reproducing sets of one direction (from ``base`` towards ``target``)."""

    sets: list[list[str]]
    """Every minimal set found, smallest first, each in the order of the differing rules."""
    changes: list[str]
    """Each differing rule which, switched alone, changes the outcome at all."""
    complete: bool
    """Every combination was played (or holds a set found): ``sets`` are all there are."""
    up_to: int
    """Every combination of up to this many rules was played (all of them when complete)."""
    played: int
    """The combinations tried (each played once, however many searches try it)."""
    invalid: int
    """Of those, the ones that are no valid system (or that the actions do not fit)."""
    limit: int
    rules: int
    """How many rules differ."""
    by_ways: bool = False
    """Decided from the ways the deal goes (:mod:`.trajectories`): ``played`` counts those
    ways (each decides a whole class of combinations), ``limit`` bounds them, and a cut
    search decided every combination of up to ``up_to`` rules."""

    def alone(self) -> list[str]:
        """The rules that alone reproduce the difference."""
        return [s[0] for s in self.sets if len(s) == 1]

    def changes_not_to_target(self) -> list[str]:
        """The rules that, switched alone, change the outcome but not to the target's."""
        alone = set(self.alone())
        return [r for r in self.changes if r not in alone]

    def note(self) -> str:
        """How far the search went, in words."""
        invalid = f"; {self.invalid} of them no valid system" if self.invalid else ""
        if self.by_ways and self.complete:
            ways = "way" if self.played == 1 else "ways"
            return (
                f"every combination of the {self.rules} differing rules decided: the deal goes "
                f"{self.played} {ways} over them, each played once{invalid}"
            )
        if self.by_ways:
            return (
                f"search cut at {self.played} ways of the deal (at most {self.limit} for each "
                "list of actions played): "
                f"every combination of up to {self.up_to} of the {self.rules} differing rules "
                f"decided, not the larger ones{invalid}"
            )
        if self.complete:
            return f"every combination of the {self.rules} differing rules tried{invalid}"
        return (
            f"search cut after {self.played} combinations: every combination of up to "
            f"{self.up_to} of the {self.rules} differing rules tried, not the larger ones{invalid}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "minimal_sets": self.sets,
            "changes_alone": self.changes,
            "search": {
                "complete": self.complete,
                "up_to": self.up_to,
                "played": self.played,
                "invalid": self.invalid,
                "limit": self.limit,
                "rules": self.rules,
                "by_ways": self.by_ways,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Search:
        search = data["search"]
        return cls(
            sets=[list(s) for s in data["minimal_sets"]],
            changes=list(data["changes_alone"]),
            complete=bool(search["complete"]),
            up_to=int(search["up_to"]),
            played=int(search["played"]),
            invalid=int(search["invalid"]),
            limit=int(search["limit"]),
            rules=int(search["rules"]),
            by_ways=bool(search.get("by_ways", False)),
        )
