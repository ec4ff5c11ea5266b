"""The strong-play solver of two engines: walking a tree and CFR+ over it, interleaved.

Run:  python benchmarks/solver.py BEFORE_ENGINE AFTER_ENGINE [--rounds 5] [--deals 10]
      [--iterations 30] [--variant foster]

Each ENGINE is a folder that holds an ``engine/`` tree (a checkout: ``git worktree add``).
In every round, one fresh process per engine (``PYTHONPATH=ENGINE/engine``) times the
reference PokerKit hand (``reference.py``), then walks the abstracted game of
``strong solve -v VARIANT --cave 100 --deals N --classes 4`` (pot bets, two raises,
straddles: the stored four-player strategy's abstraction) whole, and merged where the
engine has ``strong/merge.py`` (``strong solve --merge``), and runs ``--iterations``
CFR+ iterations over each tree. A figure is CPU time: the walk's per deal, CFR+'s per
state and iteration, each with its ratio to the reference hand taken in that process;
the table gives the medians over the rounds. The engines alternate round by round, so a
slower spell of this shared host falls on both. Needs numpy and PokerKit (the ``strong``
and ``bench`` extras).
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from interleave import engines, engines_parser, interleaved, positive

HERE = Path(__file__).resolve().parent


def measure(variant: str, deals: int, iterations: int, hands: int) -> dict[str, Any]:
    """One round in this process: the reference hand, then the walks and CFR+ runs."""
    sys.path.insert(0, str(HERE))
    import reference

    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.core import table_for
    from bouillotte.strong.solve import build_tree, cfr_plus

    gc.collect()
    start = time.process_time()
    reference.pokerkit_hands(hands)
    ref = (time.process_time() - start) / hands
    abstraction = Abstraction(100, ("pot",), 2, True, deals, 4, 1)
    trees: dict[str, Any] = {}
    figures: dict[str, float] = {}
    table = table_for(variant, abstraction)
    gc.collect()
    start = time.process_time()
    trees["whole"] = build_tree(table, 10_000_000)
    figures["walk, whole tree (per deal)"] = (time.process_time() - start) / deals
    try:
        from bouillotte.strong.merge import merged_tree
    except ImportError:
        pass
    else:
        table = table_for(variant, abstraction)
        gc.collect()
        start = time.process_time()
        trees["merged"], _ = merged_tree(table, 10_000_000)
        figures["walk, merged tree (per deal)"] = (time.process_time() - start) / deals
    states = {name: len(tree.actor) for name, tree in trees.items()}
    for name, tree in trees.items():
        gc.collect()
        start = time.process_time()
        cfr_plus(tree, iterations)
        spent = time.process_time() - start
        figures[f"CFR+, {name} tree (per state and iteration)"] = spent / iterations / states[name]
        figures[f"CFR+, {name} tree (per iteration)"] = spent / iterations
    return {"reference": ref, "figures": figures, "states": states}


def main() -> None:
    parser = engines_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=positive, default=5, help="interleaved rounds")
    parser.add_argument("--deals", type=positive, default=10, help="sampled deals")
    parser.add_argument("--iterations", type=positive, default=30, help="CFR+ iterations")
    parser.add_argument("--hands", type=positive, default=300, help="reference hands a round")
    parser.add_argument("--variant", default="foster", help="a bundled system")
    args = parser.parse_args()
    if args.child:
        found = measure(args.variant, args.deals, args.iterations, args.hands)
        print(json.dumps(found))
        return
    folders = engines(parser, args, "engine/bouillotte/strong")
    child = ["--variant", args.variant, "--deals", str(args.deals)]
    child += ["--iterations", str(args.iterations), "--hands", str(args.hands)]
    runs, loads = interleaved(__file__, folders, args.rounds, child)
    report(runs, loads, args)


def report(runs: dict[str, list[dict[str, Any]]], loads: list[float], args: Any) -> None:
    """The table: each figure's median CPU and its ratio to the reference hand."""
    print(
        f"{args.variant}, {args.deals} sampled deals, {args.iterations} CFR+ iterations, "
        f"{args.rounds} rounds; load {min(loads):.2f} to {max(loads):.2f}"
    )
    for label in runs:
        first = runs[label][0]
        trees = ", ".join(f"{name} {size:,}" for name, size in first["states"].items())
        ref = statistics.median(float(r["reference"]) for r in runs[label])
        print(f"{label}: states {trees}; reference hand {ref * 1e3:.2f} ms")
    names = list(dict.fromkeys(n for label in runs for n in runs[label][0]["figures"]))
    print(f"{'figure':48} {'before':>12} {'after':>12} {'before/ref':>10} {'after/ref':>10}")
    for name in names:
        cells, ratios = [], []
        for label in ("before", "after"):
            if name not in runs[label][0]["figures"]:
                cells.append(f"{'-':>12}")
                ratios.append(f"{'-':>10}")
                continue
            per = [float(r["figures"][name]) for r in runs[label]]
            scale = 1e6 if "state" in name else 1e3
            unit = "us" if "state" in name else "ms"
            cells.append(f"{statistics.median(per) * scale:>9.3f} {unit}")
            ratio = statistics.median(
                float(r["figures"][name]) / float(r["reference"]) for r in runs[label]
            )
            ratios.append(f"{ratio:>10.4g}")
        print(f"{name:48} {cells[0]} {cells[1]} {ratios[0]} {ratios[1]}")


if __name__ == "__main__":
    main()
