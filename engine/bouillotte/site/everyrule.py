""" "What every rule of Foster's system does": the full sweep (``bouillotte sweep foster
--all-rules``), every rule of finitely many values with each of its other values switched
alone on the same seeded deals, under three players, stored and shown on a page of its own.

The sweep takes far too long for a build: it is stored in the repository beside the pair
effects (``site/effects/foster__all-rules.json``), by the same machinery
(:mod:`effects_store`: the key of the rules, the players, the deals, the seed and the
results version; the exact command; ``bouillotte effects --write`` regenerates it). The
page is drawn from the file as stored, and never sweeps; a missing or stale file is "not
shown", with the command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.variant import Variant
from ..rules.writing import Output
from .downloads import effects_table_name
from .effects import MEASURES, seat_name
from .effects_store import (
    EFFECT_SEED,
    STALE,
    Stored,
    read_stored,
    store_folder,
    sweep_key,
    write_stored,
)
from .names import and_joined

BASE = "foster"
"""The system whose every rule is swept."""
EVERY_RULE_DEALS = 100_000
"""Deals per row of the stored full sweep."""
NAME = f"{BASE}__all-rules"
"""The stored file's name (without ``.json``), and its name for ``bouillotte effects``."""
PAGE = "every-rule.html"
TITLE = "What every rule of Foster's system does"
SAMPLE_DEALS = 100
"""The deals of the stored ``sample``, which a slow test recomputes and compares."""


def policies() -> tuple[str, ...]:
    from ..study.sweep_combinations import ALL_RULES_POLICIES

    return ALL_RULES_POLICIES


def every_rule_path() -> Path:
    return store_folder() / f"{NAME}.json"


def every_rule_key(base: Variant, deals: int = EVERY_RULE_DEALS) -> str:
    return sweep_key((base,), policies(), deals, EFFECT_SEED)


def every_rule_command(base: Variant, deals: int = EVERY_RULE_DEALS) -> str:
    """The command that reproduces the stored figures exactly (its ``--json`` is the
    file's ``report``)."""
    players = " ".join(f"--policy {p}" for p in policies())
    return f"bouillotte sweep {base.id} --all-rules --deals {deals} --seed {EFFECT_SEED} {players}"


def stored_every_rule(base: Variant) -> Stored:
    """The stored full sweep, used only when its key matches."""
    return read_stored(
        every_rule_path(),
        lambda deals: every_rule_key(base, deals),
        EVERY_RULE_DEALS,
        f"no stored full sweep of {base.id}",
        f"the stored full sweep of {base.id} was {STALE}",
    )


def compute_every_rule(
    base: Variant,
    deals: int = EVERY_RULE_DEALS,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The full sweep of ``base``: the data file's content (``sample``: the report of the
    first :data:`SAMPLE_DEALS` deals alone)."""
    from ..study.sweep import run_sweep
    from ..study.sweep_combinations import all_rule_combinations
    from ..study.sweep_report import sweep_report
    from .effects_run import sample_rows

    combinations, skipped = all_rule_combinations(base)
    players = list(policies())
    tallies = run_sweep(base, combinations, players, deals, EFFECT_SEED, jobs, progress=progress)
    return {
        "key": every_rule_key(base, deals),
        "command": every_rule_command(base, deals),
        "deals": deals,
        "seed": EFFECT_SEED,
        "policies": players,
        "report": sweep_report(base, combinations, tallies, EFFECT_SEED, skipped, read=True),
        "sample": sample_rows(base, None, min(SAMPLE_DEALS, deals), policies=players),
    }


def write_every_rule(data: dict[str, Any], out: Output | None = None) -> Path:
    return write_stored(every_rule_path(), data, out)


# --- the page ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueRow:
    """One value of a rule: the base's own (its figures), or another (its differences)."""

    value: str
    is_base: bool
    cells: list[list[str]]
    """One line per player."""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RuleBlock:
    """One rule with its values side by side."""

    rule: str
    anchor: str
    base_value: str
    standing: str
    rows: list[ValueRow]
    note: str = ""
    bands: list[tuple[str, Any]] = field(default_factory=list)
    """Each value with a strong-play band (``strong_bands.BandView``), in words."""


