"""The statistics page: exact odds (``bouillotte.study.odds``) and simulations
(``bouillotte.study.simulate``), each picked up only when its module is present."""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from ..rules.variant import Variant
from .cache import cached, fingerprint, is_cached
from .charts import Bar, bar_chart
from .names import name_list


@dataclass(frozen=True)
class StatTable:
    id: str
    caption: str
    columns: list[str]
    rows: list[list[str]]
    chart: Markup | None = None
    note: str = ""
    tidy: TidyLink | None = None
    """The tidy table that holds this table alone (where the section's holds other
    figures), linked beside it."""


@dataclass(frozen=True)
class TidyLink:
    """A tidy table linked beside a section's tables (``data/tidy/<name>.csv`` and
    ``.json``): what it holds, in the words of its links, and what a row of it is."""

    name: str
    what: str
    rows: str


@dataclass(frozen=True)
class StatSection:
    id: str
    title: str
    intro: str
    tables: list[StatTable] = field(default_factory=list)
    missing: str | None = None
    """Shown instead of the tables when the module is absent or failed."""
    data: dict[str, Any] = field(default_factory=dict)
    """The figures behind the tables, by system id (``odds --json`` or ``simulate
    --json`` of each), for the tidy downloads (``site/tidydata.py``)."""
    tidy: TidyLink | None = None
    """The tidy table that holds the section's figures, linked beside its tables; none
    where the build writes none."""


def _present(name: str) -> bool:
    """Whether ``bouillotte.study.<name>`` is part of this build (without importing it)."""
    return importlib.util.find_spec(f"bouillotte.study.{name}") is not None


def _module(name: str) -> Any | None:
    """``bouillotte.study.<name>``, imported; ``None`` when it is not part of this build."""
    return importlib.import_module(f"bouillotte.study.{name}") if _present(name) else None


def _share(value: dict[str, Any]) -> str:
    fraction = Fraction(str(value["fraction"]))
    return f"{float(fraction) * 100:.3f} %"


def _fraction(value: dict[str, Any]) -> str:
    return str(value["fraction"])


def odds_section(variants: list[Variant], log: Callable[[str], None]) -> StatSection:
    title = "Exact odds of the deal"
    intro = (
        "Counted exactly over every possible deal (no sampling) by `bouillotte odds`: the "
        "chance of each brelan (the brelan de Mistigri included, where a system recognises "
        "it) for one player and for the table, and, when no brelan is "
        "shown, the winning point as each system counts it: the richest suit over every "
        "exposed card, or the best hand's pips. Variants whose rules give the same numbers "
        "share one table."
    )
    module = _module("odds")
    if module is None or not hasattr(module, "compute_odds"):
        return StatSection(
            "odds",
            title,
            intro,
            missing="The odds module is not installed in this build, so no exact odds are shown.",
        )
    groups: dict[str, list[Variant]] = {}
    reports: dict[str, dict[str, Any]] = {}
    by_rules: dict[str, str] = {}
    skipped: list[str] = []
    figures: dict[str, Any] = {}
    for variant in variants:
        # The odds depend only on the pack, the hands recognised and what the point
        # counts, so variants that share all three are counted once.
        rules_key = module.odds_key(variant.rules)
        if rules_key not in by_rules:

            def count(rules: Any = variant.rules, name: str = variant.id) -> dict[str, Any]:
                log(f"  odds for {name}")
                try:
                    return {"odds": module.compute_odds(rules).to_json()}
                except ValueError as exc:
                    return {"error": str(exc)}

            found = cached("odds", rules_key, count)
            if "error" in found:
                skipped.append(f"{variant.id}: {found['error']}")
                continue
            data = found["odds"]
            by_rules[rules_key] = json.dumps(data, sort_keys=True)
            reports[by_rules[rules_key]] = data
        groups.setdefault(by_rules[rules_key], []).append(variant)
        figures[variant.id] = reports[by_rules[rules_key]]
    tables = []
    for number, (key, members) in enumerate(groups.items(), start=1):
        tables.extend(_odds_tables(number, members, reports[key]))
    missing = "Not computed for " + "; ".join(skipped) + "." if skipped else None
    rows = "one row per system and figure, each fraction as numerator and denominator"
    tidy = TidyLink("odds", "the exact odds", rows) if figures else None
    return StatSection("odds", title, intro, tables, missing=missing, data=figures, tidy=tidy)


