"""The ids a folder of profiles gives its files: the names of the files that are not
profiles (which no profile may take), and an id that differs from another only in case."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .errors import InputError
from .glossary import GLOSSARY_FILE
from .idtext import folded_id, id_fault
from .readings import READINGS_FILE
from .unread import UNREAD_FILE

BIBLIOGRAPHY_FILE = "sources.yaml"
MEANINGS_FILE = "meanings.yaml"
"""The cited meanings of words through time (``history.py``), beside the profiles."""
RESERVED_NAMES = frozenset(
    Path(name).stem
    for name in (BIBLIOGRAPHY_FILE, MEANINGS_FILE, READINGS_FILE, GLOSSARY_FILE, UNREAD_FILE)
)
"""The names of a folder's files that are not profiles: no profile may be called so."""


def check_case(
    new_id: str, known: Mapping[str, object], what: str, file: Path, line: int | None
) -> None:
    """Refuse an id that differs from a known one only in case (``FOSTER`` beside
    ``foster``): on a disk that ignores case (macOS's, Windows') their pages are one
    file, and BibTeX reads their keys as one."""
    folded = folded_id(new_id)
    other = next((k for k in known if k != new_id and folded_id(k) == folded), None)
    if other is not None:
        raise InputError(
            f"the {what} id {new_id!r} differs from the {what} id {other!r} only in case: "
            "on a disk that ignores case their pages would be one file (and BibTeX reads "
            "their keys as one); give it an id of its own",
            file=file,
            line=line,
        )


def profile_id_fault(text: str) -> str | None:
    """Why ``text`` cannot be a profile's id (its file's name), by the rule every command
    that reads a folder of profiles applies, or ``None``."""
    if text in RESERVED_NAMES:
        return (
            f"'{text}' is the name of a folder's {text}.yaml, which is not a profile; "
            "choose another id"
        )
    return id_fault(text)
