"""The hostile catalogue, round six: ``sweep`` and ``effects`` (``tests/test_sweep_round6.py``
has the rest of each fix).

- ``--vary`` values were read loosely: ``off``, ``0``, ``n`` and ``FALSE`` as no, ``05`` as
  5 (a profile reads ``0100`` as text), ``hands.favori=`` as every value, ``' none'`` as
  ``none``; a rule given twice was not named.
- ``--vary`` with ``--towards`` made the same row twice; a sweep of which nothing can be
  played exited 0 with the base's row alone.
- ``effects --jobs`` and ``effects -q`` without ``--write`` were ignored in silence.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix (every refusal below exited 0, or named no rule).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import test_catalogue as catalogue
from .test_catalogue import Case

SWEEP = ("sweep", "foster", "-n", "1", "-q")

CASES = [
    Case(
        "vary-a-yes-or-no-as-off",
        (*SWEEP, "--vary", "hands.card_under_retourne=off"),
        "error: --vary: hands.card_under_retourne cannot be 'off'; it takes no, yes",
    ),
    Case(
        "vary-a-yes-or-no-as-FALSE",
        (*SWEEP, "--vary", "hands.mignon=FALSE"),
        "hands.mignon cannot be 'FALSE'; it takes no, yes",
    ),
    Case(
        "vary-a-number-with-a-leading-zero",
        (*SWEEP, "--vary", "forced_bets.dealer_blind=05"),
        "forced_bets.dealer_blind cannot be '05': write a whole number in the digits 0-9, "
        "without a leading zero",
    ),
    Case(
        "vary-a-number-and-its-leading-zero-twin",
        (*SWEEP, "--vary", "forced_bets.dealer_blind=3,03"),
        "forced_bets.dealer_blind cannot be '03'",
        never=("given twice",),
    ),
    Case(
        "vary-no-value-after-the-equals",
        (*SWEEP, "--vary", "hands.favori="),
        "hands.favori= gives no value",
    ),
    Case(
        "vary-with-spaces-around-the-equals",
        (*SWEEP, "--vary", "hands.favori = none"),
        "--vary: a rule and its values hold no space: write 'hands.favori=none'",
    ),
    Case(
        "vary-the-same-rule-twice",
        (*SWEEP, "--vary", "hands.favori=none", "--vary", "hands.favori=by-rank"),
        "--vary: hands.favori is given to --vary twice",
    ),
    Case(
        "vary-with-towards",
        (*SWEEP, "--vary", "hands.favori=none", "--towards", "pagat"),
        "error: --vary and --towards: give one of them",
    ),
    Case(
        "towards-a-system-of-other-players",
        (*SWEEP, "--towards", "foster-five"),
        "error: nothing to compare: no combination asked for can be played; table.players=5",
    ),
    Case(
        "vary-to-no-valid-system",
        (*SWEEP, "--vary", "forced_bets.dealer_blind=1000"),
        "forced_bets.dealer_blind=1000: not a valid system",
    ),
    Case(
        "effects-jobs-without-write",
        ("effects", "--pair", "foster__pagat", "--jobs", "2"),
        "error: --jobs: it sets the processes of --write only",
    ),
    Case(
        "effects-quiet-without-write",
        ("effects", "--pair", "foster__pagat", "--json", "-q"),
        "error: --quiet: it silences the progress of --write only",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round_six_sweep(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)
