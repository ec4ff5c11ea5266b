"""``bouillotte compare``: scenarios under every variant side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import InputError
from ...rules.profiles import Library
from ...rules.readings import parse_readings
from ...study.compare import compare
from ...study.scenario import Scenario, ScenarioLibrary
from ...study.tidy import comparison_table
from ..options import (
    CsvFile,
    JsonFlag,
    ReadingOption,
    ScenarioDirs,
    VariantsDirs,
    check_tidy_targets,
    command_app,
    complete_scenario,
    complete_variant,
    print_json,
    write_csv,
)

cli = command_app()


@cli.command("compare")
def compare_command(
    ctx: typer.Context,
    scenario: Annotated[
        list[str],
        typer.Argument(
            help="Scenario ids or YAML files (a scenario named twice is played once).",
            autocompletion=complete_scenario,
        ),
    ],
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="Compare this variant (repeatable; the first named, by -v or --only, is "
            "the base; a variant named twice counts once; default: every variant the "
            "scenario lists).",
            autocompletion=complete_variant,
            metavar="SYSTEM",
        ),
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            help="Like -v, comma-separated: foster,pagat (with -v too, whichever comes "
            "first on the command line names the base).",
            metavar="IDS",
        ),
    ] = None,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    reading: ReadingOption = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Run scenarios under every variant side by side and name the rules that differ.

    Cells that differ from the first variant are marked with '*'. Below the table, for
    each variant that ends differently from the first: every smallest set of the rules on
    which they differ that, switched in the first to the other's values, gives the
    other's outcome (found by playing the combinations, smallest first; said so when
    the search is cut), the rules that alone change the outcome, the same the other way
    where it differs, and each rule's standing and sentence in both systems.

    Example:  bouillotte compare foster-sight -v foster -v pagat
    Example:  bouillotte compare foster-sight --reading point.suit_tie=eldest-first
    Example:  bouillotte compare foster-sight --csv -   (a row per system and player)
    """
    check_tidy_targets(csv_file, as_json)
    by_v, by_only = variant or [], only.split(",") if only is not None else []
    # Click processes the options in the order they first appear on the command line, and
    # ctx.params keeps that order: the first named is the base, --only's or -v's.
    order = list(ctx.params)
    only_first = order.index("only") < order.index("variant")
    ids = [*by_only, *by_v] if only_first else [*by_v, *by_only]
    if any(not i for i in ids):  # '' or 'foster,,pagat' is no system, not every one
        raise InputError(
            "-v and --only name a system each, not an empty one: leave them out to compare "
            "every system the scenario lists"
        )
    library = Library(variants or [])
    store = ScenarioLibrary(scenarios or [])
    chosen = ids or None
    readings = parse_readings(reading or [], library.readings)
    found: dict[Path, Scenario] = {}
    for name in dict.fromkeys(scenario):  # a scenario named twice (or by id and file) once
        one = store.find(name)
        found.setdefault(one.file.resolve(), one)
    comparisons = [compare(one, library, chosen, readings=readings) for one in found.values()]
    if csv_file is not None:
        write_csv(csv_file, comparison_table(comparisons))
        if str(csv_file) == "-":
            return
    if as_json:
        data = [c.to_json() for c in comparisons]
        print_json(data[0] if len(data) == 1 else data)
        return
    from ..compare_text import comparison_text

    for comparison in comparisons:
        typer.echo(comparison_text(comparison))
        typer.echo("")
