"""Writers, round seven: what the hostile review of the writing commands found (probe 7).

- A signal held back while the files were put in place was raised once they were: the
  command said ``interrupted`` (exit 130, or 143 for SIGTERM) though every file was
  written, and the retry a script makes on that status was refused (``variants export``:
  "would overwrite a file already there"). It came too late to stop anything: the command
  now finishes as it would have (its report, exit 0), and says so on stderr; Ctrl-C before
  the files are put in place still exits 130 with nothing written.
- ``effects --write`` refused a stored file it could not replace (a named pipe, a link,
  one made read-only) only once that pair's sweep was done, minutes in, throwing away the
  pairs before it: every file it will write is now checked before anything is computed.
- ``effects --write`` said "PAIR: written to FILE" as soon as a pair was computed, before
  the files were put in place: a run interrupted or failing later said it of files it never
  wrote. It says "PAIR: computed" then, and "written to" once the files are in place.
- ``effects --pair A__B --deals 5`` (newcomer review, defect 7) suggested
  `bouillotte effects --write --deals 5`, which, copied, rewrote every stored pair at 5
  deals: the command it suggests keeps the ``--pair`` options given.

Each test was shown failing before its fix.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant
from bouillotte.rules.writing import Output, check_target_file
from bouillotte.site import effects_store, everyrule

ROOT_ENGINE = Path(__file__).resolve().parent.parent / "engine" / "bouillotte"

ENGINE = Path(__file__).resolve().parents[1] / "engine"
RUNNER = CliRunner()
EFFECTS = importlib.import_module("bouillotte.cli.commands.effects")


@pytest.fixture()
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT as in a command (whatever an earlier test of this worker process left it to)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


# -- 1. a signal during the renames comes too late to stop the write -------------------------


def _ctrl_c_as_the_first_file_is_put_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def replace(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(os, "replace", real)
        os.kill(os.getpid(), signal.SIGINT)
        real(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_during_the_renames_lets_the_write_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bouillotte.rules.interrupts import a_command_finishes

    _ctrl_c_as_the_first_file_is_put_in_place(monkeypatch)
    try:
        with a_command_finishes(), Output(tmp_path / "out", "add") as out:  # as main() runs
            out.add("a.txt", "a\n")
            out.add("b.txt", "b\n")
    except KeyboardInterrupt:  # caught: pytest would stop the whole run
        pytest.fail("interrupted once every file was in place")
    # the files are all in place, and the command goes on to its report
    assert out.written == [tmp_path / "out" / "a.txt", tmp_path / "out" / "b.txt"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.txt", "b.txt"]
    err = capsys.readouterr().err
    assert err.startswith("Ctrl-C came as the files were put in place")
    assert "all written" in err


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_during_the_renames_in_python_is_heard_once_the_files_are_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Called from Python (the API's ``to_csv`` in a user's loop), no command ends soon
    after the write: a signal during the renames is raised once every file is in place,
    never lost (round seven's first fix let the loop run on)."""
    _ctrl_c_as_the_first_file_is_put_in_place(monkeypatch)
    with pytest.raises(KeyboardInterrupt), Output(tmp_path / "out", "add") as out:
        out.add("a.txt", "a\n")
        out.add("b.txt", "b\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.txt", "b.txt"]
    assert "too late" not in capsys.readouterr().err


