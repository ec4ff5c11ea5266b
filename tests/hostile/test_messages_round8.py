"""Issue 47, round eight: the messages themselves (each case failed before its fix).

- **Long values echoed whole.** A 100 KB policy, rule, pair, seed list, bet size or path was
  shown in full on the one error line (100,000 characters); every value and path a message
  shows is now cut as ``-v`` cut one: ``'xxxx...'... (100,000 characters)``.
- **Bounds without the value.** ``strong exploit --samples 1001`` and the other options
  bounded by Typer said only pydantic's "Input should be less than or equal to 1000"; they
  now name the option, the bound and the value, as ``--deals`` does.
- **Leading zeros.** ``--seed 00005`` and ``--jobs -0`` were read as 5 and 0, where
  ``--vary`` and a policy's tendencies refuse them; a chance written ``.2``, ``0.`` or
  ``1.00`` was played under a label of its own.
- **Places.** A profile's ``players: 2`` with no pack for two was reported at ``rules:``
  under the field ``rules.``; a scenario's key ``~`` at line 1 as Python's ``None``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import test_catalogue as catalogue
from .test_catalogue import Case, _editor_folder

LONG = "x" * 100_000
LONGEST_LINE = 2_100
"""The longest error line any of these may print: a message is cut to about 2,000
characters (``errors.MAX_LINE_SHOWN``), each value or path in it to 400 (the longest,
``--rule``'s, shows the value cut and lists the 21 rules on which foster and pagat differ)."""

IN_PROCESS_LONG = {
    "policy": ("simulate", "-v", "foster", "-n", "2", "--policy", LONG),
    "strong-table-against": ("strong", "table", "-v", "foster", "--against", LONG),
    "sweep-vary": ("sweep", "foster", "--vary", LONG),
    "strong-bands-rule": ("strong", "bands", "-v", "foster", "-v", "pagat", "--rule", LONG),
    "strong-bands-seeds": ("strong", "bands", "-v", "foster", "-v", "pagat", "--seeds", LONG),
    "strong-solve-bets": ("strong", "solve", "-v", "foster", "--bets", "x" * 120_000),
    "run-path": ("run", LONG),
    "session-path": ("session", LONG),
    "new-path": ("new", LONG),
    "golden-dir": ("golden", "--dir", LONG),
    "site-build-out": ("site", "build", "--out", LONG),
    "site-build-config": ("site", "build", "--config", LONG),
    "strong-solve-system-path": ("strong", "solve", "-v", LONG),
    "variants-folder": ("compare", "--variants", LONG),
}
PROCESS_LONG = {
    "an-unknown-option": ("run", f"--{LONG}"),
    "an-extra-argument": ("odds", LONG),
    "an-unknown-command-of-a-group": ("strong", LONG),
    "a-whole-number": ("cache", "clear", "--older-than", LONG),
}


def _assert_cut(code: int, err: str) -> None:
    assert "Traceback" not in err, err[:2000]
    assert code == 2, err[:2000]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err[:2000]
    assert len(lines[0]) <= LONGEST_LINE, f"{len(lines[0]):,} characters: {lines[0][:300]}"
    assert "characters)" in lines[0], lines[0]


@pytest.mark.parametrize("argv", IN_PROCESS_LONG.values(), ids=IN_PROCESS_LONG.keys())
def test_a_long_value_is_cut_on_the_error_line(argv: tuple[str, ...], tmp_path: Path) -> None:
    code, _, err = catalogue._in_process(list(argv), tmp_path)
    _assert_cut(code, err)


@pytest.mark.parametrize("argv", PROCESS_LONG.values(), ids=PROCESS_LONG.keys())
def test_a_long_value_click_refuses_is_cut_too(argv: tuple[str, ...], tmp_path: Path) -> None:
    code, _, err = catalogue._as_process(Case("long", argv, ""), list(argv), tmp_path, tmp_path)
    _assert_cut(code, err)


def _profile_of_two_players(tmp: Path) -> catalogue.Cleanup:
    (_editor_folder(tmp) / "mine.yaml").write_text(
        "title: Mine\nsource: house-rules\nextends: foster\nrules:\n  table:\n    players: 2\n",
        encoding="utf-8",
    )
    return None


def _scenario_with_a_null_key(tmp: Path) -> catalogue.Cleanup:
    folder = _editor_folder(tmp).parent / "scenarios"
    text = (folder / "our-table-nobody-opens.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[12].startswith("players:"), lines[12]
    lines.insert(12, "~: 1")  # line 13, after the notes
    (folder / "nulled.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return None


OWN_CACHE = (("BOUILLOTTE_CACHE", "{tmp}/cache"),)
"""``cache clear`` run on the case's own cache folder: ``--older-than -0`` emptied the
user's (read as 0 days)."""

BOUNDS = [
    Case(
        f"{'-'.join(a for a in argv if a not in ('-v', 'foster', 'pagat'))}",
        argv,
        said,
        real=argv[0] == "cache",
        env=OWN_CACHE,
    )
    for argv, said in (
        (
            ("strong", "exploit", "-v", "foster", "--samples", "1001"),
            "--samples must be at most 1,000 (value: 1001)",
        ),
        (
            ("strong", "solve", "-v", "foster", "--max-states", "10000001"),
            "--max-states must be at most 10,000,000 (value: 10000001)",
        ),
        (
            ("strong", "solve", "-v", "foster", "--iterations", "0"),
            "--iterations must be at least 1 (value: 0)",
        ),
        (
            ("strong", "solve", "-v", "foster", "--iterations", "-1"),
            "--iterations must be at least 1 (value: -1)",
        ),
        (
            ("cache", "clear", "--older-than", "36501"),
            "--older-than must be at most 36,500 (value: 36501)",
        ),
        (
            ("strong", "bands", "-v", "foster", "-v", "pagat", "--cave", "0"),
            "--cave must be at least 1 (value: 0)",
        ),
        (
            ("strong", "table", "-v", "foster", "--deals", "0"),
            "--deals must be at least 2 (value: 0)",
        ),
    )
]
ZEROS = [
    Case(
        f"{'-'.join(argv[:2])}-{written}",
        (*argv, written),
        f"'{written}' is not a whole number as written: write '{meant}', without {without}",
        real=True,
        env=OWN_CACHE,
    )
    for argv, written, meant, without in (
        (("simulate", "-v", "foster", "-n", "2", "--seed"), "00005", "5", "a leading zero"),
        (("simulate", "-v", "foster", "--deals"), "00005", "5", "a leading zero"),
        (("simulate", "-v", "foster", "-n", "2", "--jobs"), "-0", "0", "a minus"),
        (("cache", "clear", "--older-than"), "-0", "0", "a minus"),
        (("simulate", "-v", "foster", "-n", "2", "--seed"), "-05", "-5", "a leading zero"),
    )
]
CHANCES = [
    Case(
        f"policy-chance-written-{written}",
        ("simulate", "-v", "foster", "-n", "2", "--policy", f"bold:straddle={written}"),
        f"straddle is a chance, from 0 to 1 (as 0.25, in ASCII digits), not '{written}': "
        f"write '{meant}', with {how}",
    )
    for written, meant, how in (
        (".2", "0.2", "a digit on each side of the point"),
        ("0.", "0", "a digit on each side of the point"),
        ("1.00", "1", "no zero after the last decimal"),
        ("0.50", "0.5", "no zero after the last decimal"),
    )
]
PLACES = [
    Case(
        "profile-players-with-no-pack-at-its-own-line",
        ("variants", "show", "mine", "--variants", "{tmp}/ed/variants"),
        "mine.yaml:6: rules.table.players: table.packs has no pack for 2 players (it has "
        "packs for [3, 4, 5])",
        setup=_profile_of_two_players,
    ),
    Case(
        "scenario-null-key-at-its-own-line",
        ("run", "{tmp}/ed/scenarios/nulled.yaml", "--variants", "{tmp}/ed/variants"),
        "nulled.yaml:13: the key ~ is read as null, no name at all, which no key can be: give "
        "the key a name (in quotes, '~', to keep it as text)",
        setup=_scenario_with_a_null_key,
        never=("None",),
    ),
]
CASES = [*BOUNDS, *ZEROS, *CHANCES, *PLACES]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_messages_round8(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


@pytest.mark.parametrize("written", ["0", "1", "0.25", "0.123456789012345"])
def test_a_chance_written_plainly_is_played(written: str, tmp_path: Path) -> None:
    code, _, err = catalogue._in_process(
        ["simulate", "-v", "foster", "-n", "2", "-q", "--policy", f"bold:straddle={written}"],
        tmp_path,
    )
    assert code == 0, err
