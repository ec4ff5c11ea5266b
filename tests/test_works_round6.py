"""A work of the bibliography, round six: what an editor writes in ``sources.yaml`` is read
as strictly as the exports and the pages need it, and appears in them as written.

1. Every one-line field of a work (``place``, ``publisher``, ``edition``, ``entry``,
   ``container``, ``locator_scheme``, ``file``, ``year``) is one bounded line: a line
   break printed a forged row and a forged citation line in ``bouillotte sources``.
2. The starter folder's work names its authors, and a book of games written with an
   ``author`` line only is exported under that name (pybtex's ``plain`` style raised
   ``FieldIsMissing`` for the starter's ``@book``); an anonymous one is ``@misc``.
3. A range is written earlier year first whatever joins its years (``/``, ``or``, an em
   dash, ``to``); a note's year in brackets does not date the work.
4. No year before Christ, and no sign or dash before a year (``-1600`` was AD 1600).
5. ``entry`` and ``container`` come together, each refused alone at its line.
6. A name given twice in two Unicode forms is given twice (authors, editors, site.yaml).
7. ``accessed`` is a day of the web (1990 on) and needs a ``url``; a year to come is
   refused as a day to come is.
8. An address holding a space is refused for the space.
9. A site titled with no Latin letter has a citation key of its own.

Each test failed before its fix (the original file swapped in) and passes after.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from pybtex.database import parse_string
from pybtex.plugin import find_plugin
from pydantic import ValidationError
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.cli.scaffold import scaffold
from bouillotte.rules.bibliography import (
    bibtex,
    bibtex_entry,
    bibtex_type,
    csl_item,
    dated_years,
    years,
)
from bouillotte.rules.citations import Work
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.site.citation import page_citation, page_key
from bouillotte.site.edition import Edition
from bouillotte.site.page import Page
from bouillotte.site.siteconfig import SiteConfig

INDEX = Page("index.html", "index.html", "Home")
EDITION = Edition("0.1.0", "2026-12-01", "SOURCE_DATE_EPOCH")


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """An editor's folder as ``bouillotte new`` makes it; its ``variants`` folder."""
    scaffold(tmp_path / "ed")
    return tmp_path / "ed" / "variants"


def _add(variants: Path, text: str) -> None:
    """``text`` (lines under ``works:``, indented by two) added to the folder's works."""
    with (variants / "sources.yaml").open("a", encoding="utf-8") as file:
        file.write(text)