def _figure(entry: dict[str, Any], rate: bool, is_base: bool) -> str:
    scale, unit = (100, "%") if rate else (1, "")
    if is_base:
        value = entry["rate" if rate else "mean"]
        if entry["ci95"] is None:  # a sweep of one deal: no interval can be computed
            return f"{value * scale:.2f}{unit}"
        low, high = entry["ci95"]
        return f"{value * scale:.2f}{unit} [{low * scale:.2f}, {high * scale:.2f}]"
    from ..study.intervals import moved_in_words, places_for
    from .effects import judged

    how = judged(entry)
    if how == "unchanged":
        return "no deal moved"
    unit = " pts" if rate else ""
    diff = entry["diff"] * scale
    if how == "declined":
        moved = moved_in_words(entry["diff_moved"], entry["diff_largest"], scale)
        return f"{diff:+.{places_for(diff, 0)}f}{unit} ({moved})"
    low, high = (x * scale for x in entry["diff_ci95"])
    clear = entry.get("diff_clear", low > 0 or high < 0)
    mark = " *" if clear else ""
    # A starred interval excludes 0: its ends are shown with the places that say so.
    places = places_for(diff, (high - low) / 2, *((low, high) if clear else ()))
    return f"{diff:+.{places}f}{unit} [{low:+.{places}f}, {high:+.{places}f}]{mark}"


def moved_nothing(row: dict[str, Any]) -> bool:
    """A row that came into play (something offered or played differed) but moved no
    measured figure in any deal."""
    from .effects import judged

    return bool(row.get("came_into_play")) and all(
        judged(entry) == "unchanged" for key, entry in row["metrics"].items() if "diff" in entry
    )


def _shown(seats: int) -> list[str]:
    """The measures a row of the page shows, besides the rates: the pool, the bonuses, the
    dealer's net and the eldest's."""
    return [key for key, _, _ in MEASURES] + [f"seat_net.{seats}", "seat_net.1"]


def _moved_here(row: dict[str, Any], seats: int) -> bool:
    """Some figure the row shows moved in some deal."""
    from .effects import judged

    return any(judged(row["metrics"][key]) != "unchanged" for key in _shown(seats))


def _moved_elsewhere(row: dict[str, Any], seats: int) -> str:
    """The measured figures that moved though the row shows none of them, in words ("the
    nets of seats 2 and 3")."""
    from .effects import judged

    shown = set(_shown(seats))
    moved = [
        key
        for key, entry in row["metrics"].items()
        if key not in shown and "diff" in entry and judged(entry) != "unchanged"
    ]
    nets = [k.removeprefix("seat_net.") for k in moved if k.startswith("seat_net.")]
    words = []
    if nets:
        listed = and_joined(nets)
        words.append(
            f"the net{'s' if len(nets) > 1 else ''} of seat{'s' if len(nets) > 1 else ''} {listed}"
        )
    others = len(moved) - len(nets)
    if others:
        words.append(f"{others} other figure{'s' if others > 1 else ''} of the sweep's --json")
    return " and ".join(words)


def columns(players: list[str], seats: int) -> list[str]:
    measures = [label for _, label, _ in MEASURES]
    nets = [f"net per deal: {seat_name(seats, seats)}", f"net per deal: {seat_name(1, seats)}"]
    return ["Player", "Came into play", *measures, *nets]


def _cells(row: dict[str, Any], is_base: bool, seats: int, deals: int) -> list[str]:
    metrics = row["metrics"]
    cells = [row["policy"]]
    if is_base:
        cells.append("(the base)")
    else:
        changed = f"changed {row['came_into_play']:,} of {deals:,} deals"
        if moved_nothing(row):
            changed += " (what was offered or played, but no figure measured here)"
        elif row.get("came_into_play") and not _moved_here(row, seats):
            changed += f" (moved only {_moved_elsewhere(row, seats)}, not shown here)"
        cells.append(f"{changed}; read in {row.get('rules_read', 0):,}")
    for key, _, rate in MEASURES:
        cells.append(_figure(metrics[key], rate, is_base))
    for seat in (seats, 1):
        cells.append(_figure(metrics[f"seat_net.{seat}"], False, is_base))
    return cells


def stall_note(row: dict[str, Any]) -> str:
    """A row whose rules make the game stall, said in words (empty where no chain of void
    deals was cut): the pool still carried is not in the seats' figures."""
    from ..study.simulate_report import stall_words

    cut = row["metrics"].get("chains_cut")
    if not cut or not cut.get("count"):
        return ""
    n = row["deals"]
    carried = round(row["metrics"]["carried"]["mean"] * n)
    return stall_words(cut["count"], carried, n)


