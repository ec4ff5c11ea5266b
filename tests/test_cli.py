"""The command line's shape: one module per command, loaded only when used, and one
handler for everything a user can cause."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from itertools import pairwise

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
