"""Every ``simulate`` row of two engines, before and after in one run, interleaved.

Run:  python benchmarks/rows.py BEFORE_ENGINE AFTER_ENGINE [--rounds 7] [--deals 2000]
      [--only TEXT]

Each ENGINE is a folder that holds an ``engine/`` tree (a checkout, or a copy compiled in
place by ``python hatch_build.py FOLDER``, as ``revisions.py --compiled`` makes one). In
every round, one fresh process per engine (``PYTHONPATH=ENGINE/engine``) times the
reference PokerKit hand (``reference.py``) and then every row in turn: ``simulate`` of
``--deals`` deals of each bundled variant under each of the six bundled policies, as the
command plays it, after a full collection (as ``run.py`` does). A row's figure is its
CPU per deal dealt (a deal with those played on its carried pool), and its ratio to the
reference hand is taken in that process, then the median over the rounds. The two engines
alternate round by round, so a slower or faster spell of this shared host falls on both.

``revisions.py`` measures the commands of two git revisions; this measures the rows of
``run.py``'s table, for two engines built beforehand (for instance a compiled copy of
each revision). Needs PokerKit (the ``bench`` extra).
"""

from __future__ import annotations

import gc
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from interleave import engines, engines_parser, interleaved, positive

HERE = Path(__file__).resolve().parent
POLICIES = ("simple", "cautious", "random", "advised", "bold", "table")
AIM = 20.0
"""Issue 27's aim for every row: at least this many times the reference hand."""


def measure(deals: int, hands: int, only: str) -> dict[str, Any]:
    """One round in this process: the reference hand, then every row (run in a child)."""
    sys.path.insert(0, str(HERE))
    import reference

    from bouillotte.play import is_compiled
    from bouillotte.rules.profiles import Library
    from bouillotte.study.simulate import simulate

    gc.collect()
    start = time.process_time()
    reference.pokerkit_hands(hands)
    ref = (time.process_time() - start) / hands
    rows: dict[str, float] = {}
    for variant in Library().all():
        for policy in POLICIES:
            name = f"{variant.id}, {policy}"
            if only not in name:
                continue
            gc.collect()
            start = time.process_time()
            tally = simulate(variant, deals, seed=1, policy=policy)
            rows[name] = (time.process_time() - start) / (tally.deals + tally.played_on)
    return {"compiled": is_compiled(), "reference": ref, "rows": rows}


def main() -> None:
    parser = engines_parser(__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=positive, default=7, help="interleaved rounds, each row's median taken"
    )
    parser.add_argument("--deals", type=positive, default=2000, help="deals of each row")
    parser.add_argument("--hands", type=positive, default=500, help="reference hands per round")
    parser.add_argument("--only", default="", help="only the rows whose name holds this")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.deals, args.hands, args.only)))
        return
    folders = engines(parser, args, "engine/bouillotte")
    child = ["--deals", str(args.deals), "--hands", str(args.hands), "--only", args.only]
    runs, loads = interleaved(__file__, folders, args.rounds, child)
    report(runs, loads, args)


def report(runs: dict[str, list[dict[str, Any]]], loads: list[float], args: Any) -> None:
    """The table: each row's median CPU per deal dealt and ratio, before and after."""

    def engine(label: str) -> str:
        return "compiled" if all(r["compiled"] for r in runs[label]) else "pure"

    def reference(label: str) -> float:
        return statistics.median(float(r["reference"]) for r in runs[label])

    print(
        f"{args.rounds} rounds, {args.deals} deals a row; load {min(loads):.2f} to {max(loads):.2f}"
    )
    for label, folder in (("before", args.before), ("after", args.after)):
        print(
            f"{label}: {folder} ({engine(label)}), reference hand {reference(label) * 1e3:.2f} ms"
        )
    print(f"{'row':34} {'before':>9} {'after':>9} {'before':>7} {'after':>7}")
    worst = {"before": math.inf, "after": math.inf}
    under = {"before": 0, "after": 0}
    for name in runs["before"][0]["rows"]:
        cells = []
        for label in ("before", "after"):
            per = [float(r["rows"][name]) for r in runs[label]]
            ratio = statistics.median(
                float(r["reference"]) / float(r["rows"][name]) for r in runs[label]
            )
            worst[label] = min(worst[label], ratio)
            under[label] += ratio < AIM
            cells.append(f"{statistics.median(per) * 1e6:7.1f}us")
            cells.append(f"{ratio:6.1f}x")
        print(f"{name:34} {cells[0]:>9} {cells[2]:>9} {cells[1]:>7} {cells[3]:>7}")
    for label in ("before", "after"):
        print(
            f"{label}: the slowest row {worst[label]:.1f}x the reference hand;"
            f" {under[label]} under {AIM:.0f}x"
        )


if __name__ == "__main__":
    main()
