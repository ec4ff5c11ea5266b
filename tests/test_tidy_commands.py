"""``--csv`` on the commands that check and search (issue 50): ``check``, ``differences``,
``golden`` and the tables of ``strong measure`` and ``strong bands``, each read back with
the csv module and checked against what it reports on independently (the scenario files'
expect blocks, the profiles' values, the golden folder, the command's own text)."""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play.stream import deal_seed

RUNNER = CliRunner()
ROOT = Path(__file__).parent.parent


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _csv_of(args: list[str], code: int = 0) -> list[dict[str, str]]:
    result = RUNNER.invoke(app, args)
    assert result.exit_code == code, result.output
    return _rows(result.stdout)


def test_check_csv_is_a_row_per_deal_with_the_expect_blocks_of_the_files() -> None:
    rows = _csv_of(["check", "--csv", "-"])
    expected: set[tuple[str, str]] = set()
    readings: set[tuple[str, str, str]] = set()
    for file in sorted((ROOT / "scenarios").glob("*.yaml")):
        data = yaml.safe_load(file.read_text("utf-8"))
        expected |= {(data["id"], v) for v in data.get("expect", {})}
        for vid, by_rule in data.get("expect_readings", {}).items():
            readings |= {(data["id"], vid, rule) for rule in by_rule}
    plain = [r for r in rows if not r["rule"]]
    assert {(r["scenario"], r["variant"]) for r in plain if r["verdict"] == "agrees"} == expected
    assert {(r["scenario"], r["variant"], r["rule"]) for r in rows if r["rule"]} == readings
    assert {r["verdict"] for r in rows} <= {"agrees", "unchecked"}
    # foster-sight.yaml: Foster's deal is settled, the teaching card refuses step 1
    sight = {r["variant"]: r for r in plain if r["scenario"] == "foster-sight"}
    assert sight["foster"]["status"] == "settled" and sight["pagat"]["status"] == "illegal"
    assert int(sight["foster"]["line"]) > 0 and sight["foster"]["file"].endswith(
        "foster-sight.yaml"
    )


def test_check_csv_names_each_way_a_deal_differs(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "foster-sight.yaml").read_text("utf-8")
    wrong = text.replace("id: foster-sight", "id: wrong-sight", 1)
    # Foster's A wins 70 (scenarios/foster-sight.yaml); this file says 71 and B +1
    wrong = re.sub(r"net: \{A: 70, B: 0,", "net: {A: 71, B: 1,", wrong, count=1)
    assert "A: 71" in wrong
    (tmp_path / "wrong-sight.yaml").write_text(wrong, "utf-8")
    out = tmp_path / "check.csv"
    result = RUNNER.invoke(app, ["check", str(tmp_path), "--csv", str(out)])
    assert result.exit_code == 1
    assert "1 mismatch" not in result.stdout and "2 mismatches" in result.stdout  # the report
    rows = _rows(out.read_text("utf-8"))
    differs = [r for r in rows if r["verdict"] == "differs"]
    assert {r["variant"] for r in differs} == {"foster"}
    assert sorted(r["problem"] for r in differs) == [
        "net of A is 70, expected 71",
        "net of B is 0, expected 1",
    ]


def test_differences_csv_gives_each_rules_deal_and_nets() -> None:
    rows = _csv_of(["differences", "foster", "pagat", "--deals", "200", "--csv", "-"])
    blind = [r for r in rows if r["rule"] == "forced_bets.dealer_blind"]
    foster = yaml.safe_load((ROOT / "variants" / "foster.yaml").read_text("utf-8"))
    pagat = yaml.safe_load((ROOT / "variants" / "pagat.yaml").read_text("utf-8"))
    base_blind = foster["rules"]["forced_bets"]["dealer_blind"]["value"]
    other_blind = pagat["rules"]["forced_bets"]["dealer_blind"]["value"]
    assert {r["base_value_json"] for r in blind} == {str(base_blind)}
    assert {r["other_value_json"] for r in blind} == {str(other_blind)}
    assert {r["found"] for r in blind} == {"true"} and len(blind) == 4  # a row per player
    # every player folds to the opening: the dealer loses his blind, and only it
    assert min(int(r["base_net"]) for r in blind) == -base_blind
    assert min(int(r["changed_net"]) for r in blind) == -other_blind
    assert sum(int(r["base_net"]) for r in blind) == 0
    found = [r for r in rows if r["found"] == "true"]
    assert all(int(r["seed"]) == deal_seed(0, int(r["deal"])) for r in found)
    between = [r for r in rows if r["rule"] == "stakes.rebuy_amount"]
    assert len(between) == 1 and between[0]["found"] == "false" and between[0]["player"] == ""
    assert "session" in between[0]["note"]


