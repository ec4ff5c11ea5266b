"""The catalogue of hostile input (issue 12): every bad input a hostile user tried, and what
the tool must do with it.

One case per input file (in ``inputs/``) or per command, with its exact outcome: the exit
status (2 for bad input, 130 after Ctrl-C, 143 after SIGTERM, 141 for a closed pipe), a
fragment of the one-line message, the files that must be left untouched (or be gone), and
never a traceback nor a hang. Add a case for every bug found.

Round three (issue 23) adds caches planted or damaged (never trusted, never unpickled),
themes (confined, their errors at file:line), streams (closed, full, unencodable, a pipe
closed early), SIGTERM, leftovers of a killed build, markers without a file list, and
strictness (digits, ids, option values); a case that runs ``bouillotte`` as a real process
goes through its ``main()``, where the streams and signals are handled.

Round four, part two (issue 47) attacks what was added since the one writer: ``cache
clear``, ``strong``, every ``--csv``, the effects store, ``site serve --watch``, a full disk
(a 64 KiB tmpfs mounted for the case: as root only, else the case is skipped with the
reason), base URLs and recursive loops in a theme (the Python API: ``test_api_hostile.py``;
the site's formats: ``test_site_formats.py``).

Placeholders in a command and in ``env``: ``{in}`` is a copy of ``inputs/``, ``{tmp}`` the
case's own folder (where ``setup`` makes the inputs too big or too odd to keep in git).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import http.client
import os
import pickle
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2.bccache
import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.listing import variant_rows
from bouillotte.site import build_site
from bouillotte.site.output import MARKER, REPLACED, partial_claim, replaced_claim

from ..own_rules import foster_rules_as_ones_own

PARTIAL = ".bouillotte-partial"
"""What a build in progress leaves in its temporary folder (``site.output.PARTIAL``)."""

INPUTS = Path(__file__).resolve().parent / "inputs"
ENGINE = Path(__file__).resolve().parents[2] / "engine"
"""The package a real process runs (this tree's, whatever is installed)."""
HANG = 60.0
"""Seconds after which a case counts as hung (each takes well under one on an idle machine;
20 s was once exceeded by a real process at a load of 20 on two cores)."""

Cleanup = Callable[[], None] | None


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    says: str
    """A fragment of the message (stderr); with ``exit`` 0, of stdout."""
    exit: int = 2
    setup: Callable[[Path], Cleanup] | None = None
    untouched: tuple[str, ...] = ()
    """Files or folders (under the case's folder) whose bytes must not change."""
    never: tuple[str, ...] = ()
    """What must appear nowhere in the output (besides a traceback)."""
    one_line: bool = True
    """The message is one line (``check`` adds its summary line)."""
    cwd: str = ""
    process: Callable[[subprocess.Popen[str]], None] | None = None
    """Run as a real process, driven by this function (signals, a server)."""
    unprivileged: bool = False
    """Run without root's power to ignore permissions, when the tests run as root."""
    real: bool = False
    """Run as a real process (``bouillotte``'s ``main()``: streams, signals, usage errors)."""
    stdout: str = "pipe"
    """For a real process: ``pipe``, ``closed`` (``>&-``), ``full`` (``> /dev/full``),
    ``broken`` (a pipe whose reader has gone, as ``| head`` leaves it once it has read
    enough: deterministic, where a reader closing mid-way races with the writes) or
    ``file`` (``> {tmp}/stdout.txt``, which ``limits`` bound)."""
    stderr: str = "pipe"
    """For a real process: ``pipe`` or ``full`` (``2> /dev/full``: nothing is seen of it)."""
    env: tuple[tuple[str, str], ...] = ()
    """For a real process: variables set in its environment."""
    silent: bool = False
    """Nothing at all on stderr (a closed pipe)."""
    gone: tuple[str, ...] = ()
    """Files or folders (under the case's folder) that must not exist afterwards."""
    made: tuple[str, ...] = ()
    """Files (under the case's folder) that must exist afterwards."""
    within: float | None = None
    """Seconds the case may take at most (a refusal that must come at once)."""
    limits: tuple[tuple[int, int], ...] = ()
    """For a real process: resource limits (``resource.RLIMIT_FSIZE``, bytes), as
    ``ulimit`` sets them."""
    cwd_deleted: bool = False
    """For a real process: its working folder (``cwd``) is deleted once it is in it."""
    then: tuple[str, ...] = ()
    """A command run afterwards (in this process, without ``limits``) that must succeed:
    the retry of a command that failed, which must have left nothing in its way."""
    freed: bool = False
    """Before the retry (``then``), the full disk's filler is removed: the space a user
    frees before trying again (:func:`_full_disk`)."""


# -- set-ups --------------------------------------------------------------------------------


def _previous_build(folder: Path, extra: str | None = None) -> None:
    """A folder as a build leaves it: files, and the marker that lists them."""
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text("<!doctype html><title>old</title>\n", encoding="utf-8")
    (folder / "assets" / "style.css").write_text("body {}\n", encoding="utf-8")
    (folder / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n"
        "The files it wrote:\n- assets/style.css\n- index.html\n",
        encoding="utf-8",
    )
    if extra:
        (folder / extra).write_text("the user's own notes\n", encoding="utf-8")


def _big_file(tmp: Path) -> Cleanup:
    (tmp / "big").mkdir()
    with (tmp / "big" / "huge.yaml").open("wb") as f:  # 50 MB, sparse: instant to make
        f.write(b"title: huge\n")
        f.truncate(50 * 2**20)
    return None


def _dev_zero(tmp: Path) -> Cleanup:
    (tmp / "profiles").mkdir()
    (tmp / "profiles" / "zero.yaml").symlink_to("/dev/zero")
    return None


def _fifo(tmp: Path) -> Cleanup:
    (tmp / "profiles").mkdir()
    os.mkfifo(tmp / "profiles" / "pipe.yaml")
    return None


def _folder_named_yaml(tmp: Path) -> Cleanup:
    (tmp / "profiles" / "odd.yaml").mkdir(parents=True)
    return None


def _extends_chain(tmp: Path) -> Cleanup:
    chain = tmp / "chain"
    chain.mkdir()
    for i in range(1500):
        parent = f"p{i + 1}" if i < 1499 else "foster"
        (chain / f"p{i}.yaml").write_text(
            f"title: P{i}\nsource: foster\nextends: {parent}\n", encoding="utf-8"
        )
    return None


def _input_inside_out(tmp: Path) -> Cleanup:
    shutil.copytree(INPUTS / "cave-true", tmp / "insite" / "my-profiles")
    (tmp / "insite" / "my-profiles" / "mine.yaml").write_text(
        "title: Mine\nsource: foster\nextends: foster\n", encoding="utf-8"
    )
    return None


def _scenarios_folder(tmp: Path) -> Cleanup:
    (tmp / "mine").mkdir()
    shutil.copy(INPUTS / "unknown-work.yaml", tmp / "mine" / "deal.yaml")
    return None


def _precious(tmp: Path) -> Cleanup:
    (tmp / "precious").mkdir()
    (tmp / "precious" / "thesis.txt").write_text("years of work\n", encoding="utf-8")
    return None


def _site_with_user_file(tmp: Path) -> Cleanup:
    _previous_build(tmp / "site", extra="my-notes.txt")
    return None


def _site(tmp: Path) -> Cleanup:
    _previous_build(tmp / "site")
    return None


def _read_only_site(tmp: Path) -> Cleanup:
    _previous_build(tmp / "site")
    for folder in (tmp / "site" / "assets", tmp / "site"):
        folder.chmod(0o555)

    def cleanup() -> None:
        for folder in (tmp / "site", tmp / "site" / "assets"):
            folder.chmod(0o755)

    return cleanup


def _a_file(tmp: Path) -> Cleanup:
    (tmp / "afile").write_text("not a folder\n", encoding="utf-8")
    return None


def _build_running(tmp: Path) -> Cleanup:
    """Another build holds the lock on ``site`` (as a running ``site build`` does)."""
    fd = os.open(tmp / ".site.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return lambda: os.close(fd)


# -- an editor's own folder (bouillotte new), with one mistake each --------------------------


def _editor_folder(tmp: Path) -> Path:
    from bouillotte.cli.scaffold import scaffold

    scaffold(tmp / "ed")
    return tmp / "ed" / "variants"


def _edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text, (file, old)
    file.write_text(text.replace(old, new), encoding="utf-8")


def _quote_mistyped(tmp: Path) -> Cleanup:
    _edit(_editor_folder(tmp) / "our-table.yaml", "blind of two counters", "blind of too counters")
    return None


def _work_without_text(tmp: Path) -> Cleanup:
    _edit(_editor_folder(tmp) / "sources.yaml", "    file: texts/house-rules.txt\n", "")
    return None


def _text_missing(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "texts" / "house-rules.txt").unlink()
    return None


def _text_not_utf8(tmp: Path) -> Cleanup:
    text = _editor_folder(tmp) / "texts" / "house-rules.txt"
    text.write_bytes(text.read_text(encoding="utf-8").replace("Void", "Déjà").encode("latin-1"))
    return None


def _text_without_header(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "texts" / "house-rules.txt").write_text(
        "the dealer puts up a blind of two counters\n", encoding="utf-8"
    )
    return None


def _glossary_quote_mistyped(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "glossary.yaml").write_text(
        "terms:\n  - id: levy\n    term: levy\n    definition: What a void deal costs.\n"
        "    source: house-rules\n    locator: Void deals\n"
        "    quote: each player puts three counters in the pool\n    status: documented\n",
        encoding="utf-8",
    )
    return None


def _readings_quote_mistyped(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "readings.yaml").write_text(
        "readings:\n  - id: levy\n    rule: void_deals.levy_and_next_blind\n"
        "    source: house-rules\n    locator: Void deals\n"
        "    quote: each player puts two counter in the pool\n"
        "    question: Does the next dealer blind on top of the levy?\n"
        "    readings:\n      - {value: levy-and-blind, meaning: He does.}\n"
        "      - {value: levy-instead-of-blind, meaning: He does not.}\n"
        "    scenario: our-table-nobody-opens\n    variant: our-table\n",
        encoding="utf-8",
    )
    return None


def _same_id_in_two_folders(tmp: Path) -> Cleanup:
    folder = _editor_folder(tmp)
    (tmp / "more").mkdir()
    shutil.copy(folder / "our-table.yaml", tmp / "more" / "our-table.yaml")
    return None


def _bundled_id(tmp: Path) -> Cleanup:
    folder = _editor_folder(tmp)
    (folder / "our-table.yaml").rename(folder / "foster.yaml")
    _edit(folder / "foster.yaml", "extends: foster", "extends: pagat")
    return None


def _silent_without_its_system(tmp: Path) -> Cleanup:
    _edit(
        _editor_folder(tmp) / "our-table.yaml",
        "      status: documented\n  void_deals:",
        "      status: documented\n      source_silent: true\n  void_deals:",
    )
    return None


def _not_empty(tmp: Path) -> Cleanup:
    _editor_folder(tmp)
    return None


# -- drivers of real processes --------------------------------------------------------------


def _group(pid: int) -> list[int]:
    """The processes of a process group (the command and the workers it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def _stop_when_working(proc: subprocess.Popen[str], stop: Callable[[], None], what: str) -> None:
    """``stop()`` once the command's two workers have started; the command must then end
    at once, leaving no process. ``what``: how it was stopped, for the messages."""
    deadline = time.monotonic() + HANG
    while len(_group(proc.pid)) < 3:  # the command and its two workers
        assert proc.poll() is None, f"the command ended before {what}"
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    time.sleep(0.3)
    stop()
    started = time.monotonic()
    proc.wait(timeout=HANG)
    assert time.monotonic() - started < 5, f"{what} did not stop the command at once"
    time.sleep(0.2)
    assert _group(proc.pid) == [], "worker processes outlived the command"


def _interrupt_when_working(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it)."""
    _stop_when_working(proc, lambda: os.killpg(proc.pid, signal.SIGINT), "Ctrl-C")


def _terminate_when_working(proc: subprocess.Popen[str]) -> None:
    """SIGTERM to the command alone (as ``timeout`` or a scheduler sends it): it must end
    at once with 143."""
    _stop_when_working(proc, lambda: os.kill(proc.pid, signal.SIGTERM), "SIGTERM")


def _served(proc: subprocess.Popen[str], answers: tuple[tuple[str, int], ...]) -> None:
    """Each path requested from the server the command started answers its status, and the
    server goes on serving; then Ctrl-C stops it."""
    assert proc.stderr is not None
    line = proc.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert found, line
    port = int(found.group(1))
    for path, status in answers:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        connection.request("GET", path)
        assert connection.getresponse().status == status, path
        connection.close()
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=HANG)


def _request_nul(proc: subprocess.Popen[str]) -> None:
    """``/%00`` is answered 400."""
    _served(proc, (("/%00", 400), ("/index.html%00.txt", 400), ("/index.html", 200)))


def _request_a_link_out(proc: subprocess.Popen[str]) -> None:
    """A link out of the served folder is answered 404; the site itself 200."""
    _served(proc, (("/leak.txt", 404), ("/etc/passwd", 404), ("/index.html", 200)))


# -- round three: caches, themes, streams, signals (issue 23) -------------------------------

PWNED = "pwned-by-a-cache-file"


class _Pickled:
    """A pickle that runs a shell command when it is loaded."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"echo {PWNED} >&2",))


def _cache_here(tmp: Path) -> Callable[[], None]:
    """The case's own cache folder, in the environment until the case ends."""
    before = os.environ.get("BOUILLOTTE_CACHE")
    os.environ["BOUILLOTTE_CACHE"] = str(tmp / "cache")

    def cleanup() -> None:
        if before is None:
            os.environ.pop("BOUILLOTTE_CACHE", None)
        else:
            os.environ["BOUILLOTTE_CACHE"] = before

    return cleanup


def _listing_cache(change: Callable[[Path], None]) -> Callable[[Path], Cleanup]:
    """The rows of ``variants list`` stored, then their cache file changed."""

    def setup(tmp: Path) -> Cleanup:
        cleanup = _cache_here(tmp)
        variant_rows()
        (file,) = (tmp / "cache").glob("variant-rows-*.json")
        change(file)
        return cleanup

    return setup


def _retitled(file: Path) -> None:
    file.write_text(file.read_text(encoding="utf-8").replace("Foster's", "Fester's"), "utf-8")


def _fifo_instead(file: Path) -> None:
    file.unlink()
    os.mkfifo(file)


def _nested_deep(file: Path) -> None:
    file.write_text("[" * 200_000, encoding="utf-8")


@functools.cache
def _own_profile() -> str:
    """A profile of the user's own, every rule stated, citing the user's own book."""
    import yaml

    rules = foster_rules_as_ones_own()
    return yaml.safe_dump({"title": "House", "source": "mybook", "rules": rules}, sort_keys=False)


OWN_BUILD = (
    "site", "build", "--no-bundled", "--variants", "{tmp}/own/mine",
    "--config", "{tmp}/own/site.yaml", "--out", "{tmp}/out",
)  # fmt: skip
"""A site of one profile of the user's own, with a theme: built in a fraction of a second."""


def _own_site(
    templates: dict[str, str | bytes] | None = None,
    config: str = "theme: theme\n",
    then: Callable[[Path], None] | None = None,
) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        own = tmp / "own"
        (own / "mine").mkdir(parents=True)
        (own / "mine" / "house.yaml").write_text(_own_profile(), encoding="utf-8")
        (own / "mine" / "sources.yaml").write_text(
            'works:\n  mybook:\n    author: A. Player\n    title: Our own book\n    year: "1990"\n'
            "    language: en\n",
            encoding="utf-8",
        )
        (own / "theme" / "templates").mkdir(parents=True)
        (own / "site.yaml").write_text(config, encoding="utf-8")
        (tmp / "outside").mkdir()
        (tmp / "outside" / "secret.html").write_text("SECRET of another folder\n", "utf-8")
        for name, text in (templates or {}).items():
            data = text.encode("utf-8") if isinstance(text, str) else text
            (own / "theme" / "templates" / name).write_bytes(data)
        if then is not None:
            then(tmp)
        return None

    return setup


def _search_page(body: str) -> dict[str, str | bytes]:
    """A theme's search page: ``body`` on its third line."""
    lines = ['{% extends "base.html" %}', "{% block main %}", body, "{% endblock %}"]
    return {"search.html": "\n".join(lines) + "\n"}


def _template_linked_out(tmp: Path) -> None:
    (tmp / "own" / "theme" / "templates" / "search.html").symlink_to(
        tmp / "outside" / "secret.html"
    )


def _assets_linked_out(tmp: Path) -> None:
    (tmp / "own" / "theme" / "assets").symlink_to(tmp / "outside")


def _site_cache(poison: Callable[[Path], None], real: bool = False) -> Callable[[Path], Cleanup]:
    """The own site built once (every result stored), then every file of the cache folder
    poisoned. ``real``: built by a real process, as the case runs (the same code at the same
    paths: a compiled template's cache key names its file)."""

    def setup(tmp: Path) -> Cleanup:
        cleanup = _cache_here(tmp)
        _own_site()(tmp)
        if real:
            argv = [a.replace("{tmp}", str(tmp)) for a in OWN_BUILD]
            argv[argv.index("--out") + 1] = str(tmp / "first")
            subprocess.run(
                [sys.executable, "-m", "bouillotte", *argv],
                env={**os.environ, "PYTHONPATH": str(ENGINE)},
                capture_output=True,
                check=True,
                timeout=HANG,
            )
        else:
            build_site(
                tmp / "first",
                [tmp / "own" / "mine"],
                include_bundled=False,
                config_file=tmp / "own" / "site.yaml",
            )
        files = sorted(f for f in (tmp / "cache").iterdir() if f.is_file())
        assert files, "the first build stored nothing"
        for file in files:
            poison(file)
        return cleanup

    return setup


def _empty_object(file: Path) -> None:
    file.write_text("{}", encoding="utf-8")


def _pickle_bomb(file: Path) -> None:
    file.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(_Pickled()))


