"""Merging the entries of the bundled data files with a user's folder's, by id."""

from __future__ import annotations

from typing import Protocol, TypeVar


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Entry = TypeVar("Entry", bound=_HasId)


def merge_by_id(lists: list[list[Entry]]) -> list[Entry]:
    """The entries of several files, the first file's order first: a later file adds its
    new entries and replaces (in place) an entry of the same id (the glossary's terms, the
    works known but not yet read)."""
    merged: dict[str, Entry] = {}
    for entries in lists:
        for entry in entries:
            merged[entry.id] = entry
    return list(merged.values())
