"""The inlined shuffle draws exactly what ``random.Random.shuffle`` draws."""

import random

import pytest

from bouillotte.play.dealing import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 20, 32, 52])
def test_shuffle_matches_random_shuffle(length: int) -> None:
    for seed in range(200):
        expected = list(range(length))
        random.Random(seed).shuffle(expected)
        mine = list(range(length))
        shuffle(mine, random.Random(seed))
        assert mine == expected
