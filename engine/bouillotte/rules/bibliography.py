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
from typing import Any

from .citations import Work

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
    """The first and last year named in ``work.year`` (``None`` for a work with no year)."""
    # "2020s" counts from 2020; "undated (modern)" has no year.
    found = [int(y) for y in re.findall(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", work.year)]
    if not found:
        return None, None
    return found[0], found[-1]


def _is_person(name: str) -> bool:
    return "," in name


def _display(name: str) -> str:
    """``Foster, R. F.`` as ``R. F. Foster``; a body's name as it stands."""
    if not _is_person(name):
        return name
    family, given = (part.strip() for part in name.split(",", 1))
    return f"{given} {family}"


def _names(names: list[str], *, invert_first: bool) -> str:
    shown = [name if (i == 0 and invert_first) else _display(name) for i, name in enumerate(names)]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + ", and " + shown[-1]


def _anonymous_reference(work: Work) -> bool:
    """A dictionary or encyclopaedia that names no author or editor is cited by its title."""
    return not work.authors and not work.editors and work.kind in ("dictionary", "encyclopaedia")


def creators(work: Work) -> str:
    """The names a citation opens with: the authors, or the editors marked ``ed.``/``eds.``,
    or the work's ``author`` line where no names are given (nothing for a reference work
    that names nobody: it is cited by its title)."""
    if work.authors:
        return _names(work.authors, invert_first=True)
    if work.editors:
        mark = "ed." if len(work.editors) == 1 else "eds."
        return f"{_names(work.editors, invert_first=True)}, {mark}"
    return "" if _anonymous_reference(work) else work.author


def citation_parts(work: Work) -> dict[str, str]:
    """A bibliography entry in its parts: ``creators``, ``title`` (to set in italics) and
    ``rest`` (edition, place and publisher, date, address)."""
    rest = []
    if work.edition:
        rest.append(work.edition.rstrip(".") + ".")
    imprint = ": ".join(p for p in (work.place, work.publisher) if p)
    date = work.year.replace("-", "–")
    rest.append(f"{imprint}, {date}." if imprint else f"{date}.")
    if work.url:
        rest.append(work.url + ".")
    return {"creators": creators(work), "title": work.title, "rest": " ".join(rest)}


def citation_text(work: Work) -> str:
    """The entry as plain text: ``Foster, R. F. Foster's Complete Hoyle. … 1897–1909. URL.``"""
    parts = citation_parts(work)
    names = f"{parts['creators'].rstrip('.')}. " if parts["creators"] else ""
    return f"{names}{parts['title']}. {parts['rest']}"


# -- BibTeX -------------------------------------------------------------------------------

_BIBTEX_SPECIAL = str.maketrans({"{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "#": r"\#"})


def _bib_value(text: str) -> str:
    return "{" + " ".join(text.split()).translate(_BIBTEX_SPECIAL) + "}"


def _bib_names(names: list[str]) -> str:
    # A body's name is braced so that BibTeX does not split it into given and family names.
    return " and ".join(name if _is_person(name) else "{" + name + "}" for name in names)


def bibtex_key(work_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9:_-]", "", work_id)


def bibtex(works: Mapping[str, Work]) -> str:
    """The bibliography as a BibTeX file (UTF-8), one entry per work, by id."""
    entries = []
    for work_id, work in sorted(works.items()):
        kind = "book" if work.kind == "rulebook" else "misc"
        fields: list[tuple[str, str]] = []
        if work.authors:
            fields.append(("author", "{" + _bib_names(work.authors) + "}"))
        elif work.editors:
            fields.append(("editor", "{" + _bib_names(work.editors) + "}"))
        elif not _anonymous_reference(work):
            fields.append(("author", "{{" + work.author + "}}"))
        fields.append(("title", _bib_value(work.title)))
        if work.edition:
            fields.append(("edition", _bib_value(work.edition)))
        fields.append(("year", _bib_value(work.year.replace("-", "--"))))
        if work.place:
            fields.append(("address", _bib_value(work.place)))
        if work.publisher:
            fields.append(("publisher", _bib_value(work.publisher)))
        fields.append(("language", _bib_value(LANGUAGE_NAMES.get(work.language, work.language))))
        if work.url:
            fields.append(("url", "{" + work.url + "}"))
        if work.locator_scheme:
            fields.append(("note", _bib_value(f"Cited by {work.locator_scheme}")))
        body = ",\n".join(f"  {name} = {value}" for name, value in fields)
        entries.append(f"@{kind}{{{bibtex_key(work_id)},\n{body}\n}}\n")
    return "\n".join(entries)


# -- CSL-JSON -----------------------------------------------------------------------------


def _csl_name(name: str) -> dict[str, str]:
    if not _is_person(name):
        return {"literal": name}
    family, given = (part.strip() for part in name.split(",", 1))
    return {"family": family, "given": given}


def csl_json(works: Mapping[str, Work]) -> list[dict[str, Any]]:
    """The bibliography as CSL-JSON items (the format of Zotero and citeproc)."""
    items = []
    for work_id, work in sorted(works.items()):
        item: dict[str, Any] = {
            "id": work_id,
            "type": CSL_TYPES[work.kind],
            "title": work.title,
            "language": work.language,
        }
        if work.authors:
            item["author"] = [_csl_name(n) for n in work.authors]
        elif work.editors:
            item["editor"] = [_csl_name(n) for n in work.editors]
        elif not _anonymous_reference(work):
            item["author"] = [{"literal": work.author}]
        first, last = years(work)
        if first is None:
            item["issued"] = {"literal": work.year}
        elif last is not None and last != first:
            item["issued"] = {"date-parts": [[first], [last]]}
        else:
            item["issued"] = {"date-parts": [[first]]}
        for key, value in (
            ("edition", work.edition),
            ("publisher-place", work.place),
            ("publisher", work.publisher),
            ("URL", work.url),
        ):
            if value:
                item[key] = value
        if work.locator_scheme:
            item["note"] = f"Cited by {work.locator_scheme}"
        items.append(item)
    return items
