"""The bundled scenario library: every run is checked against its ``expect`` block."""

from __future__ import annotations

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.study.check import check
from bouillotte.study.scenario import Scenario, ScenarioLibrary

SCENARIOS = ScenarioLibrary().all()


def test_every_expectation_holds(library: Library) -> None:
    report = check(SCENARIOS, library)
    assert not report.errors, "\n".join(e.describe() for e in report.errors)
    assert not report.mismatches, "\n".join(m.describe() for m in report.mismatches)
    assert report.runs == report.checked > 0


def test_every_run_has_an_expect_block(library: Library) -> None:
    report = check(SCENARIOS, library)
    missing = [f"{scenario} under {variant}" for scenario, variant in report.unchecked]
    assert not missing, "runs without an expect block: " + ", ".join(missing)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario_says_what_it_shows(scenario: Scenario) -> None:
    model = scenario.model
    assert model.notes.strip(), f"{model.id} has no notes"
    assert model.source.locator, f"{model.id} has no source locator"
