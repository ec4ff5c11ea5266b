"""Before and after in one run: the same commands of two revisions, interleaved.

Run:  python benchmarks/revisions.py BEFORE [AFTER] [--rounds 5] [--deals 4000] [--only check]
      [--compiled] [--compiled-before]

BEFORE and AFTER are git revisions of this repository (AFTER defaults to the working tree).
Each revision is checked out into a temporary git worktree and run from its own source
(``PYTHONPATH=<worktree>/engine python -m bouillotte ...``, with its own bundled profiles),
so nothing is installed and the two use the same Python and libraries. In every round each
command of each revision runs once, in a fresh process, interleaved with the reference
PokerKit hand (``benchmarks/reference.py``), and the table gives the median over the rounds
of the children's CPU time. The machine is shared and noisy: a figure is a ratio or a CPU
time measured in this one run, never a figure carried over from another.

Each revision has its own cache folder (``BOUILLOTTE_CACHE``), filled in the first round, so
the median is that of a build with a warm cache, as a user's second build is.

``--compiled`` adds a third column: AFTER with its engine compiled by mypyc, as ``pip install
.`` builds it (``hatch_build.py``), in a copy of its own, so the three are measured in one run.

``simulate`` is measured by its cost per deal: the CPU of ``--deals N`` less that of
``--deals 1``, divided by N - 1, so the start-up of the process is not counted as play.

``--sweep DEALS`` adds the sweep play (``benchmarks/sweepplay.py``: one deal under one
combination of the full sweep of Foster's system, averaged over the bundled policies), its
cost measured the same way (DEALS deals less 1 deal, over the rows), and the full sweep
extrapolated from it; ``--compiled-before`` adds BEFORE compiled too, so that the compiled
engine's before and after come from one run. With ``--in-process`` the sweep play is timed
inside one process per revision and round instead (``sweepplay.py --in-process DEALS
--json``: a 1-deal warm-up, then DEALS deals timed alone), so no start-up is subtracted:
40 deals of the compiled sweep are about a tenth of a fresh process's CPU, so a start-up
that moves by a few milliseconds moves the subtracted figure by a tenth (docs/speed.md,
6 December 2026).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference
import sweepplay

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(source: Path, cache: Path, *words: str) -> float:
    """The CPU seconds of one ``bouillotte`` command run from ``source`` in a new process."""
    env = {**os.environ, "PYTHONPATH": str(source / "engine"), "BOUILLOTTE_CACHE": str(cache)}
    before = _children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "bouillotte", *words], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{source}: bouillotte {' '.join(words)} failed:\n{done.stderr}")
    return _children_cpu() - before


def run_sweep_in_process(source: Path, cache: Path, deals: int) -> dict[str, float]:
    """The CPU seconds per sweep play under each bundled policy, timed by
    ``benchmarks/sweepplay.py --in-process`` (of this checkout) inside one new process
    running the engine of ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source / "engine"), "BOUILLOTTE_CACHE": str(cache)}
    script = Path(__file__).resolve().with_name("sweepplay.py")
    done = subprocess.run(
        [sys.executable, str(script), "--in-process", str(deals), "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{source}: sweepplay.py --in-process {deals} failed:\n{done.stderr}")
    return {policy: 1e-6 * us for policy, us in json.loads(done.stdout).items()}


def plays_by_round(
    sweeps: dict[tuple[str, str, int], list[float]], label: str, policy: str, deals: int
) -> list[float]:
    """The CPU seconds of one sweep play in each round: measured so where the sweep was
    timed in process (``deals`` 0), else DEALS deals less 1 deal, over the plays (deals
    less one times the rows)."""
    if (label, policy, 0) in sweeps:
        return sweeps[(label, policy, 0)]
    count = sweepplay.rows()
    many, one = sweeps[(label, policy, deals)], sweeps[(label, policy, 1)]
    return [(m - o) / ((deals - 1) * count) for m, o in zip(many, one, strict=True)]


def run_sweep_sample(source: Path, cache: Path, policy: str, deals: int) -> float:
    """The CPU seconds of ``benchmarks/sweepplay.py`` (of this checkout) run against the
    engine of ``source`` in a new process."""
    env = {**os.environ, "PYTHONPATH": str(source / "engine"), "BOUILLOTTE_CACHE": str(cache)}
    script = Path(__file__).resolve().with_name("sweepplay.py")
    before = _children_cpu()
    done = subprocess.run(
        [sys.executable, str(script), policy, str(deals)], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{source}: sweepplay.py {policy} {deals} failed:\n{done.stderr}")
    return _children_cpu() - before


def checkout(revision: str, into: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), revision],
        check=True,
    )
    return into


