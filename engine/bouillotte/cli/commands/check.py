"""``bouillotte check``: every scenario's expect blocks, verified."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study.check import CheckReport, check
from ...study.render import counted
from ...study.scenario import ScenarioLibrary
from ..options import (
    CsvFile,
    JsonFlag,
    VariantsDirs,
    check_tidy_targets,
    command_app,
    print_json,
    write_csv,
)

cli = command_app()


@cli.command("check")
def check_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Scenario files or folders (default: the bundled library)."),
    ] = None,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Run every scenario under every variant it lists and verify its 'expect' blocks.

    Exits 1 if any outcome differs from what a scenario expects (or 2 for bad input).

    Example:  bouillotte check scenarios/
    Example:  bouillotte check --csv -   (a row per deal played, with its verdict)
    """
    from ...study.tidy_commands import check_table

    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    store = ScenarioLibrary(paths or [], include_bundled=not paths)
    report = check(store.all(), library)
    if csv_file is not None:
        write_csv(csv_file, check_table(report))
    if csv_file is not None and str(csv_file) == "-":
        _problems(report)  # the CSV holds them too; stderr says them as the report does
    elif as_json:
        print_json(
            {
                "runs": report.runs,
                "checked": report.checked,
                "unchecked": [list(u) for u in report.unchecked],
                "mismatches": [m.describe() for m in report.mismatches],
                "errors": [e.describe() for e in report.errors],
            }
        )
    else:
        _problems(report)
        typer.echo(
            f"{counted(report.runs, 'run')} of {counted(len(store.all()), 'scenario')}: "
            f"{report.checked} checked, {counted(len(report.mismatches), 'mismatch', 'mismatches')}"
            f", {counted(len(report.errors), 'error')}, "
            f"{len(report.unchecked)} without an expect block"
        )
    if report.errors:
        raise typer.Exit(2)
    if report.mismatches:
        raise typer.Exit(1)


def _problems(report: CheckReport) -> None:
    """Each error and mismatch on stderr, a line each."""
    for error in report.errors:
        typer.echo(f"error: {error.describe()}", err=True)
    for mismatch in report.mismatches:
        typer.echo(f"mismatch: {mismatch.describe()}", err=True)
