"""``bouillotte simulate -v VARIANT --policy POLICY --deals 500 --seed 7 --json --quiet`` for
every line ``VARIANT POLICY`` of stdin, each run's stdout written to
``OUT/VARIANT-POLICY<suffix>.json``, all in the one process of the Python that runs this
file (`.ci/compiled compare` runs it with the pure engine's and with the compiled engine's).

The commands are the command line's own (Typer's test runner invokes them as the shell
would, arguments parsed, stdout captured as bytes); one process for all of them rather than
one each saves a start-up (importing the package and its libraries: most of a run's CPU).
"""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from bouillotte.cli.app import app


def main(out: Path, suffix: str) -> int:
    runner = CliRunner()
    for line in sys.stdin:
        variant, policy = line.split()
        argv = ["simulate", "-v", variant, "--policy", policy]
        argv += ["--deals", "500", "--seed", "7", "--json", "--quiet"]
        result = runner.invoke(app, argv)
        if result.exit_code != 0:
            print(f"ci: bouillotte {' '.join(argv)}: exit {result.exit_code}", file=sys.stderr)
            print(result.output, result.exception, file=sys.stderr)
            return 1
        (out / f"{variant}-{policy}{suffix}.json").write_bytes(result.stdout_bytes)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else ""))
