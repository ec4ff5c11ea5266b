"""Quotes mean quotes: every quote shown as a source's words is in the shipped text of that
source, word for word (up to whitespace, typographic quotation marks and ``[...]`` cuts).

The texts ship with the project (``variants/texts/``), so nothing here is ever skipped. The
check is the one every command makes as it reads a profile
(:meth:`bouillotte.rules.quotecheck.QuoteChecker.fault`); here it also covers the quotes
the commands do not read as cited words (scenario notes, meanings, paraphrases that
quote a rendering we ship).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bouillotte.rules.citations import Status
from bouillotte.rules.errors import InputError
from bouillotte.rules.history import load_words
from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library
from bouillotte.rules.texts import find_quote, normalise, notes_quotes, read_text
from bouillotte.study.scenario import load_scenario

from .conftest import ROOT

VARIANTS = ROOT / "variants"
SCENARIOS = ROOT / "scenarios"

CHECKED = (Status.DOCUMENTED, Status.AGREEMENT)
"""Statuses whose quote is the source's own words."""


@dataclass(frozen=True)
class Quote:
    where: str
    work: str
    text: str


def _profile_quotes(library: Library) -> list[Quote]:
    found = []
    for variant in library.all():
        for path in rule_paths():
            info = variant.info[path]
            citation = info.citation
            if info.defined_in != variant.id or citation is None or citation.quote is None:
                continue  # an inherited rule is checked in the profile that states it
            # A paraphrase that carries a translation quotes a rendering we ship (pagat.com's
            # French machine translation): those words must be in it too.
            if citation.status in CHECKED or citation.translation:
                assert citation.source is not None
                found.append(Quote(f"{variant.id} {path}", citation.source, citation.quote))
    return found


def _glossary_quotes(library: Library) -> list[Quote]:
    """The words of ``variants/glossary.yaml``, each in a sentence of its source (a
    paraphrased term quotes the rendering we ship)."""
    return [Quote(f"glossary {t.id}", t.source, t.quote) for t in library.glossary]


def _scenario_quotes() -> list[Quote]:
    found = []
    for file in sorted(SCENARIOS.glob("*.yaml")):
        model = load_scenario(file).model
        for n, (work, words) in enumerate(notes_quotes(model.notes, model.source.work), 1):
            found.append(Quote(f"{file.name} quote {n}", work, words))
    return found


def _readings_quotes(library: Library) -> list[Quote]:
    """The ambiguous sentences of ``variants/readings.yaml``, each a source's own words."""
    return [Quote(f"readings {r.id}", r.source, r.quote) for r in library.readings.values()]


def _meanings_quotes(library: Library) -> list[Quote]:
    """The meanings of words through time (``variants/meanings.yaml``), each in its source's
    own words."""
    return [
        Quote(f"meanings {word.word} {m.source}", m.source, m.quote)
        for word in load_words(library)
        for m in word.meanings
    ]


LIBRARY = Library()
QUOTES = (
    _profile_quotes(LIBRARY)
    + _glossary_quotes(LIBRARY)
    + _scenario_quotes()
    + _readings_quotes(LIBRARY)
    + _meanings_quotes(LIBRARY)
)


@pytest.mark.parametrize("quote", QUOTES, ids=[q.where for q in QUOTES])
def test_quote_stands_in_the_shipped_text(quote: Quote) -> None:
    fault = LIBRARY.quotes.fault(quote.work, quote.text)
    assert fault is None, f"{quote.where}: {fault}: {quote.text!r}"


def test_the_checks_cover_every_kind_of_quote() -> None:
    wheres = [q.where for q in QUOTES]
    assert sum(w.startswith("glossary ") for w in wheres) == len(LIBRARY.glossary) >= 20
    assert sum(w.startswith("meanings ") for w in wheres) >= 6
    assert any(".yaml quote" in w for w in wheres)
    assert len(QUOTES) > 150


