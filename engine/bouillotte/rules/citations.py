"""Provenance: the bibliography and the citation each rule of a profile may carry."""

from __future__ import annotations

import itertools
import os
import re
import unicodedata
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from .errors import shown
from .escaping import web_address_fault
from .linetext import (
    NAME_LENGTH,
    Line,
    Name,
    Short,
    WorkLine,
    WorkTitle,
    line_break_fault,
    one_line_fault,
)

LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*|[xX](-[A-Za-z0-9]{1,8})+")
"""A BCP 47 language tag as the pages' ``<html lang>`` takes it (``en``, ``fr``, ``en-GB``,
a private use ``en-x-club`` or ``x-club``)."""

LANGUAGE_LENGTH = 35
"""The longest language tag (a work's ``language``, a text's ``Text language``, the site's
``language``): RFC 5646 (section 4.4.1) has every tag of a language, extended language,
script, region and variants fit in 35 characters; a page's ``<html lang>`` holds it."""

_VARIANT_SUBTAG = re.compile(r"[0-9A-Za-z]{5,8}|[0-9][0-9A-Za-z]{3}")
"""A variant subtag of a BCP 47 tag (``1901`` in ``de-1901``, ``valencia``)."""


def language_fault(tag: str) -> str | None:
    """Why ``tag`` is not a language tag the pages may carry, in a sentence naming it, or
    ``None``: a BCP 47 tag of at most :data:`LANGUAGE_LENGTH` characters, each variant
    subtag once (RFC 5646, section 2.2.5: ``en-scouse-scouse`` is no tag). One rule for a
    work's ``language``, a text's ``Text language`` and the site's ``language``."""
    if len(tag) > LANGUAGE_LENGTH:
        return (
            f"a language tag has at most {LANGUAGE_LENGTH} characters (RFC 5646), "
            f"not {len(tag):,}: write a tag such as 'en', 'fr' or 'en-GB'"
        )
    if not LANGUAGE_TAG.fullmatch(tag):
        return f"{tag!r} is not a language tag: write one such as 'en', 'fr' or 'en-GB'"
    seen: set[str] = set()
    for subtag in tag.split("-")[1:]:
        if len(subtag) == 1:  # an extension or private use follows: no variant after it
            break
        if _VARIANT_SUBTAG.fullmatch(subtag):
            if subtag.lower() in seen:
                return (
                    f"{tag!r} is not a language tag: its variant subtag {subtag!r} is given "
                    "twice, where a tag names each variant once (RFC 5646)"
                )
            seen.add(subtag.lower())
    return None


FIRST_YEAR, LAST_YEAR = 1500, 2099
"""The years a work's edition may be dated to: the citations and the history read no other
as a year (a number outside would silently leave the work undated). A year still to come
(after :func:`latest_day`'s) is refused too."""

YEAR_LENGTH = 200
"""The most characters of a ``year`` (the longest bundled: 26, ``1971-1994 (online
edition)``): it is a column of ``bouillotte sources`` and a part of every citation."""

FIRST_ACCESSED = date(1990, 1, 1)
"""The earliest day a text at a work's ``url`` can have been read: the web's first year."""


def latest_day() -> date:
    """The last day a work may be dated to (its ``year``) or read on (``accessed``): today,
    or ``SOURCE_DATE_EPOCH``'s day where that is later (a build dated ahead of a sandbox's
    clock). An earlier ``SOURCE_DATE_EPOCH`` never refuses what the clock accepts: a
    reproducible build of an older release still reads the works of this year."""
    today = date.today()
    given = os.environ.get("SOURCE_DATE_EPOCH", "")
    if not (given.isascii() and given.isdigit()) or len(given.lstrip("0")) > 12:
        return today  # none, or none that names a day (site/edition.py refuses it)
    try:
        epoch = datetime.fromtimestamp(int(given), tz=UTC).date()
    except (OverflowError, OSError, ValueError):
        return today
    return max(today, epoch)


