"""A sweep's replay of a policy generator's words (``ReplayedDraws``) draws exactly what a
freshly seeded ``random.Random`` draws, whatever the mix of draws and however many plays
of the same deal share the words."""

from __future__ import annotations

import random

import pytest

from bouillotte.study.deal_streams import ReplayedDraws, Words

BITS = (0, 1, 2, 5, 7, 31, 32, 33, 63, 64, 65, 96, 100, 200)


def _draws(rng: random.Random | ReplayedDraws, script: random.Random, n: int) -> list[float]:
    """``n`` draws, each a ``random()`` or a ``getrandbits`` of a size ``script`` picks."""
    out: list[float] = []
    for _ in range(n):
        k = script.choice((-1, *BITS))
        out.append(rng.random() if k < 0 else rng.getrandbits(k))
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**62 + 7, "17:policy", "9:policy"])
def test_a_replay_draws_what_a_seeded_generator_draws(seed: int | str) -> None:
    for mix in range(20):
        expected = _draws(random.Random(seed), random.Random(mix), 60)
        replayed = _draws(ReplayedDraws(Words(random.Random(seed))), random.Random(mix), 60)
        assert replayed == expected


def test_plays_sharing_the_words_each_draw_what_a_fresh_generator_draws() -> None:
    words = Words(random.Random("42:policy"))
    for play in range(12):  # each play a different mix, some longer than any before
        expected = _draws(random.Random("42:policy"), random.Random(play), 10 + 7 * play)
        assert _draws(ReplayedDraws(words), random.Random(play), 10 + 7 * play) == expected
    # the words are the generator's own, drawn from it once each, for the longest play
    fresh = random.Random("42:policy")
    assert words.drawn == [fresh.getrandbits(32) for _ in words.drawn]
    assert words.source.getrandbits(32) == fresh.getrandbits(32)


def test_a_negative_number_of_bits_is_refused_as_random_refuses_it() -> None:
    with pytest.raises(ValueError):
        random.Random(1).getrandbits(-1)
    with pytest.raises(ValueError):
        ReplayedDraws(Words(random.Random(1))).getrandbits(-1)
