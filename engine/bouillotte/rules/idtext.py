"""The characters an id may hold, and the escaped form of any other in a message.

A profile's id (its file's name), a scenario's id and a player's name are written with
:data:`ID_CHARACTERS` alone. An invisible character (a zero-width space) or a letter of
another script that looks like a Latin one (a Cyrillic ``ѕ`` in ``foѕter``) would make two
ids that read the same; so anything else is refused, and the message shows each such
character as its escape (``\\u0455``) with its Unicode name, never raw.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

REORDERING_MARKS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""The invisible marks that reorder text (Arabic letter mark, left-to-right and
right-to-left marks, embeddings, overrides, isolates), as a character class's inside."""


HIDDEN_MARKS = (
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u2060-\u2065\u3164"
    "\ufeff\uffa0\ufff9-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
)
"""The other characters that show nothing and belong to no word (Unicode's default-ignorable
ones but the variation selectors, the soft hyphen and the zero-width joiner and non-joiner,
which German hyphenation, Persian and Indic words and emoji sequences hold): a zero-width
space, the word joiner, the byte-order mark, fillers, the tag characters (which can carry
hidden text): two titles that read the same may differ by one, as a character class's
inside. The terminal and messages show each as its escape."""


def as_escape(found: re.Match[str]) -> str:
    """The character ``found`` as its escape (``\\u202e``): how a message, a terminal and
    every written format show a character they must not obey."""
    return f"\\u{ord(found.group()):04x}"


ID_CHARACTERS = "the letters a-z and A-Z, the digits 0-9 and '-'"
"""What an id is written with (it begins with a letter or a digit)."""
MAX_ID_LENGTH = 100

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


def listed_once(items: list[str]) -> list[str]:
    """``items`` if none is listed twice, else the :class:`ValueError` pydantic reports at
    the list's line: a scenario's ``variants`` (``[foster, foster]`` made ``check`` play and
    count the run twice), its players, a work's ``cited_in``."""
    for i, item in enumerate(items):
        if item in items[:i]:
            raise ValueError(f"{item!r} is listed twice (items {items.index(item)} and {i})")
    return items


def escaped(text: str) -> str:
    """``text`` with every character outside printable ASCII as its escape (``\\u200b``)."""
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in text)


DEVICE_NAMES = frozenset(
    ["con", "prn", "aux", "nul", *(f"{port}{n}" for port in ("com", "lpt") for n in "123456789")]
)
"""Names Windows keeps for its devices, in any case and with any extension: a page
``con.html`` cannot be made, opened or unpacked there."""


def device_name_fault(text: str) -> str | None:
    """Why ``text`` cannot name a file on every system (``None``: it can)."""
    if text.split(".", 1)[0].lower() in DEVICE_NAMES:
        return (
            f"'{text}' is the name of a device on Windows: its page ({text}.html) could "
            "not be made or opened there; choose another id"
        )
    return None


def folded_id(text: str) -> str:
    """The id as a disk that ignores case sees it (macOS's and Windows' by default), and
    BibTeX, whose keys ignore case: two ids alike here name one page and one key."""
    return text.casefold()


def id_fault(
    text: str, characters: str = ID_CHARACTERS, pattern: re.Pattern[str] = _ID
) -> str | None:
    """Why ``text`` is not an id (``None``: it is one)."""
    if len(text) > MAX_ID_LENGTH:
        return f"an id has at most {MAX_ID_LENGTH} characters, not {len(text):,}"
    if pattern.fullmatch(text):
        return device_name_fault(text)
    odd = next((c for c in text if not c.isascii() or not c.isprintable()), None)
    if odd is not None and "\udc80" <= odd <= "\udcff":  # a byte of a name not in UTF-8
        return (
            f"'{escaped(text)}' is not UTF-8 text (the byte 0x{ord(odd) - 0xDC00:02x} is no "
            f"character): an id is written with {characters} only"
        )
    if odd is not None:
        name = unicodedata.name(odd, "a control character")
        return (
            f"'{escaped(text)}' holds U+{ord(odd):04X} {name}: an id is written with "
            f"{characters} only"
        )
    return (
        f"'{text}' is not an id: an id is written with {characters} only, first a letter or digit"
    )


_YAML_KINDS: dict[type, str] = {
    type(None): "nothing (null)",
    bool: "true or false",
    int: "a number",
    float: "a number",
}
"""What YAML reads an unquoted key as, when it is no text (``null:``, ``yes:``, ``1:``)."""


def key_id_fault(key: object) -> str | None:
    """Why a key of a YAML mapping is not an id (``None``: it is one): :func:`id_fault`
    for text, else what YAML read instead (``null:``, ``1:``, ``true:``)."""
    if isinstance(key, str):
        return id_fault(key)
    kind = _YAML_KINDS.get(type(key), "no text")
    return (
        f"YAML reads {key!r} as {kind}, not as an id: an id is text (quote it), written "
        f"with {ID_CHARACTERS}"
    )


LOWER_ID: Final = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A scenario's or a session's id: lower case (it names pages and files, on disks that
ignore case too), unlike a profile's (:data:`ID_CHARACTERS`)."""
LOWER_ID_CHARACTERS: Final = "the letters a-z in lower case, the digits 0-9 and '-'"


def lower_id_fault(value: str, what: str) -> str | None:
    """Why ``value`` is not ``what`` (a scenario's or a session's id, :data:`LOWER_ID`),
    with the id meant where a capital, a ``_`` or a space is the fault (``Foster-Sight``:
    ``foster-sight``); ``None`` where it is one."""
    if not all(" " <= c <= "~" for c in value):
        return id_fault(value, LOWER_ID_CHARACTERS, LOWER_ID)
    if LOWER_ID.fullmatch(value) or len(value) > MAX_ID_LENGTH:  # too long: the field says so
        return device_name_fault(value)
    meant = re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")
    hint = f" (did you mean {meant!r}?)" if meant and device_name_fault(meant) is None else ""
    return (
        f"{value!r} is not {what}: it is written with {LOWER_ID_CHARACTERS} only, first a "
        f"letter or digit{hint}"
    )
