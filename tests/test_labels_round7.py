""" "Cannot act", round seven: rules the rules alone keep from being read.

A sweep says a rule "cannot act under any player" only with a proof from the rules, and
"not read in these N deals" otherwise. The every-rule page of foster said "not read in
these 100,000 deals: other deals may read it" of two rules no deal under foster can read:

- ``bonuses.mistigri`` (who pays a brelan de Mistigri, and how much): foster recognises
  no brelan de Mistigri (``hands.mistigri: no``), and the engine reads a kind's payment
  only for a shown hand of that kind; likewise ``bonuses.favori`` where ``hands.favori``
  is ``none`` (the teaching card);
- ``betting.opening_short_of_the_pot``: read only under an opening at the pot, which
  foster's is not (the rule's own docstring says so).

Each is now ``cannot-act`` with its reason, where the base's rules give the proof and the
combination does not change the rule the proof rests on. The guard tests play deals with
the players who reach the most rules and check that none reads them.

Shown failing before the fix (the three ``acts`` were ``not-read``).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.study.policies import get_policy
from bouillotte.study.rule_reads import READS, recording
from bouillotte.study.sweep_combinations import cannot_be_read
from bouillotte.study.void_chain import play_one, player_names

LIBRARY = Library()


def _rows(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(app, ["sweep", *args, "-n", "3", "-q", "--json"])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.stdout)["rows"]
    return rows[1:]  # the base's row first


@pytest.mark.parametrize(
    ("base", "vary", "reason"),
    [
        (
            "foster",
            "bonuses.mistigri.paid_by",
            "no hand is a brelan de Mistigri under foster (hands.mistigri=no), and "
            "bonuses.mistigri pays only such a hand",
        ),
        (
            "pagat",
            "bonuses.favori.amount=3",
            "no hand is a brelan favori under pagat (hands.favori=none), and "
            "bonuses.favori pays only such a hand",
        ),
        (
            "foster",
            "betting.opening_short_of_the_pot",
            "the opening under foster asks no more than the blind or the largest stake "
            "(betting.opening_minimum=equal-the-blind), and "
            "betting.opening_short_of_the_pot is read only where it asks as much as the pot",
        ),
    ],
)
def test_a_rule_the_base_keeps_from_being_read_cannot_act(
    base: str, vary: str, reason: str
) -> None:
    rows = _rows(base, "--vary", vary)
    assert rows and all(r["acts"] == "cannot-act" for r in rows)
    assert {r["cannot_act"] for r in rows} == {reason}


def test_where_the_base_can_read_it_nothing_is_proven() -> None:
    """Under a system that has the brelan de Mistigri, or opens at the pot, the same
    rules are only not read in a small sample; and a combination that also changes the
    rule the proof rests on proves nothing."""
    assert cannot_be_read(LIBRARY.get("pagat-mistigri"), ["bonuses.mistigri"]) is None
    assert cannot_be_read(LIBRARY.get("foster"), ["bonuses.favori"]) is None
    pierer = LIBRARY.get("brelan-pierer")
    assert pierer.rules.betting.opening_minimum in ("as-much-as-the-pot", "exactly-the-pot")
    assert cannot_be_read(pierer, ["betting.opening_short_of_the_pot"]) is None
    foster = LIBRARY.get("foster")
    assert cannot_be_read(foster, ["bonuses.mistigri", "hands.mistigri"]) is None
    assert cannot_be_read(foster, ["betting.opening_minimum",
                                   "betting.opening_short_of_the_pot"]) is None  # fmt: skip
    both = _rows("foster", "--vary", "hands.mistigri=yes", "--vary", "bonuses.mistigri.amount=5")
    assert [r["acts"] for r in both if "hands.mistigri" in str(r["combination"])] != ["cannot-act"]


@pytest.mark.parametrize(
    ("system", "unread"),
    [
        ("foster", {"bonuses.mistigri", "betting.opening_short_of_the_pot"}),
        ("pagat", {"bonuses.favori", "bonuses.mistigri"}),
        ("cardrulesplus", {"bonuses.mistigri"}),
    ],
)
@pytest.mark.parametrize("policy", ["bold", "random", "advised"])
def test_no_deal_reads_them_where_they_are_said_unread(
    system: str, unread: set[str], policy: str
) -> None:
    """A guard on the proofs: deals played by the players who reach the most rules read
    none of them, while they read the rules beside them (the opening's)."""
    variant = LIBRARY.get(system)
    for rule in unread:
        assert cannot_be_read(variant, [rule]) is not None, rule
    recorded = recording(variant)
    names = player_names(variant.players)
    read: set[str] = set()
    for i in range(60):
        READS.clear()
        play_one(recorded, get_policy(policy), names, 1, i)
        read |= READS
    assert "betting.opening_minimum" in read
    assert read.isdisjoint(unread), read & unread
