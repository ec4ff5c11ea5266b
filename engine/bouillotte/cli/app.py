"""The ``bouillotte`` command line: the application, its list of commands and the one
handler of user errors.

Each command lives in its own module under ``commands/``, which is imported only when the
command runs (or its own ``--help`` is asked for): ``bouillotte --help`` lists every command
from :data:`COMMANDS` below without importing any of them, and ``bouillotte odds`` imports
the odds and nothing of the site builder. Everything a user can cause raises
:class:`~bouillotte.rules.errors.UserError` (or one of its kinds); :class:`BouillotteGroup`
turns it into one line on stderr and exit status 2 for every command at once.
"""

from __future__ import annotations

import difflib
import importlib
import os
import stat
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.completion import (  # type: ignore[attr-defined]  # its public module, no __all__
    completion_init,
    get_completion_script,
)
from typer.core import TyperCommand, TyperGroup

from ..rules.errors import InputError, UserError, quoted
from ..rules.together import Together
from .options import WordsGroup, user_errors

# Typer exports no name for Click's classes (its copy of Click is private since Typer 0.2x),
# so the methods below that Click calls say ``Any`` for its context and help formatter.
Command = TyperCommand | TyperGroup
"""What :func:`typer.main.get_command` makes of a command module's application."""

COMMANDS: dict[str, str] = {
    "schema": "Print the JSON Schema of profile or scenario files, for editors.",
    "run": "Play one scenario (a deal and its actions) and settle it.",
    "compare": "Run scenarios under every variant side by side and name the rules that differ.",
    "check": "Run every scenario under every variant it lists and verify its 'expect' blocks.",
    "differences": "For each rule on which SECOND differs from FIRST, find the first seeded "
    "deal whose outcome changes when only that rule is changed in FIRST.",
    "golden": "Compare (or with --write regenerate) the golden transcripts of every bundled "
    "scenario under every variant: one file <scenario>__<variant>.txt each.",
    "odds": "Exact probabilities of brelans, carrés, favoris and the point, per pack.",
    "readings": "The sentences that can be read two ways, each reading a value of a rule: the "
    "source's words, the question, each reading with the systems that take it, and the "
    "scenario that plays the deal under each (`bouillotte check` verifies both).",
    "session": "Play a session: deal after deal, the deal passing round, carried pools and "
    "rebuys; then the final standings, in exact fractions.",
    "simulate": "Play many seeded deals under each variant with a betting policy and report "
    "how pools are decided, pot sizes, bonus flow and seat advantage, with 95% confidence "
    "intervals.",
    "sources": "Every source by date (language, place, kind) with its citation; then, for "
    "each rule, the sources that state it, oldest first, with the value each gives; then the "
    'meanings of the word "favori" through time.',
    "sweep": "Play the same seeded deals under BASE and under BASE with rules changed, and "
    "report for each combination what decides the pools, the pool's mean and spread, each "
    "seat's result, bonuses and void deals, with 95% intervals, and the difference from BASE "
    "with its interval from the paired per-deal differences.",
    "effects": 'List the stored results of "What each rule does" (site/effects/) and whether '
    "each is up to date; --write recomputes those that are not.",
    "strong": "Solve a system's abstracted game with CFR+ and print its NashConv in counters "
    "per deal; --write stores the average strategy for the strong policy.",
    "variants": "List, show and compare the variant profiles.",
    "site": "Build the static reference site, or preview it on localhost.",
    "cache": "Show the cache folder and what it holds, or empty it.",
    "new": "Make a working folder for your own systems and site: a profile, its source and "
    "text, a scenario, a site configuration and a theme, with a README of what to run.",
}
"""Every command, in the order ``--help`` lists them, with the first sentence of its help
(the module ``commands/<name>.py`` holds the command and its whole help;
tests/test_cli.py checks that the two agree)."""


def load_command(name: str) -> Command:
    """Import ``commands/<name>.py`` and return its command (or group of commands)."""
    module = importlib.import_module(f"{__package__}.commands.{name}")
    command = typer.main.get_command(module.cli)
    assert isinstance(command, TyperCommand | TyperGroup)
    command.name = name
    return command


