"""What a reference manager or a link preview reads from a page's ``<head>``, and the COinS
spans of the sources page: the same fields as "Cite this page" (``citation.py``) and the
bibliography (``rules/bibliography.py``), in the formats Zotero's browser connector reads.

Zotero's "Embedded Metadata" translator reads Highwire Press ``citation_*`` tags (title,
authors, date, publisher, language, ``citation_public_url``) and, through its RDF importer,
Dublin Core ``DC.*`` and OpenGraph ``og:*`` tags; the item type is OpenGraph's where it
names one (``website``: a web page; ``book``), else ``DC.type`` when it names a Zotero item
type (``encyclopediaArticle``, ``dictionaryEntry``, ``document``). Every page of the site
describes itself as a web page of the site; a shipped text's page (``texts/<work>.html``)
describes the work it transcribes, so that saving it files the work, not our page. Its
"COinS" translator reads a ``<span class="Z3988">`` holding an OpenURL context object: the
sources page has one per work.

Zotero has no editor for a web page (its creators are authors): a site's editors are
given as its ``citation_author``. A work's editors are not (they did not write the
article), and COinS, which has no editor key, leaves them out too.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from markupsafe import Markup

from ..rules.bibliography import CSL_TYPES, dated_years, reference_kind
from ..rules.citations import Work
from .edition import Edition
from .page import Page
from .siteconfig import SiteConfig

ZOTERO_TYPES: dict[str, str] = {
    "book": "book",
    "entry-dictionary": "dictionaryEntry",
    "entry-encyclopedia": "encyclopediaArticle",
    "webpage": "webpage",
    "document": "document",
}
"""Each CSL-JSON type of the bibliography (``CSL_TYPES``) as the Zotero item type that
``DC.type`` names."""

OG_TYPES: dict[str, str] = {"book": "book", "webpage": "website"}
"""OpenGraph's type for a Zotero item type it can name (any other is an ``article``, which
Zotero only guesses from, so that ``DC.type`` decides)."""

DESCRIPTIONS: dict[str, str] = {
    "home.html": "The historical rule systems of the card game Bouillotte, compared rule by "
    "rule, each rule cited from its source, each deal played by one engine.",
    "variant.html": "Every rule of {title}, in words, each with the sentence of its source.",
    "matrix.html": "Every rule of every system side by side, with where each value comes from.",
    "pairs.html": "Every pair of systems: the rules on which they differ and the deals that "
    "end differently.",
    "scenarios.html": "Deals worked by hand from the sources, each played under every system.",
    "scenario.html": "{title}: the deal, played under every system side by side, and the "
    "rules responsible where they differ.",
    "statistics.html": "Exact odds and simulated play under each system.",
    "sources.html": "The works the rules cite, each in the Chicago style, with BibTeX and "
    "CSL-JSON to download.",
    "text.html": "The passages of {title} that the site quotes, each paragraph anchored, "
    "with the rules that cite it.",
    "glossary.html": "The words of the game, each with a quotation from a source.",
    "search.html": "Search the rules, systems, scenarios and texts.",
    "sheet.html": "A printable rule sheet of {title}.",
    "not-found.html": "No page at this address.",
}
"""A page's description where its builder gives none, by its template."""


@dataclass(frozen=True)
class Described:
    """What a page's metadata says it is."""

    item_type: str
    """A Zotero item type: ``webpage``, ``book``, ``encyclopediaArticle``..."""
    title: str
    authors: list[str]
    """Each as ``Family, Given``, or a body's name."""
    date: str | None
    """ISO 8601: a day, a year, or two years ``1897/1909``."""
    url: str | None
    publisher: str | None
    container: str | None
    """The site a page is part of, or the reference work an article is in."""
    language: str
    description: str


def description(site: SiteConfig, page: Page) -> str:
    """The page's own description, else its kind's, else its title and the site's."""
    if page.description:
        return page.description
    found = DESCRIPTIONS.get(page.template)
    if found is None:
        return f"{page.title}: a page of {site.title}."
    return found.replace("{title}", page.title)


def page_url(site: SiteConfig, page: Page) -> str | None:
    return site.base_url + quote(page.path) if site.base_url else None


def _work_date(work: Work) -> str | None:
    dated = dated_years(work)
    if dated is None:
        return None
    first, last = dated
    return str(first) if first == last else f"{first}/{last}"


def describe(site: SiteConfig, edition: Edition, page: Page) -> Described:
    """The page as a web page of the site, or, for a shipped text's page, its work."""
    work = page.context.get("described_work")
    if isinstance(work, Work):
        kind = reference_kind(work)
        return Described(
            item_type=ZOTERO_TYPES[CSL_TYPES[work.kind]],
            title=(work.entry or work.title) if kind == "entry" else work.title,
            authors=list(work.authors),
            date=_work_date(work),
            url=work.url,
            publisher=work.publisher,
            container=work.container if kind == "entry" else None,
            language=work.language,
            description=description(site, page),
        )
    return Described(
        item_type="webpage",
        title=page.title,
        authors=list(site.authors or site.editors),
        date=edition.date,
        url=page_url(site, page),
        publisher=None,
        container=site.title,
        language=site.language,
        description=description(site, page),
    )


