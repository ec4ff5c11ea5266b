"""The history of the rules: every source on a time axis, and for each rule the sources
that state it, oldest first; and how the word *favori* changed meaning.

A source *states* a rule when a profile cites it for that rule with a stated status
(documented, agreement or paraphrased). Inferred and inherited values are not statements
of their source, so they never date a rule. The meanings of a word are cited data in
``variants/meanings.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from .bibliography import LANGUAGE_NAMES, years
from .citations import STATED_STATUSES, Work
from .nearest import did_you_mean
from .profile import rule_paths
from .profiles import Library
from .readings import rule_value
from .yamlmodels import validated
from .yamlsource import read_mapping


@dataclass(frozen=True)
class Source:
    """One work on the time axis."""

    id: str
    work: Work
    start: int | None
    """The first year of the edition used (``None``: undated, a modern work)."""
    end: int | None

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (self.start if self.start is not None else 9999, self.end or 0, self.id)

    def to_json(self) -> dict[str, Any]:
        w = self.work
        return {
            "id": self.id,
            "date": w.year,
            "start": self.start,
            "end": self.end,
            "language": w.language,
            "language_name": LANGUAGE_NAMES.get(w.language, w.language),
            "place": w.place,
            "kind": w.kind,
            "author": w.author,
            "title": w.title,
        }


@dataclass(frozen=True)
class Statement:
    """A source stating a rule: the value it gives, and where (the profile that cites it)."""

    rule: str
    source: Source
    variant: str
    """The profile whose citation this is (its page holds the citation)."""
    value: Any
    status: str
    locator: str | None
    quote: str | None
    translation: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "work": self.source.id,
            "date": self.source.work.year,
            "start": self.source.start,
            "variant": self.variant,
            "value": _plain(self.value),
            "status": self.status,
            "locator": self.locator,
            "quote": self.quote,
            "translation": self.translation,
        }


class Meaning(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    locator: str
    quote: str
    translation: str | None = None
    value: StrictStr | StrictBool | StrictInt | None
    """The rule value that says this meaning (a word of a choice, or ``true``/``false`` or a
    number for a rule that takes one), or none where the schema cannot say it."""
    meaning: str


class Word(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    word: str
    rule: str
    meanings: list[Meaning]


class Words(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    words: list[Word]


@dataclass(frozen=True)
class History:
    sources: list[Source]
    """Every work of the bibliography, oldest first (undated works last)."""
    rules: dict[str, list[Statement]]
    """For each rule stated by at least one source, the statements, oldest first."""
    words: list[Word]

    def source(self, work_id: str) -> Source:
        return next(s for s in self.sources if s.id == work_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "sources": [s.to_json() for s in self.sources],
            "rules": {path: [s.to_json() for s in found] for path, found in self.rules.items()},
            "words": [
                {
                    "word": w.word,
                    "rule": w.rule,
                    "meanings": [
                        {**m.model_dump(), "date": self.source(m.source).work.year}
                        for m in w.meanings
                    ],
                }
                for w in self.words
            ],
        }


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def load_words(library: Library) -> list[Word]:
    """The cited meanings of words (``meanings.yaml`` beside the profiles, the bundled one
    first), each checked against the bibliography and the rule it names."""
    words: list[Word] = []
    given: dict[str, Path] = {}
    for file in library.meanings_files:
        words.extend(_load_words_file(library, file, given))
    return words


def _load_words_file(library: Library, path: Path, given: dict[str, Path]) -> list[Word]:
    """The words of one ``meanings.yaml``; ``given``: each word already given (its
    case-folded form), with its file. A word is given once: its meanings are one timeline
    and one anchor of the History page (two would make two sections of one id)."""
    doc = read_mapping(path, "words: a list of {word, rule, meanings}")
    words = validated(Words, doc).words
    for i, word in enumerate(words):
        key = " ".join(word.word.casefold().split())
        if key in given:
            raise doc.fault(
                ("words", i, "word"),
                f"the word is already given in {given[key]}: give each word once, with all "
                "its meanings",
                word.word,
            )
        given[key] = path
        if word.rule not in rule_paths():
            raise doc.fault(
                ("words", i, "rule"),
                f"unknown rule{did_you_mean(word.rule, rule_paths())}",
                word.rule,
            )
        for j, meaning in enumerate(word.meanings):
            where = ("words", i, "meanings", j)
            if meaning.source not in library.works:
                raise doc.fault(
                    (*where, "source"),
                    f"not a work of the bibliography{did_you_mean(meaning.source, library.works)}",
                    None,
                )
            if meaning.value is not None:
                try:
                    rule_value(word.rule, meaning.value, strict=True)  # yes is no number
                except ValueError:
                    raise doc.fault(
                        (*where, "value"), f"not a value of {word.rule}", meaning.value
                    ) from None
    return words


def build_history(library: Library) -> History:
    sources = sorted(
        (Source(work_id, work, *years(work)) for work_id, work in library.works.items()),
        key=lambda s: s.sort_key,
    )
    by_id = {s.id: s for s in sources}
    rules: dict[str, list[Statement]] = {}
    for path in rule_paths():
        seen: set[tuple[str, str]] = set()
        found = []
        for variant in library.all():
            info = variant.info[path]
            citation = info.citation
            if info.defined_in != variant.id or citation is None or citation.source is None:
                continue  # an inherited value is stated (if at all) by the profile it is from
            if citation.status not in STATED_STATUSES or citation.source not in by_id:
                continue
            key = (citation.source, repr(_plain(info.value)))
            if key in seen:
                continue
            seen.add(key)
            found.append(
                Statement(
                    path,
                    by_id[citation.source],
                    variant.id,
                    info.value,
                    citation.status.value,
                    citation.locator,
                    citation.quote,
                    citation.translation,
                )
            )
        if found:
            rules[path] = sorted(found, key=lambda s: (s.source.sort_key, s.variant))
    return History(sources, rules, load_words(library))
