"""The statistics page's "What each rule does": Foster's system with each of the teaching
card's rules switched in, one at a time, on the same seeded deals (``bouillotte sweep``).

Computed at build time with a small number of deals, and cached in a file named by a
hash of everything the figures depend on (the computing layers' source, both systems' rules, the
deals, seed and policy). The page is always drawn from the JSON the sweep's report becomes
(fresh or read back), so a cached build is byte-for-byte the same as a fresh one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..rules.variant import Variant
from .cache import SCHEMAS, cache_dir, content_digest, engine_digest, read_cached, store
from .charts import Bar, signed_chart
from .stats import StatSection, StatTable

EFFECT_BASE = "foster"
EFFECT_TOWARDS = "pagat"
EFFECT_DEALS = 400
EFFECT_SEED = 1
EFFECT_POLICY = "simple"

HEADLINES = (
    ("decided_by.uncontested", "pools won uncontested", True),
    ("decided_by.any_brelan", "pools won by a brelan", True),
    ("decided_by.point", "pools won by the point", True),
    ("decided_by.void", "void deals", True),
    ("pool", "the pool per deal", False),
    ("bonus_flow", "counters paid for brelans per deal", False),
)


def content_key(base: Variant, other: Variant) -> str:
    """A hash of everything the figures depend on: the code of the layers that compute them
    (``cache.engine_digest``), both systems' rules, the deals, seed and policy."""
    return content_digest(
        engine_digest(),
        *(json.dumps(v.rules.model_dump(mode="json"), sort_keys=True) for v in (base, other)),
        f"{EFFECT_DEALS}:{EFFECT_SEED}:{EFFECT_POLICY}",
    )


def effects_are_cached(variants: list[Variant]) -> bool:
    """Whether "What each rule does" can be read from the cache (or is not drawn at all)."""
    by_id = {v.id: v for v in variants}
    if EFFECT_BASE not in by_id or EFFECT_TOWARDS not in by_id:
        return True
    key = content_key(by_id[EFFECT_BASE], by_id[EFFECT_TOWARDS])
    return read_cached(cache_dir() / f"effects-{key}.json", SCHEMAS["effects"]) is not None


def effects_data(base: Variant, other: Variant, log: Callable[[str], None]) -> dict[str, Any]:
    """The sweep of ``base`` towards ``other``, from the cache when it holds it (the sweep
    is only imported when it must run)."""
    path = cache_dir() / f"effects-{content_key(base, other)}.json"
    found = read_cached(path, SCHEMAS["effects"])  # None: absent, damaged or planted
    if found is not None:
        return found  # type: ignore[no-any-return]
    from ..study.sweep import run_sweep, sweep_report, towards_combinations

    log(f"  sweeping {base.id} towards {other.id}, {EFFECT_DEALS} deals per rule")
    combinations, skipped = towards_combinations(base, other)
    tallies = run_sweep(base, combinations, [EFFECT_POLICY], EFFECT_DEALS, EFFECT_SEED)
    report = sweep_report(base, combinations, tallies, EFFECT_SEED, skipped, other.id)
    text = json.dumps(report, sort_keys=True, ensure_ascii=False)
    store(path, text)
    return json.loads(text)  # type: ignore[no-any-return]


def _largest(metrics: dict[str, Any]) -> tuple[str, str, bool, dict[str, Any]] | None:
    """The headline measure this change moves most, relative to its interval."""
    best: tuple[float, tuple[str, str, bool, dict[str, Any]]] | None = None
    for key, words, rate in HEADLINES:
        entry = metrics[key]
        low, high = entry["diff_ci95"]
        half = (high - low) / 2
        if entry["diff"] == 0:
            continue
        score = abs(entry["diff"]) / half if half else float("inf")
        if best is None or score > best[0]:
            best = (score, (key, words, rate, entry))
    return best[1] if best else None


def _amount(value: float, rate: bool) -> str:
    return f"{100 * value:+.1f} points" if rate else f"{value:+.2f} counters"


