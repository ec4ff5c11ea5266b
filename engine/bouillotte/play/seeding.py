"""Seeded generators, made for less: the very ``random.Random(seed)`` a deal shuffles with
and a simulated policy draws from, the same state word for word.

``random.Random(seed)`` runs two Python functions of ``random.py`` before the generator's
own seeding in C (``__init__``, then ``seed``, which checks the seed's type and hashes a
string). A simulated deal seeds one generator for its shuffle, and one more for a policy
that draws (``random``, the table players): both are made here with the C seeding called
directly, on a string's bytes hashed as ``random.py`` hashes them (version 2: the bytes
followed by their SHA-512, read as one big-endian integer). tests/test_seeding.py checks
every draw against ``random.Random``'s.
"""

from __future__ import annotations

import _random
import random
from hashlib import sha512
from typing import Final

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


def seeded_by_text(text: str) -> random.Random:
    """``random.Random(text)``: seeded from the text's bytes and their SHA-512."""
    data = text.encode()
    return seeded(int.from_bytes(data + sha512(data).digest(), "big"))
