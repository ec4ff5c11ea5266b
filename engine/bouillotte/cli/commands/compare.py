"""``bouillotte compare``: scenarios under every variant side by side."""

from __future__ import annotations

from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study.compare import compare
from ...study.scenario import ScenarioLibrary
from ..options import (
    JsonFlag,
    ScenarioDirs,
    VariantsDirs,
    command_app,
    complete_scenario,
    complete_variant,
    print_json,
)

cli = command_app()


@cli.command("compare")
def compare_command(
    scenario: Annotated[
        list[str],
        typer.Argument(help="Scenario ids or YAML files.", autocompletion=complete_scenario),
    ],
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="Compare this variant (repeatable; the first is the base; default: every "
            "variant the scenario lists).",
            autocompletion=complete_variant,
            metavar="SYSTEM",
        ),
    ] = None,
    only: Annotated[
        str | None,
        typer.Option("--only", help="Like -v, comma-separated: foster,pagat.", metavar="IDS"),
    ] = None,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Run scenarios under every variant side by side and name the rules that differ.

    Cells that differ from the first variant are marked with '*'; below the table, the
    rules whose change alone turns the first variant's outcome into another's.

    Example:  bouillotte compare foster-sight -v foster -v pagat
    """
    ids = [*(variant or []), *(only.split(",") if only else [])]
    library = Library(variants or [])
    store = ScenarioLibrary(scenarios or [])
    chosen = [i.strip() for i in ids if i.strip()] or None
    comparisons = [compare(store.find(name), library, chosen) for name in scenario]
    if as_json:
        data = [c.to_json() for c in comparisons]
        print_json(data[0] if len(data) == 1 else data)
        return
    from ..compare_text import comparison_text

    for comparison in comparisons:
        typer.echo(comparison_text(comparison))
        typer.echo("")
