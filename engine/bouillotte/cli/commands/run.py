"""``bouillotte run``: play one scenario under one or more variants."""

from __future__ import annotations

from typing import Annotated

import typer

from ...rules.profiles import Library
from ...rules.readings import parse_readings
from ...study import render
from ...study.check import compare_expect
from ...study.reread import check_concerned, reread, run_reread
from ...study.scenario import RunResult, Scenario, ScenarioLibrary
from ...study.tidy import outcomes_table
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


def _expected(scenario: Scenario, result: RunResult) -> bool:
    """Whether the scenario's own ``expect`` block for the variant agrees with the result."""
    expect = scenario.model.expect.get(result.variant.id)
    return expect is not None and not compare_expect(result, expect)


@cli.command("run")
def run_command(
    scenario: Annotated[
        str,
        typer.Argument(
            help="A scenario id or a YAML file.",
            autocompletion=complete_scenario,
            metavar="SCENARIO",
        ),
    ],
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="Run under this variant (repeatable; default: every variant it lists).",
            autocompletion=complete_variant,
        ),
    ] = None,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    reading: ReadingOption = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Play one scenario (a deal and its actions) and settle it.

    An action a variant forbids is not a crash: the result is 'illegal' with the step,
    the rule, its citation and the actions that were legal (in the JSON too). Where the
    scenario's 'expect' block for that variant says so (status illegal, the same rule and
    step), that is the outcome and the exit status 0; an action refused unexpectedly is
    bad input: it is also reported on stderr at its file and line, and the status is 2.

    With --reading RULE=VALUE, every system whose rule rests on that ambiguous sentence
    plays the reading instead of its own (the text says so; the JSON adds 'readings').

    Example:  bouillotte run foster-sight --variant foster --json
    Example:  bouillotte run foster-sight -v foster --reading point.suit_tie=eldest-first
    Example:  bouillotte run foster-sight -v foster --csv -   (a row per player)
    """
    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    found = ScenarioLibrary(scenarios or []).find(scenario)
    ids = variant or found.variant_ids(library)
    found.variant_ids(library)  # the file's own list of variants must name known ones
    chosen = parse_readings(reading or [], library.readings)
    systems = library.select(ids)
    check_concerned(systems, chosen)
    played = [reread(v, chosen) for v in systems]
    results = [run_reread(found, v, applied) for v, applied in played]
    datas = [
        {**r.data, "readings": [a.to_json() for a in applied]} if applied else r.data
        for r, (_, applied) in zip(results, played, strict=True)
    ]
    if csv_file is not None:
        write_csv(csv_file, outcomes_table(datas, "run"))
    if csv_file is not None and str(csv_file) == "-":
        pass  # the CSV instead of the report
    elif as_json:
        print_json(datas[0] if len(datas) == 1 else datas)
    else:
        for data, (system, applied) in zip(datas, played, strict=True):
            for a in applied:
                typer.echo(a.text(system.id))
            typer.echo(render.run_text(data, found.model.title))
            typer.echo("")
    refusals = [r for r in results if r.refusal() is not None and not _expected(found, r)]
    for result in refusals:
        typer.echo(f"error: {result.refusal()}", err=True)
    if refusals:
        raise typer.Exit(2)
