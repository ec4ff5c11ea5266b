"""The texts we quote, shipped beside the profiles (``variants/texts/``).

Each file is a header of ``Key: value`` lines (continued by indented lines) saying which
work it holds and where it was transcribed from, a line ``---``, then the text: paragraphs
separated by blank lines. A ``documented`` quote must be found in its work's text word for
word, up to whitespace, typographic quotation marks and apostrophes, and ``[...]`` cuts
(:func:`find_quote`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from .errors import InputError

SEPARATOR = "---"
ELISION = "[...]"

_TYPOGRAPHIC = str.maketrans(
    {"’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"', "\u00a0": " ", "…": "..."}
)


def normalise(text: str) -> str:
    """Whitespace collapsed, typographic quotes and apostrophes made plain."""
    return " ".join(text.translate(_TYPOGRAPHIC).split())


@dataclass(frozen=True)
class ShippedText:
    """One shipped text: its header and its paragraphs."""

    file: Path
    header: dict[str, str]
    paragraphs: tuple[str, ...]

    @property
    def work(self) -> str:
        return self.header.get("Work", self.file.stem)

    def find(self, quote: str) -> int | None:
        """The index of the paragraph where ``quote`` begins, or ``None`` if the quote (every
        piece between ``[...]`` cuts, in order) is not in this text."""
        return find_quote(self.paragraphs, quote)


def _pieces(quote: str) -> list[str]:
    return [p for p in (normalise(piece) for piece in quote.split(ELISION)) if p]


@lru_cache(maxsize=64)
def _joined(paragraphs: tuple[str, ...]) -> tuple[str, tuple[int, ...]]:
    """The paragraphs normalised and joined by spaces, with where each starts (once per
    text: every quote of a work is looked up in the same text, so the starts are a tuple
    that no caller can change)."""
    normalised = [normalise(p) for p in paragraphs]
    starts, offset = [], 0
    for paragraph in normalised:
        starts.append(offset)
        offset += len(paragraph) + 1
    return " ".join(normalised), tuple(starts)


def find_quote(paragraphs: tuple[str, ...], quote: str) -> int | None:
    """Where ``quote`` stands in ``paragraphs``: the index of the paragraph holding its first
    piece. The pieces between ``[...]`` cuts must come in order; a quote may run across
    paragraphs."""
    pieces = _pieces(quote)
    if not pieces:
        return None
    whole, starts = _joined(paragraphs)
    # The first place of the first piece is the only one to try: the later pieces are
    # looked for in order after it, and a later start could only push them further on.
    # (Trying every place was quadratic: a common first piece and a missing last one.)
    position = whole.find(pieces[0])
    if position < 0:
        return None
    cursor = position + len(pieces[0])
    for piece in pieces[1:]:
        found = whole.find(piece, cursor)
        if found < 0:
            return None
        cursor = found + len(piece)
    return bisect.bisect_right(starts, position) - 1


def read_text(file: Path) -> ShippedText:
    """Read a shipped text; a file without its header is bad input."""
    raw = file.read_text(encoding="utf-8")
    head, sep, body = raw.partition(f"\n{SEPARATOR}\n")
    if not sep:
        raise InputError(
            f"a shipped text starts with 'Key: value' lines and a line '{SEPARATOR}'", file=file
        )
    header: dict[str, str] = {}
    key = None
    for line in head.splitlines():
        if line[:1].isspace() and key:
            header[key] += " " + line.strip()
        elif ":" in line:
            key, _, value = line.partition(":")
            key = key.strip()
            header[key] = value.strip()
    paragraphs = tuple(
        " ".join(block.split()) for block in re.split(r"\n\s*\n", body) if block.strip()
    )
    return ShippedText(file, header, paragraphs)


@cache
def load_text(file: Path) -> ShippedText:
    return read_text(file)


ATTRIBUTIONS: dict[str, str] = {
    "foster": "foster",
    "teaching card": "pagat-card",
    "britannica": "britannica-1911",
    "pagat.com": "pagat",
    "cardrulesplus": "cardrulesplus",
    "encyclopédie": "encyclopedie-1752",
}
"""How a quotation in a scenario's notes names its work, in a closing parenthesis."""


def notes_quotes(notes: str, default_work: str) -> list[tuple[str, str]]:
    """The Markdown block quotations of a scenario's notes, as ``(work id, words)``.

    A quotation closing with a parenthesis that names a work (``(Foster)``, ``(teaching
    card)``, ``(pagat.com, …)``) is that work's, without the parenthesis; any other is the
    scenario's own source's."""
    blocks, current = [], []
    for line in [*notes.splitlines(), ""]:
        if line.startswith(">"):
            current.append(line[1:].strip())
        elif current:
            blocks.append(" ".join(current))
            current = []
    found = []
    for quote in blocks:
        work, words = default_work, quote
        closing = re.search(r"\s*\(([^()]*)\)\s*$", quote)
        if closing:
            named = [w for key, w in ATTRIBUTIONS.items() if key in closing[1].lower()]
            if named:
                work, words = named[0], quote[: closing.start()]
        found.append((work, words))
    return found


def paragraph_anchor(index: int) -> str:
    """The HTML id of paragraph ``index`` (0-based) on a text's page: ``p1``, ``p2``…"""
    return f"p{index + 1}"
