"""The readings of ambiguous sentences: cited data, one rule value per reading, a deal that
tells the readings apart, and the commands and page that show them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.rules.readings import rule_value
from bouillotte.site import builder
from bouillotte.site.pages import systems
from bouillotte.site.readings import reading_views
from bouillotte.study.attribution import signature
from bouillotte.study.check import check
from bouillotte.study.scenario import (
    ScenarioLibrary,
    load_scenario,
    reading_cases,
    run_reading,
    run_scenario,
)

ROOT = Path(__file__).resolve().parent.parent
ROOT_PROFILES = ("foster", "pagat")


def test_every_reading_is_a_rule_with_a_deal_that_tells_its_readings_apart(
    library: Library,
) -> None:
    """For each sentence, the scenario played under its variant with each reading gives a
    different outcome, and each outcome is the one worked out by hand in the scenario."""
    scenarios = {s.id: s for s in ScenarioLibrary().all()}
    assert len(library.readings) >= 8
    for rule, reading in library.readings.items():
        scenario = scenarios[reading.scenario]
        base = library.get(reading.variant)
        own = base.value(rule)
        values = [rule_value(rule, r.value) for r in reading.readings]
        assert own in values, f"{base.id}'s value of {rule} is none of its readings"
        cases = {
            c.value: c
            for c in reading_cases(scenario)
            if c.variant_id == base.id and c.rule == rule
        }
        assert set(cases) == set(values) - {own}, f"{scenario.id}: expect_readings for {rule}"
        mine = signature(run_scenario(scenario, base).data)
        for value, case in cases.items():
            other = signature(run_reading(scenario, base, case).data)
            assert other != mine, f"{scenario.id}: reading {rule} as {value} changes nothing"


def test_each_root_profile_states_every_reading_rule_and_says_why(library: Library) -> None:
    for vid in ROOT_PROFILES:
        variant = library.get(vid)
        for rule in library.readings:
            info = variant.info[rule]
            assert info.defined_in == vid, f"{vid} does not state {rule}"
            citation = info.citation
            assert citation is not None, f"{vid} {rule} is uncited"
            if library.readings[rule].variant == vid:  # its own words are the ambiguous ones
                assert citation.status.value == "inferred", rule
                assert citation.reason, rule


def test_each_quoted_sentence_is_from_the_source_of_the_system_it_rereads(
    library: Library,
) -> None:
    # Word for word against the shipped text: tests/test_quotes.py checks every quote.
    for reading in library.readings.values():
        assert reading.source == library.get(reading.variant).source, reading.id


def test_check_verifies_the_outcome_under_the_other_reading(
    tmp_path: Path, library: Library
) -> None:
    source = ROOT / "scenarios" / "tie-dealer-owns-a-suit.yaml"
    good = load_scenario(source)
    report = check([good], library)
    assert report.ok and report.checked == len(good.variant_ids(library)) + 3  # 3 readings
    wrong = tmp_path / "tie.yaml"
    text = source.read_text(encoding="utf-8")
    marker = "      eldest-first:\n        status: settled\n"
    assert marker in text
    start = text.index(marker)
    net = text.index("net: {A: 10", start)
    wrong.write_text(text[:net] + "net: {A: 11" + text[net + len("net: {A: 10") :], "utf-8")
    report = check([load_scenario(wrong)], library)
    assert [m.message for m in report.mismatches] == ["net of A is 10, expected 11"]
    assert "reading point.suit_tie as eldest-first" in report.mismatches[0].variant
    assert f"{wrong}:" in report.mismatches[0].describe()


SCENARIO = (ROOT / "scenarios" / "tie-dealer-owns-a-suit.yaml").read_text(encoding="utf-8")
READINGS = (ROOT / "variants" / "readings.yaml").read_text(encoding="utf-8")


def _line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("    point.suit_tie:\n      eldest", "    point.suit_ties:\n      eldest", "unknown rule"),
        ("      eldest-first:\n", "      eldest-last:\n", "not a value of the rule"),
    ],
)
def test_a_bad_expect_readings_key_is_bad_input_at_its_line(
    tmp_path: Path, runner: CliRunner, old: str, new: str, words: str
) -> None:
    text = SCENARIO.replace(old, new, 1)
    file = tmp_path / "bad.yaml"
    file.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["check", str(file)])
    assert result.exit_code == 2
    line = _line_of(text, new.strip().split("\n")[0])
    assert f"{file}:{line}:" in result.stderr and words in result.stderr, result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("rule: point.suit_tie", "rule: point.suit_tied", "unknown rule"),
        ("value: eldest-first", "value: eldest-last", "not a value of the rule point.suit_tie"),
        (
            'source: foster\n    locator: "Bouillotte: Calling for',
            'source: fostr\n    locator: "Bouillotte: Calling for',
            "unknown source",
        ),
        (
            "    scenario: misdeal-two-triplets\n",
            "    extra: 1\n    scenario: misdeal-two-triplets\n",
            "unknown key 'extra'; the keys here are",
        ),
    ],
)
def test_a_bad_readings_file_is_bad_input_at_its_line(
    tmp_path: Path, runner: CliRunner, old: str, new: str, words: str
) -> None:
    assert old in READINGS
    text = READINGS.replace(old, new, 1)
    (tmp_path / "readings.yaml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["readings", "--variants", str(tmp_path)])
    assert result.exit_code == 2
    line = _line_of(text, new.strip().split("\n")[0])
    assert f"readings.yaml:{line}:" in result.stderr and words in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_readings_command_lists_each_sentence_with_its_takers(runner: CliRunner) -> None:
    result = runner.invoke(app, ["readings", "--json"])
    assert result.exit_code == 0, result.output
    data = {item["rule"]: item for item in json.loads(result.stdout)}
    tie = data["point.suit_tie"]
    takers = {r["value"]: r["variants"] for r in tie["readings"]}
    assert "foster" in takers["dealer-first"] and "pagat" in takers["eldest-first"]
    assert "cardrulesplus" in takers["retourne-suit"]
    text = runner.invoke(app, ["readings"]).stdout
    assert "bouillotte run tie-dealer-owns-a-suit --variant foster" in text


def test_variants_show_and_diff_carry_the_readings(runner: CliRunner) -> None:
    shown = json.loads(runner.invoke(app, ["variants", "show", "foster", "--json"]).stdout)
    rules = {r["rule"]: r for r in shown["rules"]}
    tie = rules["point.suit_tie"]["readings"]
    assert tie["this_reading"].startswith("Read literally")
    assert [r["value"] for r in tie["other_readings"]] == ["eldest-first", "retourne-suit"]
    assert rules["table.hand_size"]["readings"] is None
    text = runner.invoke(app, ["variants", "show", "foster"]).stdout
    assert text.count("one reading of an ambiguous sentence") == 10
    diff = json.loads(runner.invoke(app, ["variants", "diff", "foster", "pagat", "--json"]).stdout)
    tie_diff = next(d for d in diff["differences"] if d["rule"] == "point.suit_tie")
    assert tie_diff["pagat"]["readings"]["this_reading"].startswith("Foster calls")
    diff_text = runner.invoke(app, ["variants", "diff", "foster", "pagat"]).stdout
    assert "one reading of an ambiguous sentence" in diff_text


def test_the_readings_page_plays_the_deal_under_each_reading(library: Library) -> None:
    assert ("readings.html", "Readings") in builder.NAV
    views = {v.reading.rule: v for v in reading_views(library, ScenarioLibrary().all())}
    assert set(views) == set(library.readings)
    for view in views.values():
        played = [c for c in view.columns if c.result is not None]
        assert len(played) == len(view.columns), view.reading.id
        assert any(cell.differs for row in view.rows for cell in row.cells), view.reading.id
    tie = views["point.suit_tie"]
    nets = {row.label: [c.text for c in row.cells] for row in tie.rows}
    assert nets["Net A"] == ["-10", "+10", "+10"]


def test_a_variant_page_marks_each_rule_that_is_a_reading(library: Library) -> None:
    marks = systems.rule_readings(library, library.get("foster"))
    # Foster's point over every exposed card is no reading of Britannica's sentence.
    # Nor is his raise by any amount a reading of Pierer's.
    assert set(marks) == set(library.readings) - {"point.counted_cards", "betting.raises"}
    britannica = systems.rule_readings(library, library.get("britannica-1911"))
    assert britannica["point.counted_cards"]["others"] == ["own-hand"]
    assert marks["point.suit_tie"] == {
        "id": "tie-between-suits",
        "others": ["eldest-first", "retourne-suit"],
    }
