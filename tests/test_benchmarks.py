"""benchmarks/revisions.py: the sweep play of a round, from a sample of two fresh processes
(DEALS deals less 1 deal, over the plays) or as timed in process (no start-up subtracted)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import revisions
import sweepplay


def test_fresh_processes_give_the_difference_over_the_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sweepplay, "rows", lambda: 10)
    # 41 deals cost 0.50 s and 0.62 s, 1 deal 0.30 s and 0.22 s: 40 deals x 10 rows played
    # for 0.20 s and 0.40 s.
    sweeps = {("before", "simple", 41): [0.50, 0.62], ("before", "simple", 1): [0.30, 0.22]}
    plays = revisions.plays_by_round(sweeps, "before", "simple", 41)
    assert plays == pytest.approx([0.20 / 400, 0.40 / 400])


def test_in_process_plays_are_taken_as_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_rows() -> int:
        raise AssertionError("an in-process play is already per play: no rows to divide by")

    monkeypatch.setattr(sweepplay, "rows", no_rows)
    sweeps = {("compiled", "bold", 0): [21e-6, 19e-6, 23e-6]}
    assert revisions.plays_by_round(sweeps, "compiled", "bold", 40) == [21e-6, 19e-6, 23e-6]
