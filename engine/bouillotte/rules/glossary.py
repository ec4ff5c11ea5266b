"""The glossary: the words of the game, each with a definition and a sentence of a source
that uses it.

``variants/glossary.yaml`` is cited data like the profiles: each term's ``quote`` is copied
exactly from the shipped text of its ``source`` (``variants/texts/``; the test suite checks
it word for word). A ``paraphrased`` term quotes a rendering of its work (the French machine
translation of pagat.com), shown without quotation marks, with its ``translation``. The file
is read with the profiles, and a fault is reported at its file and line; a folder given with
``--variants`` may hold its own ``glossary.yaml``, whose terms are added to the bundled ones
(or replace the bundled term of the same id).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .docstrings import describe_fields
from .linetext import Line, Title, Words
from .nearest import did_you_mean
from .profile import rule_paths
from .resources import bundled
from .yamlmodels import validated
from .yamlsource import read_mapping

GLOSSARY_FILE = "glossary.yaml"


class Term(BaseModel):
    """One word of the game."""

    # Each field's docstring is its description (describe_fields below the models), so no
    # model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """Unique; the term's anchor on the Glossary page (``glossary.html#favori``)."""
    term: Title
    """The word as the page shows it; a note in parentheses (``sight (calling for a
    sight)``) is not part of the name the search index knows it by."""
    also: list[str] = []
    """Other spellings and names, for the search index."""
    french: str | None = None
    """For a French word: its English gloss (the page marks the word as French)."""
    definition: Words
    """What the word means, in Markdown."""
    rules: list[str] = []
    """The rules (``group.field``) the word is about: the page links to their rows of the
    matrix."""
    source: str
    """The work the quote is taken from, an id of the bibliography (``sources.yaml``)."""
    locator: Line
    """Section, entry or page of the quote."""
    quote: str
    """A sentence of the source that uses the word: its exact words (``[...]`` marks a cut),
    in the source's language."""
    status: Literal["documented", "paraphrased"]
    """``documented``: the quote is the source's own words; ``paraphrased``: a rendering of
    them (shown without quotation marks)."""
    translation: str | None = None
    """An English translation of a quote in another language."""

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, rules: list[str]) -> list[str]:
        for path in rules:
            if path not in rule_paths():
                raise ValueError(
                    f"unknown rule {path!r}{did_you_mean(path, rule_paths())}; "
                    "a rule is written group.field"
                )
        return rules

    @property
    def work(self) -> str:
        """The bibliography id of the quote's work (``source``)."""
        return self.source

    @property
    def paraphrased(self) -> bool:
        """The quote is a rendering of the work, not its own words."""
        return self.status == "paraphrased"


class GlossaryFile(BaseModel):
    """A ``glossary.yaml``: a list ``terms:``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    terms: list[Term]


describe_fields(__name__)


def _name_key(name: str) -> str:
    """A term's name as a reader tells names apart: ``café`` in one code point or two,
    ``Brelan`` and ``brelan``, are one name; a note in parentheses is no part of it
    (``brelan (simple brelan)``)."""
    bare = re.sub(r"\s*\([^()]*\)\s*$", "", name)
    return unicodedata.normalize("NFC", bare).casefold().strip()


GENERATED_IDS = frozenset({"contents-label"})
"""Ids a page is given by code rather than by a template (``site/headings.py``'s list of
contents)."""


@cache
def page_ids() -> frozenset[str]:
    """The ids of the elements the bundled templates give a page (``main``, ``cite-bibtex``,
    ``site-search-input``...) and :data:`GENERATED_IDS`: a term's anchor on the glossary
    page may be none of them, or it would lead there (and "Copy the BibTeX" copy the term)."""
    found = set(GENERATED_IDS)
    for template in (bundled("site") / "templates").glob("*.html"):
        found.update(re.findall(r'\bid="([A-Za-z][\w-]*)"', template.read_text("utf-8")))
    return frozenset(found)


def load_glossary(
    file: Path,
    works: set[str],
    quote_fault: Callable[[str, str], str | None] | None = None,
    earlier: dict[str, str] | None = None,
) -> list[Term]:
    """Read a ``glossary.yaml``: its terms, in the file's order, each checked against the
    bibliography (``works``) and, with ``quote_fault`` (:meth:`.quotecheck.QuoteChecker.fault`),
    each documented quote against its work's text; a fault is reported at its file and line.
    ``earlier``: the names (:func:`_name_key`) of the terms of the glossaries read before, by
    id, which no term of this one may take but a term replacing it (its id); on return, the
    names of all of them."""
    doc = read_mapping(file, "a list 'terms:' of words with their definition and quote")
    terms = validated(GlossaryFile, doc).terms
    ids: set[str] = set()
    replaced = {t.id for t in terms}  # an earlier term of the same id is replaced, name and all
    names = {n: i for n, i in (earlier or {}).items() if i not in replaced}
    taken = page_ids()
    for i, term in enumerate(terms):
        if term.id in ids:
            raise doc.fault(("terms", i, "id"), "this id is used twice", term.id)
        if term.id in taken:
            raise doc.fault(
                ("terms", i, "id"),
                "the glossary page already has an element of this id (its anchor would lead "
                "there, not to the term); choose another id",
                term.id,
            )
        ids.add(term.id)
        name = _name_key(term.term)
        if name in names:
            raise doc.fault(
                ("terms", i, "term"),
                f"the term {names[name]!r} has this name already: no two entries share a name",
                term.term,
            )
        names[name] = term.id
        if term.source not in works:
            raise doc.fault(
                ("terms", i, "source"),
                f"unknown source id{did_you_mean(term.source, works)}; "
                f"the bibliography has {', '.join(sorted(works))}",
                term.source,
            )
        fault = (
            quote_fault(term.source, term.quote) if quote_fault and not term.paraphrased else None
        )
        if fault is not None:
            raise doc.fault(("terms", i, "quote"), fault)
    if earlier is not None:  # for the next folder's glossary
        earlier.clear()
        earlier.update(names)
    return terms