def _odds_tables(number: int, members: list[Variant], data: dict[str, Any]) -> list[StatTable]:
    names = name_list(v.short or v.id for v in members)
    pack = " ".join(str(r) for r in data.get("pack", []))
    head = f"{data.get('players')} players, pack {pack} ({names})"
    player = data.get("player", {})
    table = data.get("table", {})
    # A pair with the retourne is a hand only where it is the profile's favori.
    pair = "a favori" if data.get("favori_recognised") else "no hand in this system"
    labels = {
        "simple_brelan": "simple brelan in hand",
        "carre": "brelan carré (three in hand, fourth turned up)",
        "favori": "pair in hand matching the retourne (" + pair + ")",
        "brelan": "any three of a kind in hand",
        "mistigri": "brelan de Mistigri (the mistigri card and a pair)",
    }
    rows = [[labels.get(k, k), _fraction(v), _share(v)] for k, v in player.items()]
    table_labels = {
        "brelan": "someone holds three of a kind",
        "carre": "someone holds a brelan carré",
        "favori": "someone holds a pair matching the retourne (" + pair + ")",
        # three of a kind or the pair with the retourne: other hands (the mistigri) apart
        "brelan_or_favori": "someone holds three of a kind or a favori"
        if data.get("favori_recognised")
        else "someone holds three of a kind or a pair matching the retourne",
        "two_or_more_brelans": "two or more hands hold three of a kind",
        "mistigri": "someone holds a brelan de Mistigri",
    }
    rows_table = [
        [table_labels.get(k, k), _fraction(v), _share(v)]
        for k, v in table.items()
        if k != "brelan_count"
    ]
    out = [
        StatTable(
            f"odds-{number}-player",
            f"One player's hand — {head}",
            ["Event", "Exact probability", "Percent"],
            rows,
        ),
        StatTable(
            f"odds-{number}-table",
            f"The whole table — {head}",
            ["Event", "Exact probability", "Percent"],
            rows_table,
        ),
    ]
    point = data.get("point", {})
    totals = point.get("winning_total", {})
    counted = point.get("counted_cards", "all-exposed")
    what, ties = POINT_WORDS.get(counted, POINT_WORDS["all-exposed"])
    if point.get("exact") is False:
        out.append(
            StatTable(
                f"odds-{number}-point",
                f"The point when no brelan is shown — {head}",
                ["Event", "Exact probability", "Percent"],
                [
                    [
                        "no brelan is shown: the point decides",
                        _fraction(point["no_brelan"]),
                        _share(point["no_brelan"]),
                    ]
                ],
                note=(
                    "Here the point is counted in each player's own best suit; its "
                    "distribution is not counted exactly (the suits of every hand would have "
                    "to be followed together), so none is shown rather than that of another "
                    "rule. The simulation below plays these deals under the system's rules."
                    if "mistigri" not in point.get("not_counted", "")
                    else "Here the brelan de Mistigri is a hand: the deals it takes from the "
                    "point depend on where its one card lies, and the point's distribution "
                    "over the deals left is not counted exactly, so none is shown rather than "
                    "that of the deals without it. The simulation below plays these deals "
                    "under the system's rules."
                ),
            )
        )
    elif totals:
        bars = [
            Bar(str(k), float(Fraction(str(v["fraction"]))), _share(v))
            for k, v in sorted(totals.items(), key=lambda kv: int(kv[0]))
        ]
        chart_id = f"chart-odds-{number}-point"
        out.append(
            StatTable(
                f"odds-{number}-point",
                f"{what[0].upper()}{what[1:]} when no brelan is shown — {head}",
                ["Winning total", "Exact probability", "Percent"],
                [
                    [str(k), _fraction(v), _share(v)]
                    for k, v in sorted(totals.items(), key=lambda kv: int(kv[0]))
                ],
                chart=bar_chart(chart_id, f"Winning point totals, {head}", bars),
                note=(
                    f"No brelan is shown in {_share(point['no_brelan'])} of deals. "
                    f"Mean winning total {float(Fraction(str(point['mean']['fraction']))):.2f}; "
                    f"{ties} for best in {_share(point['tie'])} of those deals."
                )
                if {"no_brelan", "mean", "tie"} <= set(point)
                else "",
            )
        )
    return out


