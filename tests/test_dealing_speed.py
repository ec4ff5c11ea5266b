"""The inlined shuffle, choice and amount draw exactly what ``random.Random`` draws."""

import random

import pytest

from bouillotte.play.dealing import below, in_steps, shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 20, 32, 52])
def test_shuffle_matches_random_shuffle(length: int) -> None:
    for seed in range(200):
        expected = list(range(length))
        random.Random(seed).shuffle(expected)
        mine = list(range(length))
        shuffle(mine, random.Random(seed))
        assert mine == expected


@pytest.mark.parametrize("length", [1, 2, 3, 5, 7, 8, 13])
def test_below_chooses_what_random_choice_chooses(length: int) -> None:
    options = list(range(length))
    for seed in range(200):
        theirs, mine = random.Random(seed), random.Random(seed)
        for _ in range(10):  # and leaves the generator where choice leaves it
            assert options[below(mine, length)] == theirs.choice(options)


@pytest.mark.parametrize(
    ("low", "high", "step"),
    [
        (0, 0, 1),
        (2, 3, 1),
        (5, 40, 1),
        (8, 8, 4),
        (8, 24, 4),
        (8, 27, 4),
        (3, 100, 7),
        (1, 2**40, 3),
    ],
)
def test_in_steps_draws_what_randrange_draws(low: int, high: int, step: int) -> None:
    for seed in range(200):
        theirs, mine = random.Random(seed), random.Random(seed)
        for _ in range(10):  # and leaves the generator where randrange leaves it
            drawn = in_steps(mine, low, high, step)
            assert drawn == theirs.randrange(low, high + 1, step)
            assert low <= drawn <= high and (drawn - low) % step == 0
