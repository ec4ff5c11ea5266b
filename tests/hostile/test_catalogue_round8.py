"""Issue 47, round eight of the catalogue: what the round's probes of every command and
option found (each case failed before its fix).

- a traceback: the API's ``Simulation`` could not be printed when every deal of a system
  was void (its average pot is none), in a notebook as soon as the result is shown;
- unbounded memory within a bound: a session of 1,000,000 deals, which the bound allowed,
  would have taken some 6 GB (it keeps each deal to report it): the bound is 100,000;
- strict values: ``effects --write --jobs 0`` ran with one process; ``BOUILLOTTE_CACHE=" "``
  made a folder named by a space, a relative one a cache in every folder a command runs
  from; ``SOURCE_DATE_EPOCH`` was trimmed (``" 1700000000\n"``) or, all blank (U+3000),
  taken as unset;
- messages: a usage error (``--x\u200bz``) printed what was typed raw, a zero-width space
  too; a path of more than 40 characters was cut to its first 20 in a refusal of an
  option's value (two ``--csv`` files given read as one);
- wrong successes: ``variants diff foster foster`` said "0 rules differ"; ``"foster" in
  systems()`` was false while ``systems()["foster"]`` found it; a profile that says
  ``replaces: true`` with nothing to replace (its file's name mistyped) was read in silence
  as a system of its own, the bundled one it was meant to replace still in use.
"""

from __future__ import annotations

from operator import contains
from pathlib import Path

import pytest

import bouillotte as api

from . import test_catalogue as catalogue
from .test_catalogue import Case, _editor_folder


def _session(count: int) -> object:
    def setup(tmp: Path) -> None:
        (tmp / "s.yaml").write_text(
            "variant: foster\nplayers: [A, B, C, D]\ndealer: D\ndeals:\n"
            f"  - {{seed: 7, count: {count}, policy: random}}\n"
            "  - {seed: 1, count: 1, policy: random}\n",
            encoding="utf-8",
        )

    return setup


CSV_TWICE = (
    "--csv",
    "{tmp}/results/a/simulation-a.csv",
    "--csv",
    "{tmp}/results/a/simulation-b.csv",
)

