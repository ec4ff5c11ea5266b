"""Hostile values in the formats the tool writes (issue 47): one escaping discipline per
format (``rules/escaping.py``), each output read back with a real parser.

- BibTeX (pybtex): a work's author that closes its entry and adds
  ``@preamble{"\\immediate\\write18{...}"}`` stays one inert name; an address that would
  add a field to its entry adds none; the page citation's site title and version likewise.
- CSL-JSON (jsonschema and citeproc-py): line breaks never reach a value.
- HTML (html5lib): a link's address is http, https or relative, never ``javascript:``.
"""

from __future__ import annotations

import json
from pathlib import Path

import html5lib  # type: ignore[import-untyped]
import jsonschema
import pytest
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string

from bouillotte.rules.bibliography import bibtex, csl_json
from bouillotte.rules.citations import Work
from bouillotte.rules.escaping import bibtex_text, safe_url
from bouillotte.rules.resources import bundled
from bouillotte.site.builder import _environment
from bouillotte.site.citation import page_bibtex
from bouillotte.site.edition import Edition
from bouillotte.site.page import Page
from bouillotte.site.siteconfig import SiteConfig

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "csl-data.json").read_text(encoding="utf-8")
)
SHELL = "\\immediate\\write18{touch /tmp/pwned}"
PREAMBLE = '}\n}\n@preamble{"' + SHELL + '"}\n@misc{evil2,\n  note = {'
"""What an editor's ``sources.yaml`` might give as an author: it closes the field and the
entry, then adds a preamble that runs a shell command under ``latex --shell-escape``."""


EVIL_URL = "https://example.org/a},note={pwned"
"""An address that would close its BibTeX field: the schema refuses it (below), so it is set
past the schema here to test the second guard, the BibTeX writer's own escaping."""
EVIL_NAME = "Evil, A." + PREAMBLE
"""An author that would close its entry: the schema refuses it with one more comma (below);
it is set past the schema, to test the writer's own escaping."""


def _works() -> dict[str, Work]:
    evil = Work(
        author="Evil",
        title="A title} , note = {added",
        year="1900",
        publisher="100% & #1 $ _ ^ ~ \\ {press",
    )
    return {
        "evil": evil.model_copy(update={"url": EVIL_URL, "authors": [EVIL_NAME]}),
        "plain": Work(author="Someone", title="Plain", year="1901", authors=["Someone, B."]),
        "body": Work(author="A body", title="Body", year="1902").model_copy(
            update={"authors": [PREAMBLE]}  # past the schema, which refuses its line breaks
        ),
    }


def test_an_author_that_closes_its_entry_stays_one_inert_name() -> None:
    text = bibtex(_works())
    data = parse_string(text, "bibtex")
    assert sorted(data.entries) == ["body", "evil", "plain"]  # no evil2
    assert data.preamble == ""  # pybtex joins every @preamble it finds
    assert "\\immediate" not in text and "\\write18" not in text  # no command for LaTeX
    assert "@preamble" not in text.replace("{@}preamble", "")
    evil = data.entries["evil"]
    assert sorted(evil.fields) == ["language", "publisher", "title", "url", "year"]
    assert str(evil.persons["author"][0]).startswith("Evil, A.")
    assert len(data.entries["body"].persons["author"]) == 1
    assert dict(data.entries["plain"].fields) == {
        "title": "{Plain}",
        "year": "1901",
        "language": "English",
    }


@pytest.mark.parametrize("odd", ['"', "<", ">", "{", "}", "|", "\\", "^", "`"])
def test_a_work_address_with_a_character_no_url_holds_is_refused(odd: str) -> None:
    with pytest.raises(ValueError, match=r"percent-encode it|must be a web address"):
        Work(author="A", title="T", year="1900", url=f"https://example.org/a{odd}b")


def test_the_schema_refuses_the_author_that_closes_its_entry() -> None:
    with pytest.raises(ValueError, match="is shown on one line: it may not hold a line break"):
        Work(author="Evil", title="T", year="1900", authors=[EVIL_NAME])
    with pytest.raises(ValueError, match="has 3 commas"):
        Work(author="Evil", title="T", year="1900", authors=["Evil, A.}, @misc{x, Jr."])


def test_an_and_inside_a_name_splits_no_one_in_two() -> None:
    # BibTeX splits a list of names at every "and" between spaces, outside braces.
    work = Work(
        author="S",
        title="T",
        year="1900",
        authors=["Smith and Jones, John", "Doe AND Roe, Jane", "Académie and Sons"],
    )
    persons = parse_string(bibtex({"s": work}), "bibtex").entries["s"].persons["author"]
    assert len(persons) == 3
    assert persons[0].last_names == ["Smith", "{and}", "Jones"]
    assert persons[0].first_names == ["John"]


def test_an_address_adds_no_field_to_its_entry() -> None:
    data = parse_string(bibtex(_works()), "bibtex")
    assert data.entries["evil"].fields["url"] == "https://example.org/a%7D,note=%7Bpwned"
    assert "note" not in data.entries["evil"].fields


