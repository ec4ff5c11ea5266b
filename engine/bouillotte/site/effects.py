""" "What each rule does", as the pages show it: for every pair of systems that share a pack
and a number of players, the first system with each rule on which the second differs
switched to the second's value, one at a time, on the same seeded deals (``bouillotte sweep
A --towards B``), under two betting policies.

The figures come from the store (:mod:`effects_store`: ``site/effects/A__B.json``, each used
only when its key matches; :mod:`effects_run` computes them with ``bouillotte effects
--write``). The build never sweeps: the page is drawn from the JSON as stored, so it is the
same byte for byte whoever builds it; a missing or stale file is "not shown", with the
command that regenerates it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from ..rules.profile import value_label
from ..rules.variant import Variant
from ..study.intervals import moved_in_words, places_for
from ..study.sweep_report import ACTS_WORDS, acts
from . import effects_store
from .charts import Bar, signed_chart
from .downloads import effects_table_name
from .effects_store import EFFECT_DEALS, EFFECT_POLICIES
from .names import Names
from .rules import part_label
from .stats import StatSection, StatTable, TidyLink

OVERVIEW = ("foster", "pagat")
"""The pair the statistics page shows in overview."""

MEASURES = (
    ("decided_by.uncontested", "pools won uncontested", True),
    ("decided_by.any_brelan", "pools won by a brelan", True),
    ("decided_by.point", "pools won by the point", True),
    ("decided_by.void", "void deals", True),
    ("pool", "the pool per deal (every deal, those played on carried pools included)", False),
    ("bonus_flow", "counters paid for brelans per deal", False),
)
"""What a rule's effect is shown on, besides each seat's net."""


def _amount(value: float, rate: bool) -> str:
    """A difference as a sentence quotes it, with the places that show it as more than 0
    (a clear effect of -0.003 is not "-0.00")."""
    shown = 100 * value if rate else value
    text = f"{shown:+.{places_for(shown, 0)}f}"
    return f"{text} points" if rate else text


def judged(entry: dict[str, Any]) -> str:
    """How a difference may be read (:mod:`study.intervals`): ``unchanged`` (no deal
    moved), ``declined`` (no interval can be stood behind) or ``normal``; a file stored
    before these were recorded is read as it was then (a zero interval: unchanged)."""
    if "diff_interval" in entry:
        return str(entry["diff_interval"])
    return "unchanged" if entry["diff"] == 0 and entry["diff_ci95"] == [0.0, 0.0] else "normal"


def _interval(entry: dict[str, Any], rate: bool) -> str:
    """A difference in words: ``no deal moved``; the mean with the deals that moved and
    no interval; or the mean and its interval, with the places that show them as more
    than 0."""
    scale = 100 if rate else 1
    how = judged(entry)
    diff = entry["diff"] * scale
    if how == "unchanged":
        return "no deal moved"
    if how == "declined":
        moved = moved_in_words(entry["diff_moved"], entry["diff_largest"], scale)
        return f"{diff:+.{places_for(diff, 0)}f} ({moved})"
    low, high = (x * scale for x in entry["diff_ci95"])
    ends = (low, high) if _clear(entry) else ()  # a clear interval's ends never read as 0
    places = places_for(diff, (high - low) / 2, *ends)
    return f"{diff:+.{places}f} [{low:+.{places}f}, {high:+.{places}f}]"


def _clear(entry: dict[str, Any]) -> bool:
    """The interval is one the method stands behind, and it excludes 0."""
    if "diff_clear" in entry:
        return bool(entry["diff_clear"])
    low, high = entry["diff_ci95"]
    return bool(low > 0 or high < 0)


def seat_name(position: int, seats: int) -> str:
    """A seat by its number, with the role it holds in the deal counted (not in the deals
    played on its carried pool, where the deal has passed on)."""
    if position == seats:
        return f"seat {seats} (the dealer of the deal counted)"
    if position == 1:
        return "seat 1 (the eldest hand of the deal counted)"
    return f"seat {position}"


def _size(row: dict[str, Any]) -> float:
    """A row's size: its largest change in counters per deal, to the pool, the bonuses or
    any seat's net."""
    metrics = row["metrics"]
    keys = ["pool", "bonus_flow", *(k for k in metrics if k.startswith("seat_net."))]
    return max(abs(float(metrics[k]["diff"])) for k in keys)


