"""What the two-engine benchmarks share: their numeric arguments and their round loop.

``rows.py`` and ``solver.py`` each measure two engines (folders holding an ``engine/``
tree), before and after, in one run: every round starts one fresh child process per engine
(``PYTHONPATH=ENGINE/engine``), the two alternating, so a slower or faster spell of this
shared host falls on both. A child prints its figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def positive(text: str) -> int:
    """An argument that must be a whole number above 0."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return number


def engines_parser(description: str) -> argparse.ArgumentParser:
    """A parser of the two engines (``before`` and ``after``), and of ``--child``, which
    makes the script measure one round in its own process."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("before", type=Path, help="a folder holding the engine/ before")
    parser.add_argument("after", type=Path, help="a folder holding the engine/ after")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser


def engines(parser: argparse.ArgumentParser, args: Any, holds: str) -> dict[str, Path]:
    """The two engines' folders, each refused (the usage error) unless it holds ``holds``
    (``engine/bouillotte``, say)."""
    found = {"before": args.before.resolve(), "after": args.after.resolve()}
    for label, folder in found.items():
        if not (folder / holds).is_dir():
            parser.error(f"{label}: {folder} holds no {holds}")
    return found


def interleaved(
    script: str, engines: dict[str, Path], rounds: int, child_args: list[str]
) -> tuple[dict[str, list[dict[str, Any]]], list[float]]:
    """Every round's figures of each engine, and the host's load before and after each round.

    ``script`` is run as ``script ENGINE ENGINE --child *child_args`` in a child process.
    """
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in engines}
    loads = [os.getloadavg()[0]]
    for done in range(rounds):
        for label, folder in engines.items():
            env = {**os.environ, "PYTHONPATH": str(folder / "engine")}
            command = [sys.executable, script, str(folder), str(folder), "--child", *child_args]
            out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            runs[label].append(json.loads(out.stdout))
        loads.append(os.getloadavg()[0])
        print(f"round {done + 1} of {rounds} done", file=sys.stderr)
    return runs, loads
