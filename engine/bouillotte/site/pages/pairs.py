"""The pages of two systems side by side, and their index."""

from __future__ import annotations

from typing import Any

from ...rules.profile import rule_paths
from ...rules.variant import Variant
from ...study.attribution import SITE_WAYS_LIMIT, WAYS_LIMIT, signature
from .. import rules as rule_views
from .. import scenes
from ..effects import PairEffects, pair_effects
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
    names = {v.id: v.short or v.id for v in variants}

    def on_page(paths: list[str]) -> list[scenes.Link]:
        # The pair page sets out each differing rule with both sentences: link there.
        return [scenes.Link(rule_views.rule_label(p), f"#{rule_id(p)}") for p in paths]

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
                    made = inputs.pairs.get((c.scenario.id, a.id, b.id))
                    if sa != sb:
                        scenarios.append(
                            {
                                "scenario": c.scenario.model,
                                "status": [ra.status, rb.status],
                                **_what_differs(scenes.outcome_table([ra, rb], root)),
                                "why": scenes.attribution_view(made, root, names, on_page)
                                if made is not None
                                else None,
                            }
                        )
            effects = pair_effects(a, b, names=inputs.names)
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
                        "effects": effects,
                        **_strong_bands(a, b, effects),
                        "ways": {"site": SITE_WAYS_LIMIT, "command": WAYS_LIMIT},
                    },
                    f"The rules on which {a.title} and {b.title} differ, each with its source.",
                )
            )
    return pages


def _strong_bands(a: Variant, b: Variant, effects: PairEffects | None) -> dict[str, Any]:
    """The strong-play bands beside each rule's effects (only the pairs whose bands are
    computed: ``strong_bands.BAND_PAIRS``), read from the stored file."""
    from .. import effects_store
    from ..strong_bands import changes_key, pair_bands

    if effects is None:
        return {"bands": None, "band_of": {}}
    found = effects_store.stored_effects(a, b)
    if found.data is None and effects_store.store_path(b, a).is_file():
        found = effects_store.stored_effects(b, a)
    bands = pair_bands(a, b, found.data)
    if bands is None:
        return {"bands": None, "band_of": {}}
    band_of = {
        e.label: bands.by_changes.get(changes_key(e.changes)) for e in effects.effects if e.changes
    }
    return {"bands": bands, "band_of": band_of}


def _what_differs(rows: list[scenes.OutcomeRow]) -> dict[str, Any]:
    """A scenario's outcome under two systems: the rows that differ (every row when one
    of them refuses the deal, whose one cell spans them) and, in words, those that do not."""
    if any(c.rowspan > 1 for row in rows for c in row.cells):
        return {"outcome": rows, "same": []}
    differ, same = [], []
    for row in rows:
        first, second = row.cells
        if (first.text, first.detail) != (second.text, second.detail):
            differ.append(row)
        else:
            same.append(f"{row.label[:1].lower()}{row.label[1:]} {first.text}")
    return {"outcome": differ, "same": same}


def pair_index_page(inputs: Inputs) -> Page:
    pairs = [(a, b) for i, a in enumerate(inputs.variants) for b in inputs.variants[i + 1 :]]
    return Page(
        "compare/index.html",
        "pairs.html",
        "Two systems side by side",
        {"variants": inputs.variants, "pairs": pairs},
    )
