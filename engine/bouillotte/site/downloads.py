"""The site's data as files to download: each profile (YAML and JSON, every rule resolved
with its citation), the matrix (CSV and JSON), each scenario's outcome under every system
(JSON), the exact odds (CSV), and the bibliography files when the bibliography ships them.

Every file is written with sorted keys and ``\\n`` line ends, so builds stay byte-identical.
A JSON or YAML file writes each character the pages show as an escape (a bidirectional
override, DEL, a C1 control, a noncharacter: ``escaping.visible_controls``) as its escape in
the format (``\\u202e``): the value read back is the same, the file shows no raw control.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import yaml

from ..rules.escaping import csv_line, spreadsheet_text, visible_controls
from ..rules.profile import rule_paths
from ..rules.variant import Variant
from ..study.compare import Comparison
from .cache import cached
from .rules import plain, rule_label, value_words
from .stats import StatSection

_EMITTER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_EMITTER):  # type: ignore[misc]
    """libyaml's emitter where it is installed (ten times faster; the same text as PyYAML's
    own for these files, which a test checks), else PyYAML's; a text holding a character
    the pages escape is written in double quotes, where its escape is YAML (:func:`_yaml`)."""


def _text(dumper: Any, text: str) -> Any:
    style = '"' if visible_controls(text) is not text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _text)
_DUMPER: Any = _Dumper


def profile_path(variant_id: str, ext: str) -> str:
    return f"data/profiles/{variant_id}.{ext}"


def scenario_path(scenario_id: str) -> str:
    return f"data/scenarios/{scenario_id}.json"


MATRIX_CSV = "data/matrix.csv"
MATRIX_JSON = "data/matrix.json"
ODDS_CSV = "data/odds.csv"
BIBLIOGRAPHY_BIB = "data/bibliography.bib"
BIBLIOGRAPHY_JSON = "data/bibliography.json"
"""The bibliography (BibTeX and CSL-JSON), as at the site's root, among the data."""
TIDY_FOLDER = "data/tidy"
"""The tidy tables (``site/tidydata.py``): ``<name>.csv`` and ``<name>.json`` each."""
DATAPACKAGE = "data/datapackage.json"
"""The Frictionless Data Package describing every file under ``data/``."""


STRONG_BANDS = "strong_bands"
"""The tidy table of the strong-play bands the pair page of foster and pagat and the
every-rule page show (``site/strong_bands.py``), with each page's verdicts."""


def tidy_path(name: str, ext: str) -> str:
    return f"{TIDY_FOLDER}/{name}.{ext}"


def effects_table_name(system: str, towards: str) -> str:
    """The tidy table of one pair's stored rule effects, the rows of its pair page's (or
    the every-rule page's) tables: ``data/tidy/effects/<system>__<towards>.csv`` and
    ``.json``. The table ``effects`` holds every pair's rows together."""
    return f"effects/{system}__{towards}"


def escaped_json(text: str) -> str:
    """A JSON text with each character the pages show as an escape written as its JSON
    escape (``\\u202e``). JSON writes such a character raw only inside a string, where
    ``\\uXXXX`` is the same character: the value read back is unchanged."""
    return visible_controls(text)


def _json(data: Any) -> str:
    return escaped_json(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n")


def _yaml(data: Any) -> str:
    """``data`` (plain JSON values) as YAML. Writing it is the slowest part of the files
    to download, and the text depends on nothing but the data and PyYAML: it is kept in
    the build cache, keyed by both. A text holding a character the pages escape is double
    quoted (:class:`_Dumper`), where PyYAML writes a bidirectional control raw: it is
    written as its escape, which YAML reads back as the same character."""

    def write() -> str:
        text = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=True, width=100)
        return visible_controls(text)

    key = {"data": data, "pyyaml": yaml.__version__, "controls": "escaped"}
    text: str = cached("yaml", key, write)
    return text


NAMES = SimpleNamespace(
    profile_path=profile_path,
    scenario_path=scenario_path,
    tidy_path=tidy_path,
    effects_table_name=effects_table_name,
    MATRIX_CSV=MATRIX_CSV,
    MATRIX_JSON=MATRIX_JSON,
    ODDS_CSV=ODDS_CSV,
    BIBLIOGRAPHY_BIB=BIBLIOGRAPHY_BIB,
    BIBLIOGRAPHY_JSON=BIBLIOGRAPHY_JSON,
    TIDY_FOLDER=TIDY_FOLDER,
    DATAPACKAGE=DATAPACKAGE,
    STRONG_BANDS=STRONG_BANDS,
)
"""What templates call ``downloads``: the names of the files to download, and only them (a
module given to a template reaches every module it imports, ``os`` and ``open`` among
them)."""


def standing_words(variant: Variant, path: str) -> str:
    """How the system's source stands behind a value, in the words of the matrix CSV:
    ``documented``, ``agreement``, ``paraphrased``, ``inferred``, ``reconstructed``,
    ``inherited from foster`` (the source is silent) or ``uncited``."""
    provenance = variant.provenance(path)
    if provenance.source_silent:
        return f"inherited from {provenance.inherited_from}"
    return provenance.status


