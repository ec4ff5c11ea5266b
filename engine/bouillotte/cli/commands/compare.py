"""``bouillotte compare``: scenarios under every variant side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study.compare import compare
from ...study.scenario import ScenarioLibrary
from ..options import JsonFlag, ScenarioDirs, command_app, complete_scenario, print_json

cli = command_app()


@cli.command("compare")
def compare_command(
    scenario: Annotated[
        list[str],
        typer.Argument(help="Scenario ids or YAML files.", autocompletion=complete_scenario),
    ],
    only: Annotated[
        str | None,
        typer.Option("--only", help="Comma-separated variant ids to compare (default: all)."),
    ] = None,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variants",
            help="Either a folder of your own profiles (repeatable) or, like --only, "
            "comma-separated variant ids to compare.",
        ),
    ] = None,
    scenarios: ScenarioDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios under every variant side by side and name the rules that differ.

    Cells that differ from the first variant are marked with '*'; below the table, the
    rules whose change alone turns the first variant's outcome into another's.

    Example:  bouillotte compare foster-sight --variants foster,pagat
    """
    folders = [Path(v) for v in variants or [] if Path(v).is_dir()]
    ids = [i.strip() for v in variants or [] if not Path(v).is_dir() for i in v.split(",")]
    ids += [v.strip() for v in only.split(",")] if only else []
    library = Library(folders)
    store = ScenarioLibrary(scenarios or [])
    chosen = [i for i in ids if i] or None
    comparisons = [compare(store.find(name), library, chosen) for name in scenario]
    if as_json:
        data = [c.to_json() for c in comparisons]
        print_json(data[0] if len(data) == 1 else data)
        return
    from ..compare_text import comparison_text

    for comparison in comparisons:
        typer.echo(comparison_text(comparison))
        typer.echo("")
