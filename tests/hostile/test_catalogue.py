"""The catalogue of hostile input (issue 12): every bad input a hostile user tried, and what
the tool must do with it.

One case per input file (in ``inputs/``) or per command, with its exact outcome: the exit
status (2 for bad input, 130 after Ctrl-C), a fragment of the one-line message, the files
that must be left untouched, and never a traceback nor a hang. Add a case for every bug
found.

Placeholders in a command: ``{in}`` is a copy of ``inputs/``, ``{tmp}`` the case's own
folder (where ``setup`` makes the inputs too big or too odd to keep in git).
"""

from __future__ import annotations

import fcntl
import hashlib
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.site.builder import MARKER

INPUTS = Path(__file__).resolve().parent / "inputs"
HANG = 20.0
"""Seconds after which a case counts as hung (each takes well under one)."""

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


def _interrupt_when_working(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) once the
    workers have started; the command must then end at once, leaving no process."""
    deadline = time.monotonic() + HANG
    while len(_group(proc.pid)) < 3:  # the command and its two workers
        assert proc.poll() is None, "the simulation ended before it could be interrupted"
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGINT)
    started = time.monotonic()
    proc.wait(timeout=HANG)
    assert time.monotonic() - started < 5, "Ctrl-C did not stop the simulation at once"
    time.sleep(0.2)
    assert _group(proc.pid) == [], "worker processes outlived the command"


def _request_nul(proc: subprocess.Popen[str]) -> None:
    """``/%00`` is answered 400 and the server goes on serving; then Ctrl-C stops it."""
    assert proc.stderr is not None
    line = proc.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert found, line
    port = int(found.group(1))
    for path, status in (("/%00", 400), ("/index.html%00.txt", 400), ("/index.html", 200)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        connection.request("GET", path)
        assert connection.getresponse().status == status, path
        connection.close()
    os.killpg(proc.pid, signal.SIGINT)
    proc.wait(timeout=HANG)


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
        "--out must name a folder",
        never=NOT_BUILT,
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
        "p31.yaml:3: extends: 'extends:' chains more than 32 profiles",
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
        "red\\u0007\\u000d overwritten",
        exit=0,
        never=("\x1b", "\x07", "\r"),
        one_line=False,
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
]


def _fingerprint(path: Path) -> dict[str, str]:
    if path.is_file():
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()}
    return {
        str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else ""
        for f in sorted(path.rglob("*"))
    }


@pytest.fixture()
def case_dir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-hostile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _argv(case: Case, tmp: Path) -> list[str]:
    return [a.replace("{in}", str(tmp / "in")).replace("{tmp}", str(tmp)) for a in case.argv]


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


def _as_process(case: Case, argv: list[str], cwd: Path) -> tuple[int, str, str]:
    prefix: list[str] = []
    if case.unprivileged and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: folder permissions cannot bind")
        prefix = [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]

    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a shell starts a command

    proc = subprocess.Popen(
        [*prefix, sys.executable, "-m", "bouillotte", *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=child,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "engine")},
    )
    try:
        if case.process is not None:
            case.process(proc)
        out, err = proc.communicate(timeout=HANG)
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, out, err


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input(case: Case, case_dir: Path) -> None:
    shutil.copytree(INPUTS, case_dir / "in")
    cleanup = case.setup(case_dir) if case.setup else None
    try:
        before = {p: _fingerprint(case_dir / p) for p in case.untouched}
        argv = _argv(case, case_dir)
        cwd = case_dir / case.cwd
        if case.process is not None or case.unprivileged:
            code, out, err = _as_process(case, argv, cwd)
        else:
            code, out, err = _in_process(argv, cwd)
        for path, prints in before.items():
            assert _fingerprint(case_dir / path) == prints, f"{path} was changed"
    finally:
        if cleanup is not None:
            cleanup()
    assert "Traceback" not in out + err, err
    assert code == case.exit, f"exit {code}\n{out}\n{err}"
    shown = out if case.exit == 0 and case.process is None else err
    assert case.says in shown, shown
    for word in case.never:
        assert word not in out + err, f"{word!r} in the output"
    if case.exit != 0 and case.one_line:
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("error: ") or case.exit == 130, err
