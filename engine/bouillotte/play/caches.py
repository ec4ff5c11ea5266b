"""The engine's small caches: plain dicts, bounded by forgetting everything at once.

A value made once per table, pack or record (a table's seating, a pack's order, a shared
event) is kept in a module's dict and looked up with ``.get``: compiled, that is a C call,
where ``functools.lru_cache`` is a Python call at every deal. When a cache holds its most,
it is emptied and filled again (what is kept is immutable and made again the same, so
forgetting it changes nothing but the time).
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, most: int) -> V:
    """Keep ``value`` under ``key`` (emptying ``cache`` first if it holds ``most``) and
    return it: ``found = cache.get(key)`` then ``found if found is not None else keep(...)``
    is the whole of a cached lookup."""
    if len(cache) >= most:
        cache.clear()
    cache[key] = value
    return value
