"""Rule sweeps: the same deals for every combination, the same numbers whatever runs them
(one process, worker processes, a Dask cluster), and differences that can be reckoned by
hand."""

from __future__ import annotations

import csv
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import differing_rules
from bouillotte.study.differences import SESSION_RULES
from bouillotte.study.simulate import simulate
from bouillotte.study.simulate_report import report
from bouillotte.study.sweep import (
    TASK_DEALS,
    SweepTally,
    chunks,
    metrics_for,
    run_sweep,
    sweep_range,
)
from bouillotte.study.sweep_combinations import towards_combinations, vary_combinations
from bouillotte.study.sweep_report import sweep_report

LIBRARY = Library()
RUNNER = CliRunner()


def _row(data: dict[str, Any], policy: str, combination: str) -> dict[str, Any]:
    rows: list[dict[str, Any]] = data["rows"]
    [row] = [r for r in rows if r["policy"] == policy and r["combination"] == combination]
    return row


@pytest.mark.slow
def test_one_process_and_worker_processes_give_the_same_numbers() -> None:
    base = LIBRARY.get("foster")
    combinations = vary_combinations(base, ["hands.favori=none,by-rank"])
    one = run_sweep(base, combinations, ["simple", "random"], 240, seed=4)
    two = run_sweep(base, combinations, ["simple", "random"], 240, seed=4, jobs=2)
    assert sweep_report(base, combinations, one, 4) == sweep_report(base, combinations, two, 4)
    other = run_sweep(base, combinations, ["simple", "random"], 240, seed=5)
    assert (
        sweep_report(base, combinations, other, 5)["rows"]
        != (sweep_report(base, combinations, one, 4)["rows"])
    )


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_numbers() -> None:
    distributed = pytest.importorskip(
        "distributed", reason='Dask is the optional extra: pip install -e ".[test,cluster]"'
    )
    base = LIBRARY.get("pagat")
    combinations = vary_combinations(base, ["betting.closing", "hands.mistigri=no"])
    local = run_sweep(base, combinations, ["simple", "cautious"], 300, seed=11)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_sweep(base, combinations, ["simple", "cautious"], 300, seed=11, client=client)
    assert sweep_report(base, combinations, remote, 11) == sweep_report(
        base, combinations, local, 11
    )


@pytest.mark.parametrize(
    ("deals", "parts"), [(1, 1), (120, 2), (10**5, 2), (10**6, 1), (10**6, 100)]
)
def test_tasks_are_bounded_seed_ranges_many_more_than_the_workers(deals: int, parts: int) -> None:
    ranges = chunks(deals, parts)
    assert ranges[0][0] == 0 and ranges[-1][1] == deals
    assert all(stop == start for (_, stop), (start, _) in itertools.pairwise(ranges))
    assert all(0 < stop - start <= TASK_DEALS[1] for start, stop in ranges)
    if deals >= TASK_DEALS[0] * 25 * parts:  # enough deals: about 25 tasks per worker or more
        assert len(ranges) >= 25 * parts


def test_the_tallies_of_any_cut_of_the_seeds_merge_into_the_same_numbers() -> None:
    base = LIBRARY.get("foster")
    [changed] = [c.variant for c in vary_combinations(base, ["hands.favori=none"]) if c.variant]
    variants = [base, changed]
    whole = sweep_range(variants, "random", 9, 0, 30)
    for cuts in ([0, 30], [0, 1, 30], [0, 7, 8, 29, 30]):
        pieces = [sweep_range(variants, "random", 9, a, b) for a, b in itertools.pairwise(cuts)]
        for order in (pieces, pieces[::-1]):
            merged = SweepTally.empty(len(variants), len(whole.sums[0]))
            for piece in order:
                merged.merge(piece)
            assert merged == whole, cuts


