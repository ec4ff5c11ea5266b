"""The texts we quote, shipped beside the profiles (``variants/texts/``).

Each file is a header of ``Key: value`` lines (continued by indented lines) saying which
work it holds and where it was transcribed from, a line ``---``, then the text: paragraphs
separated by blank lines. A ``documented`` quote must be found in its work's text word for
word, up to whitespace, typographic quotation marks and apostrophes, and ``[...]`` cuts
(:func:`find_quote`).
"""

from __future__ import annotations

import bisect
import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .citations import language_fault
from .errors import InputError
from .writing import note_input

SEPARATOR = "---"
ELISION = "[...]"
TEXT_LIMIT = 16 * 2**20
"""The largest shipped text read, in bytes (the bundled ones are under 2 KB each): its
page, its search index and every quote check hold it whole."""

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
    first = _whole_words(pieces[0]).search(whole)
    if first is None:
        return None
    cursor = first.end()
    for piece in pieces[1:]:
        found = _whole_words(piece).search(whole, cursor)
        if found is None:
            return None
        cursor = found.end()
    return bisect.bisect_right(starts, first.start()) - 1


def _whole_words(piece: str) -> re.Pattern[str]:
    """``piece`` where it stands as whole words: a piece that begins (or ends) with a letter
    or digit must not begin (or end) inside a word of the text. "ealer puts u" is not a
    quote of "the dealer puts up"."""
    before = r"(?<!\w)" if piece[0].isalnum() else ""
    after = r"(?!\w)" if piece[-1].isalnum() else ""
    return re.compile(before + re.escape(piece) + after)


def text_fault(file: Path, folder: Path) -> str | None:
    """Why the shipped text ``file`` of a bibliography in ``folder`` may not be read, or
    ``None``. A missing file is ``None`` here (said where a quote or a page needs it). A
    link may lead to another file of the folder, never out of it: the site would publish
    whatever it reaches. A named pipe would block the reader; a text over
    :data:`TEXT_LIMIT` bytes would fill the memory and the pages."""
    try:
        os.lstat(file)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    try:
        target = file.resolve(strict=True)
        info = target.stat()
    except RuntimeError:
        return "is a link that leads round in a loop"
    except FileNotFoundError:
        return "is a link that leads to no file"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not target.is_relative_to(folder.resolve()):
        return (
            f"is a link that leads out of the folder of its bibliography ({folder}), to "
            f"{target}: refusing to read what it reaches; put the text itself in that folder"
        )
    if not stat.S_ISREG(info.st_mode):
        kind = "a named pipe" if stat.S_ISFIFO(info.st_mode) else "not a file"
        return f"is {kind}: a text is a regular file"
    if info.st_size > TEXT_LIMIT:
        return f"holds {info.st_size:,} bytes; a shipped text may hold at most {TEXT_LIMIT:,}"
    return None


def read_text(file: Path) -> ShippedText:
    """Read a shipped text; a file without its header is bad input."""
    note_input(file.stat())
    raw = file.read_text(encoding="utf-8")
    head, sep, body = raw.partition(f"\n{SEPARATOR}\n")
    if not sep:
        raise InputError(
            f"a shipped text starts with 'Key: value' lines and a line '{SEPARATOR}'", file=file
        )
    header = _header(file, head)
    paragraphs = tuple(
        " ".join(block.split()) for block in re.split(r"\n\s*\n", body) if block.strip()
    )
    return ShippedText(file, header, paragraphs)


def _header(file: Path, head: str) -> dict[str, str]:
    """The header's ``Key: value`` lines (a line indented continues the one before): each
    key once; ``Text language`` a language tag, as a work's ``language`` is (it becomes
    the text page's ``lang``), a note after it at most."""
    header: dict[str, str] = {}
    lines: dict[str, int] = {}  # where each key is given
    key = None
    for number, line in enumerate(head.splitlines(), start=1):
        if line[:1].isspace() and key:
            header[key] += " " + line.strip()
        elif ":" in line:
            key, _, value = line.partition(":")
            key = key.strip()
            if key in header:
                raise InputError(f"the header gives {key!r} twice", file=file, line=number)
            header[key], lines[key] = value.strip(), number
        elif line.strip():
            raise InputError(
                "a header line is 'Key: value' (or, indented, continues the one before)",
                file=file,
                line=number,
                value=line,
                has_value=True,
            )
    language = header.get("Text language")  # a tag, then a note: "fr (paragraph 1 is English)"
    tag = (language.split() or [""])[0] if language is not None else ""
    fault = language_fault(tag) if language is not None else None
    if fault is not None:
        raise InputError(
            f"Text language: {fault} (a note may follow it)",
            file=file,
            line=lines["Text language"],
        )
    return header


def load_text(file: Path) -> ShippedText:
    """:func:`read_text`, read again only when the file has changed (its identity, size
    or time of change): ``site serve --watch`` rebuilds from the text as it is now."""
    try:
        info = file.stat()
    except OSError:
        return read_text(file)  # which says what is wrong
    note_input(info)
    return _read_text_as_of(file, info.st_ino, info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=256)
def _read_text_as_of(file: Path, inode: int, size: int, changed: int) -> ShippedText:
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
