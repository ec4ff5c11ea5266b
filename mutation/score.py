"""Print the mutation score of the last ``mutation/run``, module by module.

Reads mutmut's results (``mutation/work/mutants/**/*.py.meta``) and the equivalent mutants
listed in ``mutation/equivalent.md`` (lines starting ``- `NAME```), and prints, for each
mutated module, the mutants killed, survived, with no test reaching them, timed out and
excluded as equivalent, and the score: killed / (all - equivalent). A mutant no test
reaches counts against the score, as a survivor does.

    .venv/bin/python mutation/score.py [MUTANTS_FOLDER]

A mutant listed as equivalent that a test kills is reported: the list is out of date.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

HERE = Path(__file__).resolve().parent
COLUMNS = ("killed", "survived", "no tests", "timeout", "equivalent")


def equivalent_names() -> set[str]:
    text = (HERE / "equivalent.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- `([\w.ǁ]+__mutmut_\d+)`", text, flags=re.MULTILINE))


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "work" / "mutants"
    metas = sorted(folder.rglob("*.py.meta"))
    if not metas:
        print("no results: run mutation/run first", file=sys.stderr)
        return 2
    equivalent = equivalent_names()
    rows: dict[str, Counter[str]] = {}
    for meta in metas:
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        if not codes:
            continue
        module = next(iter(codes)).split(".x")[0]
        counts: Counter[str] = Counter()
        for name, code in codes.items():
            status = status_by_exit_code[code]
            if name in equivalent:
                if status == "killed":
                    print(f"listed as equivalent but killed: {name}", file=sys.stderr)
                status = "equivalent"
            counts[status if status in COLUMNS else "survived"] += 1
        rows[module] = counts
    total: Counter[str] = Counter()
    print(f"{'module':32} {'mutants':>7} " + " ".join(f"{c:>10}" for c in COLUMNS) + "  score")
    for module, counts in sorted(rows.items()):
        total.update(counts)
        print(_line(module, counts))
    print(_line("all", total))
    return 0


def _line(label: str, counts: Counter[str]) -> str:
    mutants = sum(counts.values())
    judged = mutants - counts["equivalent"]
    score = f"{100 * counts['killed'] / judged:5.1f}%" if judged else "  -  "
    cells = " ".join(f"{counts[c]:>10}" for c in COLUMNS)
    return f"{label:32} {mutants:>7} {cells}  {score}"


if __name__ == "__main__":
    sys.exit(main())
