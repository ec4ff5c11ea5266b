"""Issue 47, round eight: each output format escaped for that format, where round seven's
probe found a way through (each test failed before its fix).

- Markdown: a system's or a work's short name is an editor's plain one-line text; put into
  a scenario's notes, a summary or a work's notes where its id is written, it was read as
  markdown (``![p](https://…)`` became an image on the page, a backtick a code span over
  the rest of the paragraph). It is now put in as its words (``escaping.markdown_text``).
- CSV: a cell holding ``;`` was written unquoted, so a spreadsheet that reads CSV with
  ``;`` (French, German) read ``Paris;=cmd|' /C calc'!A0`` as two cells, the second a
  formula. Every cell holding ``;`` or a tab is now quoted (``escaping.csv_line``).
- BibTeX: C1 control characters (U+0080 to U+009F, among them U+009B, the 8-bit CSI a
  terminal obeys) reached ``.bib`` files as they are.
- The terminal: Click dropped ``ESC[...m`` from a report piped to a file, before the stream
  showed it as ``\\u001b``: the file silently lost what the value held. And the characters
  that show nothing (U+200B, U+FEFF, a soft hyphen, the tag characters) were printed raw:
  two titles that read the same could differ.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bouillotte.cli.options import printable
from bouillotte.rules.bibliography import bibtex
from bouillotte.rules.citations import Work
from bouillotte.rules.errors import shown
from bouillotte.rules.escaping import (
    FORMULA_STARTS,
    bibtex_text,
    csv_line,
    markdown_text,
    one_line,
    spreadsheet_text,
)
from bouillotte.site.names import Names
from bouillotte.site.prose import inline, markdown

from . import test_catalogue as catalogue
from .test_catalogue import ENGINE, _edit, _editor_folder

HOSTILE_NAMES = [
    "![p](https://evil.example/p.png)",
    "[log in](//x.example)",
    "<https://evil.example>",
    "`code",
    "*all* _of_ it",
    "&#106;avascript",
    "# Heading",
    "- item",
    "1. item",
    "a \\ b",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_put_into_prose_is_its_words(name: str) -> None:
    """The name reads on the page as it is written, and nothing else of the paragraph
    changes: the words after it are not taken into a code span or a link."""
    names = Names({"mine": name}, {"house": "House " + name})
    html = markdown(names.prose("Under mine, as in `mine` and house: *so*."))
    assert "<img" not in html and "<a " not in html and "<code>" not in html
    assert "<em>so</em>" in html
    assert html.count(_escaped_html(name)) == 3, html


@pytest.mark.parametrize("name", [*HOSTILE_NAMES, "Dick & Fitzgerald", "co_op #2 | 4!"])
def test_a_name_in_a_reason_reads_as_written_on_one_line(name: str) -> None:
    """A rule's reason is prose written on one line (``| prose | inline``): the name
    reads as written, no backslash of its escaping shown (a template that wrote the
    prose without reading its markdown showed ``\\&``)."""
    html = inline(Names({"mine": name}, {}).prose("mine reads the blind as two"))
    assert html == _escaped_html(name) + " reads the blind as two"


def _escaped_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_a_name_as_words_is_unchanged_outside_markdown() -> None:
    """The ``names`` filter writes plain text that the page escapes: no backslash added."""
    names = Names({"mine": "![p](x) *b*"}, {})
    assert names.words("under mine") == "under ![p](x) *b*"


def test_markdown_text_leaves_the_bundled_names_as_they_are() -> None:
    for name in ("Foster 1897, 5 players", "pagat.com 2019", "Foster's examples, recovered"):
        assert markdown_text(name) == name


def _cells(line: str, delimiter: str) -> list[str]:
    return next(csv.reader(io.StringIO(line), delimiter=delimiter))


FORMULAS = [
    "Paris;=cmd|' /C calc'!A0;",
    'x;"=1+1"',
    "a\t+1\tb",
    "one\n@SUM(A1)",
    "one\r\n-2+3",
    '=lead;"-x";@y',
]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_no_part_of_a_cell_reads_as_a_formula_whatever_the_separator(delimiter: str) -> None:
    """Read by ``,`` (its own), ``;`` or a tab, and split at its line breaks, no cell of the
    file starts with a formula's first character; read by ``,``, each cell is the text
    written, an apostrophe before each such part aside."""
    written = "".join(csv_line([spreadsheet_text(f), "plain", 2]) for f in FORMULAS)
    for line in written.splitlines():
        for cell in _cells(line, delimiter) if line else []:
            assert not cell.lstrip('"').startswith(FORMULA_STARTS), (delimiter, line, cell)
    rows = list(csv.reader(io.StringIO(written)))
    assert [r[0].replace("'", "") for r in rows] == [f.replace("'", "") for f in FORMULAS]
    assert all(r[1:] == ["plain", "2"] for r in rows)


def test_a_line_as_python_s_csv_writes_it_where_nothing_needs_quoting() -> None:
    rows: list[list[object]] = [["a", "b c", 2, 2.25, None, True], [""], ["x", ""]]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    assert "".join(csv_line(r) for r in rows) == out.getvalue()


def test_sources_csv_keeps_a_semicolon_s_formula_in_its_cell(tmp_path: Path) -> None:
    _editor_folder(tmp_path)
    sources = tmp_path / "ed" / "variants" / "sources.yaml"
    _edit(sources, 'year: "2026"', 'year: "2026"\n    place: "Paris;=cmd|\' /C calc\'!A0;"')
    code, _, err = catalogue._in_process(
        ["sources", "--variants", "ed/variants", "--csv", "s.csv"], tmp_path
    )
    assert code == 0, err
    text = (tmp_path / "s.csv").read_text(encoding="utf-8")
    for line in text.splitlines():
        assert not any(c.startswith("=") for c in _cells(line, ";")), line
    assert "Paris;'=cmd|' /C calc'!A0;" in [c for row in csv.reader(io.StringIO(text)) for c in row]


C1 = "Pub\x9b31mX\x80Z\x9f"


def test_c1_controls_never_reach_bibtex() -> None:
    assert not any("\x80" <= c <= "\x9f" for c in bibtex_text(C1) + one_line(C1))
    work = Work(author="A", title="T", year="1900", publisher=C1, place=C1, edition=C1)
    written = bibtex({"w": work})
    assert not any("\x80" <= c <= "\x9f" for c in written), written


HIDDEN = ["\u200b", "\ufeff", "\u034f", "\ufff9", "\U000e0041", "\u2060", "\u3164"]


@pytest.mark.parametrize("mark", HIDDEN)
def test_a_mark_that_shows_nothing_is_shown_as_its_escape(mark: str) -> None:
    escape = f"\\u{ord(mark):04x}"
    assert printable(f"a{mark}b") == f"a{escape}b"
    assert shown(f"a{mark}b") == f"a{escape}b"


@pytest.mark.parametrize("word", ["نمی\u200cدانم", "👩\u200d👩\u200d👧", "Bouil\u00adlotte"])
def test_a_mark_that_belongs_to_a_word_is_kept(word: str) -> None:
    """The zero-width non-joiner of Persian, the joiner of an emoji sequence, a soft hyphen:
    part of the word, written as they are."""
    assert printable(word) == word and shown(word) == word


def test_a_title_with_a_zero_width_space_is_listed_with_its_escape(tmp_path: Path) -> None:
    folder = _editor_folder(tmp_path)
    _edit(folder / "our-table.yaml", "title: Our table", 'title: "Our\\u200b table"')
    code, out, err = catalogue._in_process(
        ["variants", "list", "--variants", str(folder)], tmp_path
    )
    assert code == 0, err
    assert "Our\\u200b table" in out and "\u200b" not in out


def test_a_colour_code_piped_to_a_file_is_shown_as_on_a_terminal(tmp_path: Path) -> None:
    """A rule's reason holding ESC[31m: the report written to a pipe shows ``\\u001b[31m``
    as the terminal does (Click dropped it before the stream could show it)."""
    folder = _editor_folder(tmp_path)
    text = (folder / "our-table.yaml").read_text(encoding="utf-8")
    assert "\n      quote: " in text
    reason = '\n      reason: "A\\e[31mB\\e[0mC"'
    (folder / "our-table.yaml").write_text(
        text.replace("\n      quote: ", reason + "\n      quote: ", 1), encoding="utf-8"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bouillotte",
            *("variants", "show", "our-table"),
            "--variants",
            str(folder),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "A\\u001b[31mB\\u001b[0mC" in done.stdout
    assert "\x1b" not in done.stdout