CASES = [
    Case(
        "session-one-deal-past-the-bound",
        ("session", "{tmp}/s.yaml"),
        "s.yaml:4: deals: the session's items add up to 100,001 deals; a session plays at most "
        "100,000",
        setup=_session(100_000),  # type: ignore[arg-type]
        within=20,
    ),
    Case(
        "effects-write-with-no-process",
        ("effects", "--write", "--jobs", "0"),
        "--jobs must be at least 1 (value: 0)",
    ),
    Case(
        "usage-error-quoting-a-zero-width-space",
        ("run", "--x\u200bz"),
        "No such option: --x\\u200bz",
        real=True,
        never=("\u200b",),
    ),
    Case(
        "csv-given-twice-names-both-paths-whole",
        ("simulate", "-v", "foster", *CSV_TWICE),
        "/results/a/simulation-a.csv' and '",
        real=True,
    ),
    *(
        Case(
            f"help-of-{'-'.join(argv) or 'bouillotte'}-alone-whole-and-on-its-lines",
            argv,
            " ".join(("bouillotte", *argv, "[OPTIONS] COMMAND [ARGS]...\n\n  ")),
            real=True,
            one_line=False,
            never=("\\u000a", " characters)"),
        )
        for argv in ((), ("strong",), ("variants",))
    ),
    Case(
        "variants-diff-of-a-system-with-itself",
        ("variants", "diff", "foster", "foster"),
        "nothing to compare: FIRST and SECOND are both foster; name two systems",
    ),
    *(
        Case(
            f"cache-folder-{name}",
            ("cache", "info"),
            "BOUILLOTTE_CACHE must be the absolute path of a folder, with no space around it",
            env=(("BOUILLOTTE_CACHE", value),),
            real=True,
            gone=gone,
        )
        for name, value, gone in (
            ("a-space", " ", (" ",)),
            ("relative", "rel", ("rel",)),
            ("with-a-trailing-space", "{tmp}/c ", ("c ",)),
        )
    ),
    Case(
        "cache-folder-relative-refused-by-every-command-that-caches",
        ("variants", "list"),
        "BOUILLOTTE_CACHE must be the absolute path of a folder",
        env=(("BOUILLOTTE_CACHE", "rel"),),
        real=True,
        gone=("rel",),
    ),
    *(
        Case(
            f"source-date-epoch-{name}",
            ("site", "build", "--out", "{tmp}/site"),
            "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 (UTC)",
            env=(("SOURCE_DATE_EPOCH", value),),
            real=True,
            gone=("site",),
        )
        for name, value in (
            ("with-spaces-around", " 1700000000\n\t"),
            ("blank", "\u3000"),
        )
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round8(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


@pytest.mark.parametrize(
    ("systems", "seed"),
    [(["foster"], 0), (["foster", "pagat", "brelan-pierer"], 3)],
    ids=["one", "three"],
)
def test_a_simulation_whose_deals_are_all_void_prints(systems: list[str], seed: int) -> None:
    """One deal each, every player cautious: the deal is void under some of these."""
    result = api.simulate(systems, deals=1, policy="cautious", seed=seed)
    shown = repr(result)
    assert shown.startswith(f"simulate: 1 deal each, policy cautious, seed {seed}")
    void = [r for r in result.data if r["average_pot"]["mean"] is None]
    assert void, "no system's deal was void: the case no longer tests what it says"
    for report in void:
        assert (
            f"  {report['variant']}: decided by void 100.0%; no pot won, every deal void" in shown
        )
    assert len(result.table().csv_text().splitlines()) > 1


def test_a_system_is_in_the_systems_by_its_id() -> None:
    systems = api.systems()
    # ``in`` (operator.contains: mypy reads a Sequence of System as holding no text)
    assert contains(systems, "foster") and systems[0] in systems
    assert not contains(systems, "fostre") and not contains(systems, 0)


def test_replaces_with_nothing_to_replace_is_noted(tmp_path: Path) -> None:
    folder = _editor_folder(tmp_path)
    (folder / "fostre.yaml").write_text(
        "replaces: true\ntitle: Mine\nsource: house-rules\nextends: foster\nrules: {}\n",
        encoding="utf-8",
    )
    code, out, err = catalogue._in_process(
        ["variants", "show", "fostre", "--variants", str(folder)], tmp_path
    )
    assert code == 0, err
    assert "fostre: Mine" in out
    assert (
        f"note: {folder / 'fostre.yaml'} says 'replaces: true', but no bundled profile or "
        "profile of an earlier folder is 'fostre': it is a system of its own" in err
    )
    code, _, err = catalogue._in_process(
        ["variants", "show", "our-table", "--variants", str(folder)], tmp_path
    )
    assert code == 0 and "replaces" not in err, err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "title: x\nrules:\n  stakes:\n  cave: 3\n    x: 1\n",
            "mine.yaml:5: not valid YAML: mapping values are not allowed in this context (a key "
            "is indented more or less than the keys beside it",
        ),
        (
            "title: x\nrules:\n  stakes:\n    cave: 3\n   ante: 1\n",
            "mine.yaml:5: not valid YAML: did not find expected key (a line is indented more or "
            "less than the keys beside it, here or above)",
        ),
        ("title: x\nrules:\n\tstakes: 1\n", "(a tab, where YAML indents with spaces only;"),
    ],
    ids=["a-key-indented-out", "a-key-indented-in", "a-tab"],
)
def test_a_newcomer_s_yaml_mistake_says_where_it_comes_from(
    tmp_path: Path, text: str, says: str
) -> None:
    """PyYAML's words say what it met ("mapping values are not allowed in this context"),
    not what a newcomer did: the line says that too (the newcomer's session of round
    eight moved a key one level out and read only the parser's words)."""
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "mine.yaml").write_text(text, encoding="utf-8")
    code, _, err = catalogue._in_process(["variants", "show", "mine", "--variants", "v"], tmp_path)
    assert code == 2 and says in err, err


def test_a_rule_s_meaning_is_shown_once_and_as_words(tmp_path: Path) -> None:
    """``variants show`` wrote "What a straddle adds: What a straddle adds: ``double-the-
    last`` ..." (a docstring that begins with the rule's title, its markup as typed)."""
    code, out, err = catalogue._in_process(["variants", "show", "foster"], tmp_path)
    assert code == 0, err
    meanings = [line for line in out.splitlines() if line.strip().startswith("means:")]
    assert len(meanings) > 40
    assert not [m for m in meanings if "``" in m or m.count("What a straddle adds:") > 1]
    assert any("means: What a straddle adds: double-the-last brings" in m for m in meanings)


def test_one_counter_still_carried_is_one_counter(tmp_path: Path) -> None:
    code, out, err = catalogue._in_process(["session", "pagat-teaching"], tmp_path)
    assert code == 0, err
    assert "the 1 counter still carried is shared equally: 1/4 each" in out + err
