"""Every page of the site, assembled by page kind (one module per kind)."""

from __future__ import annotations

from ...rules.errors import InputError
from ..everyrule import every_rule_page
from ..inputs import Inputs
from ..page import Log, Page
from .home import home_page
from .pairs import pair_index_page, pair_pages
from .scenarios import readings_page, scenario_index_page, scenario_pages
from .search import search_page
from .sources import glossary_page, history_page, sources_page, text_pages
from .statistics import statistics_page
from .systems import matrix_page, sheet_pages, variant_pages


def all_pages(inputs: Inputs, log: Log) -> list[Page]:
    # The glossary comes early: in the search index, a word's definition goes before the
    # many rule sections that name the word on every system's page.
    return _one_file_each(
        [
            home_page(inputs),
            # the bundled glossary, or an editor's own (--no-bundled) when it holds terms
            *([glossary_page(inputs)] if inputs.bundled or inputs.library.glossary else []),
            matrix_page(inputs),
            *variant_pages(inputs),
            pair_index_page(inputs),
            *pair_pages(inputs),
            *sheet_pages(inputs),
            scenario_index_page(inputs),
            *scenario_pages(inputs),
            readings_page(inputs),
            statistics_page(inputs, log),
            *[Page(*found) for found in [every_rule_page(inputs.variants)] if found],
            sources_page(inputs),
            history_page(inputs),
            *text_pages(inputs),
            search_page(),
        ]
    )


def _one_file_each(pages: list[Page]) -> list[Page]:
    """``pages`` if no two are written to the same file, else the two that would be: two
    work ids that differ only by what a file name drops (``house.rules``, ``house-rules``),
    or two pairs of system ids that join into the same name (``p--q`` with ``r``, ``p`` with
    ``q--r``). One would silently replace the other, and every link to it lead to the
    wrong page."""
    first: dict[str, Page] = {}
    for page in pages:
        earlier = first.setdefault(page.path, page)
        if earlier is not page:
            raise InputError(
                f"two pages would be written to the same file, {page.path}: "
                f"{earlier.title!r} and {page.title!r} (their ids make the same file "
                "name); rename one of them"
            )
    return pages
