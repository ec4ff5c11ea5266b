"""The scenario pages, their index, and the page of the ambiguous sentences' readings."""

from __future__ import annotations

from ...rules.profiles import Library
from ...rules.texts import notes_quotes
from ...study.attribution import SITE_WAYS_LIMIT, WAYS_LIMIT
from ...study.scenario import Scenario
from .. import rules as rule_views
from .. import scenes
from ..ids import (
    root_of,
    scenario_page,
)
from ..inputs import Inputs
from ..page import Page
from ..readings import reading_views


def _notes_in_context(library: Library, scenario: Scenario, root: str) -> list[dict[str, str]]:
    """Each quotation of a scenario's notes, linked to its place in the published text."""
    links = []
    for n, (work_id, quoted) in enumerate(
        notes_quotes(scenario.model.notes, scenario.model.source.work), start=1
    ):
        link = rule_views.context_href(library, root, work_id, quoted)
        if link is not None:
            work = library.works[work_id]
            links.append({"number": str(n), "href": link, "work": work.title})
    return links


def scenario_pages(inputs: Inputs) -> list[Page]:
    pages = []
    for comparison in inputs.comparisons:
        s = comparison.scenario
        path = scenario_page(s.id)
        root = root_of(path)
        results = comparison.results
        shown = next((r for r in results if r.status != "illegal"), results[0] if results else None)
        work = inputs.library.works.get(s.model.source.work)
        pages.append(
            Page(
                path,
                "scenario.html",
                s.model.title,
                {
                    "scenario": s.model,
                    "work": work,
                    "works": inputs.library.works,
                    "variants": [r.variant for r in results],
                    "deal": scenes.deal_view(shown) if shown else None,
                    "shown": shown,
                    "log": scenes.log_rows(shown.data["events"], shown.steps) if shown else [],
                    "outcome": scenes.outcome_rows(comparison, root),
                    "attributions": scenes.attribution_views(
                        comparison.attributions,
                        root,
                        {v.id: v.short or v.id for v in inputs.variants},
                    ),
                    "transcripts": scenes.transcripts(comparison),
                    "unplayable": inputs.unplayable.get(s.id, []),
                    "mismatches": inputs.mismatches.get(s.id, []),
                    "in_context": _notes_in_context(inputs.library, s, root),
                    "names": {v.id: v.short or v.id for v in inputs.variants},
                    "ways": {"site": SITE_WAYS_LIMIT, "command": WAYS_LIMIT},
                },
            )
        )
    return pages


def scenario_index_page(inputs: Inputs) -> Page:
    items = [
        {
            "scenario": c.scenario.model,
            "variants": [r.variant.id for r in c.results],
            "differs": any(c.differs(i) for i in range(len(c.results))),
        }
        for c in inputs.comparisons
    ]
    return Page("scenarios/index.html", "scenarios.html", "Scenarios", {"items": items})


def readings_page(inputs: Inputs) -> Page:
    scenarios = [c.scenario for c in inputs.comparisons]
    return Page(
        "readings.html",
        "readings.html",
        "Readings",
        {"views": reading_views(inputs.library, scenarios), "works": inputs.library.works},
        "Sentences that can be read two ways, each reading a rule, with a deal under each.",
    )
