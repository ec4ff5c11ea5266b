"""What a sweep's row counts, by meaning: a rule that changes only what a player is offered
has come into play; one the deals never read cannot act; one read that changed nothing did
not act. These are the figures the stored rule effects hold (``site/effects/``), and the
store is keyed on its declared inputs, not on this code (``docs/effects-store.md``): these
tests are what catches a change of their meaning."""

from __future__ import annotations

from typing import Any

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.study.sweep import run_sweep
from bouillotte.study.sweep_combinations import vary_combinations
from bouillotte.study.sweep_report import acts, sweep_report

LIBRARY = Library()
DEALS = 12


def _row(base: str, rule: str, value: str, policy: str) -> dict[str, Any]:
    variant = LIBRARY.get(base)
    combinations = [c for c in vary_combinations(variant, [rule]) if c.changes[rule] == value]
    assert len(combinations) == 1
    tallies = run_sweep(variant, combinations, [policy], DEALS, seed=1)
    report = sweep_report(variant, combinations, tallies, 1, read=True)
    row: dict[str, Any] = report["rows"][1]
    assert row["combination"] == f"{rule}={value}"
    return row


def test_a_rule_that_only_offers_a_choice_came_into_play() -> None:
    """Foster: the player on the blind's right "has the privilege of straddling" before
    every deal. Allowed where the card allowed none (cardrulesplus), it is offered in every
    deal; the simple player never straddles, so no measure moves, yet the offer is the
    rule at work: every deal counts as one where it came into play, and it acted."""
    row = _row("cardrulesplus", "forced_bets.straddles", "yes", "simple")
    metrics = row["metrics"]
    assert all(entry["diff_moved"] == 0 for entry in metrics.values() if "diff_moved" in entry)
    assert row["came_into_play"] == DEALS
    assert row["rules_read"] == DEALS
    assert row["acts"] == "acted"


def test_a_rule_no_deal_reads_cannot_act() -> None:
    """Where nobody may straddle (the card), the straddle's amount is never read: the row
    cannot act under any player, whatever the deals."""
    row = _row("cardrulesplus", "forced_bets.straddle_amount", "the-whole-pot", "bold")
    assert row["rules_read"] == 0 and row["came_into_play"] == 0
    assert row["acts"] == "cannot-act"


@pytest.mark.parametrize(
    ("came_into_play", "rules_read", "expected"),
    [
        (0, 0, "cannot-act"),
        (0, 5, "did-not-act"),
        (1, 5, "acted"),
        (5, 5, "acted"),
    ],
)
def test_acts_names_what_the_counts_say(
    came_into_play: int, rules_read: int, expected: str
) -> None:
    assert acts({"came_into_play": came_into_play, "rules_read": rules_read}) == expected


def test_a_stored_row_keeps_the_acts_it_was_written_with() -> None:
    assert acts({"acts": "did-not-act", "came_into_play": 3}) == "did-not-act"
    assert acts({"came_into_play": 0}) == "did-not-act"  # no rules_read: read, not counted
