"""``bouillotte simulate``: many seeded deals per variant, with statistics."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study.policies import policy_help
from ...study.simulate import simulate
from ...study.simulate_report import report, report_text
from ...study.strong_policy import unsolved_note
from ...study.tidy import simulation_table
from ..options import (
    CsvFile,
    JsonFlag,
    VariantsDirs,
    check_deals,
    check_tidy_targets,
    command_app,
    print_json,
    write_csv,
)
from ..progress import Progress, counted


def _progress(variant_id: str, total: int) -> Progress:
    """One variant's deals: a bar with the rate and the time left."""
    return counted(variant_id, "deals", total, rate_digits=0)


def max_jobs() -> int:
    """The most worker processes ``--jobs`` may ask for: one per processor."""
    return os.cpu_count() or 1


def check_deals_and_jobs(deals: int, jobs: int) -> None:
    """Between one deal and :data:`~...study.workers.MAX_DEALS`, and between one worker
    and one per processor (the bounds of every run: ``study/workers.py``)."""
    from ...study.workers import check_jobs

    check_deals(deals)
    check_jobs(jobs, "--jobs")


cli = command_app()


@cli.command("simulate")
def simulate_command(
    variant: Annotated[
        list[str],
        typer.Option("--variant", "-v", help="A variant to simulate (repeatable)."),
    ],
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Deals per variant (1 to 100,000,000).")
    ] = 10000,
    seed: Annotated[
        int, typer.Option("--seed", help="Deal i is dealt from its own stream of (seed, i).")
    ] = 0,
    policy: Annotated[str, typer.Option("--policy", help=policy_help())] = "simple",
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help="Processes, at most the number of processors of this machine "
            f"({max_jobs()} here); results do not depend on it.",
        ),
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Play many seeded deals under each variant with a betting policy and report how
    pools are decided, pot sizes, bonus flow and seat advantage, with 95% confidence
    intervals. The same seed gives the same numbers, whatever --jobs.

    Progress goes to stderr: a bar with the rate and the time left on a terminal, a line
    every 10 seconds otherwise; --quiet silences it. Stdout holds the report alone.

    Example:  bouillotte simulate -v foster -v pagat --deals 20000 --seed 1 --jobs 2
    Example:  bouillotte simulate -v foster -v pagat --csv simulation.csv
    """
    check_deals_and_jobs(deals, jobs)
    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    chosen = library.select(variant)
    reports = []
    for v in chosen:
        note = unsolved_note(v.id, v.rules, policy)
        if note is not None:
            typer.echo(note, err=True)
        progress = None if quiet else _progress(v.id, deals)
        tally = simulate(v, deals, seed, policy, jobs, progress=progress)
        reports.append(report(v, tally, seed, policy))
    if csv_file is not None:
        write_csv(csv_file, simulation_table(reports))
        if str(csv_file) == "-":
            return
    if as_json:
        data = reports[0] if len(reports) == 1 else reports
        print_json(data)
    else:
        typer.echo(report_text(reports))
