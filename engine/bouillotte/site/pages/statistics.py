"""The statistics page: odds, simulated play and rule effects."""

from __future__ import annotations

from ..inputs import Inputs, Statistics
from ..page import Log, Page
from ..stats import (
    odds_section,
    policy_origin_left_out,
)


def statistics_page(inputs: Inputs, log: Log) -> Page:
    log("statistics")
    work = inputs.statistics or Statistics(inputs.variants, log)
    try:
        odds = odds_section(inputs.variants, log)
        simulated, effects = work.sections(log)
    finally:
        if inputs.statistics is None:
            work.close()
    if not inputs.bundled:
        simulated = policy_origin_left_out(simulated)
    return Page(
        "statistics.html",
        "statistics.html",
        "Statistics",
        {
            # the rule effects compare two bundled systems: a site without both has none
            "sections": [s for s in (odds, simulated, effects) if not (s is effects and s.missing)],
            "has_odds": bool(odds.tables),
        },
    )