@pytest.mark.usefixtures("ctrl_c_raises")
def test_a_server_s_rebuild_is_stopped_once_its_files_are_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``site serve --watch`` rebuilds inside ``heard_after_writing``: Ctrl-C during the
    swap is meant for the server, which stops once the files are whole."""
    from bouillotte.rules.interrupts import heard_after_writing

    _ctrl_c_as_the_first_file_is_put_in_place(monkeypatch)
    with (
        pytest.raises(KeyboardInterrupt),
        heard_after_writing(),
        Output(tmp_path / "out", "add") as out,
    ):
        out.add("a.txt", "a\n")
        out.add("b.txt", "b\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.txt", "b.txt"]
    serve = (ROOT_ENGINE / "cli" / "commands" / "site.py").read_text(encoding="utf-8")
    assert "with heard_after_writing():" in serve.split("def rebuild")[1].split("rebuild()")[0]


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_during_the_folder_probe_still_interrupts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe of ``check_target_file`` writes nothing that stays: Ctrl-C there is an
    interruption, once the probe is removed."""
    real = os.close

    def close(fd: int) -> None:
        monkeypatch.setattr(os, "close", real)
        os.kill(os.getpid(), signal.SIGINT)
        real(fd)

    monkeypatch.setattr(os, "close", close)
    with pytest.raises(KeyboardInterrupt):
        check_target_file(tmp_path / "o.csv")
    assert list(tmp_path.iterdir()) == []


SIGNALLED = """
import os, signal, sys
from bouillotte.rules.writing import Output
where = {where!r}
if where == "commit":  # as the first file is put in place
    real = os.replace
    def replace(*args, **kwargs):
        os.replace = real
        os.kill(os.getpid(), signal.{name})
        real(*args, **kwargs)
    os.replace = replace
else:  # once the first file is written aside, before any is put in place
    made = Output._write
    def write(self, temp, raw):
        made(self, temp, raw)
        os.kill(os.getpid(), signal.{name})
    Output._write = write
sys.argv = ["bouillotte", *{argv!r}]
from bouillotte.cli import main
main()
"""


def _signalled(
    where: str, name: str, argv: list[str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SIGNALLED.format(where=where, name=name, argv=argv)],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.parametrize(("name", "said"), [("SIGINT", "Ctrl-C"), ("SIGTERM", "SIGTERM")])
def test_a_signal_during_the_renames_of_an_export_ends_it_as_done(
    tmp_path: Path, name: str, said: str
) -> None:
    """It said ``interrupted`` (130, 143) with the file written; the retry was refused."""
    done = _signalled("commit", name, ["variants", "export", "foster", "--out", "exo"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "wrote exo/foster.yaml" in done.stdout + done.stderr
    assert "interrupted" not in done.stderr
    assert done.stderr.startswith(f"{said} came as the files were put in place")
    assert sorted(p.name for p in (tmp_path / "exo").iterdir()) == ["foster.yaml"]


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_before_the_renames_writes_nothing(tmp_path: Path, name: str, status: int) -> None:
    done = _signalled("aside", name, ["variants", "export", "foster", "--out", "exo"], tmp_path)
    assert done.returncode == status
    assert done.stderr == "interrupted\n"
    assert list(tmp_path.iterdir()) == []  # not the folder it made, nor a temporary file


# -- effects --write: 2. targets checked first; 3. "written to" once written ----------------


@pytest.fixture()
def sweeps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pairs swept, in order, by a sweep that takes no time."""
    computed: list[str] = []

    def compute_effects(a: Variant, b: Variant, deals: int, *rest: Any) -> dict[str, Any]:
        computed.append(f"{a.id}__{b.id}")
        return {"deals": deals, "pair": f"{a.id}__{b.id}"}

    monkeypatch.setattr(EFFECTS, "compute_effects", compute_effects)
    return computed


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty store of this test's own."""
    folder = tmp_path / "effects"
    folder.mkdir()
    monkeypatch.setattr(effects_store, "store_folder", lambda: folder)
    monkeypatch.setattr(everyrule, "store_folder", lambda: folder)
    return folder


FIRST, SECOND = "foster__cardrulesplus", "foster__pagat"
TWO = ["effects", "--write", "--force", "--pair", FIRST, "--pair", SECOND, "-n", "10", "-q"]


def _pipe(path: Path) -> None:
    os.mkfifo(path)


def _link(path: Path) -> None:
    (path.parent / "elsewhere.json").write_text("{}\n", encoding="utf-8")
    path.symlink_to("elsewhere.json")


def _read_only(path: Path) -> None:
    path.write_text('{"deals": 400}\n', encoding="utf-8")
    path.chmod(0o444)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_pipe, "must be a regular file to be replaced"),
        (_link, "is a link"),
        (_read_only, "is write-protected"),
    ],
    ids=["pipe", "link", "read-only"],
)
def test_effects_write_refuses_a_stored_file_before_computing_anything(
    store: Path, sweeps: list[str], make: Callable[[Path], None], said: str
) -> None:
    """The second pair's file could not be replaced: it was said after both sweeps (15 s
    for 3,000 deals; minutes at the site's), and the first pair's results were lost."""
    make(store / f"{SECOND}.json")
    result = RUNNER.invoke(app, TWO)
    assert result.exit_code == 2, result.output
    assert said in result.stderr and f"{SECOND}.json" in result.stderr
    assert sweeps == []  # refused before any sweep
    assert not (store / f"{FIRST}.json").exists()


