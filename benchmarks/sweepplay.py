"""The sweep's play, measured: Foster's system with every rule of finitely many values
switched alone (the full sweep, ``bouillotte sweep foster --all-rules``), a sample of deals
under each policy, and the full sweep's cost extrapolated from it.

A "sweep play" is one deal under one combination (the base counted as one): the CPU of a
sample divided by deals times rows. The same code runs on any revision of the engine (the
combinations are built from ``--vary RULE`` one rule at a time where the revision has no
``--all-rules``), so ``benchmarks/revisions.py`` can compare revisions in one run:

    python benchmarks/sweepplay.py POLICY DEALS     (one sample, nothing printed)
    python benchmarks/sweepplay.py --in-process DEALS [--json]   (each policy timed in this
                                   process; --json: {policy: µs of CPU per play})
"""

from __future__ import annotations

import functools
import json
import sys
from typing import Any

from bouillotte.rules.profiles import Library

FULL_DEALS = 1_000_000
"""Deals per row of the full sweep whose cost is estimated (issue #27)."""
FULL_POLICIES = ("simple", "advised", "bold")
"""The full sweep's players (``ALL_RULES_POLICIES``)."""
BUNDLED_POLICIES = ("simple", "cautious", "random", "advised", "bold", "table")
WALL_DEALS = 300
"""Deals of the sample timed in wall time with two worker processes (:func:`two_cores`)."""


def full_sweep_combinations(base: Any) -> list[Any]:
    """Every rule of finitely many values, each other value alone; rules that act between
    deals and misdeal rules left out, as ``--all-rules`` leaves them."""
    try:
        from bouillotte.study.sweep_combinations import all_rule_combinations
    except ImportError:  # a revision before --all-rules
        return _by_vary(base)
    return all_rule_combinations(base)[0]


def _by_vary(base: Any) -> list[Any]:
    from pydantic import BaseModel

    from bouillotte.rules.errors import InputError
    from bouillotte.rules.profile import GROUPS, rule_paths
    from bouillotte.study import sweep

    found = []
    for path in rule_paths():
        group, name = path.split(".")
        if group in ("session", "misdeals") or path in sweep.SESSION_RULES:  # type: ignore[attr-defined]
            continue
        model: Any = GROUPS[group].model_fields[name].annotation
        nested = isinstance(model, type) and issubclass(model, BaseModel)
        for part in [f"{path}.{p}" for p in model.model_fields] if nested else [path]:
            try:
                sweep.parse_vary(part)  # type: ignore[attr-defined]
            except InputError:
                continue  # not a rule of finitely many values
            found += sweep.vary_combinations(base, [part])  # type: ignore[attr-defined]
    return found


@functools.cache
def _full_sweep() -> tuple[Any, list[Any]]:
    """Foster's system and the full sweep's combinations, made once per process (as the
    command makes them once, however many deals it plays), then what the command does
    before it plays: a revision whose command freezes what it loaded
    (``bouillotte.cli.collector``) has it frozen here too, one whose command does not has
    it left as it is."""
    base = Library().get("foster")
    found = base, full_sweep_combinations(base)
    try:
        from bouillotte.cli.collector import prepare_for_a_long_run
    except ImportError:  # a revision whose commands leave the collector alone
        pass
    else:
        prepare_for_a_long_run()
    return found


def sample(policy: str, deals: int) -> int:
    """Deals ``0`` to ``deals - 1`` of the full sweep under ``policy``; returns the plays
    (deals times rows, the base included)."""
    from bouillotte.study.sweep import run_sweep

    base, combinations = _full_sweep()
    run_sweep(base, combinations, [policy], deals, seed=1)
    return deals * (1 + sum(c.variant is not None for c in combinations))


def two_cores(deals: int = WALL_DEALS) -> tuple[float, float]:
    """The sample of the full sweep under its players, ``--jobs 2`` as the command runs it,
    timed in this run: (wall seconds per play, CPU seconds per play of this process and
    its workers). Two processes on this machine are whatever its load leaves them: a
    figure measured here, never a constant carried from another day (issue 48: 0.64 to
    1.13 times one process under load, against the 1.8 once assumed)."""
    import resource
    import time

    from bouillotte.study.sweep import run_sweep

    base, combinations = _full_sweep()
    plays = deals * (1 + sum(c.variant is not None for c in combinations))
    plays *= len(FULL_POLICIES)

    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cpu, kids, wall = time.process_time(), children(), time.perf_counter()
    run_sweep(base, combinations, list(FULL_POLICIES), deals, seed=1, jobs=2)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu + children() - kids
    return wall / plays, cpu / plays


def rows() -> int:
    return 1 + len(_full_sweep()[1])


def in_process(deals: int) -> list[float]:
    """The sweep play per bundled policy, in µs of CPU, timed inside this process (after a
    1-deal warm-up), so that no start-up is counted: a firmer figure than a small sample
    less a 1-deal one on a loaded machine."""
    import time

    from bouillotte.study.sweep import run_sweep

    base, combinations = _full_sweep()
    count = 1 + sum(c.variant is not None for c in combinations)
    spent = []
    for policy in BUNDLED_POLICIES:
        run_sweep(base, combinations, [policy], 1, seed=1)
        start = time.process_time()
        run_sweep(base, combinations, [policy], deals, seed=1)
        spent.append((time.process_time() - start) / (deals * count) * 1e6)
    return spent


if __name__ == "__main__":
    if sys.argv[1] == "--in-process":
        plays = in_process(int(sys.argv[2]))
        if sys.argv[3:] == ["--json"]:
            print(json.dumps(dict(zip(BUNDLED_POLICIES, plays, strict=True))))
            sys.exit()
        full = [plays[BUNDLED_POLICIES.index(p)] for p in FULL_POLICIES]
        print(
            " ".join(f"{p} {x:.1f}" for p, x in zip(BUNDLED_POLICIES, plays, strict=True))
            + f" | mean {sum(plays) / len(plays):.1f} | {', '.join(FULL_POLICIES)}: "
            + f"{sum(full) / len(full):.1f} (us CPU per sweep play)"
        )
    else:
        sample(sys.argv[1], int(sys.argv[2]))
