"""The site's tables as tidy data (issue 50): the files under ``data/tidy/`` (CSV and JSON
of each table, :mod:`bouillotte.study.tidy`) and ``data/datapackage.json``, the
Frictionless Data Package that describes every download with its schema.

The tidy files are added beside the downloads that were there before (``matrix.csv``,
``odds.csv``...), which keep their columns: nothing a reader of those relied on changes.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.bibliography import citation_text
from ..rules.history import build_history
from ..rules.profile import rule_paths
from ..rules.profiles import Library
from ..rules.readings import reading_takers, readings_json
from ..rules.variant import Variant
from ..study.compare import Comparison
from ..study.sweep_report import sweep_csv_rows
from ..study.tidy import (
    EFFECTS_COLUMNS,
    Column,
    TidyTable,
    odds_table,
    outcomes_table,
    simulation_table,
    sweep_table,
)
from ..study.tidy_commands import BAND_COLUMNS, band_rows
from ..study.tidy_lists import readings_table, sources_table, statements_table
from .downloads import (
    DATAPACKAGE,
    STRONG_BANDS,
    effects_table_name,
    tidy_path,
    value_provenance,
)
from .effects_store import Stored, effect_pairs, stored_effects
from .everyrule import BASE, NAME, stored_every_rule
from .readings import ReadingView
from .rules import plain, rule_label, value_words
from .stats import StatSection
from .strong_bands import BAND_PAIRS, VERDICTS, BandView, every_rule_views, pair_views
from .tidy_pages import policies_table, reading_deals_table, scenarios_table, steps_table

# -- the matrix, long --------------------------------------------------------------------

MATRIX_COLUMNS: tuple[Column, ...] = (
    Column("rule", "string", "The rule's path in the profile schema."),
    Column("name", "string", "The rule's name in words."),
    Column("system", "string", "The system (a profile id)."),
    Column("value", "string", "The system's value in words (as the matrix shows it)."),
    Column(
        "value_json",
        "string",
        "The value as the profile gives it, as JSON text (a word, a number, a list...).",
    ),
    Column(
        "standing",
        "string",
        "How the value stands: stated, inferred, inherited (the source is silent) or uncited.",
    ),
    Column("status", "string", "The citation's status: documented, paraphrased, ..."),
    Column("inherited_from", "string", "Where the source is silent: the system it comes from."),
    Column("source", "string", "The work the value rests on (an id of the bibliography)."),
    Column("locator", "string", "Where in the work."),
    Column("quote", "string", "The sentence the value rests on."),
)


def matrix_table(
    variants: Sequence[Variant], rules: Sequence[str] | None = None, name: str = "matrix"
) -> TidyTable:
    """The rule matrix, long: one row per rule and system (the wide ``matrix.csv`` has a
    column per system and per system's provenance); only ``rules`` where given (``variants
    diff --csv``: the rules that differ)."""

    def records() -> Iterable[dict[str, Any]]:
        for path in rule_paths() if rules is None else rules:
            for v in variants:
                found = value_provenance(v, path)
                yield {
                    "rule": path,
                    "name": rule_label(path),
                    "system": v.id,
                    "value": value_words(v.value(path)),
                    "value_json": json.dumps(plain(v.value(path)), ensure_ascii=False),
                    **{k: found[k] for k in ("standing", "status", "inherited_from")},
                    **{k: found[k] for k in ("source", "locator", "quote")},
                }

    return TidyTable.of(name, "The rule matrix", MATRIX_COLUMNS, records())


# -- the stored rule effects -------------------------------------------------------------------


@dataclass(frozen=True)
class StoredPair:
    """One stored result of ``bouillotte effects``: the pair, and its data or why not."""

    name: str
    system: str
    towards: str
    stored: Stored


def stored_pair(a: Variant, b: Variant) -> StoredPair:
    """One pair's stored effects (``site/effects/A__B.json``)."""
    return StoredPair(f"{a.id}__{b.id}", a.id, b.id, stored_effects(a, b))


def stored_full_sweep(base: Variant) -> StoredPair:
    """The stored full sweep of ``base`` (``site/effects/foster__all-rules.json``)."""
    return StoredPair(NAME, base.id, NAME.split("__", 1)[1], stored_every_rule(base))


def stored_pairs(variants: Sequence[Variant]) -> list[StoredPair]:
    """Every pair's stored effects, then the full sweep's where its base is there."""
    found = [stored_pair(a, b) for a, b in effect_pairs(list(variants))]
    found += [stored_full_sweep(v) for v in variants if v.id == BASE]
    return found


def pair_effects_table(pair: StoredPair) -> TidyTable | None:
    """One pair's stored result (the tables of its pair page, or of the every-rule page),
    a row per policy, combination and measure; ``None`` where it cannot be used."""
    if pair.stored.data is None:
        return None
    rows = sweep_csv_rows(pair.stored.data["report"])
    records = sweep_table(rows, (pair.system, pair.towards)).records()
    title = f"What each rule does: {pair.system} towards {pair.towards}"
    name = effects_table_name(pair.system, pair.towards)
    return TidyTable.of(name, title, EFFECTS_COLUMNS, records)


