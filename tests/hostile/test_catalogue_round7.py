"""The hostile catalogue, round seven (issue 47): what a probe of every writer under hostile
conditions found.

- **Short writes to stdout.** Python's buffered writer took a short write of a large text
  (the file-size limit, ``ulimit -f``, with stdout a file; a pipe left non-blocking) for a
  whole one: ``schema profile``, ``sources --json`` or ``variants export foster`` wrote the
  first KiB of their output and ended with status 0. The rest is now written again, and
  fails in one line (exit 2), or is waited for (a non-blocking pipe).
- **Outputs together.** A command's outputs were put in place one file after the other: a
  rename refused half-way (a file busy, a mount, a full disk) left ``golden --write`` with
  144 of its 284 transcripts replaced, and ``sources --csv S --statements-csv T`` (or
  ``session``'s two tables, or ``strong solve --write --csv``, or ``--install-completion``'s
  script and start-up line) with one file new and the other old. What each output replaces
  is now kept until every output is in place, and put back when one fails
  (``rules/together.py``); the one line names the file that failed, not its folder.

- **Strict parsing, again.** A YAML tag let in what a plain value may not be (``!!int
  "0x10"`` read as 16, ``!!int "1:40"`` as 100); an empty argument was read as the current
  folder (``check ''`` checked it); ``--reading`` took ``020``, ``+20`` and ``20.0`` for 20
  and ``n`` or ``0`` for no; ``compare --only 'foster, pagat'`` trimmed the space other
  commands refuse; a work's year took a day that does not exist (``1897-13-45``) and a range
  that ends before it begins (``1909-02``); a work's language took a tag ``site.yaml``
  refuses (``en-scouse-scouse``); ``readings.yaml`` took readings of a rule holding several
  values, which no ``--reading`` can play.
- **Bounds.** ``strong solve --cave 0`` (the profile's own cave) skipped the bound of 1,000
  counters: a profile's 30-digit cave overflowed, a traceback.

The rename failures are those a mount or a busy file gives, injected here into
``os.replace`` (no test may mount a file system); each test was shown failing before its
fix.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bouillotte.rules import together

from . import test_catalogue as catalogue
from .test_catalogue import ENGINE, HANG, Case, Cleanup, _edit, _editor_folder
from .test_catalogue_works import LIST_ED, _work

FILE_SIZE = ((resource.RLIMIT_FSIZE, 1024),)

ED = ("--variants", "{tmp}/ed/variants", "--scenarios", "{tmp}/ed/scenarios")
NUMBERED_READINGS = """readings:
  - id: blind-size
    rule: forced_bets.dealer_blind
    source: house-rules
    locator: "Forced bets"
    quote: "the dealer puts up a blind of two counters"
    question: How large is the blind?
    readings: [{value: 2, meaning: two}, {value: 20, meaning: twenty}]
    scenario: our-table-nobody-opens
    variant: our-table
"""


def _profile(rules: str) -> Callable[[Path], Cleanup]:
    """A profile of the editor's own (``mine``) on top of foster-three, with ``rules``."""

    def setup(tmp: Path) -> Cleanup:
        folder = _editor_folder(tmp)
        (folder / "mine.yaml").write_text(
            "title: Mine\nsource: house-rules\nextends: foster-three\nrules:\n" + rules,
            encoding="utf-8",
        )
        return None

    return setup


def _cited(value: str) -> str:
    return (
        f"{{value: {value}, source: house-rules, locator: Forced bets, "
        'quote: "the dealer puts up a blind of two counters", status: paraphrased}'
    )


