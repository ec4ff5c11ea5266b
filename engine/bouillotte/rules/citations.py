"""Provenance: the bibliography and the citation each rule of a profile may carry."""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import shown
from .escaping import WebAddress
from .linetext import NAME_LENGTH, Line, Name, Short, WorkTitle, one_line_fault

LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*|[xX](-[A-Za-z0-9]{1,8})+")
"""A BCP 47 language tag as the pages' ``<html lang>`` takes it (``en``, ``fr``, ``en-GB``,
a private use ``en-x-club`` or ``x-club``)."""

FIRST_YEAR, LAST_YEAR = 1500, 2099
"""The years a work's edition may be dated to: the citations and the history read no other
as a year (a number outside would silently leave the work undated)."""

_YEAR_WORDS = re.compile(
    r"(?<!\d)(?P<digits>\d+)(?:(?P<decade>0s)|(?P<ordinal>st|nd|rd|th)\s+century)?(?!\d)",
    re.IGNORECASE | re.ASCII,
)
"""Each number of a ``year``: four digits (a year), a decade (``2020s``), a century
(``18th century``), or a shorter number, which is a note (``2nd edition``, ``1897-99``,
``1850/51``, a day ``2026-12-07``)."""
_RANGES = re.compile(r"(?<!\d)(\d{4})\s*[-–]\s*(\d{4})(?!\d)", re.ASCII)
"""A range of years written ``1897-1909`` (or with an en dash)."""
UNDATED = ("undated", "n.d.", "s.d.", "o.j.")
"""How a year may say there is none (English, French and German abbreviations)."""


def _year_word(word: re.Match[str]) -> bool | None:
    """Whether a number of a ``year`` (:data:`_YEAR_WORDS`) names a year of an edition
    (``True``), names one out of :data:`FIRST_YEAR` to :data:`LAST_YEAR` or has five digits
    or more (``False``), or is a note's number (``None``)."""
    digits = word["digits"]
    if word["ordinal"] is not None:
        return len(digits) <= 2 and FIRST_YEAR // 100 + 1 <= int(digits) <= LAST_YEAR // 100 + 1
    if word["decade"] is not None:
        digits += "0"
    if len(digits) < 4:
        return None
    return len(digits) == 4 and FIRST_YEAR <= int(digits) <= LAST_YEAR


def checked_year(year: str) -> str:
    """``year`` if it is the year of an edition as a historian writes it (a work's, in
    ``sources.yaml``, or a work not yet read's, in ``unread.yaml``)."""
    # The citations, the exports and the history read the years written here: a word
    # with none ("banana"), a year no edition has (2150) or a range backwards
    # (1909-1897) would be published as it stands, or silently as undated.
    # Every number written is a year (1897), a decade (2020s) or a century (18th).
    named = False
    for word in _YEAR_WORDS.finditer(year):
        verdict = _year_word(word)
        if verdict is False:
            raise ValueError(
                f"{word.group()!r} is not a year of an edition: write a year from "
                f"{FIRST_YEAR} to {LAST_YEAR}, a decade (2020s) or a century (18th century)"
            )
        named = named or verdict is True
    if not named and not year.strip().lower().startswith(UNDATED):
        raise ValueError(
            f"{year!r} names no year: write the year of the edition used in the digits "
            "0-9 (1897), a range (1897-1909), a decade (2020s), a century (18th century), or "
            "'undated' (with a note in brackets)"
        )
    for first, last in _RANGES.findall(year):
        if int(last) < int(first):
            raise ValueError(f"the range {first}-{last} runs backwards: earlier year first")
    return year


Year = Annotated[str, AfterValidator(checked_year)]
"""A ``year`` field (:func:`checked_year`)."""


def _names(names: list[str]) -> list[str]:
    """Authors or editors: each ``Family, Given`` (one comma), ``Family, Jr., Given``
    (BibTeX's second form: two) or a body's name (none), none blank, none twice. BibTeX
    reads a third comma as an error, and so every name after it in the entry."""
    seen: set[str] = set()
    for name in names:
        fault = one_line_fault(name, NAME_LENGTH)
        if fault is not None:
            raise ValueError(f"the name {shown(name)!r} {fault}")
        parts = [part.strip() for part in name.split(",")]
        if not all(parts):
            raise ValueError(
                f"the name {name!r} has an empty part: write 'Family, Given' or a body's name"
            )
        if len(parts) > 3:
            raise ValueError(
                f"the name {name!r} has {len(parts) - 1} commas: write 'Family, Given' "
                "(one comma; two for 'Family, Jr., Given') or a body's name (none)"
            )
        if name.strip() in seen:
            raise ValueError(f"the name {name!r} is given twice")
        seen.add(name.strip())
    return names


Names = Annotated[list[str], AfterValidator(_names)]
"""A list of authors or editors (:func:`_names`)."""


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

    author: Name
    title: WorkTitle
    short: Short | None = Field(
        default=None,
        description=(
            "The work's name in a few words, as readers see it where a rule cites it "
            "(``Foster 1897``); without it, the author's last name and the first year."
        ),
    )
    year: Year = Field(description="Year or range of years of the edition used.")
    kind: Literal[
        "dictionary", "encyclopaedia", "rulebook", "website", "teaching-card", "reconstruction"
    ] = Field(
        default="rulebook",
        description=(
            "What sort of work it is: a dictionary, an encyclopaedia, a rulebook (a book of "
            "games), a website, a modern teaching card, or our own reconstruction."
        ),
    )
    authors: Names = Field(
        default_factory=list,
        description=(
            "The authors for a citation, each as ``Family, Given`` (a name without a comma is "
            "a body, such as ``Académie française``)."
        ),
    )
    editors: Names = Field(
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

    @field_validator("accessed", mode="before")
    @classmethod
    def _a_day_unquoted(cls, accessed: object) -> object:
        # YAML reads an unquoted 2026-02-28 as a date, as site.yaml's edition_date is read
        return accessed.isoformat() if isinstance(accessed, date) else accessed

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
        if date.fromisoformat(accessed) > date.today():
            raise ValueError(f"{accessed} is a day still to come: the day the text was read")
        return accessed

    @field_validator("language")
    @classmethod
    def _a_language(cls, language: str) -> str:
        # It becomes a text page's <html lang> and the citation_language of its head.
        if not LANGUAGE_TAG.fullmatch(language):
            raise ValueError(
                f"{language!r} is not a language tag: write a code such as 'en', 'fr' or 'de'"
            )
        return language

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
    locator: Line | None = Field(default=None, description="Section, heading or page.")
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
        if (
            self.status in (Status.INFERRED, Status.RECONSTRUCTED)
            and not (self.reason or "").strip()
        ):
            raise ValueError(f"a rule marked {self.status.value} needs a 'reason' saying why")
        if self.status in STATED_STATUSES and not self.quote:
            raise ValueError(f"a rule marked {self.status.value} needs the 'quote' it rests on")
        if self.translation and not self.quote:
            raise ValueError("a 'translation' needs the 'quote' it translates")
        if self.quote and not self.source:
            raise ValueError("a quote needs the 'source' it is taken from")
        return self


CITATION_KEYS = frozenset(Citation.model_fields)
