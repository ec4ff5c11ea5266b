"""The hostile catalogue, round five, the writer and the readers of stored files (issue 47).

- A file the user made read-only (no write permission for them) is refused in one line,
  never replaced (``--csv``, ``golden --write``): a rename over it needs only the folder's
  permission, which bypassed the protection.
- An interruption never leaves a temporary file: the file being made when Ctrl-C lands is
  staged (and so removed) before it is created; a later write into the folder removes the
  temporaries a killed run left, once they are provably abandoned.
- A stored file is read in bounded pieces (not ``read(256 MiB + 1)``, which needs that much
  memory whatever the file's size); running out of memory is one line.
- ``golden --dir`` refuses a transcript over 1 MiB in one line, at once.
- A path with ``..`` after a link goes where the system takes it (``link/../x`` is the
  folder above the link's target), not where the text would.
- A worker process killed (``kill -9``, the OOM killer) ends ``simulate --jobs`` at once in
  one line, exit 2, where it waited for ever.

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
import textwrap
import time
from pathlib import Path

import pytest

from bouillotte.rules import reading, writing
from bouillotte.rules.errors import InputError, UserError
from bouillotte.rules.writing import Output
from bouillotte.study.workers import worker_pool

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
TRANSCRIPT = "all-in-opening__foster.txt"


def _read_only_file(tmp: Path) -> Cleanup:
    path = tmp / "keep.csv"
    path.write_text("precious\n", encoding="utf-8")
    path.chmod(0o444)
    return None


def _golden_read_only(tmp: Path) -> Cleanup:
    shutil.copytree(ROOT / "tests" / "golden", tmp / "gold")
    path = tmp / "gold" / TRANSCRIPT
    path.write_text(path.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    path.chmod(0o444)
    return None


def _golden_huge(tmp: Path) -> Cleanup:
    shutil.copytree(ROOT / "tests" / "golden", tmp / "gold")
    os.truncate(tmp / "gold" / TRANSCRIPT, 5 * 2**20)  # sparse: no disk used
    return None


def _link_to_deep(tmp: Path) -> Cleanup:
    (tmp / "deep" / "a").mkdir(parents=True)
    (tmp / "link").symlink_to("deep/a")
    return None


CASES = [
    Case(
        "csv-over-a-write-protected-file",
        ("odds", "-v", "foster", "--csv", "{tmp}/keep.csv"),
        "keep.csv: the CSV file is write-protected",
        setup=_read_only_file,
        untouched=("keep.csv",),
    ),
    Case(
        "golden-write-over-a-write-protected-transcript",
        ("golden", "--write", "--dir", "{tmp}/gold"),
        f"{TRANSCRIPT}: is write-protected",
        setup=_golden_read_only,
        untouched=("gold",),
    ),
    Case(
        "golden-compares-a-transcript-of-megabytes",
        ("golden", "--dir", "{tmp}/gold"),
        f"{TRANSCRIPT}: holds 5,242,880 bytes",
        setup=_golden_huge,
        within=30,
    ),
    Case(
        "csv-through-a-link-then-dot-dot",
        ("odds", "-v", "foster", "--csv", "{tmp}/link/../o.csv"),
        "",
        exit=0,
        setup=_link_to_deep,
        made=("deep/o.csv",),
        gone=("o.csv",),
    ),
    Case(
        "export-through-a-link-then-dot-dot",
        ("variants", "export", "foster", "--out", "{tmp}/link/../x"),
        "foster.yaml",
        exit=0,
        setup=_link_to_deep,
        made=("deep/x/foster.yaml",),
        gone=("x",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round5_outputs(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- an interruption leaves no temporary file ------------------------------------------------


def test_ctrl_c_once_the_file_is_made_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The signal lands once the temporary file is made, before ``add`` returns: it is
    removed with the rest (it was left behind in 6 runs of ``golden --write`` in 16)."""
    made = Output._write

    def write_then_interrupted(self: Output, temp: Path, raw: bytes) -> None:
        made(self, temp, raw)
        raise KeyboardInterrupt

    (tmp_path / "first.txt").write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(Output, "_write", write_then_interrupted)
    with pytest.raises(KeyboardInterrupt), Output(tmp_path, "own") as out:
        out.add("first.txt", "new\n")
    assert _temporaries(tmp_path) == []
    assert (tmp_path / "first.txt").read_text(encoding="utf-8") == "old\n"


