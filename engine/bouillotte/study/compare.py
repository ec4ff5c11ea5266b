"""One scenario under several variants, side by side, with the rules that explain it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.profiles import Library
from .attribution import Attribution, attribute, signature
from .scenario import RunResult, Scenario, run_scenario


@dataclass(frozen=True)
class Comparison:
    scenario: Scenario
    results: list[RunResult]
    attributions: list[Attribution]

    def differs(self, index: int) -> bool:
        return signature(self.results[index].data) != signature(self.results[0].data)

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario.id,
            "title": self.scenario.model.title,
            "variants": [r.variant.id for r in self.results],
            "results": {r.variant.id: _cell(r) for r in self.results},
            "differs_from_first": {
                r.variant.id: self.differs(i) for i, r in enumerate(self.results)
            },
            "attribution": [a.to_json() for a in self.attributions],
        }


def _cell(result: RunResult) -> dict[str, Any]:
    data = result.data
    return {k: data[k] for k in ("status", "error", "pots", "bonuses", "carry", "players")}


def compare(
    scenario: Scenario,
    library: Library,
    variant_ids: Sequence[str] | None = None,
    with_attribution: bool = True,
) -> Comparison:
    own = scenario.variant_ids(library)  # its expect blocks must name known systems
    ids = list(variant_ids) if variant_ids else own
    results = [run_scenario(scenario, library.get(v)) for v in ids]
    attributions = []
    if with_attribution and results:
        first = signature(results[0].data)
        for other in results[1:]:
            if signature(other.data) != first:
                attributions.append(attribute(scenario, results[0], other))
    return Comparison(scenario, results, attributions)
