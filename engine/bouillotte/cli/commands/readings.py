"""``bouillotte readings``: the ambiguous sentences whose readings are rule values."""

from __future__ import annotations

import json

import typer

from ...rules.errors import InputError
from ...rules.nearest import did_you_mean
from ...rules.profiles import Library
from ...rules.readings import reading_takers, readings_json
from ...study.scenario import ScenarioLibrary
from ..options import (
    CsvFile,
    JsonFlag,
    ScenarioDirs,
    VariantsDirs,
    check_tidy_targets,
    command_app,
    write_csv,
)


def takers(library: Library) -> dict[str, dict[str, list[str]]]:
    """For each rule with readings: each reading's value (as written) -> the variants
    taking it, in the library's order."""
    return reading_takers(library.readings, library.all())


def check_scenarios(library: Library, store: ScenarioLibrary) -> None:
    """Every reading's ``scenario`` is a scenario of ``store``, else one line at the
    reading's file and line."""
    known = {s.id for s in store.all()}
    for path, reading in library.readings.items():
        if reading.scenario not in known:
            file, line = library.reading_places[path]
            raise InputError(
                f"unknown scenario{did_you_mean(reading.scenario, known)}; the scenarios are "
                f"{', '.join(sorted(known))} (a scenario of your own: --scenarios PATH)",
                file=file,
                line=line,
                field="scenario",
                value=reading.scenario,
                has_value=True,
            )


cli = command_app()


@cli.command("readings")
def readings_command(
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """The sentences that can be read two ways, each reading a value of a rule: the
    source's words, the question, each reading with the systems that take it, and the
    scenario that plays the deal under each (`bouillotte check` verifies both).

    Example:  bouillotte readings --json
    Example:  bouillotte readings --csv -   (a row per sentence, reading and system taking it)
    """
    from ...study.tidy_lists import readings_table

    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    check_scenarios(library, ScenarioLibrary(scenarios or []))
    data = readings_json(library.readings, takers(library))
    if csv_file is not None:
        write_csv(csv_file, readings_table(data))
        if str(csv_file) == "-":
            return
    if as_json:
        typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return
    for item in data:
        typer.echo(f"{item['id']}  [{item['rule']}]")
        typer.echo(f'  {item["source"]}, {item["locator"]}: "{item["quote"]}"')
        typer.echo(f"  {item['question']}")
        for reading in item["readings"]:
            who = ", ".join(reading["variants"]) or "no bundled system"
            typer.echo(f"  - {reading['value']} ({who}): {reading['meaning']}")
        deal = f"bouillotte run {item['scenario']} --variant {item['variant']}"
        typer.echo(f"  deal: {deal}")
        typer.echo(f"  each reading: {deal} --reading {item['rule']}=VALUE")
        typer.echo("")
