"""The hostile catalogue, round four, part four (issue 47): what the number-making commands
and the site write and read, hostile.

- **No input written over**: a ``--csv`` naming the session or scenario file the command
  reads is refused (a file read as input is noted by the one reader, ``yamlsource``, and
  refused by the one writer, ``writing``), however it is spelled.
- **A command's outputs together**: two tables (or a table and the scenarios of
  ``differences --save``) are all written or none; ``golden --write`` removes only files
  that are transcripts.
- **Bounded and strict**: a session's items add up to a million deals at most; every whole
  number typed on the command line is ASCII digits (``--deals 1_000``, ``+10``, a seed of
  4,000 digits), and so is a value of ``--vary``, given once.
- **One honest line**: a file name with a line break or an escape cannot forge a second
  ``error:`` line; a fault of a rule a profile inherits, met because of what the profile
  changed, names the profile; ``--json`` and ``--csv -`` together are refused; ``--force`` without
  ``--write``; a named pipe where a scenario should be; a cache folder that is a file; a
  cluster whose frame is cut short (Dask's own traceback silenced).
- **The site**: a theme's link through a linked folder of its own, a theme of 1.2 GB, an
  ``--out`` whose name is not UTF-8.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

import os
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import pytest

from . import test_catalogue as catalogue
from .test_catalogue import FSIZE, Case, Cleanup, _editor_folder
from .test_catalogue_parse import _server
from .test_catalogue_works import _one_system

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "scenarios" / "sessions" / "pagat-teaching.yaml"
SCENARIO = ROOT / "scenarios" / "all-in-opening.yaml"


def _copy(source: Path, name: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        shutil.copyfile(source, tmp / name)
        return None

    return setup


def _linked_copy(tmp: Path) -> Cleanup:
    shutil.copyfile(SCENARIO, tmp / "sc.yaml")
    (tmp / "l.yaml").symlink_to("sc.yaml")
    return None


def _old_tables(tmp: Path) -> Cleanup:
    (tmp / "a.csv").write_text("OLD-A\n", "utf-8")
    (tmp / "b.csv").write_text("OLD-B\n", "utf-8")
    return None


def _golden_with_a_note(tmp: Path) -> Cleanup:
    (tmp / "g").mkdir()
    (tmp / "g" / "my__notes.txt").write_text("mine, named like a transcript\n", "utf-8")
    return None


def _long_session(tmp: Path) -> Cleanup:
    items = "".join(f"  - {{seed: {i}, count: 100000}}\n" for i in range(2000))
    (tmp / "long.yaml").write_text(
        f"variant: pagat\nplayers: [A, B, C, D]\ndealer: D\ndeals:\n{items}", "utf-8"
    )
    return None


def _fifo(name: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        os.mkfifo(tmp / name)
        return None

    return setup


def _theme_link_through_a_folder(tmp: Path) -> Cleanup:
    _editor_folder(tmp)
    theme = tmp / "ed" / "theme"
    (theme / "other").mkdir()
    (theme / "other" / "x.html").symlink_to("/etc/passwd")
    (theme / "templates" / "sub").symlink_to("../other")
    (theme / "templates" / "search.html").write_text(
        '{% extends "base.html" %}{% block main %}{% include "sub/x.html" %}{% endblock %}\n',
        "utf-8",
    )
    return None


def _huge_theme(tmp: Path) -> Cleanup:
    _editor_folder(tmp)
    assets = tmp / "ed" / "theme" / "assets"
    assets.mkdir(exist_ok=True)
    with (assets / "huge.bin").open("wb") as file:  # sparse: nothing on the disk
        file.truncate(1200 * 2**20)
    return None


def _bigger_hands(tmp: Path) -> Cleanup:
    (tmp / "own").mkdir()
    (tmp / "own" / "big.yaml").write_text(
        "title: Big\nsource: foster\nextends: foster\nrules:\n  table:\n"
        "    players: {value: 4, source: foster, status: inferred, reason: t}\n"
        "    hand_size: {value: 5, source: foster, status: inferred, reason: t}\n",
        "utf-8",
    )
    return None


SITE_ED = (
    *("site", "build", "--config", "{tmp}/ed/site.yaml", "--variants", "{tmp}/ed/variants"),
    *("--scenarios", "{tmp}/ed/scenarios", "--out", "{tmp}/out"),
)
NOT_A_NUMBER = "is not a whole number: write it in the digits 0-9"
CUT_SHORT = struct.pack("<Q", 24) + struct.pack("<QQQ", 1, 0, 5) + b"\0" * 5
"""A frame that says it is a Dask message and holds too few bytes of one."""

CASES = [
    # -- no input written over -----------------------------------------------------------
    Case(
        "session-csv-over-its-own-session-file",
        ("session", "{tmp}/s.yaml", "--csv", "{tmp}/s.yaml"),
        "s.yaml: is an input of this command",
        setup=_copy(SESSION, "s.yaml"),
        untouched=("s.yaml",),
    ),
    Case(
        "run-csv-over-its-scenario-through-a-link",
        ("run", "{tmp}/l.yaml", "--csv", "{tmp}/sc.yaml"),
        "sc.yaml: is an input of this command",
        setup=_linked_copy,
        untouched=("sc.yaml",),
    ),
    # -- a command's outputs together ----------------------------------------------------
    Case(
        "session-two-tables-one-too-large-leaves-both",
        ("session", "pagat-teaching", "--csv", "{tmp}/a.csv", "--deals-csv", "{tmp}/b.csv"),
        "b.csv: cannot write: File too large",
        setup=_old_tables,
        limits=((FSIZE, 1024),),
        untouched=("a.csv", "b.csv"),
        then=("session", "pagat-teaching", "--csv", "{tmp}/a.csv", "--deals-csv", "{tmp}/b.csv"),
    ),
    Case(
        "differences-csv-too-large-saves-no-scenario",
        (
            "differences",
            "foster",
            "pagat",
            "-n",
            "300",
            "--csv",
            "{tmp}/c.csv",
            "--save",
            "{tmp}/sv",
        ),
        "c.csv: cannot write: File too large",
        limits=((FSIZE, 2048),),
        gone=("sv", "c.csv"),
    ),
    Case(
        "golden-write-keeps-a-file-named-like-a-transcript",
        ("golden", "--write", "--dir", "{tmp}/g"),
        "0 stale removed",
        exit=0,
        setup=_golden_with_a_note,
        untouched=("g/my__notes.txt",),
        one_line=False,
    ),
    # -- bounded and strict ----------------------------------------------------------------
    Case(
        "session-of-two-hundred-million-deals",
        ("session", "{tmp}/long.yaml"),
        "long.yaml:4: deals: the session's items add up to 200,000,000 deals; a session "
        "plays at most 100,000",
        setup=_long_session,
        within=20,
    ),
    *[
        Case(
            f"deals-written-{name}",
            ("simulate", "-v", "foster", "-n", value, "-q"),
            says,
            real=True,
        )
        for name, value, says in (
            ("with-an-underscore", "1_000", f"'1_000' {NOT_A_NUMBER}"),
            ("with-a-plus", "+10", f"'+10' {NOT_A_NUMBER}"),
            ("after-a-space", " 10", f"' 10' {NOT_A_NUMBER}"),
            ("in-arabic-indic-digits", "١٠", f"'\\u0661\\u0660' {NOT_A_NUMBER}"),
        )
    ],
    Case(
        "deals-after-an-equals-sign",
        ("simulate", "-v", "foster", "--deals=1_0", "-q"),
        f"'1_0' {NOT_A_NUMBER}",
        real=True,
    ),
    Case(
        "deals-after-a-flag",
        ("simulate", "-v", "foster", "-q", "-n", "1_000"),
        f"'1_000' {NOT_A_NUMBER}",
        real=True,
    ),
    Case(  # the value of another option is no whole number to check, whatever it looks like
        "a-csv-file-named-like-an-option",
        ("simulate", "-v", "foster", "-n", "2", "-q", "--csv", "-n5x"),
        "Simulation: policy simple, seed 0",
        exit=0,
        made=("-n5x",),
        real=True,
    ),
    Case(
        "deals-joined-to-its-short-option",
        ("simulate", "-v", "foster", "-n1_0", "-q"),
        f"'1_0' {NOT_A_NUMBER}",
        real=True,
    ),
    Case(
        "seed-of-4000-digits",
        ("simulate", "-v", "foster", "-n", "3", "-q", "--seed", "9" * 4000),
        "99999' (4,000 characters) is not a whole number",
        real=True,
    ),
    Case(
        "port-with-a-letter",
        ("site", "serve", "--port", "80x"),
        f"'80x' {NOT_A_NUMBER}",
        real=True,
    ),
    Case(
        "vary-value-with-an-underscore",
        ("sweep", "foster", "--vary", "bonuses.carre.amount=1_000", "-n", "3", "-q"),
        "bonuses.carre.amount cannot be '1_000': write a whole number in the digits 0-9",
    ),
    Case(
        "vary-value-given-twice",
        ("sweep", "foster", "--vary", "point.suit_tie=eldest-first,eldest-first", "-n", "5"),
        "point.suit_tie: the value 'eldest-first' is given twice",
    ),
    Case(
        "strong-bands-rule-given-twice",
        (
            *("strong", "bands", "-v", "foster", "-v", "pagat", "--iterations", "5"),
            *("--deals", "5", "--seeds", "1", "--rule", "point.suit_tie"),
            *("--rule", "point.suit_tie"),
        ),
        "--rule: 'point.suit_tie' is given twice",
        within=20,
    ),
    # -- one honest line -------------------------------------------------------------------
    Case(
        "csv-named-with-a-line-break",
        ("odds", "-v", "foster", "--csv", "{tmp}/a\nb/c.csv"),
        "a\\u000ab/c.csv: no such folder for the CSV file",
    ),
    Case(
        "csv-named-with-an-escape",
        ("odds", "-v", "foster", "--csv", "\x1b[31mnodir/x.csv"),
        "\\u001b[31mnodir/x.csv: no such folder for the CSV file",
    ),
    *[
        Case(
            f"{command[0]}-json-and-csv-on-stdout",
            (*command, "--json", "--csv", "-"),
            "--json and --csv -: both print on stdout; give --csv a file",
        )
        for command in (
            ("simulate", "-v", "foster", "-n", "5", "-q"),
            ("compare", "foster-sight"),
            ("odds", "-v", "foster"),
        )
    ],
    Case(  # it named the bundled foster.yaml:19, which nobody changed
        "a-fault-of-an-inherited-rule-names-the-profile-read",
        ("odds", "-v", "big", "--variants", "{tmp}/own"),
        "big.yaml:4: rules.table.packs: 16 cards cannot deal 5 to each of 3 players",
        setup=_bigger_hands,
    ),
    Case(
        "effects-force-without-write",
        ("effects", "--force"),
        "--force: it recomputes up-to-date files with --write only: add --write",
    ),
    Case(
        "check-a-named-pipe",
        ("check", "{tmp}/ff.yaml"),
        "ff.yaml: not a scenario file nor a folder (a named pipe",
        setup=_fifo("ff.yaml"),
        within=10,
    ),
    Case(
        "cache-folder-a-file",
        ("cache", "info"),
        "the cache folder is not a folder: set BOUILLOTTE_CACHE to a folder",
        real=True,
        env=(("BOUILLOTTE_CACHE", "/etc/passwd"),),
    ),
    Case(
        "cluster-frame-cut-short",
        ("sweep", "foster", "--towards", "pagat", "--deals", "10", "--quiet", "--cluster"),
        "what answers there is not one, or not one this Dask can speak to",
        real=True,
        never=("Traceback", "CRITICAL"),
        within=30,
    ),
    # -- the site ----------------------------------------------------------------------------
    Case(
        "theme-link-out-through-a-linked-folder",
        SITE_ED,
        "x.html: a link to /etc/passwd, outside the theme",
        setup=_theme_link_through_a_folder,
        one_line=False,
        gone=("out",),
    ),
    Case(
        "theme-of-1200-mb",
        SITE_ED,
        "the theme holds more than 100,000 files or 1,073,741,824 bytes",
        setup=_huge_theme,
        one_line=False,
        gone=("out",),
    ),
    Case(
        "out-named-in-no-utf-8",
        (
            *("site", "build", "--no-bundled", "--variants", "{tmp}/own"),
            *("--out", os.fsdecode(b"{tmp}/site\xff")),
        ),
        "built ",
        exit=0,
        setup=_one_system,
        real=True,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_outputs(case: Case, case_dir: Path) -> None:
    if case.id == "cluster-frame-cut-short":
        with _server(CUT_SHORT) as port:
            argv = (*case.argv, f"tcp://127.0.0.1:{port}")
            catalogue.test_hostile_input(Case(**{**case.__dict__, "argv": argv}), case_dir)
        return
    catalogue.test_hostile_input(case, case_dir)
