"""The command line's shape: one module per command, loaded only when used, and one
handler for everything a user can cause."""

from __future__ import annotations

import json
import pkgutil
import re
import subprocess
import sys
from itertools import pairwise
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from bouillotte.cli import commands
from bouillotte.cli.app import COMMANDS, BouillotteGroup, app, load_command
from bouillotte.rules.errors import InputError

runner = CliRunner()


def test_every_command_module_is_listed_and_every_listed_command_has_a_module() -> None:
    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    assert modules == set(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_listed_summary_is_the_first_sentence_of_the_command_help(name: str) -> None:
    command = load_command(name)
    first_paragraph = " ".join((command.help or "").split("\n\n")[0].split())
    assert first_paragraph.startswith(COMMANDS[name]), (name, first_paragraph)


def test_help_lists_every_command_without_importing_one() -> None:
    code = (
        "import sys\n"
        "from bouillotte.cli.app import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('bouillotte.cli.commands.')))\n"
        "print('pydantic' in sys.modules, 'bouillotte.study.odds' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    *help_lines, loaded, heavy = done.stdout.strip().splitlines()
    assert loaded == "[]"
    assert heavy == "False False"
    listed = [line.split()[0] for line in help_lines if line.startswith("  ") and line.split()]
    assert [name for name in listed if name in COMMANDS] == list(COMMANDS)


def test_a_command_loads_only_its_own_module() -> None:
    code = (
        "import sys\n"
        "from bouillotte.cli.app import app\n"
        "try:\n"
        "    app(['variants', 'list'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('bouillotte.cli.commands.')))\n"
        "print('bouillotte.site' in sys.modules, 'bouillotte.study.scenario' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, heavy = done.stdout.strip().splitlines()[-2:]
    assert loaded == "['bouillotte.cli.commands.variants']"
    assert heavy == "False False"


def _app_with(fail: BaseException) -> typer.Typer:
    """The real top-level group with one more command that raises ``fail``."""
    extra = typer.Typer(cls=BouillotteGroup, rich_markup_mode=None)

    @extra.command("boom")
    def boom() -> None:
        raise fail

    @extra.command("other")
    def other() -> None:
        """A second command, so that the application is a group."""

    return extra


def test_one_handler_turns_bad_input_into_one_line_and_status_2() -> None:
    result = runner.invoke(
        _app_with(InputError("no such thing", file="a.yaml", line=3, field="x")), ["boom"]
    )
    assert result.exit_code == 2
    assert result.stderr == "error: a.yaml:3: x: no such thing\n"
    assert result.stdout == ""


def test_ctrl_c_ends_with_status_130() -> None:
    result = runner.invoke(_app_with(KeyboardInterrupt()), ["boom"])
    assert result.exit_code == 130
    assert result.stderr == "interrupted\n"


WAITING_EXIT = """
import atexit, sys, time
atexit.register(time.sleep, 60)  # a library's exit handler that waits (Dask's did, 30 s)
atexit.register(lambda: 1 / 0)  # and one that fails (concurrent.futures' did, EBADF)
sys.argv = ["bouillotte", "simulate", "-v", "foster", "--deals", "5000000", "-q"]
from bouillotte.cli import main
print("ready", flush=True)
main()
"""


def test_an_interrupted_command_ends_whatever_its_exit_handlers_do() -> None:
    import os
    import signal
    import time

    from bouillotte.cli import EXIT_SECONDS

    proc = subprocess.Popen(
        [sys.executable, "-c", WAITING_EXIT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        started = time.monotonic()
        _, err = proc.communicate(timeout=50)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130
    assert err == "interrupted\n"
    assert took < EXIT_SECONDS + 20  # not the handler's 60 s


SIGNAL_AT_EXIT = """
import atexit, sys, time
def late():
    print("exiting", flush=True)
    time.sleep(1.5)  # a signal comes now, the command's work done and said
atexit.register(late)
sys.argv = ["bouillotte", "variants", "list"]
from bouillotte.cli import main
main()
"""


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_after_the_work_is_done_leaves_its_status(name: str) -> None:
    import os
    import signal

    proc = subprocess.Popen(
        [sys.executable, "-c", SIGNAL_AT_EXIT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert proc.stdout is not None
        lines = []
        while (line := proc.stdout.readline()) not in ("exiting\n", ""):
            lines.append(line)
        assert any(line.startswith("foster") for line in lines)
        os.killpg(proc.pid, getattr(signal, name))
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 0, err  # was -2, -15, -1: killed by the raw signal
    assert err == ""


def test_a_bug_is_not_hidden_as_bad_input() -> None:
    result = runner.invoke(_app_with(ZeroDivisionError("bug")), ["boom"])
    assert isinstance(result.exception, ZeroDivisionError)


def test_bad_input_in_a_real_command_exits_2_with_one_line() -> None:
    result = runner.invoke(app, ["variants", "show", "no-such-variant"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown variant 'no-such-variant'")
    assert result.stderr.count("\n") == 1


# -- progress of long work -------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _progress_lines(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    steps: list[tuple[float, int]],
    closing_line: bool = False,
) -> list[str]:
    import time

    from bouillotte.cli import progress

    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    shown = progress.Progress(
        100,
        lambda done, total, rate, elapsed, left: f"{done}/{total} {rate:.0f}/s ETA {left:.0f}",
        closing_line=closing_line,
    )
    for seconds, step in steps:
        clock.now += seconds
        shown(step)
    return capsys.readouterr().err.splitlines()


def test_progress_off_a_terminal_is_a_plain_line_every_ten_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _progress_lines(monkeypatch, capsys, [(4, 10), (4, 10), (4, 10), (12, 20), (5, 50)])
    # 12 s in: 30 done, 2.5 a second, 28 s left; then 24 s in: 50 done; then the end
    assert lines == ["30/100 2/s ETA 28", "50/100 2/s ETA 24", "100/100 3/s ETA 0"]


def test_short_work_off_a_terminal_prints_nothing_unless_asked_for_a_closing_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _progress_lines(monkeypatch, capsys, [(1, 50), (1, 50)]) == []
    closing = _progress_lines(monkeypatch, capsys, [(1, 50), (1, 50)], closing_line=True)
    assert closing == ["100/100 50/s ETA 0"]


def test_simulate_quiet_and_json_keep_stdout_the_report_alone() -> None:
    args = ["simulate", "-v", "foster", "--deals", "60", "--seed", "2", "--json"]
    loud, quiet = runner.invoke(app, args), runner.invoke(app, [*args, "--quiet"])
    assert loud.exit_code == quiet.exit_code == 0
    assert loud.stdout == quiet.stdout
    assert quiet.stderr == ""


@pytest.mark.parametrize("deals", [1, 250, 999, 100_000, 5_000_000])
@pytest.mark.parametrize("jobs", [1, 2, 8])
def test_chunks_cover_every_deal_once_in_order(deals: int, jobs: int) -> None:
    from bouillotte.study.simulate import _chunks

    chunks = _chunks(deals, jobs)
    assert chunks[0][0] == 0 and chunks[-1][1] == deals
    assert all(a[1] == b[0] for a, b in pairwise(chunks))
    if jobs > 1 and deals >= 100_000:
        assert len(chunks) >= 25 * jobs  # the bar moves, the workers end together
        assert max(stop - start for start, stop in chunks) <= 2000


def test_every_kind_of_user_error_ends_in_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The handler catches the base class, so an engine error that reaches it unlocated
    (a refused action, a card that cannot be read) is a message, not a traceback."""
    from bouillotte.cli.options import user_errors
    from bouillotte.rules.cards import parse_card

    with pytest.raises(typer.Exit) as ended, user_errors():
        parse_card("ZZ")
    assert ended.value.exit_code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: 'ZZ' is not a card") and err.count("\n") == 1


# -- words for people -----------------------------------------------------------------


def _help_of(*words: str) -> str:
    result = runner.invoke(app, [*words, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.stdout


def _all_commands() -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name in COMMANDS:
        command = load_command(name)
        subs = getattr(command, "commands", {})
        found.extend([(name, sub) for sub in subs] if subs else [(name,)])
    return found


@pytest.mark.parametrize("words", _all_commands(), ids=" ".join)
def test_help_names_every_value_in_words(words: tuple[str, ...]) -> None:
    """Metavars are words (SCENARIO, SYSTEM, N, DIR), never a Python type or braces."""
    text = _help_of(*words)
    usage = text.splitlines()[0]
    assert "{" not in usage and "<" not in usage, usage
    options = text[text.index("\nOptions:") :]
    for line in text[text.find("\nArguments:") :].splitlines() + options.splitlines():
        head = line[:30]
        assert not re.search(r"<[a-z\[\]]+>", head), line
    command: Any = load_command(words[0])
    if len(words) > 1:
        command = command.commands[words[1]]
    for param in command.params:
        if param.param_type_name == "argument" or not getattr(param, "is_flag", False):
            assert param.metavar and param.metavar.isupper(), (words, param.name)


def test_examples_stand_each_on_its_own_line() -> None:
    lines = _help_of("site", "build").splitlines()
    examples = [line for line in lines if "Example:" in line]
    assert len(examples) == 2 and all(line.lstrip().startswith("Example:") for line in examples)


def test_version() -> None:
    from importlib.metadata import version

    from bouillotte.play import is_compiled

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    engine = "compiled engine" if is_compiled() else "pure-Python engine"
    assert result.stdout == f"bouillotte {version('bouillotte')} ({engine})\n"


def test_variants_diff_wraps_whole_descriptions_without_markup() -> None:
    result = runner.invoke(app, ["variants", "diff", "foster", "pagat"], env={"COLUMNS": "72"})
    assert result.exit_code == 0
    text = result.stdout
    assert "``" not in text and ":class:" not in text
    # stakes.rebuy_amount's description, whole, over two lines of at most 72 columns
    assert "a fixed number (1 or more), or players-option." in " ".join(text.split())
    assert all(len(line) <= 72 for line in text.splitlines() if line.startswith("stakes."))


@pytest.mark.parametrize(
    ("args", "nearest"),
    [
        (["run", "foster-sigth"], "(did you mean 'foster-sight'?)"),
        (["variants", "show", "fostr"], "(did you mean 'foster'?)"),
        (["simulate", "-v", "foster", "--policy", "simpel", "-n", "1"], "'simple'?"),
        (["sweep", "foster", "--vary", "point.suit_tei", "-n", "1"], "'point.suit_tie'?"),
    ],
)
def test_an_unknown_id_is_answered_with_the_nearest(args: list[str], nearest: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert nearest in result.stderr and result.stderr.count("\n") == 1


def test_plurals_agree() -> None:
    from bouillotte.study.render import counted

    assert [counted(1, "rule"), counted(2, "rule"), counted(1000, "deal")] == [
        "1 rule",
        "2 rules",
        "1,000 deals",
    ]
    assert counted(1, "mismatch", "mismatches") == "1 mismatch"
    one = runner.invoke(app, ["variants", "diff", "foster", "foster-three"])
    first = one.stdout.splitlines()[0]
    assert re.fullmatch(r"1 rule differs between .*|\d+ rules differ between .*", first), first


def test_sources_say_yes_and_no() -> None:
    result = runner.invoke(app, ["sources"])
    assert result.exit_code == 0
    assert ": yes  [" in result.stdout
    assert not re.search(r": (True|False)  \[", result.stdout)


def test_compare_chooses_systems_with_v_and_only() -> None:
    by_v = runner.invoke(app, ["compare", "foster-sight", "-v", "foster", "-v", "pagat", "--json"])
    by_only = runner.invoke(app, ["compare", "foster-sight", "--only", "foster,pagat", "--json"])
    assert by_v.exit_code == by_only.exit_code == 0
    assert by_v.stdout == by_only.stdout
    assert json.loads(by_v.stdout)["variants"] == ["foster", "pagat"]


def test_a_mistyped_command_is_answered_with_the_nearest() -> None:
    """Among every command, not only those loaded (none is, before one runs)."""
    result = runner.invoke(app, ["chek"])
    assert result.exit_code == 2
    assert "No such command 'chek'. Did you mean 'check'?" in result.stderr


def test_an_empty_profile_folder_is_named_in_a_note(tmp_path: Any) -> None:
    """``--variants`` is always a folder: an empty one named like an id (``foster``) adds
    nothing, and says so rather than change nothing without a word."""
    empty = tmp_path / "foster"
    empty.mkdir()
    result = runner.invoke(app, ["variants", "list", "--variants", str(empty)])
    assert result.exit_code == 0
    assert f"note: --variants {empty}: the folder holds no .yaml file" in result.stderr
    assert "foster " in result.stdout  # the bundled foster, unchanged
    (empty / "mine.yaml").write_text("title: Mine\nsource: foster\nextends: foster\n")
    again = runner.invoke(app, ["variants", "list", "--variants", str(empty)])
    assert again.exit_code == 0 and "note:" not in again.stderr
