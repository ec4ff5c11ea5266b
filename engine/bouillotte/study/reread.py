"""A scenario played with an ambiguous sentence read another way (``--reading``).

A reading (``variants/readings.yaml``) re-reads one sentence of one source, so it is played
by every system whose rule rests on that sentence: whose profile cites that source for the
rule (stated, inferred, or inherited where its own source is silent). The other systems
play their own rules. A system keeps its id (its own actions are played, or the ones the
scenario's ``expect_readings`` writes for that reading).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.errors import InputError
from ..rules.readings import Reading
from ..rules.variant import Variant
from .scenario import RunResult, Scenario, reading_cases, run_scenario


@dataclass(frozen=True)
class Reread:
    """One reading played: the rule, the value played and the system's own value."""

    rule: str
    value: Any
    own: Any
    meaning: str

    def text(self, variant: str) -> str:
        same = " (its own reading)" if self.own == self.value else f" instead of {self.own}"
        return f"{variant} reads {self.rule} as {self.value}{same}: {self.meaning}"

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "value": self.value, "own": self.own, "meaning": self.meaning}


def rests_on(variant: Variant, reading: Reading) -> bool:
    """Whether the variant's value of the reading's rule rests on the reading's sentence."""
    citation = variant.citation(reading.rule)
    source = (citation.source if citation else None) or variant.source
    return source == reading.source


def reread(variant: Variant, chosen: Sequence[tuple[Reading, Any]]) -> tuple[Variant, list[Reread]]:
    """``variant`` with each chosen reading that concerns it played (its id kept)."""
    applied = [
        Reread(r.rule, value, variant.value(r.rule), r.meaning_of(value) or "")
        for r, value in chosen
        if rests_on(variant, r)
    ]
    if not applied:
        return variant, []
    try:
        changed = variant.with_values({a.rule: a.value for a in applied}, label=variant.id)
    except ValueError as exc:
        raise InputError(
            f"under {variant.id} these readings make no valid system: {exc}", field="--reading"
        ) from None
    return changed, applied


def check_concerned(variants: Sequence[Variant], chosen: Sequence[tuple[Reading, Any]]) -> None:
    """Bad input if a chosen reading concerns none of the systems played."""
    for reading, value in chosen:
        if not any(rests_on(v, reading) for v in variants):
            raise InputError(
                f"{reading.rule}={value} re-reads a sentence of {reading.source}, on which none "
                f"of {', '.join(v.id for v in variants)} rests; play a system built on "
                f"{reading.source}",
                field="--reading",
            )


def run_reread(scenario: Scenario, variant: Variant, applied: Sequence[Reread]) -> RunResult:
    """Play the scenario under a reread variant: with the actions the scenario writes for
    that one reading, when it writes some, else the variant's own."""
    if len(applied) == 1:
        (one,) = applied
        for case in reading_cases(scenario):
            same = (case.variant_id, case.rule, case.value) == (variant.id, one.rule, one.value)
            if same and case.expect.actions:
                actions = (case.expect.actions, (*case.path, "actions"))
                return run_scenario(scenario, variant, actions=actions)
    return run_scenario(scenario, variant)
