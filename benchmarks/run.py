"""Benchmarks: the engine and the commands against the reference PokerKit hand, in one run.

Run:  python benchmarks/run.py [--rounds 5] [--quick] [--only TEXT] [--json FILE] [--profile]

(after ``pip install -e ".[test,bench]"``; the ``bench`` extra brings PokerKit). The machine
is shared and noisy, so every figure is measured in this run, as CPU time (and wall time
beside it), in several rounds in which every workload runs once, interleaved; the table gives
the median over the rounds. Engine speeds are given as a ratio to the reference hand
(``benchmarks/reference.py``: PokerKit's ``State``, four players, five hole cards, ante 1,
one fixed-limit street, scripted check, bet, fold, call, call), each ratio taken within a
round and then the median, so a slower or faster machine changes both sides alike.

Every timed call starts after a full garbage collection (``gc.collect()``, not timed). This
process holds every workload's set-up (about 114,000 objects the collector follows, against
36,000-46,000 in a ``bouillotte simulate`` process), and Python collects the oldest
generation once the objects that reached it since the last time pass a quarter of those
already there. Without the collection between calls, one of the whole heap (45-63 ms) fell
every few rows, on the same row in every round, and doubled it: ``simulate pagat, random``
took 101-150 us a deal in all ten rounds of two runs, against 49-80 us with it (the other
random rows alike in both). A row pays for the young collections its own objects cause; it
no longer pays for full ones. A run of ``simulate -v pagat --policy random --deals 20000
--jobs 1`` made 3 or 4, 17-38 ms each (three runs, start-up included), when this was
written; on 2 December 2026 it made none (pure and compiled, counted with ``gc.callbacks``),
and a sweep freezes what it loaded (docs/simulation.md, "The garbage collector").

Workloads: ``simulate`` as the command plays it (``bouillotte.study.simulate.simulate``) for each
bundled variant under each of the six bundled policies, its ratio to the reference hand given
per deal requested and per deal dealt; the bare per-deal loop (a fresh ``Random(i)`` per
deal, deal and classify); the sweep play under each policy; exact odds for every bundled
variant; and the command line (``bouillotte --help``, ``variants list``, ``check``, ``odds``,
``site build``) in fresh processes, start-up included, whose CPU is read from the children's
resource usage (the site build with a cache of its own, cold in the first round only). With
the sweep play measured, the full sweep is given in CPU-hours and in wall time on two cores,
from samples run with ``--jobs 2`` in the same run (``sweepplay.two_cores``), with the load.
``--profile`` prints the engine's hot path; ``--jobs-speedup DEALS`` compares ``simulate
--jobs 2`` with ``--jobs 1`` in wall time instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference
import sweepplay

from bouillotte.play import is_compiled
from bouillotte.rules.profiles import Library
from bouillotte.study.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def _engine() -> str:
    """Which engine this run measures, and where it was imported from."""
    import bouillotte

    where = Path(bouillotte.__file__).resolve()
    # A venv inside the checkout (.venv/) holds an installed wheel too: site-packages says.
    in_tree = ROOT in where.parents and "site-packages" not in where.parts
    installed = "an editable install" if in_tree else "an installed wheel"
    kind = "compiled by mypyc" if is_compiled() else "pure Python"
    return f"{kind} ({installed}, {where.parent})"


ENGINE = _engine()


@dataclass
class Workload:
    name: str
    run: Callable[[], int]
    """Does the work once; returns how many items (hands, deals, builds) it did."""
    unit: str
    child: bool = False
    """The work runs in child processes: read their CPU from RUSAGE_CHILDREN."""
    less: Callable[[], int] | None = None
    """A smaller run of the same work, timed just before ``run`` in every round: the row is
    the difference of the two (CPU, wall time and items), so that a set-up both pay (the
    sweep's rows and tallies) is not counted as work."""
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    items: int = 0
    dealt: list[float] = field(default_factory=list)
    """For ``simulate``: the deals dealt per deal counted, the deals played on a void deal's
    carried pool included (``Tally.played_on``); the same in every round."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(run: Callable[[], int]) -> tuple[int, float, float]:
    """(items, CPU seconds, wall seconds) of one call of ``run``."""
    own, kids, wall = time.process_time(), _children_cpu(), time.perf_counter()
    items = run()
    wall = time.perf_counter() - wall
    cpu = (time.process_time() - own) + (_children_cpu() - kids)
    return items, cpu, wall


def measure(work: Workload) -> None:
    gc.collect()  # the harness's heap collected between timed calls, never inside one
    items, cpu, wall = _timed(work.run)
    if work.less is not None:
        gc.collect()
        fewer, less_cpu, less_wall = _timed(work.less)
        items, cpu, wall = items - fewer, max(cpu - less_cpu, 0.0), max(wall - less_wall, 0.0)
    work.items = items
    work.cpu.append(cpu)
    work.wall.append(wall)


def simulate_work(
    variant_id: str, policy: str, deals: int, dealt: list[float]
) -> Callable[[], int]:
    """``simulate`` of ``deals`` deals; appends to ``dealt`` the deals dealt per deal (a deal
    counts with those played on its carried pool, as the command counts it)."""
    variant = Library().get(variant_id)

    def run() -> int:
        tally = simulate(variant, deals, seed=1, policy=policy)
        dealt.append((tally.deals + tally.played_on) / tally.deals)
        return deals

    return run


def sweep_work(policy: str, deals: int) -> Callable[[], int]:
    """A sample of the full sweep: ``deals`` deals under every row, one policy (the rows
    made once for the whole run, as the command makes them once)."""

    def run() -> int:
        return sweepplay.sample(policy, deals)

    return run


def odds_work() -> Callable[[], int]:
    from bouillotte.study.odds import compute_odds, forget_counts, odds_key

    def run() -> int:
        forget_counts()  # every round counts afresh, as a new process does
        # as `bouillotte odds` does: one count per distinct pack, hands and point rule
        seen: set[str] = set()
        for variant in Library().all():
            key = odds_key(variant.rules)
            if key not in seen:
                seen.add(key)
                try:
                    compute_odds(variant.rules)
                except ValueError:  # not counted (a draw), as the command says
                    continue
        return 1

    return run


SITE_CACHE = Path(tempfile.mkdtemp(prefix="bench-site-cache-"))
"""The site build's own cache for this run: cold in the first round, warm after it (the
median is a user's warm build)."""


def site_work() -> Callable[[], int]:
    """``bouillotte site build`` as a user runs it: a fresh process, start-up and imports
    included (issue 48: a build timed inside a running process left them out)."""
    command = [str(Path(sys.executable).with_name("bouillotte")), "site", "build", "--out"]
    env = {**os.environ, "BOUILLOTTE_CACHE": str(SITE_CACHE)}

    def run() -> int:
        with tempfile.TemporaryDirectory() as folder:
            out = str(Path(folder) / "site")
            subprocess.run([*command, out], check=True, capture_output=True, env=env)
        return 1

    return run


def command_work(*words: str) -> Callable[[], int]:
    # the console script installed beside this Python, as a user runs it
    command = [str(Path(sys.executable).with_name("bouillotte")), *words]

    def run() -> int:
        subprocess.run(command, check=True, capture_output=True)
        return 1

    return run


def workloads(quick: bool) -> list[Workload]:
    scale = 1 if not quick else 5
    out = [
        Workload(
            "PokerKit reference hand", lambda: reference.pokerkit_hands(2000 // scale), "hands"
        ),
        Workload("bare per-deal loop", lambda: reference.bare_deals(20000 // scale), "deals"),
    ]
    foster: list[float] = []
    out.append(
        Workload(
            "simulate foster, simple",
            simulate_work("foster", "simple", 4000 // scale, foster),
            "deals",
            dealt=foster,
        )
    )
    for variant in Library().all():
        for policy in sweepplay.BUNDLED_POLICIES:
            if (variant.id, policy) == ("foster", "simple"):
                continue
            dealt: list[float] = []
            out.append(
                Workload(
                    f"simulate {variant.id}, {policy}",
                    simulate_work(variant.id, policy, 1000 // scale, dealt),
                    "deals",
                    dealt=dealt,
                )
            )
    for policy in sweepplay.BUNDLED_POLICIES:
        out.append(
            Workload(
                f"sweep play foster --all-rules, {policy}",
                sweep_work(policy, max(2, 40 // scale) + 1),
                "plays",
                less=sweep_work(policy, 1),
            )
        )
    out += [
        Workload("odds, every bundled variant", odds_work(), "runs"),
        Workload("bouillotte site build (fresh process)", site_work(), "builds", child=True),
    ]
    return out + command_workloads()


def command_workloads() -> list[Workload]:
    """The command line as a user starts it, each in a fresh process: start-up included."""
    return [
        Workload("bouillotte --help", command_work("--help"), "runs", child=True),
        Workload("bouillotte variants list", command_work("variants", "list"), "runs", child=True),
        Workload("bouillotte check", command_work("check"), "runs", child=True),
        Workload("bouillotte odds (every variant)", command_work("odds"), "runs", child=True),
    ]


def _arithmetic(_: int) -> float:
    """Wall seconds of a loop of pure arithmetic: nothing shared, nothing to pickle."""
    start = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i * i
    return time.perf_counter() - start


def parallel_ceiling(rounds: int) -> float:
    """How much faster two processes do two loops of pure arithmetic than one process does
    one (median of ``rounds``): what this machine allows ``--jobs 2`` at best."""
    import multiprocessing

    ratios = []
    with multiprocessing.Pool(2) as pool:
        for _ in range(rounds):
            one = _arithmetic(0)
            start = time.perf_counter()
            pool.map(_arithmetic, [0, 1])
            ratios.append(2 * one / (time.perf_counter() - start))
    return statistics.median(ratios)


def jobs_speedup(deals: int, rounds: int) -> None:
    """``simulate --jobs 2`` against ``--jobs 1`` on the same deals: the wall-time ratio
    (median of interleaved rounds), with the machine's load beside it, since on a shared
    machine the second process competes with everyone else's, and the machine's own
    ceiling: two processes of pure arithmetic against one."""
    import os

    variant = Library().get("foster")
    walls: dict[int, list[float]] = {1: [], 2: []}
    loads = []
    for _ in range(rounds):
        loads.append(os.getloadavg()[0])
        for jobs in (1, 2):
            start = time.perf_counter()
            simulate(variant, deals, seed=1, policy="simple", jobs=jobs)
            walls[jobs].append(time.perf_counter() - start)
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    print(
        f"simulate foster, {deals:,} deals: --jobs 1 {one:.1f} s, --jobs 2 {two:.1f} s wall, "
        f"speed-up {one / two:.2f}x (median of {rounds}); load average "
        f"{min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} processors; "
        f"two processes of pure arithmetic: {parallel_ceiling(rounds):.2f}x"
    )


def table(works: list[Workload]) -> list[dict[str, object]]:
    reference_work = works[0]
    rows = []
    for work in works:
        cpu_rates = [work.items / c if c else 0.0 for c in work.cpu]
        wall_rates = [work.items / w if w else 0.0 for w in work.wall]
        ref_cpu = [reference_work.items / c for c in reference_work.cpu]
        ref_wall = [reference_work.items / w for w in reference_work.wall]
        row: dict[str, object] = {
            "workload": work.name,
            "unit": work.unit,
            "cpu_s": statistics.median(work.cpu) / max(work.items, 1),
            "wall_s": statistics.median(work.wall) / max(work.items, 1),
            "per_cpu_s": statistics.median(cpu_rates),
            "per_wall_s": statistics.median(wall_rates),
        }
        if work.unit in ("deals", "hands", "plays"):
            row["x_pokerkit_cpu"] = statistics.median(
                r / ref for r, ref in zip(cpu_rates, ref_cpu, strict=True)
            )
            row["x_pokerkit_wall"] = statistics.median(
                r / ref for r, ref in zip(wall_rates, ref_wall, strict=True)
            )
        if work.dealt:
            # A deal of `simulate` is dealt again while void deals play on its pool: the
            # reference hand is one hand, so the ratio per deal dealt compares like with like.
            dealt = statistics.median(work.dealt)
            row["dealt_each"] = dealt
            row["x_pokerkit_cpu_per_dealt"] = _number(row, "x_pokerkit_cpu") * dealt
        rows.append(row)
    return rows


def _number(row: dict[str, object], key: str) -> float:
    value = row[key]
    if not isinstance(value, int | float):
        raise TypeError(f"{key} is not a number: {value!r}")
    return float(value)


def print_table(rows: list[dict[str, object]], rounds: int) -> None:
    print(f"median of {rounds} interleaved rounds; CPU time (and the wall-time ratio)")
    print(f"engine: {ENGINE}\n")
    head = (
        f"{'workload':44} {'per CPU-s':>12} {'x PokerKit (CPU)':>17} {'x (wall)':>9} "
        f"{'CPU each':>10} {'dealt each':>10} {'x per dealt':>11}"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        counted = row["unit"] in ("deals", "hands", "plays")
        rate = f"{row['per_cpu_s']:,.0f} {row['unit']}" if counted else ""
        ratio = f"{row['x_pokerkit_cpu']:.1f}x" if "x_pokerkit_cpu" in row else ""
        wall = f"{row['x_pokerkit_wall']:.1f}x" if "x_pokerkit_wall" in row else ""
        cpu = _number(row, "cpu_s")
        each = f"{1e6 * cpu:,.0f} us" if counted else f"{1000 * cpu:,.0f} ms"
        dealt = f"{row['dealt_each']:.2f}" if "dealt_each" in row else ""
        per_dealt = (
            f"{row['x_pokerkit_cpu_per_dealt']:.1f}x" if "x_pokerkit_cpu_per_dealt" in row else ""
        )
        print(
            f"{row['workload']:44} {rate:>12} {ratio:>17} {wall:>9} {each:>10} {dealt:>10} "
            f"{per_dealt:>11}"
        )
    print(
        "\nA deal of simulate is played to its end: where it is void, the deals played on its "
        "carried pool\nare part of it ('dealt each': deals dealt per deal counted; 'x per "
        "dealt': the CPU ratio per deal\ndealt, like for like with the one reference hand). A "
        "sweep play is one deal (with those played on\nits pool) under one row of the full "
        "sweep: the CPU of DEALS + 1 deals less that of 1 deal, so the\nrows' set-up is not "
        "counted as play. Each timed call starts after a full garbage collection (not\n"
        "timed): the rows leave out the full collections a long command makes\n"
        "(docs/simulation.md, 'Benchmarks')."
    )
    simulated = [r for r in rows if str(r["workload"]).startswith("simulate ")]
    if simulated:
        for words, key in (
            ("per deal requested", "x_pokerkit_cpu"),
            ("per deal dealt", "x_pokerkit_cpu_per_dealt"),
        ):
            ratios = [_number(r, key) for r in simulated]
            under = [
                str(r["workload"]).removeprefix("simulate ")
                for r, x in zip(simulated, ratios, strict=True)
                if x < AIM
            ]
            print(
                f"simulate rows ({len(simulated)}, {len(sweepplay.BUNDLED_POLICIES)} policies), "
                f"{words}: {min(ratios):.1f}x to {max(ratios):.1f}x PokerKit; "
                f"{len(under)} under {AIM:.0f}x" + (f": {'; '.join(under)}" if under else "")
            )


AIM = 20.0
"""Issue 27's aim for every ``simulate`` row: at least this many times the reference hand."""


def print_sweep(rows: list[dict[str, object]]) -> None:
    """The sweep play against its target, and the full sweep extrapolated from it."""
    plays = {
        str(r["workload"]).rsplit(", ", 1)[1]: float(r["cpu_s"])  # type: ignore[arg-type]
        for r in rows
        if str(r["workload"]).startswith("sweep play")
    }
    if not plays:
        return
    mean = statistics.mean(plays.values())
    print(
        f"\nsweep play (one deal under one combination of the full sweep, averaged over the "
        f"{len(plays)} policies measured): {1e6 * mean:.1f} us of CPU (target <= 35 us, "
        "compiled, idle machine)"
    )
    if not all(p in plays for p in sweepplay.FULL_POLICIES):
        return
    count = sweepplay.rows()
    cpu = sum(plays[p] for p in sweepplay.FULL_POLICIES) * count * sweepplay.FULL_DEALS
    print(
        f"full sweep ({count} rows, the base included, x {len(sweepplay.FULL_POLICIES)} "
        f"policies x {sweepplay.FULL_DEALS:,} deals), extrapolated from the sample per row: "
        f"{cpu / 3600:.2f} CPU-hours"
    )


def print_two_cores(rounds: int) -> None:
    """The full sweep's wall time on two cores, from samples timed with ``--jobs 2`` in this
    run (median of ``rounds``), with the load they ran under."""
    loads, walls, cpus = [], [], []
    for _ in range(rounds):
        loads.append(os.getloadavg()[0])
        wall, cpu = sweepplay.two_cores()
        walls.append(wall)
        cpus.append(cpu)
    loads.append(os.getloadavg()[0])
    plays = sweepplay.rows() * len(sweepplay.FULL_POLICIES) * sweepplay.FULL_DEALS
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(
        f"full sweep with --jobs 2, from {rounds} samples of {sweepplay.WALL_DEALS} deals x "
        f"{sweepplay.rows()} rows x {len(sweepplay.FULL_POLICIES)} policies timed in this run "
        f"(workers' start-up included): {plays * cpu / 3600:.2f} CPU-hours, "
        f"{plays * wall / 3600:.2f} hours of wall time on this {os.cpu_count()}-core machine "
        f"(CPU / wall {cpu / wall:.2f}); load {min(loads):.1f} to {max(loads):.1f} "
        "(target <= 1 hour)"
    )


def profile(deals: int) -> str:
    variant = Library().get("foster")
    profiler = cProfile.Profile()
    profiler.enable()
    simulate(variant, deals, seed=1, policy="simple")
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--quick", action="store_true", help="a fifth of the work per round")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of simulate")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="only the workloads whose name holds this text (repeatable; the reference hand "
        "always runs, every ratio being to it)",
    )
    parser.add_argument(
        "--jobs-speedup",
        type=int,
        metavar="DEALS",
        help="only compare simulate --jobs 2 with --jobs 1 on DEALS deals (wall time)",
    )
    args = parser.parse_args()
    if args.jobs_speedup:
        jobs_speedup(args.jobs_speedup, args.rounds)
        return
    if reference.pk is None:
        sys.exit('PokerKit is missing: pip install -e ".[bench]"')
    if not reference.pokerkit_sane():
        sys.exit("the PokerKit reference hand does not conserve chips")
    if args.profile:
        print(profile(3000))
        return
    works = workloads(args.quick)
    if args.only:
        works = works[:1] + [w for w in works[1:] if any(o in w.name for o in args.only)]
    loads = []
    for number in range(1, args.rounds + 1):
        print(f"round {number}/{args.rounds}", file=sys.stderr, flush=True)
        loads.append(os.getloadavg()[0])
        for work in works:
            measure(work)
    loads.append(os.getloadavg()[0])
    rows = table(works)
    print_table(rows, args.rounds)
    print_sweep(rows)
    if any(w.name.startswith("sweep play") for w in works):
        print_two_cores(args.rounds)
    print(
        f"\nload (1-minute average) over the rounds: {min(loads):.1f} to {max(loads):.1f} "
        f"on {os.cpu_count()} processors"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
