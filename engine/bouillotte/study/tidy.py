"""Tidy tables: every report of this tool as one observation per row, in typed columns,
for a spreadsheet, R or pandas (issue 50).

A :class:`TidyTable` has named, typed columns (``string``, ``integer``, ``number``,
``boolean``: the types of a Frictionless Table Schema, :meth:`TidyTable.schema`) and rows
of plain values. A number is a number, never a display string: an exact fraction is three
columns (``numerator``, ``denominator`` and ``decimal``), a rate its ``count``, ``n`` and
``rate``, an interval its ``ci95_low`` and ``ci95_high``. The same table is written as CSV
(:meth:`TidyTable.csv_text`) and as JSON (:meth:`TidyTable.json_text`: an array of
objects, one per row, which Frictionless also reads as a table), and becomes a pandas
DataFrame with :meth:`TidyTable.to_frame` (pandas is the optional extra ``frames``).

**Formula injection.** A spreadsheet runs a cell that begins with ``=``, ``+``, ``-``,
``@`` (or a tab or carriage return) as a formula, and some of our text cells carry a
user's words (an editor's rule values, quotes, locators, scenario and system ids). In the
CSV, a *text* column's cell that begins with one of these characters is written with a
leading apostrophe (``'=1+2``), as OWASP advises; numeric columns are never touched (a
``-3`` stays a number). The JSON keeps every text exactly as it is: read the JSON where
the exact text matters. ``docs/data.md`` says so for the user.

Converters from the study's reports: :func:`simulation_table` (``simulate``),
:func:`odds_table` (``odds``), :func:`sweep_table` (``sweep``, and the stored rule effects),
:func:`comparison_table` (``compare``, one scenario's outcome under several systems);
those of the reports that list (systems, sources, readings, sessions) are in
:mod:`.tidy_lists`.
"""

from __future__ import annotations

import importlib
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..rules.writing import write_file

if TYPE_CHECKING:
    from .compare import Comparison
    from .odds import OddsReport

FieldType = Literal["string", "integer", "number", "boolean"]
Cell = str | int | float | bool | None


FRAMES_MISSING = (
    "to_frame() needs pandas, which is an optional extra of bouillotte: "
    "pip install 'bouillotte[frames]' (or pip install pandas)"
)
"""The message of the ImportError raised where pandas is not installed."""


@dataclass(frozen=True)
class Column:
    """One column: its name, its type and what it holds."""

    name: str
    type: FieldType
    description: str

    def field(self) -> dict[str, Any]:
        """The column as a field of a Frictionless Table Schema."""
        return {"name": self.name, "type": self.type, "description": self.description}