def effects_table(pairs: Iterable[StoredPair]) -> TidyTable:
    """Every stored result that can be used, a row per pair, policy, combination and
    measure."""
    records: list[dict[str, Any]] = []
    for pair in pairs:
        table = pair_effects_table(pair)
        if table is not None:
            records.extend(table.records())
    return TidyTable.of("effects", "What each rule does", EFFECTS_COLUMNS, records)


# -- the bands as tidy data ---------------------------------------------------------------

STRONG_BAND_COLUMNS: tuple[Column, ...] = (
    *BAND_COLUMNS,
    Column(
        "compared_with",
        "string",
        "The invented players' stored rule effects the band is set beside, and so the page "
        "that shows it: A__B for the pair page of A and B (the rows of "
        "data/tidy/effects/A__B), foster__all-rules for the every-rule page.",
    ),
    Column(
        "verdict",
        "string",
        "Whether the invented players' effect on the measure survives strong play: "
        + ", ".join(VERDICTS)
        + " (docs/data.md); empty for a measure the page does not weigh (a middle seat), "
        "a rule that does not act, or one the invented players' effects do not measure.",
    ),
    Column("sentence", "string", "What the page says of the rule under strong play."),
)


def strong_bands_table(variants: Sequence[Variant], pairs: Sequence[StoredPair]) -> TidyTable:
    """The strong-play bands as the pair page and the every-rule page show them (the
    stored bands of :data:`~.strong_bands.BAND_PAIRS`): a row per page, rule and measure
    (one row with no measure for a rule that does not act), each with the page's verdict on
    the measure and its sentence on the rule. ``pairs``: the stored rule effects the pages
    set the bands beside (:func:`stored_pairs`); a page whose stored effects are missing or
    stale shows no bands, and has no rows."""
    from ..strong.bands import read_bands

    stored = {pair.name: pair.stored for pair in pairs}
    by_id = {v.id: v for v in variants}
    records: list[dict[str, Any]] = []
    for first, second in BAND_PAIRS:
        if first not in by_id or second not in by_id:
            continue
        found = read_bands(by_id[first], by_id[second])
        if found.data is None:
            continue
        data = found.data
        pages: list[tuple[str, Iterable[BandView]]] = []
        for name in (f"{first}__{second}", f"{second}__{first}"):  # stored either way
            pair = stored.get(name)
            if pair is not None and pair.data is not None:
                shown = pair_views(data, pair.data["report"])[0].values()
                pages.append((f"{first}__{second}", shown))  # as pair_bands names it
                break
        every = stored.get(NAME)
        if first == BASE and every is not None and every.data is not None:
            pages.append((NAME, every_rule_views(data, every.data["report"]).values()))
        for compared, views in pages:
            by_rule = {view.rule: view for view in views}
            for record in band_rows(data):
                view = by_rule.get(record["rule"])
                if view is None:
                    continue  # not on the page (the every-rule page has no row of it)
                records.append(
                    record
                    | {
                        "compared_with": compared,
                        "verdict": view.verdicts.get(record.get("measure") or ""),
                        "sentence": view.sentence,
                    }
                )
    title = "The effect of each rule under strong play, as the pages show it"
    return TidyTable.of(STRONG_BANDS, title, STRONG_BAND_COLUMNS, records)


# -- the History page's tables ------------------------------------------------------------


def history_json(library: Library) -> dict[str, Any]:
    """``bouillotte sources --json``: the sources by date (each with its citation), the
    rules with the sources that state them, the words through time."""
    data = build_history(library).to_json()
    for item in data["sources"]:
        item["citation"] = citation_text(library.works[item["id"]])
    return data


# -- every tidy table of the site, and the data package ---------------------------------------


def tidy_tables(
    variants: Sequence[Variant],
    comparisons: Sequence[Comparison],
    odds: Mapping[str, Mapping[str, Any]],
    simulations: Sequence[Mapping[str, Any]],
    history: Mapping[str, Any] | None = None,
    readings: Sequence[Mapping[str, Any]] | None = None,
    reading_views: Sequence[ReadingView] = (),
    policies: bool = False,
) -> list[TidyTable]:
    """The site's tables as tidy tables: the matrix, every scenario's outcome, the
    scenario index and every scenario's play step by step, the exact odds and the
    simulated play (where the statistics page has them), the betting policies (where it
    describes them: ``policies``), the rule effects (where stored): every pair's together,
    then each pair's alone (the download beside its pair page's tables), and the bands
    under strong play the pages show beside them (where stored); the History page's two
    and the Readings page's two (where given)."""
    tables = [
        matrix_table(variants),
        outcomes_table(r.data for c in comparisons for r in c.results),
        scenarios_table(comparisons),
        steps_table(comparisons),
    ]
    if history is not None:
        tables += [sources_table(history), statements_table(history)]
    if readings:
        tables.append(readings_table(readings))
    if reading_views:
        tables.append(reading_deals_table(reading_views))
    if odds:
        tables.append(odds_table(odds))
    if simulations:
        tables.append(simulation_table(simulations))
    if policies:
        tables.append(policies_table())
    pairs = stored_pairs(variants)
    effects = effects_table(pairs)
    if effects.rows:
        tables.append(effects)
    tables.extend(t for t in map(pair_effects_table, pairs) if t is not None)
    bands = strong_bands_table(variants, pairs)
    if bands.rows:
        tables.append(bands)
    return tables


