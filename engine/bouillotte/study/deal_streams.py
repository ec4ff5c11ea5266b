"""The random streams of a simulated deal: its shuffle seed and its policy's generator.

Deal ``i`` of a run with seed ``S`` is shuffled with its own seed, :func:`deal_seed` of the
pair (``S``, ``i``): 62 bits of a SHA-256 hash of both, so two seeds share no deal and a
deal is fixed by its number alone (a run split over several processes gives exactly the
numbers of a run in one). Its policies draw from their own generator, seeded from the same
number (:func:`policy_rng`). A caller that plays the same deal again (a sweep, under every
rule set) keeps both (:class:`DealStarts`) and replays the generator's words
(:class:`ReplayedDraws`) rather than seeding it anew.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Final

from ..play.dealing import Draws
from ..play.seeding import POLICY, reseeded_by_text, seeded_by_text


def deal_seed(seed: int, i: int, after: int = 0) -> int:
    """The shuffle seed of deal ``i`` of a run with seed ``seed`` (``after`` > 0: of the
    ``after``-th deal that plays on its carried pool): 62 bits of the SHA-256 of the
    numbers, so that no two pairs share a stream. A scenario or a session file given this
    number as its ``seed`` deals the same cards."""
    text = f"bouillotte:{seed}:{i}" + (f":{after}" if after else "")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


class DealStarts:
    """What a caller that plays the same deals again (a sweep: each deal under every rule
    set) keeps of their first play: each deal's shuffle seed (:func:`deal_seed`, a
    SHA-256) and the words its policy's generator gave (:class:`Words`), so that the next
    play neither hashes nor seeds anew. The same numbers and the same draws; :meth:`clear`
    it between deals, so that it stays small."""

    __slots__ = ("numbers", "words")

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, int, int], int] = {}
        self.words: dict[int, Words] = {}

    def seed(self, seed: int, i: int, after: int) -> int:
        """:func:`deal_seed` of the same numbers, worked out once."""
        key = (seed, i, after)
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = deal_seed(seed, i, after)
        return number

    def clear(self) -> None:
        self.numbers.clear()
        self.words.clear()


class Words:
    """The 32-bit words a seeded generator gives, one by one (``getrandbits(32)``), kept
    for every play of the same deal: drawn from the generator only the first time a play
    reaches them."""

    __slots__ = ("drawn", "source")

    def __init__(self, source: random.Random) -> None:
        self.source = source
        self.drawn: list[int] = []


_LITTLE_ENDIAN: Final = sys.byteorder == "little"


class ReplayedDraws:
    """A policy's generator for one play of a deal: what ``random.Random`` would draw from
    the state ``words`` started in, made of the same words in the same order, so that
    every play of the deal draws exactly what a freshly seeded generator draws, without
    seeding one or copying its 624-word state at every play.

    ``random()`` and ``getrandbits(k)`` are CPython's own arithmetic over the words
    (``genrand_res53``: two words, 27 and 26 bits; ``getrandbits``: one word shifted, or
    ``k / 32`` words rounded up, least significant first on a little-endian machine and
    the last one shifted); tests/test_replayed_draws.py checks every draw against
    ``random.Random``'s."""

    __slots__ = ("at", "words")

    def __init__(self, words: Words) -> None:
        self.words = words
        self.at = 0

    def _word(self) -> int:
        at = self.at
        drawn = self.words.drawn
        if at == len(drawn):
            drawn.append(self.words.source.getrandbits(32))
        self.at = at + 1
        return drawn[at]

    def random(self) -> float:
        a = self._word() >> 5
        b = self._word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int, /) -> int:
        if k <= 32:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0 if k == 0 else self._word() >> (32 - k)
        words = (k - 1) // 32 + 1
        result = 0
        for i in range(words):
            word = self._word()
            if k < 32:
                word >>= 32 - k
            k -= 32
            result |= word << (32 * (i if _LITTLE_ENDIAN else words - 1 - i))
        return result


def policy_rng(number: int, starts: DealStarts | None = None, *, own: bool = False) -> Draws:
    """The policy's generator for the deal shuffled with seed ``number``: seeded from
    ``"{number}:policy"``, or, where ``starts`` keeps the deal's words, a replay of that
    seeding's draws (:class:`ReplayedDraws`: cheaper than seeding, hashing the string and
    then the generator's initialisation, or than copying a state). ``own``: the thread's
    own policy generator seeded again, not a new one (``seeding.reseeded``), for a caller
    done with it before it asks for the next deal's."""
    if starts is None:
        text = f"{number}:policy"
        return reseeded_by_text(text, POLICY) if own else seeded_by_text(text)
    kept = starts.words
    words = kept.get(number)
    if words is None:
        words = kept[number] = Words(seeded_by_text(f"{number}:policy"))
    return ReplayedDraws(words)
