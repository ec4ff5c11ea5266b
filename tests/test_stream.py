"""The project's own random stream (``play/stream.py``) is what docs/chance.md says it is.

The definition is written again here from the documentation's words, as a reader in
another language would: all of a stream's bytes made at once with ``hashlib``, then read
in order. Every shuffle, choice and number of the engine must be that definition's."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bouillotte.play.dealing import shuffled_pack
from bouillotte.play.stream import POLICY, SHUFFLE, Stream, deal_seed, shuffle
from bouillotte.rules.cards import cards_str, pack
from bouillotte.rules.profiles import Library
from bouillotte.study.deal_streams import DealStarts, policy_stream


def _bytes(number: int, use: str) -> Iterator[int]:
    """The stream as docs/chance.md defines it: a 32-byte BLAKE2b key of
    ``bouillotte:<use>:<number>``, then block k = BLAKE2b-512(key + k as 8 bytes)."""
    key = hashlib.blake2b(f"bouillotte:{use}:{number}".encode(), digest_size=32).digest()
    for k in itertools.count():
        yield from hashlib.blake2b(key + k.to_bytes(8, "big")).digest()


class _Reader:
    """The documented draws over :func:`_bytes`."""

    def __init__(self, number: int, use: str) -> None:
        self.source = _bytes(number, use)

    def take(self, size: int) -> int:
        return int.from_bytes(bytes(next(self.source) for _ in range(size)), "big")

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        size = 1
        while 256**size < n:
            size += 1
        while True:
            v = self.take(size)
            if v < 256**size - 256**size % n:
                return v % n

    def random(self) -> float:
        return (self.take(7) >> 3) / 2**53

    def shuffle(self, cards: list[int]) -> None:
        for i in reversed(range(1, len(cards))):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


NUMBERS = [0, 1, 7, 2**61 + 12345, deal_seed(1, 0), deal_seed(20261206, 99, 3), -5]


@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("use", [SHUFFLE, POLICY])
def test_every_draw_is_the_documented_one(number: int, use: str) -> None:
    """Choices among 1 to 70,000 (one, two and three bytes), numbers from 0 to 1 and
    shuffles, mixed, for long enough to cross many blocks."""
    mine, theirs = Stream(number, use), _Reader(number, use)
    sizes = [1, 2, 3, 5, 7, 31, 32, 200, 255, 256, 257, 1000, 65536, 70000]
    for round_ in range(40):
        for n in sizes:
            assert mine.below(n) == theirs.below(n), (round_, n)
        assert mine.random() == theirs.random()
        cards, expected = list(range(33)), list(range(33))
        shuffle(cards, mine)
        theirs.shuffle(expected)
        assert cards == expected
    assert mine.at > 10 * 64  # many blocks read


@given(number=st.integers(), n=st.integers(1, 2**40))
def test_any_number_and_any_choice(number: int, n: int) -> None:
    mine, theirs = Stream(number, POLICY), _Reader(number, POLICY)
    for _ in range(5):
        assert mine.below(n) == theirs.below(n)


def test_a_deal_seed_is_62_bits_of_the_sha256_of_its_numbers() -> None:
    for seed, i, after in [(1, 0, 0), (1, 1, 0), (20261206, 41, 2), (-3, 0, 7)]:
        text = f"bouillotte:{seed}:{i}" + (f":{after}" if after else "")
        digest = hashlib.sha256(text.encode()).digest()
        assert deal_seed(seed, i, after) == int.from_bytes(digest[:8], "big") >> 2
    assert deal_seed(1, 0) != deal_seed(2, 0) != deal_seed(1, 1) != deal_seed(1, 0, 1)


def test_a_seeded_pack_is_the_documented_shuffle_of_the_pack_as_laid_out() -> None:
    foster = Library().get("foster")
    for seed in [*range(60), deal_seed(1, 0)]:
        expected = pack(foster.rules.table.pack_ranks())
        _Reader(seed, SHUFFLE).shuffle(expected)
        assert shuffled_pack(foster, seed) == expected


def test_the_first_deal_of_seed_1_is_fixed_for_good() -> None:
    """A seed names one order of the pack for everyone, in every version to come: deal 0
    of ``simulate --seed 1`` under foster (a change here breaks every user's seeds, and
    must be said in CHANGELOG.md)."""
    foster = Library().get("foster")
    assert cards_str(shuffled_pack(foster, deal_seed(1, 0))[:8]) == "QH 9S KS AC AH 8D 9H AD"


def test_every_choice_is_equally_likely_and_every_order_of_a_shuffle() -> None:
    """Unbiased by construction (a value past the last whole multiple of n is drawn
    again): over every byte, each answer among n is reached by the same number of bytes;
    and 24,000 shuffles of four cards give each of the 24 orders about 1,000 times."""
    for n in range(1, 257):
        limit = 256 - 256 % n
        reached = Counter(v % n for v in range(256) if v < limit)
        assert len(set(reached.values())) == 1 and len(reached) == n
    stream = Stream(3, SHUFFLE)
    orders: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        cards = [0, 1, 2, 3]
        shuffle(cards, stream)
        orders[tuple(cards)] += 1
    assert len(orders) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in orders.values())
    assert chi2 < 49.7  # the 0.1 % point of chi-square with 23 degrees of freedom


def test_a_number_from_0_to_1_has_53_bits() -> None:
    stream = Stream(11, POLICY)
    draws = [stream.random() for _ in range(5000)]
    assert all(0.0 <= x < 1.0 for x in draws)
    assert all((x * 2**53).is_integer() for x in draws)
    assert 0.48 < sum(draws) / len(draws) < 0.52


def test_a_reader_again_and_a_reader_placed_read_the_same_bytes() -> None:
    """A sweep's second play of a deal reads the blocks the first made; a play taken up in
    the middle of a deal reads on from its place."""
    first = Stream(5, POLICY)
    drawn = [first.below(1000) for _ in range(100)]
    again = first.again()
    assert again.blocks is first.blocks
    assert [again.below(1000) for _ in range(100)] == drawn
    placed = Stream(5, POLICY)
    replay = Stream(5, POLICY)
    for _ in range(37):
        replay.below(1000)
    placed.at = replay.at
    assert [placed.below(1000) for _ in range(63)] == drawn[37:]


def test_the_sweeps_kept_stream_is_the_deals_own() -> None:
    starts = DealStarts()
    number = starts.seed(1, 4, 0)
    assert number == deal_seed(1, 4)
    kept, fresh = policy_stream(number, starts), policy_stream(number)
    assert [kept.random() for _ in range(20)] == [fresh.random() for _ in range(20)]
    second = policy_stream(number, starts)
    assert second.at == 0 and second.blocks is kept.blocks
