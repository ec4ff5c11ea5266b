"""Tidy tables of the commands that check and search (issue 50): ``check`` (every deal it
played, with its verdict), ``differences`` (each rule's example deal), ``golden`` (each
transcript against its file). The table itself, its CSV and JSON and its schema:
:mod:`.tidy`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .tidy import Column, TidyTable

if TYPE_CHECKING:
    from ..strong.abstraction import Abstraction
    from .check import CheckReport
    from .differences import Finding


def value_json(value: Any) -> str:
    """A rule's value as JSON text (a model as its fields)."""
    plain = value.model_dump(mode="json") if hasattr(value, "model_dump") else value
    return json.dumps(plain, ensure_ascii=False, sort_keys=True)


# -- check ---------------------------------------------------------------------------------

CHECK_COLUMNS: tuple[Column, ...] = (
    Column("scenario", "string", "The scenario (its id)."),
    Column("variant", "string", "The system the deal is played under; empty for an error."),
    Column("rule", "string", "For another reading (expect_readings): the rule read otherwise."),
    Column("value_json", "string", "For another reading: the rule's value, as JSON text."),
    Column("status", "string", "The deal's status: settled, uncontested, void or illegal."),
    Column(
        "verdict",
        "string",
        "agrees (with the expect block), differs, unchecked (no expect block) or error "
        "(the scenario could not be read or played).",
    ),
    Column("problem", "string", "How it differs (a row each), or the error."),
    Column("file", "string", "The file of the expect block (or of the error)."),
    Column("line", "integer", "Its line."),
)


def check_table(report: CheckReport) -> TidyTable:
    """``check --csv``: a row per deal played (a scenario under a system, or under another
    reading), and per way it differs from what its file expects."""

    def records() -> Iterable[dict[str, Any]]:
        for v in report.verdicts:
            head = {
                "scenario": v.scenario,
                "variant": v.variant,
                "rule": v.rule,
                "value_json": None if v.rule is None else value_json(v.value),
                "status": v.status,
                "verdict": v.verdict,
                "file": v.file,
                "line": v.line,
            }
            for problem in v.problems or (None,):
                yield head | {"problem": problem}

    return TidyTable.of("check", "The scenarios checked", CHECK_COLUMNS, records())


# -- differences ---------------------------------------------------------------------------

DIFFERENCE_COLUMNS: tuple[Column, ...] = (
    Column("base", "string", "The system whose rules are changed one at a time."),
    Column("other", "string", "The system whose values they are changed to."),
    Column("rule", "string", "The rule changed (its path in the profile schema)."),
    Column("base_value_json", "string", "The base system's value, as JSON text."),
    Column("other_value_json", "string", "The other system's value, as JSON text."),
    Column("found", "boolean", "Whether a deal was found whose outcome the change alters."),
    Column("note", "string", "Why none was looked for (a rule that acts between deals...)."),
    Column("deal", "integer", "The deal found: its number among those searched, from 0."),
    Column("seed", "integer", "The number it is shuffled with: simulate's deal_seed(seed, deal)."),
    Column("policy", "string", "The betting policy every seat plays in it."),
    Column("player", "string", "A player of the deal."),
    Column("base_status", "string", "How the deal ends under the base system."),
    Column("changed_status", "string", "How it ends with only the rule changed."),
    Column("base_net", "integer", "The player's net under the base system."),
    Column("changed_net", "integer", "The player's net with only the rule changed."),
    # Added at the end: the columns above keep their names and order.
    Column(
        "exposed",
        "string",
        "The card exposed in the deal found (its first card dealt: a misdeal rule's deal, "
        "which simulate never plays); empty for a deal played as dealt.",
    ),
)


def differences_table(findings: Sequence[Finding], base: str, other: str) -> TidyTable:
    """``differences --csv``: a row per rule and player of the deal found for it (one row
    with no player where none was found)."""

    def records() -> Iterable[dict[str, Any]]:
        for f in findings:
            data = f.to_json()
            head = {
                "base": base,
                "other": other,
                "rule": f.rule,
                "base_value_json": value_json(f.base_value),
                "other_value_json": value_json(f.other_value),
                "found": f.found,
                "note": f.note or None,
                "deal": data.get("deal"),
                "seed": data.get("seed"),
                "policy": data.get("policy"),
                "exposed": data.get("exposed"),
            }
            if f.base is None or f.changed is None:
                yield head
                continue
            before: Mapping[str, Any] = f.base.data
            after: Mapping[str, Any] = f.changed.data
            for name in sorted(before["players"]):
                yield head | {
                    "player": name,
                    "base_status": before["status"],
                    "changed_status": after["status"],
                    "base_net": before["players"][name]["net"],
                    "changed_net": after["players"].get(name, {}).get("net"),
                }

    title = "A deal for each rule on which two systems differ"
    return TidyTable.of("differences", title, DIFFERENCE_COLUMNS, records())


