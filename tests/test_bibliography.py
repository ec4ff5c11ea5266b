"""The bibliography exports as a reader's reference manager takes them (issue #25, part 2):
BibTeX whose every entry formats with pybtex's ``plain`` style, of the proper entry type,
with numeric years, ``urldate`` for the works read online and no note; CSL-JSON valid
against the CSL-JSON schema (tests/data/csl-data.json) that renders with citeproc-py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string
from pybtex.plugin import find_plugin

from bouillotte.rules.bibliography import bibtex, csl_json
from bouillotte.rules.profiles import Library

WORKS = Library().works
SCHEMA = json.loads((Path(__file__).parent / "data" / "csl-data.json").read_text("utf-8"))


def _formatted() -> dict[str, str]:
    """Every entry of the BibTeX file, formatted by pybtex's ``plain`` style as text."""
    database = parse_string(bibtex(WORKS), "bibtex")
    style = find_plugin("pybtex.style.formatting", "plain")()
    entries = style.format_entries(database.entries.values())
    return {e.key: e.text.render_as("text") for e in entries}


def test_every_entry_formats_with_pybtex_plain() -> None:
    formatted = _formatted()
    assert set(formatted) == set(WORKS)
    foster = formatted["foster"]
    assert foster.startswith("R. F. Foster. Foster's Complete Hoyle")
    assert "Frederick A. Stokes Company" in foster and "1897" in foster
    assert "visited on 2026-11-30" in foster
    # Titles keep their capitals.
    assert "How to Play Bouillotte" in formatted["cardrulesplus"]
    assert "Dictionnaire de Trévoux" in formatted["trevoux-1771"]
    assert "Paris: Compagnie des libraires associés" in formatted["trevoux-1771"]


def test_entry_types_fit_the_kind_of_work() -> None:
    entries = parse_string(bibtex(WORKS), "bibtex").entries
    types = {key: entry.type for key, entry in entries.items()}
    assert types["foster"] == "book"
    assert types["pagat"] == types["cardrulesplus"] == types["wikipedia-en"] == "online"
    # An article of a reference work by a named body or person: cited in its work.
    assert types["academie-1740"] == types["littre-1873"] == "incollection"
    assert types["britannica-1911"] == "incollection"
    britannica = entries["britannica-1911"]
    assert britannica.fields["title"] == "{Bouillotte}"
    assert britannica.fields["booktitle"] == "{Encyclopaedia Britannica}"
    assert britannica.fields["edition"] == "11th"
    # An edited reference work is a book under its editors.
    assert types["encyclopedie-1752"] == types["pierer-1857"] == "book"
    assert sum(t == "misc" for t in types.values()) <= 3


def test_years_are_numbers_ranges_have_a_date_and_undated_works_none() -> None:
    entries = parse_string(bibtex(WORKS), "bibtex").entries
    for key, entry in entries.items():
        if "year" in entry.fields:
            assert entry.fields["year"].isdigit(), key
    assert entries["pierer-1857"].fields["year"] == "1857"
    assert entries["pierer-1857"].fields["date"] == "1857/1865"
    assert entries["foster"].fields["date"] == "1897/1909"
    # "undated (modern)" and "undated (2020s)": no date at all, so styles print "n.d."
    for key in ("pagat-card", "cardrulesplus"):
        assert "year" not in entries[key].fields and "date" not in entries[key].fields


def test_works_read_online_have_urldate_and_no_entry_has_a_note() -> None:
    text = bibtex(WORKS)
    assert "note" not in text.lower().replace("notes", "")
    assert "Cited by" not in text
    entries = parse_string(text, "bibtex").entries
    for key, entry in entries.items():
        if "url" in entry.fields:
            assert entry.fields.get("urldate") == WORKS[key].accessed, key
    assert entries["pagat"].fields["urldate"] == "2026-11-30"


def _items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(json.dumps(csl_json(WORKS)))
    return items


def test_the_csl_json_validates_against_the_schema() -> None:
    jsonschema.validate(_items(), SCHEMA)
    assert not any("note" in item for item in _items())


def test_the_schema_refuses_what_it_should() -> None:
    """The vendored schema is the real one: it refuses an unknown type and an unknown key."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"id": "x", "type": "rulebook"}], SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"id": "x", "type": "book", "cited-by": "entry"}], SCHEMA)


def test_the_csl_json_renders_with_citeproc() -> None:
    items = _items()
    # The style citeproc-py ships.
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), csl_formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == len(WORKS)
    assert any("Littré" in entry and "1873" in entry for entry in rendered)
    by_id = {i["id"]: i for i in items}
    assert by_id["littre-1873"]["container-title"] == "Dictionnaire de la langue française, t. 1"
    assert by_id["pagat"]["accessed"] == {"date-parts": [[2026, 11, 30]]}
    assert "issued" not in by_id["pagat-card"]
