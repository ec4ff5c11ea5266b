"""The generators made by ``play/seeding.py`` are ``random.Random``'s, draw for draw: the
shuffles of every seeded deal and the draws of every simulated policy rest on it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bouillotte.play.seeding import (
    POLICY,
    SHUFFLE,
    reseeded,
    reseeded_by_text,
    seeded,
    seeded_by_text,
)
from bouillotte.study.deal_streams import deal_seed


def _draws(rng: random.Random) -> list[object]:
    """Enough of every kind of draw to pass the first twist of the state (624 words)."""
    out: list[object] = [rng.getrandbits(k) for k in (1, 5, 31, 32, 33, 64, 100)]
    out += [rng.random() for _ in range(400)]
    out += [rng.getrandbits(32) for _ in range(300)]
    out.append(rng.gauss(0.0, 1.0))  # gauss_next left as random.py leaves it
    out.append(rng.gauss(0.0, 1.0))
    return out


@pytest.mark.parametrize(
    "seed",
    [0, 1, 2**32 - 1, 2**32, 2**62 - 1, 2**64 + 12345, -1, -(2**40), 10**100, True],
)
def test_an_integer_seed_draws_what_random_draws(seed: int) -> None:
    assert _draws(seeded(seed)) == _draws(random.Random(seed))


@given(st.integers())
def test_any_integer_seed(seed: int) -> None:
    assert _draws(seeded(seed)) == _draws(random.Random(seed))


@given(st.text())
def test_any_text_seed(text: str) -> None:
    assert _draws(seeded_by_text(text)) == _draws(random.Random(text))


def test_the_seeds_a_simulation_makes() -> None:
    """Deal seeds (62 bits of a SHA-256) for the shuffle, ``"{number}:policy"`` for the
    policy, over the first deals of two runs."""
    for run in (1, 20261203):
        for i in range(50):
            number = deal_seed(run, i)
            assert _draws(seeded(number)) == _draws(random.Random(number))
            text = f"{number}:policy"
            assert _draws(seeded_by_text(text)) == _draws(random.Random(text))


def test_a_shuffle_is_randoms_shuffle() -> None:
    from bouillotte.play.dealing import shuffle

    for seed in (3, 2**61 + 7):
        cards, expected = list(range(32)), list(range(32))
        shuffle(cards, seeded(seed))
        random.Random(seed).shuffle(expected)
        assert cards == expected


@given(st.lists(st.integers(), min_size=1, max_size=6), st.integers(0, 700))
def test_a_generator_seeded_again_draws_what_a_new_one_draws(seeds: list[int], drawn: int) -> None:
    """The thread's own generator, seeded again after any number of draws (past the first
    twist or not, and after ``gauss``), draws exactly what ``random.Random(seed)`` draws."""
    for seed in seeds:
        for use in (SHUFFLE, POLICY):
            rng = reseeded(seed, use)
            assert rng is reseeded(seed, use)  # the same generator, not a new one
            assert _draws(rng) == _draws(random.Random(seed))
            for _ in range(drawn):
                rng.getrandbits(32)
    assert reseeded(1, SHUFFLE) is not reseeded(1, POLICY)  # one for each use


@given(st.text(), st.integers(0, 700))
def test_a_policy_generator_seeded_again_from_text(text: str, drawn: int) -> None:
    rng = reseeded_by_text("an earlier deal:policy", POLICY)
    for _ in range(drawn):
        rng.getrandbits(32)
    again = reseeded_by_text(text, POLICY)
    assert again is rng
    assert _draws(again) == _draws(random.Random(text))


def test_each_thread_has_its_own_generator() -> None:
    """Two threads seeding and drawing at once each get ``random.Random``'s draws (a Dask
    worker runs its tasks in threads)."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    barrier = Barrier(2)

    def draws(seed: int) -> tuple[int, list[object]]:
        rng = reseeded(seed)
        barrier.wait()  # both seeded before either draws
        return id(rng), _draws(rng)

    with ThreadPoolExecutor(2) as pool:
        (id_a, a), (id_b, b) = pool.map(draws, (11, 12))
    assert id_a != id_b
    assert a == _draws(random.Random(11))
    assert b == _draws(random.Random(12))
