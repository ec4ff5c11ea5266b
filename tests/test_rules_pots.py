"""Pools and side pools from what each player put in, pinned on Foster's sight example.

Foster, "Calling for a Sight": caves A 35, B 60, C 120, D 185. "A puts up all his 35
counters. B passes out. C [...] puts up the remainder of his 120, and calls a sight for
them. Then D withdraws his superfluous 65, and it is a call." A "can win from C and D only
the amount for which he called a sight, i.e. 35 counters. He therefore takes down 105 as
his share of the pool, leaving 170 to be decided between C and D."
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bouillotte.play.pots import Pot, build_pots, uncalled_excess

A, B, C, D = range(4)


def test_foster_d_withdraws_his_superfluous_65() -> None:
    # D's blind of 5 and "180 more than his blind" make 185 against C's 120
    assert uncalled_excess([35, 0, 120, 185]) == (D, 65)


def test_foster_a_takes_105_and_170_is_left_between_c_and_d() -> None:
    pots = build_pots([35, 0, 120, 120], [False, True, False, False])
    assert pots == [Pot(105, (A, C, D)), Pot(170, (C, D))]


def test_a_stake_met_exactly_has_no_excess() -> None:
    assert uncalled_excess([20, 20, 5, 0]) == (-1, 0)
    assert uncalled_excess([20]) == (-1, 0)
    assert uncalled_excess([]) == (-1, 0)
    assert uncalled_excess([5, 30]) == (B, 25)


def test_a_folded_players_chips_fall_into_the_pools_they_reached() -> None:
    """A put in 50 and passed out; B is all in for 30, C put in 60. The main pool holds 30
    from each (90, B and C); the side pool A's other 20 and C's other 30 (50, C alone)."""
    pots = build_pots([50, 30, 60], [True, False, False])
    assert pots == [Pot(90, (B, C)), Pot(50, (C,))]


def test_folded_chips_above_every_live_stake_stay_in_the_last_pool() -> None:
    pots = build_pots([50, 20, 20], [True, False, False])
    assert pots == [Pot(90, (B, C))]


def test_folded_chips_above_every_live_stake_go_to_the_last_side_pool_not_the_main() -> None:
    """A is all in for 10 and C for 25; B put in 40 and passed out. The main pool is 10 from
    each (30, A and C); the side pool 15 from B and 15 from C (30, C alone); B's last 15,
    above every live stake, join the last pool, the one nearest them: 45 to C alone, not
    the main pool, where A would have a share of chips he could never have won."""
    pots = build_pots([10, 40, 25], [False, True, False])
    assert pots == [Pot(30, (A, C)), Pot(45, (C,))]


def test_a_pool_carried_from_a_void_deal_goes_to_the_main_pool_not_the_side_pool() -> None:
    pots = build_pots([10, 0, 25], [False, False, False], carried_in=8)
    assert pots == [Pot(28, (A, C)), Pot(15, (C,))]


def test_a_player_all_in_for_exactly_a_level_contends_for_it() -> None:
    # B and C are all in for 20 each, D for 30: B and C share the level of 20 with D.
    pots = build_pots([0, 20, 20, 30], [True, False, False, False])
    assert pots == [Pot(60, (B, C, D)), Pot(10, (D,))]


def test_an_uncalled_excess_of_one_counter_is_still_an_excess() -> None:
    assert uncalled_excess([6, 5, 0]) == (A, 1)


def test_a_pool_carried_from_a_void_deal_belongs_to_the_main_pool() -> None:
    pots = build_pots([35, 0, 120, 120], [False, True, False, False], carried_in=20)
    assert pots == [Pot(125, (A, C, D)), Pot(170, (C, D))]


def test_with_no_live_stake_the_pool_is_what_was_carried_and_left() -> None:
    assert build_pots([0, 0, 0], [False, False, False], carried_in=20) == [Pot(20, (A, B, C))]
    assert build_pots([5, 0, 0], [True, False, False], carried_in=20) == [Pot(25, (B, C))]


def test_players_still_in_at_zero_share_the_pool() -> None:
    """A blinded 5, the others are in for nothing: one pool of 5 for A alone (a player
    still in who put in nothing reaches no level)."""
    assert build_pots([5, 0, 0], [False, False, False]) == [Pot(5, (A,))]


@settings(deadline=None)  # mutmut's trampolines slow every call down
@given(
    st.lists(st.tuples(st.integers(0, 200), st.booleans()), min_size=2, max_size=6),
    st.integers(0, 50),
)
def test_every_counter_put_in_is_in_exactly_one_pool(
    stakes: list[tuple[int, bool]], carried: int
) -> None:
    contributions = [c for c, _ in stakes]
    folded = [f for _, f in stakes]
    pots = build_pots(contributions, folded, carried_in=carried)
    assert sum(p.amount for p in pots) == sum(contributions) + carried
    for pot in pots:
        assert all(not folded[s] for s in pot.contenders)
    # each later pool is contested by fewer players, all of them in the earlier one
    for earlier, later in pairwise(pots):
        assert set(later.contenders) < set(earlier.contenders)


def test_a_player_all_in_for_a_single_counter_contests_a_pool_of_it() -> None:
    """The teaching card's ante is 1: a player all in for that one counter contests a main
    pool of one counter from each (3); the others' further 4 each make a side pool (8)."""
    assert build_pots([1, 5, 5], [False, False, False]) == [Pot(3, (A, B, C)), Pot(8, (B, C))]


def test_a_single_counter_not_met_is_returned() -> None:
    assert uncalled_excess([6, 5]) == (A, 1)


def test_one_contribution_and_one_fold_flag_per_seat() -> None:
    with pytest.raises(ValueError):
        build_pots([10, 10, 10], [False, False])


@given(st.lists(st.integers(min_value=0, max_value=40), max_size=6))
def test_the_uncalled_excess_is_the_first_largest_stake_over_the_next(stakes: list[int]) -> None:
    """By its definition: the first seat of the largest stake, less the largest of the
    others (the largest again if two share it)."""
    if len(stakes) < 2:
        assert uncalled_excess(stakes) == (-1, 0)
        return
    top = stakes.index(max(stakes))
    excess = stakes[top] - max(c for i, c in enumerate(stakes) if i != top)
    assert uncalled_excess(tuple(stakes)) == ((top, excess) if excess > 0 else (-1, 0))
