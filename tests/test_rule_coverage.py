"""Every rule of the schema matters: for each, some deal changes when the rule changes.

For every rule path, each alternative value (the other words of a choice, the other truth
value, another number) is tried under every bundled profile on every bundled scenario and
the few extra deals in ``coverage_deals/``; the rule is covered when at least one of those
deals ends differently (or its actions no longer make a complete deal). Rules that act
only between deals (stakes, sessions) are shown the same way on the bundled sessions and
those in ``coverage_sessions/``; the three that no deal can show are listed with the reason.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

import pytest

from bouillotte.rules.errors import InputError
from bouillotte.rules.profile import GROUPS, BonusRule, rule_paths
from bouillotte.rules.profiles import Library
from bouillotte.rules.resources import bundled
from bouillotte.rules.variant import Variant
from bouillotte.study.attribution import signature
from bouillotte.study.scenario import ScenarioLibrary, run_scenario
from bouillotte.study.session import run_session
from bouillotte.study.session_file import load_session

pytestmark = pytest.mark.slow  # every value of every rule, against every bundled deal

ACROSS_DEALS = {
    "stakes.cave": "sessions start from the default cave; scenarios state their caves",
    "stakes.cave_can_be_topped_up": "a session rule: whether a cave may be added to",
    "stakes.rebuy_amount": "a session rule: the size of a new stake",
    "stakes.skip_dealer_who_rebought": "a session rule: who deals next",
    "session.deals": "a session rule: how many deals are played",
    "session.carried_pot_at_end": "a session rule: the pool left after the last deal",
    "misdeals.dealer_keeps_deal": "a session rule: who deals after a misdeal",
}
"""Rules that act between deals: each is shown to change a bundled or test session."""

NOT_IN_PLAY = {
    "table.cut_by": "who cuts does not change a given order of the cards",
    "table.players": "changes the table itself; each size has its own scenarios",
    "table.packs": "changes which cards exist; each pack has its own scenarios",
}
"""Rules no deal can show by changing them alone."""


def alternatives(path: str, current: Any) -> list[Any]:
    group, name = path.split(".")
    annotation = GROUPS[group].model_fields[name].annotation
    options: list[Any] = []
    union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    for arg in typing.get_args(annotation) if union else (annotation,):
        if typing.get_origin(arg) is typing.Annotated:  # a bounded number: int, ge=1
            arg = typing.get_args(arg)[0]
        if typing.get_origin(arg) is typing.Literal:
            options.extend(typing.get_args(arg))
        elif arg is bool:
            options.extend([True, False])
        elif arg is int:
            options.extend(
                [0, 1, 2, 10] + ([current + 1, current * 2] if isinstance(current, int) else [])
            )
        elif arg is BonusRule:
            rule = current
            options.extend(
                [
                    rule.model_copy(update={"amount": rule.amount + 3}),
                    rule.model_copy(update={"amount_if_wins_pool": rule.amount_if_wins_pool + 3}),
                    rule.model_copy(
                        update={
                            "paid_by": "every-other-player"
                            if rule.paid_by != "every-other-player"
                            else "players-without-a-brelan"
                        }
                    ),
                ]
            )
    if path == "table.point_values":
        options.append({**current, "A": 10, "9": 10, "8": 10})
    if path == "hands.mistigri_card":
        options.append("9S")
    return [o for o in options if o != current]


EXTRA_DEALS = Path(__file__).parent / "coverage_deals"


def _changes(path: str) -> bool:
    library = Library()
    scenarios = ScenarioLibrary([EXTRA_DEALS]).all()
    bases = library.all()
    for base in bases:
        for value in alternatives(path, base.value(path)):
            extra: dict[str, Any] = {path: value}
            if path == "hands.mistigri_card":
                extra["hands.mistigri"] = True
            try:
                changed = base.with_values(extra)
            except ValueError:
                continue
            if _any_scenario_differs(scenarios, base, changed):
                return True
    return False


def _any_scenario_differs(scenarios: list[Any], base: Variant, changed: Variant) -> bool:
    for scenario in scenarios:
        if len(scenario.model.players) != base.players:
            continue
        try:
            before = run_scenario(scenario, base, actions_of=base.id)
        except InputError:
            continue  # the scenario is not written for this variant
        try:
            after = run_scenario(scenario, changed, actions_of=base.id)
        except InputError:
            return True  # the same actions no longer make a complete deal: the play changed
        if signature(before.data) != signature(after.data):
            return True
    return False


@pytest.mark.parametrize(
    "path", [p for p in rule_paths() if p not in ACROSS_DEALS and p not in NOT_IN_PLAY]
)
def test_changing_the_rule_changes_some_bundled_deal(path: str) -> None:
    assert _changes(path), f"no bundled scenario changes when {path} changes: add one"


EXTRA_SESSIONS = Path(__file__).parent / "coverage_sessions"


def _session_outcome(session: Any, variant: Variant) -> Any:
    """A session's result, or the fault that stops it (which is a change too)."""
    try:
        return run_session(session, variant).to_json()
    except InputError as exc:
        return exc.message


@pytest.mark.parametrize("path", sorted(ACROSS_DEALS))
def test_changing_the_rule_changes_some_session(path: str) -> None:
    library = Library()
    files = sorted((bundled("scenarios") / "sessions").glob("*.yaml"))
    sessions = [load_session(f) for f in [*files, *sorted(EXTRA_SESSIONS.glob("*.yaml"))]]
    for session in sessions:
        base = library.get(session.model.variant or "foster")
        for value in alternatives(path, base.value(path)):
            try:
                changed = base.with_values({path: value})
            except ValueError:
                continue
            if _session_outcome(session, base) != _session_outcome(session, changed):
                return
    pytest.fail(f"no session changes when {path} changes: add one to {EXTRA_SESSIONS.name}/")


def test_rules_exempted_here_are_real_rules() -> None:
    assert set(ACROSS_DEALS) | set(NOT_IN_PLAY) <= set(rule_paths())
