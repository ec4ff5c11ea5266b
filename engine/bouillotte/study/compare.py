"""One scenario under several variants, side by side, with the rules that explain it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.profiles import Library
from ..rules.readings import Reading
from .attribution import WAYS_LIMIT, Attribution, PlayCache, attribute, signature
from .reread import Reread, check_concerned, reread, run_reread
from .scenario import RunResult, Scenario


@dataclass(frozen=True)
class Comparison:
    scenario: Scenario
    results: list[RunResult]
    attributions: list[Attribution]
    rereads: dict[str, list[Reread]] = field(default_factory=dict)
    """The readings each variant plays instead of its own rule (``--reading``)."""

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
            "readings": {v: [r.to_json() for r in rs] for v, rs in self.rereads.items()},
        }


def _cell(result: RunResult) -> dict[str, Any]:
    data = result.data
    return {k: data[k] for k in ("status", "error", "pots", "bonuses", "carry", "players")}


def compare(
    scenario: Scenario,
    library: Library,
    variant_ids: Sequence[str] | None = None,
    with_attribution: bool = True,
    readings: Sequence[tuple[Reading, Any]] = (),
    ways_limit: int = WAYS_LIMIT,
) -> Comparison:
    """``readings``: sentences read another way, each played by the systems resting on it;
    ``ways_limit``: how many ways of the deal each direction of an attribution follows."""
    own = scenario.variant_ids(library)  # its expect blocks must name known systems
    ids = list(variant_ids) if variant_ids else own
    variants = library.select(ids)
    check_concerned(variants, readings)
    played = [reread(v, readings) for v in variants]
    results = [run_reread(scenario, v, applied) for v, applied in played]
    rereads = {v.id: applied for v, applied in played if applied}
    attributions = []
    if with_attribution and results:
        first = signature(results[0].data)
        plays = PlayCache(scenario)
        for other in results[1:]:
            if signature(other.data) != first:
                attributions.append(attribute(scenario, results[0], other, ways_limit, plays))
    return Comparison(scenario, results, attributions, rereads)
