"""Seed streams and the carried pool: two seeds share no deal, a simulated deal is
reproduced from its own seed, and no counter vanishes (the seats' nets sum to zero; a
chain of void deals cut unended is counted apart, its pool not charged to the seats) under
every bundled system and policy."""

from __future__ import annotations

import pytest

from bouillotte.play.deal import new_deal
from bouillotte.play.stream import POLICY, Stream, deal_seed
from bouillotte.rules.profiles import Library
from bouillotte.study.autoplay import play
from bouillotte.study.policies import get_policy, policy_names
from bouillotte.study.simulate import simulate
from bouillotte.study.sweep import metrics_for, run_sweep
from bouillotte.study.sweep_combinations import towards_combinations
from bouillotte.study.sweep_report import sweep_report
from bouillotte.study.void_chain import play_one, player_names

LIBRARY = Library()


def _cards(variant_id: str, seed: int, deals: int) -> set[tuple[object, object]]:
    variant = LIBRARY.get(variant_id)
    names = player_names(variant.players)
    policy = get_policy("simple")
    dealt: set[tuple[object, object]] = set()
    for i in range(deals):
        deal = play_one(variant, policy, names, seed, i).first
        dealt.add((tuple(tuple(h) for h in deal.dealt), deal.retourne))
    return dealt


def test_seeds_one_and_two_share_no_deal() -> None:
    one = {deal_seed(1, i) for i in range(5000)}
    two = {deal_seed(2, i) for i in range(5000)}
    assert len(one) == len(two) == 5000
    assert not one & two
    # Under the old scheme (seed S + i) the two runs shared all deals but one.
    assert deal_seed(1, 1) != deal_seed(2, 0)
    # And the cards themselves: 400 deals of each seed, no deal in common.
    assert not _cards("foster", 1, 400) & _cards("foster", 2, 400)


def test_a_simulated_deal_is_reproduced_from_its_own_seed() -> None:
    """A scenario or a session given ``deal_seed(S, i)`` as its seed deals the same cards,
    and the same policy then takes the same actions."""
    variant = LIBRARY.get("pagat")
    names = player_names(variant.players)
    for i in (0, 7, 123):
        played = play_one(variant, get_policy("simple"), names, 5, i)
        again = new_deal(variant, names, names[-1], seed=deal_seed(5, i))
        play(again, get_policy("simple"), Stream(0, POLICY))
        assert again.dealt == played.first.dealt
        assert again.outcome.players == played.first.outcome.players


@pytest.mark.parametrize("policy", policy_names())
@pytest.mark.parametrize("variant_id", Library().ids())
def test_no_counter_vanishes(variant_id: str, policy: str) -> None:
    variant = LIBRARY.get(variant_id)
    tally = simulate(variant, 120, seed=3, policy=policy)
    nets = sum(m.total for m in tally.seat_net)
    assert nets == 0  # a chain cut unended (the cautious player who never opens) apart
    assert (tally.cut == 0) == (tally.carried.total == 0)
    assert tally.deals == 120


def test_void_deals_are_played_on() -> None:
    """Where deal ``i`` is void, its pool is won in a following deal dealt from the stream
    of (S, i): the deal passes to the right, and the carried pool is in that pot."""
    variant = LIBRARY.get("foster")
    names = player_names(variant.players)
    policy = get_policy("simple")
    played = next(
        p for i in range(200) if len((p := play_one(variant, policy, names, 1, i)).deals) > 1
    )
    first, second = played.deals[0], played.deals[1]
    assert first.outcome.status == "void"
    assert second.carried_in == first.outcome.carry > 0
    assert second.names[second.dealer] == names[0]  # the deal passed to the dealer's right
    assert sum(played.net) + played.carried == 0
    assert played.carried == 0


def test_sweep_nets_and_carry_sum_to_zero() -> None:
    base, other = LIBRARY.get("foster"), LIBRARY.get("pagat")
    combinations, skipped = towards_combinations(base, other)
    tallies = run_sweep(base, combinations, ["simple", "random"], 60, 2)
    keys = [m.key for m in metrics_for(base.players)]
    counted = [k for k, key in enumerate(keys) if key.startswith("seat_net.")]
    for tally in tallies.values():
        for sums in tally.sums:  # the base, then every combination: exact integer sums
            assert sum(sums[k] for k in counted) == 0
    data = sweep_report(base, combinations, tallies, 2, skipped, "pagat")
    for row in data["rows"]:
        if row["status"] == "ok":
            metrics = row["metrics"]
            total = sum(e["mean"] for k, e in metrics.items() if k.startswith("seat_net."))
            assert total == pytest.approx(0, abs=1e-5)