_YEAR_WORDS = re.compile(
    r"(?<!\d)(?P<digits>\d+)(?:(?P<decade>0s)|(?P<ordinal>st|nd|rd|th)\s+century)?(?!\d)",
    re.IGNORECASE | re.ASCII,
)
"""Each number of a ``year``: four digits (a year), a decade (``2020s``), a century
(``18th century``), or a shorter number, which is a note (``2nd edition``, ``1897-99``,
``1850/51``, a day ``2026-12-07``)."""
UNDATED = ("undated", "n.d.", "s.d.", "o.j.")
"""How a year may say there is none (English, French and German abbreviations)."""

_BEFORE_CHRIST = re.compile(
    r"(?<![^\W\d_])(?:b\.?\s*c\.?(?:\s*e\.?)?|before\s+(?:christ|the\s+common\s+era)"
    r"|av(?:ant)?\.?\s*j\.?\s*-?\s*c\.?|avant\s+j[ée]sus|v(?:or)?\.?\s*chr\.?)(?![^\W\d_])",
    re.IGNORECASE,
)
"""A year marked before Christ: ``BC``, ``B.C.``, ``BCE``, ``before Christ``, French ``av.
J.-C.``, German ``v. Chr.``."""
_SIGN = re.compile(r"[-+\u2010-\u2015\u2212\ufe58\ufe63\uff0b\uff0d](?=\s*\d)")
"""A sign or a dash (hyphen, en or em dash, minus) before a number."""
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
"""A note in brackets (``(reprint of the 1897 text)``), innermost first."""
_DATED = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def dating_text(year: str) -> str:
    """The words of ``year`` that date the edition: those outside brackets (a note's year,
    ``1909 (reprint of the 1897 text)``, does not date it), or all of them where only a
    note names a year (``undated (2020s)``). The exports, the history and the order of
    a range (:func:`checked_year`) read these."""
    outside, found = year, 1
    while found:  # innermost brackets first, until none is left
        outside, found = _BRACKETED.subn(" ", outside)
    return outside if _DATED.search(outside) else year


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


def _a_sign(year: str) -> str | None:
    """The sign or dash written before a number of ``year`` where no number precedes it
    (``-1600``, ``–1897``, ``c. −1600``), which would be read as the year without it;
    ``None`` where every dash joins two numbers (``1897-1909``, ``1897-99``)."""
    for found in _SIGN.finditer(year):
        before = year[: found.start()].rstrip()
        if not before or not (before[-1].isalnum() or before[-1] in ")]"):
            return found.group()
    return None


def checked_year(year: str) -> str:
    """``year`` if it is the year of an edition as a historian writes it (a work's, in
    ``sources.yaml``, or a work not yet read's, in ``unread.yaml``)."""
    # The citations, the exports and the history read the years written here: a word
    # with none ("banana"), a year no edition has (2150, 1600 BC, -1600) or a range
    # backwards (1909-1897, 1909/1897, 1909 or 1850) would be published as it stands, or
    # silently as undated, or as another year.
    # Every number written is a year (1897), a decade (2020s) or a century (18th).
    fault = line_break_fault(year, YEAR_LENGTH)
    if fault is not None:
        raise ValueError(fault)
    last = latest_day().year
    written = f"write the year of the edition used, from {FIRST_YEAR} to {last}"
    before_christ = _BEFORE_CHRIST.search(year)
    if before_christ is not None:
        raise ValueError(
            f"{year!r} is a year before Christ ({before_christ.group()!r}), which no edition "
            f"has: {written}"
        )
    sign = _a_sign(year)
    if sign is not None:
        raise ValueError(
            f"{year!r} has a sign or a dash ({sign!r}) before a year: {written}, with no "
            "sign (a range is written 1897-1909)"
        )
    named = False
    for word in _YEAR_WORDS.finditer(year):
        verdict = _year_word(word)
        if verdict is False:
            raise ValueError(
                f"{word.group()!r} is not a year of an edition: write a year from "
                f"{FIRST_YEAR} to {LAST_YEAR}, a decade (2020s) or a century (18th century)"
            )
        if verdict is True and word["ordinal"] is None:
            first = int(word["digits"] + ("0" if word["decade"] else ""))
            if first > last:
                raise ValueError(f"{word.group()!r} is a year still to come: {written}")
        named = named or verdict is True
    if not named and not year.strip().lower().startswith(UNDATED):
        raise ValueError(
            f"{year!r} names no year: write the year of the edition used in the digits "
            "0-9 (1897), a range (1897-1909), a decade (2020s), a century (18th century), or "
            "'undated' (with a note in brackets)"
        )
    _days_and_short_ranges(year)
    _in_order(dating_text(year))
    return year


