"""Rule attribution: which differing rules make two variants' outcomes differ.

Starting from the first variant, each rule on which the second differs is changed alone;
a rule is responsible if that change alone changes the outcome. When no single rule does,
the smallest set of rules that does is searched (pairs, then triples).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..rules.errors import InputError
from ..rules.variant import Provenance, Variant, differing_rules
from .scenario import RunResult, Scenario, run_scenario

MAX_SET = 3


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

    def standing_text(self, path: str) -> str:
        """``rule (foster: documented; britannica-1911: inherited from foster — … is silent)``."""
        sides = self.provenance.get(path)
        if not sides:
            return path
        return f"{path} ({'; '.join(f'{v}: {p.label}' for v, p in sides.items())})"

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "other": self.other,
            "differing_rules": self.differing,
            "responsible": self.responsible,
            "reproduces": self.reproduces,
            "provenance": {
                path: {v: p.to_json() for v, p in sides.items()}
                for path, sides in self.provenance.items()
            },
        }


def _try(scenario: Scenario, variant: Variant, actions: tuple[str, str]) -> RunResult | None:
    for owner in actions:
        try:
            return run_scenario(scenario, variant, actions_of=owner)
        except InputError:
            continue
    return None


def attribute(scenario: Scenario, base: RunResult, other: RunResult) -> Attribution:
    a, b = base.variant, other.variant
    differing = differing_rules(a, b)
    target, start = signature(other.data), signature(base.data)
    actions = (a.id, b.id)

    def outcome_with(paths: tuple[str, ...]) -> tuple[Any, ...] | None:
        try:
            changed = a.with_values({p: b.value(p) for p in paths}, label=a.id)
        except ValueError:
            return None  # that combination of rules is not a valid system
        result = _try(scenario, changed, actions)
        return None if result is None else signature(result.data)

    responsible: list[list[str]] = []
    reproduces: list[list[str]] = []
    for size in range(1, MAX_SET + 1):
        for paths in combinations(differing, size):
            if any(set(found) <= set(paths) for found in responsible):
                continue
            got = outcome_with(paths)
            if got is not None and got != start:
                responsible.append(list(paths))
                if got == target:
                    reproduces.append(list(paths))
        if responsible:
            break
    provenance = {p: {a.id: a.provenance(p), b.id: b.provenance(p)} for p in differing}
    return Attribution(a.id, b.id, differing, responsible, reproduces, provenance)