def test_a_killed_writers_abandoned_temporaries_are_removed_by_the_next(tmp_path: Path) -> None:
    """A run killed outright (SIGKILL, SIGHUP) left its temporaries for good; the next write
    into the folder removes those of a process that is gone and older than an hour, and
    nothing else: not a recent one, not one of a process alive, not the user's."""
    hour_ago = time.time() - 2 * 3600
    dead = 4_000_000  # above any pid_max: no such process
    names = {
        f".bouillotte-0123abcd{dead}-7.tmp": True,  # abandoned: removed
        f".bouillotte-0123abcd{dead}17-probe.tmp": True,
        f".bouillotte-0123abcd{os.getpid()}-1.tmp": False,  # this process: alive
        f".bouillotte-0123abcd{dead}-8.tmp": False,  # recent: may be a live writer's elsewhere
        ".bouillotte-notes.tmp": False,  # not the writer's name
    }
    for name in names:
        (tmp_path / name).write_text("x", encoding="utf-8")
        if name != f".bouillotte-0123abcd{dead}-8.tmp":
            os.utime(tmp_path / name, (hour_ago, hour_ago))
    with Output(tmp_path, "own") as out:
        out.add("new.txt", "new\n")
    left = set(_temporaries(tmp_path))
    assert left == {name for name, gone in names.items() if not gone}


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_sighup_waits_for_the_renames_and_an_ignored_signal_stays_ignored() -> None:
    """SIGHUP (a terminal closed) killed a writer in the middle of its renames; under
    ``nohup`` (SIGHUP ignored) the deferral turned it into an interruption. (A block that
    leaves nothing behind hears it once it ends; one that put files in place says it came
    too late, tests/test_writers_round7.py.)"""
    seen: list[int] = []
    before = signal.signal(signal.SIGHUP, lambda signum, frame: seen.append(signum))
    try:
        with writing.interrupt_deferred(too_late=False):
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.05)
            assert seen == []
        assert seen == [signal.SIGHUP]
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        with writing.interrupt_deferred():
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.05)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


# -- stored files read within bounds ----------------------------------------------------------


def test_a_small_stored_file_reads_under_a_memory_limit(tmp_path: Path) -> None:
    """``read(256 MiB + 1)`` allocated 256 MiB whatever the file's size: a 1,000-byte file
    gave a MemoryError under a 200 MB limit."""
    (tmp_path / "stored.json").write_bytes(b"{}" * 500)
    script = textwrap.dedent(
        f"""
        import resource
        from pathlib import Path
        from bouillotte.rules.reading import read_regular, STORED_LIMIT
        resource.setrlimit(resource.RLIMIT_AS, (200 * 2**20, 200 * 2**20))
        print(len(read_regular(Path({str(tmp_path / "stored.json")!r}), STORED_LIMIT)))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1000"


def test_out_of_memory_reading_a_stored_file_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "stored.json"
    path.write_bytes(b"{}")

    def no_memory(fd: int, size: int, limit: int) -> bytes:
        raise MemoryError

    monkeypatch.setattr(reading, "_read_bounded", no_memory)
    with pytest.raises(InputError, match="out of memory"):
        reading.read_regular(path, reading.STORED_LIMIT)


def test_a_stored_file_that_grows_while_read_is_still_bounded(tmp_path: Path) -> None:
    path = tmp_path / "stored.json"
    path.write_bytes(b"x" * 100)
    with pytest.raises(InputError, match="at most 50 are read"):
        reading.read_regular(path, 50)
    assert reading.read_regular(path, 100) == b"x" * 100


# -- a write-protected file, as the API writes it ----------------------------------------------


def test_a_write_protected_file_is_not_replaced_through_the_api(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    target.write_text("precious\n", encoding="utf-8")
    target.chmod(0o400)
    with pytest.raises(InputError, match="write-protected"):
        writing.write_file(target, "a,b\n")
    assert target.read_text(encoding="utf-8") == "precious\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o400
    assert _temporaries(tmp_path) == []


# -- `..` after a link, as the system resolves it --------------------------------------------


def test_dot_dot_after_a_link_is_resolved_as_the_system_does(tmp_path: Path) -> None:
    (tmp_path / "deep" / "a").mkdir(parents=True)
    (tmp_path / "link").symlink_to("deep/a")
    assert writing.absolute(tmp_path / "link" / ".." / "o.csv") == tmp_path / "deep" / "o.csv"
    assert writing.absolute(tmp_path / "link" / "..") == tmp_path / "deep"
    # the last part is never resolved: a link there is refused by the writer, not followed
    assert writing.absolute(tmp_path / "link") == tmp_path / "link"


def test_a_folder_through_a_dangling_link_is_refused_not_made(tmp_path: Path) -> None:
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    with pytest.raises(InputError, match="which does not exist"):
        writing.write_file(tmp_path / "dangling" / "sub" / "o.csv", "a\n")
    refused = pytest.raises(InputError, match=r"dangling: is a link to .*nowhere, which does not")
    with refused, Output(tmp_path / "dangling" / "x", "add") as out:
        out.add("o.yaml", "a: 1\n")
    assert not (tmp_path / "nowhere").exists()


# -- a worker process killed --------------------------------------------------------------------


def _dies(number: int) -> int:
    if number == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    return number


def test_a_worker_killed_ends_the_pool_in_one_line() -> None:
    with pytest.raises(UserError, match="a worker process was killed"), worker_pool(2) as pool:
        list(pool.imap(_dies, range(6)))


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    except OSError:
        return []
    return [int(n) for n in text.split()]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_simulate_jobs_with_a_worker_killed_ends_at_once() -> None:
    """``kill -9`` of a worker (as the OOM killer does): ``simulate --jobs 2`` waited for
    ever; it ends in one line, exit 2."""
    argv = ("simulate", "-v", "foster", "-n", "400000", "--jobs", "2", "-q")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bouillotte", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)),
    )
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            workers = [c for c in _children(proc.pid) if _cmdline(c) == _cmdline(proc.pid)]
        assert len(workers) >= 2, "no workers started"
        time.sleep(0.5)
        os.kill(workers[-1], signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    assert "Traceback" not in err, err
    assert proc.returncode == 2, err
    assert err.startswith("error: a worker process was killed"), err
    assert len(err.strip().splitlines()) == 1, err