def _sentence(row: dict[str, Any], dealer: str) -> str:
    metrics = row["metrics"]
    largest = _largest(metrics)
    dealer_entry = metrics[dealer]
    if largest is None and dealer_entry["diff"] == 0:
        return (
            "No measured difference on any of these deals (the players may never meet "
            "the situation this rule governs)."
        )
    parts = []
    if largest is not None:
        _, words, rate, entry = largest
        low, high = entry["diff_ci95"]
        shown = f"{_amount(entry['diff'], rate)} [{_amount(low, rate)}, {_amount(high, rate)}]"
        if low <= 0 <= high:
            parts.append(
                f"No clear effect: the largest, on {words}, is {shown}, an interval "
                "that includes 0."
            )
        else:
            parts.append(f"Moves {words} most: {shown}.")
    low, high = dealer_entry["diff_ci95"]
    parts.append(
        f"The dealer's net per deal: {dealer_entry['diff']:+.2f} [{low:+.2f}, {high:+.2f}]."
    )
    return " ".join(parts)


def rule_effects_section(variants: list[Variant], log: Callable[[str], None]) -> StatSection:
    title = "What each rule does"
    intro = (
        f"Foster's system with each rule on which the teaching card ({EFFECT_TOWARDS}) "
        "differs switched to the card's value, one at a time, then all together, on the "
        f"same {EFFECT_DEALS} seeded deals played by the `{EFFECT_POLICY}` policy "
        f"(`bouillotte sweep {EFFECT_BASE} --towards {EFFECT_TOWARDS}`). The same cards are "
        "dealt under every change, so a difference is the rule's doing, not the deal's; "
        "each carries its 95 % interval from the paired deal-by-deal differences. These are "
        "small samples measured under one betting policy: a different player may answer a "
        "rule differently (run the command with more deals and other `--policy` values)."
    )
    by_id = {v.id: v for v in variants}
    if EFFECT_BASE not in by_id or EFFECT_TOWARDS not in by_id:
        return StatSection(
            "rule-effects",
            title,
            intro,
            missing=f"This build has no {EFFECT_BASE} or no {EFFECT_TOWARDS} profile.",
        )
    data = effects_data(by_id[EFFECT_BASE], by_id[EFFECT_TOWARDS], log)
    players = sum(1 for k in data["metrics"] if k.startswith("seat_net."))
    dealer = f"seat_net.{players}"
    changed = [r for r in data["rows"] if r["combination"] != "base"]
    rows = []
    bars = []
    for row in changed:
        if row["status"] != "ok":
            rows.append([row["combination"], row["error"]])
            continue
        rows.append([row["combination"], _sentence(row, dealer)])
        entry = row["metrics"][dealer]
        low, high = entry["diff_ci95"]
        bars.append(
            Bar(
                row["combination"], entry["diff"], f"{entry['diff']:+.2f} [{low:+.2f}, {high:+.2f}]"
            )
        )
    base_dealer = next(r for r in data["rows"] if r["combination"] == "base")["metrics"][dealer]
    skipped = "; ".join(f"{s['rule']}: {s['reason']}" for s in data["skipped"])
    table = StatTable(
        "rule-effects-table",
        f"{EFFECT_BASE} towards {EFFECT_TOWARDS}: {data['deals']} deals per change, "
        f"policy {EFFECT_POLICY}, seed {data['seed']}",
        ["Rule switched to the teaching card's value", "Measured effect [95 % interval]"],
        rows,
        chart=signed_chart(
            "chart-rule-effects",
            "Change in the dealer's net per deal when each rule is switched "
            f"(under {EFFECT_BASE} the dealer nets {base_dealer['mean']:+.2f} per deal)",
            bars,
        ),
        note="Rates move in percentage points, means in counters. Not measured: "
        + (skipped or "nothing")
        + ".",
    )
    return StatSection("rule-effects", title, intro, [table])