_DAY = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
"""A day written as YYYY-MM-DD (``2026-12-07``, a web edition's)."""
_SHORT_RANGE = re.compile(r"(?<![\d-])(\d{4})\s*[-/\u2013]\s*(\d{2})(?![\d-])")
"""A range whose last year is written by its last two digits (``1897-99``, ``1850/51``)."""


def _days_and_short_ranges(year: str) -> None:
    """Refuse a day that does not exist (``1897-13-45``, ``1897-02-30``: its numbers read
    as notes, published as they stand) and a short range that ends before it begins
    (``1909-02``: 1909 to 1902, or a month?); one from the last decade of a century into
    the first of the next is read so (``1899-00``)."""
    for day in _DAY.finditer(year):
        try:
            date(*(int(part) for part in day.groups()))
        except ValueError:
            raise ValueError(
                f"{day.group()!r} is not a day that exists: write a day as YYYY-MM-DD "
                "(1897-02-28), or the year alone"
            ) from None
    for short in _SHORT_RANGE.finditer(year):
        first = int(short[1])
        last = first // 100 * 100 + int(short[2])
        if last <= first and first % 100 >= 90 and int(short[2]) < 10:
            last += 100  # into the next century: 1899-00, 1898/02
        if last <= first:
            raise ValueError(
                f"{short.group()!r} reads as a range from {first} back to {last}: write its "
                f"last year in full ({first}-{first + 12}), a month as a day (YYYY-MM-DD), "
                "or the year alone"
            )


def _in_order(text: str) -> None:
    """Refuse years (and decades) of ``text`` written later first, whatever joins them
    (``1909-1897``, ``1909/1897``, ``1909 or 1850``, ``1909 to 1897``): the exports read
    the first as the start of the range and the last as its end."""
    dated = [
        (word, int(word["digits"] + ("0" if word["decade"] else "")))
        for word in _YEAR_WORDS.finditer(text)
        if word["ordinal"] is None and _year_word(word) is True
    ]
    for (earlier, first), (later, then) in itertools.pairwise(dated):
        if then < first:
            written = " ".join(text[earlier.start() : later.end()].split())
            raise ValueError(
                f"the range {written} runs backwards: earlier year first (a year of a note "
                "goes in brackets: 1909 (reprint of the 1897 text))"
            )


Year = Annotated[str, AfterValidator(checked_year)]
"""A ``year`` field (:func:`checked_year`)."""


def _names(names: list[str]) -> list[str]:
    """Authors or editors: each ``Family, Given`` (one comma), ``Family, Jr., Given``
    (BibTeX's second form: two) or a body's name (none), none blank, none twice. BibTeX
    reads a third comma as an error, and so every name after it in the entry."""
    seen: dict[str, str] = {}
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
        key = _name_key(name)
        if key in seen:
            earlier = seen[key]
            same = ""
            if earlier.strip() != name.strip():
                also = unicodedata.normalize("NFC", earlier) == unicodedata.normalize("NFC", name)
                how = ", the same letters in other Unicode code points" if also else ""
                same = f" (as {shown(earlier)!r}{how})"
            raise ValueError(f"the name {name!r} is given twice{same}")
        seen[key] = name
    return names


def _name_key(name: str) -> str:
    """A name as :func:`_names` compares it: in Unicode's composed form (NFC: ``e`` and a
    combining acute are ``é``, as the glossary compares its terms), in any case, each part
    with its spaces run together."""
    composed = unicodedata.normalize("NFC", name).casefold()
    return ",".join(" ".join(part.split()) for part in composed.split(","))


Names = Annotated[list[str], AfterValidator(_names)]
"""A list of authors or editors (:func:`_names`)."""


