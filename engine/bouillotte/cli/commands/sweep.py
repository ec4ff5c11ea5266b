"""``bouillotte sweep``: what changing rules does to the game, on the same seeded deals."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ...rules.errors import InputError
from ...rules.profiles import Library
from ...study.policies import distinct_players, policy_help
from ...study.strong_policy import unsolved_note
from ...study.sweep import run_sweep
from ...study.sweep_cluster import close_client, dask_client
from ...study.sweep_combinations import (
    ALL_RULES_POLICIES,
    Skipped,
    all_rule_combinations,
    check_playable,
    towards_combinations,
    vary_combinations,
)
from ...study.sweep_report import sweep_csv_rows, sweep_report, sweep_text
from ...study.tidy import sweep_table
from ..collector import prepare_for_a_long_run
from ..options import (
    JsonFlag,
    VariantsDirs,
    check_csv_targets,
    command_app,
    print_json,
    report_wanted,
    write_csv,
)
from ..progress import Progress, clock
from .simulate import check_deals_and_jobs, max_jobs


def _progress(total: int, plays: int) -> Progress:
    """The sweep's progress: deals done, plays (deals times combinations) per second."""

    def describe(done: int, total: int, rate: float, elapsed: float, left: float) -> str:
        return (
            f"sweep: {done}/{total} deals ({100 * done // total}%), "
            f"{rate * plays:,.0f} plays/s, {clock(elapsed)} elapsed, ETA {clock(left)}"
        )

    return Progress(total, describe, closing_line=True)


cli = command_app()


@cli.command("sweep")
def sweep_command(
    base: Annotated[str, typer.Argument(help="The variant whose rules are changed.")],
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="A rule to vary: RULE tries every value (a rule with finitely many), "
            "RULE=v1,v2 the values given, written as the tool writes them (no, yes; a whole "
            "number without a leading zero; no space); a part of a bonus as "
            "bonuses.carre.amount. Several --vary (each rule once): every combination. "
            "Not with --towards or --all-rules (refused).",
        ),
    ] = None,
    towards: Annotated[
        str | None,
        typer.Option(
            "--towards",
            help="Switch, one at a time (then all together), each rule on which BASE "
            "differs from this variant; rules acting between deals are skipped. Not with "
            "--vary (refused: its rows would repeat those of --towards).",
        ),
    ] = None,
    all_rules: Annotated[
        bool,
        typer.Option(
            "--all-rules",
            help="The full sweep: every rule of finitely many values, each of its other "
            "values switched alone (about 60 combinations); rules acting between deals are "
            "skipped. Default players: " + ", ".join(ALL_RULES_POLICIES) + ".",
        ),
    ] = False,
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Deals per combination (1 to 100,000,000).")
    ] = 10000,
    seed: Annotated[
        int, typer.Option("--seed", help="Deal i is dealt from its own stream of (seed, i).")
    ] = 0,
    policy: Annotated[
        list[str] | None,
        typer.Option("--policy", help=policy_help() + " Repeatable; default simple."),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help="Processes, at most the number of processors of this machine "
            f"({max_jobs()} here); results do not depend on it. With --cluster local: "
            "the local cluster's workers.",
        ),
    ] = 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Run on Dask: a scheduler's address (tcp://host:8786) or 'local' "
            "(a LocalCluster); same results as one process. Needs "
            'pip install "bouillotte[cluster]".',
        ),
    ] = None,
    csv_file: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help="Also write every figure to this CSV file (docs/data.md); '-' prints "
            "the table on stdout instead of the report.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
) -> None:
    """Play the same seeded deals under BASE and under BASE with rules changed, and
    report for each combination what decides the pools, the pool's mean and spread,
    each seat's result, bonuses and void deals, with 95% intervals, and the
    difference from BASE with its interval from the paired per-deal differences.

    Example:  bouillotte sweep foster --towards pagat --deals 100000 --jobs 2

    The full sweep (progress on stderr; --json adds, for each change, in how many deals
    the base's play read a rule it changes):

    Example:  bouillotte sweep foster --all-rules --deals 10000 --jobs 2
    """
    check_deals_and_jobs(deals, jobs)
    if cluster is not None and not cluster.strip():
        raise InputError(
            "--cluster must be 'local' or a scheduler's address (tcp://host:8786), not empty"
        )
    library = Library(variants or [])
    chosen = library.get(base)  # an unknown BASE is named before anything else
    if all_rules and (vary or towards):
        raise InputError(
            "--all-rules varies every rule already: give it without --vary or --towards"
        )
    if vary and towards:
        raise InputError(
            "--vary and --towards: give one of them (--towards already switches each rule "
            "on which BASE differs from the other system; a rule given to both made the "
            "same row twice)"
        )
    if not vary and not towards and not all_rules:
        raise InputError(
            "say what to change: --vary RULE[=v1,v2], --towards VARIANT or --all-rules"
        )
    # Refused now rather than after a long sweep: no folder, a named pipe (the write would
    # wait for a reader), a device, a link; --csv - with --json (both on stdout).
    check_csv_targets(as_json=as_json, csv_file=csv_file)
    policies = distinct_players(policy or (ALL_RULES_POLICIES if all_rules else ["simple"]))
    combinations = vary_combinations(chosen, vary or [])
    skipped: list[Skipped] = []
    if towards:
        switched, skipped = towards_combinations(chosen, library.get(towards))
        combinations += switched
    if all_rules:
        combinations, skipped = all_rule_combinations(chosen)
    check_playable(chosen, combinations)  # none asked for, or none that can be played
    valid = 1 + sum(c.variant is not None for c in combinations)
    for note in (unsolved_note(chosen.id, chosen.rules, p) for p in policies):
        if note is not None:
            typer.echo(note, err=True)
    progress = None if quiet else _progress(deals * len(policies), valid)
    prepare_for_a_long_run()
    clients: list[Any] = []  # the Dask client, held from the moment it exists
    try:  # a Ctrl-C from the client's start to its close is a hurried close
        if cluster is not None:
            dask_client(cluster, jobs, clients)
        tallies = run_sweep(
            chosen,
            combinations,
            policies,
            deals,
            seed,
            jobs=jobs,
            client=clients[0] if clients else None,
            progress=progress,
        )
        for client in clients:
            close_client(client)
    except KeyboardInterrupt:
        for client in clients:
            close_client(client, hurried=True)
        raise
    except BaseException:
        for client in clients:
            close_client(client)
        raise
    data = sweep_report(chosen, combinations, tallies, seed, skipped, towards, read=all_rules)
    if csv_file is not None:  # typed, escaped (study/tidy.py), whole or not at all
        write_csv(csv_file, sweep_table(sweep_csv_rows(data)))
    if as_json:
        print_json(data)
    elif report_wanted(csv_file, as_json):  # --csv - prints the table instead
        typer.echo(sweep_text(data))