def test_golden_csv_says_which_transcripts_differ_are_missing_or_stale(tmp_path: Path) -> None:
    rows = _csv_of(["golden", "--csv", "-"])
    kept = sorted((ROOT / "tests" / "golden").glob("*__*.txt"))
    assert sorted(Path(r["file"]).name for r in rows) == [p.name for p in kept]
    assert {r["state"] for r in rows} == {"same"}
    folder = tmp_path / "golden"
    shutil.copytree(ROOT / "tests" / "golden", folder)
    changed = folder / "foster-sight__foster.txt"
    lines = changed.read_text("utf-8").splitlines(keepends=True)
    changed.write_text("".join(["something else\n", *lines[1:]]), "utf-8")
    (folder / "foster-favori__foster.txt").unlink()
    (folder / "no-such__foster.txt").write_text(
        "scenario: no-such — Gone\nvariant:  foster — Foster\nstatus: settled\n", "utf-8"
    )
    rows = _csv_of(["golden", "--dir", str(folder), "--csv", "-"], code=1)
    by = {Path(r["file"]).name: r for r in rows}
    assert (
        by["foster-sight__foster.txt"]["state"],
        by["foster-sight__foster.txt"]["lines_added"],
    ) == (
        "differs",
        "1",
    )
    assert by["foster-sight__foster.txt"]["lines_removed"] == "1"
    assert by["foster-favori__foster.txt"]["state"] == "missing"
    stale = by["no-such__foster.txt"]
    assert (stale["state"], stale["scenario"], stale["variant"]) == ("stale", "", "")
    assert sum(r["state"] == "same" for r in rows) == len(kept) - 2
    both = RUNNER.invoke(app, ["golden", "--write", "--csv", "-"])
    assert both.exit_code == 2 and "without --write" in both.output


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["differences", "foster", "pagat"],
        ["golden"],
        ["strong", "measure"],
        ["strong", "bands", "-v", "foster", "-v", "pagat"],
    ],
)
def test_a_csv_file_in_no_folder_is_refused_before_the_run(args: list[str], tmp_path: Path) -> None:
    result = RUNNER.invoke(app, [*args, "--csv", str(tmp_path / "no-such" / "x.csv")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].endswith("no such folder for the CSV file")
    assert "Traceback" not in result.output


def test_strong_measure_csv_is_the_reports_figures() -> None:
    args = ["strong", "measure", "--deals", "30"]
    text = RUNNER.invoke(app, args)
    assert text.exit_code == 0, text.output
    rows = _csv_of([*args, "--csv", "-"])
    said = re.findall(r"^(.*?): ([\d.]+)% of 30 deals end otherwise", text.stdout, re.M)
    assert [r["choice"] for r in rows] == [choice for choice, _ in said]
    for row, (_, percent) in zip(rows, said, strict=True):
        assert f"{int(row['differ']) / 30:.1%}" == f"{percent}%"
        assert int(row["differ"]) <= int(row["deals"]) == 30
        assert row["variant"] == "foster-three" and row["policy"] == "advised"


def test_strong_bands_csv_is_a_row_per_rule_and_measure(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "bands.csv"
    args = ["strong", "bands", "-v", "foster", "-v", "pagat", "--cave", "10", "--raises", "1"]
    args += ["--no-straddles", "--deals", "4", "--classes", "2", "--seeds", "1,2"]
    args += ["--iterations", "40", "--rule", "forced_bets.dealer_blind", "--rule", "session.deals"]
    result = RUNNER.invoke(app, [*args, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = _rows(out.read_text("utf-8"))
    idle = [r for r in rows if r["rule"] == "session.deals"]
    assert len(idle) == 1 and idle[0]["acts"] == "false" and idle[0]["reason"]
    assert idle[0]["measure"] == ""
    blind = [r for r in rows if r["rule"] == "forced_bets.dealer_blind"]
    assert blind and {r["acts"] for r in blind} == {"true"}
    assert all(float(r["low"]) <= float(r["high"]) for r in blind)
    assert {(r["system"], r["towards"], r["on"]) for r in rows} == {
        ("foster", "pagat", "foster-three")
    }
    # the report's line for the rule gives the same NashConv
    line = next(x for x in result.stdout.splitlines() if x.startswith("forced_bets.dealer_blind"))
    low = float(blind[0]["nash_conv_low"])
    assert f"NashConv {low:.4f} to" in line


def test_check_csv_has_a_row_for_a_scenario_it_could_not_play(tmp_path: Path) -> None:
    text = (ROOT / "scenarios" / "foster-sight.yaml").read_text("utf-8")
    unknown = text.replace("id: foster-sight", "id: unknown-sight", 1)
    unknown = unknown.replace("\n  foster:", "\n  fosterx:", 1)
    assert "fosterx" in unknown
    (tmp_path / "unknown-sight.yaml").write_text(unknown, "utf-8")
    result = RUNNER.invoke(app, ["check", str(tmp_path), "--csv", "-"])
    assert result.exit_code == 2
    (row,) = _rows(result.stdout)
    assert (row["scenario"], row["variant"], row["verdict"]) == ("unknown-sight", "", "error")
    assert "fosterx" in row["problem"] and row["line"] == str(
        unknown.splitlines().index("  fosterx:") + 1
    )
