"""Every example of the user's documentation runs as written (issue 21).

In ``docs/*.md`` a fenced block is a test when the line before it says so:

- ``<!-- test: file PATH -->`` before a block: its text is written to ``PATH``, in a fresh
  folder of the document's own;
- ``<!-- test: run -->`` before an ``sh`` block: each line is a ``bouillotte`` command run
  in that folder, in order, after the files written so far; it must exit 0, or the status
  its closing comment names (``# exit 2``), and then its message is one ``error:`` line holding the
  words of the comment that follows (``# exit 2: not found word for word``).

A line of the document's own (``<!-- test: edit PATH: OLD => NEW -->``) changes a written
file between two runs (``\\n`` in NEW is a line break). Nothing in the documentation
points outside the repository.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

from .conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
MARK = re.compile(r"^<!-- test: (file (?P<path>\S+)|run|edit (?P<edit>.+)) -->$")
SLOW_DOCS = {"site.md"}
"""Documents whose examples build a site (a few seconds)."""


@dataclass(frozen=True)
class Step:
    kind: str
    """``file``, ``run`` or ``edit``."""
    line: int
    path: str = ""
    text: str = ""


def steps(document: Path) -> list[Step]:
    lines = document.read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        marked = MARK.match(line.strip())
        if not marked:
            continue
        if marked["edit"]:
            found.append(Step("edit", i + 1, text=marked["edit"]))
            continue
        assert lines[i + 1].startswith("```"), f"{document.name}:{i + 2}: a fenced block"
        end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
        body = "\n".join(lines[i + 2 : end]) + "\n"
        kind = "file" if marked["path"] else "run"
        found.append(Step(kind, i + 1, marked["path"] or "", body))
    return found


def run_line(runner: CliRunner, folder: Path, command: str, where: str) -> None:
    words, _, comment = command.partition("#")
    argv = shlex.split(words)
    assert argv[0] == "bouillotte", f"{where}: a bouillotte command"
    expected = re.match(r"\s*exit (\d+)(?::\s*(.*))?", comment)
    status = int(expected[1]) if expected else 0
    cwd = Path.cwd()
    try:
        os.chdir(folder)
        result = CliRunner().invoke(app, argv[1:])
    finally:
        os.chdir(cwd)
    assert result.exit_code == status, f"{where}: {command}\n{result.stdout}\n{result.stderr}"
    if status == 2:
        # one line (after a build's progress lines, which say what it is reading)
        (line,) = [w for w in result.stderr.splitlines() if w.startswith("error:")]
        assert expected and expected[2] and expected[2].strip() in line, f"{where}: {line}"


@pytest.mark.parametrize(
    "document",
    [pytest.param(d, marks=[pytest.mark.slow] if d.name in SLOW_DOCS else []) for d in DOCS],
    ids=[d.name for d in DOCS],
)
def test_every_example_runs(
    document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "work"
    folder.mkdir()
    runner = CliRunner()
    for step in steps(document):
        where = f"{document.name}:{step.line}"
        if step.kind == "file":
            target = folder / step.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
        elif step.kind == "edit":
            path, _, change = step.text.partition(": ")
            old, _, new = change.partition(" => ")
            new = new.replace("\\n", "\n")  # a line break, in a one-line comment
            file = folder / path
            text = file.read_text(encoding="utf-8")
            assert old in text, f"{where}: {old!r} not in {path}"
            file.write_text(text.replace(old, new), encoding="utf-8")
        else:
            for command in step.text.splitlines():
                if command.strip():
                    run_line(runner, folder, command, where)


def test_the_user_documents_have_tested_examples() -> None:
    for name in ("profiles.md", "scenarios.md", "site.md"):
        kinds = {s.kind for s in steps(ROOT / "docs" / name)}
        assert {"file", "run"} <= kinds or (name == "site.md" and "run" in kinds), name


def test_nothing_points_outside_the_repository() -> None:
    tracked = [
        *ROOT.glob("*.md"),
        *(ROOT / "docs").glob("*.md"),
        ROOT / "pyproject.toml",
        *(ROOT / "benchmarks").glob("*.py"),
        *(ROOT / "engine").rglob("*.py"),
    ]
    for file in tracked:
        text = file.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/shared" not in text, file.relative_to(ROOT)
