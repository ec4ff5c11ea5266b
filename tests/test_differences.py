"""Rule differences: each example deal is reproducible and saved in the scenario format."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.study.attribution import signature
from bouillotte.study.check import check
from bouillotte.study.differences import find_differences, play_setup, save_scenarios
from bouillotte.study.scenario import ScenarioLibrary

LIBRARY = Library()


@pytest.mark.slow
def test_each_found_rule_changes_its_deal_alone() -> None:
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    findings = find_differences(a, b, seed=0, deals=300)
    by_rule = {f.rule: f for f in findings}
    for rule in ("forced_bets.dealer_blind", "void_deals.void_levy", "bonuses.carre"):
        assert by_rule[rule].found, rule
    assert "between deals" in by_rule["session.deals"].note
    for finding in findings:
        if not finding.found:
            continue
        assert finding.setup is not None and finding.changed is not None
        changed = a.with_values({finding.rule: b.value(finding.rule)})
        again = play_setup(changed, finding.setup)
        assert signature(again.data) == signature(finding.changed.data)
        assert signature(play_setup(a, finding.setup).data) != signature(again.data)
    assert [f.to_json() for f in findings] == [
        f.to_json() for f in find_differences(a, b, seed=0, deals=300)
    ]


def test_saved_scenarios_pass_check(tmp_path: Path) -> None:
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    findings = find_differences(a, b, seed=0, deals=150)
    written = save_scenarios(findings, a, b, tmp_path)
    assert written
    report = check(ScenarioLibrary([tmp_path], include_bundled=False).all(), LIBRARY)
    assert not report.mismatches and not report.errors
    assert report.checked == 2 * len(written)


def test_cli_differences() -> None:
    out = CliRunner().invoke(app, ["differences", "foster", "pagat", "--deals", "50"])
    assert out.exit_code == 0, out.output
    assert "forced_bets.dealer_blind" in out.output
    out = CliRunner().invoke(app, ["differences", "foster", "foster-three"])
    assert out.exit_code == 2
