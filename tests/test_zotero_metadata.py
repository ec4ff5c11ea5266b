"""What Zotero's browser connector reads from the built pages (issue 50, item 1).

Every page is parsed as Zotero's "Embedded Metadata" translator reads it: Highwire Press
``citation_*`` tags by exact name from ``/html/head/meta`` (lxml, as the translator's
XPath), Dublin Core and OpenGraph with ``extruct`` (a maintained parser of both, the same
reading as the translator's RDF import: ``DC.`` and ``og:`` by their known prefixes). The
item type follows the translator's order: OpenGraph's type where it names one (``website``
is a web page, ``book`` a book), else ``DC.type`` where it names a Zotero item type, else
its fallback for a page with ``citation_title``: a journal article (which would be wrong
for every page here). The title is ``citation_title``, the authors each
``citation_author``, the date ``citation_date``, the URL ``citation_public_url`` (else the
address the page was read at). The sources page's COinS spans are read as Zotero's COinS
translator reads an OpenURL context object.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

import extruct  # type: ignore[import-untyped]
import pytest
from lxml import html as lxml_html  # type: ignore[import-untyped]

from bouillotte.rules.profiles import Library
from bouillotte.site import build_site

pytestmark = pytest.mark.slow  # builds the whole site

BASE = "https://example.org/bouillotte/"
ZOTERO_TYPES = {"webpage", "book", "bookSection", "encyclopediaArticle", "dictionaryEntry",
                "document", "journalArticle"}  # fmt: skip
"""The Zotero item types a ``DC.type`` here may name (``ZU.itemTypeExists``)."""


def _expected_type(kind: str, is_entry: bool) -> str:
    """The Zotero item type each kind of work is, worked out from the kinds themselves."""
    if kind == "website":
        return "webpage"
    if kind == "rulebook":
        return "book"
    if kind in ("teaching-card", "reconstruction"):
        return "document"
    assert is_entry, kind  # every bundled dictionary and encyclopaedia is cited by its article
    return "dictionaryEntry" if kind == "dictionary" else "encyclopediaArticle"


def zotero_reads(page: str, address: str) -> dict[str, Any]:
    """The fields the Embedded Metadata translator takes from a page."""
    tree = lxml_html.fromstring(page)

    def highwire(name: str) -> list[str]:
        return [str(v) for v in tree.xpath(f'/html/head/meta[@name="{name}"]/@content')]

    found = extruct.extract(
        page, base_url=address, syntaxes=["dublincore", "opengraph"], uniform=False
    )
    dc: dict[str, list[str]] = {}
    for block in found["dublincore"]:
        for element in block["elements"] + block["terms"]:
            dc.setdefault(element["name"], []).append(element["content"])
    og = dict(prop for block in found["opengraph"] for prop in block["properties"])
    item_type = {"website": "webpage", "book": "book"}.get(og.get("og:type", ""))
    if item_type is None and dc.get("DC.type", [""])[0] in ZOTERO_TYPES:
        item_type = dc["DC.type"][0]
    if item_type is None and highwire("citation_title"):
        item_type = "journalArticle"  # the translator's guess from citation_title alone
    date = highwire("citation_date") or highwire("citation_publication_date")
    title = highwire("citation_title")
    publisher = highwire("citation_publisher")
    return {
        "type": item_type,
        "title": title[0] if title else None,
        "authors": highwire("citation_author"),
        "date": date[0] if date else None,
        "url": (highwire("citation_public_url") or [address])[0],
        "publisher": publisher[0] if publisher else None,
        "dc": dc,
        "og": og,
    }


@pytest.fixture(scope="module")
def cited_site(tmp_path_factory: pytest.TempPathFactory, site: Path) -> Path:
    """The bundled site with an editor's configuration: a base URL and an edition date
    (built after ``site``, whose results it reads from the cache)."""
    del site
    folder = tmp_path_factory.mktemp("cited")
    config = folder / "site.yaml"
    config.write_text(
        f"editors: [The bouillotte project]\nbase_url: {BASE}\nedition_date: 2027-03-04\n",
        encoding="utf-8",
    )
    build_site(folder / "out", config_file=config)
    return folder / "out"


def _pages(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))


def test_every_page_gives_zotero_its_title_authors_date_and_url(cited_site: Path) -> None:
    pages = [p for p in _pages(cited_site) if not p.startswith("texts/")]
    assert len(pages) > 100
    for path in pages:
        page = (cited_site / path).read_text("utf-8")
        read = zotero_reads(page, f"file://{cited_site / path}")
        shown = re.search(r"<title>(.*?) · ", page)
        assert shown is not None, path
        title = lxml_html.fromstring(f"<p>{shown.group(1)}</p>").text_content()
        assert read["type"] == "webpage", path
        assert read["title"] == title, path
        assert read["authors"] == ["The bouillotte project"], path
        assert read["date"] == "2027-03-04", path
        assert read["url"] == BASE + quote(path), path
        assert read["dc"]["DC.title"] == [title] and read["dc"]["DC.date"] == ["2027-03-04"]
        assert read["dc"]["DC.creator"] == ["The bouillotte project"], path
        assert read["og"]["og:url"] == read["url"] and read["og"]["og:type"] == "website"
        assert read["og"]["og:description"], path  # a link preview's text


def test_each_source_texts_page_describes_its_work(cited_site: Path, library: Library) -> None:
    texts = [p for p in _pages(cited_site) if p.startswith("texts/")]
    assert len(texts) >= 10
    for path in texts:
        work = library.works[path.removeprefix("texts/").removesuffix(".html")]
        read = zotero_reads((cited_site / path).read_text("utf-8"), BASE + path)
        entry = bool(work.entry and work.container)
        assert read["type"] == _expected_type(work.kind, entry), path
        assert read["title"] == (work.entry if entry else work.title), path
        assert read["authors"] == work.authors, path  # editors are not the article's authors
        first = re.search(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?![\ds])", work.year)
        assert read["date"] == (first.group(1) if first else None), path
        assert read["url"] == (work.url or BASE + path), path  # the work's address
        assert read["publisher"] == work.publisher, path
        if entry:
            assert read["dc"]["DC.relation.isPartOf"] == [work.container], path
    britannica = zotero_reads((cited_site / "texts/britannica-1911.html").read_text(), BASE)
    assert britannica["type"] == "encyclopediaArticle" and britannica["title"] == "Bouillotte"
    foster = zotero_reads((cited_site / "texts/foster.html").read_text(), BASE)
    assert (foster["type"], foster["authors"], foster["date"]) == (
        "book",
        ["Foster, R. F."],
        "1897",
    )


def _openurl(fields: list[tuple[str, str]]) -> dict[str, Any]:
    """An OpenURL context object as Zotero's COinS translator reads it (its OpenURL parse:
    the item type from ``rft_val_fmt`` and ``rft.genre`` or ``rft.type``, the title from
    ``rft.btitle``, ``rft.atitle`` or ``rft.title`` as the type asks)."""
    keys: dict[str, list[str]] = {}
    for key, value in fields:
        keys.setdefault(key, []).append(value)
    fmt = keys["rft_val_fmt"][0]
    genre = keys.get("rft.genre", [""])[0]
    if fmt == "info:ofi/fmt:kev:mtx:book":
        item_type = {"bookitem": "bookSection", "document": "document"}.get(genre, "book")
    elif fmt == "info:ofi/fmt:kev:mtx:dc":
        item_type = keys.get("rft.type", ["webpage"])[0]
    else:
        item_type = "?"
    if item_type == "book":
        title = keys.get("rft.btitle", [None])[0]
    elif item_type == "bookSection":
        title = keys.get("rft.atitle", [None])[0]
    else:
        title = keys.get("rft.title", [None])[0]
    authors = [v for k, v in fields if k in ("rft.au", "rft.aucorp", "rft.creator")]
    return {
        "type": item_type,
        "title": title,
        "container": keys.get("rft.btitle", [None])[0] if item_type == "bookSection" else None,
        "authors": authors,
        "date": keys.get("rft.date", [None])[0],
        "url": keys.get("rft_id", [None])[0],
    }


def test_the_sources_page_has_a_coins_span_per_work(site: Path, library: Library) -> None:
    tree = lxml_html.fromstring((site / "sources.html").read_text("utf-8"))
    spans = tree.xpath('//span[@class="Z3988"]')
    assert len(spans) == len(library.works)
    read = [_openurl(parse_qsl(span.get("title"), strict_parsing=True)) for span in spans]
    for span in spans:
        assert span.get("aria-hidden") == "true" and not span.text_content()
    for (work_id, work), got in zip(sorted(library.works.items()), read, strict=True):
        entry = bool(work.entry and work.container)
        assert got["title"] == (work.entry if entry else work.title), work_id
        expected = _expected_type(work.kind, entry)
        # COinS has no dictionary or encyclopaedia article: it is a section of its book
        assert got["type"] == ("bookSection" if entry else expected)
        if entry:
            assert got["container"] == work.container
        assert got["authors"] == work.authors
        first = re.search(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?![\ds])", work.year)
        assert got["date"] == (first.group(1) if first else None)
        assert got["url"] == work.url


def test_the_bundled_site_is_dated_by_its_release_and_has_no_address(site: Path) -> None:
    """The newcomer's build (no site.yaml) is the release's edition: Zotero reads the
    release date (CITATION.cff's, checked in test_package_metadata), and no address, since
    none was given. An editor's site without a date says none (test_page_citation)."""
    from bouillotte.site.siteconfig import RELEASED

    read = zotero_reads((site / "index.html").read_text("utf-8"), f"file://{site}/index.html")
    assert read["type"] == "webpage" and read["title"].startswith("Bouillotte")
    assert read["date"] == RELEASED.isoformat() == read["dc"]["DC.date"][0]
    assert read["url"] == f"file://{site}/index.html"  # Zotero keeps where it was read
    assert "og:url" not in read["og"]


def test_404_robots_sitemap_and_favicon(cited_site: Path, site: Path) -> None:
    """Site basics (issue 50, item 7): a 404 page whose links hold at any depth with a base
    URL, robots.txt naming the sitemap, the sitemap of every page, a favicon from the site."""
    not_found = lxml_html.fromstring((cited_site / "404.html").read_text("utf-8"))
    assert not_found.xpath("//base/@href") == [BASE]
    assert not_found.xpath("//h1")[0].text_content() == "Page not found"
    assert "index.html" in not_found.xpath("//main//a/@href")
    assert not not_found.xpath('//*[@id="cite-this"]')  # nothing to cite
    assert (cited_site / "robots.txt").read_text() == (
        f"User-agent: *\nAllow: /\n\nSitemap: {BASE}sitemap.xml\n"
    )
    sitemap = (cited_site / "sitemap.xml").read_text("utf-8")
    pages = [p for p in _pages(cited_site) if p != "404.html"]
    assert re.findall(r"<loc>(.*?)</loc>", sitemap) == [BASE + quote(p) for p in pages]
    # without a base URL: no sitemap (it lists full addresses), and robots.txt says why
    assert not (site / "sitemap.xml").exists()
    assert "No sitemap" in (site / "robots.txt").read_text()
    assert not lxml_html.fromstring((site / "404.html").read_text("utf-8")).xpath("//base")
    for root, path in ((site, "index.html"), (site, "texts/foster.html")):
        tree = lxml_html.fromstring((root / path).read_text("utf-8"))
        (icon,) = tree.xpath('/html/head/link[@rel="icon"]/@href')
        assert (root / path).parent.joinpath(icon).resolve() == (root / "assets/favicon.svg")
    assert (site / "assets/favicon.svg").read_text().startswith("<svg")
