"""Tidy tables of the reports that list rather than count (issue 50): the systems
(``variants list``), the sources and the rules' statements (``sources``, the History
page), the readings (``readings``, the Readings page) and a session's standings and deals
(``session``). The table itself, its CSV and JSON and its schema: :mod:`.tidy`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .tidy import Column, TidyTable

if TYPE_CHECKING:
    from ..rules.variant import Variant
    from .session_result import SessionResult


SYSTEM_COLUMNS: tuple[Column, ...] = (
    Column("id", "string", "The system's id (its profile's file name)."),
    Column("title", "string", "Its title."),
    Column("source", "string", "The work it rests on (an id of the bibliography)."),
    Column("extends", "string", "The system it is built on, if any."),
    Column("players", "integer", "Players at the table."),
    Column("pack_cards", "integer", "Cards in the pack it deals."),
)


def systems_table(variants: Iterable[Variant]) -> TidyTable:
    """``variants list`` (and the API's ``systems()``): a row per system."""
    records = [
        {
            "id": v.id,
            "title": v.title,
            "source": v.source,
            "extends": v.extends,
            "players": v.players,
            "pack_cards": 4 * len(v.rules.table.packs[v.players]),
        }
        for v in variants
    ]
    return TidyTable.of("systems", "Rule systems", SYSTEM_COLUMNS, records)


SOURCE_COLUMNS: tuple[Column, ...] = (
    Column("id", "string", "The work's id in the bibliography."),
    Column("author", "string", "Its author (or the body that made it)."),
    Column("title", "string", "Its title (an article's work and article)."),
    Column("date", "string", "Its date as the bibliography gives it (a year, a span, undated)."),
    Column("start", "integer", "The first year of the date; empty for an undated work."),
    Column("end", "integer", "The last year of the date; empty for an undated work."),
    Column("language", "string", "Its language (an ISO 639-1 code)."),
    Column("language_name", "string", "Its language in words."),
    Column("place", "string", "Where it was published; empty for a web page."),
    Column("kind", "string", "dictionary, encyclopaedia, rulebook, website, teaching-card..."),
    Column("citation", "string", "The work cited in full (Chicago, as bouillotte sources)."),
)

STATEMENT_COLUMNS: tuple[Column, ...] = (
    Column("rule", "string", "The rule's path in the profile schema."),
    Column("work", "string", "The work that states it (an id of the bibliography)."),
    Column("date", "string", "The work's date as the bibliography gives it."),
    Column("start", "integer", "The first year of that date; empty for an undated work."),
    Column("variant", "string", "The system whose profile cites the work for the rule."),
    Column("value_json", "string", "The value the work gives, as JSON text."),
    Column("status", "string", "The citation's status: documented, paraphrased, ..."),
    Column("locator", "string", "Where in the work."),
    Column("quote", "string", "The sentence the value rests on."),
    Column("translation", "string", "The sentence in English, for a work in another language."),
)


def sources_table(history: Mapping[str, Any]) -> TidyTable:
    """``sources`` (and the site's History page): a row per work, oldest first; from the
    JSON of ``sources --json``."""
    keys = {c.name for c in SOURCE_COLUMNS}
    records = [{k: v for k, v in s.items() if k in keys} for s in history["sources"]]
    return TidyTable.of("sources", "The sources by date", SOURCE_COLUMNS, records)


def statements_table(history: Mapping[str, Any]) -> TidyTable:
    """``sources`` (and the History page): a row per rule and work stating it, oldest
    first; from the JSON of ``sources --json``."""
    records = [
        {
            "rule": rule,
            **{k: st[k] for k in ("work", "date", "start", "variant", "status")},
            **{k: st[k] for k in ("locator", "quote", "translation")},
            "value_json": json.dumps(st["value"], ensure_ascii=False),
        }
        for rule, statements in history["rules"].items()
        for st in statements
    ]
    title = "The rules, with the sources that state them"
    return TidyTable.of("statements", title, STATEMENT_COLUMNS, records)


READING_COLUMNS: tuple[Column, ...] = (
    Column("sentence", "string", "The ambiguous sentence (its id)."),
    Column("rule", "string", "The rule whose values are its readings."),
    Column("source", "string", "The work it is in (an id of the bibliography)."),
    Column("locator", "string", "Where in the work."),
    Column("quote", "string", "The sentence."),
    Column("question", "string", "What it leaves open."),
    Column("value_json", "string", "One reading: the rule's value, as JSON text."),
    Column("meaning", "string", "What that reading means."),
    Column("variant", "string", "A system that takes it; empty where none does."),
    Column("scenario", "string", "The scenario that plays the deal under each reading."),
)


def readings_table(readings: Iterable[Mapping[str, Any]]) -> TidyTable:
    """``readings`` (and the site's Readings page): a row per sentence, reading and system
    taking it; from the JSON of ``readings --json``."""
    records = [
        {
            "sentence": item["id"],
            **{k: item[k] for k in ("rule", "source", "locator", "quote", "question")},
            "value_json": json.dumps(reading["value"], ensure_ascii=False),
            "meaning": reading["meaning"],
            "variant": variant,
            "scenario": item["scenario"],
        }
        for item in readings
        for reading in item["readings"]
        for variant in reading["variants"] or [None]
    ]
    return TidyTable.of("readings", "The readings of ambiguous sentences", READING_COLUMNS, records)


STANDING_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system the session is played under."),
    Column("player", "string", "The player."),
    Column("place", "integer", "The player's place (equal results share one)."),
    Column("stake", "integer", "The first stake (the cave bought at the start)."),
    Column("rebuys", "integer", "What the player paid for new caves."),
    Column("cave", "integer", "The player's cave at the end."),
    Column("ledger", "integer", "The player's bonus ledger at the end."),
    Column("share_numerator", "integer", "The share of the last pool (exact): numerator."),
    Column("share_denominator", "integer", "The share's denominator."),
    Column("share", "number", "The share as a decimal."),
    Column(
        "result_numerator",
        "integer",
        "The result (cave + ledger + share - stake - rebuys), exact: numerator.",
    ),
    Column("result_denominator", "integer", "The result's denominator."),
    Column("result", "number", "The result as a decimal."),
)

