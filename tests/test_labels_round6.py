"""What the reports of simulate, compare and session say they are (review, round 6).

Each test is one defect a reviewer reproduced: a CSV row that hid the reading it was
played under, a figure that cannot occur shown as no data, the dealer's seat labelled
for one table size only, a strong player played by advised under its own name, a
session's seed too long, its doubled brackets, its deals silent on their seeds and
policies, compare's base and a scenario named twice, and the help of differences.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from bouillotte.cli.app import app

RUNNER = CliRunner()


def _invoke(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# -- 1. compare --reading: the CSV names the reading played ------------------------------


def test_compare_csv_names_the_reading_each_system_played() -> None:
    scenario = ["compare", "tie-dealer-owns-a-suit", "-v", "foster", "-v", "pagat"]
    code, out, _ = _invoke(*scenario, "--reading", "point.suit_tie=eldest-first", "--csv", "-")
    assert code == 0
    rows = _rows(out)
    assert list(rows[0])[-1] == "readings"  # added at the end: the columns before keep places
    by_variant = {(r["variant"], r["player"]): r for r in rows}
    assert by_variant["foster", "A"]["readings"] == "point.suit_tie=eldest-first"
    assert by_variant["pagat", "A"]["readings"] == ""  # pagat's own rule: no reading played
    code, out, _ = _invoke(*scenario, "--csv", "-")
    own = {(r["variant"], r["player"]): r for r in _rows(out)}
    # The two foster rows differ in outcome, and the CSV now says why.
    assert own["foster", "A"]["net"] != by_variant["foster", "A"]["net"]
    assert own["foster", "A"]["readings"] == ""


def test_run_csv_and_the_api_table_have_the_readings_column() -> None:
    import bouillotte as b

    table = b.compare("tie-dealer-owns-a-suit", ["foster", "pagat"], explain=False).table()
    assert table.column_names[-1] == "readings"
    assert {r["readings"] for r in table.records()} == {None}
    code, out, _ = _invoke(
        "run", "tie-dealer-owns-a-suit", "-v", "foster", "--reading", "point.suit_tie=eldest-first",
        "--csv", "-",
    )  # fmt: skip
    assert code == 0
    assert {r["readings"] for r in _rows(out)} == {"point.suit_tie=eldest-first"}


# -- 2. simulate --csv: "cannot occur" is not "no data" ----------------------------------


def test_simulate_csv_tells_a_figure_that_cannot_occur_from_no_data() -> None:
    code, out, _ = _invoke(
        "simulate", "-v", "britannica-1911", "-v", "foster", "-n", "3", "--seed", "3", "-q",
        "--csv", "-",
    )  # fmt: skip
    assert code == 0
    rows = [r for r in _rows(out) if r["measure"] == "point_suit_is_retourne"]
    cells = {r["variant"]: r for r in rows}
    assert cells["britannica-1911"]["value"] == cells["foster"]["value"] == ""
    assert cells["britannica-1911"]["cannot_occur"].startswith("no suit wins the point")
    assert cells["foster"]["cannot_occur"] == ""


# -- 3. the dealer's seat of each system -------------------------------------------------


def test_simulate_text_names_each_systems_dealer_seat() -> None:
    code, out, _ = _invoke(
        "simulate", "-v", "foster", "-v", "foster-five", "-v", "foster-three", "-n", "4", "-q"
    )
    assert code == 0
    seats = {line.split("  ")[0] for line in out.splitlines() if line.startswith("net per deal")}
    assert "net per deal: seat 3 (dealer of the deal counted under foster-three)" in seats
    assert "net per deal: seat 4 (dealer of the deal counted under foster)" in seats
    assert "net per deal: seat 5 (dealer of the deal counted under foster-five)" in seats
    # One table size: the label as before.
    code, out, _ = _invoke("simulate", "-v", "foster", "-v", "pagat", "-n", "4", "-q")
    assert "net per deal: seat 4 (dealer of the deal counted)" in out


# -- 4. strong with no stored strategy: played by advised, and said so -------------------


def test_strong_with_no_stored_strategy_says_advised_played() -> None:
    args = ["simulate", "-v", "brelan-pierer", "-n", "3", "-q", "--policy", "strong"]
    code, out, _ = _invoke(*args, "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["policy"], data["played_by"]) == ("strong", "advised")
    code, out, _ = _invoke(*args, "--csv", "-")
    assert {(r["policy"], r["played_by"]) for r in _rows(out)} == {("strong", "advised")}
    code, out, _ = _invoke(*args)
    assert "brelan-pierer: no strong strategy is stored for its rules, so advised played" in out
    # A policy that plays its own steps says so too.
    code, out, _ = _invoke("simulate", "-v", "foster", "-n", "3", "-q", "--json")
    assert json.loads(out)["played_by"] == "simple"


# -- 5. sessions -------------------------------------------------------------------------


def _session(tmp_path: Path, deals: str, policy: str = "") -> Path:
    file = tmp_path / "s.yaml"
    file.write_text(
        f"variant: foster\nplayers: [A, B, C, D]\ndealer: D\n{policy}deals:\n{deals}",
        encoding="utf-8",
    )
    return file


def test_a_session_seed_of_more_than_20_digits_is_refused_at_its_line(tmp_path: Path) -> None:
    file = _session(tmp_path, "  - {seed: 99999999999999999999999999, count: 3}\n")
    code, out, err = _invoke("session", str(file))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "s.yaml:5: deals.0.seed: a seed has at most 20 digits" in err
    # The last seed of the item counts too: 20 nines and two more deals pass 20 digits.
    file = _session(tmp_path, "  - {seed: 99999999999999999999, count: 3}\n")
    code, _, err = _invoke("session", str(file))
    assert code == 2 and "s.yaml:5: deals.0.seed:" in err and "at most 20 digits" in err
    file = _session(tmp_path, "  - {seed: 99999999999999999997, count: 3}\n")
    assert _invoke("session", str(file))[0] == 0


def test_the_unclaimed_pool_note_has_no_doubled_brackets(tmp_path: Path) -> None:
    file = _session(tmp_path, "  - {seed: 1, count: 2}\n", "policy: bold:straddle=1\n")
    code, out, _ = _invoke("session", str(file))
    assert code == 0
    note = next(line for line in out.splitlines() if line.startswith("note:"))
    assert "stay unclaimed (session.carried_pot_at_end: unclaimed; inferred: " in note
    assert "; (" not in note and "))" not in note


def test_each_seeded_deal_names_its_seed_and_policy(tmp_path: Path) -> None:
    deals = "  - {seed: 1, count: 2}\n  - {seed: 1, count: 2, policy: simple}\n"
    file = _session(tmp_path, deals, "policy: bold:straddle=1\n")
    code, out, _ = _invoke("session", str(file), "--json")
    assert code == 0
    found = [
        (d["seed"], d["policy"], set(d["policies"].values())) for d in json.loads(out)["deals"]
    ]
    assert found == [
        (1, "bold:straddle=1", {"bold:straddle=1"}),
        (2, "bold:straddle=1", {"bold:straddle=1"}),
        (1, "simple", {"simple"}),
        (2, "simple", {"simple"}),
    ]
    code, out, _ = _invoke("session", str(file), "--deals-csv", "-")
    rows = _rows(out)
    assert list(rows[0])[-2:] == ["seed", "policy"]
    assert {(r["deal"], r["seed"], r["policy"]) for r in rows} == {
        ("1", "1", "bold:straddle=1"),
        ("2", "2", "bold:straddle=1"),
        ("3", "1", "simple"),
        ("4", "2", "simple"),
    }
    code, out, _ = _invoke("session", str(file))
    head = next(line for line in out.splitlines() if line.startswith("deal "))
    assert head.split()[-2:] == ["seed", "policy"]
    assert any(line.split()[-2:] == ["2", "simple"] for line in out.splitlines())


def test_a_written_deal_has_no_seed_nor_policy() -> None:
    code, out, _ = _invoke("session", "pagat-teaching", "--json")
    assert code == 0
    first = json.loads(out)["deals"][0]
    assert (first["seed"], first["policy"], first["policies"]) == (None, None, {})


# -- 6. compare: the first named is the base; a scenario named twice is played once ------


def test_compare_takes_the_first_named_as_the_base() -> None:
    code, out, _ = _invoke(
        "compare", "foster-sight", "--only", "foster", "-v", "pagat", "--csv", "-"
    )
    assert code == 0
    assert _rows(out)[0]["variant"] == "foster"
    code, out, _ = _invoke(
        "compare", "foster-sight", "-v", "pagat", "--only", "foster", "--csv", "-"
    )
    assert _rows(out)[0]["variant"] == "pagat"
    code, out, _ = _invoke("compare", "foster-sight", "--only", "foster", "-v", "pagat", "--json")
    assert json.loads(out)["variants"] == ["foster", "pagat"]


def test_compare_plays_a_scenario_named_twice_once() -> None:
    once = _invoke("compare", "foster-sight", "-v", "foster", "--csv", "-")[1]
    code, twice, _ = _invoke(
        "compare", "foster-sight", "foster-sight", "-v", "foster", "--csv", "-"
    )
    assert code == 0 and twice == once and len(_rows(once)) == 4


# -- 7. differences --help names both policies -------------------------------------------


def test_differences_help_names_the_random_policy_too() -> None:
    code, out, _ = _invoke("differences", "--help")
    assert code == 0
    words = " ".join(out.split())
    assert "(simple policy)" not in words
    assert "played by the simple policy first, then by the seeded random policy" in words