def test_effects_write_says_written_only_once_the_files_are_in_place(
    store: Path, sweeps: list[str]
) -> None:
    result = RUNNER.invoke(app, TWO)
    assert result.exit_code == 0, result.output
    assert sweeps == [FIRST, SECOND]
    lines = result.stdout.splitlines()
    assert lines == [
        f"{FIRST}: computed",
        f"{SECOND}: computed",
        f"{FIRST}: written to {store / f'{FIRST}.json'}",
        f"{SECOND}: written to {store / f'{SECOND}.json'}",
    ]
    assert json.loads((store / f"{SECOND}.json").read_text(encoding="utf-8"))["deals"] == 10


def test_effects_write_interrupted_says_nothing_was_written(
    store: Path, sweeps: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first pair was said "written to" its file, which kept its old content."""
    (store / f"{FIRST}.json").write_text('{"deals": 400}\n', encoding="utf-8")
    real = EFFECTS.compute_effects

    def second_interrupted(a: Variant, b: Variant, *rest: Any) -> dict[str, Any]:
        if f"{a.id}__{b.id}" == SECOND:
            raise KeyboardInterrupt
        return dict(real(a, b, *rest))

    monkeypatch.setattr(EFFECTS, "compute_effects", second_interrupted)
    result = RUNNER.invoke(app, TWO)
    assert result.exit_code == 130
    assert result.stderr == "interrupted\n"
    assert result.stdout == f"{FIRST}: computed\n"
    assert "written" not in result.output
    assert (store / f"{FIRST}.json").read_text(encoding="utf-8") == '{"deals": 400}\n'
    assert sorted(p.name for p in store.iterdir()) == [f"{FIRST}.json"]


# -- newcomer 7: the command suggested keeps the pairs asked for ----------------------------


@pytest.mark.parametrize("extra", [[], ["--json"]], ids=["listing", "json"])
def test_the_suggested_command_keeps_the_pairs_asked_for(store: Path, extra: list[str]) -> None:
    """`bouillotte effects --write --deals 5`, copied, rewrote every stored pair at 5 deals."""
    result = RUNNER.invoke(app, ["effects", "--pair", SECOND, "--pair", FIRST, "-n", "5", *extra])
    assert result.exit_code == 1
    wanted = f"`bouillotte effects --write --pair {SECOND} --pair {FIRST} --deals 5`"
    assert f"2 missing or stale: {wanted} regenerates them" in result.output


def test_the_remake_hint_of_a_file_of_other_deals_names_its_pair(
    store: Path, sweeps: list[str]
) -> None:
    """ "--write --deals 20000 remakes it", copied, would also remake the full sweep (of
    100,000 deals) at 20,000."""
    foster, pagat = (Library().get(v) for v in ("foster", "pagat"))
    data = {"deals": 5, "key": effects_store.effects_key(foster, pagat, 5)}
    (store / f"{SECOND}.json").write_text(json.dumps(data), encoding="utf-8")
    result = RUNNER.invoke(app, ["effects", "--pair", SECOND])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"{SECOND}: up to date (made with 5 deals, not the site's 20,000: "
        f"`bouillotte effects --write --pair {SECOND} --deals 20000` remakes it)\n"
    )