# -- golden ----------------------------------------------------------------------------------

GOLDEN_COLUMNS: tuple[Column, ...] = (
    Column("scenario", "string", "The scenario (its id); empty for a stale file."),
    Column("variant", "string", "The system; empty for a stale file."),
    Column("file", "string", "The golden file (<scenario>__<variant>.txt in the folder)."),
    Column(
        "state",
        "string",
        "same (the transcript is the file's), differs, missing (no file) or stale (a file "
        "no scenario and system gives any more).",
    ),
    Column("lines_added", "integer", "Lines the transcript has that the file lacks."),
    Column("lines_removed", "integer", "Lines the file has that the transcript lacks."),
)


def golden_table(records: Iterable[Mapping[str, Any]]) -> TidyTable:
    """``golden --csv``: a row per transcript compared with its file, then per stale
    file."""
    return TidyTable.of("golden", "The golden transcripts", GOLDEN_COLUMNS, records)


# -- strong measure and strong bands ---------------------------------------------------------

MEASURE_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system whose abstracted game is measured."),
    Column("policy", "string", "The betting policy that plays the deals in the full game."),
    Column("seed", "integer", "The seed: deal i is dealt from its own stream of (seed, i)."),
    Column("deals", "integer", "Deals played."),
    Column("choice", "string", "The abstraction's choice alone (caves, bets, raises), or all."),
    Column("differ", "integer", "Deals that end otherwise in the abstracted game."),
    Column(
        "no_counterpart",
        "integer",
        "Of these, deals with an action that has no abstract counterpart.",
    ),
    Column("compared", "integer", "Deals played out in both games (the others)."),
    Column(
        "moved",
        "number",
        "How far the nets move, summed over the players, in counters a deal (over compared).",
    ),
)


def measure_table(records: Iterable[Mapping[str, Any]]) -> TidyTable:
    """``strong measure --csv``: a row per choice of the abstraction."""
    title = "What each choice of the abstraction changes"
    return TidyTable.of("strong-measure", title, MEASURE_COLUMNS, records)


BAND_COLUMNS: tuple[Column, ...] = (
    Column("system", "string", "The system whose rules are switched (a profile id)."),
    Column("towards", "string", "The system whose values they are switched to."),
    Column("on", "string", "The system whose abstracted game is solved."),
    Column("rule", "string", "The rule switched alone."),
    Column("acts", "boolean", "Whether the rule changes the abstracted game."),
    Column("reason", "string", "Where it does not act: why."),
    Column(
        "measure", "string", "What moves: a seat's value, or the pools awarded (a key of band)."
    ),
    Column("low", "number", "The least change over the solutions (one per seed)."),
    Column("high", "number", "The greatest change over the solutions."),
    Column("nash_conv_low", "number", "The least NashConv of the solutions (counters a deal)."),
    Column("nash_conv_high", "number", "The greatest NashConv of the solutions."),
)


