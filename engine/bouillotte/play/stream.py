"""The project's own random stream: every seed a run derives, every shuffle of a pack and
every draw of a simulated player, defined here and nowhere else (docs/chance.md gives the
same definition in words, for a reader who wants to deal our deals in another language).

**Seeds.** Deal ``i`` of a run with seed ``S`` has the number :func:`deal_seed` of
(``S``, ``i``); the ``k``-th deal played on its carried pool has that of (``S``, ``i``,
``k``): 62 bits of the SHA-256 of ``"bouillotte:S:i"`` (``":k"`` added after a void
deal). A scenario or a session file given that number as its ``seed`` deals the same
cards.

**Streams.** A number and a use (:data:`SHUFFLE`: the pack's order; :data:`POLICY`: what
a simulated player draws while it plays the deal) name a stream of bytes. Its key is the
32-byte BLAKE2b digest of ``"bouillotte:<use>:<number>"``; its bytes are block 0, block 1,
... each the 64-byte BLAKE2b digest of the key followed by the block's index as 8 bytes,
big-endian. Any byte is found from its place alone, so a play taken up in the middle of a
deal reads on from a place (:attr:`Stream.at`), and a second play of the same deal (a
sweep plays each deal under every rule set) reads the blocks the first one made
(:meth:`Stream.again`).

**Draws.** :meth:`Stream.below` ``n``: nothing is read when ``n`` is 1; otherwise the
fewest bytes ``b`` with ``256**b >= n``, read as one big-endian number ``v``, read again
while ``v`` is at least ``256**b - 256**b % n`` (so that every answer is equally likely),
and the answer is ``v % n``. :meth:`Stream.random`: seven bytes, big-endian, the top 53
bits over ``2**53``. :func:`shuffle`: Fisher-Yates from the last place, place ``i``
swapped with ``below(i + 1)``.

Earlier, the shuffle was CPython's ``random.Random(number).shuffle`` and a player drew
from ``random.Random("<number>:policy")``: the deals of a given seed changed once, on
purpose, when this stream replaced them (CHANGELOG.md).
"""

from __future__ import annotations

import hashlib
from typing import Final

from ..rules.cards import Card

SHUFFLE: Final = "shuffle"
"""The use of the stream that orders a deal's pack (:func:`shuffle`)."""
POLICY: Final = "policy"
"""The use of the stream a simulated player draws from while it plays the deal."""

_BLOCK: Final = 64
"""Bytes in a block (one BLAKE2b-512 digest)."""


def deal_seed(seed: int, i: int, after: int = 0) -> int:
    """The number of deal ``i`` of a run with seed ``seed`` (``after`` > 0: of the
    ``after``-th deal that plays on its carried pool): 62 bits of the SHA-256 of
    ``"bouillotte:seed:i"`` (``":after"`` added), so that no two runs share a deal and a
    deal is fixed by its numbers alone (a run split over several processes deals exactly
    what a run in one does)."""
    text = f"bouillotte:{seed}:{i}" + (f":{after}" if after else "")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


class Stream:
    """The bytes of one (number, use) and the draws made of them (module docstring).

    ``at`` is how many bytes have been read. The key is worked out at the first byte (a
    stream nobody draws from costs nothing but itself); the blocks made so far are kept in
    ``blocks``, which :meth:`again` shares with a new reader of the same stream."""

    __slots__ = ("at", "blocks", "key", "number_", "use")

    def __init__(self, number: int, use: str) -> None:
        self.number_ = number
        self.use = use
        self.key = b""
        self.blocks: list[bytes] = []
        self.at = 0

    def again(self) -> Stream:
        """A reader of the same stream from its first byte, sharing the blocks made."""
        other = Stream(self.number_, self.use)
        other.key = self.key
        other.blocks = self.blocks
        return other

    def byte(self) -> int:
        """The next byte."""
        at = self.at
        index = at // _BLOCK
        blocks = self.blocks
        while index >= len(blocks):
            if not self.key:
                name = f"bouillotte:{self.use}:{self.number_}".encode()
                self.key = hashlib.blake2b(name, digest_size=32).digest()
            made = len(blocks).to_bytes(8, "big")
            blocks.append(hashlib.blake2b(self.key + made, digest_size=_BLOCK).digest())
        self.at = at + 1
        return blocks[index][at % _BLOCK]

    def number(self, size: int) -> int:
        """The next ``size`` bytes as one big-endian number."""
        value = 0
        for _ in range(size):
            value = (value << 8) | self.byte()
        return value

    def below(self, n: int) -> int:
        """A number from 0 to ``n`` - 1, each equally likely (``n`` >= 1)."""
        if n == 1:
            return 0
        size = ((n - 1).bit_length() + 7) // 8
        span = 1 << (8 * size)
        limit = span - span % n
        value = self.number(size)
        while value >= limit:
            value = self.number(size)
        return value % n

    def random(self) -> float:
        """A number from 0 up to (not including) 1, in steps of ``2**-53``."""
        return (self.number(7) >> 3) * (1.0 / 9007199254740992.0)


def shuffle(cards: list[Card], stream: Stream) -> None:
    """``cards`` in the order of ``stream``: Fisher-Yates from the last place, place ``i``
    swapped with place ``stream.below(i + 1)``."""
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
