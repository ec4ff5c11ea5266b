"""The search page, and the search index's entry for each rule."""

from __future__ import annotations

from ...rules.profile import rule_doc
from .. import rules as rule_views
from ..inputs import Inputs
from ..page import Page
from ..pagetext import words
from ..prose import docstring_markdown
from ..search import rule_entry


def rule_entries(inputs: Inputs) -> list[dict[str, str]]:
    """One search entry per rule: its meaning (with the works its values come from, in a
    build with the bundled library) and each value with the systems taking it."""
    entries = []
    for row in rule_views.matrix_rows(inputs.variants, ""):
        values: dict[str, list[str]] = {}
        for cell in row.cells:
            values.setdefault(cell.value, []).append(cell.short or cell.variant_id)
        meaning = rule_views.in_words(row.path, rule_doc(row.path, sources=inputs.bundled))
        doc = words(docstring_markdown(meaning), code=True)
        entries.append(rule_entry(row.label, row.anchor, doc, list(values.items())))
    return entries


def search_page() -> Page:
    return Page("search.html", "search.html", "Search")
