"""Provenance: the bibliography and the citation each rule of a profile may carry."""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .escaping import WebAddress


class Status(StrEnum):
    """How far the source stands behind a rule's value."""

    DOCUMENTED = "documented"
    """The source says so in the quoted sentence."""
    AGREEMENT = "agreement"
    """A stated session or teaching agreement (the source fixes it for its own table)."""
    INFERRED = "inferred"
    """Our reading of an ambiguous or silent text; ``reason`` says why."""
    RECONSTRUCTED = "reconstructed"
    """Rebuilt from indirect evidence (a damaged diagram, the arithmetic of an example)."""
    PARAPHRASED = "paraphrased"
    """The source says so, but ``quote`` is a rendering, summary or translation of its words,
    not the words themselves; it is shown without quotation marks."""


STATED_STATUSES = frozenset({Status.DOCUMENTED, Status.AGREEMENT, Status.PARAPHRASED})
"""Statuses under which the cited source itself states the value."""


class Work(BaseModel):
    """One entry of the bibliography (``variants/sources.yaml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    author: str
    title: str
    short: str | None = Field(
        default=None,
        description=(
            "The work's name in a few words, as readers see it where a rule cites it "
            "(``Foster 1897``); without it, the author's last name and the first year."
        ),
    )
    year: str = Field(description="Year or range of years of the edition used.")
    kind: Literal[
        "dictionary", "encyclopaedia", "rulebook", "website", "teaching-card", "reconstruction"
    ] = Field(
        default="rulebook",
        description=(
            "What sort of work it is: a dictionary, an encyclopaedia, a rulebook (a book of "
            "games), a website, a modern teaching card, or our own reconstruction."
        ),
    )
    authors: list[str] = Field(
        default_factory=list,
        description=(
            "The authors for a citation, each as ``Family, Given`` (a name without a comma is "
            "a body, such as ``Académie française``)."
        ),
    )
    editors: list[str] = Field(
        default_factory=list, description="The editors, written as ``authors`` are."
    )
    publisher: str | None = Field(default=None, description="The publisher, if known.")
    locator_scheme: str | None = Field(
        default=None,
        description="How a place in the work is cited (section heading, entry, page).",
    )
    edition: str | None = Field(default=None, description="Edition, printing or version.")
    url: WebAddress | None = Field(default=None, description="Where the text can be read.")
    file: str | None = Field(
        default=None,
        description=(
            "The shipped text of the passages we quote, relative to the profiles' folder "
            "(``texts/…``)."
        ),
    )
    language: str = Field(
        default="en", description="The language of the original, as a code (en, fr, de)."
    )
    place: str | None = Field(default=None, description="Place of publication, if known.")
    notes: str | None = Field(default=None, description="What the source is and how to use it.")
    entry: str | None = Field(
        default=None,
        description=(
            "For an article of a dictionary or encyclopaedia: the entry (or entries) cited, "
            "as ``Brelan``; the bibliography exports then cite the entry in ``container``."
        ),
    )
    container: str | None = Field(
        default=None,
        description=(
            "The dictionary or encyclopaedia that ``entry`` is in, as its title is cited "
            "(BibTeX ``booktitle``, CSL ``container-title``)."
        ),
    )
    accessed: str | None = Field(
        default=None,
        description=(
            "When the text at ``url`` was read, ``YYYY-MM-DD`` (BibLaTeX ``urldate``, CSL "
            "``accessed``)."
        ),
        pattern=r"^\d{4}-\d{2}-\d{2}$",
    )
    translation_note: str | None = Field(
        default=None,
        description=(
            "Where the shipped text is in part a translation, not the work's own words: what "
            "the translation is. Shown beside each quote that needs an English rendering "
            "though the work's language is English (a quote of the translation)."
        ),
    )

    @property
    def name(self) -> str:
        """The short name readers see (``short``, else last name and first year)."""
        if self.short:
            return self.short
        found = re.search(r"\d{4}s?", self.year)
        last = (self.authors[0].split(",")[0] if self.authors else self.author).strip()
        return f"{last} {found.group()}" if found else last

    @property
    def dated(self) -> str:
        """The work's date as a reader reads it after "source": ``dated 1897-1909``, or
        the year as written where it says the work is undated (``undated (modern)``)."""
        return self.year if self.year.lower().startswith("undated") else f"dated {self.year}"

    @field_validator("accessed")
    @classmethod
    def _a_real_day(cls, accessed: str | None) -> str | None:
        # The exports write it as a date (BibLaTeX urldate, CSL accessed): it must be one.
        if accessed is None:
            return None
        try:
            if not accessed.isascii():
                raise ValueError
            date.fromisoformat(accessed)
        except ValueError:
            raise ValueError(
                f"{accessed!r} is not a day that exists, written YYYY-MM-DD in ASCII digits"
            ) from None
        return accessed

    @field_validator("file")
    @classmethod
    def _inside_the_project(cls, file: str | None) -> str | None:
        if file is not None and (file.startswith(("/", "\\")) or ".." in file.split("/")):
            raise ValueError(
                f"'file' names a text beside the profiles (texts/...), never outside: {file!r}"
            )
        return file


class Citation(BaseModel):
    """Where a rule's value comes from: the work, the place in it, the very sentence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str | None = Field(default=None, description="A work id from the bibliography.")
    locator: str | None = Field(default=None, description="Section, heading or page.")
    quote: str | None = Field(
        default=None,
        description=(
            "The exact sentence(s) of the source, in its own language (``[...]`` marks a cut); "
            "for ``paraphrased``, our rendering of them."
        ),
    )
    translation: str | None = Field(
        default=None, description="An English translation of a quote in another language."
    )
    status: Status = Field(
        description="documented, agreement, paraphrased, inferred or reconstructed."
    )
    reason: str | None = Field(
        default=None, description="Why we read it so; required when the status is inferred."
    )

    @model_validator(mode="after")
    def _explain_inferences(self) -> Citation:
        if self.status in (Status.INFERRED, Status.RECONSTRUCTED) and not self.reason:
            raise ValueError(f"a rule marked {self.status.value} needs a 'reason' saying why")
        if self.status in STATED_STATUSES and not self.quote:
            raise ValueError(f"a rule marked {self.status.value} needs the 'quote' it rests on")
        if self.translation and not self.quote:
            raise ValueError("a 'translation' needs the 'quote' it translates")
        if self.quote and not self.source:
            raise ValueError("a quote needs the 'source' it is taken from")
        return self


CITATION_KEYS = frozenset(Citation.model_fields)