def _refused(variants: Path, *command: str) -> str:
    """The one line a command says, refusing the folder (exit 2)."""
    result = CliRunner().invoke(app, [*command, "--variants", str(variants)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (line,) = result.output.strip().splitlines()
    return line


def _work(**fields: object) -> Work:
    return Work.model_validate({"author": "A", "title": "T", "year": "1900", **fields})


def _says(fragment: str, **fields: object) -> None:
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        _work(**fields)


# -- 1. one line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "extra"),
    [
        ("place", ""),
        ("publisher", ""),
        ("edition", ""),
        ("locator_scheme", ""),
        ("entry", ", container: C"),
        ("container", ", entry: E"),
        ("file", ""),
        ("year", ""),
    ],
)
def test_a_line_break_in_a_one_line_field_forges_no_line(
    folder: Path, field: str, extra: str
) -> None:
    value = '"1900\\nx1  FORGED ROW"' if field == "year" else '"Paris\\nFORGED ROW"'
    year = "" if field == "year" else 'year: "1900", '
    _add(folder, f"  x1: {{author: A, title: T, {year}{field}: {value}{extra}}}\n")
    line = _refused(folder, "sources")
    assert f"sources.yaml:13: works.x1.{field}: is shown on one line" in line


@pytest.mark.parametrize("field", ["place", "publisher", "edition", "entry", "container"])
def test_a_one_line_field_has_a_bounded_length(field: str) -> None:
    other = {"entry": {"container": "C"}, "container": {"entry": "E"}}.get(field, {})
    _says("has at most 500 characters, not 501", **{field: "x" * 501}, **other)
    assert _work(**{field: "x" * 500}, **other)


def test_a_year_and_a_language_have_bounded_lengths() -> None:
    _says("has at most 200 characters", year="1900 (" + "x" * 200 + ")")
    _says("at most 35 characters", language="en-" + "-".join(["abcdefgh"] * 12))


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x85", "\u2028", "\u2029"])
def test_every_line_break_is_refused(brk: str) -> None:
    _says("is shown on one line: it may not hold a line break", place=f"Paris{brk}Lyon")
    _says("is shown on one line: it may not hold a line break", year=f"1900{brk}x")


def test_another_control_character_reaches_the_outputs_as_its_escape() -> None:
    # as tests/hostile/test_site_formats.py publishes them: the pages and the terminal show
    # each as its escape; only a line break could print a line of its own
    assert _work(publisher="Pub\x05", place="Paris\x1b[2J").place == "Paris\x1b[2J"


def test_a_blank_publisher_is_refused_as_a_blank_title_is() -> None:
    _says("must hold words", publisher="  ")


# -- 2. the starter's work, and a book named by its author line --------------------------


def _plain(entry: str) -> str:
    database = parse_string(entry, "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    (formatted,) = style.format_entries(database.entries.values())
    return str(formatted.text.render_as("text"))


def test_the_starter_work_names_its_authors_in_every_export(folder: Path) -> None:
    assert "authors: [Our club]" in (folder / "sources.yaml").read_text("utf-8")
    work = Library([folder]).works["house-rules"]
    assert work.authors == ["Our club"]
    assert bibtex_type(work) == "misc"  # an unpublished sheet
    assert _plain(bibtex_entry("house-rules", work)) == (
        "Our club. House rules of our Bouillotte table. 2026."
    )
    assert csl_item("house-rules", work)["author"] == [{"literal": "Our club"}]


def test_a_book_with_an_author_line_only_is_exported_under_it() -> None:
    name = "The Cercle de Paris, and friends"
    work = _work(author=name, kind="rulebook", publisher="Cercle", place="Paris")
    entry = bibtex_entry("w", work)
    assert bibtex_type(work) == "book" and f"author = {{{{{name}}}}}" in entry
    assert _plain(entry).startswith(f"{name}. T. Cercle, Paris, 1900")
    assert csl_item("w", work)["author"] == [{"literal": name}]


def test_a_sheet_of_house_rules_is_misc_under_its_author() -> None:
    # no publisher: pybtex's @book needs one (FieldIsMissing), as it needs a name
    work = _work(author="Our club", kind="rulebook", place="Lyon")
    assert bibtex_type(work) == "misc"
    assert _plain(bibtex_entry("w", work)) == "Our club. T. Lyon, 1900."


def test_an_anonymous_book_is_misc_and_formats() -> None:
    work = _work(author="Anonymous (a club's sheet)", kind="rulebook", publisher="Cercle")
    assert bibtex_type(work) == "misc"
    assert "author" not in csl_item("w", work)
    assert _plain(bibtex_entry("w", work)).startswith("T")


def test_the_bundled_exports_keep_their_names() -> None:
    works = Library().works
    entries = parse_string(bibtex(works), "bibtex").entries
    assert "author" not in entries["pagat-card"].persons  # Anonymous: a title first
    assert entries["trevoux-1771"].type == "misc" and not entries["trevoux-1771"].persons


# -- 3. ranges written backwards -----------------------------------------------------------


@pytest.mark.parametrize(
    "year", ["1909/1897", "1909 or 1850", "1909\u20141897", "1909 to 1897", "1909 \u2013 1897",
             "2020s-2010s"],
)  # fmt: skip
def test_a_range_backwards_is_refused_whatever_joins_it(year: str) -> None:
    _says("runs backwards: earlier year first", year=year)


def test_a_range_backwards_is_refused_at_its_line(folder: Path) -> None:
    _add(folder, '  x1: {author: A, title: T, year: "1909 or 1850"}\n')
    line = _refused(folder, "variants", "list")
    assert "sources.yaml:13: works.x1.year: the range 1909 or 1850 runs backwards" in line


def test_a_notes_year_in_brackets_does_not_date_the_work() -> None:
    work = _work(year="1909 (reprint of the 1897 text)")
    assert dated_years(work) == (1909, 1909) and years(work) == (1909, 1909)
    assert "date" not in parse_string(bibtex_entry("w", work), "bibtex").entries["w"].fields
    assert csl_item("w", work)["issued"] == {"date-parts": [[1909]]}
    assert years(_work(year="undated (2020s)")) == (2020, 2020)  # only a note: it dates it


@pytest.mark.parametrize(
    "year", ["1897-1909", "1897 \u2013 1909", "1835 or 1878", "1850/51", "1897-99",
             "2010s-2020s", "2026-12-07", "c. 1800", "1909 (reprint of the 1897 text)"],
)  # fmt: skip
def test_a_range_in_order_still_reads(year: str) -> None:
    assert _work(year=year).year == year


# -- 4. before Christ, a sign ---------------------------------------------------------------


@pytest.mark.parametrize("year", ["1600 BC", "1600 BCE", "1600 B.C.", "1600 av. J.-C."])
def test_a_year_before_christ_is_refused(year: str) -> None:
    _says("is a year before Christ", year=year)


@pytest.mark.parametrize("year", ["-1600", "\u20131897", "\u22121600", "+1600", "c. -1600"])
def test_a_sign_or_a_dash_before_a_year_is_refused(year: str) -> None:
    _says("has a sign or a dash", year=year)


def test_a_year_before_christ_is_refused_at_its_line(folder: Path) -> None:
    _add(folder, '  x1: {author: A, title: T, year: "1600 BC"}\n')
    assert "sources.yaml:13: works.x1.year: '1600 BC' is a year before Christ" in _refused(
        folder, "sources"
    )


# -- 5. entry and container ------------------------------------------------------------------


@pytest.mark.parametrize(("given", "missing"), [("entry", "container"), ("container", "entry")])
def test_one_half_of_entry_and_container_is_refused_at_its_line(
    folder: Path, given: str, missing: str
) -> None:
    _add(folder, f'  x1:\n    author: A\n    title: T\n    year: "1900"\n    {given}: Brelan\n')
    line = _refused(folder, "sources")
    assert f"sources.yaml:17: works.x1.{given}: " in line and f"give '{missing}' too" in line


def test_entry_and_container_together_read() -> None:
    work = _work(kind="dictionary", authors=["Acad\u00e9mie"], entry="Brelan", container="Dict")
    assert bibtex_type(work) == "incollection"


# -- 6. a name given twice, in two Unicode forms --------------------------------------------


COMPOSED, DECOMPOSED = "Dupr\u00e9, Jean", "Dupre\u0301, Jean"


@pytest.mark.parametrize("key", ["authors", "editors"])
def test_a_name_in_two_unicode_forms_is_given_twice(key: str) -> None:
    _says("is given twice", **{key: [COMPOSED, DECOMPOSED]})


def test_a_name_given_twice_is_refused_at_its_line(folder: Path) -> None:
    _add(folder, f'  x1: {{author: A, title: T, year: "1900", authors: ["{COMPOSED}", '
         f'"{DECOMPOSED}"]}}\n')  # fmt: skip
    assert "works.x1.authors: the name" in _refused(folder, "sources")


@pytest.mark.parametrize("key", ["authors", "editors"])
def test_site_yaml_names_are_compared_so_too(key: str, tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="is given twice"):
        SiteConfig.model_validate({key: [COMPOSED, DECOMPOSED]})
    from bouillotte.site.siteconfig import load_config

    (tmp_path / "site.yaml").write_text(
        f'title: Ours\n{key}:\n  - "{COMPOSED}"\n  - "{DECOMPOSED}"\n', "utf-8"
    )
    with pytest.raises(InputError) as refused:
        load_config(tmp_path / "site.yaml")
    assert "site.yaml:2:" in str(refused.value) and "is given twice" in str(refused.value)


# -- 7. days and years of the past -----------------------------------------------------------


def test_a_day_read_online_is_a_day_of_the_web() -> None:
    _says("is before the web", url="https://e.org/", accessed="0001-01-01")
    _says("is before the web", url="https://e.org/", accessed="1989-12-31")
    assert _work(url="https://e.org/", accessed="1990-01-01").accessed == "1990-01-01"


def test_accessed_without_url_is_refused_at_its_line(folder: Path) -> None:
    _add(
        folder, '  x1:\n    author: A\n    title: T\n    year: "1900"\n    accessed: "2020-01-02"\n'
    )
    line = _refused(folder, "sources")
    assert "sources.yaml:17: works.x1.accessed: " in line and "give 'url' too" in line


def test_a_year_to_come_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    this = date.today().year
    _says("is a year still to come", year="2098")
    _says("is a year still to come", year=str(this + 1))
    _says("is a year still to come", year=f"{this}-{this + 1}")
    assert _work(year=str(this)).year == str(this)


def test_source_date_epoch_may_date_a_build_ahead_never_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bouillotte.rules.citations import latest_day

    ahead = datetime(date.today().year + 1, 6, 1, tzinfo=UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(ahead.timestamp())))
    assert latest_day() == ahead.date()
    assert _work(year=str(ahead.year)).year == str(ahead.year)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # 2025-12-01: the clock's year reads
    assert _work(year=str(date.today().year)).year == str(date.today().year)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert latest_day() == date.today()


def test_a_year_to_come_is_refused_at_its_line(folder: Path) -> None:
    _add(folder, '  x1: {author: A, title: T, year: "2098"}\n')
    assert "sources.yaml:13: works.x1.year: '2098' is a year still to come" in _refused(
        folder, "sources"
    )


# -- 8. an address with a space ----------------------------------------------------------------


def test_an_address_with_a_space_is_refused_for_the_space(folder: Path) -> None:
    _add(folder, '  x1: {author: A, title: T, year: "1900", url: "https://e.org/my page"}\n')
    line = _refused(folder, "sources")
    assert "works.x1.url: the url holds a space (U+0020 at character 17)" in line
    assert "starting with http" not in line


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://e.org/a\u00a0b", "holds a space (U+00A0"),
        ("https://e.org/a\tb", "holds a line break or a control character (U+0009"),
        ("javascript:alert(1)", "starting with http:// or https://"),
        ("https://e.org/\u202egpj.exe", "invisible mark (U+202E)"),
        ("https://e.org/a<b", "RFC 3986"),
        ("https://e.org:abc/", "host or port"),
    ],
)
def test_the_other_checks_of_an_address_stay(url: str, says: str) -> None:
    _says(says, url=url)