def _killed_build(tmp: Path) -> Cleanup:
    """What builds killed outright leave beside --out: a half-written one (this version's,
    marked in progress) and an empty one (killed before it wrote anything)."""
    _own_site()(tmp)
    half = tmp / ".out.k1ll3d00.tmp"
    (half / "assets").mkdir(parents=True)
    (half / "assets" / "style.css").write_text("body {}\n", encoding="utf-8")
    (half / PARTIAL).write_text(partial_claim(half), encoding="utf-8")
    (tmp / ".out.0empty00.tmp").mkdir()
    return None


def _old_marker_with_user_file(tmp: Path) -> Cleanup:
    """A marker in the old format (no file list), by hand or by an older build, beside a
    user's own file."""
    (tmp / "site").mkdir()
    (tmp / "site" / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n", encoding="utf-8"
    )
    (tmp / "site" / "index.html").write_text("<!doctype html><title>old</title>\n", "utf-8")
    (tmp / "site" / "thesis.txt").write_text("years of work\n", encoding="utf-8")
    return None


def _zero_width_profile(tmp: Path) -> Cleanup:
    (tmp / "profiles").mkdir()
    (tmp / "profiles" / "fo\u200bster.yaml").write_text(
        "title: Mine\nsource: foster\nextends: foster\n", encoding="utf-8"
    )
    return None