class BouillotteGroup(WordsGroup):
    """The top-level command: loads a sub-command's module only when it is used, lists
    them all from :data:`COMMANDS`, and runs each inside :func:`~.options.user_errors`."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands with their summaries, each from :data:`COMMANDS` unless loaded
        (a stand-in command of that help shortens it as Click shortens any)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [
            (
                name,
                (
                    self.commands.get(name) or TyperCommand(name, help=COMMANDS[name])
                ).get_short_help_str(limit),
            )
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As Typer's, but a mistyped command is answered with the nearest of all of
        :data:`COMMANDS` (Typer looks only among those already loaded)."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in self.list_commands(ctx):
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            ctx.fail(
                f"No such command {quoted(name)}."
                + (f" Did you mean {close[0]!r}?" if close else "")
            )
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        with user_errors():
            return super().invoke(ctx)


app = typer.Typer(
    cls=BouillotteGroup,
    help=(
        "Compare the historical rule systems of Bouillotte (Brelan).\n\n"
        "Each system is a YAML variant profile with a citation for every rule; one engine "
        "plays any deal under any profile.\n\n"
        "\b\nStart with:\n  bouillotte variants list\n  bouillotte compare foster-sight\n\n"
        "YAML files are read within limits (docs/contracts.md): at most 1 MiB, 20,000 values "
        "and 4 MiB of text once aliases are expanded, 64 levels deep. Bad input exits 2 with "
        "one line naming "
        "the file, line, field and value; Ctrl-C exits 130."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,  # its own --install-completion and --show-completion, below
    # Click's echo drops colour codes from a stream that is no terminal, before the stream
    # shows them as escapes (options._PrintableStream): a report piped to a file lost the
    # ESC of a reason, where the terminal showed \u001b. The tool writes no colour of its
    # own, so each is shown, wherever the report goes.
    context_settings={"color": True},
)
completion_init()  # Typer's completion of each shell answers the scripts installed below


SHELLS = ("bash", "zsh", "fish")
"""The shells whose completion ``--install-completion`` installs (Typer's PowerShell install
changes the user's execution policy: ``--show-completion`` is not offered for it either)."""
START_UP_LIMIT = 1 << 24
"""The largest shell start-up file ``--install-completion`` adds its line to (16 MiB)."""


def _shell(value: str, option: str) -> str:
    if value not in SHELLS:
        raise InputError(
            f"{value!r} is not a shell this completion supports: {', '.join(SHELLS)}",
            field=option,
        )
    return value


def _script(shell: str) -> str:
    return get_completion_script(
        prog_name="bouillotte", complete_var="_BOUILLOTTE_COMPLETE", shell=shell
    )


def _stage_line(stack: ExitStack, rc: Path, line: str) -> None:
    """Add ``line`` to the shell start-up file ``rc`` (unless it holds it) when ``stack``
    closes: the file is written whole beside itself and renamed into place (its mode kept;
    a link to it, as a dotfiles manager makes, kept and written through), its bytes kept
    whatever their encoding; a pipe, a device or a folder there is refused at once."""
    real = Path(os.path.realpath(rc))
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        if os.path.islink(rc):  # its file is missing: the line would make it, folders and all
            raise InputError("is a link to a file that does not exist", file=rc) from None
        info = None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", file=rc) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError(
            "is not a regular file (a named pipe, a device or a folder): the completion's "
            f"line cannot be added to it; add it yourself: {line}",
            file=rc,
        )
    from ..rules.reading import read_regular
    from ..rules.writing import Output

    old = read_regular(real, START_UP_LIMIT) if info is not None else b""
    added = os.fsencode(line)
    if added in (held.strip() for held in old.splitlines()):
        return
    if old and not old.endswith(b"\n"):
        old += b"\n"
    stack.enter_context(Output(real.parent, "own")).add(real.name, old + added + b"\n")


def _home() -> Path:
    """The home folder the completion is installed in: ``HOME``, or the system's account
    when it is unset. An empty or relative ``HOME`` is refused: Python reads an empty one as
    the root folder (``/.bashrc`` was written), a relative one as a folder of wherever the
    command runs."""
    given = os.environ.get("HOME")
    if given is not None and not os.path.isabs(given):
        what = "empty" if not given else f"{quoted(given)}, not an absolute path"
        raise InputError(
            f"HOME is {what}: the completion goes into your home folder; set HOME to its "
            "absolute path (HOME=/home/you), or install the script yourself from "
            "--show-completion"
        )
    home = Path.home()
    if any(ord(c) < 32 or c == "\x7f" for c in str(home)):  # a start-up line split in two
        raise InputError(
            f"HOME is {quoted(str(home))}, which holds a line break or another control "
            "character: the line loading the completion would be split; install the script "
            "yourself from --show-completion"
        )
    if not home.is_dir():  # the completion would make it, and the shell never reads it
        raise InputError(
            f"HOME is {quoted(str(home))}, which is not a folder that exists: the completion "
            "goes into your home folder; set HOME to it, or install the script yourself from "
            "--show-completion"
        )
    return home


