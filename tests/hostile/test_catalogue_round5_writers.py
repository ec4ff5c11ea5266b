"""The hostile catalogue, round five (issue 47): the writers the first passes missed.

- ``--install-completion`` writes the user's shell start-up file whole or not at all (beside
  it, then renamed; its mode and a link to it kept), as bytes whatever their encoding;
  a start-up file that is a pipe or a device is one line, at once; a shell is named, and a
  word that is not one is refused with the shells supported; zsh's start-up file is
  ``$ZDOTDIR/.zshrc`` when ``ZDOTDIR`` is set, and a ``HOME`` or ``ZDOTDIR`` that is not a
  folder that exists is refused rather than made.
- A report that cannot be written (stdout on a full device) says that the files the command
  wrote before it stay written (contracts.md, "Exit statuses").
- The cache's temporary file has a name no other process can guess, and is made new
  (``O_EXCL``): a named pipe planted in the cache folder cannot hang a command.
- ``differences --save`` replaces a file only with the same bytes (an edited scenario is
  refused in one line), and makes valid ids from long (valid) profile ids.
- ``new`` takes a long name the file system takes.
- ``strong solve --write --csv FILE`` naming the file ``--write`` stores is refused before
  the solve.
- SIGHUP (the terminal closed) is handled as Ctrl-C: workers stopped, temporary files
  removed, exit 129.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules import diskcache

from . import test_catalogue as catalogue
from .test_catalogue import ENGINE, HANG, Case, Cleanup, _stop_when_working

BASHRC = "# my bashrc line\n" * 200
HOME = (("HOME", "{tmp}/home"), ("XDG_CONFIG_HOME", ""))


def _home(rc: bytes | None = None, name: str = ".bashrc") -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (tmp / "home").mkdir()
        if rc is not None:
            (tmp / "home" / name).parent.mkdir(exist_ok=True)
            (tmp / "home" / name).write_bytes(rc)
        return None

    return setup


def _home_with_fifo(tmp: Path) -> Cleanup:
    (tmp / "home").mkdir()
    os.mkfifo(tmp / "home" / ".bashrc")
    return None


def _home_with_dev_full(tmp: Path) -> Cleanup:
    (tmp / "home").mkdir()
    (tmp / "home" / ".bashrc").symlink_to("/dev/full")
    return None


def _long_ids(tmp: Path) -> Cleanup:
    (tmp / "lp").mkdir()
    (tmp / "lp" / f"{'a' * 45}.yaml").write_text(
        "title: A\nsource: foster\nextends: foster\n", "utf-8"
    )
    (tmp / "lp" / f"{'b' * 45}.yaml").write_text(
        "title: B\nsource: pagat-card\nextends: pagat\n", "utf-8"
    )
    return None


def _hang_up_when_working(proc: subprocess.Popen[str]) -> None:
    """SIGHUP to the whole process group, as a terminal that is closed sends it."""
    _stop_when_working(proc, lambda: os.killpg(proc.pid, signal.SIGHUP), "SIGHUP")


CASES = [
    # -- --install-completion ----------------------------------------------------------------
    Case(
        "install-completion-under-the-file-size-limit",
        ("--install-completion", "bash"),
        "File too large",
        setup=_home(BASHRC.encode()),
        env=HOME,
        limits=((resource.RLIMIT_FSIZE, 1024),),
        untouched=("home/.bashrc",),
        gone=("home/.bash_completions",),
    ),
    Case(
        "install-completion-bashrc-is-a-named-pipe",
        ("--install-completion", "bash"),
        "home/.bashrc: is not a regular file",
        setup=_home_with_fifo,
        env=HOME,
        real=True,
        within=20,
        gone=("home/.bash_completions",),
    ),
    Case(
        "install-completion-bashrc-leads-to-dev-full",
        ("--install-completion", "bash"),
        "home/.bashrc: is not a regular file",
        setup=_home_with_dev_full,
        env=HOME,
        real=True,
        gone=("home/.bash_completions",),
    ),
    Case(
        "install-completion-latin-1-bashrc",
        ("--install-completion", "bash"),
        "bash completion installed",
        exit=0,
        setup=_home(b"# caf\xe9\nexport X=1\n"),
        env=HOME,
        real=True,
        made=("home/.bash_completions/bouillotte.sh",),
    ),
    Case(
        "install-completion-of-no-shell",
        ("--install-completion", "nosuch"),
        "'nosuch' is not a shell this completion supports: bash, zsh, fish",
        setup=_home(),
        env=HOME,
        real=True,
        gone=("home/.bashrc", "home/.bash_completions"),
    ),
    Case(
        "install-completion-zsh-is-zsh",
        ("--install-completion", "zsh"),
        "zsh completion installed",
        exit=0,
        setup=_home(),
        env=HOME,
        real=True,
        gone=("home/.bashrc", "home/.bash_completions"),
        made=("home/.zshrc", "home/.zfunc/_bouillotte"),
    ),
    Case(
        "install-completion-zsh-under-zdotdir",
        ("--install-completion", "zsh"),
        "zsh completion installed",
        exit=0,
        setup=_home(b"# mine\n", "zdot/.zshrc"),
        env=(*HOME, ("ZDOTDIR", "{tmp}/home/zdot")),
        real=True,
        gone=("home/.zshrc",),
        made=("home/zdot/.zshrc", "home/.zfunc/_bouillotte"),
    ),
    Case(
        "install-completion-zdotdir-is-relative",
        ("--install-completion", "zsh"),
        "ZDOTDIR is 'zdot', not an absolute path",
        setup=_home(),
        env=(*HOME, ("ZDOTDIR", "zdot")),
        real=True,
        gone=("home/.zshrc", "home/.zfunc"),
    ),
    Case(
        "install-completion-zdotdir-does-not-exist",
        ("--install-completion", "zsh"),
        "not a folder that exists: zsh reads its .zshrc from there",
        setup=_home(),
        env=(*HOME, ("ZDOTDIR", "{tmp}/nowhere")),
        real=True,
        gone=("nowhere", "home/.zshrc", "home/.zfunc"),
    ),
    Case(
        "install-completion-home-holds-a-line-break",
        ("--install-completion", "bash"),
        "which holds a line break or another control character",
        setup=lambda tmp: (tmp / "ho\nme").mkdir(),
        env=(("HOME", "{tmp}/ho\nme"), ("XDG_CONFIG_HOME", "")),
        real=True,
        gone=("ho\nme/.bashrc", "ho\nme/.bash_completions"),
    ),
    Case(
        "install-completion-home-does-not-exist",
        ("--install-completion", "bash"),
        "which is not a folder that exists: the completion goes into your home folder",
        env=(("HOME", "{tmp}/gone/home"), ("XDG_CONFIG_HOME", "")),
        real=True,
        gone=("gone",),
    ),
    Case(
        "show-completion-of-no-shell",
        ("--show-completion", "nosuch"),
        "'nosuch' is not a shell this completion supports",
        real=True,
    ),
    # -- a report that cannot be written -------------------------------------------------------
    Case(
        "report-on-a-full-device-after-the-csv",
        ("session", "pagat-teaching", "--csv", "{tmp}/a.csv"),
        "its report is lost; any file it wrote before its report stays written",
        real=True,
        stdout="full",
        made=("a.csv",),
    ),
    # -- differences --save ------------------------------------------------------------------
    Case(
        "differences-save-with-long-ids",
        (
            "differences",
            "a" * 45,
            "b" * 45,
            "--variants",
            "{tmp}/lp",
            "-n",
            "50",
            "--save",
            "{tmp}/lp-out",
        ),
        "saved",
        exit=0,
        setup=_long_ids,
    ),
    # -- new ----------------------------------------------------------------------------------
    Case(
        "new-with-a-name-of-240-bytes",
        ("new", "\U0001f600" * 60),
        "next: cd",
        exit=0,
        made=("\U0001f600" * 60 + "/README.md",),
    ),
    # -- SIGHUP --------------------------------------------------------------------------------
    Case(
        "sighup-during-simulate-jobs-2",
        ("simulate", "-v", "foster", "--deals", "5000000", "--jobs", "2", "-q"),
        "interrupted",
        exit=129,
        one_line=False,  # the catalogue's check knows 130 and 143 only
        process=_hang_up_when_working,
    ),
]


@pytest.fixture()
def case_dir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-hostile-"))
    here = Path.cwd()
    yield folder
    os.chdir(here)
    shutil.rmtree(folder, ignore_errors=True)


def _bouillotte(*argv: str, **env: str) -> tuple[int, str, str]:
    """``bouillotte`` run as a real process (its ``main()``), with ``env`` added: files it
    read in an earlier run are not inputs of this one, as they are in this process."""
    done = subprocess.run(
        [sys.executable, "-m", "bouillotte", *argv],
        env={**os.environ, "PYTHONPATH": str(ENGINE), **env},
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_writers(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


# -- --install-completion: what the start-up file holds ------------------------------------


def _install(home: Path, shell: str = "bash") -> tuple[int, str]:
    code, out, err = _bouillotte("--install-completion", shell, HOME=str(home), XDG_CONFIG_HOME="")
    return code, out + err


def test_the_start_up_file_keeps_its_bytes_mode_and_link(case_dir: Path) -> None:
    """The Latin-1 ``.bashrc`` (a traceback), reached through a link (a dotfiles manager's),
    private (0600): appended to as bytes, the link and the mode kept, the line added once."""
    home, real = case_dir / "home", case_dir / "dotfiles" / "bashrc"
    home.mkdir()
    real.parent.mkdir()
    real.write_bytes(b"# caf\xe9\nexport X=1")  # no line break at its end
    real.chmod(0o600)
    (home / ".bashrc").symlink_to(real)
    for _ in range(2):
        code, said = _install(home)
        assert code == 0, said
    assert (home / ".bashrc").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    script = home / ".bash_completions" / "bouillotte.sh"
    assert real.read_bytes() == (b"# caf\xe9\nexport X=1\nsource '" + os.fsencode(script) + b"'\n")
    assert "complete -o default -F _bouillotte_completion bouillotte" in script.read_text()


def test_fish_and_zsh_are_installed_for_their_shell(case_dir: Path) -> None:
    home = case_dir / "home"
    home.mkdir()
    (home / ".zshrc").write_text("zstyle ':completion:*' menu no\n", "utf-8")
    assert _install(home, "zsh")[0] == 0
    assert _install(home, "fish")[0] == 0
    assert (home / ".zshrc").read_text("utf-8") == (
        "zstyle ':completion:*' menu no\nfpath+=~/.zfunc; autoload -Uz compinit; compinit\n"
    )
    assert "compdef _bouillotte_completion bouillotte" in (home / ".zfunc/_bouillotte").read_text()
    assert (home / ".config/fish/completions/bouillotte.fish").is_file()
    assert not (home / ".bashrc").exists()


def test_the_completion_answers_a_variant_id(case_dir: Path) -> None:
    """What was installed still completes (Typer's completion classes are registered)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ENGINE),
        "_BOUILLOTTE_COMPLETE": "complete_bash",
        "COMP_WORDS": "bouillotte variants show fost",
        "COMP_CWORD": "3",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from bouillotte.cli import main; sys.argv = ['bouillotte']; main()",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG,
        cwd=case_dir,
    )
    assert "foster" in done.stdout.split(), done.stdout + done.stderr


# -- the cache's temporary file ------------------------------------------------------------


def _within(seconds: float, work: Callable[[], None]) -> bool:
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    return not worker.is_alive()


def test_a_pipe_at_the_cache_s_temporary_name_does_not_hang(tmp_path: Path) -> None:
    """The name was ``<result>.<pid>.tmp``: anyone who can write the folder could plant a
    named pipe there, and the next command hung opening it."""
    path = tmp_path / "variant-rows-0123.json"
    planted = path.with_suffix(f".{os.getpid()}.tmp")
    os.mkfifo(planted)
    try:
        assert _within(10, lambda: diskcache.store(path, "[]")), "store hung on a named pipe"
    finally:
        with open(os.open(planted, os.O_RDONLY | os.O_NONBLOCK), "rb"):
            pass  # lets a hung writer go
    assert diskcache.load(path, 100) == "[]"
    assert stat.S_ISFIFO(os.lstat(planted).st_mode)  # what was there is left as it was


def test_the_cache_s_temporary_file_is_made_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever its name, the temporary file is made new (``O_EXCL``, no link followed):
    a file already there is never opened, and the result is then just not stored."""
    opened: list[int] = []
    real_open = os.open

    def spy(path: object, flags: int, *args: object) -> int:
        if str(path).endswith(".tmp"):
            opened.append(flags)
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", spy)
    diskcache.store(tmp_path / "r.json", "x")
    assert opened and all(f & os.O_EXCL and f & os.O_NOFOLLOW for f in opened)
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


# -- differences --save ----------------------------------------------------------------------


SAVE = ("differences", "foster", "pagat", "-n", "30", "--save")


@pytest.fixture(scope="module")
def saved_once() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-saved-"))
    code, out, err = _bouillotte(*SAVE, str(folder / "found"))
    assert code == 0, out + err
    yield folder / "found"
    shutil.rmtree(folder, ignore_errors=True)


def test_saving_again_the_same_files_is_fine(saved_once: Path) -> None:
    before = {p.name: p.read_bytes() for p in saved_once.iterdir()}
    code, out, err = _bouillotte(*SAVE, str(saved_once))
    assert code == 0, out + err
    assert {p.name: p.read_bytes() for p in saved_once.iterdir()} == before


def test_an_edited_scenario_is_not_overwritten(saved_once: Path) -> None:
    """contracts.md, "No surprise": a scenario ``--save`` wrote is the user's to edit."""
    edited = saved_once / "diff-foster-pagat-forced-bets-dealer-blind.yaml"
    text = edited.read_bytes()
    edited.write_bytes(text + b"# my notes: checked against Foster p. 12 by hand\n")
    try:
        others = {p.name: p.stat().st_mtime_ns for p in saved_once.iterdir()}
        code, _, err = _bouillotte(*SAVE, str(saved_once))
        assert code == 2, err
        assert f"{edited}: is already there and differs" in err, err
        assert len(err.strip().splitlines()) == 1, err
        assert edited.read_bytes().endswith(b"by hand\n")
        assert {p.name: p.stat().st_mtime_ns for p in saved_once.iterdir()} == others
    finally:
        edited.write_bytes(text)


def test_long_profile_ids_give_valid_distinct_scenario_ids(case_dir: Path) -> None:
    _long_ids(case_dir)
    result = CliRunner().invoke(
        app,
        [
            "differences",
            "a" * 45,
            "b" * 45,
            "--variants",
            str(case_dir / "lp"),
            "-n",
            "50",
            "--save",
            str(case_dir / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.stem for p in (case_dir / "out").iterdir())
    assert names and all(len(n) <= 100 for n in names)
    assert len(set(names)) == len(names)
    assert all(n.startswith(f"diff-{'a' * 45}-") for n in names)


# -- strong solve --write --csv ------------------------------------------------------------


def test_the_csv_file_is_not_the_file_write_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--csv`` naming the strategy ``--write`` stores: the one replaced the other, exit 0;
    now refused before the solve (the store is a folder of this test's own)."""
    pytest.importorskip("numpy")
    from bouillotte.strong import store

    monkeypatch.setattr(store, "STORE", tmp_path)
    solve = ["strong", "solve", "--deals", "2", "--iterations", "1", "--write"]
    result = CliRunner().invoke(app, solve)
    assert result.exit_code == 0, result.output
    (stored,) = tmp_path.iterdir()
    stored.unlink()
    result = CliRunner().invoke(app, [*solve, "--csv", str(stored)])
    assert result.exit_code == 2, result.output
    assert f"{stored}: --csv names the file --write stores" in result.stderr, result.stderr
    assert "tree:" not in result.stderr  # refused before the tree is built
    assert list(tmp_path.iterdir()) == []


# -- SIGHUP during a write ------------------------------------------------------------------


def test_a_write_stopped_by_sighup_leaves_no_temporary_file(case_dir: Path) -> None:
    """``golden --write`` stopped by SIGHUP once its temporary files are being written:
    they are removed, as after Ctrl-C; the status is 129 (128 + SIGHUP)."""
    folder = case_dir / "gk"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bouillotte", "golden", "--write", "--dir", str(folder)],
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + HANG
    try:
        while not any(n.endswith(".tmp") for n in os.listdir(folder)):
            if proc.poll() is not None:
                pytest.skip("the command ended before a temporary file was seen")
            assert time.monotonic() < deadline, "no temporary file was ever written"
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGHUP)
        _, err = proc.communicate(timeout=HANG)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    left = [n for n in os.listdir(folder) if n.endswith(".tmp")]
    if proc.returncode == 0:
        pytest.skip("the signal came after the files were in place")
    assert proc.returncode == 129, err
    assert left == []  # staged before it is made (rules/writing.Output.add)