def test_an_unread_works_address_with_a_space_is_refused_so_too(folder: Path) -> None:
    (folder / "unread.yaml").write_text(
        'works:\n  - id: a-manual\n    title: A manual\n    year: "1850"\n'
        "    status: located\n    known: Named somewhere.\n    identifiers:\n"
        '      - {label: Copy, value: x, url: "https://e.org/a b"}\n',
        "utf-8",
    )
    line = _refused(folder, "sources")
    assert "unread.yaml:8:" in line and "the url holds a space" in line


# -- 9. the citation key of a site titled in another script -------------------------------------


def test_a_site_titled_without_latin_letters_has_a_key_of_its_own() -> None:
    first = page_key(SiteConfig(title="\u0411\u0443\u043b\u044c\u043e\u0442 \u65e5\u672c"), INDEX)
    second = page_key(SiteConfig(title="\u65e5\u672c\u306e\u30d6\u30ec\u30e9\u30f3"), INDEX)
    assert first != "-:index" and first != second
    assert first.startswith("site-") and first.endswith(":index")
    assert first == page_key(SiteConfig(title="\u0411\u0443\u043b\u044c\u043e\u0442 \u65e5\u672c"),
                             INDEX)  # fmt: skip
    cited = page_citation(SiteConfig(title="\u0411\u0443\u043b\u044c\u043e\u0442"), EDITION, INDEX)
    (key,) = parse_string(cited.bibtex, "bibtex").entries
    assert key.startswith("site-") and f'"id": "{key}"' in cited.csl_json


def test_a_latin_title_keeps_its_key() -> None:
    assert page_key(SiteConfig(title="Bouillotte compared"), INDEX) == "bouillotte-compared:index"
    assert page_key(SiteConfig(title="Our Bouillotte"), INDEX) == "our-bouillotte:index"
