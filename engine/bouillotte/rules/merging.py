"""Merging the entries of the bundled data files with a user's folder's, by id."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, TypeVar


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Entry = TypeVar("Entry", bound=_HasId)


def merge_by_id(lists: list[tuple[Path, list[Entry]]], what: str, notes: list[str]) -> list[Entry]:
    """The entries of several files (each with its file), the first file's order first: a
    later file adds its new entries and replaces (in place) an entry of the same id (the
    glossary's terms, the works known but not yet read). Each replacement is a note added
    to ``notes`` (``what``: the kind of entry), as a profile's ``replaces: true`` is."""
    merged: dict[str, Entry] = {}
    where: dict[str, Path] = {}
    for file, entries in lists:
        for entry in entries:
            if entry.id in merged and where[entry.id] != file:
                notes.append(
                    f"note: the {what} {entry.id!r} of {file} replaces the one of {where[entry.id]}"
                )
            merged[entry.id] = entry
            where[entry.id] = file
    return list(merged.values())