SESSION_DEAL_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system the session is played under."),
    Column("deal", "integer", "The deal's number, from 1."),
    Column("dealer", "string", "Who dealt it."),
    Column("carried_in", "integer", "The pool carried into it from the deal before."),
    Column("status", "string", "settled, uncontested, void or illegal."),
    Column("player", "string", "The player."),
    Column("cave", "integer", "The player's cave after the deal."),
    Column("ledger", "integer", "The player's bonus ledger after the deal."),
    Column("net", "integer", "The player's whole change over the deal (cave and ledger)."),
    Column("carry", "integer", "The pool carried to the next deal."),
    Column(
        "seed",
        "integer",
        "The shuffle seed of a seeded deal; empty for a deal whose cards and actions the "
        "file writes.",
    ),
    Column(
        "policy",
        "string",
        "The betting policy the player follows in a seeded deal (the item's policies, "
        "policy, or the session's); empty for a written deal.",
    ),
)


def standings_table(result: SessionResult) -> TidyTable:
    """``session --csv``: the final standings, a row per player in place order, each
    exact amount as numerator, denominator and decimal."""
    records = [
        {
            "variant": result.variant,
            **{k: getattr(s, k) for k in ("player", "place", "stake", "rebuys", "cave", "ledger")},
            "share_numerator": s.share.numerator,
            "share_denominator": s.share.denominator,
            "share": float(s.share),
            "result_numerator": s.result.numerator,
            "result_denominator": s.result.denominator,
            "result": float(s.result),
        }
        for s in result.ranking()
    ]
    return TidyTable.of("standings", "The final standings", STANDING_COLUMNS, records)


def session_deals_table(result: SessionResult) -> TidyTable:
    """``session --deals-csv``: each deal, a row per player."""
    records = [
        {
            "variant": result.variant,
            "deal": d.number,
            "dealer": d.dealer,
            "carried_in": d.carried_in,
            "status": str(d.outcome.status),
            "player": name,
            "cave": r.cave,
            "ledger": r.ledger,
            "net": r.net,
            "carry": d.outcome.carry,
            "seed": d.seed,
            "policy": d.policies.get(name),
        }
        for d in result.deals
        for name, r in d.outcome.players.items()
    ]
    return TidyTable.of("session", "The session, deal by deal", SESSION_DEAL_COLUMNS, records)