def band_rows(data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The stored (or computed) bands of ``strong bands`` as :data:`BAND_COLUMNS`'s rows: a
    row per rule and measure (one row with no measure for a rule that does not act). The
    site's table of the bands (``site/strong_bands.py``) adds its verdicts to these."""
    system, towards = data["systems"]
    for entry in data["rules"]:
        head = {
            "system": system,
            "towards": towards,
            "on": data["on"],
            "rule": entry["rule"],
            "acts": entry["acts"],
            "reason": entry.get("reason"),
        }
        if not entry["acts"]:
            yield head
            continue
        low_conv, high_conv = entry["nash_conv"]
        for measure, (low, high) in entry["band"].items():
            yield head | {
                "measure": measure,
                "low": low,
                "high": high,
                "nash_conv_low": low_conv,
                "nash_conv_high": high_conv,
            }


def bands_table(data: Mapping[str, Any]) -> TidyTable:
    """``strong bands --csv``: a row per rule and measure (one row with no measure for a
    rule that does not act)."""
    title = "The effect of each rule under strong play"
    return TidyTable.of("strong-bands", title, BAND_COLUMNS, band_rows(data))


# -- strong solve, strong exploit and strong table -----------------------------------------

ABSTRACTION_COLUMNS: tuple[Column, ...] = (
    Column("cave", "integer", "Every player's cave in the abstracted game, in counters."),
    Column("bets", "string", "The bet sizes offered, joined by + (empty: every legal total)."),
    Column("raises", "integer", "The most bets and raises a deal (0: no cap)."),
    Column("straddles", "boolean", "Whether straddles are offered."),
    Column("sampled_deals", "integer", "Deals sampled by chance (0: every deal)."),
    Column("classes", "integer", "Bands of the point a hand is known by (0: exact cards)."),
    Column("seed", "integer", "The seed of the sampled deals."),
)
"""The abstraction a command solves or measures on (``strong/abstraction.py``)."""

SEAT_COLUMNS: tuple[Column, ...] = (
    Column("seat", "integer", "The seat: 1 the eldest hand, the last the dealer."),
    Column("value", "number", "The seat's expected return, in counters per deal."),
    Column(
        "best_response_gain",
        "number",
        "What a best response of this seat gains against the others (the seats' gains sum "
        "to the NashConv).",
    ),
)


def abstraction_record(abstraction: Abstraction, cave: int) -> dict[str, Any]:
    """An abstraction as :data:`ABSTRACTION_COLUMNS`'s values, with the ``cave`` its table
    plays (the profile's where the abstraction keeps 0)."""
    return {
        "cave": cave,
        "bets": "+".join(abstraction.bets) or None,
        "raises": abstraction.raises,
        "straddles": abstraction.straddles,
        "sampled_deals": abstraction.deals,
        "classes": abstraction.classes,
        "seed": abstraction.seed,
    }


def _seat_rows(
    head: Mapping[str, Any], values: Sequence[float], gains: Sequence[float]
) -> Iterator[dict[str, Any]]:
    for seat, (value, gain) in enumerate(zip(values, gains, strict=True), start=1):
        yield {**head, "seat": seat, "value": value, "best_response_gain": gain}


SOLVE_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system whose abstracted game is solved."),
    *ABSTRACTION_COLUMNS,
    Column("states", "integer", "States of the game's tree."),
    Column("information_states", "integer", "Information states (what a player can tell apart)."),
    Column("iterations", "integer", "CFR+ iterations."),
    Column("cpu_seconds", "number", "CPU seconds the iterations took."),
    Column(
        "nash_conv",
        "number",
        "NashConv of the average strategy: what best responses gain, summed over the seats, "
        "in counters per deal (0 at an equilibrium).",
    ),
    *SEAT_COLUMNS,
    Column(
        "merged_games",
        "integer",
        "With --merge, the games the sampled deals were walked as, alike deals merged "
        "(states then counts the merged tree); 0: every deal walked apart.",
    ),
)


def solve_table(
    head: Mapping[str, Any], values: Sequence[float], gains: Sequence[float]
) -> TidyTable:
    """``strong solve --csv``: a row per seat of the solution (the solve's figures in
    ``head``, repeated on each)."""
    title = "A solution of the abstracted game"
    return TidyTable.of("strong-solve", title, SOLVE_COLUMNS, _seat_rows(head, values, gains))


EXPLOIT_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system whose abstracted game is played."),
    Column("policy", "string", "The invented player at every seat."),
    *ABSTRACTION_COLUMNS,
    Column("samples", "integer", "Draws of the player's choice per state."),
    Column(
        "no_counterpart",
        "integer",
        "The player's choices with no abstract counterpart (played as the first legal).",
    ),
    Column(
        "nash_conv",
        "number",
        "NashConv of a table of the player: what best responses gain, summed over the "
        "seats, in counters per deal.",
    ),
    *SEAT_COLUMNS,
)


def exploit_table(
    head: Mapping[str, Any], values: Sequence[float], gains: Sequence[float]
) -> TidyTable:
    """``strong exploit --csv``: a row per seat of a table of one invented player."""
    title = "What best responses gain against an invented player"
    return TidyTable.of("strong-exploit", title, EXPLOIT_COLUMNS, _seat_rows(head, values, gains))


STRONG_TABLE_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "The system played (the full game)."),
    Column("against", "string", "The invented player at the other seats."),
    Column("seed", "integer", "The seed: deal i is dealt from its own stream of (seed, i)."),
    Column("deals", "integer", "Deals played (the strong player holds every seat in turn)."),
    Column(
        "net_per_deal",
        "number",
        "The strong seat's net per deal, in counters (a carried pool shared equally).",
    ),
    Column(
        "ci95_low",
        "number",
        "The normal 95% interval's low end, over the deals (given even where declined).",
    ),
    Column("ci95_high", "number", "The normal 95% interval's high end."),
    Column(
        "interval",
        "string",
        "Whether the interval can be trusted: normal; declined (fewer than 100 deals moved "
        "the net, or one deal carries over a tenth of the spread); unchanged (every net 0).",
    ),
    Column("moved", "integer", "Deals in which the strong seat's net was not 0."),
    Column("largest", "number", "The largest net of one deal, in counters (its magnitude)."),
    Column("strategy_steps", "integer", "The strong player's steps taken from the strategy."),
    Column("advised_steps", "integer", "Its steps off the strategy's tree, played by advised."),
)


def strong_table_table(record: Mapping[str, Any]) -> TidyTable:
    """``strong table --csv``: one row, the strong seat's net against one invented player."""
    title = "One strong seat among invented players"
    return TidyTable.of("strong-table", title, STRONG_TABLE_COLUMNS, [record])