def test_the_base_row_is_what_simulate_reports_for_the_same_seeds() -> None:
    base = LIBRARY.get("foster")
    combinations = vary_combinations(base, ["hands.favori=none"])
    data = sweep_report(base, combinations, run_sweep(base, combinations, ["simple"], 300, 7), 7)
    alone = report(base, simulate(base, 300, 7, "simple"), 7, "simple")
    metrics = _row(data, "simple", "base")["metrics"]
    for name, entry in alone["decided_by"].items():
        assert metrics[f"decided_by.{name}"]["count"] == entry["count"], name
    for seat, entry in alone["seat_net_per_deal"].items():
        assert metrics[f"seat_net.{seat}"]["mean"] == entry["mean"], seat
    assert metrics["bonus_flow"]["mean"] == alone["bonus_flow_per_deal"]["mean"]


def test_a_rule_that_cannot_act_in_a_simulated_deal_is_refused_by_name() -> None:
    # Simulated deals are never misdealt, and start with fresh caves: who deals after a
    # misdeal, or what a player buys between deals, cannot act; --towards and --all-rules
    # skip such rules, and --vary refuses them, saying why (before, it played them and
    # labelled the rows "cannot act under this player", blaming the players).
    base = LIBRARY.get("foster")
    with pytest.raises(InputError, match="no simulated deal is misdealt"):
        vary_combinations(base, ["misdeals.dealer_keeps_deal"])
    with pytest.raises(InputError, match="acts between deals; a sweep plays single deals"):
        vary_combinations(base, ["stakes.skip_dealer_who_rebought"])


def test_doubling_every_brelan_bonus_doubles_the_bonus_flow_and_nothing_else() -> None:
    # Bonuses are settled after the betting (no policy sees them) and, paid from the
    # ledger, are never cut short by a cave: with every bonus 1 counter (0 for the
    # carré, favori and mistigri), setting the simple brelan's to 2 pays exactly twice
    # as much on every deal, so the mean difference equals the base's own bonus flow,
    # the pools and what decided them do not move, and the seats' differences sum to 0.
    foster = LIBRARY.get("foster")
    nothing = {"amount": 0, "amount_if_wins_pool": 0}
    base = foster.with_values(
        {
            "bonuses.paid_from": "ledger",
            "bonuses.brelan": foster.value("bonuses.brelan").model_copy(
                update={"amount": 1, "amount_if_wins_pool": 1}
            ),
            **{
                f"bonuses.{kind}": foster.value(f"bonuses.{kind}").model_copy(update=nothing)
                for kind in ("carre", "favori", "mistigri")
            },
        }
    )
    combinations = vary_combinations(
        base, ["bonuses.brelan.amount=2", "bonuses.brelan.amount_if_wins_pool=2"]
    )
    tally = run_sweep(base, combinations, ["simple"], 600, seed=2)["simple"]
    metrics = metrics_for(base.players)
    keys = [m.key for m in metrics]
    flow = keys.index("bonus_flow")
    assert tally.sums[0][flow] > 0  # some brelans were paid
    assert tally.diff_sums[1][flow] == tally.sums[0][flow]
    assert tally.diff_squares[1][flow] == tally.squares[0][flow]
    for k, key in enumerate(keys):
        if key.startswith("decided_by.") or key == "pool":
            assert tally.diff_squares[1][k] == 0, key
    seats = [k for k, key in enumerate(keys) if key.startswith("seat_net.")]
    assert sum(tally.diff_sums[1][k] for k in seats) == 0
    assert any(tally.diff_squares[1][k] for k in seats)


def test_towards_switches_each_rule_acting_within_a_deal_and_says_what_it_skips() -> None:
    foster, pagat = LIBRARY.get("foster"), LIBRARY.get("pagat")
    combinations, skipped = towards_combinations(foster, pagat)
    differing = differing_rules(foster, pagat)
    skipped_rules = {s.rule for s in skipped}
    assert skipped_rules == {
        r for r in differing if r in SESSION_RULES or r.startswith("misdeals.")
    }
    switched = [r for r in differing if r not in skipped_rules]
    assert len(combinations) == len(switched) + 1
    assert combinations[-1].label == f"all {len(switched)} rules of pagat"
    assert combinations[-1].variant is not None
    for rule in switched:
        assert combinations[-1].variant.value(rule) == pagat.value(rule)