def _linkable(url: str) -> str:
    """``url`` if it is an address the site may link to (``rules/escaping.py``,
    :func:`~bouillotte.rules.escaping.web_address_fault`), the fault named where it is a
    space: ``https://example.org/my page`` starts as an address does."""
    if url[:8].lower().startswith(("http://", "https://")):
        at = next((i for i, c in enumerate(url) if c.isspace()), None)
        if at is not None:
            c = url[at]
            what = (
                "a line break or a control character"
                if unicodedata.category(c) in ("Cc", "Zl", "Zp")
                else "a space"
            )
            raise ValueError(
                f"the url holds {what} (U+{ord(c):04X} at character {at + 1}), which a web "
                "address never does: percent-encode it" + (" (%20)" if c == " " else "")
            )
    fault = web_address_fault(url)
    if fault is not None:
        raise ValueError(fault)
    return url


WebAddress = Annotated[str, AfterValidator(_linkable)]
"""A work's ``url`` or an identifier's in ``unread.yaml``: an ``http://`` or ``https://``
address one can link to (:func:`_linkable`)."""


def _refused_at(field: str, message: str, value: object) -> ValidationError:
    """A fault of a model's check across fields, at the field it names (so at that
    field's line of the file), as pydantic reports a field's own."""
    return ValidationError.from_exception_data(
        "Work",
        [
            InitErrorDetails(
                type=PydanticCustomError("value_error", "{reason}", {"reason": message}),
                loc=(field,),
                input=value,
            )
        ],
    )


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
    publisher: WorkLine | None = Field(default=None, description="The publisher, if known.")
    locator_scheme: WorkLine | None = Field(
        default=None,
        description="How a place in the work is cited (section heading, entry, page).",
    )
    edition: WorkLine | None = Field(default=None, description="Edition, printing or version.")
    url: WebAddress | None = Field(default=None, description="Where the text can be read.")
    file: WorkLine | None = Field(
        default=None,
        description=(
            "The shipped text of the passages we quote, relative to the profiles' folder "
            "(``texts/…``)."
        ),
    )
    language: str = Field(
        default="en", description="The language of the original, as a code (en, fr, de)."
    )
    place: WorkLine | None = Field(default=None, description="Place of publication, if known.")
    notes: str | None = Field(default=None, description="What the source is and how to use it.")
    entry: WorkLine | None = Field(
        default=None,
        description=(
            "For an article of a dictionary or encyclopaedia: the entry (or entries) cited, "
            "as ``Brelan``; the bibliography exports then cite the entry in ``container``, "
            "which it needs."
        ),
    )
    container: WorkLine | None = Field(
        default=None,
        description=(
            "The dictionary or encyclopaedia that ``entry`` is in, as its title is cited "
            "(BibTeX ``booktitle``, CSL ``container-title``); only with ``entry``."
        ),
    )
    accessed: str | None = Field(
        default=None,
        description=(
            "When the text at ``url`` was read, ``YYYY-MM-DD`` (BibLaTeX ``urldate``, CSL "
            "``accessed``): a day from 1990-01-01 (the web's first year) to today; only with "
            "``url``."
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
        day = date.fromisoformat(accessed)
        if day > latest_day():
            raise ValueError(f"{accessed} is a day still to come: the day the text was read")
        if day < FIRST_ACCESSED:
            raise ValueError(
                f"{accessed} is before the web ({FIRST_ACCESSED.year}): the day the text at "
                "'url' was read"
            )
        return accessed

    @model_validator(mode="after")
    def _pairs(self) -> Work:
        # An entry is cited in its container: one without the other was dropped from every
        # export without a word. A day read online is the day the text at url was read.
        if self.entry is not None and self.container is None:
            raise _refused_at(
                "entry",
                "an 'entry' is cited in the work it is in: give 'container' too (the "
                "dictionary's or encyclopaedia's title), or leave 'entry' out",
                self.entry,
            )
        if self.container is not None and self.entry is None:
            raise _refused_at(
                "container",
                "a 'container' is the work an 'entry' is in: give 'entry' too (the article "
                "cited), or leave 'container' out",
                self.container,
            )
        if self.accessed is not None and self.url is None:
            raise _refused_at(
                "accessed",
                "'accessed' is the day the text at 'url' was read: give 'url' too, or leave "
                "'accessed' out",
                self.accessed,
            )
        return self

    @field_validator("language")
    @classmethod
    def _a_language(cls, language: str) -> str:
        # It becomes a text page's <html lang> and the citation_language of its head.
        fault = language_fault(language)
        if fault is not None:
            raise ValueError(fault)
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