def _profile_named(name: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (tmp / "profiles").mkdir()
        (tmp / "profiles" / name).write_text(
            "title: Mine\nsource: foster\nextends: foster\n", encoding="utf-8"
        )
        return None

    return setup


def _site_with_a_link_out(tmp: Path) -> Cleanup:
    _previous_build(tmp / "site")
    (tmp / "secret.txt").write_text("not part of the site\n", encoding="utf-8")
    (tmp / "site" / "leak.txt").symlink_to(tmp / "secret.txt")
    (tmp / "site" / "etc").symlink_to("/etc")
    return None


# -- round four (issue 47): writing, data loss, retries, bounds -----------------------------

FSIZE = resource.RLIMIT_FSIZE
NOFILE = resource.RLIMIT_NOFILE


def _export_folder_with_a_dangling_link(tmp: Path) -> Cleanup:
    (tmp / "own").mkdir()
    (tmp / "outside").mkdir()
    (tmp / "own" / "foster.yaml").symlink_to(tmp / "outside" / "planted.yaml")
    return None


def _export_folder_with_linked_texts(tmp: Path) -> Cleanup:
    (tmp / "own").mkdir()
    (tmp / "elsewhere").mkdir()
    (tmp / "own" / "texts").symlink_to(tmp / "elsewhere")
    return None


def _text_linked_out(tmp: Path) -> Cleanup:
    text = _editor_folder(tmp) / "texts" / "house-rules.txt"
    (tmp / "outside").mkdir()
    secret = tmp / "outside" / "secret.txt"
    shutil.move(text, secret)
    text.symlink_to(secret)
    return None


def _golden_all_changed(tmp: Path) -> Cleanup:
    """A copy of the golden transcripts, every one of them out of date, and a stale one."""
    golden = Path(__file__).resolve().parents[1] / "golden"
    shutil.copytree(golden, tmp / "gold")
    for file in (tmp / "gold").glob("*.txt"):
        file.write_text("an older transcript\n", encoding="utf-8")
    (tmp / "gold" / "gone-scenario__foster.txt").write_text(
        "scenario: gone-scenario — A stale one\nvariant:  foster — Foster\nstatus: settled\n",
        encoding="utf-8",
    )
    return None


def _effects_store_half_writable(tmp: Path) -> Cleanup:
    """A store of stored results (``site/effects``) where the first pair's file is stored
    and the second pair's place is taken by a folder: writing stops half-way."""
    from bouillotte.site import effects_store, everyrule

    store = tmp / "store"
    store.mkdir()
    (store / "pagat__pagat-mistigri.json").write_text('{"old": true}\n', encoding="utf-8")
    (store / "foster__pagat.json").mkdir()
    modules = (effects_store, everyrule)
    saved = [getattr(m, "store_folder") for m in modules]  # noqa: B009
    for module in modules:
        setattr(module, "store_folder", lambda: store)  # noqa: B010

    def cleanup() -> None:
        for module, kept in zip(modules, saved, strict=True):
            setattr(module, "store_folder", kept)  # noqa: B010

    return cleanup


def _csv_pipe(tmp: Path) -> Cleanup:
    os.mkfifo(tmp / "pipe.csv")
    return None


def _gone_folder(tmp: Path) -> Cleanup:
    (tmp / "gone").mkdir()
    return None


def _link_to_itself(name: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).symlink_to((tmp / name).name)
        return None

    return setup


def _template_linked_to_itself(tmp: Path) -> None:
    _link_to_itself("own/theme/templates/loop.html")(tmp)


def _templates_linked_to_themselves(tmp: Path) -> None:
    templates = tmp / "own" / "theme" / "templates"
    shutil.rmtree(templates)
    templates.symlink_to("templates")


def _user_folders_named_like_leftovers(tmp: Path) -> Cleanup:
    """A user's own folders beside --out, named as a build names its leftovers: a backup of
    an older build (``mv out .out.old-2025``, its marker kept), a copy of a half-built one
    that claims another folder, and one claimed in an older format."""
    _own_site()(tmp)
    _previous_build(tmp / ".out.old-2025", extra="notes.txt")
    (tmp / ".out.old-20251231" / "keep").mkdir(parents=True)
    (tmp / ".out.old-20251231" / REPLACED).write_text(
        replaced_claim(tmp / ".out.old-other00"), encoding="utf-8"
    )
    (tmp / ".out.mybackup.tmp").mkdir()
    (tmp / ".out.mybackup.tmp" / PARTIAL).write_text(
        partial_claim(tmp / ".out.k1ll3d00.tmp"), encoding="utf-8"
    )
    (tmp / ".out.mybackup.tmp" / "draft.html").write_text("mine\n", encoding="utf-8")
    return None


def _quote_of_a_megabyte(tmp: Path) -> Cleanup:
    words = " ".join(f"word{i % 977}" for i in range(120_000))  # 0.95 MB: a YAML file holds 1 MiB
    variants = _editor_folder(tmp)
    with (variants / "texts" / "house-rules.txt").open("a", encoding="utf-8") as text:
        text.write("\n" + " ".join(f"word{i}" for i in range(300)) + "\n")  # a paragraph like it
    _edit(
        variants / "our-table.yaml",
        'quote: "the dealer puts up a blind of two counters"',
        f'quote: "{words}"',
    )
    return None


def _text_of_one_huge_paragraph(tmp: Path) -> Cleanup:
    variants = _editor_folder(tmp)
    text = variants / "texts" / "house-rules.txt"
    head, _, body = text.read_text(encoding="utf-8").partition("---\n")
    filler = " ".join(["the dealer puts up a counter and the next"] * 60_000)  # 2.5 MB
    text.write_text(f"{head}---\n{filler} {body.replace(chr(10) * 2, ' ')}", encoding="utf-8")
    _edit(
        variants / "our-table.yaml",
        'quote: "the dealer puts up a blind of two counters"',
        'quote: "the dealer [...] puts up a blind of three counters"',
    )
    return None


def _site_with_a_linked_index(tmp: Path) -> Cleanup:
    _previous_build(tmp / "site")
    (tmp / "secret.html").write_text("<p>not part of the site</p>\n", encoding="utf-8")
    (tmp / "site" / "index.html").unlink()
    (tmp / "site" / "index.html").symlink_to(tmp / "secret.html")
    (tmp / "site" / "sub").mkdir()
    (tmp / "site" / "sub" / "index.html").symlink_to(tmp / "secret.html")
    return None


def _request_a_linked_index(proc: subprocess.Popen[str]) -> None:
    """A folder whose index.html leads out of the served folder is answered 404."""
    _served(proc, (("/", 404), ("/sub/", 404), ("/index.html", 404), ("/assets/style.css", 200)))


TWENTY_TWO_RULES_TEXT = (
    "table.direction table.cut_by table.deal_singly table.draw "
    "betting.opening_short_of_the_pot hands.mignon forced_bets.straddles "
    "forced_bets.straddle_amount forced_bets.straddle_limit "
    "forced_bets.straddling_ends_at_first_refusal forced_bets.straddle_must_be_seen "
    "betting.pass_before_opening betting.all_in_may_open_or_raise "
    "betting.return_uncalled_excess betting.two_players_call_ends "
    "betting.two_players_betting betting.privilege_after_the_word "
    "void_deals.nobody_opens void_deals.nobody_opens_after_straddles "
    "void_deals.levy_and_next_blind hands.brelans_recognised hands.carre"
)
"""Twenty-two rules of two values each: 2 ** 22 = 4,194,304 combinations."""
TWENTY_TWO_RULES = tuple(
    part for rule in TWENTY_TWO_RULES_TEXT.split(" ") for part in ("--vary", rule)
)


# -- round four, part two: the surfaces added since (issue 47) ------------------------------


def _sealed(folder: Path, name: str) -> None:
    """A cache file of ours (sealed as ``rules/diskcache.store`` seals one) in ``folder``."""
    from bouillotte.rules.diskcache import seal

    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(seal(folder / name, "{}"), encoding="utf-8")


def _cache_linked_out(tmp: Path) -> Cleanup:
    """``$BOUILLOTTE_CACHE`` is a link to a folder of the user's that holds a file of ours."""
    _sealed(tmp / "elsewhere", "kept.json")
    (tmp / "cache").symlink_to(tmp / "elsewhere")
    return None


def _relative_xdg_cache(tmp: Path) -> Cleanup:
    """``XDG_CACHE_HOME=.``, run from a folder holding ``bouillotte/`` with a file of ours:
    the XDG spec says a relative path is invalid and must be ignored."""
    _sealed(tmp / "work" / "bouillotte", "kept.json")
    (tmp / "home").mkdir()
    return None


def _full_disk(tmp: Path, free: int = 0) -> Cleanup:
    """``mnt``: a file system of 64 KiB, full but for ``free`` bytes (a full disk, as root
    may mount one)."""
    (tmp / "mnt").mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tmp / "mnt")],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small file system here (not root?): {done.stderr!r}")
    fd = os.open(tmp / "mnt" / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    with contextlib.suppress(OSError):
        while os.write(fd, b"\0" * 512):  # until the disk is full
            pass
    os.ftruncate(fd, max(os.fstat(fd).st_size - free, 0))
    os.close(fd)

    def unmount() -> None:
        subprocess.run(["umount", "-l", str(tmp / "mnt")], check=False)

    return unmount


def _full_disk_and_own_site(tmp: Path) -> Cleanup:
    _own_site()(tmp)
    return _full_disk(tmp, free=4096)  # the build's first files fit, not its assets


def _patched(
    module_name: str, name: str, value: Callable[[Path], Any]
) -> Callable[[Path], Cleanup]:
    """A set-up that sets ``module.name`` to ``value(tmp)`` for the case (in this process)."""

    def setup(tmp: Path) -> Cleanup:
        import importlib

        module = importlib.import_module(module_name)
        saved = getattr(module, name)
        setattr(module, name, value(tmp))
        return lambda: setattr(module, name, saved)

    return setup


def _strategies_under_a_file(tmp: Path) -> Path:
    (tmp / "afile").write_text("not a folder\n", encoding="utf-8")
    return tmp / "afile" / "strategies"


def _effects_store_on_a_full_disk(tmp: Path) -> Cleanup:
    from bouillotte.site import effects_store, everyrule

    cleanup = _full_disk(tmp)
    (tmp / "mnt" / "store").mkdir()
    modules = (effects_store, everyrule)
    saved = [getattr(m, "store_folder") for m in modules]  # noqa: B009
    for module in modules:
        setattr(module, "store_folder", lambda: tmp / "mnt" / "store")  # noqa: B010

    def undo() -> None:
        for module, kept in zip(modules, saved, strict=True):
            setattr(module, "store_folder", kept)  # noqa: B010
        if cleanup is not None:
            cleanup()

    return undo


def _effects_store_under_a_file(tmp: Path) -> Cleanup:
    from bouillotte.site import effects_store, everyrule

    (tmp / "afile").write_text("not a folder\n", encoding="utf-8")
    modules = (effects_store, everyrule)
    saved = [getattr(m, "store_folder") for m in modules]  # noqa: B009
    for module in modules:
        setattr(module, "store_folder", lambda: tmp / "afile" / "effects")  # noqa: B010

    def undo() -> None:
        for module, kept in zip(modules, saved, strict=True):
            setattr(module, "store_folder", kept)  # noqa: B010

    return undo


def _csv_dangling_link(tmp: Path) -> Cleanup:
    (tmp / "outside").mkdir()
    (tmp / "out.csv").symlink_to(tmp / "outside" / "planted.csv")
    return None


def _read_only_folder(tmp: Path) -> Cleanup:
    (tmp / "ro").mkdir()
    (tmp / "ro").chmod(0o555)
    return lambda: (tmp / "ro").chmod(0o755)


def _site_config(config: str) -> Callable[[Path], Cleanup]:
    return _own_site(config=config)


WATCH_OWN = (
    "site", "serve", "--watch", "--port", "0", "--dir", "{tmp}/out", "--no-bundled",
    "--variants", "{tmp}/own/mine", "--config", "{tmp}/own/site.yaml",
)  # fmt: skip
"""``site serve --watch`` of the site :data:`OWN_BUILD` builds."""


def _strategy_linked_out(tmp: Path) -> Cleanup:
    """The store (``strong/strategies``) holds, where ``strong solve --deals 2
    --iterations 1 --write`` stores its strategy, a link to a file outside it."""
    from bouillotte.strong import store
    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.core import table_for

    undo = _patched("bouillotte.strong.store", "STORE", lambda t: t / "strategies")(tmp)
    abstraction = Abstraction(20, ("pot",), 2, True, 2, 5, 1)
    path = store.address(table_for("foster-three", abstraction).variant, abstraction, 1)
    path.parent.mkdir()
    (tmp / "outside").mkdir()
    path.symlink_to(tmp / "outside" / "planted.json")
    return undo


CSV_COMMANDS = (
    ("simulate", "-v", "foster", "--deals", "5", "-q"),
    ("odds", "-v", "foster"),
    ("compare", "foster-sight", "-v", "foster", "-v", "pagat"),
    ("effects", "--pair", "foster__pagat"),
    ("sweep", "foster", "--vary", "table.direction", "--deals", "5", "-q"),
)
"""Every command with ``--csv FILE`` (a tidy table), each small enough to run at once."""


# -- the catalogue --------------------------------------------------------------------------

NOT_BUILT = ("reading the variant profiles",)
"""Logged when a build starts reading its inputs: a bad --out is refused before that."""

CASES = [
    # YAML that would hang, exhaust memory or recurse until Python gives up
    Case(
        "billion-laughs",
        ("variants", "show", "laughs", "--variants", "{in}/billion-laughs"),
        "laughs.yaml:6: the document expands to more than 20,000 values",
    ),
    Case("self-alias", ("run", "{in}/self-alias.yaml"), "self-alias.yaml:3: the alias *t"),
    Case("deep-nesting", ("session", "{in}/deep-nesting.yaml"), "deep-nesting.yaml:4:"),
    Case(
        "file-of-50-mb",
        ("variants", "list", "--variants", "{tmp}/big"),
        "huge.yaml: the file is 52,428,800 bytes; a YAML file may hold at most 1,048,576",
        setup=_big_file,
    ),
    Case(
        "profile-linked-to-dev-zero",
        ("variants", "list", "--variants", "{tmp}/profiles"),
        "zero.yaml: not a regular file (a device, pipe or socket)",
        setup=_dev_zero,
    ),
    Case(
        "profile-that-is-a-named-pipe",
        ("variants", "list", "--variants", "{tmp}/profiles"),
        "pipe.yaml: not a regular file",
        setup=_fifo,
    ),
    Case(
        "profile-that-is-a-folder",
        ("variants", "list", "--variants", "{tmp}/profiles"),
        "odd.yaml: not a regular file (a folder)",
        setup=_folder_named_yaml,
    ),
    Case(
        "nul-byte",
        ("run", "{in}/nul-byte.yaml"),
        "nul-byte.yaml:2: not valid YAML: the file holds a NUL byte",
    ),
    # strict scalars
    Case(
        "cave-true",
        ("variants", "show", "mine", "--variants", "{in}/cave-true"),
        "mine.yaml:6: rules.stakes.cave: Input should be a valid integer (value: True)",
    ),
    Case(
        "sexagesimal-cave",
        ("variants", "show", "mine", "--variants", "{in}/sexagesimal"),
        "mine.yaml:6: rules.stakes.cave: Input should be a valid integer (value: '1:40')",
    ),
    Case(
        "octal-cave",
        ("variants", "show", "mine", "--variants", "{in}/octal"),
        "mine.yaml:6: rules.stakes.cave: Input should be a valid integer (value: '0100')",
    ),
    Case(
        "cave-written-as-text",
        ("run", "{in}/caves-as-text.yaml"),
        "caves-as-text.yaml:6: caves.A: Input should be a valid integer (value: '100')",
    ),
    Case(
        "integer-of-5000-digits",
        ("run", "{in}/huge-int.yaml"),
        "huge-int.yaml:6: seed: a number of 5,000 digits is too large",
    ),
    Case(
        "blind-larger-than-the-cave",
        ("variants", "show", "mine", "--variants", "{in}/blind-over-cave"),
        "mine.yaml:8: rules.forced_bets.dealer_blind: the dealer's blind, 50, is larger",
    ),
    Case(
        "work-not-in-the-bibliography",
        ("run", "{in}/unknown-work.yaml"),
        "unknown-work.yaml:3: source.work: unknown work; the bibliography has",
    ),
    # the glossary (variants/glossary.yaml), cited data read with the profiles
    Case(
        "glossary-unknown-key",
        ("variants", "list", "--variants", "{in}/glossary-unknown-key"),
        "glossary.yaml:5: terms.0.aslo: unknown key 'aslo' (did you mean 'also'?)",
    ),
    Case(
        "glossary-documented-term-without-its-quote",
        ("site", "build", "--out", "{tmp}/out", "--variants", "{in}/glossary-quote-missing"),
        "glossary.yaml:3: terms.0.quote: Field required",
        one_line=False,  # the build's progress line comes before it
    ),
    Case(
        "glossary-work-not-in-the-bibliography",
        ("variants", "list", "--variants", "{in}/glossary-unknown-work"),
        "glossary.yaml:6: terms.0.source: unknown source id; the bibliography has",
    ),
    # stored script
    Case(
        "javascript-url",
        ("variants", "list", "--variants", "{in}/javascript-url"),
        "sources.yaml:6: works.evil.url: the url must be a web address starting with http",
    ),
    # never delete the user's files
    Case(
        "out-holds-the-profiles-it-reads",
        ("site", "build", "--out", "{tmp}/insite", "--variants", "{tmp}/insite/my-profiles"),
        "--out holds the input",
        setup=_input_inside_out,
        untouched=("insite",),
        never=NOT_BUILT,
    ),
    Case(
        "out-is-the-scenarios-folder",
        ("site", "build", "--out", "{tmp}/mine", "--scenarios", "{tmp}/mine"),
        "--out holds the input",
        setup=_scenarios_folder,
        untouched=("mine",),
        never=NOT_BUILT,
    ),
    Case(
        "out-holds-the-user-files",
        ("site", "build", "--out", "{tmp}/precious"),
        "refusing to replace a folder that is not a built site",
        setup=_precious,
        untouched=("precious",),
        never=NOT_BUILT,
    ),
    Case(
        "out-is-a-build-holding-a-user-file",
        ("site", "build", "--out", "{tmp}/site"),
        "holds a file it did not write (my-notes.txt)",
        setup=_site_with_user_file,
        untouched=("site",),
        never=NOT_BUILT,
    ),
    # bounded workers
    Case(
        "jobs-beyond-the-processors",
        ("simulate", "-v", "foster", "--deals", "10", "--jobs", "60"),
        "--jobs must be at most",
    ),
    Case(
        "ctrl-c-during-simulate-jobs-2",
        ("simulate", "-v", "foster", "--deals", "5000000", "--jobs", "2"),
        "interrupted",
        exit=130,
        process=_interrupt_when_working,
    ),
    # no traceback, ever
    Case(
        "out-unwritable",
        ("site", "build", "--out", "/proc/bouillotte-hostile-site"),
        "cannot write",
        never=NOT_BUILT,
    ),
    Case(
        "out-read-only",
        ("site", "build", "--out", "{tmp}/site"),
        "the previous build cannot be removed",
        setup=_read_only_site,
        untouched=("site",),
        never=NOT_BUILT,
        unprivileged=True,
    ),
    Case(
        "out-empty",
        ("site", "build", "--out", ""),
        "Invalid value for '--out': an empty name is no file or folder",
        never=NOT_BUILT,
        real=True,
    ),
    Case(
        "out-dot-inside-a-built-site",
        ("site", "build", "--out", "."),
        "--out must name a folder (not the current one)",
        setup=_site,
        untouched=("site",),
        cwd="site",
        never=NOT_BUILT,
    ),
    Case(
        "out-holds-the-current-folder",
        ("site", "build", "--out", ".."),
        "--out is the current folder or holds it",
        setup=_site,
        untouched=("site",),
        cwd="site/assets",
        never=NOT_BUILT,
    ),
    Case(
        "two-builds-into-one-folder",
        ("site", "build", "--out", "{tmp}/site"),
        "another `bouillotte site build` is writing into this folder",
        setup=_build_running,
        never=NOT_BUILT,
    ),
    Case(
        "differences-save-into-a-file",
        ("differences", "foster", "pagat", "--deals", "1", "--save", "{tmp}/afile"),
        "afile: --save must name a folder, not a file",
        setup=_a_file,
        untouched=("afile",),
    ),
    Case("serve-port-minus-1", ("site", "serve", "--port", "-1"), "--port must be between 0"),
    Case("serve-port-70000", ("site", "serve", "--port", "70000"), "--port must be between 0"),
    Case(
        "serve-a-request-for-nul",
        ("site", "serve", "--dir", "{tmp}/site", "--port", "0"),
        "stopped",
        exit=0,
        setup=_site,
        process=_request_nul,
        one_line=False,
    ),
    Case(
        "extends-chain-of-1500",
        ("variants", "show", "p0", "--variants", "{tmp}/chain"),
        "p1468.yaml:3: extends: 'extends:' chains more than 32 profiles",
        setup=_extends_chain,
    ),
    Case(
        "scenario-id-of-5000-characters",
        ("run", "{in}/long-id.yaml"),
        "long-id.yaml:1: id: String should have at most 100 characters",
    ),
    # no silent success
    *[
        Case(
            f"{command}-{players}-players",
            (command, f"{{in}}/seats-{players}.yaml"),
            f"seats-{players}.yaml:5: players: no variant seats {players} players",
            one_line=command != "check",
        )
        for players in (2, 6, 10, 1000)
        for command in ("run", "compare", "check")
    ],
    Case(
        "session-names-an-unknown-variant",
        ("session", "{in}/session-unknown-variant.yaml"),
        "session-unknown-variant.yaml:1: variant: unknown variant (did you mean 'foster'?); known",
    ),
    Case(
        "golden-dir-that-does-not-exist",
        ("golden", "--dir", "/nonexistent"),
        "/nonexistent: no such folder of golden transcripts",
    ),
    # clean terminals
    Case(
        "control-characters-in-a-title",
        ("variants", "show", "mine", "--variants", "{in}/control-characters"),
        "title: is shown on one line: it may not hold a line break or a control character "
        "(\\u001b at character 5)",
        never=("\x1b", "\x07", "\r"),
    ),
    # caches: wrong at worst, never harmful (issue 23)
    Case(
        "listing-cache-with-another-title",
        ("variants", "list"),
        "Foster's Complete Hoyle",
        exit=0,
        setup=_listing_cache(_retitled),
        never=("Fester",),
        one_line=False,
    ),
    Case(
        "listing-cache-that-is-a-named-pipe",
        ("variants", "list"),
        "Foster's Complete Hoyle",
        exit=0,
        setup=_listing_cache(_fifo_instead),
        one_line=False,
    ),
    Case(
        "listing-cache-nested-200000-deep",
        ("variants", "list", "--json"),
        '"title": "Foster',
        exit=0,
        setup=_listing_cache(_nested_deep),
        one_line=False,
    ),
    Case(
        "site-caches-holding-empty-objects",
        OWN_BUILD,
        "in a browser",
        exit=0,
        setup=_site_cache(_empty_object),
        one_line=False,
    ),
    Case(
        "site-caches-holding-a-pickle-that-runs-code",
        OWN_BUILD,
        "in a browser",
        exit=0,
        setup=_site_cache(_pickle_bomb, real=True),
        never=(PWNED,),
        one_line=False,
        real=True,
    ),
    # themes: confined to their folder, their errors at file:line
    Case(
        "theme-an-absolute-path",
        OWN_BUILD,
        "site.yaml:1: theme: must be a folder beside this file",
        setup=_own_site(config="theme: /etc\n"),
        never=NOT_BUILT,
    ),
    Case(
        "theme-leaving-its-folder",
        OWN_BUILD,
        "site.yaml:1: theme: must be a folder beside this file",
        setup=_own_site(config="theme: ../outside\n"),
        never=NOT_BUILT,
    ),
    Case(
        "theme-template-linked-outside",
        OWN_BUILD,
        "search.html: a link to",
        setup=_own_site(then=_template_linked_out),
        never=("SECRET", *NOT_BUILT),
    ),
    Case(
        "theme-assets-linked-outside",
        OWN_BUILD,
        "assets: a link to",
        setup=_own_site(then=_assets_linked_out),
        never=NOT_BUILT,
        gone=("out/assets/secret.html",),
    ),
    Case(
        "theme-template-syntax-error",
        OWN_BUILD,
        "templates/search.html:3: template syntax error",
        setup=_own_site(_search_page("{% if %}")),
        never=NOT_BUILT,
    ),
    Case(
        "theme-template-not-utf-8",
        OWN_BUILD,
        "templates/search.html:3: the template is not UTF-8 text (byte 0xff)",
        setup=_own_site({"search.html": b"{% extends 'base.html' %}\n\n\xff\xfe\n"}),
        never=NOT_BUILT,
    ),
    Case(
        "theme-includes-a-missing-template",
        OWN_BUILD,
        "templates/search.html:3: no template named 'nosuch.html'",
        setup=_own_site(_search_page('{% include "nosuch.html" %}')),
        never=NOT_BUILT,
    ),
    Case(
        "theme-extends-a-file-outside",
        OWN_BUILD,
        "templates/search.html:1: no template named '../../outside/secret.html'",
        setup=_own_site({"search.html": '{% extends "../../outside/secret.html" %}\n'}),
        never=("SECRET", *NOT_BUILT),
    ),
    Case(
        "theme-template-names-an-undefined-value",
        OWN_BUILD,
        "templates/search.html:3: the template failed: 'nosuch' is undefined",
        setup=_own_site(_search_page("{{ nosuch.name }}")),
        one_line=False,  # the build's progress lines come before it
    ),
    Case(
        "theme-template-that-raises",
        OWN_BUILD,
        "templates/search.html:3: the template failed: ZeroDivisionError",
        setup=_own_site(_search_page("{{ 1 // 0 }}")),
        one_line=False,
    ),
    Case(
        "theme-template-reaching-python-internals",
        OWN_BUILD,
        "templates/search.html:3: the template failed: access to attribute '__class__'",
        setup=_own_site(_search_page("{{ ''.__class__.__mro__ }}")),
        one_line=False,
    ),
    Case(
        "serve-a-link-out-of-its-folder",
        ("site", "serve", "--dir", "{tmp}/site", "--port", "0"),
        "stopped",
        exit=0,
        setup=_site_with_a_link_out,
        process=_request_a_link_out,
        one_line=False,
    ),
    # streams: closed, full, unencodable, a pipe closed early
    Case(
        "stdout-closed",
        ("variants", "list"),
        "error: cannot write to stdout: Bad file descriptor",
        real=True,
        stdout="closed",
    ),
    Case(
        "stdout-a-full-device",
        ("variants", "show", "foster"),
        "error: cannot write to stdout: No space left on device",
        real=True,
        stdout="full",
    ),
    Case(
        "stdout-a-full-device-json",
        ("compare", "foster-sight", "--json"),
        "error: cannot write to stdout: No space left on device",
        real=True,
        stdout="full",
    ),
    Case(
        "stderr-a-full-device-during-a-build",
        OWN_BUILD,
        "",
        exit=0,
        setup=_own_site(),
        real=True,
        stderr="full",
        made=("out/index.html",),
    ),
    Case(
        "stdout-in-ascii",
        ("variants", "show", "foster"),
        "\\u2026",
        exit=0,
        real=True,
        env=(("PYTHONIOENCODING", "ascii"),),
        one_line=False,
    ),
    *[
        Case(
            f"pipe-closed-by-its-reader-{argv[0]}",
            argv,
            "",
            exit=141,
            real=True,
            stdout="broken",
            silent=True,
        )
        for argv in (("variants", "list"), ("schema",), ("compare", "foster-sight", "--json"))
    ],
    Case(
        "bad-option-value-in-one-line",
        ("simulate", "-v", "foster", "--deals", "many"),
        "error: Invalid value for '--deals'",
        real=True,
    ),
    Case(
        "unknown-option-in-one-line",
        ("odds", "--no-such-option"),
        "error: No such option: --no-such-option",
        real=True,
    ),
    # signals and bounds
    Case(
        "sigterm-during-sweep-jobs-2",
        ("sweep", "foster", "--vary", "bonuses.carre.amount=5", "-n", "5000000", "-j", "2", "-q"),
        "interrupted",
        exit=143,
        process=_terminate_when_working,
    ),
    Case(
        "sigterm-during-simulate-jobs-2",
        ("simulate", "-v", "foster", "--deals", "5000000", "--jobs", "2", "-q"),
        "interrupted",
        exit=143,
        process=_terminate_when_working,
    ),
    Case(
        "leftovers-of-killed-builds",
        OWN_BUILD,
        "in a browser",
        exit=0,
        setup=_killed_build,
        gone=(".out.k1ll3d00.tmp", ".out.0empty00.tmp"),
        one_line=False,
    ),
    *[
        Case(
            f"deals-10-to-the-15-{command[0]}",
            (*command, "--deals", str(10**15)),
            "--deals must be at most 100,000,000",
            within=10,
        )
        for command in (
            ("simulate", "-v", "foster"),
            ("sweep", "foster", "--vary", "bonuses.carre.amount=5"),
            ("differences", "foster", "pagat"),
        )
    ],
    # data loss
    Case(
        "marker-without-a-file-list",
        ("site", "build", "--out", "{tmp}/site"),
        "lists no files",
        setup=_old_marker_with_user_file,
        untouched=("site",),
        never=NOT_BUILT,
    ),
    # strictness
    Case(
        "amount-in-arabic-indic-digits",
        ("run", "{in}/other-digits.yaml"),
        "other-digits.yaml:12: actions.0: 'A bet ٨٥': the amount '\\u0668\\u0665' is written",
    ),
    Case(
        "amount-a-superscript-two",
        ("run", "{in}/superscript-digit.yaml"),
        "superscript-digit.yaml:12: actions.0: 'A bet ²': the amount '\\u00b2' is written",
    ),
    Case(
        "scenario-id-with-a-zero-width-space",
        ("run", "{in}/zero-width-id.yaml"),
        "zero-width-id.yaml:1: id: 'mi\\u200bne' holds U+200B ZERO WIDTH SPACE",
    ),
    Case(
        "player-name-in-cyrillic",
        ("run", "{in}/homoglyph-player.yaml"),
        "homoglyph-player.yaml:4: players: player name '\\u0410' must be a word",
    ),
    Case(
        "profile-id-with-a-zero-width-space",
        ("variants", "list", "--variants", "{tmp}/profiles"),
        "'fo\\u200bster' holds U+200B ZERO WIDTH SPACE: an id is written with the letters",
        setup=_zero_width_profile,
    ),
    Case(
        "profile-id-with-a-hash-and-a-question-mark",
        ("variants", "list", "--variants", "{tmp}/profiles"),
        "'odd#name?' is not an id: an id is written with the letters a-z and A-Z",
        setup=_profile_named("odd#name?.yaml"),
    ),
    Case(
        "variant-id-with-a-cyrillic-letter",
        ("variants", "show", "fo\u0455ter"),
        "'fo\\u0455ter' holds U+0455 CYRILLIC SMALL LETTER DZE",
    ),
    Case(
        "negative-cave",
        ("run", "{in}/negative-cave.yaml"),
        "negative-cave.yaml:6: caves.A: A's cave is negative (-5)",
    ),
    Case(
        "cluster-empty",
        ("sweep", "foster", "--vary", "bonuses.carre.amount=5", "-n", "10", "--cluster", ""),
        "--cluster must be 'local' or a scheduler's address",
    ),
    Case(
        "cluster-a-refused-port",
        (
            "sweep",
            "foster",
            "--vary",
            "bonuses.carre.amount=5",
            "-n",
            "10",
            "--cluster",
            "tcp://127.0.0.1:1",
        ),
        "--cluster: cannot reach the Dask scheduler: Connection refused",
        within=5,
    ),
    Case(
        "sweep-vary-a-negative-bonus",
        ("sweep", "foster", "--vary", "bonuses.carre.amount=-5", "-n", "10"),
        "bonuses.carre.amount cannot be '-5'; it takes a whole number (input should be greater",
    ),
    Case(
        "sweep-an-unknown-system",
        ("sweep", "nosuch"),
        "unknown variant 'nosuch'",
    ),
    # an editor's own folder: every documented quote stands in its work's text
    Case(
        "documented-quote-not-in-its-text",
        ("variants", "show", "our-table", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: not found word for word in "
        "the text of 'house-rules' (house-rules.txt); the closest passage, paragraph 1: "
        '"the dealer puts up a blind of two counters."',
        setup=_quote_mistyped,
    ),
    *[
        Case(
            f"documented-quote-not-in-its-text-{command[0]}",
            (*command, "--variants", "{tmp}/ed/variants"),
            "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: not found word for word",
            setup=_quote_mistyped,
            one_line=command[0] != "site",  # the build's progress line comes before it
        )
        for command in (
            ("variants", "list"),
            ("check", "{tmp}/ed/scenarios"),
            ("run", "{tmp}/ed/scenarios/our-table-nobody-opens.yaml", "--variant", "our-table"),
            ("site", "build", "--out", "{tmp}/out"),
        )
    ],
    Case(
        "documented-quote-of-a-work-that-ships-no-text",
        ("variants", "show", "our-table", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: the work 'house-rules' ships "
        "no text to check this quote against: ship the text (a 'file:' in sources.yaml) or "
        "mark the rule 'status: paraphrased'",
        setup=_work_without_text,
    ),
    Case(
        "documented-quote-whose-text-is-missing",
        ("check", "{tmp}/ed/scenarios", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: the text of the work "
        "'house-rules' is missing",
        setup=_text_missing,
    ),
    Case(
        "documented-quote-whose-text-is-not-utf-8",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "house-rules.txt) is not UTF-8: save it as UTF-8",
        setup=_text_not_utf8,
    ),
    Case(
        "documented-quote-whose-text-has-no-header",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "is not a shipped text: a shipped text starts with 'Key: value' lines",
        setup=_text_without_header,
    ),
    Case(
        "glossary-quote-not-in-its-text",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "glossary.yaml:7: terms.0.quote: not found word for word in the text of 'house-rules'",
        setup=_glossary_quote_mistyped,
    ),
    Case(
        "profile-with-a-bundled-id",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "foster.yaml:1: the id 'foster' (the file's name) is already the bundled profile "
        "'foster': rename this file for a system of its own, or say 'replaces: true'",
        setup=_bundled_id,
    ),
    Case(
        "readings-quote-not-in-its-text",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "readings.yaml:6: readings.0.quote: not found word for word in the text of 'house-rules'",
        setup=_readings_quote_mistyped,
    ),
    Case(
        "one-id-in-two-folders",
        ("variants", "list", "--variants", "{tmp}/ed/variants", "--variants", "{tmp}/more"),
        "our-table.yaml:1: the id 'our-table' (the file's name) is already the profile in ",
        setup=_same_id_in_two_folders,
    ),
    Case(
        "source-silent-without-inherited-from",
        ("variants", "show", "our-table", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:11: rules.forced_bets.dealer_blind: 'source_silent' needs 'inherited_from'",
        setup=_silent_without_its_system,
    ),
    Case(
        "export-standalone-without-out",
        ("variants", "export", "foster", "--standalone"),
        "--standalone writes several files: give the folder with --out DIR",
    ),
    Case(
        "export-over-existing-files",
        ("variants", "export", "foster", "--as", "our-table", "--out", "{tmp}/ed/variants"),
        "our-table.yaml: would overwrite a file already there",
        setup=_not_empty,
        untouched=("ed",),
    ),
    Case(
        "new-into-a-folder-that-is-not-empty",
        ("new", "{tmp}/ed"),
        "ed: already exists and is not an empty folder; name a new folder",
        setup=_not_empty,
        untouched=("ed",),
    ),
    # -- round four (issue 47): one writer for every output ---------------------------------
    Case(
        "export-through-a-dangling-link",
        ("variants", "export", "foster", "--out", "{tmp}/own"),
        "own/foster.yaml: is a link: refusing to write through it",
        setup=_export_folder_with_a_dangling_link,
        gone=("outside/planted.yaml",),
    ),
    Case(
        "export-into-a-linked-texts-folder",
        ("variants", "export", "foster", "--standalone", "--out", "{tmp}/own"),
        "own/texts: is a link: refusing to write through it",
        setup=_export_folder_with_linked_texts,
        untouched=("elsewhere",),
        gone=("own/foster.yaml", "own/sources.yaml"),
    ),
    Case(
        "export-copies-a-text-reached-through-a-link",
        (
            "variants",
            "export",
            "our-table",
            "--variants",
            "{tmp}/ed/variants",
            "--standalone",
            "--out",
            "{tmp}/own",
        ),
        "the text of work 'house-rules' is a link that leads out of the folder of its bibliography",
        setup=_text_linked_out,
        gone=("own",),
    ),
    Case(
        "export-under-an-id-of-300-characters-then-retry",
        ("variants", "export", "foster", "--as", "a" * 300, "--out", "{tmp}/own"),
        "an id has at most 100 characters",
        gone=("own",),
        then=("variants", "export", "foster", "--as", "a" * 100, "--out", "{tmp}/own"),
    ),
    Case(
        "export-over-the-file-size-limit-then-retry",
        ("variants", "export", "foster", "--standalone", "--out", "{tmp}/own"),
        "cannot write: File too large",
        limits=((FSIZE, 16384),),
        gone=("own",),
        then=("variants", "export", "foster", "--standalone", "--out", "{tmp}/own"),
    ),
    Case(
        "new-over-the-file-size-limit-then-retry",
        ("new", "{tmp}/mine"),
        "cannot write: File too large",
        limits=((FSIZE, 1024),),
        gone=("mine",),
        then=("new", "{tmp}/mine"),
    ),
    Case(
        "new-through-a-dangling-link",
        ("new", "{tmp}/dl"),
        "dl: is a link: refusing to write through it",
        setup=_link_to_itself("dl"),
    ),
    Case(
        "golden-write-stopped-half-way-leaves-every-file",
        ("golden", "--write", "--dir", "{tmp}/gold"),
        "cannot write: File too large",
        setup=_golden_all_changed,
        limits=((FSIZE, 1500),),
        untouched=("gold",),
        then=("golden", "--write", "--dir", "{tmp}/gold"),
    ),
    Case(
        "effects-write-stopped-half-way-leaves-every-stored-result",
        (
            "effects",
            "--write",
            "--pair",
            "pagat__pagat-mistigri",
            "--pair",
            "foster__pagat",
            "--deals",
            "20",
            "-q",
        ),
        "foster__pagat.json: must be a regular file to be replaced",
        setup=_effects_store_half_writable,
        untouched=("store",),
        one_line=False,  # the first pair's line comes before it
    ),
    Case(
        "csv-that-is-a-named-pipe",
        (
            "sweep",
            "foster",
            "--vary",
            "table.direction",
            "--deals",
            "5",
            "-q",
            "--csv",
            "{tmp}/pipe.csv",
        ),
        "pipe.csv: the CSV file must be a regular file, not a device, pipe or socket",
        setup=_csv_pipe,
        within=15,
    ),
    Case(
        "csv-to-dev-full",
        (
            "sweep",
            "foster",
            "--vary",
            "table.direction",
            "--deals",
            "5",
            "-q",
            "--csv",
            "/dev/full",
        ),
        "/dev/full: the CSV file must be a regular file, not a device",
        within=15,
    ),
    Case(
        "twelve-file-descriptors",
        ("simulate", "-v", "foster", "--deals", "100", "--jobs", "2", "-q"),
        "too many open files (raise the limit: ulimit -n)",
        limits=((NOFILE, 12),),
    ),
    Case(
        "site-build-from-a-deleted-folder",
        ("site", "build", "--out", "out"),
        "the current folder no longer exists",
        setup=_gone_folder,
        cwd="gone",
        cwd_deleted=True,
        never=NOT_BUILT,
    ),
    Case(
        "new-from-a-deleted-folder",
        ("new", "mine"),
        "the current folder no longer exists",
        setup=_gone_folder,
        cwd="gone",
        cwd_deleted=True,
    ),
    Case(
        "output-folder-linked-to-itself",
        ("site", "build", "--out", "{tmp}/loop"),
        "loop: is a link that leads back to itself",
        setup=_link_to_itself("loop"),
        never=NOT_BUILT,
    ),
    Case(
        "theme-templates-linked-to-themselves",
        OWN_BUILD,
        "templates: is a link that leads back to itself",
        setup=_own_site(then=_templates_linked_to_themselves),
        never=NOT_BUILT,
    ),
    Case(
        "theme-template-linked-to-itself",
        OWN_BUILD,
        "loop.html: is a link that leads back to itself",
        setup=_own_site(then=_template_linked_to_itself),
        never=NOT_BUILT,
    ),
    # data loss: only what a build claimed is removed
    Case(
        "user-folders-named-like-a-builds-leftovers",
        OWN_BUILD,
        "in a browser",
        exit=0,
        setup=_user_folders_named_like_leftovers,
        untouched=(".out.old-2025", ".out.old-20251231", ".out.mybackup.tmp"),
        one_line=False,
    ),
    # bounds: every size a user controls
    Case(
        "quote-of-a-megabyte",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: not found word for word",
        setup=_quote_of_a_megabyte,
        within=10,
    ),
    Case(
        "quote-not-found-in-a-text-of-one-huge-paragraph",
        ("variants", "list", "--variants", "{tmp}/ed/variants"),
        "our-table.yaml:15: rules.forced_bets.dealer_blind.quote: not found word for word",
        setup=_text_of_one_huge_paragraph,
        within=20,
    ),
    Case(
        "sweep-vary-22-rules",
        ("sweep", "foster", *TWENTY_TWO_RULES, "--deals", "5", "-q"),
        "22 --vary ask for 4,194,304 combinations",
        within=15,
    ),
    Case(
        "theme-nested-loops",
        OWN_BUILD,
        "search.html:3: the template failed: the loops took more than 2,000,000 steps",
        setup=_own_site(
            _search_page(
                "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}"
            )
        ),
        one_line=False,
        within=30,
    ),
    Case(
        "theme-macro-calling-itself-forever",
        OWN_BUILD,
        "search.html:3: the template failed: RecursionError",
        setup=_own_site(_search_page("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")),
        one_line=False,
        within=30,
    ),
    Case(
        "theme-page-including-itself",
        OWN_BUILD,
        # the loop's first line in the theme's own page (its extends, then its include),
        # wherever in the bundled base the stack happened to run out
        "own/theme/templates/search.html:1: the template failed: RecursionError",
        setup=_own_site(
            {
                "search.html": '{% extends "base.html" %}\n{% block main %}\n'
                '{% include "search.html" %}\n{% endblock %}\n'
            }
        ),
        one_line=False,
        within=30,
    ),
    Case(
        "theme-page-extending-itself",
        OWN_BUILD,
        "search.html:1: the template failed: RecursionError",
        setup=_own_site({"search.html": '{% extends "search.html" %}\n'}),
        one_line=False,
        within=30,
    ),
    Case(
        "theme-string-of-a-hundred-million-characters",
        OWN_BUILD,
        "search.html:3: the template failed: a value of more than 1,048,576 items",
        setup=_own_site(_search_page("{{ 'x' * 10 ** 8 }}")),
        one_line=False,
    ),
    Case(
        "serve-a-linked-index-html",
        ("site", "serve", "--dir", "{tmp}/site", "--port", "0"),
        "stopped",
        exit=0,
        setup=_site_with_a_linked_index,
        process=_request_a_linked_index,
        one_line=False,
    ),
    # -- round four, part two: the surfaces added since (issue 47) --------------------------
    # bouillotte cache: it deletes, so only ever inside the cache folder
    Case(
        "cache-clear-older-than-a-number-of-300-digits",
        ("cache", "clear", "--older-than", "9" * 300),
        "--older-than",
        real=True,
        env=(("BOUILLOTTE_CACHE", "{tmp}/cache"),),
        setup=lambda tmp: _sealed(tmp / "cache", "kept.json"),
        untouched=("cache",),
    ),
    Case(
        "cache-clear-through-a-linked-cache-folder",
        ("cache", "clear"),
        "cache: is a link: refusing to delete through it",
        real=True,
        env=(("BOUILLOTTE_CACHE", "{tmp}/cache"),),
        setup=_cache_linked_out,
        untouched=("elsewhere",),
    ),
    Case(
        "cache-clear-with-a-relative-xdg-cache-home",
        ("cache", "clear"),
        "home/.cache/bouillotte: deleted 0 files",
        exit=0,
        real=True,
        cwd="work",
        env=(("BOUILLOTTE_CACHE", ""), ("XDG_CACHE_HOME", "."), ("HOME", "{tmp}/home")),
        setup=_relative_xdg_cache,
        untouched=("work",),
    ),
    # strong: every size bounded, refused at once; --write through the one writer
    Case(
        "strong-solve-a-hundred-billion-sampled-deals",
        ("strong", "solve", "--deals", "100000000000", "--iterations", "1"),
        "deals: 100000000000 is more than 100,000 sampled deals",
        within=10,
    ),
    Case(
        "strong-solve-a-trillion-iterations",
        ("strong", "solve", "--deals", "2", "--iterations", "1000000000000"),
        "iterations: 1000000000000 is more than 100,000 CFR+ iterations",
        within=10,
    ),
    Case(
        "strong-solve-a-tree-past-its-bound",
        ("strong", "solve", "--deals", "2", "--iterations", "1", "--max-states", "1000"),
        "the abstracted game has more than 1,000 states",
        one_line=False,  # the abstraction's line comes first
        within=10,
    ),
    Case(
        "strong-solve-a-bound-past-ten-million-states",
        ("strong", "solve", "--deals", "2", "--max-states", "100000000"),
        "--max-states must be at most 10,000,000 (value: 100000000)",
        real=True,  # a usage error: main() makes it one line
        within=10,
    ),
    Case(
        "strong-solve-write-into-a-store-under-a-file",
        ("strong", "solve", "--deals", "2", "--iterations", "1", "--write"),
        "afile/strategies: cannot write there: Not a directory",
        setup=_patched("bouillotte.strong.store", "STORE", _strategies_under_a_file),
        untouched=("afile",),
        one_line=False,  # the NashConv line comes first
    ),
    Case(
        "strong-solve-write-through-a-link-out-of-the-store",
        ("strong", "solve", "--deals", "2", "--iterations", "1", "--write"),
        ".json: is a link: refusing to read what it leads to",  # read before the solve now
        setup=_strategy_linked_out,
        gone=("outside/planted.json",),
        one_line=False,  # the NashConv line comes first
    ),
    Case(
        "strong-exploit-a-trillion-samples",
        ("strong", "exploit", "--samples", "1000000000000", "--deals", "2"),
        "--samples must be at most 1,000 (value: 1000000000000)",
        real=True,  # a usage error: main() makes it one line
        within=10,
    ),
    Case(
        # int() read an Arabic-Indic one as 1 and ran the bands on it
        "strong-bands-seeds-in-arabic-indic-digits",
        ("strong", "bands", "-v", "foster", "-v", "pagat", "--seeds", "\u0661,\u0662"),
        "--seeds: '\\u0661' is not a whole number in ASCII digits",
        within=10,
    ),
    Case(
        # '' was read as every bet size: the full menu's tree, built without a word
        "strong-solve-an-empty-bet-menu",
        ("strong", "solve", "--bets", ""),
        "bets: a size is empty; the sizes are min, half, pot, max",
        within=10,
    ),
    Case(
        # 'pot+' dropped its empty item and solved the pot menu as if it were all
        "strong-solve-a-bet-menu-with-an-empty-item",
        ("strong", "solve", "--bets", "pot+"),
        "bets: a size is empty in 'pot+'",
        within=10,
    ),
    Case(
        # a folder that takes no file: refused after the solve, before the work now
        "strong-solve-csv-into-a-folder-that-takes-no-file",
        ("strong", "solve", "--deals", "2", "--iterations", "100000", "--csv", "/proc/x.csv"),
        "/proc/x.csv: cannot write the CSV file: its folder /proc takes no new file (No such "
        "file or directory)",
        never=("NashConv",),
        within=10,
    ),
    Case(
        # solved three games for 20 s and printed '0 rules' (a success with nothing in it)
        "strong-bands-of-a-system-against-itself",
        ("strong", "bands", "-v", "foster", "-v", "foster"),
        "foster and foster differ on no rule: there is no effect to band",
        never=("NashConv",),
        within=10,
    ),
    Case(
        # printed 'strong ... NashConv 6.9850': its stored strategy (caves of 100) mapped
        # onto the default game (caves of 20), a figure a reader would quote as its own
        "strong-exploit-of-the-strong-player-as-an-invented-one",
        ("strong", "exploit", "--policy", "strong"),
        "--policy strong: the strong player is a solved strategy, not an invented one",
        never=("NashConv 6",),
        within=10,
    ),
    Case(
        "strong-table-a-trillion-deals",
        ("strong", "table", "--deals", "1000000000000"),
        "--deals must be at most 100,000,000",
        within=10,
    ),
    Case(
        "strong-measure-a-trillion-deals",
        ("strong", "measure", "--deals", "1000000000000"),
        "--deals must be at most 100,000,000",
        within=10,
    ),
    # a full disk (a small file system mounted for the case: root only)
    Case(
        "site-build-on-a-full-disk",
        (*OWN_BUILD[:-1], "{tmp}/mnt/out"),
        "mnt/out: cannot write the site: No space left on device",
        setup=_full_disk_and_own_site,
        untouched=("mnt",),
        one_line=False,  # the build's progress comes first
    ),
    Case(
        "export-on-a-full-disk",
        ("variants", "export", "foster", "--standalone", "--out", "{tmp}/mnt/own"),
        "cannot write: No space left on device",
        setup=_full_disk,
        untouched=("mnt",),
    ),
    Case(
        "new-on-a-full-disk-then-retry",
        ("new", "{tmp}/mnt/mine"),
        "cannot write: No space left on device",
        setup=lambda tmp: _full_disk(tmp, free=8192),  # its first files fit, not the rest
        gone=("mnt/mine",),
        freed=True,
        then=("new", "{tmp}/mnt/mine"),
    ),
    Case(
        "export-on-a-full-disk-then-retry",
        ("variants", "export", "pagat-mistigri", "--out", "{tmp}/mnt/own"),
        "cannot write: No space left on device",
        setup=lambda tmp: _full_disk(tmp, free=4096),
        gone=("mnt/own",),
        freed=True,
        then=("variants", "export", "pagat-mistigri", "--out", "{tmp}/mnt/own"),
    ),
    Case(
        "effects-write-into-a-store-on-a-full-disk",
        ("effects", "--write", "--pair", "pagat__pagat-mistigri", "--deals", "20", "-q"),
        "pagat__pagat-mistigri.json: cannot write: No space left on device",
        setup=_effects_store_on_a_full_disk,
        untouched=("mnt",),
    ),
    Case(
        "effects-write-into-a-store-under-a-file",
        ("effects", "--write", "--pair", "pagat__pagat-mistigri", "--deals", "20", "-q"),
        "afile/effects: cannot write there: Not a directory",
        setup=_effects_store_under_a_file,
        untouched=("afile",),
    ),
    # --csv FILE on every command that has it: refused before the work, one line
    *[
        Case(
            f"csv-through-a-dangling-link-{command[0]}",
            (*command, "--csv", "{tmp}/out.csv"),
            "out.csv: the CSV file is a link: refusing to write through it",
            setup=_csv_dangling_link,
            gone=("outside/planted.csv",),
            within=15,
        )
        for command in CSV_COMMANDS
    ],
    *[
        Case(
            f"csv-on-a-full-disk-{command[0]}",
            (*command, "--csv", "{tmp}/mnt/out.csv"),
            "mnt/out.csv: cannot write: No space left on device",
            setup=_full_disk,
            untouched=("mnt",),
        )
        for command in CSV_COMMANDS
    ],
    Case(
        "csv-into-a-read-only-folder",
        ("odds", "-v", "foster", "--csv", "{tmp}/ro/out.csv"),
        "ro takes no new file (Permission denied)",
        setup=_read_only_folder,
        unprivileged=True,
        gone=("ro/out.csv",),
    ),
    Case(
        "csv-over-the-file-size-limit",
        ("simulate", "-v", "foster", "--deals", "5", "-q", "--csv", "{tmp}/out.csv"),
        "out.csv: cannot write: File too large",
        limits=((FSIZE, 64),),
        gone=("out.csv",),
    ),
    # HTML, XML and robots.txt: a URL is a URL (the pages' other values: test_site_formats)
    Case(
        "base-url-with-a-control-character",
        OWN_BUILD,
        "site.yaml:1: base_url: the url holds a control character",
        setup=_site_config('base_url: "https://a.example/\\x7f"\n'),
        never=NOT_BUILT,
    ),
    Case(
        "base-url-breaking-out-of-an-attribute",
        OWN_BUILD,
        "site.yaml:1: base_url: the url holds '\"', which a web address never does",
        setup=_site_config("base_url: 'https://a.example/\"><script>alert(1)</script>'\n"),
        never=NOT_BUILT,
    ),
    # site serve --watch: a first build that fails is bad input, and nothing is served
    Case(
        "serve-watch-whose-first-build-fails",
        WATCH_OWN,
        "site.yaml:2: not valid YAML",
        setup=_site_config("title: [unclosed\n"),
        gone=("out",),
        within=15,
    ),
    # --version: its one line, to a full device or a closed stdout, is one line too
    Case(
        "version-to-a-full-device",
        ("--version",),
        "cannot write to stdout: No space left on device",
        real=True,
        stdout="full",
    ),
    Case(
        "version-to-a-closed-stdout",
        ("--version",),
        "cannot write to stdout: Bad file descriptor",
        real=True,
        stdout="closed",
    ),
    # themes: a recursive loop is bounded by its steps, not only by its depth
    Case(
        "theme-recursive-loop",
        OWN_BUILD,
        "search.html:3: the template failed: the loops took more than 2,000,000 steps",
        setup=_own_site(
            _search_page(
                "{% for a in range(100) recursive %}{% if loop.depth < 7 %}"
                "{{ loop(range(100)) }}{% endif %}{% endfor %}"
            )
        ),
        one_line=False,
        within=30,
    ),
]


def _fingerprint(path: Path) -> dict[str, str]:
    if path.is_file():
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()}
    return {
        str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else ""
        for f in sorted(path.rglob("*"))
    }


def _argv(case: Case, tmp: Path) -> list[str]:
    return _argv_of(case.argv, tmp)


def _argv_of(argv: tuple[str, ...], tmp: Path) -> list[str]:
    return [a.replace("{in}", str(tmp / "in")).replace("{tmp}", str(tmp)) for a in argv]


def _in_process(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run in this process (fast), on a watchdog thread: a hang fails the case."""
    outcome: list[tuple[int, str, str]] = []
    here = Path.cwd()

    def run() -> None:
        result = CliRunner().invoke(app, argv, catch_exceptions=True)
        trace = ""
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            trace = f"Traceback: {result.exception!r}"
        outcome.append((result.exit_code, result.stdout, result.stderr + trace))

    os.chdir(cwd)
    try:
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(HANG)
    finally:
        os.chdir(here)
    assert outcome, f"hung for {HANG} s"
    return outcome[0]


def _as_process(case: Case, argv: list[str], cwd: Path, tmp: Path) -> tuple[int, str, str]:
    prefix: list[str] = []
    if case.unprivileged and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: folder permissions cannot bind")
        prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]

    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a shell starts a command
        signal.signal(
            signal.SIGHUP, signal.SIG_DFL
        )  # from a terminal, even if pytest runs under nohup
        if case.stdout == "closed":
            os.close(1)  # as `>&-` leaves it
        for limit, value in case.limits:
            resource.setrlimit(limit, (value, value))
        if case.cwd_deleted:
            os.rmdir(os.getcwd())

    with contextlib.ExitStack() as stack:
        stdout: Any = subprocess.PIPE
        if case.stdout == "full":
            stdout = stack.enter_context(open("/dev/full", "wb"))
        elif case.stdout == "file":
            stdout = stack.enter_context(open(tmp / "stdout.txt", "wb"))
        elif case.stdout == "closed":
            stdout = subprocess.DEVNULL
        stderr: Any = subprocess.PIPE
        if case.stderr == "full":
            stderr = stack.enter_context(open("/dev/full", "wb"))
        if case.stdout == "broken":
            reader, writer = os.pipe()
            os.close(reader)
            stdout = stack.enter_context(os.fdopen(writer, "wb"))
        proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "bouillotte", *argv],
            cwd=cwd,
            stdout=stdout,
            stderr=stderr,
            text=True,
            start_new_session=True,
            preexec_fn=child,
            env={
                **os.environ,
                "PYTHONPATH": str(ENGINE),
                **{k: v.replace("{tmp}", str(tmp)) for k, v in case.env},
            },
        )
        try:
            if case.process is not None:
                case.process(proc)
            out, err = proc.communicate(timeout=HANG)
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
    return proc.returncode, out or "", err or ""


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input(case: Case, case_dir: Path) -> None:
    shutil.copytree(INPUTS, case_dir / "in")
    cleanup = case.setup(case_dir) if case.setup else None
    try:
        before = {p: _fingerprint(case_dir / p) for p in case.untouched}
        argv = _argv(case, case_dir)
        cwd = case_dir / case.cwd
        started = time.monotonic()
        real = case.real or bool(case.limits) or case.cwd_deleted
        if case.process is not None or case.unprivileged or real:
            code, out, err = _as_process(case, argv, cwd, case_dir)
        else:
            code, out, err = _in_process(argv, cwd)
        took = time.monotonic() - started
        for path, prints in before.items():
            assert _fingerprint(case_dir / path) == prints, f"{path} was changed"
        for path in case.gone:
            assert not (case_dir / path).exists(), f"{path} is still there"
        for path in case.made:
            assert (case_dir / path).is_file(), f"{path} was not made"
        if case.then and code == case.exit:
            if case.freed:
                (case_dir / "mnt" / "filler").unlink()
            again, again_out, again_err = _in_process(_argv_of(case.then, case_dir), cwd)
            assert again == 0, f"the retry failed (exit {again}): {again_out}{again_err}"
    finally:
        if cleanup is not None:
            cleanup()
    assert "Traceback" not in out + err, err
    assert code == case.exit, f"exit {code}\n{out}\n{err}"
    shown = out + err if case.exit == 0 and case.process is None else err
    assert case.says in shown, shown
    for word in case.never:
        assert word not in out + err, f"{word!r} in the output"
    if case.silent:
        assert err == "", err
    elif case.exit != 0 and case.one_line:
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("error: ") or case.exit in (130, 143), err
    if case.within is not None:
        assert took < case.within, f"took {took:.1f} s, more than {case.within} s"
