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

import importlib
import sys
from dataclasses import dataclass
from typing import Any

import typer
from typer.core import TyperGroup

try:  # the Click that Typer uses: its own copy since Typer 0.2x
    from typer import _click as click
except ImportError:  # pragma: no cover - an older Typer, on Click itself
    import click  # type: ignore[no-redef]

try:  # how Typer converts a value: since Typer 0.2x, through a pydantic TypeAdapter
    from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
except ImportError:  # pragma: no cover - an older Typer converts with Click's types
    RuntimeParam = None  # type: ignore[assignment,misc]

from ..rules.errors import UserError
from .options import user_errors

COMMANDS: dict[str, str] = {
    "schema": "Print the JSON Schema of profile or scenario files, for editors.",
    "run": "Play one scenario (a deal and its actions) and settle it.",
    "compare": "Run scenarios under every variant side by side and name the rules that differ.",
    "check": "Run every scenario under every variant it lists and verify its 'expect' blocks.",
    "differences": "For each rule on which SECOND differs from FIRST, find the first seeded "
    "deal (simple policy) whose outcome changes when only that rule is changed in FIRST.",
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
    "variants": "List, show and compare the variant profiles.",
    "site": "Build the static reference site, or preview it on localhost.",
}
"""Every command, in the order ``--help`` lists them, with the first sentence of its help
(the module ``commands/<name>.py`` holds the command and its whole help;
tests/test_cli.py checks that the two agree)."""


def load_command(name: str) -> click.Command:
    """Import ``commands/<name>.py`` and return its command (or group of commands)."""
    module = importlib.import_module(f"{__package__}.commands.{name}")
    command = typer.main.get_command(module.cli)
    command.name = name
    return command


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class _Deferred(RuntimeParam):
        """Typer's conversion of one parameter, built when a value is given.

        Typer builds the converter of every parameter of the command line it parses (a
        pydantic ``TypeAdapter``) even for an option left out, whose value is ``None`` or
        ``()`` whatever the converter: that alone imported pydantic, a third of what
        ``bouillotte variants list`` cost. This stands in for it: Typer's own
        :meth:`RuntimeParam.coerce` answers a missing value as always, and the first value
        given builds Typer's converter and hands it over (kept for the next value)."""

        descriptor: TypeDescriptor | None = None

        def _coerce_value(self, value: Any, param: Any, ctx: click.Context) -> Any:
            assert self.descriptor is not None
            converter = build_runtime_param(self.descriptor)
            param._runtime_param = converter
            return converter._coerce_value(value, param=param, ctx=ctx)


def defer_conversion(command: click.Command, ctx: click.Context) -> None:
    """Let every parameter of ``command`` (and of its sub-commands) build its converter
    only when it is given a value (:class:`_Deferred`); with a Typer that has no such
    converters, do nothing.

    ``--help`` is among them: Click makes it on first use, with the names the context
    gives (a sub-command's context takes its parent's), so it is made here, from ``ctx``."""
    if RuntimeParam is None:  # pragma: no cover - an older Typer
        return
    help_option = command.get_help_option(ctx)
    for param in [*command.params, *([help_option] if help_option else [])]:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and getattr(param, "_runtime_param", False) is None:
            param._runtime_param = _Deferred(  # type: ignore[attr-defined]
                parameter_info=descriptor.parameter_info,
                annotation=descriptor.annotation,
                descriptor=descriptor,
            )
    for sub in getattr(command, "commands", {}).values():
        defer_conversion(sub, ctx)


class BouillotteGroup(TyperGroup):
    """The top-level command: loads a sub-command's module only when it is used, lists
    them all from :data:`COMMANDS`, and runs each inside :func:`~.options.user_errors`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = load_command(cmd_name)
            defer_conversion(self.commands[cmd_name], ctx)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [
            (
                name,
                click.utils.make_default_short_help(COMMANDS[name], limit)
                if name in COMMANDS and name not in self.commands
                else self.commands[name].get_short_help_str(limit),
            )
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        defer_conversion(self, ctx)  # the top-level command's own options
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        with user_errors():
            return super().invoke(ctx)


app = typer.Typer(
    cls=BouillotteGroup,
    help=(
        "Compare the historical rule systems of Bouillotte (Brelan).\n\n"
        "Each system is a YAML variant profile with a citation for every rule; one engine "
        "plays any deal under any profile.\n\n"
        "Start with:  bouillotte variants list   ·   bouillotte compare foster-sight\n\n"
        "YAML files are read within limits (docs/contracts.md): at most 1 MiB, 20,000 values "
        "once aliases are expanded, 64 levels deep. Bad input exits 2 with one line naming "
        "the file, line, field and value; Ctrl-C exits 130."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=True,
)


@app.callback()
def _root() -> None:
    """The commands are loaded by :class:`BouillotteGroup`; the application needs one
    callback to be a group rather than a single command."""


def main() -> None:
    try:
        app()
    except UserError as exc:  # raised outside a command (completion, option parsing)
        typer.echo(f"error: {exc.describe()}", err=True)
        sys.exit(2)
