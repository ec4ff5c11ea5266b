"""``bouillotte compare``: scenarios under every variant side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...rules.profiles import Library
from ...rules.readings import parse_reading
from ...study.compare import compare
from ...study.scenario import ScenarioLibrary
from ..options import (
    JsonFlag,
    ReadingOption,
    ScenarioDirs,
    command_app,
    complete_scenario,
    print_json,
)

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
    reading: ReadingOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios under every variant side by side and name the rules that differ.

    Cells that differ from the first variant are marked with '*'. Below the table, for
    each variant that ends differently from the first: every smallest set of the rules on
    which they differ that, switched in the first to the other's values, gives the
    other's outcome (found by playing the combinations, smallest first; said so when
    the search is cut), the rules that alone change the outcome, the same the other way
    where it differs, and each rule's standing and sentence in both systems.

    Example:  bouillotte compare foster-sight --variants foster,pagat
    Example:  bouillotte compare foster-sight --reading point.suit_tie=eldest-first
    """
    folders = [Path(v) for v in variants or [] if Path(v).is_dir()]
    ids = [i.strip() for v in variants or [] if not Path(v).is_dir() for i in v.split(",")]
    ids += [v.strip() for v in only.split(",")] if only else []
    library = Library(folders)
    store = ScenarioLibrary(scenarios or [])
    chosen = [i for i in ids if i] or None
    readings = [parse_reading(r, library.readings) for r in reading or []]
    comparisons = [
        compare(store.find(name), library, chosen, readings=readings) for name in scenario
    ]
    if as_json:
        data = [c.to_json() for c in comparisons]
        print_json(data[0] if len(data) == 1 else data)
        return
    from ..compare_text import comparison_text

    for comparison in comparisons:
        typer.echo(comparison_text(comparison))
        typer.echo("")
