"""``bouillotte run``: play one scenario under one or more variants."""

from __future__ import annotations

from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study import render
from ...study.check import compare_expect
from ...study.scenario import RunResult, Scenario, ScenarioLibrary, run_scenario
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
    as_json: JsonFlag = False,
) -> None:
    """Play one scenario (a deal and its actions) and settle it.

    An action a variant forbids is not a crash: the result is 'illegal' with the step,
    the rule, its citation and the actions that were legal (in the JSON too). Where the
    scenario's 'expect' block for that variant says so (status illegal, the same rule and
    step), that is the outcome and the exit status 0; an action refused unexpectedly is
    bad input: it is also reported on stderr at its file and line, and the status is 2.

    Example:  bouillotte run foster-sight --variant foster --json
    """
    library = Library(variants or [])
    found = ScenarioLibrary(scenarios or []).find(scenario)
    ids = variant or found.variant_ids(library)
    found.variant_ids(library)  # the file's own list of variants must name known ones
    results = [run_scenario(found, library.get(v)) for v in ids]
    if as_json:
        print_json(results[0].data if len(results) == 1 else [r.data for r in results])
    else:
        for result in results:
            typer.echo(render.run_text(result.data, found.model.title))
            typer.echo("")
    refusals = [r for r in results if r.refusal() is not None and not _expected(found, r)]
    for result in refusals:
        typer.echo(f"error: {result.refusal()}", err=True)
    if refusals:
        raise typer.Exit(2)
