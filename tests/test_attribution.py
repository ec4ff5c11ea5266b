"""Rule attribution names the rules that make two systems' outcomes differ."""

from __future__ import annotations

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import differing_rules
from bouillotte.study.compare import compare
from bouillotte.study.scenario import ScenarioLibrary

from .test_rule_coverage import ACROSS_DEALS


def test_every_rule_on_which_foster_and_pagat_differ_is_attributed_somewhere(
    library: Library,
) -> None:
    """Each differing rule that can act within one deal is named as responsible for the
    difference between foster and pagat in at least one bundled scenario."""
    named: set[str] = set()
    for scenario in ScenarioLibrary().all():
        ids = scenario.variant_ids(library)
        if "foster" not in ids or "pagat" not in ids:
            continue
        comparison = compare(scenario, library, ["foster", "pagat"])
        for attribution in comparison.attributions:
            for group in attribution.responsible:
                named.update(group)
    within_a_deal = [
        p
        for p in differing_rules(library.get("foster"), library.get("pagat"))
        if p not in ACROSS_DEALS
    ]
    missing = [p for p in within_a_deal if p not in named]
    assert not missing, f"never attributed: {missing}"


@pytest.mark.parametrize(
    ("scenario_id", "rule", "alone"),
    [
        ("foster-sight", "betting.all_in_may_open_or_raise", True),
        ("tie-dealer-owns-a-suit", "point.suit_tie", True),
        # The card under the retourne changes the winner, but the carré bonus and the
        # ledger differ too, so no one rule alone gives pagat's outcome.
        ("carre-card-under-retourne", "hands.card_under_retourne", False),
    ],
)
def test_the_responsible_rule_is_named(
    library: Library, scenario_id: str, rule: str, alone: bool
) -> None:
    scenario = ScenarioLibrary().find(scenario_id)
    comparison = compare(scenario, library, ["foster", "pagat"])
    (attribution,) = comparison.attributions
    assert [rule] in attribution.responsible
    assert ([rule] in attribution.reproduces) is alone


def test_identical_outcomes_need_no_attribution(library: Library) -> None:
    scenario = ScenarioLibrary().find("foster-point")
    comparison = compare(scenario, library, ["foster", "pagat"])
    assert not comparison.differs(1)
    assert comparison.attributions == []
