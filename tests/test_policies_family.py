"""The table family of policies: tendencies that reach every rule a choice can reach, set
from the command line, and the sweep's count of the deals where each rule came into play."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play.showdown import rank_values
from bouillotte.rules.cards import parse_card
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.study.hand_worth import best_suit
from bouillotte.study.policies import POLICY_DESCRIPTIONS, get_policy, policy_help, policy_names
from bouillotte.study.simulate import simulate
from bouillotte.study.sweep import run_sweep
from bouillotte.study.sweep_combinations import towards_combinations
from bouillotte.study.sweep_report import CARD_BOUND, not_met, sweep_report, sweep_text
from bouillotte.study.table_policy import TablePolicy

LIBRARY = Library()


def test_every_policy_has_a_sentence_in_help() -> None:
    text = policy_help()
    for name in policy_names():
        assert name in POLICY_DESCRIPTIONS
        assert f"{name}: {POLICY_DESCRIPTIONS[name]}" in text


def test_tendencies_are_set_after_a_colon() -> None:
    policy = get_policy("bold:straddle=0.2,raises=1")
    assert isinstance(policy, TablePolicy)
    assert policy.tendencies.straddle == 0.2
    assert policy.tendencies.raises == 1
    assert policy.tendencies.bluff == 0.03  # bold's own, unchanged
    for wrong in ("bold:straddle=2", "bold:nerve=1", "bold:raises=a lot", "simple:bluff=0.1"):
        with pytest.raises(InputError):
            get_policy(wrong)


def test_a_bad_tendency_is_exit_2() -> None:
    result = CliRunner().invoke(
        app, ["simulate", "-v", "foster", "--deals", "5", "--policy", "bold:straddle=3", "-q"]
    )
    assert result.exit_code == 2
    assert "straddle is a chance, from 0 to 1" in result.output


def test_the_straddle_tendency_is_what_straddles() -> None:
    foster = LIBRARY.get("foster")
    always = simulate(foster, 100, seed=1, policy="table:straddle=1")
    never = simulate(foster, 100, seed=1, policy="table")
    assert always.met["straddled"] == 100
    assert never.met["straddled"] == 0
    # Straddling goes round until the dealer buys it back, so someone refuses only where the
    # chance is below one.
    some = simulate(foster, 200, seed=1, policy="table:straddle=0.5")
    assert 0 < some.met["straddle-refused"] < 200


@pytest.mark.slow
def test_bold_meets_every_rule_foster_and_pagat_differ_on() -> None:
    """The issue's test: under the rule-meeting policy every varied rule came into play in
    some deal, or the report says why no choice reaches it; the simple policy's rules that
    it never meets are printed as not met, not as an effect of zero."""
    foster, pagat = LIBRARY.get("foster"), LIBRARY.get("pagat")
    combinations, skipped = towards_combinations(foster, pagat)
    tallies = run_sweep(foster, combinations, ["simple", "bold"], 600, 1)
    data = sweep_report(foster, combinations, tallies, 1, skipped, "pagat")
    for row in data["rows"]:
        if row["combination"] == "base" or row["status"] != "ok":
            continue
        rules = {r["rule"] for r in row["rules"]} or {"all"}
        if row["policy"] == "bold":
            assert row["came_into_play"] > 0 or rules <= set(CARD_BOUND), row["combination"]
        if row["came_into_play"] == 0:
            said = not_met(row, 600) or ""
            assert said.startswith(
                ("cannot act under this player", "not read in these", "did not act in these")
            )
    simple_closing = next(
        r for r in data["rows"] if r["policy"] == "simple" and "betting.closing" in r["changes"]
    )
    assert simple_closing["came_into_play"] == 0
    text = sweep_text(data)
    assert "betting.closing=no-more-round: not read in these 600 deals" in text
    assert "betting.closing: calling privilege (foster: inferred) -> no more round" in text


def test_best_suit_counts_the_fuller_suit_and_names_the_first_in_suit_order() -> None:
    """The one best-suit helper of the policies. Hand 8♠ K♥ 8♥ with the K♠ turned up, at
    Foster's values (king 10, eight 8): spades count 8 + 10 = 18 with one card in hand,
    hearts 10 + 8 = 18 with two. The point counted is 18 with two cards (the fuller suit);
    the suit a player keeps when he draws is spades, the first of the two in suit order."""
    values = rank_values(Library().get("foster").rules)
    hand = tuple(parse_card(c) for c in ("8S", "KH", "8H"))
    assert best_suit(hand, parse_card("KS"), values) == (18, 2, 1, 0)
    # with the retourne elsewhere, hearts alone hold 18
    assert best_suit(hand, parse_card("AD"), values) == (18, 2, 1, 1)
