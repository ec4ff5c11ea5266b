"""The tables of the scenario pages, their index, the Readings page's deals and the
statistics page's players as tidy tables (issue 50): ``scenarios`` (the scenario index),
``policies`` (the betting policies described), ``steps`` (each scenario's play step by
step, under every system) and ``reading_deals`` (each sentence's deal under each reading).
The table itself, its CSV and JSON and its schema: :mod:`bouillotte.study.tidy`; where
they are written and described: :mod:`.tidydata`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..study.compare import Comparison
from ..study.tidy import Column, TidyTable
from .readings import ReadingView
from .scenes import log_rows

# -- the scenario index -----------------------------------------------------------------

SCENARIO_COLUMNS: tuple[Column, ...] = (
    Column("scenario", "string", "The scenario (its id, its file's name)."),
    Column("title", "string", "Its title."),
    Column("source", "string", "The work its deal comes from (an id of the bibliography)."),
    Column("locator", "string", "Where in the work."),
    Column(
        "source_status",
        "string",
        "How the deal stands to the work: documented, reconstructed or constructed.",
    ),
    Column("players", "integer", "Players at the table."),
    Column("dealer", "string", "Who deals."),
    Column("variant", "string", "A system that plays it; empty where none can."),
    Column(
        "outcomes_differ",
        "boolean",
        "Whether the deal ends differently under some of the systems that play it.",
    ),
)


def scenarios_table(comparisons: Iterable[Comparison]) -> TidyTable:
    """The scenario index (``scenarios/index.html``): a row per scenario and system that
    plays it (one row with no system where none does)."""

    def records() -> Iterable[dict[str, Any]]:
        for c in comparisons:
            m = c.scenario.model
            head = {
                "scenario": c.scenario.id,
                "title": m.title,
                "source": m.source.work,
                "locator": m.source.locator or None,
                "source_status": str(m.source.status),
                "players": len(m.players),
                "dealer": m.dealer,
                "outcomes_differ": any(c.differs(i) for i in range(len(c.results))),
            }
            ids: list[str | None] = [r.variant.id for r in c.results] or [None]
            for variant in ids:
                yield head | {"variant": variant}

    return TidyTable.of("scenarios", "The scenarios", SCENARIO_COLUMNS, records())


# -- the betting policies ------------------------------------------------------------------

POLICY_COLUMNS: tuple[Column, ...] = (
    Column("policy", "string", "The policy's name (as simulate --policy and sweep take it)."),
    Column("description", "string", "What it does, in a sentence."),
    Column(
        "tendencies",
        "boolean",
        "Whether it takes tendencies after a colon (the table family: advised, bold, table).",
    ),
)


def policies_table() -> TidyTable:
    """The betting policies of ``simulate`` and ``sweep`` (the statistics page's table of
    the players): a row per policy."""
    from ..study.policies import POLICY_DESCRIPTIONS, TABLE_PLAYERS

    records = [
        {"policy": name, "description": sentence, "tendencies": name in TABLE_PLAYERS}
        for name, sentence in POLICY_DESCRIPTIONS.items()
    ]
    title = "The players (betting policies) of simulate and sweep"
    return TidyTable.of("policies", title, POLICY_COLUMNS, records)


# -- the play, step by step ----------------------------------------------------------------

STEP_COLUMNS: tuple[Column, ...] = (
    Column("scenario", "string", "The scenario (its id)."),
    Column("variant", "string", "The system the deal is played under."),
    Column("event", "integer", "The event's place in the deal's log, from 1."),
    Column(
        "step",
        "integer",
        "The number of the scenario's written step (its action) that made the event; empty "
        "for what the rules do by themselves (blinds, the deal, the showdown, the pools).",
    ),
    Column("player", "string", "The player the event is about; empty for the whole table."),
    Column(
        "type",
        "string",
        "What kind of event: blind, straddle, decline, deal, action, return, showdown, pot, "
        "bonus, end, ...",
    ),
    Column("action", "string", "For a player's action: its word (bet, call, raise, fold...)."),
    Column("adds", "integer", "The counters the player puts into the pool by it."),
    Column("total", "integer", "The player's whole stake in the deal after it."),
    Column(
        "amount",
        "integer",
        "For a pool won, a bonus paid or a stake returned: the counters it is.",
    ),
    Column("text", "string", "What happens, in words (as the scenario page says it)."),
    Column(
        "pot",
        "integer",
        "The counters in the pool after the event; empty after the pools are won.",
    ),
)


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def steps_table(comparisons: Iterable[Comparison]) -> TidyTable:
    """Every scenario's play step by step (the scenario page's log), under every system
    that plays it: a row per scenario, system and event. A refused deal has the events
    before the refusal."""

    def records() -> Iterable[dict[str, Any]]:
        for c in comparisons:
            for result in c.results:
                events = result.data["events"]
                for n, (event, row) in enumerate(
                    zip(events, log_rows(events, result.steps), strict=True), start=1
                ):
                    yield {
                        "scenario": c.scenario.id,
                        "variant": result.variant.id,
                        "event": n,
                        "step": int(row.step) if row.step else None,
                        "player": row.player or None,
                        "type": str(event.get("type", "")),
                        "action": event.get("action")
                        if isinstance(event.get("action"), str)
                        else None,
                        "adds": _integer(event.get("adds")),
                        "total": _integer(event.get("total")),
                        "amount": _integer(event.get("amount")),
                        "text": row.text,
                        "pot": int(row.pot) if row.pot else None,
                    }

    return TidyTable.of("steps", "The play, step by step", STEP_COLUMNS, records())


# -- the deal under each reading ------------------------------------------------------------

READING_DEAL_COLUMNS: tuple[Column, ...] = (
    Column("sentence", "string", "The ambiguous sentence (its id)."),
    Column("rule", "string", "The rule whose values are its readings."),
    Column("scenario", "string", "The scenario whose deal is played under each reading."),
    Column("variant", "string", "The system it is played under, with only the rule changed."),
    Column("value_json", "string", "The reading: the rule's value, as JSON text."),
    Column("own", "boolean", "Whether it is the system's own reading."),
    Column("status", "string", "settled, uncontested, void or illegal; empty if not played."),
    Column("refused_step", "integer", "For an illegal deal: the written step refused."),
    Column("refused_rule", "string", "For an illegal deal: the rule that refuses it."),
    Column("player", "string", "The player."),
    Column("cave", "integer", "The player's cave after the deal."),
    Column("ledger", "integer", "The player's bonus ledger after the deal."),
    Column("net", "integer", "The player's whole change over the deal (cave and ledger)."),
    Column("carry", "integer", "The pool carried to the next deal."),
    Column("problem", "string", "Why the deal was not played under this reading."),
)


def _reading_records(view: ReadingView) -> Iterable[dict[str, Any]]:
    if view.scenario is None:
        return
    for column in view.columns:
        data: Mapping[str, Any] = column.result.data if column.result else {}
        error = data.get("error") or {}
        head = {
            "sentence": view.reading.id,
            "rule": view.reading.rule,
            "scenario": view.scenario.id,
            "variant": view.variant,
            "value_json": json.dumps(column.value, ensure_ascii=False),
            "own": column.own,
            "status": data.get("status"),
            "refused_step": _integer(error.get("step")),
            "refused_rule": str(error["rule"]) if error.get("rule") else None,
            "carry": _integer(data.get("carry")),
            "problem": column.problem or None,
        }
        players = data.get("players") or {}
        if not players:
            yield head
        for name, figures in players.items():
            yield head | {
                "player": name,
                **{k: _integer(figures.get(k)) for k in ("cave", "ledger", "net")},
            }


def reading_deals_table(views: Sequence[ReadingView]) -> TidyTable:
    """The Readings page's second table of each sentence: the scenario's deal under each
    reading, a row per sentence, reading and player (one row with no player where the deal
    is refused or not played)."""
    records = [r for view in views for r in _reading_records(view)]
    title = "The deal under each reading"
    return TidyTable.of("reading_deals", title, READING_DEAL_COLUMNS, records)
