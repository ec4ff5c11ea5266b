"""Writers, round seven: what a hostile review of ``new``, ``site build`` and
``--install-completion`` found them leaving behind or writing wrongly.

- ``new DIR`` killed outright (SIGKILL, the OOM killer) left its folder built aside,
  ``.DIR.<token>.tmp``, for good: it is now claimed while it is built, and the next ``new``
  into the same parent removes a claimed one whose writer is gone (a folder of the user's
  that merely looks like one is kept), and keeps a live one's even in the instants before
  its claim is made and after it is removed;
- ``site build --out a/b/c/site`` made ``a/b`` before reading its input and left them
  after a failure (a YAML error, Ctrl-C, the file-size limit): a failed build now removes
  the folders it made, and only those;
- ``site build`` set the site's folder to 0755 and copied the assets with their source's
  0644, whatever the umask and the mode of the folder it replaced: the new folder now
  takes the mode of the one it replaces (``chmod 700 _site`` stays private), or the
  umask's for a new one, and every file the umask's, as the pages already did;
- ``--install-completion`` with ``HOME`` empty wrote ``/.bashrc`` and
  ``/.bash_completions/``: an empty or relative ``HOME`` is now refused in one line (and a
  relative ``XDG_CONFIG_HOME`` ignored, as the XDG specification asks);
- ``site build`` under a low open-file limit failed with "cannot write the site: too many
  open files" when its second process could not be started (with fewer descriptors still,
  the build succeeded, simulating in its own process), and left its temporary folder:
  the statistics are now simulated in the build's own process whenever the second one
  cannot be started, and a failed build's temporary folder is removed even with a single
  free descriptor.

Each test was shown failing before its fix.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli import new_aside
from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.writing import Output
from bouillotte.site import build_site

# -- new DIR, killed outright --------------------------------------------------------------

KILLED_NEW = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from bouillotte.cli import scaffold
    from bouillotte.rules import writing

    added = writing.Output.add

    def add(self, rel, data):
        if rel.startswith("theme/"):  # the last file: killed as the OOM killer would
            os.kill(os.getpid(), signal.SIGKILL)
        return added(self, rel, data)

    writing.Output.add = add
    scaffold.scaffold(Path(sys.argv[1]))
    """
)


def _asides(parent: Path, name: str) -> list[Path]:
    return sorted(p for p in parent.iterdir() if p.name.startswith(f".{name}.") and p.is_dir())


def _kill_new(folder: Path) -> Path:
    """Run ``new folder`` and kill it outright half-way; the folder it left aside."""
    done = subprocess.run(
        [sys.executable, "-c", KILLED_NEW, str(folder)], capture_output=True, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    (left,) = _asides(folder.parent, folder.name)
    assert any(left.iterdir())
    return left


def test_a_new_killed_outright_is_cleaned_by_the_next_new(tmp_path: Path) -> None:
    left = _kill_new(tmp_path / "p")
    result = CliRunner().invoke(app, ["new", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "p" / "README.md").is_file()
    assert not left.exists()
    assert _asides(tmp_path, "p") == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]
    # the claim is no file of the folder made
    assert ".bouillotte-partial" not in {p.name for p in (tmp_path / "p").iterdir()}


def test_a_new_into_another_folder_of_the_same_parent_cleans_it_too(tmp_path: Path) -> None:
    left = _kill_new(tmp_path / "p")
    assert CliRunner().invoke(app, ["new", str(tmp_path / "q")]).exit_code == 0
    assert not left.exists()


def test_an_empty_folder_left_by_a_new_killed_before_its_claim_is_removed(
    tmp_path: Path,
) -> None:
    """Killed between making its folder and claiming it: empty, removing it loses nothing."""
    empty = tmp_path / ".p.0123abcd4242.tmp"
    empty.mkdir(mode=0o700)
    made = time.time() - new_aside.UNCLAIMED_GRACE - 5
    os.utime(empty, (made, made))
    assert CliRunner().invoke(app, ["new", str(tmp_path / "p")]).exit_code == 0
    assert not empty.exists()


def test_a_live_new_s_folder_before_its_claim_is_kept(tmp_path: Path) -> None:
    """Made a moment ago and not yet claimed: a live ``new``'s, which the next step claims.
    Removing it (as the cleanup did) made that ``new`` fail: "cannot write there"."""
    with Output(tmp_path / "p", "fresh") as out:
        new_aside.remove_abandoned_asides(tmp_path / "q")  # a second new, beside it
        with new_aside.claimed(out):
            out.add("README.md", "mine\n")
    assert (tmp_path / "p" / "README.md").read_text("utf-8") == "mine\n"


def test_a_new_finishing_as_the_cleanup_reads_its_claim_keeps_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cleanup opens a live ``new``'s claim; that ``new`` finishes (its claim removed,
    its lock let go) before the cleanup tries the lock, and renames its folder into place
    after. The cleanup took the free lock for a dead writer's and removed the folder."""
    locked = fcntl.flock
    with ExitStack() as live:
        out = live.enter_context(Output(tmp_path / "p", "fresh"))
        claim = live.enter_context(ExitStack())
        claim.enter_context(new_aside.claimed(out))
        out.add("README.md", "mine\n")

        def finish_then_lock(fd: int, operation: int) -> None:
            claim.close()  # the live new's claim removed, its lock let go
            locked(fd, operation)

        monkeypatch.setattr(fcntl, "flock", finish_then_lock)
        new_aside.remove_abandoned_asides(tmp_path / "q")
        monkeypatch.undo()
    assert (tmp_path / "p" / "README.md").read_text("utf-8") == "mine\n"