def tidy_files(tables: Sequence[TidyTable]) -> dict[str, str]:
    """Each table as ``data/tidy/<name>.csv`` and ``.json``."""
    files: dict[str, str] = {}
    for table in tables:
        files[tidy_path(table.name, "csv")] = table.csv_text()
        files[tidy_path(table.name, "json")] = table.json_text()
    return files


def _relative(path: str) -> str:
    """A site path as the data package (in ``data/``) names it."""
    return path.removeprefix("data/")


_MEDIA = {"json": "application/json", "yaml": "application/yaml", "bib": "application/x-bibtex"}


def _resource_name(path: str) -> str:
    """A file's name as a Frictionless resource name (lower-case letters, digits, ``-``
    and ``.``): ``tidy/effects/foster__pagat.csv`` is ``tidy-effects-foster--pagat-csv``."""
    return re.sub(r"[^a-z0-9-]", "-", path.lower())


def _string_schema(header: Sequence[str]) -> dict[str, Any]:
    return {"fields": [{"name": name, "type": "string"} for name in header]}


def datapackage(
    tables: Sequence[TidyTable], files: Mapping[str, str], title: str = "Bouillotte"
) -> str:
    """``data/datapackage.json``: every tidy table (its CSV and its JSON, with the table's
    schema), the CSV downloads of before (every column a string: they hold words), and
    each other file under ``data/`` as a plain file (JSON or YAML)."""
    resources: list[dict[str, Any]] = []
    for table in tables:
        for ext, media in (("csv", "text/csv"), ("json", "application/json")):
            resources.append(
                {
                    "name": _resource_name(_relative(tidy_path(table.name, ext))),
                    "title": f"{table.title} ({ext.upper()}, tidy)",
                    "path": _relative(tidy_path(table.name, ext)),
                    "format": ext,
                    "mediatype": media,
                    "encoding": "utf-8",
                    "profile": "tabular-data-resource",
                    "schema": table.schema(),
                }
            )
    tidy = {tidy_path(t.name, e) for t in tables for e in ("csv", "json")}
    for path in sorted(files):
        if not path.startswith("data/") or path in tidy or path == DATAPACKAGE:
            continue
        name = _resource_name(_relative(path))
        ext = path.rsplit(".", 1)[-1]
        resource: dict[str, Any] = {
            "name": name,
            "path": _relative(path),
            "format": ext,
            "encoding": "utf-8",
        }
        if ext == "csv":
            header = files[path].split("\n", 1)[0]
            resource["profile"] = "tabular-data-resource"
            resource["mediatype"] = "text/csv"
            resource["schema"] = _string_schema(next(csv.reader([header])))
        else:
            resource["mediatype"] = _MEDIA.get(ext, "application/octet-stream")
        resources.append(resource)
    package = {
        "profile": "data-package",
        "name": "bouillotte-site-data",
        "title": f"{title}: the site's data",
        "description": (
            "Every download of the site. The tidy tables (data/tidy/) have one observation "
            "per row and typed columns; an exact fraction is its numerator, denominator and "
            "decimal. In the CSV a text cell that would start a spreadsheet formula "
            "(= + - @) begins with an apostrophe; the JSON keeps the text as it is."
        ),
        "resources": resources,
    }
    return json.dumps(package, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def tidy_downloads(
    variants: Sequence[Variant],
    comparisons: Sequence[Comparison],
    statistics: Sequence[StatSection],
    files: Mapping[str, str],
    library: Library | None = None,
    reading_views: Sequence[ReadingView] = (),
) -> dict[str, str]:
    """The files the site's downloads gain: each table tidy (CSV and JSON), and the data
    package describing these and ``files`` (the other downloads) under ``data/``;
    ``reading_views`` are the Readings page's (its deals, played once for the page)."""
    sections = {s.id: s for s in statistics}
    odds = sections["odds"].data if "odds" in sections else {}
    simulations = list(sections["simulate"].data.values()) if "simulate" in sections else []
    history = history_json(library) if library is not None else None
    readings = None
    if library is not None:
        readings = readings_json(library.readings, reading_takers(library.readings, variants))
    # the policies' table where the statistics page shows it (beside the stored effects of
    # the bundled systems: a site of an editor's own systems has neither)
    policies = any(
        t.tidy is not None and t.tidy.name == "policies" for s in statistics for t in s.tables
    )
    tables = tidy_tables(
        variants, comparisons, odds, simulations, history, readings, reading_views, policies
    )
    added = tidy_files(tables)
    added[DATAPACKAGE] = datapackage(tables, {**files, **added})
    return added
