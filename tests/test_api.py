"""The Python API (issue 50): names at the package's top level, imported lazily; results
that print briefly and convert to tidy tables and DataFrames; pandas an optional extra.
The whole worked session is ``docs/api.md`` (``tests/test_api_doc.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bouillotte as b
from bouillotte.study.tidy import FRAMES_MISSING


def test_import_is_cheap_and_the_api_is_at_the_top_level() -> None:
    code = (
        "import sys, bouillotte\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('pandas', 'dask', 'distributed')"
        " or m.startswith(('bouillotte.site', 'bouillotte.api', 'bouillotte.study'))]\n"
        "print(heavy)\n"
        "print(sorted(n for n in dir(bouillotte) if not n.startswith('_')))\n"
        "print(callable(bouillotte.compare), 'bouillotte.api' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert found[0] == "[]"
    for name in ("compare", "run", "simulate", "sweep", "odds", "systems", "matrix"):
        assert f"'{name}'" in found[1]
    assert found[2] == "True True"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        b.nothing  # noqa: B018


def test_compare_prints_a_short_summary_and_gives_a_frame() -> None:
    comparison = b.compare("foster-sight")
    text = str(comparison)
    assert len(text) < 2000  # the study's own object printed 64,589 characters
    lines = text.splitlines()
    assert lines[0] == "foster-sight: Calling for a sight, under 7 systems"
    # scenarios/foster-sight.yaml, worked by hand from Foster's text.
    assert " ".join(lines[1].split()) == "foster settled: net A +70 B +0 C -120 D +50"
    assert any(
        line.split()[:2] == ["*pagat", "illegal"] and "betting.all_in_may_open_or_raise" in line
        for line in lines
    )
    assert "pagat differs from foster by: betting.all_in_may_open_or_raise" in lines
    assert comparison.explanation("pagat") == [["betting.all_in_may_open_or_raise"]]
    assert comparison.explanation("foster") == []
    frame = comparison.to_frame()
    foster = frame[frame.variant == "foster"].set_index("player")["net"].to_dict()
    assert foster == {"A": 70, "B": 0, "C": -120, "D": 50}
    assert str(frame.dtypes["net"]) == "Int64"
    assert comparison.data["results"]["foster"]["status"] == "settled"


def test_without_pandas_to_frame_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    result = b.run("foster-sight", "foster")
    with pytest.raises(ImportError) as raised:
        result.to_frame()
    assert str(raised.value) == FRAMES_MISSING
    assert "pip install 'bouillotte[frames]'" in FRAMES_MISSING
    assert result.to_csv().splitlines()[1] == "foster-sight,foster,settled,A,105,0,70,0,0,"


def test_systems_a_users_folder_and_errors(tmp_path: Path) -> None:
    (tmp_path / "foster-eldest.yaml").write_text(
        "title: Eldest\nsource: foster\nextends: foster\nsummary: s\nrules:\n  point:\n"
        "    suit_tie:\n      value: eldest-first\n      status: inferred\n"
        "      reason: ours\n",
        encoding="utf-8",
    )
    everything = b.systems(tmp_path)
    assert "foster-eldest" in everything.ids and "foster" in everything.ids
    eldest = everything["foster-eldest"]
    assert repr(eldest).startswith("<System foster-eldest: Eldest (4 players, 20-card pack")
    rows = eldest.to_frame()
    assert rows.set_index("rule").loc["point.suit_tie", "value_json"] == '"eldest-first"'
    frame = everything.to_frame()
    assert frame.set_index("id").loc["foster-five", "players"] == 5
    with pytest.raises(b.UserError) as raised:
        b.system("fostr")
    assert "did you mean 'foster'" in raised.value.describe()
    # Under the teaching card's reading of ties the elder hand (A) wins the tie with the
    # dealer (scenarios/tie-dealer-owns-a-suit.yaml): 10 counters move the other way.
    tie = b.compare("tie-dealer-owns-a-suit", ["foster", "foster-eldest"], folder=tmp_path)
    assert tie.explanation("foster-eldest") == [["point.suit_tie"]]


def test_odds_simulate_and_sweep_print_briefly() -> None:
    odds = b.odds()
    assert len(repr(odds)) < 2000
    assert "  foster: 4 players, 20 cards: 16/969;" in repr(odds)
    sim = b.simulate(["foster", "pagat"], deals=30, seed=2)
    assert len(str(sim)) < 1000 and str(sim).startswith("simulate: 30 deals each")
    assert set(sim.to_frame()["variant"]) == {"foster", "pagat"}
    sweep = b.sweep("foster", vary=["hands.favori=none"], deals=20)
    assert repr(sweep) == (
        "<Sweep of foster: 1 combination (hands.favori=none) × 1 policy (simple), 20 deals each>"
    )
    assert set(sweep.to_frame()["combination"]) == {"base", "hands.favori=none"}
    with pytest.raises(b.UserError, match="say what to change"):
        b.sweep("foster", deals=20)
