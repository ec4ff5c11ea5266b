"""The Readings page: each ambiguous sentence, its readings, and the deal under each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.errors import InputError
from ..rules.profiles import Library
from ..rules.readings import Reading, rule_value
from ..rules.variant import Variant
from ..study.scenario import (
    ReadingCase,
    RunResult,
    Scenario,
    reading_cases,
    run_reading,
    run_scenario,
)


@dataclass(frozen=True)
class ReadingColumn:
    """One reading of the sentence, and the scenario's deal played under it."""

    value: Any
    meaning: str
    variants: list[str]
    """The systems whose profile takes this reading."""
    own: bool
    """Whether this is the reading of the variant the scenario is played under."""
    result: RunResult | None
    problem: str
    """Why the deal could not be played under this reading (no expected outcome written)."""


@dataclass(frozen=True)
class Cell:
    text: str
    differs: bool
    """Whether it differs from the cell of the variant's own reading."""


@dataclass(frozen=True)
class Row:
    label: str
    cells: list[Cell]


@dataclass(frozen=True)
class ReadingView:
    reading: Reading
    variant: str
    scenario: Scenario | None
    columns: list[ReadingColumn]
    rows: list[Row]


def reading_views(library: Library, scenarios: list[Scenario]) -> list[ReadingView]:
    by_id = {s.id: s for s in scenarios}
    variants = library.all()
    views = []
    for reading in library.readings.values():
        scenario = by_id.get(reading.scenario)
        base = library.get(reading.variant) if reading.variant in library.files else None
        columns = [_column(reading, item, variants, base, scenario) for item in reading.readings]
        views.append(
            ReadingView(reading, reading.variant, scenario, columns, _rows(scenario, columns))
        )
    return views


def _column(
    reading: Reading,
    item: Any,
    variants: list[Variant],
    base: Variant | None,
    scenario: Scenario | None,
) -> ReadingColumn:
    value = rule_value(reading.rule, item.value)
    takers = [v.id for v in variants if v.value(reading.rule) == value]
    own = base is not None and base.value(reading.rule) == value
    result, problem = None, ""
    if base is not None and scenario is not None:
        try:
            result = _play(scenario, base, reading.rule, value, own)
        except (InputError, ValueError) as exc:
            problem = str(exc)
        if result is None and not problem:
            problem = "no outcome is written for this reading in the scenario"
    return ReadingColumn(item.value, item.meaning, takers, own, result, problem)


def _play(scenario: Scenario, base: Variant, rule: str, value: Any, own: bool) -> RunResult | None:
    if own:
        return run_scenario(scenario, base)
    case = next(
        (
            c
            for c in reading_cases(scenario)
            if c.variant_id == base.id and c.rule == rule and c.value == value
        ),
        None,
    )
    if case is None:
        return None
    return run_reading(scenario, base, case)


def _rows(scenario: Scenario | None, columns: list[ReadingColumn]) -> list[Row]:
    if scenario is None:
        return []
    datas = [c.result.data if c.result else None for c in columns]
    rows: list[tuple[str, list[str]]] = [("Outcome", [_status(d) for d in datas])]
    pots = max((len(d["pots"]) for d in datas if d), default=0)
    for i in range(pots):
        label = "Main pool" if i == 0 else f"Side pool {i}"
        rows.append((label, [_pot(d, i) for d in datas]))
    rows.append(("Payments", [_bonuses(d) for d in datas]))
    for name in scenario.model.players:
        rows.append((f"Net {name}", [_net(d, name) for d in datas]))
    rows.append(("Carried", [str(d["carry"]) if d else "—" for d in datas]))
    own = next((i for i, c in enumerate(columns) if c.own), 0)
    return [Row(label, [Cell(text, text != cells[own]) for text in cells]) for label, cells in rows]


def _status(data: dict[str, Any] | None) -> str:
    if data is None:
        return "not played"
    if data["status"] == "illegal":
        error = data["error"]
        return f"refused at step {error['step']} (rule {error['rule']})"
    return str(data["status"])


def _pot(data: dict[str, Any] | None, index: int) -> str:
    if data is None or index >= len(data["pots"]):
        return "—"
    pot = data["pots"][index]
    return f"{pot['amount']} to {pot['winner']}: {pot['reason']}"


def _bonuses(data: dict[str, Any] | None) -> str:
    if data is None or not data["bonuses"]:
        return "none"
    return "; ".join(f"{b['from']} pays {b['to']} {b['amount']}" for b in data["bonuses"])


def _net(data: dict[str, Any] | None, name: str) -> str:
    if data is None or name not in data["players"]:
        return "—"
    net = data["players"][name]["net"]
    return f"{net:+d}" if net else "0"


__all__ = ["ReadingCase", "ReadingColumn", "ReadingView", "reading_views"]
