""" "Cite this page" (issue #25, part 2): the site configuration's editors, authors, edition
date and base URL; the Chicago citation, the page's BibTeX (pybtex ``plain`` formats it)
and its CSL-JSON (valid against the CSL-JSON schema, rendered by citeproc-py)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import jsonschema
import pytest
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string
from pybtex.plugin import find_plugin

from bouillotte.rules.errors import InputError
from bouillotte.site.citation import page_citation
from bouillotte.site.edition import Edition
from bouillotte.site.page import Page
from bouillotte.site.siteconfig import DEFAULT, SiteConfig, load_config

SCHEMA = json.loads((Path(__file__).parent / "data" / "csl-data.json").read_text("utf-8"))
EDITION = Edition("0.1.0", "2026-12-01", "SOURCE_DATE_EPOCH")
MATRIX = Page("matrix.html", "matrix.html", "The rule matrix")
FOSTER = Page("variants/foster.html", "variant.html", "Foster's Complete Hoyle (1897–1909)")


def test_the_bundled_site_is_edited_by_the_project_and_names_no_person() -> None:
    assert DEFAULT.editors == ["The bouillotte project"] and DEFAULT.authors == []
    cited = page_citation(DEFAULT, EDITION, MATRIX)
    assert cited.text == (
        "The bouillotte project, ed. “The rule matrix.” Bouillotte compared. "
        "Version 0.1.0, December 1, 2026."
    )
    assert cited.url is None  # no base URL: no address pretending to be one


def test_a_base_url_gives_the_absolute_address() -> None:
    config = SiteConfig(
        title="Our Bouillotte",
        authors=["Dupont, Marie", "Our club"],
        base_url="https://example.org/bouillotte",
        edition_date=date(2027, 3, 4),
    )
    cited = page_citation(config, EDITION, FOSTER)
    assert cited.url == "https://example.org/bouillotte/variants/foster.html"
    assert cited.text == (
        "Dupont, Marie, and Our club. “Foster's Complete Hoyle (1897–1909).” Our Bouillotte. "
        "Version 0.1.0, March 4, 2027. https://example.org/bouillotte/variants/foster.html."
    )
    entry = parse_string(cited.bibtex, "bibtex").entries["our-bouillotte:variants-foster"]
    assert entry.fields["url"] == cited.url and entry.fields["date"] == "2027-03-04"
    assert [str(p) for p in entry.persons["author"]] == ["Dupont, Marie", "{Our club}"]


@pytest.mark.parametrize("config", [DEFAULT, SiteConfig(base_url="https://example.org/")])
def test_the_page_bibtex_formats_with_pybtex_plain(config: SiteConfig) -> None:
    cited = page_citation(config, EDITION, MATRIX)
    database = parse_string(cited.bibtex, "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    (entry,) = style.format_entries(database.entries.values())
    text = entry.text.render_as("text")
    assert "The rule matrix" in text and "Bouillotte compared" in text and "2026" in text
    assert database.entries[entry.key].type == "online"


@pytest.mark.parametrize("config", [DEFAULT, SiteConfig(base_url="https://example.org/")])
def test_the_page_csl_json_validates_and_renders(config: SiteConfig) -> None:
    cited = page_citation(config, EDITION, MATRIX)
    items = json.loads(cited.csl_json)
    jsonschema.validate(items, SCHEMA)
    (item,) = items
    assert item["type"] == "webpage" and item["container-title"] == "Bouillotte compared"
    assert item["issued"] == {"date-parts": [[2026, 12, 1]]}
    assert "accessed" not in item  # left to the reader (docs/site.md)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), csl_formatter.plain)
    bibliography.register(Citation([CitationItem(item["id"])]))
    (rendered,) = (str(e) for e in bibliography.bibliography())
    assert "The rule matrix" in rendered and "2026" in rendered


def test_no_date_known_leaves_the_citation_undated() -> None:
    cited = page_citation(DEFAULT, Edition("0.1.0", None, "no date known"), MATRIX)
    assert cited.text.endswith("Bouillotte compared. Version 0.1.0, n.d.")  # Chicago 14.145
    assert "issued" not in json.loads(cited.csl_json)[0]


def test_a_bad_edition_date_is_one_line_at_its_line(tmp_path: Path) -> None:
    file = tmp_path / "site.yaml"
    file.write_text("title: Mine\nedition_date: 1st of May\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_config(file)
    message = caught.value.describe()
    assert "site.yaml:2" in message and "edition_date" in message


def test_editors_and_edition_date_are_read_from_the_file(tmp_path: Path) -> None:
    file = tmp_path / "site.yaml"
    file.write_text(
        "title: Mine\neditors: ['Martin, Paul']\nedition_date: 2027-01-02\n", encoding="utf-8"
    )
    config, _ = load_config(file)
    assert config.editors == ["Martin, Paul"] and config.edition_date == date(2027, 1, 2)
    assert page_citation(config, EDITION, MATRIX).text.startswith(
        "Martin, Paul, ed. “The rule matrix.” Mine. Version 0.1.0, January 2, 2027."
    )


def test_the_edition_date_is_the_editors_never_the_tools_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bouillotte.site.edition import edition

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    # This checkout has commits: before, their date dated every site built from it.
    undated = edition()
    assert undated.date is None and undated.date_from == "no date given"
    assert edition(date(2027, 3, 4)).date == "2027-03-04"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # 2025-12-01 00:00 UTC
    assert edition().date == "2025-12-01"
    assert edition(date(2027, 3, 4)).date == "2027-03-04"  # site.yaml's comes first


def test_a_build_without_a_date_says_in_one_line_how_to_set_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bouillotte.rules.resources import bundled
    from bouillotte.site import builder

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    said: list[str] = []
    builder._render(builder._environment(bundled("site")), [], said.append, DEFAULT)
    (line,) = [s for s in said if "edition date" in s]
    assert "edition_date: YYYY-MM-DD in site.yaml" in line and "\n" not in line
    said.clear()
    dated = SiteConfig(edition_date=date(2027, 3, 4))
    builder._render(builder._environment(bundled("site")), [], said.append, dated)
    assert not [s for s in said if "edition date" in s]


def test_bouillotte_new_writes_todays_date(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from bouillotte.cli.app import app

    before = date.today()
    done = CliRunner().invoke(app, ["new", str(tmp_path / "mine")])
    assert done.exit_code == 0, done.output
    config, _ = load_config(tmp_path / "mine" / "site.yaml")
    assert config.edition_date in (before, date.today())  # the day it was made


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("2027-3-4", "must be a day written YYYY-MM-DD"),
        ("'2027-02-30'", "not a date that exists"),
        ("2027-02-30", "not a date that exists"),
        ("2027-03-04 10:00:00", "must be a day written YYYY-MM-DD"),
        ("20270304", "must be a day written YYYY-MM-DD"),
    ],
)
def test_an_edition_date_is_read_strictly(tmp_path: Path, written: str, said: str) -> None:
    file = tmp_path / "site.yaml"
    file.write_text(f"title: Mine\n\nedition_date: {written}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_config(file)
    message = caught.value.describe()
    assert message.startswith(f"{file}:3: edition_date: ") and said in message
    assert "(value: " in message


def test_a_quoted_day_is_a_day(tmp_path: Path) -> None:
    file = tmp_path / "site.yaml"
    file.write_text("edition_date: '2027-03-04'\n", encoding="utf-8")
    assert load_config(file)[0].edition_date == date(2027, 3, 4)