def test_every_latex_special_character_is_escaped() -> None:
    assert bibtex_text("100% & #1 $ _ ^ ~ \\ {x} @") == (
        r"100\% \& \#1 \$ \_ \textasciicircum{} \textasciitilde{} \textbackslash{} "
        r"\textbraceleft{}x\textbraceright{} {@}"
    )
    assert bibtex_text("two\nlines\u2028and\ta tab") == "two lines and a tab"


def test_a_page_citation_of_a_hostile_site_title_stays_one_entry() -> None:
    # past the schema, which refuses a title or a name holding a line break
    config = SiteConfig().model_copy(
        update={"title": "Mine" + PREAMBLE, "editors": ["Ed" + PREAMBLE]}
    )
    edition = Edition("1.0}" + PREAMBLE, "2026-12-01", "test")
    text = page_bibtex(config, edition, Page("index.html", "home.html", "Home" + PREAMBLE), None)
    data = parse_string(text, "bibtex")
    assert len(data.entries) == 1
    assert data.preamble == ""
    assert "\\immediate" not in text
    (entry,) = data.entries.values()
    assert sorted(entry.fields) == [
        "date",
        "howpublished",
        "language",
        "organization",
        "title",
        "version",
        "year",
    ]


def test_csl_json_values_are_one_line_and_render() -> None:
    works = _works()
    works["lines"] = Work(author="X", title="T", year="1903").model_copy(
        update={  # past the schema, which refuses line breaks in a title or a name
            "title": "Two\nlines <script>alert(1)</script>",
            "authors": ["Line,\nBreak"],
            "place": "Paris\r\nLondon",
        }
    )
    items = csl_json(works)
    jsonschema.validate(items, SCHEMA)
    for item in items:
        for key, value in item.items():
            if isinstance(value, str):
                assert "\n" not in value and "\r" not in value, (item["id"], key, value)
    lines = next(i for i in items if i["id"] == "lines")
    assert lines["title"] == "Two lines <script>alert(1)</script>"
    assert lines["author"] == [{"family": "Line", "given": "Break"}]
    assert lines["publisher-place"] == "Paris London"
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), csl_formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == 4
    assert all("\n" not in entry for entry in rendered)


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "\x01javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "",
        None,
    ],
)
def test_a_link_to_another_scheme_leads_nowhere(url: str | None) -> None:
    assert safe_url(url) == "#"


@pytest.mark.parametrize(
    "url",
    ["https://gallica.bnf.fr/ark:/12148/x", "http://example.org/", "texts/foster.html", "#w"],
)
def test_http_https_and_relative_links_are_kept(url: str) -> None:
    assert safe_url(url) == url


def test_the_site_renders_a_hostile_address_as_no_link() -> None:
    env = _environment(bundled("site"))
    template = env.from_string('<a href="{{ u | safe_url }}" rel="external">{{ u }}</a>')
    for url, expected in (
        ('javascript:alert("x")', "#"),
        ('https://e.org/"><script>x</script>', 'https://e.org/"><script>x</script>'),
    ):
        tree = html5lib.parse(template.render(u=url), namespaceHTMLElements=False)
        (link,) = tree.iter("a")
        assert link.get("href") == expected  # the quote did not end the attribute
        assert not list(tree.iter("script"))


FORMULAS = ('=HYPERLINK("https://evil.example/","click")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1")


def test_the_matrix_csv_writes_an_editors_formula_as_text(tmp_path: Path) -> None:
    """The site's matrix CSV (site/downloads.py) carries each rule's locator
    as an editor wrote it: a spreadsheet must show them, never run them (the tidy
    tables' rule, one function: escaping.spreadsheet_text)."""
    import csv
    import io

    import yaml

    from bouillotte.rules.profiles import Library
    from bouillotte.site import downloads

    from ..own_rules import foster_rules_as_ones_own

    rules = foster_rules_as_ones_own()
    rules["stakes"]["cave"]["locator"] = FORMULAS[0]
    rules["forced_bets"]["dealer_blind"]["locator"] = FORMULAS[1]
    rules["table"]["players"]["locator"] = FORMULAS[2]
    (tmp_path / "house.yaml").write_text(
        yaml.safe_dump({"title": "House", "source": "mybook", "rules": rules}), encoding="utf-8"
    )
    (tmp_path / "sources.yaml").write_text(
        "works:\n  mybook:\n    author: A. Player\n    title: Our own book\n"
        '    year: "1990"\n    language: en\n',
        encoding="utf-8",
    )
    house = Library([tmp_path], include_bundled=False).get("house")
    text = downloads.data_files([house], [], [])[downloads.MATRIX_CSV]
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    for formula in FORMULAS:
        assert formula not in cells, f"{formula!r} would run in a spreadsheet"
    assert all("'" + formula in cells for formula in FORMULAS)
