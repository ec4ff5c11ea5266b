"""The bibliography as scholars use it: a citation in a standard style, BibTeX and CSL-JSON.

Every entry comes from ``variants/sources.yaml`` (:class:`~bouillotte.rules.citations.Work`):
authors or editors, title, edition, date, place, publisher, language and the address of a
transcription. The citation style follows the Chicago notes-bibliography pattern (names,
title, edition, place: publisher, date, address); BibTeX and CSL-JSON carry the same fields,
so a reference manager imports what the Sources page shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .citations import Work, dating_text
from .escaping import bibtex_text, bibtex_url, csl_text

CSL_TYPES: dict[str, str] = {
    "dictionary": "entry-dictionary",
    "encyclopaedia": "entry-encyclopedia",
    "rulebook": "book",
    "website": "webpage",
    "teaching-card": "document",
    "reconstruction": "document",
}
"""The CSL item type of each kind of work."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "fr": "French", "de": "German"}


def years(work: Work) -> tuple[int | None, int | None]:
    """The first and last year named in ``work.year`` (``None`` for a work with no year),
    a year in a note in brackets aside (``1909 (reprint of the 1897 text)`` is 1909)."""
    # "2020s" counts from 2020; "undated (modern)" has no year.
    found = [
        int(y) for y in re.findall(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", dating_text(work.year))
    ]
    if not found:
        return None, None
    return found[0], found[-1]


def _is_person(name: str) -> bool:
    return "," in name


def _parts(name: str) -> tuple[str, str, str]:
    """A person's family name, given names and suffix (``Foster, Jr., R. F.``: BibTeX's
    form with a suffix; ``Foster, R. F.``: none)."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 3:
        return parts[0], parts[2], parts[1]
    return parts[0], ", ".join(parts[1:]), ""


def _display(name: str) -> str:
    """``Foster, R. F.`` as ``R. F. Foster`` (``Foster, Jr., R. F.`` as ``R. F. Foster
    Jr.``); a body's name as it stands."""
    if not _is_person(name):
        return name
    family, given, suffix = _parts(name)
    return " ".join(p for p in (given, family, suffix) if p)


def _inverted(name: str) -> str:
    """``Foster, R. F.`` as it stands; ``Foster, Jr., R. F.`` as ``Foster, R. F., Jr.``."""
    if not _is_person(name):
        return name
    family, given, suffix = _parts(name)
    return ", ".join(p for p in (family, given, suffix) if p)


def chicago_names(names: list[str], *, invert_first: bool) -> str:
    """Names as Chicago joins them (``A, B, and C``), the first inverted if asked."""
    shown = [
        _inverted(name) if (i == 0 and invert_first) else _display(name)
        for i, name in enumerate(names)
    ]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + ", and " + shown[-1]


def _anonymous_reference(work: Work) -> bool:
    """A dictionary or encyclopaedia that names no author or editor is cited by its title."""
    return not work.authors and not work.editors and work.kind in ("dictionary", "encyclopaedia")


def _unnamed(work: Work) -> bool:
    """A work whose author is not known (``Anonymous ...``) or a reference work that names
    nobody: its citation begins with its title."""
    return _anonymous_reference(work) or work.author.lower().startswith("anonymous")


@dataclass(frozen=True)
class Creators:
    """Whom the exports name, as the citation does (:func:`creators`): the ``authors``, else
    the ``editors``, else the work's ``author`` line as written (one name, read as a body's
    so that no export splits or reorders it)."""

    role: Literal["author", "editor"]
    names: list[str]
    as_written: bool = False
    """The ``author`` line, where no ``authors`` or ``editors`` are given."""


def cited_creators(work: Work) -> Creators | None:
    """The names the BibTeX and CSL-JSON exports give, the same as the citation opens with;
    ``None`` for a work whose author is unknown or a reference work naming nobody."""
    if work.authors:
        return Creators("author", work.authors)
    if work.editors:
        return Creators("editor", work.editors)
    if _unnamed(work):
        return None
    return Creators("author", [work.author], as_written=True)


def creators(work: Work) -> str:
    """The names a citation opens with: the authors, or the editors marked ``ed.``/``eds.``
    (Chicago 17, 14.76), or the work's ``author`` line where no names are given; nothing
    for a reference work that names nobody, nor for a work whose author is unknown
    ("Anonymous ..."): Chicago begins such an entry with its title (14.79)."""
    if work.authors:
        return chicago_names(work.authors, invert_first=True)
    if work.editors:
        mark = "ed." if len(work.editors) == 1 else "eds."
        return f"{chicago_names(work.editors, invert_first=True)}, {mark}"
    if _unnamed(work):
        return ""
    return work.author


# -- The Chicago citation ------------------------------------------------------------------

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def day_in_words(day: str) -> str:
    """``2026-11-30`` as Chicago writes a day: ``November 30, 2026``."""
    year, month, number = (int(part) for part in day.split("-"))
    return f"{MONTHS[month - 1]} {number}, {year}"


ReferenceKind = Literal["book", "entry", "webpage"]


@dataclass(frozen=True)
class Reference:
    """What a Chicago notes-bibliography entry says, in its parts, whatever it describes:
    a work of the bibliography (:func:`work_reference`) or a page of the site
    (``site/citation.py``). :func:`chicago` is the one formatter of both."""

    kind: ReferenceKind
    """``book``: a book, or any work standing alone (its title in italics); ``entry``: an
    article of a dictionary or encyclopaedia, in quotation marks, "In" the work, in
    italics; ``webpage``: a page of a website, in quotation marks, the site in roman."""
    names: str
    """The creators as the entry opens with them (editors already marked ``ed.``), or
    empty: the entry then opens with its title."""
    title: str
    container: str | None = None
    """The reference work an ``entry`` is in, or the website a ``webpage`` is part of."""
    edition: str | None = None
    """An edition in words (``11th edition``, written ``11th ed.``), or a site's version
    (``Version 0.1.0``)."""
    place: str | None = None
    publisher: str | None = None
    date: str | None = None
    """The date in words (``1897–1909``, ``December 1, 2026``); ``None``: undated (n.d.)."""
    accessed: str | None = None
    """The day an undated online work was read (``November 30, 2026``)."""
    url: str | None = None


Piece = tuple[str, bool]
"""A stretch of a citation's text and whether it is set in italics."""


def short_edition(edition: str) -> str:
    """An edition as Chicago abbreviates it after the title: ``11th edition`` is ``11th
    ed.`` (14.118); any other wording stays as it is."""
    return re.sub(r"\b(\d+(?:st|nd|rd|th)) edition\b", r"\1 ed.", edition)


def _sentence(text: str) -> str:
    """A part of the entry closed by a period (never two: ``ed.`` keeps its own)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def chicago(ref: Reference) -> list[Piece]:
    """The entry in the Chicago notes-bibliography style (The Chicago Manual of Style, 17th
    ed., chapter 14), as pieces of text, each italic or not.

    - Names first, the first inverted, editors marked ``ed.``/``eds.`` (14.72, 14.76); no
      names, the title first (14.79).
    - A book's title in italics; an article's in quotation marks, then "In" and the
      reference work in italics (14.233, as a chapter "In" its book, 14.106); a web page's
      title in quotation marks and its site in roman, neither in italics (14.206).
    - The edition once, after the title, abbreviated (``11th ed.``, 14.118).
    - Place: publisher, date (14.127-14.135); a web page's date after its site (14.206);
      no date, "n.d." (14.145), and for an undated page read online, the day it was read
      (14.207, 14.12).
    - The address last (14.7).
    """
    pieces: list[Piece] = []
    if ref.names:
        pieces.append((_sentence(ref.names) + " ", False))
    if ref.kind == "book":
        pieces.append((ref.title.rstrip("."), True))
        pieces.append((". ", False))
    else:
        pieces.append((f"“{ref.title.rstrip('.')}.” ", False))
        if ref.container and ref.kind == "entry":
            pieces.append(("In ", False))
            pieces.append((ref.container.rstrip("."), True))
            pieces.append((". ", False))
        elif ref.container:
            pieces.append((_sentence(ref.container) + " ", False))
    rest: list[str] = []
    date = ref.date or "n.d."
    if ref.kind == "webpage":
        rest.append(_sentence(f"{short_edition(ref.edition)}, {date}" if ref.edition else date))
    else:
        if ref.edition:
            rest.append(_sentence(short_edition(ref.edition)))
        imprint = ": ".join(p for p in (ref.place, ref.publisher) if p)
        rest.append(_sentence(f"{imprint}, {date}" if imprint else date))
    if ref.date is None and ref.accessed:
        rest.append(f"Accessed {ref.accessed}.")
    if ref.url:
        rest.append(ref.url + ".")
    pieces.append((" ".join(rest), False))
    return pieces


def plain(pieces: list[Piece]) -> str:
    """A citation's text without its italics (what a copy button or a terminal gives)."""
    return "".join(text for text, _ in pieces).strip()


def reference_kind(work: Work) -> ReferenceKind:
    """The kind of entry a work is cited as, the same as its CSL-JSON type and BibTeX entry
    type say: a website's page; an article ``entry`` of a ``container``; else a book (a
    book of games, a reference work cited whole, a teaching card, our reconstruction)."""
    if work.kind == "website":
        return "webpage"
    if _is_entry(work):
        return "entry"
    return "book"


def work_reference(work: Work) -> Reference:
    """A work of the bibliography in the parts of its citation, from the same fields as its
    BibTeX and CSL-JSON: the article and its work for an entry, the first and last year of
    the edition used (none for an undated work), the day it was read online."""
    kind = reference_kind(work)
    dated = dated_years(work)
    return Reference(
        kind=kind,
        names=creators(work),
        title=(work.entry or work.title) if kind == "entry" else work.title,
        container=work.container if kind == "entry" else None,
        edition=work.edition,
        place=work.place,
        publisher=work.publisher,
        date=work.year.replace("-", "–") if dated is not None else None,
        accessed=day_in_words(work.accessed) if work.accessed else None,
        url=work.url,
    )


def citation_pieces(work: Work) -> list[Piece]:
    """The work's Chicago entry, in pieces (:func:`chicago`)."""
    return chicago(work_reference(work))


def citation_text(work: Work) -> str:
    """The entry as plain text: ``Foster, R. F. Foster's Complete Hoyle. … 1897–1909. URL.``"""
    return plain(citation_pieces(work))


# -- BibTeX -------------------------------------------------------------------------------


def _bib_value(text: str) -> str:
    """A field's words, braced, every special character escaped (``rules/escaping.py``)."""
    return "{" + bibtex_text(text) + "}"


def bibtex_title(text: str) -> str:
    """A title braced twice, so that a style keeps its capitals ("Dictionnaire de Trévoux",
    "How to Play Bouillotte") instead of lowering all but the first."""
    return "{" + _bib_value(text) + "}"


_AND = re.compile(r"(?<=\s)and(?=\s)", re.IGNORECASE)
"""The word BibTeX splits a list of names at (any case, between spaces, outside braces)."""


def bibtex_names(names: list[str]) -> str:
    """Names for a BibTeX ``author`` or ``editor`` field."""
    # A body's name is braced so that BibTeX does not split it into given and family names;
    # an "and" inside a person's name ("Smith and Jones, John") is braced so that it does
    # not split it into two people.
    return " and ".join(
        _AND.sub("{\\g<0>}", bibtex_text(name))
        if _is_person(name)
        else "{" + bibtex_text(name) + "}"
        for name in names
    )


def _bibtex_creators(found: Creators) -> str:
    if found.as_written:  # one name, braced whole: never split at "and" nor at a comma
        return "{{" + bibtex_text(found.names[0]) + "}}"
    return "{" + bibtex_names(found.names) + "}"


def bibtex_key(work_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9:_-]", "", work_id)


def dated_years(work: Work) -> tuple[int, int] | None:
    """The first and last year of the edition used, when the work is dated to the year:
    ``None`` for "undated (modern)" and for a decade only ("undated (2020s)", "2010s-2020s"),
    which the exports leave undated (a style prints "n.d.", as BibLaTeX does when a work
    has no date). Unlike :func:`years`, a decade does not count as its first year; as there,
    a year in a note in brackets does not date the work."""
    found = [
        int(y) for y in re.findall(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?![\ds])", dating_text(work.year))
    ]
    if not found:
        return None
    return found[0], found[-1]


def _is_entry(work: Work) -> bool:
    """An article of a dictionary or encyclopaedia cited in the work it is part of."""
    return bool(work.entry and work.container)


def bibtex_type(work: Work) -> str:
    """The entry type: ``@book`` for a book of games and for a reference work cited whole
    under its editors; ``@incollection`` for an article of a dictionary or encyclopaedia
    by named authors (a body counts); ``@online`` for a website; ``@misc`` for a teaching
    card, our own reconstruction, a reference work that names neither author nor editor,
    and a book of games that lacks what a ``@book`` needs: a name (its author unknown), a
    publisher or a year (an unpublished sheet of house rules; BibTeX's ``@book`` and
    ``@incollection`` need a name, and pybtex's styles a book's publisher and year)."""
    if work.kind == "rulebook":
        whole = cited_creators(work) is not None and work.publisher and dated_years(work)
        return "book" if whole else "misc"
    if work.kind == "website":
        return "online"
    if work.kind in ("dictionary", "encyclopaedia"):
        if work.authors and _is_entry(work):
            return "incollection"
        if work.authors or work.editors:
            return "book"
    return "misc"


def bibtex_edition(work: Work) -> str | None:
    """The edition as BibTeX styles want it, an ordinal they follow with "edition"
    ("11th"): only an edition stated as ``<ordinal> edition``; any other wording (a
    revision, an uncertain edition) is left out of the BibTeX entry."""
    found = re.match(r"(\d+(?:st|nd|rd|th)) edition\b", work.edition or "")
    return found.group(1) if found else None


def bibtex_entry(work_id: str, work: Work) -> str:
    """One work as a BibTeX (and BibLaTeX) entry: the names, title, edition, numeric
    ``year`` (and ``date``, ``1897/1909``, for a range), place, publisher, language,
    address and ``urldate``; no note."""
    kind = bibtex_type(work)
    fields: list[tuple[str, str]] = []
    named = cited_creators(work)
    if named is not None:
        fields.append((named.role, _bibtex_creators(named)))
    if kind == "incollection":
        fields.append(("title", bibtex_title(work.entry or work.title)))
        fields.append(("booktitle", bibtex_title(work.container or work.title)))
    else:
        fields.append(("title", bibtex_title(work.title)))
    edition = bibtex_edition(work)
    if edition:
        fields.append(("edition", _bib_value(edition)))
    dated = dated_years(work)
    if dated is not None:
        first, last = dated
        fields.append(("year", f"{{{first}}}"))
        if last != first:
            fields.append(("date", f"{{{first}/{last}}}"))
    if work.place:
        fields.append(("address", _bib_value(work.place)))
    if work.publisher:
        fields.append(("publisher", _bib_value(work.publisher)))
    if kind == "misc" and work.kind == "teaching-card":
        fields.append(("howpublished", _bib_value("Teaching card")))
    elif kind == "misc" and (work.place or work.publisher):  # @misc prints neither
        imprint = ": ".join(p for p in (work.place, work.publisher) if p)
        fields.append(("howpublished", _bib_value(imprint)))
    fields.append(("language", _bib_value(LANGUAGE_NAMES.get(work.language, work.language))))
    if work.url:
        fields.append(("url", "{" + bibtex_url(work.url) + "}"))
        if work.accessed:
            fields.append(("urldate", _bib_value(work.accessed)))
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@{kind}{{{bibtex_key(work_id)},\n{body}\n}}\n"


def bibtex(works: Mapping[str, Work]) -> str:
    """The bibliography as a BibTeX file (UTF-8), one entry per work, by id."""
    return "\n".join(bibtex_entry(work_id, work) for work_id, work in sorted(works.items()))


# -- CSL-JSON -----------------------------------------------------------------------------


def csl_name(name: str) -> dict[str, str]:
    """A name as CSL-JSON gives it: family and given, or a body's literal name."""
    if not _is_person(name):
        return {"literal": csl_text(name)}
    family, given, suffix = (csl_text(part) for part in _parts(name))
    return {"family": family, "given": given, **({"suffix": suffix} if suffix else {})}


def _csl_day(day: str) -> dict[str, Any]:
    return {"date-parts": [[int(part) for part in day.split("-")]]}


def csl_item(work_id: str, work: Work) -> dict[str, Any]:
    """One work as a CSL-JSON item (the format of Zotero and citeproc): an article of a
    reference work has the entry as its ``title`` and the work as ``container-title``; an
    undated work has no ``issued`` (styles print "n.d."); a work read online has the day
    it was read as ``accessed``."""
    item: dict[str, Any] = {
        "id": csl_text(work_id),
        "type": CSL_TYPES[work.kind],
        "language": csl_text(work.language),
    }
    if _is_entry(work):
        item["title"] = csl_text(work.entry or "")
        item["container-title"] = csl_text(work.container or "")
    else:
        item["title"] = csl_text(work.title)
    named = cited_creators(work)
    if named is not None and named.as_written:
        item[named.role] = [{"literal": csl_text(named.names[0])}]
    elif named is not None:
        item[named.role] = [csl_name(n) for n in named.names]
    dated = dated_years(work)
    if dated is not None:
        first, last = dated
        item["issued"] = {"date-parts": [[first], [last]] if last != first else [[first]]}
    for key, value in (
        ("edition", work.edition),
        ("publisher-place", work.place),
        ("publisher", work.publisher),
        ("URL", work.url),
    ):
        if value:
            item[key] = csl_text(value)
    if work.url and work.accessed:
        item["accessed"] = _csl_day(work.accessed)
    return item


def csl_json(works: Mapping[str, Work]) -> list[dict[str, Any]]:
    """The bibliography as CSL-JSON items, by id."""
    return [csl_item(work_id, work) for work_id, work in sorted(works.items())]