@dataclass(frozen=True)
class RuleEffect:
    """One rule (or the whole difference) as a pair page shows it."""

    label: str
    rules: list[str]
    """Each rule changed, in words, with both systems' standing."""
    met: list[str]
    """In how many deals it came into play, per policy."""
    sentence: str
    columns: list[str]
    cells: list[list[str]]
    """A row per measure: its name, then the effect under each policy."""
    size: float
    heading: str = ""
    """The change in words, as readers see it ("Dealer's blind → 2")."""
    changes: tuple[str, ...] = ()
    """The rules (or parts of one) the change switches (a strong-play band is found by
    them)."""


def _value(rule: str, words: str) -> str:
    """A value the sweep wrote in words (``the whole pot``) in the schema's words."""
    label = value_label(rule, words.replace(" ", "-"))
    return words if label == words.replace(" ", "-") else label


def _rule_words(rule: dict[str, str], names: Names) -> str:
    path = rule["rule"]
    return (
        f"{part_label(path)}: {_value(path, rule['from'])} ({names.system(rule['from_system'])}, "
        f"{names.words(rule['from_standing'])}) → {_value(path, rule['to'])} "
        f"({names.system(rule['to_system'])}, {names.words(rule['to_standing'])})"
    )


def _unchanged(entry: dict[str, Any]) -> bool:
    """No deal's measure moved at all."""
    return judged(entry) == "unchanged"


