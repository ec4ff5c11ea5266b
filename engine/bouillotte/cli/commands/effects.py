"""``bouillotte effects``: the stored results of "What each rule does" (``site/effects/``).

Every pair of bundled systems that share a pack and a number of players has a data file
``site/effects/A__B.json``: the sweep of A towards B under two players, keyed by what its
figures are declared to depend on (both systems' rules, the players and their tendencies,
the deals, the seed and the results version: docs/effects-store.md). The full sweep of
Foster's system (``bouillotte sweep foster --all-rules``, the page "What every rule of
Foster's system does") is kept the same way, as ``site/effects/foster__all-rules.json``
(``--pair foster__all-rules``). The site uses a file whose key matches the deals it says it
has. By default this command lists each pair and whether its file is up to date, judged as
the site judges it (exit 1 if any is missing or stale); ``--json`` and ``--csv`` give the
figures of the files up to date, and ``--write`` recomputes the files that are not, which
takes minutes. ``--deals N`` asks for files of N deals in all four (a file of other deals
is then stale); ``--jobs`` and ``--quiet``, which only a computation heeds, are refused
without ``--write``::

    nice -n 10 bouillotte effects --write --jobs 2

then review the change with ``git diff site/effects``.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ...rules.errors import InputError, shown
from ...rules.nearest import did_you_mean
from ...rules.profiles import Library
from ...rules.variant import Variant
from ...rules.writing import Output
from ...site import effects_store
from ...site.effects_run import compute_effects
from ...site.effects_store import (
    EFFECT_DEALS,
    Stored,
    check_stored,
    effect_pairs,
    stored_effects,
    write_stored,
)
from ...site.everyrule import (
    BASE,
    EVERY_RULE_DEALS,
    NAME,
    compute_every_rule,
    every_rule_path,
    stored_every_rule,
)
from ...site.rules import system_order
from ..collector import prepare_for_a_long_run
from ..options import CsvFile, check_tidy_targets, command_app, print_json, write_csv
from ..progress import Progress, clock
from .simulate import check_deals_and_jobs, max_jobs

cli = command_app()


@cli.command("effects")
def effects_command(
    write: Annotated[
        bool, typer.Option("--write", help="Recompute every file that is missing or stale.")
    ] = False,
    pair: Annotated[
        list[str] | None,
        typer.Option("--pair", metavar="PAIR", help="Only this pair, as A__B (repeatable)."),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            "-n",
            help="Deals per combination: --write computes this many (default: the "
            f"site's, {EFFECT_DEALS} for a pair, {EVERY_RULE_DEALS} for the full sweep), and "
            "only files of this many are up to date, for --write as in the listing, --json "
            "and --csv (without it, a file whose key matches the deals it has is up to date, "
            "as the site uses it); 1 to 100,000,000.",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help=f"With --write: processes, at most {max_jobs()} here (refused without it).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="With --write: recompute up-to-date files too.")
    ] = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="With --write: no progress (refused without it)."),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print each pair's stored results as JSON on stdout (the listing goes to stderr).",
        ),
    ] = False,
    csv_file: CsvFile = None,
) -> None:
    """List the stored results of "What each rule does" (site/effects/) and whether each
    is up to date; --write recomputes those that are not. --json and --csv give the
    stored figures themselves.

    Example:  nice -n 10 bouillotte effects --write --jobs 2
    Example:  bouillotte effects --pair foster__pagat --csv effects.csv
    """
    check_deals_and_jobs(EFFECT_DEALS if deals is None else deals, 1 if jobs is None else jobs)
    check_tidy_targets(csv_file, as_json)
    if force and not write:
        # without --write nothing is recomputed: the listing would call every file stale
        raise InputError(
            "it recomputes up-to-date files with --write only: add --write", field="--force"
        )
    # Without --write nothing is computed: processes and progress would be ignored in
    # silence (--deals applies everywhere: the files of that many deals are up to date).
    if jobs is not None and not write:
        raise InputError(
            "it sets the processes of --write only (nothing is computed without it): "
            "add --write, or leave it out",
            field="--jobs",
        )
    if quiet and not write:
        raise InputError(
            "it silences the progress of --write only (nothing is computed without it): "
            "add --write, or leave it out",
            field="--quiet",
        )
    if write and (as_json or csv_file is not None):
        raise InputError(
            "--json and --csv give the stored results: run --write first, then either",
            field="--write",
        )
    library = Library()
    pairs = effect_pairs(system_order(library.all()))
    full = BASE in {v.id for v in library.all()}
    if pair:
        wanted = set(pair)
        known = {f"{a.id}__{b.id}" for a, b in pairs} | ({NAME} if full else set())
        unknown = sorted(wanted - known)
        if unknown:
            raise InputError(
                f"no such pair {unknown[0]!r}{did_you_mean(unknown[0], known)}; "
                f"the pairs are {', '.join(sorted(known))}",
                field="--pair",
            )
        pairs = [(a, b) for a, b in pairs if f"{a.id}__{b.id}" in wanted]
        full = NAME in wanted
    if as_json or csv_file is not None:
        _figures(pairs, full, as_json, csv_file, deals, pair or [])
        return
    files = [_pair_file(a, b) for a, b in pairs]
    if full:
        files.append(_full_sweep_file(library.get(BASE)))
    stale, todo = _listed(files, deals, write, force)
    if todo:
        _write(todo, deals, 1 if jobs is None else jobs, quiet)
    if stale:
        typer.echo(f"{stale} missing or stale: `{_regenerate(deals, pair)}` regenerates them")
        raise typer.Exit(1)


@dataclass(frozen=True)
class _File:
    """One stored file: a pair's, or the full sweep's."""

    name: str
    """``A__B``, or ``foster__all-rules``: its name for ``--pair``."""
    path: Path
    stored: Callable[[], Stored]
    site_deals: int
    sweep: Callable[[int, int, bool], dict[str, Any]]
    """Its content computed: of so many deals, on so many processes, quiet or not."""
    timed: bool = False
    """Whether "computed" says the CPU and wall time it took (the full sweep's, an hour)."""


def _pair_file(a: Variant, b: Variant) -> _File:
    return _File(
        f"{a.id}__{b.id}",
        effects_store.store_path(a, b),
        lambda: stored_effects(a, b),
        EFFECT_DEALS,
        lambda deals, jobs, quiet: _sweep_pair(a, b, deals, jobs, quiet),
    )


def _full_sweep_file(base: Variant) -> _File:
    return _File(
        NAME,
        every_rule_path(),
        lambda: stored_every_rule(base),
        EVERY_RULE_DEALS,
        lambda deals, jobs, quiet: _sweep_all_rules(base, deals, jobs, quiet),
        timed=True,
    )


def _listed(
    files: list[_File], deals: int | None, write: bool, force: bool
) -> tuple[int, list[_File]]:
    """Each file listed (up to date, or why not), as judged under ``--deals``: the number
    left stale, and those ``--write`` recomputes."""
    stale, todo = 0, []
    for file in files:
        found = effects_store.of_deals(file.stored(), deals)
        if found.data is not None and not force:
            typer.echo(f"{file.name}: up to date{_made_with(file, found, deals)}")
        elif write:
            todo.append(file)
        else:
            stale += 1
            typer.echo(f"{file.name}: {found.problem}")
    return stale, todo


def _write(todo: list[_File], deals: int | None, jobs: int, quiet: bool) -> None:
    """Recompute ``todo`` and put the files in place together once the last is done: a
    failure or an interruption half-way leaves every stored result as it was
    (rules/writing.py). Each file is checked first (a link, a named pipe, one made
    read-only is refused now, not once the sweeps before it are done); each is said
    ``computed`` when it is, and ``written to`` only once the files are in place."""
    prepare_for_a_long_run()
    with Output(effects_store.store_folder(), "own") as out:
        for file in todo:
            check_stored(file.path, out)
        for file in todo:
            started, wall = _cpu(), time.perf_counter()
            write_stored(file.path, file.sweep(deals or file.site_deals, jobs, quiet), out)
            took = (
                f" ({_cpu() - started:,.0f} s of CPU, "
                f"{time.perf_counter() - wall:,.0f} s of wall time here)"
            )
            typer.echo(f"{file.name}: computed{took if file.timed else ''}")
    for file in todo:
        typer.echo(f"{file.name}: written to {shown(file.path)}")


def _sweep_pair(a: Variant, b: Variant, deals: int, jobs: int, quiet: bool) -> dict[str, Any]:
    from ...study.sweep_combinations import towards_combinations

    combinations, _ = towards_combinations(a, b)
    plays = 1 + sum(c.variant is not None for c in combinations)
    name = f"{a.id}__{b.id}"
    return compute_effects(a, b, deals, jobs, None if quiet else _progress(name, 2 * deals, plays))


def _sweep_all_rules(base: Variant, deals: int, jobs: int, quiet: bool) -> dict[str, Any]:
    from ...study.sweep_combinations import ALL_RULES_POLICIES, all_rule_combinations

    combinations, _ = all_rule_combinations(base)
    plays = 1 + sum(c.variant is not None for c in combinations)
    progress = None if quiet else _progress(NAME, len(ALL_RULES_POLICIES) * deals, plays)
    return compute_every_rule(base, deals, jobs, progress)


def _figures(
    pairs: list[tuple[Variant, Variant]],
    full: bool,
    as_json: bool,
    csv_file: Path | None,
    deals: int | None,
    asked: list[str],
) -> None:
    """The stored figures of the pairs asked for (and the full sweep where asked): as JSON
    on stdout, and as one tidy table to ``csv_file``; a pair whose file is missing or
    stale (or made with another number of deals than ``--deals`` asks) is said on stderr
    (exit 1) and not given, as the listing says it."""
    from ...site.tidydata import StoredPair, effects_table, stored_full_sweep, stored_pair

    found = [stored_pair(a, b) for a, b in pairs]
    if full:
        found.append(stored_full_sweep(Library().get(BASE)))
    found = [
        StoredPair(p.name, p.system, p.towards, effects_store.of_deals(p.stored, deals))
        for p in found
    ]
    stale = [p for p in found if p.stored.data is None]
    for p in stale:
        typer.echo(f"{p.name}: {p.stored.problem}", err=True)
    if csv_file is not None:
        write_csv(csv_file, effects_table(found))
    if as_json:
        print_json(
            {
                p.name: {"system": p.system, "towards": p.towards, "stored": p.stored.data}
                | ({"problem": p.stored.problem} if p.stored.data is None else {})
                for p in found
            }
        )
    if stale:
        typer.echo(
            f"{len(stale)} missing or stale: `{_regenerate(deals, asked)}` regenerates them",
            err=True,
        )
        raise typer.Exit(1)


def _regenerate(deals: int | None, pairs: list[str] | None = None) -> str:
    """The command that makes the files stale under ``--deals`` (or none) up to date, with
    every option that chose them (the ``--pair`` given: without, it would rewrite every
    stored file at those deals)."""
    chosen = "".join(f" --pair {p}" for p in dict.fromkeys(pairs or []))
    return f"bouillotte effects --write{chosen}" + ("" if deals is None else f" --deals {deals}")


def _made_with(file: _File, found: Stored, deals: int | None) -> str:
    """`` (made with 5 deals; ...)`` after "up to date" where a file's deals are not the
    site's and ``--deals`` did not ask for them: the site uses it as it is. The command
    that remakes it names its pair (``--deals 20000`` alone would remake the full sweep,
    of 100,000, at 20,000)."""
    made = None if found.data is None else found.data.get("deals")
    site = file.site_deals
    if deals is not None or made is None or made == site:
        return ""
    remake = _regenerate(site, [file.name])
    return f" (made with {made:,} deals, not the site's {site:,}: `{remake}` remakes it)"


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _progress(name: str, total: int, plays: int) -> Progress:
    def describe(done: int, total: int, rate: float, elapsed: float, left: float) -> str:
        return (
            f"{name}: {done}/{total} deals ({100 * done // total}%), "
            f"{rate * plays:,.0f} plays/s, {clock(elapsed)} elapsed, ETA {clock(left)}"
        )

    return Progress(total, describe, closing_line=True)
