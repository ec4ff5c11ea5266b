"""The hostile catalogue, round four, part five (issue 47): scenario, session and profile
files read strictly, and the guards of part four not sidestepped.

- A number in a YAML file is written in the digits 0-9 (``0x10``, ``0b111``, ``1_000`` and
  ``+100`` were read as 16, 7, 1000 and 100), as on the command line, where a cluster of
  short options (``-qn+5``) no longer slips past the check.
- A scenario names at least one variant; ``rule`` and ``step`` go with ``status: illegal``;
  the players of an ``expect_readings`` block's actions sit at the table, whatever command
  reads the file; a scenario with two sources of its deal is refused at the second.
- A seeded session item sets no cards (``retourne``, ``exposed``... were silently ignored);
  a session's first caves are refused at their own line.
- A profile's ``inherited_from`` is not itself, an ``inferred`` rule's reason is not blank;
  ``variants export --as`` names no bundled profile (the file written was refused by every
  command after).
- No output replaces a golden transcript it compared, nor a scenario ``--save`` writes.
- Errors show a non-ASCII file name as written (``règles/``), controls escaped only.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from bouillotte.rules.citations import Work

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = """id: mine
title: Mine
source: {work: foster, locator: "x", status: constructed}
players: [A, B, C, D]
dealer: D
hands: {A: [AS, KH, 9D], B: [KS, QH, 8D], C: [QS, 9H, AC], D: [9S, AD, KC]}
retourne: 8C
actions: [A pass, B pass, C pass, D pass]
variants: [foster]
"""
PROFILE = "title: X\nsource: foster\nextends: foster\nrules:\n"


def _file(name: str, text: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        return None

    return setup


def _golden(tmp: Path) -> Cleanup:
    shutil.copytree(ROOT / "tests" / "golden", tmp / "gold")
    return None


CASES = [
    # -- numbers written in digits ---------------------------------------------------------
    *[
        Case(
            f"profile-number-written-{name}",
            ("variants", "show", "mine", "--variants", "{tmp}/p"),
            f"mine.yaml:5: rules.stakes.cave: Input should be a valid integer (value: '{value}')",
            setup=_file("p/mine.yaml", f"{PROFILE}  stakes: {{cave: {value}}}\n"),
        )
        for name, value in (
            ("in-hexadecimal", "0x10"),
            ("in-binary", "0b1111111"),
            ("with-an-underscore", "1_000"),
            ("with-a-plus", "+100"),
        )
    ],
    Case(
        "deals-in-a-cluster-of-short-options",
        ("simulate", "-v", "foster", "-qn+5"),
        "'+5' is not a whole number",
        real=True,
    ),
    Case(
        "jobs-in-a-cluster-of-short-options",
        ("simulate", "-v", "foster", "-qj+1", "-n", "3"),
        "'+1' is not a whole number",
        real=True,
    ),
    # -- scenarios -------------------------------------------------------------------------
    Case(
        "scenario-of-no-variant",
        ("run", "{tmp}/v0.yaml"),
        "v0.yaml:9: variants: names no variant",
        setup=_file("v0.yaml", SCENARIO.replace("variants: [foster]", "variants: []")),
    ),
    Case(
        "scenario-rule-without-an-illegal-outcome",
        ("run", "{tmp}/ri.yaml"),
        "ri.yaml:11: expect.foster.rule: 'rule' says which action the rules refuse",
        setup=_file(
            "ri.yaml",
            SCENARIO + "expect:\n  foster: {status: void, rule: betting.opening_minimum}\n",
        ),
    ),
    Case(
        "scenario-reading-played-by-a-stranger",
        ("compare", "{tmp}/er.yaml"),
        "er.yaml:13: expect_readings.foster.point.suit_tie.eldest-first.actions.0: 'Z' is not "
        "one of the players",
        setup=_file(
            "er.yaml",
            SCENARIO + "expect_readings:\n  foster:\n    point.suit_tie:\n"
            "      eldest-first: {actions: [Z pass]}\n",
        ),
    ),
    Case(
        "scenario-dealt-twice",
        ("run", "{tmp}/sh.yaml"),
        "sh.yaml:8: seed: give exactly one of: hands (with retourne), deck, or seed; this file "
        "gives hands and seed",
        setup=_file("sh.yaml", SCENARIO.replace("retourne: 8C\n", "retourne: 8C\nseed: 3\n")),
    ),
    Case(  # YAML 1.1 reads the key yes as true: the name is given again as it was written
        "scenario-player-named-yes",
        ("run", "{tmp}/y.yaml"),
        "yes puts up the blind: 5",
        exit=0,
        setup=_file(
            "y.yaml",
            SCENARIO.replace("[A, B, C, D]", "[A, B, C, yes]")
            .replace("dealer: D", "dealer: yes")
            .replace("D: [9S", "yes: [9S")
            .replace("D pass", "yes pass"),
        ),
    ),
    Case(  # YAML reads the key false as a boolean: the reading's value is the word written
        "scenario-reading-of-a-value-false",
        ("check", "{tmp}/rf.yaml"),
        "1 checked, 0 mismatches, 0 errors",
        exit=0,
        setup=_file(
            "rf.yaml",
            SCENARIO + "expect_readings:\n  foster:\n    bonuses.folded_players_pay:\n"
            "      false: {status: void}\n",
        ),
    ),
    Case(
        "scenario-reading-value-the-rule-forbids",
        ("check", "{tmp}/rv.yaml"),
        "not a value of the rule stakes.cave (input should be greater than or equal to 1)",
        setup=_file(
            "rv.yaml",
            SCENARIO
            + 'expect_readings:\n  foster:\n    stakes.cave:\n      "-100": {status: void}\n',
        ),
    ),
    Case(
        "scenario-reading-that-makes-no-system",
        ("check", "{tmp}/rb.yaml"),
        "foster reading forced_bets.dealer_blind as 500: the rules read so are no system",
        setup=_file(
            "rb.yaml",
            SCENARIO + "expect_readings:\n  foster:\n    forced_bets.dealer_blind:\n"
            "      500: {status: void}\n",
        ),
        one_line=False,  # check's summary line comes after it
    ),
    *[
        Case(  # named at its item of the deck, not at a retourne: the file gives none
            f"scenario-deck-{name}",
            ("run", "{tmp}/d.yaml"),
            says,
            setup=_file(
                "d.yaml",
                SCENARIO.replace(
                    "hands: {A: [AS, KH, 9D], B: [KS, QH, 8D], C: [QS, 9H, AC], D: [9S, AD, KC]}"
                    "\nretourne: 8C\n",
                    f"deck: [{deck}]\n",
                ),
            ),
        )
        for name, deck, says in (
            (
                "with-a-card-out-of-the-pack",
                ", ".join(r + s for r in "AKQ" for s in "SHDC") + ", JS",
                "d.yaml:6: deck.12: JS is not in the 20-card pack of foster",
            ),
            (
                "with-a-card-twice",
                "AS, " + ", ".join(r + s for r in "AKQ98" for s in "SHDC"),
                "d.yaml:6: deck.1: the deck holds AS twice (items 0 and 1)",
            ),
        )
    ],
    Case(
        "scenario-player-not-starting-with-a-letter",
        ("run", "{tmp}/u.yaml"),
        "player name '_' must be a word: a letter (a-z, A-Z) first",
        setup=_file(
            "u.yaml",
            SCENARIO.replace("[A, B, C, D]", "[A, B, C, _]").replace("dealer: D", "dealer: _"),
        ),
    ),
    # -- sessions --------------------------------------------------------------------------
    Case(
        "session-seeded-item-with-cards",
        ("session", "{tmp}/ss.yaml"),
        "ss.yaml:5: deals.0: 'retourne', 'exposed' go with 'hands'",
        setup=_file(
            "ss.yaml",
            "variant: foster\nplayers: [A, B, C, D]\ndealer: D\ndeals:\n"
            "  - {seed: 1, count: 1, retourne: 9C, exposed: QH}\n",
        ),
    ),
    Case(
        "session-first-cave-negative",
        ("session", "{tmp}/sc.yaml"),
        "sc.yaml:4: caves.A: Input should be greater than or equal to 1 (value: -100)",
        setup=_file(
            "sc.yaml",
            "variant: foster\nplayers: [A, B, C, D]\ndealer: D\ncaves: {A: -100}\n"
            "deals:\n  - {seed: 1, count: 1}\n",
        ),
    ),
    # -- profiles --------------------------------------------------------------------------
    Case(
        "profile-inherited-from-itself",
        ("variants", "show", "mine", "--variants", "{tmp}/p"),
        "mine.yaml:6: rules.stakes.cave.inherited_from: inherited_from names this very profile",
        setup=_file(
            "p/mine.yaml",
            PROFILE + "  stakes:\n    cave: {value: 200, source: foster, status: inferred, "
            "reason: x, inherited_from: mine}\n",
        ),
    ),
    Case(
        "profile-reason-of-spaces",
        ("variants", "show", "mine", "--variants", "{tmp}/p"),
        "a rule marked inferred needs a 'reason' saying why",
        setup=_file(
            "p/mine.yaml",
            PROFILE + "  stakes:\n    cave: {value: 200, source: foster, status: inferred, "
            'reason: "   "}\n',
        ),
    ),
    Case(
        "export-as-a-bundled-id",
        ("variants", "export", "foster", "--as", "pagat", "--out", "{tmp}/ex"),
        "--as pagat: that is the id of a bundled profile",
        gone=("ex",),
    ),
    Case(
        "profile-error-names-a-folder-as-written",
        ("variants", "list", "--variants", "{tmp}/règles"),
        "règles/my_foster.yaml: the profile's id",
        setup=_file("règles/my_foster.yaml", PROFILE + "  stakes: {cave: 100}\n"),
    ),
    # -- no output over what was read ------------------------------------------------------
    Case(
        "golden-csv-over-a-transcript-it-compared",
        ("golden", "--dir", "{tmp}/gold", "--csv", "{tmp}/gold/all-in-opening__foster.txt"),
        "all-in-opening__foster.txt: is an input of this command",
        setup=_golden,
        untouched=("gold",),
    ),
    Case(
        "differences-csv-over-a-scenario-it-saves",
        (
            *("differences", "foster", "pagat", "-n", "200", "--save", "{tmp}/d"),
            *("--csv", "{tmp}/d/diff-foster-pagat-betting-closing.yaml"),
        ),
        "the CSV file is one of the scenario files --save writes",
        setup=lambda tmp: (tmp / "d").mkdir(),
        gone=("d/diff-foster-pagat-betting-closing.yaml",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_files(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


@pytest.mark.parametrize(
    "year", ["1897-1909", "c. 1800", "1835 or 1878", "2010s-2020s", "18th century", "n.d.",
             "1909 (reprint of the 1897 text)", "undated (modern)", "1909 (2nd edition)",
             "1911 (11th ed.)", "1897-99", "1850/51", "2026-12-07", "s.d."],
)  # fmt: skip
def test_a_year_as_historians_write_it_reads(year: str) -> None:
    assert Work(author="A", title="T", year=year).year == year


@pytest.mark.parametrize("year", ["21500s", "99990s", "1897 or 99999", "5th century", "1400"])
# (a note's number, "2nd edition", names no year: "3rd edition" alone is refused as naming none)
def test_a_number_that_is_no_year_of_an_edition_is_refused(year: str) -> None:
    with pytest.raises(ValueError, match="is not a year of an edition"):
        Work(author="A", title="T", year=year)


def test_names_with_a_suffix_and_private_language_tags_read() -> None:
    work = Work(
        author="A", title="T", year="1900", authors=["Foster, Jr., R. F."], language="en-x-club"
    )
    assert work.language == "en-x-club"
