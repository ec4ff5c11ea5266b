"""``docs/api.md`` is a notebook session that runs as written (issue 50): every ``pycon``
block, in the order of the document and in one namespace, prints what the document shows
(``doctest``, spaces between words not counted: a DataFrame's columns are aligned by
pandas). A change to the API, or to a figure it prints, fails here until the document says
it too."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from .conftest import ROOT

DOC = ROOT / "docs" / "api.md"
BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.MULTILINE | re.DOTALL)

pytestmark = pytest.mark.slow  # some ten seconds: a simulation and a sweep, then pandas


def session(text: str) -> str:
    """The ``pycon`` blocks of a document, in order, as one doctest; each block is
    padded to its own line number, so that a failure names the document's line."""
    parts: list[str] = []
    for found in BLOCK.finditer(text):
        line = text.count("\n", 0, found.start(1))
        parts.append("\n" * (line - sum(p.count("\n") for p in parts)) + found.group(1))
    return "".join(parts)


def test_session_blocks_are_found() -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 8
    assert all(block.startswith(">>> ") for block in blocks)
    # Each line of the session stands at its line of the document (failures name it).
    doc_lines, run_lines = text.splitlines(), session(text).splitlines()
    for number, line in enumerate(run_lines):
        assert not line or doc_lines[number] == line, number + 1


def test_the_api_document_runs_as_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(tmp_path / "cache"))
    test = doctest.DocTestParser().get_doctest(
        session(DOC.read_text(encoding="utf-8")), {}, "api.md", str(DOC), 0
    )
    report: list[str] = []
    runner = doctest.DocTestRunner(
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS, verbose=False
    )
    runner.run(test, out=report.append)
    assert runner.failures == 0, "\n".join(report)
    assert runner.tries >= 30