def rule_blocks(data: dict[str, Any]) -> list[RuleBlock]:
    """Each rule of the stored sweep, its base value first, then each other value under
    every player, with a note where no player's choice reaches the rule or it never came
    into play."""
    from ..study.sweep_report import CARD_BOUND, acts, not_met

    report = data["report"]
    deals = report["deals"]
    seats = len([k for k in report["metrics"] if k.startswith("seat_net.")])
    base_rows = [r for r in report["rows"] if r["combination"] == "base"]
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for row in report["rows"]:
        if row["combination"] != "base":
            (rule,) = row["changes"]
            by_rule.setdefault(rule, []).append(row)
    blocks = []
    for rule, rows in by_rule.items():
        described = rows[0]["rules"][0]
        values: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            values.setdefault(row["changes"][rule], []).append(row)
        base_cells = [_cells(b, True, seats, deals) for b in base_rows]
        shown = [ValueRow(described["from"], True, base_cells)]
        never, proven = True, True
        for value, value_rows in values.items():
            notes: list[str] = []
            cells: list[list[str]] = []
            for row in value_rows:
                if row["status"] != "ok":
                    notes.append(f"{row['policy']}: {row['error']}")
                    continue
                cells.append(_cells(row, False, seats, deals))
                stall = stall_note(row)
                if stall:
                    notes.append(f"{row['policy']}: {stall}")
                missing = not_met(row, deals)
                if missing is not None:
                    notes.append(f"{row['policy']}: {missing}")
                if row.get("rules_read", 1) or row.get("came_into_play"):
                    never = False
                proven = proven and acts(row) == "cannot-act"
            shown.append(ValueRow(value.replace("-", " "), False, cells, notes))
        note = ""
        if rule in CARD_BOUND:
            note = f"No player's choice reaches this rule: {CARD_BOUND[rule]}."
        if never:
            # Cannot act only where the rules prove it (``acts``); else the sample says no
            # more than that no deal of it read the rule.
            note = (note + " " if note else "") + (
                f"This rule cannot act under any of these players: no deal of {deals:,} read it."
                if proven
                else f"No deal of {deals:,} read this rule under these players: nothing is "
                "said of other players or deals."
            )
        blocks.append(
            RuleBlock(
                rule,
                "rule-" + rule.replace(".", "-").replace("_", "-"),
                described["from"],
                described["from_standing"],
                shown,
                note,
            )
        )
    return blocks


def _with_bands(
    base: Variant, by_id: dict[str, Variant], report: dict[str, Any], blocks: list[RuleBlock]
) -> tuple[list[RuleBlock], dict[str, str]]:
    """The blocks with the strong-play bands of their values (where a band is stored for
    that value switched alone), and the bands' label, command and problem."""
    from dataclasses import replace

    from .strong_bands import BAND_PAIRS, every_rule_bands

    views, label, problem, fix = every_rule_bands(base, by_id, report)
    by_rule: dict[str, list[tuple[str, Any]]] = {}
    for key, view in views.items():
        (change,) = key.split(";")
        rule, value = change.split("=", 1)
        by_rule.setdefault(rule, []).append((value.replace("-", " "), view))
    shown = [replace(b, bands=by_rule.get(b.rule, [])) for b in blocks]
    other = next((second for first, second in BAND_PAIRS if first == base.id), "")
    return shown, {
        "label": label,
        "problem": problem,
        "fix": fix,
        "other": other,
        "compared_with": NAME,  # this page's rows of the bands' tidy table
    }


def every_rule_page(variants: list[Variant]) -> tuple[str, str, str, dict[str, Any], str] | None:
    """The page's path, template, title, context and description (``None`` in a site
    without the base system)."""
    by_id = {v.id: v for v in variants}
    if BASE not in by_id:
        return None
    base = by_id[BASE]
    title = TITLE
    found = stored_every_rule(base)
    context: dict[str, Any] = {
        "base": base,
        "problem": found.problem,
        "fix": found.fix,
        "data": None,  # a missing or stale file: the page says so and how to remake it
    }
    if found.data is not None:
        data = found.data
        report = data["report"]
        seats = len([k for k in report["metrics"] if k.startswith("seat_net.")])
        blocks, bands = _with_bands(base, by_id, report, rule_blocks(data))
        context |= {
            "data": data,
            # the download beside the tables: this sweep's rows (site/tidydata.py)
            "tidy": effects_table_name(base.id, NAME.split("__", 1)[1]),
            "players": report["policies"],
            "deals": report["deals"],
            "seats": seats,
            "columns": columns(report["policies"], seats),
            "blocks": blocks,
            "bands": bands,
            "skipped": [f"{s['rule']}: {s['reason']}" for s in report["skipped"]],
            "carried": max(
                abs(r["metrics"]["carried"]["mean"]) for r in report["rows"] if r["status"] == "ok"
            ),
            "stalls": [
                f"{r['combination']} ({r['policy']}): {note}"
                for r in report["rows"]
                if r["status"] == "ok" and (note := stall_note(r))
            ],
        }
    description = (
        f"Every rule of {base.short} with finitely many values, each other value switched "
        "alone on the same seeded deals, under three players, with 95 % intervals."
    )
    return PAGE, "everyrule.html", title, context, description