def copy_checkout(into: Path) -> Path:
    """The working tree's tracked files, as they are now (uncommitted changes included)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z"], check=True, capture_output=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        target = into / name
        if (ROOT / name).is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target)
    return into


def compiled_copy(revision: str | None, into: Path) -> Path:
    """A copy of ``revision`` (or of the working tree) with its engine compiled in place."""
    if revision is None:
        copy_checkout(into)
    else:
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "-o", str(into.with_suffix(".tar")), revision],
            check=True,
        )
        into.mkdir()
        shutil.unpack_archive(into.with_suffix(".tar"), into)
    print(f"compiling {revision or 'the working tree'} with mypyc ...", file=sys.stderr)
    done = subprocess.run([sys.executable, str(into / "hatch_build.py"), str(into)])
    if done.returncode != 0:
        raise SystemExit(f"--compiled: compiling {revision or 'the working tree'} failed")
    return into


def commands(deals: int, site: Path) -> dict[str, list[str]]:
    return {
        "--help": ["--help"],
        "variants list": ["variants", "list"],
        # reads and builds two profiles, their quotes checked, with no cache to answer it
        "variants show britannica-1911": ["variants", "show", "britannica-1911"],
        "check": ["check"],
        "odds (every variant)": ["odds", "--json"],
        "site build": ["site", "build", "--out", str(site)],
        f"simulate foster, {deals} deals": [
            "simulate", "-v", "foster", "-n", str(deals), "--seed", "1", "--json",
        ],
        "simulate foster, 1 deal": ["simulate", "-v", "foster", "-n", "1", "--seed", "1", "--json"],
    }  # fmt: skip


def print_sweep(
    sweeps: dict[tuple[str, str, int], list[float]], labels: list[str], deals: int
) -> str:
    """The sweep play per label (the median over the rounds of :func:`plays_by_round`),
    averaged over the policies, and the full sweep extrapolated from it. Returns the note on
    how it was extrapolated, printed below the table."""
    count = sweepplay.rows()
    play: dict[str, dict[str, float]] = {}
    for label in labels:
        play[label] = {
            policy: statistics.median(plays_by_round(sweeps, label, policy, deals))
            for policy in sweepplay.BUNDLED_POLICIES
        }
    name = "sweep play, us CPU (6 policies)"
    cells = "".join(f" {1e6 * statistics.mean(play[label].values()):>12.1f} |" for label in labels)
    first = statistics.mean(play[labels[0]].values())
    ratios = "".join(
        f" {statistics.mean(play[label].values()) / first:>17.2f} |" for label in labels[1:]
    )
    print(f"| {name:<40} |{cells}{ratios}")
    hours = {
        label: sum(play[label][p] for p in sweepplay.FULL_POLICIES)
        * count
        * sweepplay.FULL_DEALS
        / 3600
        for label in labels
    }
    name = "full sweep, CPU-hours"
    cells = "".join(f" {hours[label]:>12.2f} |" for label in labels)
    ratios = "".join(f" {hours[label] / hours[labels[0]]:>17.2f} |" for label in labels[1:])
    print(f"| {name:<40} |{cells}{ratios}")
    return (
        f"full sweep: {count} rows (the base included) x {len(sweepplay.FULL_POLICIES)} "
        f"policies x {sweepplay.FULL_DEALS:,} deals, from a sample of {deals} deals per row "
        "and policy"
        + (", timed in process" if any(key[2] == 0 for key in sweeps) else "")
        + " (its wall time on two cores: benchmarks/run.py, measured in its own run)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="a git revision, e.g. a commit or main~5")
    parser.add_argument("after", nargs="?", help="a git revision (default: the working tree)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4000, help="deals of the simulate run")
    parser.add_argument("--hands", type=int, default=400, help="reference hands per round")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="only the commands whose name holds this text (repeatable; 'simulate' selects "
        "both simulate runs, whose difference is the cost per deal)",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="also measure AFTER with its engine compiled by mypyc (hatch_build.py)",
    )
    parser.add_argument(
        "--compiled-before",
        action="store_true",
        help="also measure BEFORE with its engine compiled by mypyc",
    )
    parser.add_argument(
        "--compiled-copies",
        nargs=2,
        type=Path,
        metavar=("BEFORE_DIR", "AFTER_DIR"),
        help="with --compiled-before and --compiled: copies compiled earlier (by "
        "hatch_build.py, as these options make them), measured instead of compiling again",
    )
    parser.add_argument(
        "--sweep",
        type=int,
        metavar="DEALS",
        help="also measure the sweep play on DEALS deals per policy (benchmarks/sweepplay.py)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="with --sweep: time the sweep play inside one process per revision and round "
        "(a 1-deal warm-up, then DEALS deals), rather than DEALS deals less 1 deal of two "
        "fresh processes",
    )
    args = parser.parse_args()
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="bouillotte-revisions-") as folder:
        base = Path(folder)
        sources = {"before": checkout(args.before, base / "before")}
        sources["after"] = checkout(args.after, base / "after") if args.after else ROOT
        try:
            copies = args.compiled_copies
            if args.compiled_before:
                sources["before-compiled"] = (
                    copies[0] if copies else compiled_copy(args.before, base / "before-compiled")
                )
            if args.compiled:  # inside the try: a failed compile still removes the worktrees
                sources["compiled"] = (
                    copies[1] if copies else compiled_copy(args.after, base / "compiled")
                )
            table = {
                name: words
                for name, words in commands(args.deals, base / "site").items()
                if not args.only or any(part in name for part in args.only)
            }
            cpu: dict[tuple[str, str], list[float]] = {}
            sweeps: dict[tuple[str, str, int], list[float]] = {}
            reference_rate: list[float] = []
            for round_number in range(args.rounds):
                start = time.process_time()
                reference.pokerkit_hands(args.hands)
                reference_rate.append(args.hands / (time.process_time() - start))
                for name, words in table.items():
                    for label, source in sources.items():
                        cache = base / f"cache-{label}"
                        cpu.setdefault((label, name), []).append(run_command(source, cache, *words))
                in_process = bool(args.sweep and args.in_process)
                for label, source in sources.items() if in_process else ():
                    timed = run_sweep_in_process(source, base / f"cache-{label}", args.sweep)
                    for policy, spent in timed.items():
                        sweeps.setdefault((label, policy, 0), []).append(spent)
                for policy in sweepplay.BUNDLED_POLICIES if args.sweep and not in_process else ():
                    for deals in (args.sweep, 1):
                        for label, source in sources.items():
                            spent = run_sweep_sample(source, base / f"cache-{label}", policy, deals)
                            sweeps.setdefault((label, policy, deals), []).append(spent)
                print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        finally:
            for label, source in sources.items():
                if source != ROOT and not label.endswith("compiled"):
                    subprocess.run(
                        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)],
                        check=False,
                    )

    def median(label: str, name: str) -> float:
        return statistics.median(cpu[(label, name)])

    def per_deal(label: str) -> list[float]:
        many, one = cpu[(label, simulated[0])], cpu[(label, simulated[1])]
        return [(m - o) / (args.deals - 1) for m, o in zip(many, one, strict=True)]

    table_names = list(table)
    simulated = [name for name in table_names if name.startswith("simulate")]
    measured = [name for name in table_names if name not in simulated]
    labels = list(sources)
    after = args.after or "working tree"
    print(
        f"before: {args.before}   after: {after}"
        + ("   compiled: after, compiled" if args.compiled else "")
        + ("   before-compiled: before, compiled" if args.compiled_before else "")
    )
    print(f"median of {args.rounds} interleaved rounds, CPU time of a fresh process")
    load = ", ".join(f"{a:.1f}" for a in (*load_before[:1], os.getloadavg()[0]))
    print(f"load (1-minute average) at the start and the end: {load}\n")
    head = "".join(f" {label:>12} |" for label in labels)
    ratio_head = "".join(f" {label + '/before':>17} |" for label in labels[1:])
    print(f"| {'workload':<40} |{head}{ratio_head}")
    print(f"|{'-' * 42}|" + f"{'-' * 14}|" * len(labels) + f"{'-' * 19}|" * (len(labels) - 1))
    for name in measured:
        values = [median(label, name) for label in labels]
        cells = "".join(f" {v:>12.3f} |" for v in values)
        ratio_cells = "".join(f" {v / values[0]:>17.2f} |" for v in values[1:])
        print(f"| {name + ', CPU s':<40} |{cells}{ratio_cells}")
    pk = statistics.median(reference_rate)
    notes = [print_sweep(sweeps, labels, args.sweep)] if args.sweep else []
    notes.append(f"PokerKit reference hand: {pk:,.0f} hands per CPU-s (median of the rounds)")
    if len(simulated) < 2:
        print("\n" + "\n".join(notes))
        return
    costs = {label: statistics.median(per_deal(label)) * 1e6 for label in labels}
    name = "simulate foster simple, CPU µs per deal"
    cells = "".join(f" {costs[label]:>12.1f} |" for label in labels)
    ratio_cells = "".join(f" {costs[label] / costs['before']:>17.2f} |" for label in labels[1:])
    print(f"| {name:<40} |{cells}{ratio_cells}")
    ratios = {}
    for label in labels:
        rates = [1 / d for d in per_deal(label)]
        ratios[label] = statistics.median(r / p for r, p in zip(rates, reference_rate, strict=True))
    name = "simulate foster simple, x PokerKit hand"
    cells = "".join(f" {ratios[label]:>11.1f}x |" for label in labels)
    ratio_cells = "".join(f" {ratios[label] / ratios['before']:>17.2f} |" for label in labels[1:])
    print(f"| {name:<40} |{cells}{ratio_cells}")
    print("\n" + "\n".join(notes))


if __name__ == "__main__":
    main()
