"""The hostile catalogue, round four, part three (issue 47): an editor's works and texts.

A work's id names its page and its BibTeX key; its names, year and language go into the
citations, the exports and the pages; its text is published whole. Each is read as
strictly as a profile: an id written as ids are, names a citation can parse, a year that is
one, a text that is a regular file of the editor's folder and of a bounded size. Two pages
of a site never share a file; two tables never share a CSV file; a quote stands in its text
as whole words. Each case was shown failing before its fix (the closing note of the stop
that added it says how).

The cases run exactly as those of ``test_catalogue.py`` (the same :class:`Case`, the same
checks: exit status, one line naming the value and what is valid, never a traceback nor a
hang).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup, _edit, _editor_folder

LIST_ED = ("variants", "list", "--variants", "{tmp}/ed/variants")
BUILD_ED = (
    *("site", "build", "--no-bundled", "--variants", "{tmp}/own"),
    *("--out", "{tmp}/site"),
)


def _work(entry: str) -> Callable[[Path], Cleanup]:
    """A work added to the editor's ``sources.yaml``, written as YAML under ``works:``."""

    def setup(tmp: Path) -> Cleanup:
        with (_editor_folder(tmp) / "sources.yaml").open("a", encoding="utf-8") as file:
            file.write(f"  {entry}\n")
        return None

    return setup


def _text(make: Callable[[Path, Path], None]) -> Callable[[Path], Cleanup]:
    """The house rules' text replaced by what ``make(text, tmp)`` puts in its place."""

    def setup(tmp: Path) -> Cleanup:
        text = _editor_folder(tmp) / "texts" / "house-rules.txt"
        text.unlink()
        make(text, tmp)
        return None

    return setup


def _linked_out(text: Path, tmp: Path) -> None:
    secret = tmp / "secret.txt"
    secret.write_text("Work: x\nTitle: s\n---\nSECRET-CONTENT.\n", "utf-8")
    text.symlink_to(secret)


def _too_big(text: Path, tmp: Path) -> None:
    with text.open("wb") as file:  # sparse: 17 MiB on paper, nothing on the disk
        file.truncate(17 * 2**20)


