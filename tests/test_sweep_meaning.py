"""What a sweep's row counts, by meaning: a rule that changes only what a player is offered
has come into play; one the deals never read cannot act; one read that changed nothing did
not act. These are the figures the stored rule effects hold (``site/effects/``), and the
store is keyed on its declared inputs, not on this code (``docs/effects-store.md``): these
tests are what catches a change of their meaning."""

from __future__ import annotations

from typing import Any

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.study.intervals import difference, judge
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
        (0, 0, "not-read"),  # no deal of the sample read it: nothing said of the players
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


def test_an_interval_is_given_from_a_hundred_deals_moved() -> None:
    """``study/intervals.py``: an interval is declined where fewer than 100 deals moved. A
    hundred deals moved by one counter each: normal; ninety-nine: declined."""
    assert judge(100, 100, 5000, 100, 1) == "normal"
    assert judge(99, 99, 5000, 99, 1) == "declined"
    assert judge(0, 0, 5000, 0, 0) == "unchanged"


def test_one_deal_may_carry_a_tenth_of_the_spread_and_no_more() -> None:
    """Declined where one deal carries *more* than a tenth of the sum of squares. 150 deals
    moved: one by 10, 65 by 3, 77 by 2 and 7 by 1, squares 100 + 585 + 308 + 7 = 1,000: the
    deal of 10 carries exactly a tenth, and the interval is given; moved by 11 instead
    (squares 1,021), it carries more, and it is declined."""
    total = 10 + 65 * 3 + 77 * 2 + 7
    assert judge(total, 1000, 5000, 150, 10) == "normal"
    assert judge(total + 1, 1021, 5000, 150, 11) == "declined"
    entry = difference(total, 1000, 5000, 150, 10)
    assert entry["diff_interval"] == "normal" and entry["diff_clear"] is True
    declined = difference(total + 1, 1021, 5000, 150, 11)
    assert declined["diff_clear"] is False  # never clear without an interval


def test_the_variants_go_to_each_worker_once_and_the_changed_rules_are_worked_out_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep's tasks are seed ranges alone: the variants and the rules each changes are
    worked out once per sweep and given to each worker when it starts, not pickled into
    every task (issue 48: +29 % of CPU at 3,000 deals). The workers here are this process,
    so that what a task would carry to another can be counted."""
    import contextlib
    import pickle
    from collections.abc import Callable, Iterable, Iterator

    from bouillotte.study import sweep

    started: list[object] = []
    sizes: list[int] = []
    worked_out: list[int] = []
    changed_rules = sweep.changed_rules

    def counting(variants: Any) -> Any:
        worked_out.append(len(variants))
        return changed_rules(variants)

    class Pool:
        def imap(self, run: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
            for task in tasks:
                sizes.append(len(pickle.dumps(task)))
                yield run(pickle.loads(pickle.dumps(task)))

    @contextlib.contextmanager
    def pool(jobs: int, setup: Any, args: tuple[Any, ...]) -> Iterator[Pool]:
        for _ in range(jobs):  # each worker receives what every task shares, pickled
            started.append(setup)
            setup(*pickle.loads(pickle.dumps(args)))
        yield Pool()

    monkeypatch.setattr(sweep, "worker_pool", pool)
    monkeypatch.setattr(sweep, "changed_rules", counting)
    base = LIBRARY.get("foster")
    combinations = vary_combinations(base, ["hands.favori"])
    two = run_sweep(base, combinations, ["simple", "bold"], 120, seed=3, jobs=2)
    assert len(started) == 2
    assert worked_out == [1 + len(combinations)]
    assert len(sizes) == 2 * len(sweep.chunks(120, 2)) and max(sizes) < 200
    one = run_sweep(base, combinations, ["simple", "bold"], 120, seed=3)
    assert sweep_report(base, combinations, one, 3) == sweep_report(base, combinations, two, 3)
