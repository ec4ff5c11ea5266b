"""Every cache the engine keeps for the life of the process, in one list, with one way to
empty them all (:func:`clear`).

A value made once per table, pack or record (a table's seating, a pack's order, a shared
event) is kept in a plain dict made by :func:`cache`, which names it and lists it here, and
is looked up with ``.get``: compiled, that is a C call, where ``functools.lru_cache`` is a
Python call. No compiled module uses functools' caches, which would escape this list (ruff's
``TID251``, configured in ``pyproject.toml``). When a cache holds its most, it is emptied and
filled again (:func:`keep`): what is kept is immutable and made again the same, so
forgetting it changes nothing but the time, and :func:`clear` changes no result either.

The caches, each named where it is made: ``deal.tables`` (each table's seating),
``dealing.pack_orders`` and ``dealing.pack_sets`` (each pack), ``dealing.layouts`` (where
each seat's cards lie in the pack), ``dealing.shuffled`` (the last shuffles: a sweep deals
the same pack under every row), ``events.records`` (the shared frozen records,
:func:`~bouillotte.play.events.once`), ``hands.cards`` (the mistigri card),
``policies.said`` (a player's word without an amount, in ``study/policy_actions.py``) and
``sweep.shared`` (in a sweep's worker, the variants every seed range shares,
``study/sweep.py``). :func:`names` lists them as they are made.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_ALL: Final[dict[str, dict[Any, Any]]] = {}
"""Every cache made by :func:`cache`, by name."""


def cache(name: str) -> dict[Any, Any]:
    """A new empty cache, listed under ``name`` (``module.what``) so that :func:`clear`
    empties it. Declare its type where it is kept:
    ``_LAYOUTS: Final[dict[Key, Layout]] = cache("dealing.layouts")``."""
    if name in _ALL:
        raise ValueError(f"a cache named {name!r} is made already")
    made: dict[Any, Any] = {}
    _ALL[name] = made
    return made


def keep(cache: dict[K, V], key: K, value: V, most: int) -> V:
    """Keep ``value`` under ``key`` (emptying ``cache`` first if it holds ``most``) and
    return it: ``found = cache.get(key)`` then ``found if found is not None else keep(...)``
    is the whole of a cached lookup."""
    if len(cache) >= most:
        cache.clear()
    cache[key] = value
    return value


def clear() -> None:
    """Empty every cache of the engine (results stay the same; only time is lost)."""
    for kept in _ALL.values():
        kept.clear()


def names() -> list[str]:
    """The name of every cache made so far (a module's are made when it is imported)."""
    return sorted(_ALL)
