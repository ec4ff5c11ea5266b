"""Quotes mean quotes, for every profile: a quote given as a source's own words must stand,
word for word, in the text of that work shipped beside the profiles.

Every command that reads profiles checks them as it reads them (``profiles.py``), with
the matcher of ``texts.py`` (whitespace, typographic quotation marks and ``[...]`` cuts
aside) that the test suite uses for the bundled library (``tests/test_quotes.py``). When
a quote is not found, the message names the closest passage of the text and its
paragraph (as the site numbers them, ``p14``), so the slip can be seen at once; when the
work ships no readable text, it says what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .citations import Citation, Status
from .errors import InputError
from .texts import ShippedText, load_text, normalise, paragraph_anchor

CHECKED_STATUSES = frozenset({Status.DOCUMENTED, Status.AGREEMENT})
"""The statuses whose ``quote`` is the source's own words (a ``paraphrased`` quote is our
rendering, and an ``inferred`` or ``reconstructed`` one is evidence we read)."""

PASSAGE_WORDS = 40
"""The longest closest passage a message shows, in words."""

COMPARED_WORDS = 2 * PASSAGE_WORDS
"""The most words of a quote compared with a passage (a quote of a megabyte is compared by
its beginning: the passage shown is at most :data:`PASSAGE_WORDS` long anyway)."""

ALL_WINDOWS = 200
"""A paragraph of at most this many windows has every one compared (nearly every bundled
one: a comparison costs up to some milliseconds)."""

CANDIDATES = 50
"""In a longer paragraph, how many windows are compared (those sharing the most words)."""

WHAT_TO_DO = "ship the text (a 'file:' in sources.yaml) or mark the rule 'status: paraphrased'"


def checked(citation: Citation | None) -> bool:
    """Whether this citation's quote must be found in its work's text."""
    return (
        citation is not None
        and citation.quote is not None
        and citation.source is not None
        and citation.status in CHECKED_STATUSES
    )


def closest_passage(text: ShippedText, quote: str) -> tuple[int, str]:
    """The paragraph (0-based) and the run of its words most like ``quote``: the paragraph
    sharing the most words with it, then the window of as many words that
    :class:`difflib.SequenceMatcher` finds nearest.

    Bounded whatever the sizes (issue 47): the quote is compared by its first
    :data:`COMPARED_WORDS` words, and in a paragraph of more than :data:`ALL_WINDOWS`
    windows only the :data:`CANDIDATES` sharing the most words with the quote (counted in
    one pass) are compared."""
    import difflib  # only when a quote is not found

    wanted = normalise(quote.replace("[...]", " ")).split()
    if not text.paragraphs:
        return 0, ""
    vocabulary = set(w.lower() for w in wanted)

    def overlap(i: int) -> tuple[int, int]:
        words = normalise(text.paragraphs[i]).lower().split()
        return sum(w in vocabulary for w in words), -i

    best = max(range(len(text.paragraphs)), key=overlap)
    words = normalise(text.paragraphs[best]).split()
    size = max(1, min(len(wanted), PASSAGE_WORDS))
    target = " ".join(wanted[:COMPARED_WORDS])
    windows: Sequence[int] = range(max(1, len(words) - size + 1))
    if len(windows) > ALL_WINDOWS:
        windows = _likeliest_windows(words, vocabulary, size)
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(target)
    start, score = 0, -1.0
    for i in windows:
        matcher.set_seq1(" ".join(words[i : i + size]))
        ratio = matcher.ratio()
        if ratio > score:
            start, score = i, ratio
    return best, " ".join(words[start : start + size])


def _likeliest_windows(words: list[str], vocabulary: set[str], size: int) -> list[int]:
    """The starts of the :data:`CANDIDATES` windows of ``size`` words holding the most words
    of ``vocabulary`` (the earliest first among equals), in order: one pass over ``words``."""
    import heapq

    hits = [w.lower() in vocabulary for w in words]
    count = sum(hits[:size])
    counts = [count]
    for i in range(1, len(words) - size + 1):
        count += hits[i + size - 1] - hits[i - 1]
        counts.append(count)
    chosen = heapq.nlargest(CANDIDATES, range(len(counts)), key=lambda i: (counts[i], -i))
    return sorted(chosen)


@dataclass
class QuoteChecker:
    """Finds quotes in the texts of a bibliography, reading each text once."""

    texts: dict[str, Path | None]
    """Each work id with the path of its shipped text (``None`` when it names none)."""
    _read: dict[Path, ShippedText | str] = field(default_factory=dict)

    def _text(self, work_id: str) -> ShippedText | str:
        """The work's text, or a message saying why there is none to check against."""
        file = self.texts.get(work_id)
        if file is None:
            return f"the work {work_id!r} ships no text to check this quote against: {WHAT_TO_DO}"
        if file not in self._read:
            self._read[file] = self._load(work_id, file)
        return self._read[file]

    @staticmethod
    def _load(work_id: str, file: Path) -> ShippedText | str:
        if not file.is_file():
            return f"the text of the work {work_id!r} is missing ({file}): {WHAT_TO_DO}"
        try:
            return load_text(file)
        except UnicodeDecodeError:
            return f"the text of the work {work_id!r} ({file}) is not UTF-8: save it as UTF-8"
        except OSError as exc:
            return f"the text of the work {work_id!r} ({file}) cannot be read ({exc.strerror})"
        except InputError as exc:
            where = "" if exc.line is None else f" line {exc.line}:"
            return (
                f"the text of the work {work_id!r} ({file}) is not a shipped text:{where} "
                + InputError(
                    exc.message, field=exc.field, value=exc.value, has_value=exc.has_value
                ).describe()
            )

    def texts_read(self) -> list[Path]:
        """The text files the checks have read (or tried to), in the order read."""
        return list(self._read)

    def fault(self, work_id: str, quote: str) -> str | None:
        """``None`` when ``quote`` stands in the text of ``work_id``; else what is wrong."""
        if not any(c.isalnum() for c in quote):
            return f"the quote {quote!r} holds no word: quote the source's own words"
        text = self._text(work_id)
        if isinstance(text, str):
            return text
        if text.find(quote) is not None:
            return None
        paragraph, passage = closest_passage(text, quote)
        return (
            f"not found word for word in the text of {work_id!r} ({text.file.name}); "
            f'the closest passage, paragraph {paragraph_anchor(paragraph)[1:]}: "{passage}"'
        )
