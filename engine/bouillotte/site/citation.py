""" "Cite this page": each page's citation in the Chicago style, as BibTeX and as CSL-JSON,
from the site's configuration (its editors or authors, title, edition date and base URL)
and the build's edition.

A page is cited as a web page of the site (Chicago 17, 14.206): the site's authors, or its
editors marked "ed."/"eds.", the page's title in quotation marks, the site's title, the
version and edition date, and the page's address. The address is absolute only when the
configuration gives a ``base_url``; without one the citation says so instead of printing a
path that leads nowhere. No access date is given: the page has a date of its own (its
edition), which Chicago takes instead, and a static page cannot know the day it is read;
the reader adds one where a style asks for it (docs/site.md, "Citing a page").
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from ..rules.bibliography import (
    Piece,
    Reference,
    bibtex_key,
    bibtex_names,
    bibtex_title,
    chicago,
    chicago_names,
    csl_name,
    day_in_words,
    plain,
)
from ..rules.escaping import bibtex_text, bibtex_url, csl_text
from .edition import Edition
from .page import Page
from .siteconfig import SiteConfig


@dataclass(frozen=True)
class PageCitation:
    creators: str
    """The names the citation opens with (``The bouillotte project, ed.``), or empty."""
    page_title: str
    site_title: str
    version: str
    day: str | None
    """The edition date in words (``December 1, 2026``), or ``None`` when none is known."""
    url: str | None
    """The page's absolute address, or ``None`` without a base URL."""
    path: str
    bibtex: str
    csl_json: str

    @property
    def pieces(self) -> list[Piece]:
        """The page as a web page of the site, in the one Chicago formatter of every
        citation (``rules/bibliography.chicago``): the page's title in quotation marks,
        the site's in roman (14.206), the version and the edition's date ("n.d." without
        one), the address."""
        return chicago(
            Reference(
                kind="webpage",
                names=self.creators,
                title=self.page_title,
                container=self.site_title,
                edition=f"Version {self.version}",
                date=self.day,
                url=self.url,
            )
        )

    @property
    def text(self) -> str:
        """The Chicago citation as plain text (what the copy button copies)."""
        return plain(self.pieces)

    @property
    def html(self) -> Markup:
        return pieces_html(self.pieces)


def pieces_html(pieces: list[Piece]) -> Markup:
    """A citation's pieces as HTML: an italic piece is a title, set in ``<cite>``; the rest
    is text, escaped."""
    return (
        Markup("")
        .join(
            Markup("<cite>{}</cite>").format(text) if italic else escape(text)
            for text, italic in pieces
        )
        .strip()
    )


def creators(config: SiteConfig) -> str:
    if config.authors:
        return chicago_names(config.authors, invert_first=True)
    if config.editors:
        mark = "ed." if len(config.editors) == 1 else "eds."
        return f"{chicago_names(config.editors, invert_first=True)}, {mark}"
    return ""


def edition_day(config: SiteConfig, edition: Edition) -> date | None:
    """The configuration's ``edition_date``, else ``SOURCE_DATE_EPOCH``'s (``edition.py``);
    never the clock, never the tool's own commit."""
    if config.edition_date is not None:
        return config.edition_date
    return date.fromisoformat(edition.date) if edition.date else None


def page_key(config: SiteConfig, page: Page) -> str:
    """The citation key: the site's title and the page's path, as letters and dashes; a
    title with no letter a-z or digit (``Бульот 日本``) is named by a short hash of it
    (``site-6bef23bb`` for ``Бульот 日本``), so that two such sites never share their keys."""
    stem = page.path.removesuffix(".html").replace("/", "-")
    site = bibtex_key("-".join(config.title.lower().split()))
    if not re.search("[a-z0-9]", site):
        title = unicodedata.normalize("NFC", config.title).strip()
        site = "site-" + hashlib.sha256(title.encode("utf-8")).hexdigest()[:8]
    return bibtex_key(f"{site}:{stem}")


def page_bibtex(config: SiteConfig, edition: Edition, page: Page, url: str | None) -> str:
    """The page as a BibLaTeX ``@online`` entry (pybtex's ``plain`` formats it too)."""
    fields: list[tuple[str, str]] = []
    if config.authors:
        fields.append(("author", "{" + bibtex_names(config.authors) + "}"))
    elif config.editors:
        fields.append(("editor", "{" + bibtex_names(config.editors) + "}"))
    fields.append(("title", bibtex_title(page.title)))
    fields.append(("organization", bibtex_title(config.title)))
    fields.append(("howpublished", bibtex_title(config.title)))
    fields.append(("version", "{" + bibtex_text(edition.version) + "}"))
    day = edition_day(config, edition)
    if day is not None:
        fields.append(("year", f"{{{day.year}}}"))
        fields.append(("date", "{" + day.isoformat() + "}"))
    fields.append(("language", "{" + bibtex_text(config.language) + "}"))
    if url:
        fields.append(("url", "{" + bibtex_url(url) + "}"))
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@online{{{page_key(config, page)},\n{body}\n}}\n"


def page_csl(config: SiteConfig, edition: Edition, page: Page, url: str | None) -> dict[str, Any]:
    """The page as a CSL-JSON item (``webpage``, its site as ``container-title``)."""
    item: dict[str, Any] = {
        "id": page_key(config, page),
        "type": "webpage",
        "title": csl_text(page.title),
        "container-title": csl_text(config.title),
        "version": csl_text(edition.version),
        "language": csl_text(config.language),
    }
    if config.authors:
        item["author"] = [csl_name(n) for n in config.authors]
    elif config.editors:
        item["editor"] = [csl_name(n) for n in config.editors]
    day = edition_day(config, edition)
    if day is not None:
        item["issued"] = {"date-parts": [[day.year, day.month, day.day]]}
    if url:
        item["URL"] = url
    return item


def page_citation(config: SiteConfig, edition: Edition, page: Page) -> PageCitation:
    url = config.base_url + quote(page.path) if config.base_url else None
    day = edition_day(config, edition)
    words = day_in_words(day.isoformat()) if day else None
    csl = json.dumps([page_csl(config, edition, page, url)], ensure_ascii=False, indent=2)
    return PageCitation(
        creators=creators(config),
        page_title=page.title,
        site_title=config.title,
        version=edition.version,
        day=words,
        url=url,
        path=page.path,
        bibtex=page_bibtex(config, edition, page, url),
        csl_json=csl,
    )
