"""The tidy tables of the scenario index, the scenario pages' play, the Readings page's
deals and the betting policies (issue 50), each checked against what it is read from
independently: the scenario files themselves, the readings' hand-reckoned outcomes, the
command's own list of policies."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.site.readings import reading_views
from bouillotte.site.tidy_pages import (
    policies_table,
    reading_deals_table,
    scenarios_table,
    steps_table,
)
from bouillotte.study.compare import compare
from bouillotte.study.scenario import ScenarioLibrary

LIBRARY = Library()
SCENARIOS = Path(__file__).parent.parent / "scenarios"


def _yaml(scenario_id: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SCENARIOS / f"{scenario_id}.yaml").read_text("utf-8"))
    return data


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _comparison(scenario_id: str, store: ScenarioLibrary | None = None) -> Any:
    store = store or ScenarioLibrary()
    return compare(store.find(scenario_id), LIBRARY, ["foster", "pagat"])


def test_the_scenario_index_is_what_the_scenario_files_say() -> None:
    ids = ["foster-sight", "foster-favori", "nobody-opens"]
    table = scenarios_table([_comparison(i) for i in ids])
    rows = table.records()
    assert {r["scenario"] for r in rows} == set(ids)
    for scenario_id in ids:
        written = _yaml(scenario_id)
        mine = [r for r in rows if r["scenario"] == scenario_id]
        assert [r["variant"] for r in mine] == ["foster", "pagat"]
        for r in mine:
            assert r["title"] == written["title"]
            assert r["source"] == written["source"]["work"]
            assert r["locator"] == written["source"].get("locator")
            assert r["players"] == len(written["players"])
            assert r["dealer"] == written["dealer"]
    # foster-sight.yaml: Foster's deal is settled, the teaching card refuses A's all-in
    sight = next(r for r in rows if r["scenario"] == "foster-sight")
    assert sight["outcomes_differ"] is True
    assert _rows(table.csv_text())[0]["outcomes_differ"] == "true"


def test_a_scenario_title_that_would_be_a_formula_is_escaped_in_the_csv(tmp_path: Path) -> None:
    text = (SCENARIOS / "foster-sight.yaml").read_text("utf-8")
    title = '=HYPERLINK("http://example.com","x")'
    hostile = text.replace("title: Calling for a sight", f"title: '{title}'", 1)
    hostile = hostile.replace("id: foster-sight", "id: hostile-sight", 1)
    assert hostile.count("hostile-sight") == 1 and title in hostile
    (tmp_path / "hostile-sight.yaml").write_text(hostile, "utf-8")
    table = scenarios_table([_comparison("hostile-sight", ScenarioLibrary([tmp_path]))])
    assert {r["title"] for r in _rows(table.csv_text())} == {"'" + title}
    assert {r["title"] for r in json.loads(table.json_text())} == {title}
    assert {r["players"] for r in _rows(table.csv_text())} == {"4"}


def test_the_steps_number_the_scenarios_written_actions() -> None:
    comparison = _comparison("foster-sight")
    table = steps_table([comparison])
    foster = [r for r in table.records() if r["variant"] == "foster"]
    assert [r["event"] for r in foster] == list(range(1, len(foster) + 1))
    written = _yaml("foster-sight")["actions"]
    spoken = [r for r in foster if r["step"] is not None]
    assert [r["step"] for r in spoken] == list(range(1, len(written) + 1))
    for row, action in zip(spoken, written, strict=True):
        player, word, *amount = action.split()
        assert (row["player"], row["action"]) == (player, word)
        if amount:
            assert row["total"] == int(amount[0])
    # Foster, "Calling for a Sight": the blind 5, A all in for 35 (40), C raises to 85
    # (125), D all in for 185 (305), C calls for his last 35 (340); D takes back the 65
    # nobody could meet.
    assert [r["pot"] for r in spoken] == [40, 40, 125, 305, 340]
    back = next(r for r in foster if r["type"] == "return")
    assert (back["player"], back["amount"], back["pot"]) == ("D", 65, 275)
    pools = [r["amount"] for r in foster if r["type"] == "pot"]
    assert pools == [105, 170] and all(r["pot"] is None for r in foster if r["type"] == "pot")
    # the teaching card refuses step 1: no written step is played under it
    pagat = [r for r in table.records() if r["variant"] == "pagat"]
    assert pagat and all(r["step"] is None for r in pagat)
    assert [int(r["event"]) for r in _rows(table.csv_text()) if r["variant"] == "foster"] == [
        r["event"] for r in foster
    ]


def test_the_deal_under_each_reading_is_the_hand_reckoned_one() -> None:
    views = reading_views(LIBRARY, ScenarioLibrary().all())
    table = reading_deals_table(views)
    rows = table.records()
    checked = 0
    for view in views:
        if view.scenario is None:
            continue
        written = _yaml(view.scenario.id)
        for column in view.columns:
            value = json.dumps(column.value, ensure_ascii=False)
            mine = [
                r for r in rows if r["sentence"] == view.reading.id and r["value_json"] == value
            ]
            assert mine and all(r["own"] is column.own for r in mine)
            if column.own:
                expected = written.get("expect", {}).get(view.variant, {})
            else:
                by_rule = written.get("expect_readings", {}).get(view.variant, {})
                expected = by_rule.get(view.reading.rule, {}).get(column.value, {})
            if "net" in expected:
                assert {r["player"]: r["net"] for r in mine} == expected["net"], view.reading.id
                checked += 1
            if "status" in expected:
                assert {r["status"] for r in mine} == {expected["status"]}
    assert checked >= 2 * len([v for v in views if v.scenario is not None]) - 2
    assert len(_rows(table.csv_text())) == len(rows)


def test_the_policies_are_the_ones_simulate_takes() -> None:
    table = policies_table()
    rows = table.records()
    help_text = CliRunner().invoke(app, ["simulate", "--help"], env={"COLUMNS": "300"}).stdout
    for r in rows:
        assert f"{r['policy']}" in help_text
        assert isinstance(r["description"], str) and r["description"].endswith(".")
    assert {r["policy"] for r in rows if r["tendencies"]} == {"advised", "bold", "table"}
    assert {"simple", "cautious", "random"} <= {r["policy"] for r in rows}