def test_a_combination_that_is_no_valid_system_is_reported_not_raised() -> None:
    base = LIBRARY.get("foster")
    combinations = vary_combinations(base, ["forced_bets.dealer_blind=2,5000"])
    assert [c.error is None for c in combinations] == [True, False]
    assert "larger than the cave" in (combinations[1].error or "")
    data = sweep_report(base, combinations, run_sweep(base, combinations, ["simple"], 50, 1), 1)
    invalid = _row(data, "simple", "forced_bets.dealer_blind=5000")
    assert invalid["status"] == "invalid" and "not a valid system" in invalid["error"]


def test_cli_sweep_json_csv_and_policies(tmp_path: Path) -> None:
    out_csv = tmp_path / "sweep.csv"
    args = ["sweep", "foster", "--vary", "hands.favori=none", "-n", "120", "--seed", "9"]
    args += ["--policy", "simple", "--policy", "cautious", "--json", "--csv", str(out_csv)]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["policies"] == ["simple", "cautious"]
    assert {(r["policy"], r["combination"]) for r in data["rows"]} == {
        (p, c) for p in ("simple", "cautious") for c in ("base", "hands.favori=none")
    }
    with out_csv.open(encoding="utf-8") as handle:
        lines = list(csv.DictReader(handle))
    assert {line["policy"] for line in lines} == {"simple", "cautious"}
    favori = [line for line in lines if line["combination"] == "hands.favori=none"]
    assert len(favori) == 2 * (len(data["metrics"]))
    assert all(line["diff"] != "" for line in favori if line["metric"] != "pool_spread")
    text = RUNNER.invoke(app, [*args[:-3], "--quiet"])
    assert text.exit_code == 0
    assert "policy simple:" in text.stdout and "policy cautious:" in text.stdout
    assert "hands.favori=none" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "hands.favory"], "hands.favori"),
        (["--vary", "hands.favori=sometimes"], "none, below-simple, by-rank, above-simple"),
        (["--vary", "bonuses.carre"], "bonuses.carre.amount"),
        (["--vary", "stakes.cave"], "give the values to try"),
        (["--vary", "hands.favori", "--policy", "wild"], "unknown policy"),
        (["--vary", "hands.favori", "--jobs", "999"], "--jobs must be at most"),
        (["--vary", "hands.favori", "--deals", "0"], "--deals must be at least 1"),
        (["--towards", "nosuch"], "nosuch"),
        (["--vary", "hands.favori", "--csv", "/nonexistent-folder/x.csv"], "no such folder"),
        ([], "--vary RULE"),
    ],
)
def test_cli_sweep_input_errors_exit_2(args: list[str], message: str) -> None:
    result = RUNNER.invoke(app, ["sweep", "foster", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_cluster_without_dask_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    result = RUNNER.invoke(
        app, ["sweep", "foster", "--vary", "hands.favori", "-n", "5", "--cluster", "local"]
    )
    assert result.exit_code == 2
    assert 'pip install "bouillotte[cluster]"' in result.output


@pytest.mark.slow
def test_cli_cluster_local_prints_what_one_process_prints() -> None:
    pytest.importorskip(
        "distributed", reason='Dask is the optional extra: pip install -e ".[test,cluster]"'
    )
    args = ["sweep", "foster", "--vary", "hands.favori=none", "-n", "100", "--seed", "6"]
    alone = RUNNER.invoke(app, [*args, "--json", "--quiet"])
    cluster = RUNNER.invoke(app, [*args, "--json", "--quiet", "--cluster", "local", "-j", "1"])
    assert alone.exit_code == 0 and cluster.exit_code == 0, cluster.output
    assert json.loads(cluster.stdout) == json.loads(alone.stdout)