def _zsh_folder(home: Path) -> Path:
    """The folder of zsh's start-up files: ``ZDOTDIR`` when it is set (zsh reads
    ``$ZDOTDIR/.zshrc`` then, not ``~/.zshrc``), else the home folder. It must be an absolute
    path to a folder that exists, as zsh finds it."""
    given = os.environ.get("ZDOTDIR", "")
    if not given:  # unset or empty: zsh reads the home folder's files
        return home
    if not os.path.isabs(given) or not os.path.isdir(given):
        what = "not an absolute path" if not os.path.isabs(given) else "not a folder that exists"
        raise InputError(
            f"ZDOTDIR is {quoted(given)}, {what}: zsh reads its .zshrc from there; set it to "
            "the folder of your .zshrc, unset it, or install the script yourself from "
            "--show-completion"
        )
    return Path(given)


def _install(shell: str) -> Path:
    """Install the completion of ``shell``: its script, then the line of the shell's
    start-up file that loads it, each written whole or not at all (``rules/writing.py``);
    the path of the script."""
    from ..rules.writing import Output

    home = _home()
    if shell == "bash":
        script = home / ".bash_completions" / "bouillotte.sh"
        quoted = "'" + str(script).replace("'", "'\"'\"'") + "'"
        rc: Path | None = home / ".bashrc"
        line = f"source {quoted}"
    elif shell == "zsh":
        script, rc = home / ".zfunc" / "_bouillotte", _zsh_folder(home) / ".zshrc"
        line = "fpath+=~/.zfunc; autoload -Uz compinit; compinit"
    else:  # fish reads the folder of completions itself
        xdg = os.environ.get("XDG_CONFIG_HOME", "")  # a relative one is ignored, as XDG asks
        config = Path(xdg) if os.path.isabs(xdg) else home / ".config"
        script, rc, line = config / "fish" / "completions" / "bouillotte.fish", None, ""
    with Together() as stack:  # closed last first: the script is in place before its line
        if rc is not None:
            _stage_line(stack, rc, line)
        stack.enter_context(Output(script.parent, "own")).add(script.name, _script(shell) + "\n")
    return script


def _install_completion(ctx: typer.Context, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    with user_errors():
        shell = _shell(value, "--install-completion")
        path = _install(shell)
        typer.echo(f"{shell} completion installed in {path}", err=True)
        typer.echo("Completion will take effect once you restart the terminal", err=True)
    raise typer.Exit()


def _show_completion(ctx: typer.Context, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    with user_errors():
        typer.echo(_script(_shell(value, "--show-completion")))
    raise typer.Exit()


def _engine() -> str:
    """Which engine runs: compiled by mypyc (``pip install .``) or pure Python (an editable
    install, ``BOUILLOTTE_PURE=1``, or a machine with no C compiler); found without
    importing it."""
    from importlib.util import find_spec

    spec = find_spec("bouillotte.play.deal")
    origin = spec.origin if spec is not None else None
    return "pure-Python engine" if origin is None or origin.endswith(".py") else "compiled engine"


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"bouillotte {version('bouillotte')} ({_engine()})")
        except PackageNotFoundError:  # run from a source tree that is not installed
            typer.echo(f"bouillotte (not installed: no version) ({_engine()})")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
        ),
    ] = False,
    install_completion: Annotated[
        str | None,
        typer.Option(
            "--install-completion",
            metavar="SHELL",
            help="Install the completion of SHELL (bash, zsh or fish): its script, and the "
            "line of the shell's start-up file that loads it (~/.bashrc, ~/.zshrc or "
            "$ZDOTDIR/.zshrc).",
            is_eager=True,
            expose_value=False,
            callback=_install_completion,
        ),
    ] = None,
    show_completion: Annotated[
        str | None,
        typer.Option(
            "--show-completion",
            metavar="SHELL",
            help="Print the completion script of SHELL (bash, zsh or fish), to install it "
            "yourself.",
            is_eager=True,
            expose_value=False,
            callback=_show_completion,
        ),
    ] = None,
) -> None:
    """The commands are loaded by :class:`BouillotteGroup`; the application needs one
    callback to be a group rather than a single command."""


def main() -> None:
    try:
        app()
    except UserError as exc:  # raised outside a command (completion, option parsing)
        typer.echo(f"error: {exc.describe()}", err=True)
        sys.exit(2)