POINT_WORDS = {
    "all-exposed": ("the winning suit's total over every exposed card", "two suits tie"),
    "whole-hand": ("the best hand's pips (each player's whole hand)", "two hands tie"),
}
"""How the point figures read, by the profile's ``point.counted_cards``."""

SIM_DEALS = 600
SIM_SEED = 1
SIM_POLICY = "simple"


def _rate(summary: dict[str, Any] | None) -> str:
    if summary and summary.get("cannot_occur"):
        return f"cannot occur ({summary['cannot_occur']})"
    if not summary or summary.get("rate") is None:
        return "—"
    low, high = summary["ci95"]
    return f"{100 * summary['rate']:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def _mean(summary: dict[str, Any] | None) -> str:
    if not summary or summary.get("mean") is None:
        return "—"
    judged = summary.get("interval", "normal")
    if judged == "unchanged":
        return f"{summary['mean']:.2f} (0 in every deal)"
    if judged == "declined":
        return (
            f"{summary['mean']:.2f} (no interval: {summary['nonzero']:,} deals not 0, "
            f"the largest {summary['largest']:,})"
        )
    low, high = summary["ci95"]
    return f"{summary['mean']:.2f} [{low:.2f}, {high:.2f}]"


def _seat(position: int, seats: int) -> str:
    from ..study.simulate_report import seat_label

    return seat_label(position, seats)


def _sim_table(
    number: int, reports: list[dict[str, Any]], players: int, shorts: dict[str, str] | None = None
) -> StatTable:
    """A table size's simulated play; ``shorts`` names each system (its short name)."""
    shorts = shorts or {}
    classes: list[str] = []
    for r in reports:
        classes.extend(c for c in r["decided_by"] if c not in classes)
    rows = [[f"decided by {c}", *(_rate(r["decided_by"].get(c)) for r in reports)] for c in classes]
    rows.append(["mean pool (deals not void)", *(_mean(r["average_pot"]) for r in reports)])
    rows.append(
        [
            "pool per deal (every deal, those played on carried pools included)",
            *(_mean(r.get("pool_per_deal")) for r in reports),
        ]
    )
    rows.append(
        ["brelan bonuses paid per deal", *(_mean(r["bonus_flow_per_deal"]) for r in reports)]
    )
    for position in range(1, players + 1):
        rows.append(
            [
                f"net per deal: {_seat(position, players)}",
                *(_mean(r["seat_net_per_deal"].get(str(position))) for r in reports),
            ]
        )
    rows.append(["chains of void deals cut unended", *(_cut(r) for r in reports)])
    rows.append(
        ["point won by the retourne's suit", *(_rate(r["point_suit_is_retourne"]) for r in reports)]
    )
    stalls = [
        f"{shorts.get(str(r['variant']), str(r['variant']))}: "
        + _stall(cut["count"], cut["carried_at_cut"], r["deals"])
        for r in reports
        if (cut := r.get("chains_cut")) and cut["count"]
    ]
    bars = []
    for r in reports:
        point = r["decided_by"].get("point") or {}
        low, high = point.get("ci95") or (None, None)
        bars.append(
            Bar(
                shorts.get(str(r["variant"]), str(r["variant"])),
                float(point.get("rate") or 0.0),
                _rate(point or None),
                None if low is None else float(low),
                None if high is None else float(high),
            )
        )
    caption = (
        f"{players} players: {SIM_DEALS} deals per system, policy {SIM_POLICY}, seed {SIM_SEED}"
    )
    return StatTable(
        f"sim-{number}",
        caption,
        ["Measure", *(str(r["variant"]) for r in reports)],
        rows,
        chart=bar_chart(
            f"chart-sim-{number}", f"Share of deals decided by the point, {players} players", bars
        ),
        note="Rates in percent and means in counters, each with its 95 % confidence interval "
        "in brackets. A seat's net counts the deals played on a void deal's pool; a chain of "
        "void deals cut unended is counted apart, never as the seats' loss."
        + "".join(f" {words}" for words in stalls),
    )