def test_folders_that_merely_look_like_new_s_are_kept(tmp_path: Path) -> None:
    claim = ".bouillotte-partial"
    mine = {
        # the user's own, of the same shape of name, without a claim
        ".p.x.tmp": {"notes.txt": "mine\n"},
        ".p.0123abcd4242.tmp": {"notes.txt": "mine\n"},
        # a claim naming another folder (copied, say, with cp -r)
        ".p.89abcdef4242.tmp": {
            claim: "a folder being made by `bouillotte new`, or killed: .p.0123abcd4242.tmp\n"
        },
        # an empty folder whose name is not of new's shape
        ".p.backup.tmp": {},
    }
    for name, files in mine.items():
        (tmp_path / name).mkdir()
        for file, text in files.items():
            (tmp_path / name / file).write_text(text, encoding="utf-8")
    assert CliRunner().invoke(app, ["new", str(tmp_path / "p")]).exit_code == 0
    for name, files in mine.items():
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == sorted(files), name


def test_a_folder_a_live_new_is_building_is_kept(tmp_path: Path) -> None:
    """Its claim is locked while it runs: a second ``new`` beside it leaves it alone."""
    left = _kill_new(tmp_path / "p")
    fd = os.open(left / ".bouillotte-partial", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as the live writer holds it
        assert CliRunner().invoke(app, ["new", str(tmp_path / "q")]).exit_code == 0
        assert left.is_dir()
    finally:
        os.close(fd)
    assert CliRunner().invoke(app, ["new", str(tmp_path / "r")]).exit_code == 0
    assert not left.exists()


# -- a small site of the user's own ---------------------------------------------------------


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A folder of ``new``, with its profile exported standalone (``own``)."""
    folder = tmp_path / "proj"
    runner = CliRunner()
    assert runner.invoke(app, ["new", str(folder)]).exit_code == 0
    result = runner.invoke(
        app,
        [
            "variants",
            "export",
            "our-table",
            "--variants",
            str(folder / "variants"),
            "--standalone",
            "--out",
            str(folder / "own"),
        ],
    )
    assert result.exit_code == 0, result.output
    return folder


def _build(project: Path, out: Path, scenarios: Path | None = None) -> None:
    build_site(
        out,
        [project / "own"],
        [scenarios or project / "scenarios"],
        include_bundled=False,
        config_file=project / "site.yaml",
    )


def _tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# -- the parents of --out ---------------------------------------------------------------------


def test_a_build_refused_for_bad_input_leaves_no_parent_folder(
    project: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("bad: [\n", encoding="utf-8")
    before = _tree(tmp_path)
    with pytest.raises(InputError, match="not valid YAML"):
        _build(project, tmp_path / "lp" / "a" / "b" / "site", scenarios=bad)
    assert _tree(tmp_path) == before


def test_an_interrupted_build_removes_only_the_parent_folders_it_made(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lp").mkdir()
    (tmp_path / "lp" / "kept.txt").write_text("mine\n", encoding="utf-8")

    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("bouillotte.site.builder.write_files", interrupted)
    before = _tree(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        _build(project, tmp_path / "lp" / "a" / "b" / "site")
    assert _tree(tmp_path) == before


def test_a_build_that_cannot_write_removes_the_parent_folders_it_made(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As under ``ulimit -f``: the file-size limit reached while the pages are written."""

    def too_large(*_: object, **__: object) -> None:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    monkeypatch.setattr("bouillotte.site.builder.write_files", too_large)
    before = _tree(tmp_path)
    with pytest.raises(InputError, match="File too large"):
        _build(project, tmp_path / "np" / "a" / "site")
    assert _tree(tmp_path) == before


def test_a_build_that_succeeds_keeps_the_parent_folders_it_made(
    project: Path, tmp_path: Path
) -> None:
    _build(project, tmp_path / "ok" / "a" / "site")
    assert (tmp_path / "ok" / "a" / "site" / "index.html").is_file()


# -- permissions ------------------------------------------------------------------------------


@pytest.fixture()
def umask_077() -> Iterator[None]:
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


def _modes(folder: Path) -> set[tuple[str, int]]:
    """The kinds and modes of everything under ``folder`` (not itself)."""
    return {
        ("folder" if p.is_dir() else "file", stat.S_IMODE(p.lstat().st_mode))
        for p in folder.rglob("*")
    }


def test_a_new_site_follows_the_umask(project: Path, tmp_path: Path, umask_077: None) -> None:
    out = tmp_path / "u"
    _build(project, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert (out / "assets" / "cite.js").is_file()
    assert _modes(out) == {("folder", 0o700), ("file", 0o600)}


def test_a_rebuilt_site_keeps_the_mode_of_the_folder_it_replaces(
    project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "s"
    _build(project, out)
    out.chmod(0o700)
    _build(project, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700


def test_a_site_built_into_an_empty_folder_keeps_its_mode(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "e"
    out.mkdir()
    out.chmod(0o750)
    _build(project, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o750


# -- --install-completion and HOME --------------------------------------------------------------


@pytest.fixture()
def nothing_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run from ``tmp_path``, with every write of the one writer refused loudly: a test
    that fails never writes outside ``tmp_path`` (an empty HOME is the root folder)."""

    class Refused:
        def __init__(self, folder: Path, *_: object) -> None:
            raise AssertionError(f"would write into {folder}")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bouillotte.rules.writing.Output", Refused)


@pytest.mark.parametrize("home", ["", "relative/home", "."])
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_refuses_an_empty_or_relative_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, nothing_written: None, home: str, shell: str
) -> None:
    monkeypatch.setenv("HOME", home)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    result = CliRunner().invoke(app, ["--install-completion", shell])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert "HOME" in lines[0] and "absolute" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_completion_with_home_empty_in_a_real_process(tmp_path: Path) -> None:
    """The command line as a user runs it (``env HOME= bouillotte ...``): refused before
    anything is written (the root folder is as it was)."""
    watched = ("/.bashrc", "/.bash_completions")
    before = [os.path.lexists(p) and os.lstat(p).st_mtime_ns for p in watched]
    done = subprocess.run(
        [sys.executable, "-m", "bouillotte", "--install-completion", "bash"],
        env={**os.environ, "HOME": ""},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and "HOME" in done.stderr
    assert [os.path.lexists(p) and os.lstat(p).st_mtime_ns for p in watched] == before
    assert list(tmp_path.iterdir()) == []


def test_fish_completion_ignores_a_relative_xdg_config_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", "config")
    result = CliRunner().invoke(app, ["--install-completion", "fish"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "home/.config/fish/completions/bouillotte.fish").is_file()
    assert not (tmp_path / "config").exists()


# -- too few file descriptors -------------------------------------------------------------------


def test_a_second_process_that_cannot_start_is_simulated_here(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under ``ulimit -n 12`` the second process's start failed (``too many open files``)
    where under ``ulimit -n 10`` there was none to start and the build succeeded."""
    import multiprocessing.process

    started: list[object] = []

    def no_descriptors(process: object) -> None:
        started.append(process)
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    monkeypatch.setattr("bouillotte.site.inputs.simulation_is_cached", lambda _: False)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", no_descriptors)
    out = tmp_path / "sn"
    _build(project, out)
    assert started, "the second process was never tried"
    assert (out / "statistics.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".sn")) == []


REMOVE_WITH_ONE_DESCRIPTOR = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from bouillotte.site.output import remove_build

    tmp = Path(sys.argv[1])
    held = []
    try:
        while True:
            held.append(os.open("/dev/null", os.O_RDONLY))
    except OSError:
        pass
    os.close(held.pop())  # one descriptor free: shutil.rmtree needs one per level
    remove_build(tmp)
    for fd in held:
        os.close(fd)
    print("gone" if not os.path.lexists(tmp) else "left")
    """
)


def test_a_failed_build_s_folder_is_removed_with_one_free_descriptor(tmp_path: Path) -> None:
    tmp = tmp_path / ".sn.abcdefgh.tmp"
    deep = tmp / "data" / "a" / "b" / "c"
    deep.mkdir(parents=True)
    for folder in (tmp, deep, deep.parent):
        (folder / "page.html").write_text("x\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", REMOVE_WITH_ONE_DESCRIPTOR, str(tmp)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "gone"
    assert not tmp.exists()


def test_a_build_that_fails_removes_its_temporary_folder_through_remove_build(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bouillotte.site import output

    removed: list[Path] = []
    remove = output.remove_build

    def noted(tmp: Path) -> None:
        removed.append(tmp)
        remove(tmp)

    def too_large(*_: object, **__: object) -> None:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    monkeypatch.setattr("bouillotte.site.builder.remove_build", noted)
    monkeypatch.setattr("bouillotte.site.builder.write_files", too_large)
    with pytest.raises(InputError):
        _build(project, tmp_path / "sn")
    assert [p.name.startswith(".sn.") for p in removed] == [True]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj"]


def test_parents_are_made_as_the_system_reads_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--out pp/x/y/../z/site``: the system opens it through ``pp/x/y``, so that folder is
    made too, as ``mkdir -p`` makes it (round seven's first fix made only ``pp/x/z`` and
    the build then failed: "No such file or directory"); a failed build removes them all."""
    from bouillotte.site.output import make_parents, remove_made

    monkeypatch.chdir(tmp_path)
    made: list[Path] = []
    make_parents(Path("pp/x/y/../z/site"), made)
    assert (tmp_path / "pp/x/y").is_dir() and (tmp_path / "pp/x/z").is_dir()
    (Path("pp/x/y/../z/site")).mkdir()  # the path opens as given
    (tmp_path / "pp/x/z/site").rmdir()
    remove_made(made)
    assert not (tmp_path / "pp").exists()


def test_a_setgid_bit_is_kept_only_with_its_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A site folder ``2750 root:daemon`` rebuilt came back ``2750 root:root``: the bit
    was copied, not the group it was set for. The group is given too where the system
    allows it; where it does not, the bit is dropped (round seven's re-probe)."""
    from bouillotte.rules import modes

    old = tmp_path / "site"
    old.mkdir()
    old.chmod(0o2750)
    new = tmp_path / "new"
    new.mkdir()
    calls: list[tuple[object, int, int]] = []
    monkeypatch.setattr(os, "chown", lambda p, u, g, **_: calls.append((p, u, g)))
    modes.take_mode(new, old, 0o755)
    assert calls == [(new, -1, old.stat().st_gid)]
    assert stat.S_IMODE(new.stat().st_mode) == 0o2750

    def refused(*_: object, **__: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refused)
    other = tmp_path / "other"
    other.mkdir()
    modes.take_mode(other, old, 0o755)
    assert stat.S_IMODE(other.stat().st_mode) == 0o750
    plain = tmp_path / "plain"
    plain.mkdir()
    modes.take_mode(plain, tmp_path / "missing", 0o700)  # a new one: the default
    assert stat.S_IMODE(plain.stat().st_mode) == 0o700
