"""The kinds of page of a built site, and the pages the everyday axe check picks, one of each.

The site builder writes a page of a family as ``FOLDER/ID.html`` (``site/ids.py``:
``variants/foster.html``, ``compare/foster--pagat.html``, ``scenarios/foster-sight.html``,
``texts/foster.html``, ``sheets/foster.html``) and every page of its own kind at the top
(``matrix.html``, ``every-rule.html``) or as a folder's ``index.html``
(``compare/index.html``). So a page's kind is read from its name alone (:func:`page_kind`),
and a new kind of page, in a folder of its own or at the top, is a new kind here without a
word changed. ``tests/browser/test_page_kinds.py`` checks that these kinds are the builder's
own (each kind rendered with one template, every template in a kind) and that
:func:`kind_pages` holds a page of every one.

No Playwright here: the check of the kinds runs without a browser.
"""

from __future__ import annotations

from pathlib import Path

CHOSEN = (
    "index.html",
    "matrix.html",
    "variants/foster.html",
    "compare/index.html",
    "compare/foster--pagat.html",
    "sheets/foster.html",
    "scenarios/index.html",
    "scenarios/foster-sight.html",
    "scenarios/all-in-opening.html",
    "readings.html",
    "statistics.html",
    "sources.html",
    "history.html",
    "texts/foster.html",
    "glossary.html",
    "search.html?q=favori",
    "404.html",
)
"""The page that stands for its kind where the site has it: Foster's where a kind has one
page per system or work, the pair page of the two most different systems (the longest
page), a second scenario page (one that a system refuses, shown in one cell), and the search
page with results, so that its highlights are checked. A kind none of these stands for (a
new one) is stood for by its first page (:func:`kind_pages`)."""


def site_pages(site: Path) -> list[str]:
    """Every page of a built site, by its name relative to the site's root, sorted."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def page_kind(name: str) -> str:
    """``FOLDER/*`` for a page of a family (a folder's page other than its ``index.html``),
    else the page's own name; a query (``search.html?q=favori``) is not part of it."""
    path = name.partition("?")[0]
    folder, slash, file = path.rpartition("/")
    return f"{folder}/*" if slash and file != "index.html" else path


def page_kinds(site: Path) -> dict[str, list[str]]:
    """Each kind of page of a built site (:func:`page_kind`), with its pages, sorted."""
    kinds: dict[str, list[str]] = {}
    for name in site_pages(site):
        kinds.setdefault(page_kind(name), []).append(name)
    return kinds


def kind_pages(site: Path, chosen: tuple[str, ...] = CHOSEN) -> list[str]:
    """At least one page of every kind of the site: each page of ``chosen`` that the site
    has (the page itself, without its query), then the first page of each kind that none of
    them stands for."""
    names = set(site_pages(site))
    picked = [n for n in chosen if n.partition("?")[0] in names]
    covered = {page_kind(n) for n in picked}
    for kind, pages in page_kinds(site).items():
        if kind not in covered:
            picked.append(pages[0])
    return picked
