"""What a sweep keeps from one row's play of a deal for its other rows (the shuffled pack,
the words the policy generator drew) changes nothing: the same cards, the same draws,
the same play as making them anew."""

from __future__ import annotations

from typing import Any

from bouillotte.play import dealing
from bouillotte.play.dealing import shuffled_pack
from bouillotte.play.stream import SHUFFLE, Stream, deal_seed, shuffle
from bouillotte.rules.cards import pack
from bouillotte.rules.profiles import Library
from bouillotte.study.deal_streams import DealStarts, policy_stream
from bouillotte.study.policies import get_policy
from bouillotte.study.sweep_combinations import vary_combinations
from bouillotte.study.void_chain import play_one, player_names

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")


def test_a_kept_shuffle_is_the_seed_s_order_and_a_list_of_its_own() -> None:
    expected = pack(FOSTER.rules.table.pack_ranks())
    shuffle(expected, Stream(11, SHUFFLE))
    first = shuffled_pack(FOSTER, 11)
    assert first == expected
    first.reverse()  # what one deal does with its pack is no other deal's
    assert shuffled_pack(FOSTER, 11) == expected
    dealing._SHUFFLED.clear()
    assert shuffled_pack(FOSTER, 11) == expected


def test_a_kept_shuffle_is_that_of_its_own_pack() -> None:
    five = LIBRARY.get("foster-five")
    assert five.rules.table.pack_ranks() != FOSTER.rules.table.pack_ranks()
    assert sorted(shuffled_pack(FOSTER, 3)) == sorted(pack(FOSTER.rules.table.pack_ranks()))
    assert sorted(shuffled_pack(five, 3)) == sorted(pack(five.rules.table.pack_ranks()))


def test_a_replay_of_a_kept_stream_draws_what_the_deals_stream_draws() -> None:
    starts = DealStarts()
    fresh = policy_stream(12345)
    expected = [fresh.random() for _ in range(50)] + [fresh.below(100) for _ in range(50)]
    for _ in range(3):  # made and kept, then read again from what was kept, twice
        rng = policy_stream(12345, starts)
        drawn = [rng.random() for _ in range(50)] + [rng.below(100) for _ in range(50)]
        assert drawn == expected
    assert list(starts.streams) == [12345]


def test_a_deal_played_under_many_rows_with_kept_starts_plays_as_alone() -> None:
    variants = [FOSTER, *(c.variant for c in vary_combinations(FOSTER, ["betting.closing"]))]
    names = player_names(FOSTER.players)
    for policy in ("advised", "random"):
        for i in range(12):
            starts = DealStarts()
            for variant in variants:
                assert variant is not None
                kept: list[list[Any]] = []
                alone: list[list[Any]] = []
                with_starts = play_one(variant, get_policy(policy), names, 9, i, kept, starts)
                dealing._SHUFFLED.clear()
                by_itself = play_one(variant, get_policy(policy), names, 9, i, alone)
                assert kept == alone
                assert with_starts.net == by_itself.net
                assert with_starts.carried == by_itself.carried


def test_a_kept_shuffle_seed_is_the_deal_s_own() -> None:
    starts = DealStarts()
    for seed, i, after in ((1, 5, 0), (1, 5, 1), (2, 5, 0), (1, 6, 0), (1, 5, 0)):
        assert starts.seed(seed, i, after) == deal_seed(seed, i, after)
    assert len(starts.numbers) == 4
    starts.clear()
    assert not starts.numbers and not starts.streams
