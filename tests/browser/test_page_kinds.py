"""The everyday axe check (``test_pages.py``) sees a page of every kind the site has.

The kinds are read from the pages' names (``kinds.py``); here they are held against the
site builder's own pages and the template each is rendered with, so that a kind of page
the builder adds, or a second template inside a folder, cannot go unchecked by axe. No
browser: these run where Chromium is missing too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.site.builder import NOT_FOUND
from bouillotte.site.inputs import collect
from bouillotte.site.page import quiet
from bouillotte.site.pages import all_pages

from .kinds import CHOSEN, kind_pages, page_kind, page_kinds, site_pages


@pytest.mark.slow  # the bundled site built (conftest's ``site``), its pages made again
def test_axe_checks_a_page_of_every_kind_the_builder_makes(site: Path, warm_cache: Path) -> None:
    inputs = collect([], [], quiet, early_statistics=True)  # the build's own results, cached
    try:
        template = {page.path: page.template for page in all_pages(inputs, quiet)}
    finally:
        if inputs.statistics is not None:
            inputs.statistics.close()
    template[NOT_FOUND.path] = NOT_FOUND.template  # rendered beside the pages (builder.py)
    assert sorted(template) == site_pages(site)
    # A kind by name is a kind by template: each is rendered with one template only.
    for kind, names in page_kinds(site).items():
        assert len({template[n] for n in names}) == 1, (kind, {n: template[n] for n in names})
    checked = kind_pages(site)
    assert {template[n.partition("?")[0]] for n in checked} == set(template.values())
    assert {page_kind(n) for n in checked} == set(page_kinds(site))
    # Every page chosen to stand for its kind is one the bundled site has.
    assert checked[: len(CHOSEN)] == list(CHOSEN)
    assert len(set(checked)) == len(checked) < len(template) / 5


def test_a_new_kind_of_page_is_checked_without_a_word_changed(tmp_path: Path) -> None:
    for name in (
        "index.html",
        "search.html",
        "scenarios/index.html",
        "scenarios/b.html",
        "scenarios/a.html",
        "tables/a.html",  # a new family of pages
        "tables/index.html",  # and its index
        "lexicon.html",  # a new page of its own
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<!doctype html>", encoding="utf-8")
    assert page_kinds(tmp_path) == {
        "index.html": ["index.html"],
        "lexicon.html": ["lexicon.html"],
        "scenarios/index.html": ["scenarios/index.html"],
        "scenarios/*": ["scenarios/a.html", "scenarios/b.html"],
        "search.html": ["search.html"],
        "tables/*": ["tables/a.html"],
        "tables/index.html": ["tables/index.html"],
    }
    assert kind_pages(tmp_path) == [
        "index.html",
        "scenarios/index.html",
        "search.html?q=favori",
        "lexicon.html",
        "scenarios/a.html",
        "tables/a.html",
        "tables/index.html",
    ]
    assert kind_pages(tmp_path, chosen=()) == [
        "index.html",
        "lexicon.html",
        "scenarios/a.html",
        "scenarios/index.html",
        "search.html",
        "tables/a.html",
        "tables/index.html",
    ]
