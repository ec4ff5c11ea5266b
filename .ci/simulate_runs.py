"""Run each line of stdin as ``bouillotte`` command-line arguments (split as the shell
splits them) and write its stdout to ``OUT/<line number><suffix>.out``, all in the one
process of the Python that runs this file (`.ci/compiled compare` runs it with the pure
engine's and with the compiled engine's, then compares the files byte for byte).

A line ``api`` runs ``.ci/api_tour.py``'s calls of the Python API instead, and writes what
they print.

The commands are the command line's own (Typer's test runner invokes them as the shell
would, arguments parsed, stdout captured as bytes); one process for all of them rather than
one each saves a start-up (importing the package and its libraries: most of a run's CPU).
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from pathlib import Path

from typer.testing import CliRunner

from bouillotte.cli.app import app


def main(out: Path, suffix: str) -> int:
    runner = CliRunner()
    for number, line in enumerate(sys.stdin, 1):
        target = out / f"{number}{suffix}.out"
        if line.strip() == "api":
            sys.path.insert(0, str(Path(__file__).parent))
            import api_tour

            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                api_tour.main()
            target.write_text(printed.getvalue(), encoding="utf-8")
            continue
        argv = shlex.split(line)
        result = runner.invoke(app, argv)
        if result.exit_code != 0:
            print(f"ci: bouillotte {' '.join(argv)}: exit {result.exit_code}", file=sys.stderr)
            print(result.output, result.exception, file=sys.stderr)
            return 1
        target.write_bytes(result.stdout_bytes)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else ""))