def _quote(words: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        _edit(
            _editor_folder(tmp) / "our-table.yaml",
            '"the dealer puts up a blind of two counters"',
            words,
        )
        return None

    return setup


def _meanings(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "meanings.yaml").write_text(
        "words:\n  - word: Favori\n    rule: hands.favori\n    meanings:\n"
        "      - source: house-rules\n        locator: Forced bets\n        value: null\n"
        "        meaning: Ours.\n        quote: the dealer puts up\n",
        "utf-8",
    )
    return None


def _glossary(tmp: Path) -> Cleanup:
    (_editor_folder(tmp) / "glossary.yaml").write_text(
        "terms:\n  - id: blind\n    term: blind\n    definition: Our blind.\n"
        "    source: house-rules\n    locator: Forced bets\n"
        "    quote: the dealer puts up a blind of two counters\n    status: documented\n",
        "utf-8",
    )
    return None


def _one_system(tmp: Path) -> Cleanup:
    """``own/``: foster-three as ``p``, every rule stated, with its works and texts."""
    export = ("variants", "export", "foster-three", "--standalone", "--as", "p", "--out")
    result = CliRunner().invoke(app, [*export, str(tmp / "own")])
    assert result.exit_code == 0, result.output
    return None


def _pairs_sharing_a_name(tmp: Path) -> Cleanup:
    """Four systems whose pairs (p--q, r) and (p, q--r) join into one name."""
    _one_system(tmp)
    profile = (tmp / "own" / "p.yaml").read_text("utf-8")
    for other in ("p--q", "r", "q--r"):
        (tmp / "own" / f"{other}.yaml").write_text(
            profile.replace("short: Foster 1897, 3 players", f"short: {other}"), "utf-8"
        )
    return None


def _a_file(tmp: Path) -> Cleanup:
    (tmp / "build.out").write_text("mine\n", "utf-8")
    return None


LONG = "q" * 250

CASES = [
    # -- a work's id is written as a profile's -----------------------------------------
    Case(
        "work-id-with-a-dot",
        LIST_ED,
        "sources.yaml:13: works.house.rules: the work's id: 'house.rules' is not an id",
        setup=_work('house.rules: {author: A, title: T, year: "2020"}'),
    ),
    Case(
        "work-id-with-an-accent",
        LIST_ED,
        "'\\u00e9' holds U+00E9 LATIN SMALL LETTER E WITH ACUTE",
        setup=_work('é: {author: A, title: T, year: "2020"}'),
    ),
    Case(
        "work-id-null",
        LIST_ED,
        "works: the key null is read as null, no name at all, which no key can be",
        setup=_work('null: {author: A, title: T, year: "2020"}'),
    ),
    Case(
        "work-id-a-number",
        LIST_ED,
        "YAML reads 1 as a number, not as an id: an id is text (quote it)",
        setup=_work('1: {author: A, title: T, year: "2020"}'),
    ),
    # -- names a citation can parse ----------------------------------------------------
    Case(
        "work-author-blank",
        LIST_ED,
        "works.w.author: must hold words, not be empty",
        setup=_work('w: {author: "  ", title: T, year: "2020"}'),
    ),
    Case(
        "work-title-empty",
        LIST_ED,
        "works.w.title: must hold words, not be empty",
        setup=_work('w: {author: A, title: "", year: "2020"}'),
    ),
    Case(
        "work-name-with-three-parts",
        LIST_ED,
        "the name 'Doe, Jane, Jr., X' has 3 commas: write 'Family, Given' (one comma; two",
        setup=_work('w: {author: A, title: T, year: "2020", authors: ["Doe, Jane, Jr., X"]}'),
    ),
    Case(
        "work-name-a-lone-comma",
        LIST_ED,
        "the name ',' has an empty part",
        setup=_work('w: {author: A, title: T, year: "2020", editors: [","]}'),
    ),
    Case(
        "work-name-twice",
        LIST_ED,
        "the name 'Foster, R. F.' is given twice",
        setup=_work(
            'w: {author: A, title: T, year: "2020", authors: ["Foster, R. F.", "Foster, R. F."]}'
        ),
    ),
    # -- a year that is one --------------------------------------------------------------
    Case(
        "work-year-backwards",
        LIST_ED,
        "works.w.year: the range 1909-1897 runs backwards: earlier year first",
        setup=_work('w: {author: A, title: T, year: "1909-1897"}'),
    ),
    Case(
        "work-year-a-word",
        LIST_ED,
        "works.w.year: 'banana' names no year",
        setup=_work("w: {author: A, title: T, year: banana}"),
    ),
    Case(
        "work-year-to-come",
        LIST_ED,
        "works.w.year: '2150' is not a year of an edition: write a year from 1500 to 2099",
        setup=_work('w: {author: A, title: T, year: "2150"}'),
    ),
    Case(
        "work-language-closes-an-attribute",
        LIST_ED,
        "works.w.language: 'la\"><x' is not a language tag",
        setup=_work('w: {author: A, title: T, year: "2020", language: "la\\"><x"}'),
    ),
    # -- a text: a regular file of the folder, of a bounded size -------------------------
    Case(
        "text-linked-out-of-the-folder",
        LIST_ED,
        "the text of work 'house-rules' is a link that leads out of the folder of its bibliography",
        setup=_text(_linked_out),
    ),
    Case(
        "text-a-link-in-a-loop",
        LIST_ED,
        "the text of work 'house-rules' is a link that leads round in a loop",
        setup=_text(lambda text, tmp: text.symlink_to(text.name)),
    ),
    Case(
        "text-a-named-pipe",
        LIST_ED,
        "the text of work 'house-rules' is a named pipe: a text is a regular file",
        setup=_text(lambda text, tmp: os.mkfifo(text)),
    ),
    Case(
        "text-of-17-mib",
        LIST_ED,
        "the text of work 'house-rules' holds 17,825,792 bytes; a shipped text may hold at "
        "most 16,777,216",
        setup=_text(_too_big),
    ),
    # -- a quote stands in its text as whole words ---------------------------------------
    Case(
        "quote-cut-inside-words",
        LIST_ED,
        "not found word for word in the text of 'house-rules'",
        setup=_quote('"ealer puts u"'),
    ),
    Case(
        "quote-of-a-full-stop",
        LIST_ED,
        "the quote '.' holds no word",
        setup=_quote('"."'),
    ),
    # -- one word, one page, one file ------------------------------------------------------
    Case(
        "meanings-of-a-word-given-twice",
        ("sources", "--variants", "{tmp}/ed/variants"),
        "meanings.yaml:2: words.0.word: the word is already given in",
        setup=_meanings,
    ),
    Case(
        "glossary-term-replaced-says-so",
        LIST_ED,
        "note: the term 'blind' of",
        exit=0,
        setup=_glossary,
    ),
    Case(
        "pair-pages-sharing-a-file",
        BUILD_ED,
        "two pages would be written to the same file, compare/p--q--r.html",
        setup=_pairs_sharing_a_name,
        one_line=False,  # the build's progress lines come first
        gone=("site",),
    ),
    Case(
        "two-tables-to-one-csv-file",
        ("sources", "--csv", "{tmp}/same.csv", "--statements-csv", "{tmp}/./same.csv"),
        "--csv and --statements-csv name the same file",
        gone=("same.csv",),
    ),
    Case(
        "two-tables-on-stdout",
        ("session", "pagat-teaching", "--csv", "-", "--deals-csv", "-"),
        "--csv and --deals-csv are both '-'",
    ),
    # -- output folders ------------------------------------------------------------------
    Case(
        "out-inside-a-file",
        ("site", "build", "--out", "{tmp}/build.out/x"),
        "build.out is a file, not a folder",
        setup=_a_file,
    ),
    Case(  # the build's own folders beside it (.<name>.XXXXXXXX.tmp) once went past 255
        "out-of-250-characters",
        (*BUILD_ED[:-1], f"{{tmp}}/{LONG}"),
        "built ",
        exit=0,
        setup=_one_system,
    ),
    Case(
        "new-says-cd-quoted",
        ("new", "{tmp}/my site"),
        "next: cd '",
        exit=0,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_works(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)