def _unclear(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "not met"
    if _unchanged(entry):
        return "no change at all"
    if judged(entry) == "declined":
        return "too few deals moved for an interval"
    return "no clear effect"


def _sentence(measures: list[tuple[str, bool, list[dict[str, Any] | None]]]) -> str:
    """The clear effects, grouped by whether they survive the change of player."""
    both: list[str] = []
    one: list[str] = []
    opposite: list[str] = []
    for words, rate, entries in measures:
        shown = [e for e in entries if e is not None]
        clear = [e for e in shown if _clear(e)]
        if not clear:
            continue
        amounts = " and ".join(_amount(e["diff"], rate) for e in shown)
        if len(clear) == len(EFFECT_POLICIES) and len({e["diff"] > 0 for e in clear}) == 1:
            both.append(f"{words} {amounts}")
        elif len(clear) > 1:
            opposite.append(f"{words} {amounts}")
        else:
            policy, entry = next(
                (p, e) for p, e in zip(EFFECT_POLICIES, entries, strict=True) if e in clear
            )
            others = [
                (p, e) for p, e in zip(EFFECT_POLICIES, entries, strict=True) if e not in clear
            ]
            why = "; ".join(f"{p}: {_unclear(e)}" for p, e in others)
            one.append(f"{words} {_amount(entry['diff'], rate)} under {policy} ({why})")
    parts = []
    if both:
        parts.append(
            "Clear under both players, so the effect survives a change of player: "
            + "; ".join(both)
            + f" (under {' and '.join(EFFECT_POLICIES)})."
        )
    if opposite:
        parts.append("Clear but opposite under the two players: " + "; ".join(opposite) + ".")
    if one:
        parts.append(
            "Clear under one player only, so not shown to survive a change of player: "
            + "; ".join(one)
            + "."
        )
    return " ".join(parts)


def rule_effects(data: dict[str, Any], names: Names | None = None) -> list[RuleEffect]:
    """The rows of a stored report as the pair page shows them, largest first; ``names``
    writes the systems' ids as their names."""
    names = names or Names()
    report = data["report"]
    seats = sum(1 for k in report["metrics"] if k.startswith("seat_net."))
    deals = report["deals"]
    policies = report["policies"]
    by_label: dict[str, dict[str, dict[str, Any]]] = {}
    for row in report["rows"]:
        if row["combination"] != "base":
            by_label.setdefault(row["combination"], {})[row["policy"]] = row
    measures = [(k, w, r) for k, w, r in MEASURES] + [
        (f"seat_net.{p}", f"the net per deal of {seat_name(p, seats)}", False)
        for p in range(1, seats + 1)
    ]
    effects = []
    for label, rows in by_label.items():
        first = next(iter(rows.values()))
        if first["status"] != "ok":
            effects.append(
                RuleEffect(label, [], [], first["error"], [], [], 0.0, names.words(label))
            )
            continue
        met = []
        for policy in policies:
            count = rows[policy]["came_into_play"]
            status = acts(rows[policy])
            if status == "cannot-act":
                why = names.words(rows[policy].get("cannot_act") or "no deal can read the rule")
                met.append(f"cannot act under {policy}: {why}")
            elif status == "not-read":
                met.append(f"not read in these {deals:,} deals under {policy}")
            elif status == "did-not-act":
                met.append(f"did not act in these {deals:,} deals under {policy}")
            else:
                met.append(f"came into play in {count:,} of {deals:,} deals under {policy}")
        cells = []
        measured = []
        for key, words, rate in measures:
            entries = [
                rows[p]["metrics"][key] if rows[p]["came_into_play"] else None for p in policies
            ]
            cells.append(
                [words]
                + [
                    ACTS_WORDS[acts(rows[p])]
                    if e is None
                    else _interval(e, rate) + (" *" if _clear(e) else "")
                    for p, e in zip(policies, entries, strict=True)
                ]
            )
            measured.append((words, rate, entries))
        sentence = _sentence(measured)
        if not sentence and all(rows[p]["came_into_play"] == 0 for p in policies):
            sentence = (
                "Neither player met this rule in these deals, so no effect can be measured "
                "(which is not an effect of zero)."
            )
        elif not sentence:
            sentence = (
                "No clear effect under either player: every interval includes 0, or too few "
                "deals moved for one."
            )
        size = max(_size(rows[p]) for p in policies)
        effects.append(
            RuleEffect(
                label,
                [_rule_words(r, names) for r in first.get("rules", [])],
                met,
                sentence,
                ["Measure", *(f"under {p}" for p in policies)],
                cells,
                size,
                _chart_label(first, names),
                tuple(first.get("changes", {})),
            )
        )
    whole = [e for e in effects if e.label.startswith("all ")]
    single = sorted((e for e in effects if not e.label.startswith("all ")), key=lambda e: -e.size)
    return single + whole


def effects_chart(chart_id: str, data: dict[str, Any], effects: list[RuleEffect]) -> Markup:
    """The change in the dealer's net per deal under the first policy, each rule labelled
    in words (its name and the two values), with its 95 % interval."""
    report = data["report"]
    policy = report["policies"][0]
    seats = sum(1 for k in report["metrics"] if k.startswith("seat_net."))
    dealer = f"seat_net.{seats}"
    rows = {
        r["combination"]: r
        for r in report["rows"]
        if r["policy"] == policy and r["status"] == "ok" and r["combination"] != "base"
    }
    bars = []
    for effect in effects:
        row = rows.get(effect.label)
        if row is None:
            continue
        entry = row["metrics"][dealer]
        if row["came_into_play"] == 0:
            bars.append(Bar(effect.heading, 0.0, "not met"))
            continue
        how = judged(entry)
        if how == "unchanged":
            bars.append(Bar(effect.heading, 0.0, _interval(entry, False)))
            continue
        if how != "normal":
            # The chart says only that no interval is given (the deals moved and the largest
            # difference are in the table beside it): a long value would shrink the chart
            # on a phone below a readable size.
            # A value that moved is not written as 0 ("+0.00"): the places show it.
            shown = f"{entry['diff']:+.{places_for(entry['diff'], 0)}f}"
            bars.append(Bar(effect.heading, entry["diff"], f"{shown}, no interval"))
            continue
        low, high = entry["diff_ci95"]
        half = (high - low) / 2
        places = places_for(entry["diff"], half)  # no "±0.00"
        shown = f"{entry['diff']:+.{places}f}".replace(f"-{0:.{places}f}", f"+{0:.{places}f}")
        bars.append(Bar(effect.heading, entry["diff"], f"{shown} ±{half:.{places}f}", low, high))
    return signed_chart(
        chart_id,
        f"Change in seat {seats}'s net per deal, in counters, under the {policy} player",
        bars,
    )


def _chart_label(row: dict[str, Any], names: Names) -> str:
    """A change in words: the rule's name and its new value ("Dealer's blind → 1"; a part
    of a bonus as "Payment for a brelan favori, from each payer → 0"); the whole
    difference as the sweep names it, with the system's name ("all 17 rules of …")."""
    rules = row.get("rules", [])
    if not rules or str(row["combination"]).startswith("all "):
        return names.words(str(row["combination"]))
    first = rules[0]
    path = str(first["rule"])
    others = len(rules) - 1
    more = f", with {others} other rule{'s' if others > 1 else ''} changed" if others else ""
    return f"{part_label(path)} → {_value(path, str(first['to']))}{more}"


@dataclass(frozen=True)
class PairEffects:
    """What a pair page shows under "What each rule does"."""

    available: bool
    intro: str
    effects: list[RuleEffect] = field(default_factory=list)
    chart: Markup | None = None
    command: str = ""
    problem: str = ""
    fix: str = ""
    skipped: list[str] = field(default_factory=list)


def pair_effects(
    a: Variant, b: Variant, chart_id: str = "chart-pair-effects", names: Names | None = None
) -> PairEffects | None:
    """The section of a pair page, or ``None`` for a pair that cannot share deals."""
    if a.players != b.players or a.rules.table.pack_ranks() != b.rules.table.pack_ranks():
        return None
    found = effects_store.stored_effects(a, b)
    if found.data is None and effects_store.store_path(b, a).is_file():
        found = effects_store.stored_effects(b, a)  # stored the other way round
    if found.data is None:
        return PairEffects(False, "", problem=found.problem, fix=found.fix)
    data = found.data
    report = data["report"]
    names = names or Names()
    effects = rule_effects(data, names)
    if report["base"] != a.id:
        a, b = b, a
    intro = (
        f"{a.short} with each rule on which {b.short} differs switched to {b.short}'s value, "
        f"one at a time, then all together, on the same {report['deals']:,} seeded deals, "
        f"played by two players: {', '.join(report['policies'])} (described on the "
        "statistics page). The same cards are dealt under every change, so a difference is "
        "the rule's doing, not the deal's; each carries its 95 % interval from the paired "
        "deal-by-deal differences (* where it excludes 0). Rates move in percentage points, "
        "the rest in counters per deal; a seat's net counts the deals played on a void "
        "deal's pool. Rules are ranked by size: the largest change, under either player, to "
        "the pool, the bonuses or a seat's net, in counters per deal."
    )
    return PairEffects(
        True,
        intro,
        effects,
        effects_chart(chart_id, data, effects),
        data["command"],
        skipped=[f"{part_label(s['rule'])}: {s['reason']}" for s in report["skipped"]],
    )


def effects_are_cached(variants: list[Variant]) -> bool:
    """The statistics page's overview reads stored files only: it never sweeps."""
    return True


def rule_effects_section(variants: list[Variant], log: Callable[[str], None]) -> StatSection:
    """The statistics page's overview: the stored foster → pagat results, largest first,
    with the players described and a pointer to every pair page."""
    from ..study.policies import POLICY_DESCRIPTIONS

    title = "What each rule does"
    names = Names.of(variants, {})
    players = " ".join(f"`{p}`: {POLICY_DESCRIPTIONS[p]}" for p in EFFECT_POLICIES)
    intro = (
        "Every pair of systems that share a pack and a number of players has, on its pair "
        "page, what each rule on which they differ does to the game, measured on "
        f"{EFFECT_DEALS:,} seeded deals per change under two players. {players} "
        f"In overview here: {names.system(OVERVIEW[0])} towards {names.system(OVERVIEW[1])}."
    )
    by_id = {v.id: v for v in variants}
    if OVERVIEW[0] not in by_id or OVERVIEW[1] not in by_id:
        return StatSection(
            "rule-effects",
            title,
            intro,
            missing=f"This build has no {OVERVIEW[0]} or no {OVERVIEW[1]}.",
        )
    a, b = by_id[OVERVIEW[0]], by_id[OVERVIEW[1]]
    found = effects_store.stored_effects(a, b)
    if found.data is None:
        log(f"  {found.problem}: `{found.fix}` regenerates them")
        return StatSection(
            "rule-effects",
            title,
            intro,
            missing=f"Not shown: {found.problem}. {found.fix} regenerates them.",
        )
    effects = rule_effects(found.data, names)
    rows = [[e.heading, e.sentence + " " + "; ".join(e.met) + "."] for e in effects]
    table = StatTable(
        "rule-effects-table",
        f"{a.short} towards {b.short}: {found.data['deals']:,} deals per change, seed "
        f"{found.data['seed']}, largest first ({found.data['command']})",
        ["Rule switched to the teaching card's value", "Measured effect"],
        rows,
        chart=effects_chart("chart-rule-effects", found.data, effects),
        note="Ranked by the largest change, under either player, to the pool, the bonuses or "
        "a seat's net, in counters per deal. Rates move in percentage points, means in "
        "counters.",
    )
    players_table = StatTable(
        "policies-table",
        "The players (betting policies) of bouillotte simulate and sweep",
        ["Policy", "What it does"],
        [[name, sentence] for name, sentence in POLICY_DESCRIPTIONS.items()],
        note="The table family (advised, bold, table) takes tendencies after a colon, as "
        "bold:straddle=0.2 (bouillotte simulate --help lists them).",
        tidy=TidyLink("policies", "the betting policies", "one row per policy"),
    )
    tidy = TidyLink(
        effects_table_name(a.id, b.id),
        f"the rule effects of {a.short} towards {b.short}",
        "one row per player, change and measure, with its difference from the base",
    )
    return StatSection("rule-effects", title, intro, [table, players_table], tidy=tidy)
