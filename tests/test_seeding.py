"""The generators made by ``play/seeding.py`` are ``random.Random``'s, draw for draw: the
shuffles of every seeded deal and the draws of every simulated policy rest on it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bouillotte.play.seeding import seeded, seeded_by_text
from bouillotte.study.simulate import deal_seed


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
