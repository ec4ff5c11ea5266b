"""The hostile catalogue's cases for scenario outcomes and ``expect`` blocks (issue 21,
part 4) and for the one meaning of ``--variants`` (part 3): each mistake ends in one line
at its file and line and exit 2, and a refused step that the scenario foresees is an
outcome, shown, exit 0. Played by the catalogue's own runner (``test_catalogue.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

from . import test_catalogue as catalogue
from .test_catalogue import INPUTS, Case

CASES = [
    # a refusal under a system is that system's outcome, not an error
    Case(
        "refused-step-foreseen-by-expect",
        ("run", "foster-sight"),
        "Calling for a sight — under pagat: illegal",
        exit=0,
        one_line=False,
        never=("error:",),
    ),
    Case(
        "refused-step-shows-the-rule-and-the-legal-actions",
        ("run", "foster-sight", "-v", "pagat-mistigri"),
        "[rule betting.all_in_may_open_or_raise: pagat-card, 05 All-ins and bonuses:",
        exit=0,
        one_line=False,
        never=("error:",),
    ),
    # each mistake in an expect block: one line at its file and line, exit 2
    Case(
        "expect-unknown-key",
        ("run", "{in}/expect-unknown-key.yaml"),
        "expect-unknown-key.yaml:17: expect.foster.nett: unknown key 'nett' (did you mean "
        "'net'?); the keys here are status, pots, bonuses, net, cave, ledger, carry, rule, step",
        never=("Extra inputs",),
    ),
    Case(
        "expect-unknown-system",
        ("run", "{in}/expect-unknown-system.yaml"),
        "expect-unknown-system.yaml:15: expect.fostr: unknown variant (did you mean 'foster'?)",
    ),
    Case(
        "expect-unknown-system-when-compare-chooses-the-systems",
        ("compare", "{in}/expect-unknown-system.yaml", "-v", "foster"),
        "expect-unknown-system.yaml:15: expect.fostr: unknown variant (did you mean 'foster'?)",
    ),
    Case(
        "expect-unknown-system-in-check-is-not-a-mismatch",
        ("check", "{in}/expect-unknown-system.yaml"),
        "expect-unknown-system.yaml:15: expect.fostr: unknown variant",
        one_line=False,  # check adds its summary line
        never=("mismatch:",),
    ),
    Case(
        "expect-system-the-scenario-does-not-run-under",
        ("check", "{in}/expect-system-not-run.yaml"),
        "expect-system-not-run.yaml:15: expect.pagat: the scenario does not run under pagat "
        "(it runs under foster",
        one_line=False,
        never=("mismatch:",),
    ),
    Case(
        "expect-unknown-player",
        ("run", "{in}/expect-unknown-player.yaml"),
        "expect-unknown-player.yaml:16: expect.foster.net.E: 'E' is not one of the players "
        "(A, B, C, D)",
    ),
    Case(
        "expect-unknown-rule",
        ("run", "{in}/expect-unknown-rule.yaml"),
        "expect-unknown-rule.yaml:17: expect.foster.rule: unknown rule (did you mean "
        "'betting.all_in_may_open_or_raise'?)",
    ),
    Case(
        "expect-step-0",
        ("run", "{in}/expect-step-0.yaml"),
        "expect-step-0.yaml:18: expect.foster.step: no such step: the steps are the actions, "
        "counted from 1 (1 to 4) (value: 0)",
    ),
    Case(
        "expect-step-beyond-the-actions",
        ("check", "{in}/expect-step-beyond.yaml"),
        "expect-step-beyond.yaml:18: expect.foster.step: no such step",
    ),
    # --variants is always a folder; systems are chosen with -v
    Case(
        "compare-variants-given-ids",
        ("compare", "foster-sight", "--variants", "foster,pagat"),
        "foster,pagat: no such folder: --variants takes a folder of profiles; to choose "
        "systems use -v foster -v pagat",
    ),
    Case(
        "variants-given-an-id-where-no-system-is-chosen",
        ("variants", "list", "--variants", "foster"),
        "foster: no such folder: --variants takes a folder of profiles",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_expect_blocks_and_option_meaning(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_check_names_a_bad_profile_once_not_once_per_scenario() -> None:
    result = CliRunner().invoke(app, ["check", "--variants", str(INPUTS / "cave-true")])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert "mine.yaml:6: rules.stakes.cave: Input should be a valid integer" in errors[0]
    assert "1 error," in result.stdout