def _readings(text: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (_editor_folder(tmp) / "readings.yaml").write_text(text, encoding="utf-8")
        return None

    return setup


def _year(year: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        _edit(_editor_folder(tmp) / "sources.yaml", 'year: "', f'year: "{year}" # ')
        return None

    return setup


def _yml(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "our-table-2.yml").write_text("title: Two\n", encoding="utf-8")
    return None


RUN_MINE = ("run", "our-table-nobody-opens", *ED)
PARSED = [
    Case(
        "yaml-int-tag-in-hexadecimal",
        ("variants", "show", "mine", "--variants", "{tmp}/ed/variants"),
        "!!int '0x10' is not a number as this tool reads one",
        setup=_profile("  forced_bets:\n    dealer_blind: " + _cited('!!int "0x10"') + "\n"),
    ),
    Case(
        "yaml-int-tag-in-base-sixty",
        ("variants", "show", "mine", "--variants", "{tmp}/ed/variants"),
        "!!int '1:40' is not a number as this tool reads one",
        setup=_profile("  stakes:\n    cave: " + _cited('!!int "1:40"') + "\n"),
    ),
    Case(
        "strong-solve-a-profile-s-own-cave-past-the-bound",
        ("strong", "solve", "-v", "{tmp}/ed/variants/mine.yaml", "--cave", "0", "--bets", "all"),
        "own cave (stakes.cave), 999,999,999,999,999,999,999,999,999,999, is more than 1,000",
        setup=_profile(f"  stakes:\n    cave: {_cited('999999999999999999999999999999')}\n"),
    ),
    Case(
        "check-an-empty-argument", ("check", ""), "Invalid value for PATH: it is empty", real=True
    ),
    Case(
        "run-an-empty-argument", ("run", ""), "Invalid value for SCENARIO: it is empty", real=True
    ),
    *(
        Case(
            f"reading-written-{written}",
            (*RUN_MINE, "--reading", f"forced_bets.dealer_blind={written}"),
            f"'{written}' is not a reading of forced_bets.dealer_blind; its readings: 2, 20",
            setup=_readings(NUMBERED_READINGS),
        )
        for written in ("020", "+20", "20.0")
    ),
    Case(
        "reading-given-twice-alike",
        (*RUN_MINE, *("--reading", "forced_bets.dealer_blind=20") * 2),
        "the reading forced_bets.dealer_blind=20 is given twice",
        setup=_readings(NUMBERED_READINGS),
    ),
    Case(
        "readings-of-a-rule-of-several-values",
        ("readings", "--variants", "{tmp}/ed/variants"),
        "bonuses.carre holds several (a mapping or a list), so no reading of it can be played",
        setup=_readings(
            NUMBERED_READINGS.replace("forced_bets.dealer_blind", "bonuses.carre").replace(
                "{value: 2,", "{value: {amount: 8, paid_by: every-other-player},"
            )
        ),
    ),
    Case(
        "compare-only-with-a-space",
        ("compare", "foster-sight", "--only", "foster, pagat"),
        "' pagat' is not an id",
    ),
    Case(
        "work-year-a-day-that-does-not-exist",
        LIST_ED,
        "'1897-13-45' is not a day that exists",
        setup=_year("1897-13-45"),
    ),
    Case(
        "work-year-a-short-range-backwards",
        LIST_ED,
        "'1909-02' reads as a range from 1909 back to 1902",
        setup=_year("1909-02"),
    ),
    Case(
        "differences-of-a-system-with-itself",
        ("differences", "foster", "foster", "-n", "10"),
        "nothing to compare: FIRST and SECOND are both foster",
    ),
    Case(
        "work-url-with-a-percent-that-escapes-nothing",
        LIST_ED,
        "the url holds '%zz', which is no percent-encoding: write % as %25",
        setup=_work('w: {author: A, title: T, year: "2020", url: "https://x.org/%zz"}'),
    ),
    Case(
        "work-year-a-number-unquoted",
        LIST_ED,
        'works.house-rules.year: Input should be text: write it in quotes ("2026")',
        setup=lambda tmp: _edit(_editor_folder(tmp) / "sources.yaml", 'year: "2026"', "year: 2026"),
    ),
    Case(
        "profile-in-a-file-ending-in-yml",
        ("variants", "show", "our-table-2", "--variants", "{tmp}/ed/variants"),
        "our-table-2.yml is there, but not read: a profile's file name ends in .yaml",
        setup=_yml,
    ),
    Case(
        "sweep-vary-a-number-of-21-digits",
        ("sweep", "foster", "--vary", "stakes.cave=999999999999999999999", "-n", "2"),
        "write a whole number in the digits 0-9, without a leading zero, of at most 20 digits",
    ),
    Case(
        "work-language-a-variant-twice",
        LIST_ED,
        "'en-scouse-scouse' is not a language tag: its variant subtag 'scouse' is given twice",
        setup=_work('w: {author: A, title: T, year: "2020", language: en-scouse-scouse}'),
    ),
]

CASES = [
    *PARSED,
    *(
        Case(
            f"{'-'.join(argv)}-to-a-file-past-the-file-size-limit",
            argv,
            "cannot write to stdout: File too large",
            stdout="file",
            limits=FILE_SIZE,
        )
        for argv in (("schema", "profile"), ("sources", "--json"), ("variants", "export", "foster"))
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round7(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_a_large_report_to_a_non_blocking_pipe_is_written_whole(tmp_path: Path) -> None:
    """A pipe left non-blocking (``O_NONBLOCK``) by whoever started the command, read
    late: the reader got the first 64 KiB of ``schema profile``'s 273 KB, and status 0."""
    reader, writer = os.pipe()
    fcntl.fcntl(writer, fcntl.F_SETFL, fcntl.fcntl(writer, fcntl.F_GETFL) | os.O_NONBLOCK)
    with os.fdopen(reader, "rb") as late, os.fdopen(writer, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bouillotte", "schema", "profile"],
            stdout=out,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ENGINE)},
            cwd=tmp_path,
        )
        out.close()
        time.sleep(1.0)  # the pipe fills, and the writer is told it would block
        text = late.read()
        err = proc.communicate(timeout=HANG)[1]
    assert proc.returncode == 0, err
    assert json.loads(text)["title"] == "VariantProfile"


# -- outputs together ----------------------------------------------------------------------


def _busy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The first rename of a new file onto ``name`` fails as a mount point or a busy file
    makes it fail; the names renamed onto, in order."""
    real = os.replace
    renamed: list[str] = []

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str], **kwargs: object) -> None:
        target = Path(dst).name
        if target == name and "kept" not in Path(src).name and name not in renamed:
            renamed.append(target)
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), str(dst))
        renamed.append(target)
        real(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    return renamed


@pytest.fixture(params=["linked", "copied"])
def kept_as(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """What a replaced file is kept as: a second name (a hard link), or a copy where the
    file system has no hard links."""
    if request.param == "copied":

        def no_link(*args: object, **kwargs: object) -> None:
            raise OSError(errno.EPERM, os.strerror(errno.EPERM))

        monkeypatch.setattr(os, "link", no_link)
    yield request.param


def _run(argv: list[str], cwd: Path) -> tuple[int, str]:
    code, _, err = catalogue._in_process(argv, cwd)
    assert "Traceback" not in err, err
    return code, err


@pytest.mark.parametrize("failing", ["s.csv", "t.csv"])
def test_two_tables_are_both_new_or_both_as_they_were(
    failing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_as: str
) -> None:
    for name in ("s.csv", "t.csv"):
        (tmp_path / name).write_text(f"old {name}\n", encoding="utf-8")
    (tmp_path / "t.csv").chmod(0o640)
    inode = (tmp_path / "t.csv").stat().st_ino
    renamed = _busy(monkeypatch, failing)
    argv = ["sources", "--csv", "s.csv", "--statements-csv", "t.csv"]
    code, err = _run(argv, tmp_path)
    assert code == 2, err
    assert f"{failing}: cannot write: Device or resource busy" in err, err
    assert failing in renamed  # the refused rename was reached
    for name in ("s.csv", "t.csv"):
        assert (tmp_path / name).read_text(encoding="utf-8") == f"old {name}\n", name
    assert (tmp_path / "t.csv").stat().st_mode & 0o777 == 0o640
    if kept_as == "linked":
        assert (tmp_path / "t.csv").stat().st_ino == inode  # the very file put back
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv", "t.csv"]
    monkeypatch.undo()
    assert _run(argv, tmp_path)[0] == 0  # and the retry succeeds
    assert (tmp_path / "t.csv").read_text(encoding="utf-8") != "old t.csv\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv", "t.csv"]


def test_the_session_s_two_tables_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a.csv", "d.csv"):
        (tmp_path / name).write_text("old\n", encoding="utf-8")
    _busy(monkeypatch, "a.csv")
    code, err = _run(
        ["session", "foster-rebuy", "--csv", "a.csv", "--deals-csv", "d.csv"], tmp_path
    )
    assert code == 2, err
    assert [(tmp_path / n).read_text(encoding="utf-8") for n in ("a.csv", "d.csv")] == ["old\n"] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "d.csv"]


def test_golden_write_replaces_every_transcript_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_as: str
) -> None:
    """One rename refused half-way left 144 of 284 transcripts replaced."""
    assert _run(["golden", "--write", "--dir", "g"], tmp_path)[0] == 0
    kept = sorted((tmp_path / "g").iterdir())
    for path in kept:
        path.write_text("scenario: x\nvariant: y\n", encoding="utf-8")
    _busy(monkeypatch, kept[len(kept) // 2].name)
    code, err = _run(["golden", "--write", "--dir", "g"], tmp_path)
    assert code == 2, err
    assert f"{kept[len(kept) // 2].name}: cannot write: Device or resource busy" in err
    assert sorted((tmp_path / "g").iterdir()) == kept  # nothing kept or staged is left
    changed = [p.name for p in kept if p.read_text(encoding="utf-8") != "scenario: x\nvariant: y\n"]
    assert changed == []


def test_the_completion_s_script_is_undone_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``.bashrc`` that cannot be replaced (a file mounted into a container) left the
    script installed without the line that loads it, and named the home folder."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# mine\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    _busy(monkeypatch, ".bashrc")
    code, err = _run(["--install-completion", "bash"], tmp_path)
    assert code == 2, err
    assert ".bashrc: cannot write: Device or resource busy" in err, err
    assert (home / ".bashrc").read_text(encoding="utf-8") == "# mine\n"
    assert sorted(p.name for p in home.rglob("*")) == [".bash_completions", ".bashrc"]


def test_a_failure_after_the_first_output_is_in_place_undoes_it(tmp_path: Path) -> None:
    """Not only a writer's own failure: any error of the block once a writer is in place
    (the command's report, say) puts back what it replaced."""
    from bouillotte.rules.writing import stage_file

    (tmp_path / "a.csv").write_text("old\n", encoding="utf-8")
    placed: list[str] = []

    def after() -> None:  # run once both files are in place (callbacks run last first)
        placed.extend((tmp_path / n).read_text(encoding="utf-8") for n in ("a.csv", "b.csv"))
        raise RuntimeError("the report failed")

    with pytest.raises(RuntimeError), together.Together() as stack:
        stack.callback(after)
        stage_file(stack, tmp_path / "a.csv", "new\n")
        stage_file(stack, tmp_path / "b.csv", "new\n")
    assert placed == ["new\n", "new\n"]
    assert (tmp_path / "a.csv").read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv"]


# -- Ctrl-C at the edges of a command --------------------------------------------------------

WRAPPED_AT_START = """
import os, signal, sys
from bouillotte import cli
from bouillotte.cli import app as made

class Wrapping:  # as pydantic wraps an interrupt that lands while a model class is made
    def __call__(self, *args, **kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__ on 'PydanticDescriptorProxy'") from exc

made.app = Wrapping()
sys.argv = ["bouillotte", "variants", "list"]
cli.main()
"""

AFTER_THE_FILES = """
import os, signal, sys
import typer
from bouillotte import cli

said = typer.echo

def echo(message=None, *args, **kwargs):
    if str(message).startswith("wrote"):  # the folder is in place: Ctrl-C as it is said
        os.kill(os.getpid(), signal.SIGINT)
    said(message, *args, **kwargs)

typer.echo = echo
sys.argv = ["bouillotte", "new", sys.argv[1]]
cli.main()
"""


def _script(script: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        timeout=HANG,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_ctrl_c_that_a_library_wraps_at_start_up_is_an_interruption(tmp_path: Path) -> None:
    """About one Ctrl-C in 80 landed while pydantic made a model class, which wrapped it in
    a ``RuntimeError``: a traceback and exit 1."""
    done = _script(WRAPPED_AT_START, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (130, "interrupted\n"), done.stderr


def test_ctrl_c_once_the_files_are_in_place_lets_the_command_finish(tmp_path: Path) -> None:
    """``new`` said "interrupted" (exit 130) for a folder it had made whole, and the retry a
    script makes on 130 was refused: "already exists and is not an empty folder"."""
    done = _script(AFTER_THE_FILES, "made", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Ctrl-C came once the files were in place: they are all written" in done.stderr
    assert (tmp_path / "made" / "README.md").is_file()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_once_the_files_are_in_place_stops_a_report_held_by_its_reader(
    tmp_path: Path, signum: int
) -> None:
    """A report to a pipe whose reader stalled, once ``--csv`` was written: the signal
    waited until the reader read (a review held it 10 s), as "too late" for the rest of the
    command. It stops the command at once now, as written (exit 0)."""
    reader, writer = os.pipe()
    try:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bouillotte",
                *("variants", "show", "foster"),
                "--json",
                "--csv",
                "t.csv",
            ],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ENGINE)},
            # as a shell starts a command, whatever a test worker ignores (SIGINT)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        os.close(writer)
        deadline = time.monotonic() + HANG
        while not (tmp_path / "t.csv").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # the report fills the pipe, and waits for its reader
        proc.send_signal(signum)
        started = time.monotonic()
        err = proc.communicate(timeout=HANG)[1]
        took = time.monotonic() - started
    finally:
        os.close(reader)
    assert proc.returncode == 0, err
    assert took < 5, took
    assert "came once the files were in place: they are all written" in err, err
    assert (tmp_path / "t.csv").read_text(encoding="utf-8").startswith("rule,name,")


def test_notes_keep_their_place_on_an_unbuffered_stream(tmp_path: Path) -> None:
    """Under ``PYTHONUNBUFFERED`` (Python's streams then write through), the streams put on
    whole writes kept a buffer: a note on stderr came after the table, not before it."""
    mine = tmp_path / "mine"
    mine.mkdir()
    profile = (ENGINE.parent / "variants" / "foster.yaml").read_text(encoding="utf-8")
    (mine / "foster.yaml").write_text("replaces: true\n" + profile, encoding="utf-8")
    with (tmp_path / "out.txt").open("wb") as out:
        subprocess.run(
            [sys.executable, "-m", "bouillotte", "variants", "list", "--variants", "mine"],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ENGINE), "PYTHONUNBUFFERED": "1"},
            check=True,
            timeout=HANG,
        )
    first = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("note: using mine/foster.yaml (replaces: true)"), first


# -- a mount point as the folder a command makes or replaces ---------------------------------


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["site", "build", "--out", "m"], "a build renames a whole new folder into the place"),
        (["new", "m"], "the folder is made beside it and renamed into its place"),
    ],
    ids=["site-build-out", "new"],
)
def test_a_mount_point_is_refused_before_the_work(
    argv: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mount point cannot be renamed over (EBUSY): ``site build --out`` built the whole
    site first, then failed ("Device or resource busy"), and ``new`` failed as it ended. (The
    mount point is simulated: no test may mount a file system.)"""
    (tmp_path / "m").mkdir()
    monkeypatch.setattr(os.path, "ismount", lambda path: Path(path).name == "m")
    started = time.monotonic()
    code, err = _run(argv, tmp_path)
    assert code == 2, err
    assert f"m: is a mount point: {says}" in err, err
    assert time.monotonic() - started < 20  # before the build, not after it
    assert list((tmp_path / "m").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


@pytest.mark.parametrize(
    ("year", "read"),
    [("1899-00", True), ("1898/02", True), ("1897-99", True), ("1909-02", False)],
)
def test_a_short_range_may_cross_into_the_next_century(year: str, read: bool) -> None:
    """``1899-00`` (1899 to 1900) is a range, as bibliographies write it; ``1909-02`` is
    refused still (1909 back to 1902, or February 1909?)."""
    from bouillotte.rules.citations import checked_year

    if read:
        assert checked_year(year) == year
    else:
        with pytest.raises(ValueError, match="reads as a range from 1909 back to 1902"):
            checked_year(year)