def head_tags(site: SiteConfig, edition: Edition, page: Page) -> list[tuple[str, str, str]]:
    """The ``<meta>`` tags of the page's head, as (attribute, its value, content): the
    description, Highwire Press, Dublin Core and OpenGraph, each field once (an author per
    tag)."""
    d = describe(site, edition, page)
    tags: list[tuple[str, str, str]] = [("name", "description", d.description)]
    tags.append(("name", "citation_title", d.title))
    tags.extend(("name", "citation_author", a) for a in d.authors)
    if d.date:
        tags.append(("name", "citation_date", d.date.split("/")[0]))
    if d.publisher:
        tags.append(("name", "citation_publisher", d.publisher))
    tags.append(("name", "citation_language", d.language))
    if d.url:
        tags.append(("name", "citation_public_url", d.url))
    tags.append(("name", "DC.title", d.title))
    tags.extend(("name", "DC.creator", a) for a in d.authors)
    if d.date:
        tags.append(("name", "DC.date", d.date))
    tags.append(("name", "DC.type", d.item_type))
    if d.publisher:
        tags.append(("name", "DC.publisher", d.publisher))
    if d.container:
        tags.append(("name", "DC.relation.isPartOf", d.container))
    tags.append(("name", "DC.language", d.language))
    if d.url:
        tags.append(("name", "DC.identifier", d.url))
    tags.append(("name", "DC.description", d.description))
    tags.append(("property", "og:type", OG_TYPES.get(d.item_type, "article")))
    tags.append(("property", "og:title", d.title))
    tags.append(("property", "og:description", d.description))
    tags.append(("property", "og:site_name", site.title))
    own = page_url(site, page)  # the page's own address, even where it describes a work
    if own:
        tags.append(("property", "og:url", own))
    return tags


def head_html(site: SiteConfig, edition: Edition, page: Page) -> Markup:
    """The tags of :func:`head_tags` as HTML. No ``<link rel="schema.DC">``: Zotero and
    Dublin Core readers know the ``DC.`` prefix, and the page names no address it would not
    load (the site is offline)."""
    return Markup("\n").join(
        Markup('<meta {}="{}" content="{}">').format(attribute, key, value)
        for attribute, key, value in head_tags(site, edition, page)
    )


def coins_fields(work: Work) -> list[tuple[str, str]]:
    """The work as an OpenURL 1.0 context object (Z39.88-2004, KEV), as Zotero's COinS
    translator reads it: a book (``rft.genre=book``, its title ``rft.btitle``), an article
    of a reference work (``bookitem``: ``rft.atitle`` in ``rft.btitle``), a document, or a
    web page (the Dublin Core format, ``rft.type=webpage``)."""
    kind = reference_kind(work)
    item_type = ZOTERO_TYPES[CSL_TYPES[work.kind]]
    fields: list[tuple[str, str]] = [("ctx_ver", "Z39.88-2004")]
    webpage = kind == "webpage"
    if webpage:
        fields.append(("rft_val_fmt", "info:ofi/fmt:kev:mtx:dc"))
        fields.append(("rft.type", "webpage"))
        fields.append(("rft.title", work.title))
    else:
        fields.append(("rft_val_fmt", "info:ofi/fmt:kev:mtx:book"))
        if kind == "entry":
            fields.append(("rft.genre", "bookitem"))
            fields.append(("rft.atitle", work.entry or work.title))
            fields.append(("rft.btitle", work.container or work.title))
        elif item_type == "document":
            fields.append(("rft.genre", "document"))
            fields.append(("rft.title", work.title))
        else:
            fields.append(("rft.genre", "book"))
            fields.append(("rft.btitle", work.title))
    for name in work.authors:
        if "," in name:
            fields.append(("rft.au", name))
        else:  # a body: "aucorp" keeps it one name
            fields.append(("rft.creator" if webpage else "rft.aucorp", name))
    date = _work_date(work)
    if date:
        fields.append(("rft.date", date.split("/")[0]))
    if not webpage:
        if work.edition:
            fields.append(("rft.edition", work.edition))
        if work.place:
            fields.append(("rft.place", work.place))
        if work.publisher:
            fields.append(("rft.pub", work.publisher))
    elif work.publisher:
        fields.append(("rft.publisher", work.publisher))
    fields.append(("rft.language", work.language))
    if work.url:
        fields.append(("rft_id", work.url))
    return fields


def coins(work: Work) -> Markup:
    """The work's COinS span: empty, and hidden from readers and assistive technology."""
    return Markup('<span class="Z3988" title="{}" aria-hidden="true"></span>').format(
        urlencode(coins_fields(work), quote_via=quote)
    )