def test_every_shipped_text_says_where_it_comes_from() -> None:
    shipped = 0
    for work_id, work in LIBRARY.works.items():
        if work.file is None:
            assert work.notes and "no text of it is shipped" in work.notes, work_id
            continue
        assert work.file.startswith("texts/"), work_id
        text = LIBRARY.text(work_id)
        assert text is not None and text.work == work_id, work_id
        assert text.header.get("Transcribed from"), f"{work_id}: say where it comes from"
        assert text.paragraphs, work_id
        shipped += 1
    assert shipped >= 8


EVIDENCE = {
    "Encyclopédie": "encyclopedie-1752",
    "Académie": "academie-1740",
    "German Wikipedia": "wikipedia-de",
    "English Wikipedia": "wikipedia-en",
    "Britannica": "britannica-1911",
    "CardRulesPlus": "cardrulesplus",
    "pagat.com": "pagat",
    "teaching card": "pagat-card",
    "Foster": "foster",
    "Trévoux": "trevoux-1771",
    "Littré": "littre-1873",
    "Pierer": "pierer-1857",
}
"""Names under which the profiles and scenarios cite a work as evidence in their prose."""


def test_every_work_named_as_evidence_is_in_the_bibliography() -> None:
    prose = []
    for file in [*sorted(VARIANTS.glob("*.yaml")), *sorted(SCENARIOS.glob("*.yaml"))]:
        if file.name != "sources.yaml":
            prose.append(file.read_text(encoding="utf-8"))
    named = {work for name, work in EVIDENCE.items() if any(name in text for text in prose)}
    assert {"encyclopedie-1752", "foster", "pagat", "pagat-card", "pierer-1857"} <= named
    for work in named:
        assert work in LIBRARY.works, work
        assert LIBRARY.works[work].year and LIBRARY.works[work].language, work


def test_every_source_named_anywhere_is_in_the_bibliography() -> None:
    works = set(LIBRARY.works)
    for variant in LIBRARY.all():
        assert variant.source in works
        for path in rule_paths():
            citation = variant.citation(path)
            assert citation is None or citation.source in (None, *works), (variant.id, path)
    for file in sorted(SCENARIOS.glob("*.yaml")):
        assert load_scenario(file).model.source.work in works, file.name


def test_non_english_works_are_marked_and_quoted_in_the_original() -> None:
    french = {w for w, work in LIBRARY.works.items() if work.language == "fr"}
    assert {"encyclopedie-1752", "academie-1740", "trevoux-1771", "littre-1873"} <= french
    assert LIBRARY.works["pierer-1857"].language == "de"
    for variant in LIBRARY.all():
        for path in rule_paths():
            citation = variant.citation(path)
            if citation is not None and citation.translation:
                assert citation.quote and citation.quote != citation.translation


# -- the matcher itself -----------------------------------------------------------------


def test_the_matcher_refuses_what_is_not_there(tmp_path: Path) -> None:
    file = tmp_path / "w.txt"
    file.write_text(
        "Work: w\nTranscribed from: here\n---\nOne “two” three.\n\nFour five six.\n",
        encoding="utf-8",
    )
    text = read_text(file)
    assert text.find('One "two" three.') == 0
    assert text.find("One [...] five") == 0  # a cut may span paragraphs
    assert text.find("Four five") == 1
    assert text.find("five [...] One") is None  # the pieces must come in order
    assert text.find("One two three") is None  # quotation marks are not dropped
    assert text.find("Six five") is None
    assert find_quote(("a",), "[...]") is None
    assert normalise("l’as  &\n le dix") == "l'as & le dix"


def test_a_text_outside_the_profiles_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sources.yaml").write_text(
        "works:\n  mine:\n    author: Me\n    title: T\n    year: '2026'\n"
        "    file: ../shared/research/sources.md\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        Library([tmp_path])
    message = str(caught.value)
    assert "sources.yaml:6" in message and "works.mine.file" in message
    assert "../shared/research/sources.md" in message
