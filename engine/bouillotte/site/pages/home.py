"""The home page."""

from __future__ import annotations

from collections.abc import Sequence

from ...rules.citations import Status
from ...rules.profile import rule_paths
from ...rules.variant import Standing, Variant
from ...study.compare import Comparison
from ...study.scenario import Scenario
from .. import rules as rule_views
from ..inputs import Inputs
from ..page import Page


def home_page(inputs: Inputs) -> Page:
    systems = []
    for v in inputs.variants:
        provenance = [v.provenance(p) for p in rule_paths()]
        statuses = [p.status for p in provenance]
        standings = [p.standing for p in provenance]
        systems.append(
            {
                "variant": v,
                "documented": sum(  # in its own words: a quote of another work is not
                    status == Status.DOCUMENTED.value and v.cite_source(path) == v.source
                    for status, path in zip(statuses, rule_paths(), strict=True)
                ),
                "stated": standings.count(Standing.STATED),
                "inferred": standings.count(Standing.INFERRED),
                "inherited": standings.count(Standing.INHERITED),
                "open": len(rule_views.open_questions(v)),
                "rules": len(rule_paths()),
            }
        )
    first = _first_scenario(inputs)
    return Page(
        "index.html",
        "home.html",
        "Bouillotte: the historical rule systems compared" if inputs.bundled else "Home",
        {
            "systems": systems,
            "order": order_words(inputs.variants),
            "first_scenario": first,
            "scenario_count": len(inputs.comparisons),
            "works": inputs.library.works,
            "bundled_site": inputs.bundled,
        },
    )


def order_words(variants: Sequence[Variant]) -> str:
    """How the systems are listed, as ``rules.system_order`` orders them: by their
    sources' dates within each game, the systems of Bouillotte before those of the older
    game, Brelan (so "in the order of their sources' dates" alone would be untrue)."""
    variation = "a system that only varies another follows it"
    if len({v.game for v in variants}) < 2:
        return f"In the order of their sources’ dates; {variation}."
    return (
        "The systems of Bouillotte in the order of their sources’ dates, then those of the "
        f"older game, Brelan, in the order of theirs; {variation}."
    )


def _first_scenario(inputs: Inputs) -> Scenario | None:
    """Where a reader should start: a documented example (the source's own worked deal)
    from the earliest source, the plainest first (a variation's title adds to it)."""
    years = {v.source: n for n, v in reversed(list(enumerate(inputs.variants)))}

    def key(c: Comparison) -> tuple[bool, int, int, str]:
        m = c.scenario.model
        return (
            m.source.status != "documented",
            years.get(m.source.work, len(years)),
            len(m.title),
            m.id,
        )

    return min(inputs.comparisons, key=key).scenario if inputs.comparisons else None