def value_provenance(variant: Variant, path: str) -> dict[str, Any]:
    """Where one value of a system comes from, for the downloads: its standing
    (``stated``, ``inferred``, ``inherited``, ``uncited``), its status, the system it is
    inherited from when the system's source is silent, and the citation it rests on (its
    work, locator, quote and, for a quote in another language, its translation).

    For an inherited value the citation is that of the system it is inherited from: it
    is that system's source, not this system's, that states the value."""
    provenance = variant.provenance(path)
    citation = variant.citation(path)
    found: dict[str, Any] = {
        "standing": provenance.standing.value,
        "status": provenance.status,
        "inherited_from": provenance.inherited_from if provenance.source_silent else None,
        "source": None,
        "locator": None,
        "quote": None,
    }
    if citation is not None:
        found["source"] = citation.source
        found["locator"] = citation.locator
        found["quote"] = citation.quote
        if citation.translation:
            found["translation"] = citation.translation
    return found


def profile_data(variant: Variant) -> dict[str, Any]:
    """A profile with everything it extends resolved: each rule's value and citation, its
    standing and status, and (when the profile's own source is silent) the system it is
    inherited from."""
    rules: dict[str, Any] = {}
    for path in rule_paths():
        citation = variant.citation(path)
        provenance = variant.provenance(path)
        entry: dict[str, Any] = {
            "value": plain(variant.value(path)),
            "defined_in": variant.info[path].defined_in,
            "standing": provenance.standing.value,
            "status": provenance.status,
            "inherited_from": provenance.inherited_from if provenance.source_silent else None,
        }
        if citation is not None:
            entry["citation"] = {
                k: v
                for k, v in citation.model_dump(mode="json").items()
                if v is not None
                and k in ("source", "locator", "quote", "status", "reason", "translation")
            }
        rules[path] = entry
    return {
        "id": variant.id,
        "title": variant.title,
        "short": variant.short,
        "source": variant.source,
        "extends": variant.extends,
        "rules": rules,
    }


def _csv(rows: Sequence[Sequence[str]]) -> str:
    # An editor's words (a locator, a quote, a title) are text: never a formula
    return "".join(
        csv_line([spreadsheet_text(c) if isinstance(c, str) else c for c in r]) for r in rows
    )


PROVENANCE_COLUMNS: tuple[str, ...] = ("standing", "source", "locator", "quote")
"""The columns the matrix CSV has for each system after its value column, named
``<system>: standing`` and so on (see :func:`matrix_csv_rows`)."""


def matrix_csv_rows(variants: Sequence[Variant]) -> list[list[str]]:
    """The matrix as CSV rows, one per rule: ``rule``, ``name``, then each system's value
    in words (a column named by the system's id, as before), then for each system its
    standing (:func:`standing_words`), the work its value rests on, the locator and the
    quote (``<id>: standing``, ``<id>: source``, ``<id>: locator``, ``<id>: quote``; empty
    for an uncited value)."""
    ids = [v.id for v in variants]
    header = ["rule", "name", *ids]
    header += [f"{i}: {column}" for i in ids for column in PROVENANCE_COLUMNS]
    rows = [header]
    for path in rule_paths():
        row = [path, rule_label(path), *(value_words(v.value(path)) for v in variants)]
        for v in variants:
            found = value_provenance(v, path)
            row += [standing_words(v, path), *(found[k] or "" for k in PROVENANCE_COLUMNS[1:])]
        rows.append(row)
    return rows


def matrix_json(variants: Sequence[Variant]) -> dict[str, Any]:
    """The matrix as JSON: ``systems`` (ids, in the matrix's order), and for each rule its
    ``name``, ``values`` (each system's value as the profiles give it) and ``provenance``
    (each system's :func:`value_provenance`)."""
    matrix: dict[str, Any] = {"systems": [v.id for v in variants], "rules": {}}
    for path in rule_paths():
        matrix["rules"][path] = {
            "name": rule_label(path),
            "values": {v.id: plain(v.value(path)) for v in variants},
            "provenance": {v.id: value_provenance(v, path) for v in variants},
        }
    return matrix


def data_files(
    variants: Sequence[Variant],
    comparisons: Sequence[Comparison],
    statistics: Sequence[StatSection],
) -> dict[str, str]:
    files: dict[str, str] = {}
    for v in variants:
        data = profile_data(v)
        files[profile_path(v.id, "json")] = _json(data)
        files[profile_path(v.id, "yaml")] = _yaml(json.loads(json.dumps(data)))
    files[MATRIX_CSV] = _csv(matrix_csv_rows(variants))
    files[MATRIX_JSON] = _json(matrix_json(variants))
    for c in comparisons:
        outcomes = {
            r.variant.id: {k: v for k, v in r.data.items() if k not in ("events",)}
            for r in c.results
        }
        files[scenario_path(c.scenario.id)] = _json(
            {"scenario": c.scenario.id, "title": c.scenario.model.title, "outcomes": outcomes}
        )
    odds = [["table", "caption", "row", "column", "value"]]
    for section in statistics:
        if section.id != "odds":
            continue
        for table in section.tables:
            for row in table.rows:
                for column, value in zip(table.columns[1:], row[1:], strict=False):
                    odds.append([table.id, table.caption, row[0], column, value])
    if len(odds) > 1:
        files[ODDS_CSV] = _csv(odds)
    return files