def csv_cell(value: Cell, kind: FieldType) -> str:
    """One value as CSV text: empty for none, ``true``/``false``, a number as Python
    writes it, a text with a leading apostrophe where it would start a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "string":
        # imported here: rules/escaping loads pydantic, which `bouillotte --help` must not
        from ..rules.escaping import spreadsheet_text

        return spreadsheet_text(str(value))
    return repr(value) if isinstance(value, float) else str(value)


def _checked(value: Any, column: Column) -> Cell:
    """``value`` if it fits the column's type (an integer fits a number column), else a
    ``TypeError`` naming the column: a display string never slips into a number; and a
    ``ValueError`` for a number that is not finite, which JSON cannot hold (a figure that
    cannot be computed is ``None``, an empty cell)."""
    if value is None:
        return None
    fits = {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, int | float) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
    }[column.type]
    if not fits:
        raise TypeError(f"column {column.name!r} is {column.type}, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"column {column.name!r} holds {value!r}, which JSON cannot write")
    result: Cell = value
    return result


def _csv_path(path: object) -> Path:
    """The ``path`` given to :meth:`TidyTable.to_csv` from Python: a str or an
    ``os.PathLike`` of one, and not empty (``Path("")`` is the current folder)."""
    from ..rules.errors import InputError

    text = os.fspath(path) if isinstance(path, str | os.PathLike) else None
    if not isinstance(text, str):
        raise InputError(
            f"a CSV file is a path (a str or a Path), not {type(path).__name__}", field="path"
        )
    if not text:
        raise InputError("the empty text names no file", field="path", value="", has_value=True)
    if "\0" in text:
        raise InputError("a path holds no NUL character (\\x00)", field="path")
    return Path(text)


@dataclass(frozen=True)
class TidyTable:
    """A table of typed columns, one observation per row.

    It prints as one line (its name, its size and its columns); ``rows`` holds the
    values, :meth:`records` the rows as dictionaries."""

    name: str
    """The table's name, in lower case with hyphens (a Frictionless resource name)."""
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]

    @classmethod
    def of(
        cls,
        name: str,
        title: str,
        columns: Sequence[Column],
        records: Iterable[Mapping[str, Any]],
    ) -> TidyTable:
        """A table from dictionaries (a key that is missing is an empty cell; a key that
        names no column, or a value of the wrong type, is a ``TypeError``)."""
        names = {c.name for c in columns}
        rows = []
        for record in records:
            extra = set(record) - names
            if extra:
                raise TypeError(f"no column {sorted(extra)[0]!r} in table {name!r}")
            rows.append(tuple(_checked(record.get(c.name), c) for c in columns))
        return cls(name, title, tuple(columns), tuple(rows))

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def records(self) -> list[dict[str, Cell]]:
        return [dict(zip(self.column_names, row, strict=True)) for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        shown = ", ".join(self.column_names[:8])
        more = f", … ({len(self.columns)} columns)" if len(self.columns) > 8 else ""
        return f"<TidyTable {self.name}: {len(self.rows)} rows; {shown}{more}>"

    def csv_text(self) -> str:
        """The table as CSV: a header line, then one line per row (``\\n`` line ends)."""
        from ..rules.escaping import csv_line  # loads pydantic: see csv_cell

        kinds = [c.type for c in self.columns]
        lines = [csv_line(self.column_names)]
        lines += [
            csv_line([csv_cell(v, k) for v, k in zip(row, kinds, strict=True)]) for row in self.rows
        ]
        return "".join(lines)

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """The table as CSV text (:meth:`csv_text`), as every result of the Python API
        gives it; with ``path``, also written there, whole or not at all."""
        target = None if path is None else _csv_path(path)
        text = self.csv_text()
        if target is not None:
            write_file(target, text, "the CSV file")
        return text

    def json_text(self) -> str:
        """The table as JSON: an array of objects, one per row (a line each), every
        column in each."""
        lines = [
            json.dumps(r, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            for r in self.records()
        ]
        return "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"

    def schema(self) -> dict[str, Any]:
        """The Frictionless Table Schema of the table (its fields and their types)."""
        return {"fields": [c.field() for c in self.columns]}

    def to_frame(self) -> Any:
        """The table as a pandas DataFrame, each column of its type (pandas' nullable
        ``Int64``, ``Float64``, ``boolean`` and ``string``, so an empty cell is ``<NA>``).
        An integer column holding a value past ``Int64`` (a seed of 20 digits, which the
        command line and the API take) keeps Python's whole numbers (``object``), exact.
        Needs pandas: ``pip install 'bouillotte[frames]'``."""
        try:
            pd: Any = importlib.import_module("pandas")
        except ImportError as exc:
            raise ImportError(FRAMES_MISSING) from exc
        dtypes = {"string": "string", "integer": "Int64", "number": "Float64", "boolean": "boolean"}
        frame = pd.DataFrame.from_records(list(self.rows), columns=self.column_names)
        kinds = {
            c.name: dtypes[c.type] if c.type != "integer" or self._fits_int64(i) else "object"
            for i, c in enumerate(self.columns)
        }
        return frame.astype(kinds)

    def _fits_int64(self, column: int) -> bool:
        """Whether every value of an integer column fits pandas' ``Int64``."""
        return all(
            value is None or -(2**63) <= value < 2**63  # type: ignore[operator]
            for value in (row[column] for row in self.rows)
        )


def _c(name: str, kind: FieldType, description: str) -> Column:
    return Column(name, kind, description)


# -- simulate -------------------------------------------------------------------------

SIMULATION_COLUMNS: tuple[Column, ...] = (
    _c("variant", "string", "The system simulated (a profile id)."),
    _c("policy", "string", "The betting policy every seat plays."),
    _c("seed", "integer", "The seed: deal i is dealt from its own stream of (seed, i)."),
    _c("deals", "integer", "Deals simulated."),
    _c("measure", "string", "What is measured (a key of `simulate --json`)."),
    _c(
        "category",
        "string",
        "Which one of the measure: what decides the pool, the seat (1 is the dealer's "
        "right), the situation, the hand; empty for a measure of one figure.",
    ),
    _c("statistic", "string", "rate (count of n), mean (of n values) or count."),
    _c("count", "integer", "For a rate: the deals (or hands) counted; for a count: it."),
    _c("n", "integer", "For a rate or a mean: how many deals (or hands) it is over."),
    _c("value", "number", "The rate (0 to 1), the mean or the count."),
    _c("ci95_low", "number", "The 95% interval's low end (Wilson for a rate)."),
    _c("ci95_high", "number", "The 95% interval's high end."),
    _c(
        "interval",
        "string",
        "For a mean: normal, declined (too few values not 0, or one too large: the "
        "interval is only indicative) or unchanged (0 in every deal).",
    ),
    _c(
        "cannot_occur",
        "string",
        "Why the figure cannot occur under the system (its rules rule it out: no suit wins "
        "the point where the whole hand counts); empty where it can, so that an empty "
        "value is no data, not an impossibility.",
    ),
    _c(
        "played_by",
        "string",
        "Who played the steps: the policy, but advised under strong where no strong "
        "strategy is stored for the system's rules (advised then plays every step).",
    ),
)


def _summary_record(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A rate (``count``, ``n``, ``rate``) or a mean (``n``, ``mean``) as the columns."""
    low, high = summary.get("ci95") or (None, None)
    if "rate" in summary:
        return {
            "statistic": "rate",
            "count": summary["count"],
            "n": summary["n"],
            "value": summary["rate"],
            "ci95_low": low,
            "ci95_high": high,
            "cannot_occur": summary.get("cannot_occur"),
        }
    return {
        "statistic": "mean",
        "n": summary["n"],
        "value": summary["mean"],
        "ci95_low": low,
        "ci95_high": high,
        "interval": summary.get("interval"),
    }


def simulation_records(report: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """One row per figure of one system's ``simulate`` report (``simulate --json``)."""
    head = {k: report[k] for k in ("variant", "policy", "seed", "deals")}
    head["played_by"] = report.get("played_by", report["policy"])
    for measure, value in report.items():
        if measure in head:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            yield head | {"measure": measure, "statistic": "count", "count": value, "value": value}
            continue
        if not isinstance(value, Mapping):
            continue
        if "n" in value:
            yield head | {"measure": measure, "category": None} | _summary_record(value)
            continue
        for category, summary in value.items():
            yield head | {"measure": measure, "category": category} | _summary_record(summary)


def simulation_table(reports: Sequence[Mapping[str, Any]]) -> TidyTable:
    """The ``simulate`` reports of several systems as one tidy table."""
    records = [r for report in reports for r in simulation_records(report)]
    return TidyTable.of("simulation", "Simulated play", SIMULATION_COLUMNS, records)


# -- odds -----------------------------------------------------------------------------

ODDS_COLUMNS: tuple[Column, ...] = (
    _c("variant", "string", "The system (a profile id)."),
    _c("players", "integer", "Players dealt to."),
    _c("pack_cards", "integer", "Cards in the pack."),
    _c("deals", "integer", "Distinct deals counted (every one, no sampling)."),
    _c("scope", "string", "player (any one player), table (the whole deal) or point."),
    _c(
        "measure",
        "string",
        "The figure (a key of `odds --json`): simple_brelan, carre, favori, brelan, "
        "mistigri, brelan_or_favori, two_or_more_brelans, brelan_count, no_brelan, "
        "winning_total, mean, tie, retourne_suit_strictly_richest.",
    ),
    _c(
        "at",
        "integer",
        "For brelan_count: how many hands hold three of a kind; for winning_total: the "
        "winning point; empty otherwise.",
    ),
    _c("numerator", "integer", "The exact value's numerator (lowest terms)."),
    _c("denominator", "integer", "The exact value's denominator."),
    _c("decimal", "number", "numerator / denominator."),
)


def _fraction(text: str) -> tuple[int, int]:
    numerator, _, denominator = text.partition("/")
    return int(numerator), int(denominator or 1)


def odds_records(variant_id: str, data: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """One row per exact figure of ``odds --json`` for one system (its ``to_json()``)."""
    head = {
        "variant": variant_id,
        "players": data["players"],
        "pack_cards": 4 * len(data["pack"]),
        "deals": data["deals"],
    }

    def row(scope: str, measure: str, at: int | None, value: Mapping[str, Any]) -> dict[str, Any]:
        numerator, denominator = _fraction(str(value["fraction"]))
        return head | {
            "scope": scope,
            "measure": measure,
            "at": at,
            "numerator": numerator,
            "denominator": denominator,
            "decimal": numerator / denominator,
        }

    for scope in ("player", "table", "point"):
        for measure, value in data.get(scope, {}).items():
            if not isinstance(value, Mapping):
                continue  # counted_cards, exact, not_counted: words, not figures
            if "fraction" in value:
                yield row(scope, measure, None, value)
                continue
            for at, figure in sorted(value.items(), key=lambda kv: int(kv[0])):
                yield row(scope, measure, int(at), figure)


def odds_table(reports: Mapping[str, OddsReport | Mapping[str, Any]]) -> TidyTable:
    """The exact odds of several systems (a report, or its JSON) as one tidy table; a
    system whose odds are not counted (a string in place of its report) has no row."""
    records: list[dict[str, Any]] = []
    for variant_id, report in reports.items():
        data = report if isinstance(report, Mapping) else report.to_json()
        records.extend(odds_records(variant_id, data))
    return TidyTable.of("odds", "Exact odds of the deal", ODDS_COLUMNS, records)


# -- sweep and the stored rule effects ----------------------------------------------------

SWEEP_COLUMNS: tuple[Column, ...] = (
    _c("policy", "string", "The betting policy every seat plays."),
    _c(
        "combination",
        "string",
        "The rules changed from the base (rule=value, joined by ' + '), or 'base'.",
    ),
    _c("status", "string", "ok, or why the combination was not played (invalid)."),
    _c("metric", "string", "What is measured (a key of the report's metrics)."),
    _c("value", "number", "The rate (0 to 1), the mean or the spread (sd)."),
    _c("ci95_low", "number", "The 95% interval's low end."),
    _c("ci95_high", "number", "The 95% interval's high end."),
    _c("diff", "number", "The difference from the base on the same deals."),
    _c("diff_ci95_low", "number", "The difference's 95% interval (paired), low end."),
    _c("diff_ci95_high", "number", "The difference's 95% interval, high end."),
    _c("deals", "integer", "Deals played under the combination."),
    _c("error", "string", "Why the combination could not be played."),
    # Added at the end: the columns above keep their names and order.
    _c(
        "interval",
        "string",
        "For a mean: normal, declined (fewer than 100 deals not 0, or one carrying more than "
        "a tenth of the sum of squares: the interval is only indicative) or unchanged (0 in "
        "every deal), as simulate judges a mean; for the spread (pool_spread): declined on "
        "fewer than 100 deals or where one deal may carry more than a tenth of the fourth "
        "moment, unchanged where every pool is the same; empty for a rate (Wilson) and a "
        "stored file written before these were judged.",
    ),
    _c("nonzero", "integer", "For a mean: the deals whose value is not 0."),
    _c("largest", "integer", "For a mean: the largest magnitude of a deal's value."),
    _c(
        "diff_interval",
        "string",
        "The difference's interval: normal, declined (diff_ci95 is then only indicative: "
        "the report gives no interval) or unchanged (no deal moved).",
    ),
    _c("diff_clear", "boolean", "The difference's interval is normal and excludes 0."),
    _c("diff_moved", "integer", "Deals whose figure differs from the base's."),
    _c("diff_largest", "integer", "The largest magnitude of a deal's difference."),
    _c(
        "came_into_play",
        "integer",
        "Deals in which the combination changed something offered, an action or a figure.",
    ),
    _c(
        "acts",
        "string",
        "acted, did-not-act (read, changed nothing), not-read (no deal of these read the "
        "rule) or cannot-act (the rules prove that no deal can read it); empty for the base.",
    ),
)
"""The columns of ``sweep --csv``: the same names and order as before issue 50, then those
added after them (what may be said of each interval, and whether the rules came into play)."""

EFFECTS_COLUMNS: tuple[Column, ...] = (
    _c("system", "string", "The system whose rules are switched (a profile id)."),
    _c("towards", "string", "The system whose values they are switched to."),
    *SWEEP_COLUMNS,
)


def sweep_table(
    rows: Iterable[Mapping[str, Any]], pair: tuple[str, str] | None = None
) -> TidyTable:
    """The rows of ``sweep_report.sweep_csv_rows`` as a tidy table; with ``pair``, a
    stored rule-effects file's (:data:`EFFECTS_COLUMNS`: the pair named in each row)."""
    if pair is None:
        return TidyTable.of("sweep", "Sweep", SWEEP_COLUMNS, rows)
    system, towards = pair
    return TidyTable.of(
        "effects",
        "What each rule does",
        EFFECTS_COLUMNS,
        ({"system": system, "towards": towards, **r} for r in rows),
    )


# -- compare: one scenario under several systems -------------------------------------------

OUTCOME_COLUMNS: tuple[Column, ...] = (
    _c("scenario", "string", "The scenario (its id)."),
    _c("variant", "string", "The system the deal is played under."),
    _c("status", "string", "settled, uncontested, void or illegal."),
    _c("player", "string", "The player (as the scenario names them)."),
    _c("cave", "integer", "The player's cave (stake on the table) after the deal."),
    _c("ledger", "integer", "The player's bonus ledger after the deal (0 where none is kept)."),
    _c("net", "integer", "The player's whole change over the deal (cave and ledger)."),
    _c("carry", "integer", "The pool carried to the next deal."),
    _c(
        "carried_in",
        "integer",
        "The pool carried into this deal from a void deal (0 where none): the nets of a "
        "deal played on one add up to it.",
    ),
    _c(
        "readings",
        "string",
        "The readings played in place of the system's own rules (--reading), as "
        "rule=value joined by ' + '; empty where the system plays its own rules.",
    ),
)


def carried_in(data: Mapping[str, Any]) -> int:
    """The pool carried into a deal, from its ``run --json`` events (``carried-in``)."""
    return sum(e.get("amount", 0) for e in data.get("events", ()) if e.get("type") == "carried-in")


def outcome_records(data: Mapping[str, Any]) -> Iterable[dict[str, Any]]:
    """One row per player of one ``run --json`` result (an illegal deal: one row, no
    player)."""
    head = {
        "scenario": data["scenario"],
        "variant": data["variant"],
        "status": data["status"],
        "carry": data.get("carry"),
        "carried_in": carried_in(data),
        "readings": readings_text(data.get("readings") or ()),
    }
    players = data.get("players") or {}
    if not players:
        yield head
    for name, figures in players.items():
        yield head | {
            "player": name,
            "cave": figures.get("cave"),
            "ledger": figures.get("ledger"),
            "net": figures.get("net"),
        }


def readings_text(readings: Iterable[Mapping[str, Any]]) -> str | None:
    """The readings a deal was played under (``run --json``'s ``readings``), as
    ``rule=value`` joined by `` + `` (as ``--reading`` writes them); ``None`` for none."""
    words = [
        f"{r['rule']}={json.dumps(r['value']) if isinstance(r['value'], bool) else r['value']}"
        for r in readings
    ]
    return " + ".join(words) or None


def outcomes_table(results: Iterable[Mapping[str, Any]], name: str = "outcomes") -> TidyTable:
    """Several ``run --json`` results as one tidy table, a row per player."""
    records = [r for data in results for r in outcome_records(data)]
    return TidyTable.of(name, "Outcomes of the scenarios", OUTCOME_COLUMNS, records)


def comparison_table(comparisons: Iterable[Comparison]) -> TidyTable:
    """``compare``: each scenario's outcome under each system, a row per player, with the
    readings each system played (``--reading``)."""
    return outcomes_table(
        (
            {**r.data, "readings": [a.to_json() for a in c.rereads.get(r.variant.id, ())]}
            for c in comparisons
            for r in c.results
        ),
        "comparison",
    )
