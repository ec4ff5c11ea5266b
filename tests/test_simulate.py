"""Simulation: seeded, identical whatever the number of processes, and in agreement with
the exact odds of the deal."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play.deal import new_deal
from bouillotte.play.events import Dealt, events_json
from bouillotte.play.stream import POLICY, Stream
from bouillotte.rules.profiles import Library
from bouillotte.study.autoplay import play
from bouillotte.study.odds import compute_odds
from bouillotte.study.player_view import view_of
from bouillotte.study.policies import get_policy
from bouillotte.study.simulate import simulate
from bouillotte.study.simulate_report import report
from bouillotte.study.tally import wilson

LIBRARY = Library()


@pytest.mark.slow
def test_simulation_agrees_with_exact_odds() -> None:
    variant = LIBRARY.get("foster")
    tally = simulate(variant, 5000, seed=1, policy="random")
    dealt = report(variant, tally, 1, "random")["dealt_per_hand"]
    odds = compute_odds(variant.rules)
    exact = {
        "simple_brelan": odds.player_simple_brelan,
        "carre": odds.player_carre,
        "favori": odds.player_favori,
    }
    # A closed form for the brelan, independent of odds.py: three of a kind among the 20
    # cards, for one hand of 3 (the retourne's rank decides only simple versus carré).
    assert odds.player_brelan == Fraction(5 * 4, 1140)
    for key, probability in exact.items():
        low, high = dealt[key]["ci95"]
        assert low <= float(probability) <= high, (key, float(probability), dealt[key])


@pytest.mark.slow
def test_same_seed_same_numbers_and_jobs_do_not_matter() -> None:
    variant = LIBRARY.get("pagat")
    one = report(variant, simulate(variant, 1200, seed=3, policy="simple"), 3, "simple")
    again = report(variant, simulate(variant, 1200, seed=3, policy="simple"), 3, "simple")
    two = report(variant, simulate(variant, 1200, seed=3, policy="simple", jobs=2), 3, "simple")
    assert one == again == two
    other = report(variant, simulate(variant, 1200, seed=4, policy="simple"), 4, "simple")
    assert other != one


def test_classes_cover_every_deal() -> None:
    variant = LIBRARY.get("foster")
    data = report(variant, simulate(variant, 500, seed=2, policy="random"), 2, "random")
    assert sum(c["count"] for c in data["decided_by"].values()) == 500
    assert set(data["seat_net_per_deal"]) == {"1", "2", "3", "4"}


@pytest.mark.parametrize("policy", ["simple", "cautious", "random"])
@pytest.mark.parametrize("variant_id", ["foster", "pagat", "foster-three", "foster-five"])
def test_policies_always_finish_with_legal_actions(policy: str, variant_id: str) -> None:
    variant = LIBRARY.get(variant_id)
    names = [chr(ord("A") + i) for i in range(variant.players)]
    chosen = get_policy(policy)
    for seed in range(150):
        deal = new_deal(variant, names, names[-1], seed=seed)
        play(deal, chosen, Stream(seed, POLICY))  # an illegal action would raise
        assert deal.is_over
        outcome = deal.outcome
        assert sum(p.net for p in outcome.players.values()) == -outcome.carry


def test_a_policy_sees_only_its_own_hand() -> None:
    deal = new_deal(LIBRARY.get("foster"), ["A", "B", "C", "D"], "D", seed=1)
    view = view_of(deal)
    assert view.player == "A"
    assert list(view.hand) == deal.hands[0]
    assert all(not isinstance(e, Dealt) for e in view.history)
    text = json.dumps(events_json(view.history))
    for seat in (1, 2, 3):
        assert not any(f'"{c}"' in text for c in map(str, deal.hands[seat]))


def test_wilson_interval() -> None:
    assert wilson(0, 0)["rate"] is None
    low, high = wilson(50, 100)["ci95"]
    assert low < 0.5 < high


def test_cli_simulate_json() -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["simulate", "-v", "foster", "-v", "pagat", "--deals", "300", "--seed", "5", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [d["variant"] for d in data] == ["foster", "pagat"]
    out = runner.invoke(app, ["simulate", "-v", "foster", "--deals", "10", "--policy", "wild"])
    assert out.exit_code == 2 and "unknown policy" in out.output