def _cut(report: dict[str, Any]) -> str:
    cut = report.get("chains_cut")
    if not cut:
        return "—"
    if not cut["count"]:
        return "none"
    return f"{cut['count']} ({cut['carried_at_cut']} counters still carried at the cut)"


def _stall(cut: int, carried: int, deals: int) -> str:
    from ..study.simulate_report import stall_words

    return stall_words(cut, carried, deals)


def _simulation_inputs(variant: Variant) -> dict[str, Any]:
    return {
        "variant": fingerprint(variant),
        "deals": SIM_DEALS,
        "seed": SIM_SEED,
        "policy": SIM_POLICY,
    }


def simulation_is_cached(variants: list[Variant]) -> bool:
    """Whether every system's simulated play can be read from the cache."""
    return all(is_cached("simulate", _simulation_inputs(v)) for v in variants)


POLICY_ORIGIN = ", a rule of thumb after Foster's *Suggestions for Good Play*"
"""Where the simulated policy comes from, in the simulated play's introduction: a bundled
work, so a site without the bundled library leaves it out (``policy_origin_left_out``)."""


def policy_origin_left_out(section: StatSection) -> StatSection:
    """The simulated play's section without the name of the work its policy comes from."""
    return replace(section, intro=section.intro.replace(POLICY_ORIGIN, ""))


def simulate_section(variants: list[Variant], log: Callable[[str], None]) -> StatSection:
    title = "Simulated play"
    intro = (
        f"{SIM_DEALS} seeded deals per system (seed {SIM_SEED}), every seat played by the "
        f"`{SIM_POLICY}` betting policy of `bouillotte simulate`{POLICY_ORIGIN}: a player "
        "always backs a brelan (and raises once), and backs the point only when it is high "
        "enough for the number of players already in (21 alone, 26 against one, 32 against "
        "two, never against three); nobody bluffs. The tables show what decides the pool, "
        "how large it is, and how the counters move between the seats under each system. "
        "These are samples, not exact counts, so each number carries a 95 % confidence "
        "interval, drawn on the charts as a line across the bar's end: where two systems' "
        "intervals overlap, the sample does not tell them apart."
    )
    # With every result in the cache (keyed on the engine's source, so the module that
    # made them is this one) the module is not even imported.
    if not _present("simulate"):
        return StatSection(
            "simulate",
            title,
            intro,
            missing="The simulation module is not part of this build yet, so no simulation "
            "tables are shown.",
        )
    module: Any = None if simulation_is_cached(variants) else _module("simulate")
    if module is not None and not hasattr(module, "simulate"):
        return StatSection(
            "simulate",
            title,
            intro,
            missing="The simulation module offers no simulate() function, so its results "
            "cannot be shown here yet.",
        )
    by_players: dict[int, list[dict[str, Any]]] = {}
    figures: dict[str, Any] = {}
    for variant in variants:

        def play(variant: Variant = variant) -> dict[str, Any]:
            log(f"  simulating {SIM_DEALS} deals under {variant.id}")
            from ..study.simulate_report import report

            simulate: Any = module or _module("simulate")
            tally = simulate.simulate(variant, SIM_DEALS, SIM_SEED, SIM_POLICY)
            return report(variant, tally, SIM_SEED, SIM_POLICY)

        figures[variant.id] = cached("simulate", _simulation_inputs(variant), play)
        by_players.setdefault(variant.players, []).append(figures[variant.id])
    tables = [
        _sim_table(number, reports, players, {v.id: v.short or v.id for v in variants})
        for number, (players, reports) in enumerate(sorted(by_players.items()), start=1)
    ]
    rows = "one row per system and figure, a rate as its count of n, with its interval"
    tidy = TidyLink("simulation", "the simulated play", rows) if figures else None
    return StatSection("simulate", title, intro, tables, data=figures, tidy=tidy)
