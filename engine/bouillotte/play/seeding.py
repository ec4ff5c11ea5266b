"""Seeded generators, made for less: the very ``random.Random(seed)`` a deal shuffles with
and a simulated policy draws from, the same state word for word.

``random.Random(seed)`` runs two Python functions of ``random.py`` before the generator's
own seeding in C (``__init__``, then ``seed``, which checks the seed's type and hashes a
string). A simulated deal seeds one generator for its shuffle, and one more for a policy
that draws (``random``, the table players): both are made here with the C seeding called
directly, on a string's bytes hashed as ``random.py`` hashes them (version 2: the bytes
followed by their SHA-512, read as one big-endian integer). The shuffle's generator is
not even made anew, nor a simulated deal's policy's: each thread keeps one for each and
seeds it again (:func:`reseeded`).
tests/test_seeding.py checks every draw against ``random.Random``'s.
"""

from __future__ import annotations

import _random
import random
from hashlib import sha512
from threading import get_ident
from typing import Final

from .caches import cache, keep

_C_SEED: Final = _random.Random.seed
"""The generator's own seeding (``_random.Random.seed``), in C."""

_NEW: Final = random.Random.__new__
"""A generator not yet seeded (``random.Random.__init__`` is what seeds it)."""


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an integer seed."""
    rng = _NEW(random.Random)
    _C_SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # as random.py leaves it, for gauss()
    return rng


SHUFFLE: Final = 0
"""The thread's own generator that shuffles (:func:`reseeded`)."""
POLICY: Final = 1
"""The thread's own generator that a simulated policy draws from (:func:`reseeded`)."""


def reseeded(seed: int, use: int = SHUFFLE) -> random.Random:
    """``random.Random(seed)``'s very state, in this thread's own generator for ``use``
    (:data:`SHUFFLE` or :data:`POLICY`) seeded again.

    Making a generator zeroes its whole state and frees it after, which seeding it again
    does not (docs/speed.md gives the cost). The C seeding sets every word of the state
    and its position, so a generator seeded again draws exactly what a new one would. Only
    for a caller that is done with the generator before it asks for the next of the same
    use in the same thread (that call seeds it again): the shuffle, which draws all it
    needs at once, and a simulated deal's policy, which draws only while the deal is
    played. Each thread has its own (a Dask worker runs tasks in threads)."""
    own = _OWN[use]
    thread = get_ident()
    rng = own.get(thread)
    if rng is None:
        rng = keep(own, thread, _NEW(random.Random), _OWN_MOST)
    _C_SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


_OWN: Final[tuple[dict[int, random.Random], dict[int, random.Random]]] = (
    cache("seeding.shuffle"),
    cache("seeding.policy"),
)
"""Each thread's generators for :func:`reseeded`, one dict for each use, by thread id."""
_OWN_MOST: Final = 64
"""Then all forgotten (a thread's id may be taken again by a later thread: no harm, it is
seeded again at every call)."""


def seeded_by_text(text: str) -> random.Random:
    """``random.Random(text)``: seeded from the text's bytes and their SHA-512."""
    return seeded(text_seed(text))


def reseeded_by_text(text: str, use: int) -> random.Random:
    """:func:`seeded_by_text` in this thread's own generator for ``use`` (:func:`reseeded`)."""
    return reseeded(text_seed(text), use)


def text_seed(text: str) -> int:
    """The integer ``random.Random(text)`` is seeded with (``random.py``'s version 2)."""
    data = text.encode()
    return int.from_bytes(data + sha512(data).digest(), "big")
