"""The pages of two systems side by side, and their index."""

from __future__ import annotations

from typing import Any

from ...rules.profile import rule_paths
from ...rules.variant import Variant
from ...study.attribution import signature
from .. import rules as rule_views
from ..effects import pair_effects
from ..ids import (
    href,
    pair_page,
    root_of,
    rule_id,
    variant_page,
)
from ..inputs import Inputs
from ..page import Page


def pair_pages(inputs: Inputs) -> list[Page]:
    """A page for every pair of systems: the web form of ``bouillotte variants diff``, with
    each source's own sentence and the scenarios whose outcome the pair does not share."""
    pages = []
    variants = inputs.variants
    views: dict[tuple[str, str], rule_views.CitationView] = {}

    def view(v: Variant, rule: str, number: int) -> rule_views.CitationView:
        # Each citation is shown on eight pair pages: find its place in the text once.
        key = (v.id, rule)
        if key not in views:
            views[key] = rule_views.citation_view(v, rule, number, "../", inputs.library)
        return views[key]

    # What every pair shows of one system, worked out once per system, not once per pair.
    rules = list(enumerate(rule_paths(), start=1))
    words = {v.id: {r: rule_views.value_words(v.value(r), r) for _, r in rules} for v in variants}
    plain = {v.id: {r: rule_views.plain(v.value(r)) for _, r in rules} for v in variants}
    outcomes = [
        (c, {r.variant.id: (r, signature(r.data)) for r in c.results}) for c in inputs.comparisons
    ]
    for i, a in enumerate(variants):
        for b in variants[i + 1 :]:
            path = pair_page(a.id, b.id)
            root = root_of(path)
            differ: list[dict[str, Any]] = []
            agree: list[dict[str, Any]] = []
            for number, rule in rules:
                anchor = rule_id(rule)
                row = {
                    "path": rule,
                    "label": rule_views.rule_label(rule),
                    "anchor": anchor,
                    "values": [words[v.id][rule] for v in (a, b)],
                    "citations": [view(v, rule, number) for v in (a, b)],
                    "hrefs": [href(root, variant_page(v.id), anchor) for v in (a, b)],
                }
                same = plain[a.id][rule] == plain[b.id][rule]
                (agree if same else differ).append(row)
            scenarios = []
            for c, by_id in outcomes:
                if a.id in by_id and b.id in by_id:
                    (ra, sa), (rb, sb) = by_id[a.id], by_id[b.id]
                    if sa != sb:
                        scenarios.append(
                            {"scenario": c.scenario.model, "status": [ra.status, rb.status]}
                        )
            pages.append(
                Page(
                    path,
                    "pair.html",
                    f"{a.short} and {b.short} side by side",
                    {
                        "pair": [a, b],
                        "differ": differ,
                        "agree": agree,
                        "scenarios": scenarios,
                        "effects": pair_effects(a, b, names=inputs.names),
                    },
                    f"The rules on which {a.title} and {b.title} differ, each with its source.",
                )
            )
    return pages


def pair_index_page(inputs: Inputs) -> Page:
    pairs = [(a, b) for i, a in enumerate(inputs.variants) for b in inputs.variants[i + 1 :]]
    return Page(
        "compare/index.html",
        "pairs.html",
        "Two systems side by side",
        {"variants": inputs.variants, "pairs": pairs},
    )
