"""The pages of each system: its rules with their sources, the rule matrix of all, and the
printable rule sheet."""

from __future__ import annotations

from typing import Any

from ...rules.citations import Status
from ...rules.profile import rule_paths
from ...rules.profiles import Library
from ...rules.readings import reading_of, rule_value
from ...rules.variant import Standing, Variant
from .. import rules as rule_views
from ..ids import (
    root_of,
    variant_page,
)
from ..inputs import Inputs
from ..page import Page


def variant_pages(inputs: Inputs) -> list[Page]:
    pages = []
    for v in inputs.variants:
        path = variant_page(v.id)
        root = root_of(path)
        groups = rule_views.rule_groups(v, root, inputs.library, sources=inputs.bundled)
        citations = [r.citation for g in groups for r in g.rules]
        children = [c for c in inputs.variants if c.extends == v.id]
        used_in = [
            c.scenario for c in inputs.comparisons if v.id in [r.variant.id for r in c.results]
        ]
        pages.append(
            Page(
                path,
                "variant.html",
                v.title,
                {
                    "variant": v,
                    "work": v.bibliography.get(v.source),
                    "groups": groups,
                    "citations": citations,
                    "open": rule_views.open_questions(v),
                    "children": children,
                    "scenarios": used_in,
                    "readings": rule_readings(inputs.library, v),
                },
            )
        )
    return pages


def rule_readings(library: Library, variant: Variant) -> dict[str, dict[str, Any]]:
    """For each rule of ``variant`` that is one reading of an ambiguous sentence: the
    reading's id and the other readings' values."""
    found = {}
    for path in library.readings:
        value = variant.value(path)
        reading = reading_of(library.readings, path, value)
        if reading is None:
            continue
        others = [str(r.value) for r in reading.readings if rule_value(path, r.value) != value]
        found[path] = {"id": reading.id, "others": others}
    return found


def matrix_page(inputs: Inputs) -> Page:
    rows = rule_views.matrix_rows(inputs.variants, "")
    groups: list[dict[str, Any]] = []
    for row in rows:
        if not groups or groups[-1]["name"] != row.group:
            groups.append(
                {"name": row.group, "title": rule_views.group_title(row.group), "rows": []}
            )
        groups[-1]["rows"].append(row)
    return Page(
        "matrix.html",
        "matrix.html",
        "The rule matrix",
        {
            "variants": inputs.variants,
            "groups": groups,
            "differing": [r for r in rows if r.differs],
            "first": inputs.variants[0] if inputs.variants else None,
        },
    )


SHEET_PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Setting up", ("table", "stakes", "session")),
    ("Before the deal", ("forced_bets", "misdeals")),
    ("Betting", ("betting", "void_deals")),
    ("The showdown", ("hands", "point")),
    ("Payments", ("bonuses",)),
)
"""The rule groups in the order of play, for the printable rule sheet."""


def _short_quote(text: str | None, limit: int = 90) -> str | None:
    if not text:
        return None
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def stated_counts(variant: Variant) -> dict[str, Any]:
    """How many of a system's rules its own source states, how many are our reading of it,
    and how many are inherited (with the systems they come from) because it is silent."""
    counts = {s.value: 0 for s in Standing}
    inherited_from: dict[str, int] = {}
    for rule in rule_paths():
        provenance = variant.provenance(rule)
        counts[provenance.standing.value] += 1
        if provenance.source_silent and provenance.inherited_from:
            inherited_from[provenance.inherited_from] = (
                inherited_from.get(provenance.inherited_from, 0) + 1
            )
    return {
        "total": len(rule_paths()),
        **counts,
        "inherited_from": sorted(inherited_from.items()),
        "source": variant.bibliography.get(variant.source),
    }


def sheet_pages(inputs: Inputs) -> list[Page]:
    """A printable rule sheet per system: its rules as sentences in the order of play, each
    with its status and a short quote, then the works cited (one or two A4 pages)."""
    pages = []
    for v in inputs.variants:
        path = f"sheets/{v.id}.html"
        parts = []
        cited: dict[str, set[str]] = {}
        for title, groups in SHEET_PARTS:
            rules = []
            for rule in rule_paths():
                if rule.split(".")[0] not in groups:
                    continue
                citation = v.citation(rule)
                provenance = v.provenance(rule)
                if citation is not None and citation.source:
                    cited.setdefault(citation.source, set()).add(citation.locator or "")
                rules.append(
                    {
                        "label": rule_views.rule_label(rule),
                        "value": rule_views.value_words(v.value(rule), rule),
                        "status": (
                            f"inherited from {inputs.names.system(provenance.inherited_from)}"
                            if provenance.source_silent
                            else provenance.status
                        ),
                        "standing": provenance.standing.value,
                        "quote": _short_quote(citation.quote if citation else None),
                        "verbatim": citation is not None and citation.status != Status.PARAPHRASED,
                        "source": citation.source if citation else None,
                    }
                )
            parts.append({"title": title, "rules": rules})
        works = [
            {
                "id": w,
                "work": inputs.library.works.get(w),
                "locators": sorted(x for x in cited[w] if x),
            }
            for w in sorted(cited)
        ]
        pages.append(
            Page(
                path,
                "sheet.html",
                f"{v.title}: the rules",
                {"variant": v, "parts": parts, "works": works, "stated": stated_counts(v)},
                f"Every rule of {v.title} in the order of play, with how its source stands "
                "behind it and a few words of the source: a one- or two-page sheet to print.",
            )
        )
    return pages
