"""Every page of the site, assembled by page kind (one module per kind)."""

from __future__ import annotations

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
    return [
        home_page(inputs),
        *([glossary_page(inputs)] if inputs.bundled else []),
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
