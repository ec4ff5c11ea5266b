"""The information states of a walked tree, numbered as the walk meets them (the whole
walk's, ``solve.py``, and the merged one's, ``merge.py``)."""

from __future__ import annotations

from typing import Any

from .abstraction import AbstractionError


class InfoStates:
    """Information states numbered as a walk meets them, each with its legal actions and
    its first slot (a slot is an information state's action: its number in the
    strategy's arrays)."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.actions: list[list[int]] = []
        self.first: list[int] = []
        self.slots = 0

    def first_slot(self, key: str, legal: list[int]) -> int:
        """The first slot of the information state ``key`` (numbered now if new); one met
        again must offer the same actions."""
        info = self.index.get(key)
        if info is None:
            info = self.index[key] = len(self.keys)
            self.keys.append(key)
            self.actions.append(legal)
            self.first.append(self.slots)
            self.slots += len(legal)
        elif self.actions[info] != legal:
            raise AbstractionError(f"the information state {key!r} has two lists of actions")
        return self.first[info]

    def info_of_slot(self) -> Any:
        """Each slot's information state, as an array."""
        import numpy as np

        owner = np.zeros(self.slots, dtype=np.int64)
        for info, (start, acts) in enumerate(zip(self.first, self.actions, strict=True)):
            owner[start : start + len(acts)] = info
        return owner
