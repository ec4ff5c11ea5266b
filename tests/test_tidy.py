"""Tidy data (issue 50): every report as one observation per row in typed columns, as CSV
(escaped against spreadsheet formulas) and JSON, from the command line and the site's
downloads, described by a Frictionless data package that the ``frictionless`` library
itself validates."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import frictionless
import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.site import effects_run, effects_store
from bouillotte.site.downloads import DATAPACKAGE, data_files
from bouillotte.site.readings import reading_views
from bouillotte.site.stats import StatSection, StatTable, TidyLink, odds_section
from bouillotte.site.tidydata import matrix_table, tidy_downloads
from bouillotte.study.compare import compare
from bouillotte.study.odds import compute_odds
from bouillotte.study.scenario import ScenarioLibrary
from bouillotte.study.simulate import simulate
from bouillotte.study.simulate_report import report
from bouillotte.study.tidy import Column, TidyTable, odds_table, simulation_table

RUNNER = CliRunner()
LIBRARY = Library()
POLICIES = TidyLink("policies", "the betting policies", "one row per policy")


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_escapes_a_text_that_would_be_a_formula_but_never_a_number() -> None:
    table = TidyTable.of(
        "t",
        "T",
        [Column("text", "string", ""), Column("n", "integer", ""), Column("x", "number", "")],
        [
            {"text": '=HYPERLINK("http://x")', "n": -3, "x": -0.5},
            {"text": "+1", "n": 0},
            {"text": "-x"},
            {"text": "@SUM(A1)"},
            {"text": "\tlead"},
            {"text": "a = b, -1"},
        ],
    )
    lines = table.csv_text().splitlines()
    assert lines[0] == "text,n,x"
    assert lines[1] == '"\'=HYPERLINK(""http://x"")",-3,-0.5'
    assert lines[2] == "'+1,0,"
    assert lines[3:6] == ["'-x,,", "'@SUM(A1),,", '"\'\tlead",,']  # a tab is quoted
    assert lines[6] == '"a = b, -1",,'
    # The JSON keeps each text exactly, and each number as a number.
    records = json.loads(table.json_text())
    assert records[0] == {"text": '=HYPERLINK("http://x")', "n": -3, "x": -0.5}
    assert records[2] == {"text": "-x", "n": None, "x": None}


def test_a_display_string_never_goes_into_a_number_column() -> None:
    columns = [Column("decimal", "number", ""), Column("n", "integer", "")]
    with pytest.raises(TypeError, match="'decimal' is number"):
        TidyTable.of("t", "T", columns, [{"decimal": "1.651 %"}])
    with pytest.raises(TypeError, match="'n' is integer"):
        TidyTable.of("t", "T", columns, [{"n": 1.5}])
    with pytest.raises(TypeError, match="no column 'fraction'"):
        TidyTable.of("t", "T", columns, [{"fraction": "16/969"}])


def test_odds_are_numerator_denominator_and_decimal() -> None:
    # Foster's pack: 20 cards, five ranks of four. With the retourne turned, a player's
    # three cards are any 3 of the 19 others, C(19, 3) = 969 hands. A simple brelan is
    # three of one of the four other ranks: 4 x C(4, 3) = 16 of them; a carré three of
    # the retourne's rank, of which 3 are left: 1.
    table = odds_table({"foster": compute_odds(LIBRARY.get("foster").rules)})
    rows = {(r["scope"], r["measure"], r["at"]): r for r in table.records()}
    simple = rows[("player", "simple_brelan", None)]
    assert (simple["numerator"], simple["denominator"]) == (16, 969)
    assert simple["decimal"] == 16 / 969
    carre = rows[("player", "carre", None)]
    assert (carre["numerator"], carre["denominator"]) == (1, 969)
    assert simple["players"] == 4 and simple["pack_cards"] == 20
    # How many brelans at the table: a distribution, one row per count, summing to 1.
    counts = [r for r in table.records() if r["measure"] == "brelan_count"]
    assert [r["at"] for r in counts] == list(range(len(counts)))
    assert sum(Fraction(str(r["numerator"])) / Fraction(str(r["denominator"])) for r in counts) == 1
    text = table.csv_text()
    assert "/" not in text and "%" not in text


def test_simulation_rows_are_counts_of_n() -> None:
    variant = LIBRARY.get("foster")
    data = report(variant, simulate(variant, 60, 3, "simple"), 3, "simple")
    table = simulation_table([data])
    decided = [r for r in table.records() if r["measure"] == "decided_by"]
    assert {r["category"] for r in decided} == set(data["decided_by"])
    assert sum(int(str(r["count"])) for r in decided) == 60
    for r in decided:
        assert r["n"] == 60 and r["value"] == pytest.approx(int(str(r["count"])) / 60, abs=1e-6)
    seats = [r for r in table.records() if r["measure"] == "seat_net_per_deal"]
    assert [r["category"] for r in seats] == ["1", "2", "3", "4"]
    assert all(r["statistic"] == "mean" and r["n"] == 60 for r in seats)
    played_on = next(r for r in table.records() if r["measure"] == "deals_played_on_carried_pools")
    assert played_on["count"] == data["deals_played_on_carried_pools"]


def test_the_matrix_is_long_and_a_users_quote_is_escaped(tmp_path: Path) -> None:
    (tmp_path / "foster-formula.yaml").write_text(
        "title: A formula\nsource: foster\nextends: foster\nsummary: s\nrules:\n"
        "  point:\n    suit_tie:\n      value: eldest-first\n      status: inferred\n"
        "      reason: our reading\n"
        "  hands:\n    favori:\n      value: none\n      status: paraphrased\n"
        "      source: foster\n      locator: '=1+2 is what a spreadsheet would run'\n"
        "      quote: no favori\n",
        encoding="utf-8",
    )
    library = Library([tmp_path])
    variants = [library.get("foster"), library.get("foster-formula")]
    table = matrix_table(variants)
    rules = {r["rule"] for r in table.records()}
    assert len(table) == 2 * len(rules)
    by = {(r["rule"], r["system"]): r for r in table.records()}
    assert by[("point.suit_tie", "foster")]["value_json"] == '"dealer-first"'
    assert by[("point.suit_tie", "foster-formula")]["value_json"] == '"eldest-first"'
    assert by[("point.suit_tie", "foster-formula")]["standing"] == "inferred"
    locator = "=1+2 is what a spreadsheet would run"
    assert by[("hands.favori", "foster-formula")]["locator"] == locator
    line = next(
        r
        for r in _rows(table.csv_text())
        if r["system"] == "foster-formula" and r["rule"] == "hands.favori"
    )
    assert line["locator"] == "'" + locator and line["value_json"] == '"none"'
    assert json.loads(table.json_text())[0]["rule"] == table.rows[0][0]


def test_the_site_data_package_is_valid(tmp_path: Path) -> None:
    variants = [LIBRARY.get("foster"), LIBRARY.get("pagat")]
    comparison = compare(ScenarioLibrary().find("foster-sight"), LIBRARY, ["foster", "pagat"])
    sim = report(variants[0], simulate(variants[0], 30, 1, "simple"), 1, "simple")
    statistics = [
        odds_section(variants, lambda _: None),
        StatSection("simulate", "", "", data={"foster": sim}),
        StatSection("rule-effects", "", "", [StatTable("p", "", [], [], tidy=POLICIES)]),
    ]
    views = reading_views(LIBRARY, ScenarioLibrary().all())
    files = data_files(variants, [comparison], statistics)
    files.update(tidy_downloads(variants, [comparison], statistics, files, None, views))
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    package = json.loads(files[DATAPACKAGE])
    names = {r["path"] for r in package["resources"]}
    tables = ("matrix", "outcomes", "odds", "simulation", "scenarios", "steps", "policies")
    for table in (*tables, "reading_deals", "strong_bands"):
        assert {f"tidy/{table}.csv", f"tidy/{table}.json"} <= names
    assert {"matrix.csv", "odds.csv", "matrix.json", "scenarios/foster-sight.json"} <= names
    odds = next(r for r in package["resources"] if r["path"] == "tidy/odds.csv")
    types = {f["name"]: f["type"] for f in odds["schema"]["fields"]}
    assert types["numerator"] == types["denominator"] == "integer"
    assert types["decimal"] == "number"
    report_ = frictionless.validate(tmp_path / DATAPACKAGE)
    assert report_.valid, report_.flatten(["resourcePath", "rowNumber", "fieldName", "note"])
    # A tidy file that breaks its schema is caught: the test sees what it says it sees.
    broken = tmp_path / "data" / "tidy" / "odds.csv"
    broken.write_text(broken.read_text("utf-8").replace(",16,969,", ",16/969,969,", 1), "utf-8")
    assert not frictionless.validate(tmp_path / DATAPACKAGE).valid
    broken.write_text(broken.read_text("utf-8").replace(",16/969,969,", ",16,969,", 1), "utf-8")
    assert frictionless.validate(tmp_path / DATAPACKAGE).valid
    # so is a new table's cell of the wrong type (an event's place in the log)
    steps = tmp_path / "data" / "tidy" / "steps.csv"
    steps.write_text(steps.read_text("utf-8").replace(",foster,1,", ",foster,one,", 1), "utf-8")
    assert not frictionless.validate(tmp_path / DATAPACKAGE).valid


def _csv_of(args: list[str]) -> list[dict[str, str]]:
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    return _rows(result.stdout)


def test_compare_csv_is_a_row_per_system_and_player() -> None:
    rows = _csv_of(["compare", "foster-sight", "-v", "foster", "-v", "pagat", "--csv", "-"])
    # scenarios/foster-sight.yaml, worked from Foster's text: A 70, B 0, C -120, D 50;
    # the teaching card refuses A's all-in opening at step 1.
    foster = {r["player"]: int(r["net"]) for r in rows if r["variant"] == "foster"}
    assert foster == {"A": 70, "B": 0, "C": -120, "D": 50}
    pagat = [r for r in rows if r["variant"] == "pagat"]
    assert len(pagat) == 1 and pagat[0]["status"] == "illegal" and pagat[0]["net"] == ""


def test_run_and_variants_csv_are_tidy_tables(tmp_path: Path) -> None:
    """The report commands that had only text and JSON (issue 50): ``run``, ``variants
    list``, ``variants show`` and ``variants diff`` also give tidy CSV."""
    rows = _csv_of(["run", "foster-sight", "-v", "foster", "--csv", "-"])
    # scenarios/foster-sight.yaml, worked from Foster's text: A 70, B 0, C -120, D 50.
    assert {r["player"]: int(r["net"]) for r in rows} == {"A": 70, "B": 0, "C": -120, "D": 50}
    assert {r["scenario"] for r in rows} == {"foster-sight"}
    out = tmp_path / "run.csv"
    shown = RUNNER.invoke(app, ["run", "foster-sight", "-v", "foster", "--csv", str(out)])
    assert shown.exit_code == 0 and "Calling for a sight" in shown.stdout  # the report too
    assert _rows(out.read_text("utf-8")) == rows
    # Foster: "a piquet pack, reduced to twenty cards ... If five persons play, the Jack of
    # each suit is added; if only three play, the Queens are discarded, reducing the pack
    # to sixteen cards."
    systems = {r["id"]: r for r in _csv_of(["variants", "list", "--csv", "-"])}
    assert len(systems) == len(LIBRARY.ids())
    packs = {k: (int(systems[k]["players"]), int(systems[k]["pack_cards"])) for k in systems}
    assert packs["foster"] == (4, 20) and packs["foster-three"] == (3, 16)
    assert packs["foster-five"] == (5, 24)
    assert systems["foster-three"]["extends"] == "foster" and systems["foster"]["extends"] == ""
    shown_rules = {
        v: {r["rule"]: r["value_json"] for r in _csv_of(["variants", "show", v, "--csv", "-"])}
        for v in ("foster", "pagat")
    }
    assert json.loads(shown_rules["foster"]["table.players"]) == 4  # "four is the proper number"
    differ = {
        r for r in shown_rules["foster"] if shown_rules["foster"][r] != shown_rules["pagat"][r]
    }
    diff = _csv_of(["variants", "diff", "foster", "pagat", "--csv", "-"])
    assert differ and {r["rule"] for r in diff} == differ
    assert sorted((r["rule"], r["system"]) for r in diff) == sorted(
        (rule, v) for rule in differ for v in ("foster", "pagat")
    )
    bad = RUNNER.invoke(app, ["variants", "list", "--csv", str(tmp_path / "no" / "x.csv")])
    assert bad.exit_code == 2 and "no such folder for the CSV file" in bad.output
    # The History page's tables: the Académie's dictionary of 1740, in French, from Paris;
    # Foster: "Three, four, or five persons may play; but four is the proper number".
    works = {r["id"]: r for r in _csv_of(["sources", "--csv", "-"])}
    academie = works["academie-1740"]
    assert (academie["start"], academie["language"], academie["place"]) == ("1740", "fr", "Paris")
    assert academie["kind"] == "dictionary" and "Brelan" in academie["citation"]
    assert works["pagat-card"]["start"] == ""  # undated: no year, not a display string
    said = _csv_of(["sources", "--statements-csv", "-"])
    players = next(r for r in said if r["rule"] == "table.players" and r["variant"] == "foster")
    assert (players["work"], players["start"], json.loads(players["value_json"])) == (
        "foster",
        "1897",
        4,
    )
    assert "four is the proper number" in players["quote"]
    # The Readings page's table: each sentence's readings with the systems taking each.
    read = _csv_of(["readings", "--csv", "-"])
    tie = {
        r["variant"]: json.loads(r["value_json"])
        for r in read
        if r["sentence"] == "tie-between-suits"
    }
    assert tie["foster"] == "dealer-first" and tie["pagat"] == "eldest-first"
    listed = json.loads(RUNNER.invoke(app, ["readings", "--json"]).stdout)
    assert len(read) == sum(max(1, len(r["variants"])) for s in listed for r in s["readings"])


def test_session_csv_gives_the_standings_exactly_and_every_deal() -> None:
    """``session --csv``: the standings with each fraction as numerator, denominator and
    decimal (never "86 1/4"); ``--deals-csv``: a row per deal and player."""
    from fractions import Fraction

    standings = _csv_of(["session", "pagat-teaching", "--csv", "-"])
    assert [int(r["place"]) for r in standings] == sorted(int(r["place"]) for r in standings)
    total = Fraction(0)
    for r in standings:
        share = Fraction(int(r["share_numerator"]), int(r["share_denominator"]))
        result = Fraction(int(r["result_numerator"]), int(r["result_denominator"]))
        # the report's own definition: cave + ledger + share - stake - rebuys
        parts = int(r["cave"]) + int(r["ledger"]) + share - int(r["stake"]) - int(r["rebuys"])
        assert result == parts and float(r["result"]) == float(result)
        total += result
    assert total == 0  # counters change hands; none is made or lost
    deals = _csv_of(["session", "pagat-teaching", "--deals-csv", "-"])
    # the bundled evening: twelve deals at a table of four (README, "A tour")
    assert len({r["deal"] for r in deals}) == 12 and len(deals) == 12 * 4
    last = {r["player"]: int(r["cave"]) for r in deals if r["deal"] == "12"}
    assert last == {r["player"]: int(r["cave"]) for r in standings}


def test_simulate_and_odds_csv_files(tmp_path: Path) -> None:
    out = tmp_path / "sim.csv"
    args = ["simulate", "-v", "foster", "-v", "pagat", "-n", "40", "-q", "--csv", str(out)]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "decided by" in result.stdout  # the report is still printed
    rows = _rows(out.read_text("utf-8"))
    for variant in ("foster", "pagat"):
        decided = [r for r in rows if r["variant"] == variant and r["measure"] == "decided_by"]
        assert sum(int(r["count"]) for r in decided) == 40
    odds = _csv_of(["odds", "-v", "foster", "--csv", "-"])
    simple = next(r for r in odds if r["measure"] == "simple_brelan" and r["scope"] == "player")
    assert (simple["numerator"], simple["denominator"]) == ("16", "969")
    bad = RUNNER.invoke(app, ["odds", "--csv", str(tmp_path / "no" / "odds.csv")])
    assert bad.exit_code == 2 and "no such folder for the CSV file" in bad.output


def test_effects_json_and_csv_read_the_stored_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("pagat"), LIBRARY.get("pagat-mistigri")
    data = effects_run.compute_effects(a, b, deals=30)
    effects_store.write_effects(a, b, data)
    pair = ["effects", "--pair", "pagat__pagat-mistigri"]
    shown = RUNNER.invoke(app, [*pair, "--json"])
    assert shown.exit_code == 0, shown.output
    stored: dict[str, Any] = json.loads(shown.stdout)["pagat__pagat-mistigri"]
    assert stored["stored"] == json.loads(json.dumps(data))
    rows = _csv_of([*pair, "--csv", "-"])
    assert {(r["system"], r["towards"]) for r in rows} == {("pagat", "pagat-mistigri")}
    expected = sum(len(r["metrics"]) if r["status"] == "ok" else 1 for r in data["report"]["rows"])
    assert len(rows) == expected
    base = next(r for r in data["report"]["rows"] if r["combination"] == "base")
    line = next(
        r
        for r in rows
        if r["combination"] == "base" and r["policy"] == base["policy"] and r["metric"] == "pool"
    )
    assert float(line["value"]) == base["metrics"]["pool"]["mean"]
    # A pair with no stored file: said on stderr, exit 1, the others still given.
    other = RUNNER.invoke(app, ["effects", "--pair", "foster__pagat", "--json"])
    assert other.exit_code == 1
    assert "foster__pagat: no stored results for foster and pagat" in other.stderr
    assert json.loads(other.stdout)["foster__pagat"]["stored"] is None
    both = RUNNER.invoke(app, ["effects", "--write", "--json"])
    assert both.exit_code == 2 and "run --write first" in both.output


def test_docs_data_lists_every_column_with_its_type() -> None:
    from bouillotte.site import tidy_pages
    from bouillotte.site.tidydata import MATRIX_COLUMNS, STRONG_BAND_COLUMNS
    from bouillotte.study import tidy, tidy_commands, tidy_lists

    text = (Path(__file__).parent.parent / "docs" / "data.md").read_text("utf-8")
    tables = (
        tidy.SIMULATION_COLUMNS,
        tidy.ODDS_COLUMNS,
        tidy.OUTCOME_COLUMNS,
        tidy.SWEEP_COLUMNS,
        tidy.EFFECTS_COLUMNS,
        tidy_lists.SYSTEM_COLUMNS,
        tidy_lists.SOURCE_COLUMNS,
        tidy_lists.STATEMENT_COLUMNS,
        tidy_lists.READING_COLUMNS,
        tidy_lists.STANDING_COLUMNS,
        tidy_lists.SESSION_DEAL_COLUMNS,
        MATRIX_COLUMNS,
        tidy_pages.SCENARIO_COLUMNS,
        tidy_pages.POLICY_COLUMNS,
        tidy_pages.STEP_COLUMNS,
        tidy_pages.READING_DEAL_COLUMNS,
        tidy_commands.CHECK_COLUMNS,
        tidy_commands.DIFFERENCE_COLUMNS,
        tidy_commands.GOLDEN_COLUMNS,
        tidy_commands.MEASURE_COLUMNS,
        tidy_commands.BAND_COLUMNS,
        tidy_commands.SOLVE_COLUMNS,
        tidy_commands.EXPLOIT_COLUMNS,
        tidy_commands.STRONG_TABLE_COLUMNS,
        STRONG_BAND_COLUMNS,
    )
    for columns in tables:
        for column in columns:
            assert f"| `{column.name}` | {column.type} |" in text, column.name
