"""Bad scenarios fail with one message naming the file, the line and the value; exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

GOOD = """\
id: mine
title: Mine
source: {work: foster, status: constructed}
players: [A, B, C, D]
dealer: D
hands:
  A: [AS, KS, 8H]
  B: [QS, 9S, 9H]
  C: [8S, 8D, 9C]
  D: [AH, KH, QH]
retourne: AD
actions: [A bet 10, B fold, C fold, D fold]
variants: [foster]
"""

CASES = {
    "broken-yaml": (GOOD.replace("players: [A, B, C, D]", "players: [A, B"), 5, "YAML"),
    "unknown-card": (GOOD.replace("A: [AS, KS, 8H]", "A: [AS, KS, 7Z]"), 7, "'7Z' is not a card"),
    "duplicate-card": (GOOD.replace("A: [AS, KS, 8H]", "A: [AS, KS, QS]"), 8, "QS is dealt twice"),
    "card-not-in-pack": (GOOD.replace("A: [AS, KS, 8H]", "A: [AS, KS, JH]"), 7, "not in the 20"),
    "wrong-number-of-cards": (GOOD.replace("A: [AS, KS, 8H]", "A: [AS, KS]"), 7, "holds 2 cards"),
    "unknown-variant": (GOOD.replace("variants: [foster]", "variants: [fostr]"), 13, "fostr"),
    "unknown-key": (GOOD + "expected: {}\n", 14, "unknown key 'expected' (did you mean 'expect'?)"),
    "bad-action-word": (GOOD.replace("A bet 10", "A wager 10"), 12, "'wager'"),
    "unknown-player-in-action": (GOOD.replace("A bet 10", "E bet 10"), 12, "'E' is not one"),
    "too-few-actions": (GOOD.replace(", D fold]", "]"), 12, "actions end before the deal"),
    "too-many-actions": (GOOD.replace("D fold]", "D fold, A fold]"), 12, "the deal is over"),
    "dealer-not-a-player": (GOOD.replace("dealer: D", "dealer: E"), 5, "dealer"),
    "under-retourne-not-a-card": (
        GOOD.replace("retourne: AD", "retourne: AD\nunder_retourne: XX"),
        12,
        "'XX' is not a card",
    ),
    "exposed-not-in-the-pack": (
        GOOD.replace("retourne: AD", "retourne: AD\nexposed: JS"),
        12,
        "the exposed card JS is not in the 20-card pack",
    ),
    "stock-dealt-already": (
        GOOD.replace("retourne: AD", "retourne: AD\nstock: [AC, AS]"),
        12,
        "AS in the stock is dealt already",
    ),
    # A décavé player has no hand in a deal: he is refused, never dealt in nor paid.
    "empty-cave": (
        GOOD.replace("dealer: D", "dealer: D\ncaves: {A: 0, B: 100, C: 100, D: 100}"),
        6,
        "A's cave is empty",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_scenario(tmp_path: Path, case: str) -> None:
    text, line, words = CASES[case]
    file = tmp_path / "mine.yaml"
    file.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(file), "--variant", "foster"])
    assert result.exit_code == 2, result.output
    assert f"{file}:{line}" in result.stderr, result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_illegal_action_is_a_result_and_a_clear_message(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    file.write_text(GOOD.replace("A bet 10", "A bet 500"), encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(file), "--variant", "foster", "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["status"] == "illegal"
    assert data["error"]["step"] == 1 and data["error"]["rule"] == "stakes.cave"
    assert f"{file}:12" in result.stderr and "'A bet 500'" in result.stderr


def test_check_reports_a_mismatch_with_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    file.write_text(GOOD + "expect:\n  foster: {net: {A: 99}}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(file)])
    assert result.exit_code == 1
    assert f"{file}:15" in result.stderr and "net of A is 5, expected 99" in result.stderr


def test_a_refused_action_where_none_is_expected_is_one_mismatch(tmp_path: Path) -> None:
    """Not one line per pot and player of a deal that was never played out."""
    file = tmp_path / "mine.yaml"
    expect = "expect:\n  foster:\n    status: uncontested\n    net: {A: 5, B: 0, C: 0, D: -5}\n"
    file.write_text(GOOD.replace("A bet 10", "A bet 500") + expect, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(file)])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"mismatch: {file}:15: mine under foster: step 1 is refused, ")
    assert "expected uncontested" in line and "None" not in line


def test_an_expected_refusal_that_does_not_happen_is_one_mismatch(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    expect = "expect:\n  foster:\n    status: illegal\n    rule: stakes.cave\n    step: 1\n"
    file.write_text(GOOD + expect, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(file)])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert "no action is refused (status uncontested), expected a refusal" in line


def test_run_shows_a_foreseen_refusal_as_the_outcome_and_exits_0(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    expect = "expect:\n  foster:\n    status: illegal\n    rule: stakes.cave\n    step: 1\n"
    file.write_text(GOOD.replace("A bet 10", "A bet 500") + expect, encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(file)])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "under foster: illegal" in result.stdout and "rule stakes.cave" in result.stdout
