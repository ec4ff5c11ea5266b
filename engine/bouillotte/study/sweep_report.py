"""The sweep's report: its JSON data (rates with Wilson intervals, means and differences
with normal intervals, the pool's spread), the text tables with their notes, the CSV lines,
and the rows of a rule that no deal met."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

from ..rules.variant import Variant, differing_rules
from .intervals import difference, ends, judge, judge_spread, places_for
from .simulate_report import stall_words
from .sweep import SweepTally, metrics_for
from .sweep_combinations import Combination, Skipped, cannot_be_read
from .tally import Z95, wilson


def _r(x: float) -> float:
    return round(x, 6)


def _spread(powers: list[int], n: int, largest: int) -> dict[str, Any]:
    """The pool's standard deviation, with a delta-method 95% interval from its fourth
    central moment, judged (``interval``: :func:`intervals.judge_spread`) from the pools'
    powers and the largest pool, ``largest``."""
    judged = judge_spread(powers, n, largest)
    if n < 2:
        return {"sd": None, "ci95": None, "interval": judged}
    s1, s2, s3, s4 = (p / n for p in powers)
    variance = s2 - s1 * s1
    fourth = s4 - 4 * s1 * s3 + 6 * s1 * s1 * s2 - 3 * s1**4
    sd = math.sqrt(max(variance, 0.0) * n / (n - 1))
    if sd == 0:
        return {"sd": 0.0, "ci95": [0.0, 0.0], "interval": judged}
    half = Z95 * math.sqrt(max(fourth - variance * variance, 0.0) / n) / (2 * sd)
    return {"sd": _r(sd), "ci95": [_r(sd - half), _r(sd + half)], "interval": judged}


def sweep_report(
    base: Variant,
    combinations: Sequence[Combination],
    tallies: dict[str, SweepTally],
    seed: int,
    skipped: Sequence[Skipped] = (),
    towards: str | None = None,
    read: bool = False,
) -> dict[str, Any]:
    """The sweep as JSON data: one row per policy and combination (the base first);
    ``read``: each combination's row also says in how many deals the base's play read a
    rule it changes (``rules_read``: 0 where the rule never came into play). A mean's
    interval is judged as ``simulate`` judges one (``interval``, with the deals whose value
    is not 0, ``nonzero``, and the largest, ``largest``: :mod:`intervals`)."""
    metrics = metrics_for(base.players)
    rows: list[dict[str, Any]] = []
    # Why a combination's rules cannot be read under the base's, whoever the players (a
    # proof from the rules alone; None where there is none): the same under every policy.
    unread = {
        c.label: cannot_be_read(base, sorted(differing_rules(base, c.variant)))
        for c in combinations
        if c.variant is not None
    }
    for policy, tally in tallies.items():
        n = tally.deals
        index = 0
        for combination in [Combination("base", {}, base), *combinations]:
            row: dict[str, Any] = {
                "policy": policy,
                "combination": combination.label,
                "changes": combination.changes,
                "rules": list(combination.rules),
            }
            if combination.variant is None:
                row |= {"status": "invalid", "error": combination.error}
                rows.append(row)
                continue
            if index in tally.failed:
                deal, error = tally.failed[index]
                row |= {
                    "status": "failed",
                    "error": f"the engine failed on deal {deal} of seed {seed} ({error})",
                }
                rows.append(row)
                index += 1
                continue
            values: dict[str, Any] = {}
            for k, metric in enumerate(metrics):
                total, squares = tally.sums[index][k], tally.squares[index][k]
                if metric.kind == "rate":
                    entry = wilson(total, n)
                else:
                    nonzero, largest = tally.nonzero[index][k], tally.largest[index][k]
                    entry = {
                        "n": n,
                        "mean": _r(total / n),
                        "ci95": ends(total, squares, n),
                        "interval": judge(total, squares, n, nonzero, largest),
                        "nonzero": nonzero,
                        "largest": largest,
                    }
                if index > 0:
                    entry |= difference(
                        tally.diff_sums[index][k],
                        tally.diff_squares[index][k],
                        n,
                        tally.diff_moved[index][k],
                        tally.diff_largest[index][k],
                    )
                values[metric.key] = entry
            values["pool_spread"] = _spread(tally.pool_powers[index], n, values["pool"]["largest"])
            row |= {"status": "ok", "deals": n, "metrics": values}
            if index > 0:
                row["came_into_play"] = tally.came_into_play[index]
                row["rules_read"] = tally.rules_read[index]
                why = unread[combination.label]
                if why is not None and row["came_into_play"] == 0 and row["rules_read"] == 0:
                    row["cannot_act"] = why
                row["acts"] = acts(row)
                if not read:
                    del row["rules_read"]
            rows.append(row)
            index += 1
    return {
        "base": base.id,
        "towards": towards,
        "seed": seed,
        "deals": next(iter(tallies.values())).deals if tallies else 0,
        "policies": list(tallies),
        "metrics": {m.key: m.label for m in metrics} | {"pool_spread": "spread (sd) of the pool"},
        "skipped": [{"rule": s.rule, "reason": s.reason} for s in skipped],
        "rows": rows,
    }


COLUMNS = (
    ("decided_by.uncontested", "uncontested"),
    ("decided_by.any_brelan", "brelan"),
    ("decided_by.point", "point"),
    ("decided_by.void", "void"),
    ("pool", "pool"),
    ("pool_spread", "pool sd"),
    ("bonus_flow", "bonuses"),
)


def _cell(entry: dict[str, Any], rate: bool, is_base: bool) -> str:
    scale = 100 if rate else 1
    if "sd" in entry:
        return "-" if entry["sd"] is None else f"{entry['sd']:.2f}"
    if is_base:
        value = entry["rate" if rate else "mean"]
        return "-" if value is None else (f"{100 * value:.2f}%" if rate else f"{value:.2f}")
    return difference_cell(entry, scale)


def difference_cell(entry: dict[str, Any], scale: int = 1) -> str:
    """A difference as the terminal shows it: ``no deal moved`` where every deal's
    difference is 0; the mean and the count of deals that moved where the interval is
    declined (:mod:`intervals`); else the mean ± the half-width, ``*`` where it is clear,
    with the places that show both as more than 0."""
    diff = entry["diff"] * scale
    judged = entry.get("diff_interval", "normal")
    if judged == "unchanged":
        return "none moved"
    if judged == "declined":  # so is every difference of one deal, whose diff_ci95 is None
        places = places_for(diff, 0)
        moved, largest = entry["diff_moved"], entry["diff_largest"] * scale
        return f"{diff:+.{places}f} ({moved:,} moved, largest {largest:,g})"
    low, high = entry["diff_ci95"]
    if low == high == diff == 0:  # a file stored before differences were judged
        return "none moved"
    half = (high - low) / 2 * scale
    mark = "*" if entry.get("diff_clear", low > 0 or high < 0) else ""
    places = places_for(diff, half)
    return f"{diff:+.{places}f}±{half:.{places}f}{mark}"


CARD_BOUND: dict[str, str] = {
    "hands.card_under_retourne": "the cards alone reach it: only when a brelan carré meets a "
    "higher brelan at the showdown and the card under the retourne is that brelan's fourth "
    "(a few deals in a hundred thousand)",
    "point.folded_hands_in_side_pools": "it acts only in a side pool, which needs unequal "
    "caves: only in deals played on a void deal's pool",
    "point.side_pots_by_winning_suit": "it acts only in a side pool, which needs unequal "
    "caves: only in deals played on a void deal's pool",
    "bonuses.carre.amount": "the cards decide it: a brelan carré must be dealt and shown",
    "bonuses.carre.amount_if_wins_pool": "the cards decide it: a brelan carré must be dealt "
    "and shown",
}
"""Rules no player's choice can bring about: why a policy may not meet them."""


def acts(row: dict[str, Any]) -> str:
    """Whether a combination's rules acted in the sweep's deals: ``acted`` (it changed
    something in some deal); ``did-not-act`` (the rule was read, and changed nothing in
    these deals: a larger sample may); ``not-read`` (no deal of the sample read a rule it
    changes: nothing is said of the players, other deals or a larger sample may read it);
    ``cannot-act`` only where it is proven from the rules alone that no deal can read them,
    whoever the players (``cannot_act`` says why: :func:`.sweep_combinations.cannot_be_read`).
    A row that holds ``acts`` (a stored one) keeps it."""
    if "acts" in row:
        return str(row["acts"])
    if row.get("came_into_play", 1) != 0:
        return "acted"
    if row.get("rules_read") != 0:
        return "did-not-act"
    return "cannot-act" if row.get("cannot_act") else "not-read"


ACTS_WORDS: dict[str, str] = {
    "cannot-act": "cannot act under this player",
    "not-read": "not read in these deals",
    "did-not-act": "did not act in these deals",
}
"""The short words of :func:`acts` (a table's cell)."""


def not_met(row: dict[str, Any], deals: int) -> str | None:
    """Why a combination that changed nothing in any deal shows no effect: it cannot act
    (proven from the rules: no deal can read it), it was not read in these deals (nothing
    said of the players), or it did not act in these deals (read, and changing nothing),
    and why where no choice reaches the rule; ``None`` where it acted."""
    status = acts(row)
    if status == "acted":
        return None
    if status == "cannot-act":
        text = f"cannot act under this player: no deal of {deals:,} read the rule"
        if row.get("cannot_act"):
            text += f", and none can ({row['cannot_act']})"
    elif status == "not-read":
        these = "this one deal" if deals == 1 else f"these {deals:,} deals"
        text = (
            f"not read in {these}: no deal's play read the rule; nothing is said of these "
            "players, and other deals may read it"
        )
    else:
        read = row.get("rules_read")
        where = (
            f"read in {read:,} of {deals:,} deals" if read is not None else f"in {deals:,} deals"
        )
        text = f"did not act in these deals: {where}, it changed nothing"
    reasons = {CARD_BOUND[r["rule"]] for r in row.get("rules", []) if r["rule"] in CARD_BOUND}
    return text + (f" ({'; '.join(sorted(reasons))})" if reasons else "")


def rule_in_words(rule: dict[str, str]) -> str:
    """``betting.closing: calling privilege (foster: documented) -> no more round (pagat:
    documented)``."""
    return (
        f"{rule['rule']}: {rule['from']} ({rule['from_system']}: {rule['from_standing']}) -> "
        f"{rule['to']} ({rule['to_system']}: {rule['to_standing']})"
    )


SWEEP_NOTES = """\
Columns:
  came into play: in how many of the deals the change altered something offered to a
    player, an action taken or a measured result. Where it altered none: "not read in
    these deals" if no deal's play read the rule (other deals may: nothing is said of
    the players), "cannot act under this player" only where the rules alone prove that no
    deal can read it (the note says why), "did not act in these deals" if it was read and
    changed nothing (a larger sample may show an effect); either way the row shows no
    effect, not an effect of zero.
  a difference: the mean ± the half-width of its 95% interval, * where the interval
    excludes 0; "none moved" where no deal's figure changed; "+d (N moved, largest X)"
    with no interval (and never *) where fewer than 100 deals moved or one deal carries
    more than a tenth of the differences' sum of squares: a normal interval would then
    rest on a few deals and miss the rare large ones (docs/simulation.md).
  uncontested: pools won by a player left alone, without a showdown.
  brelan: pools won by a brelan of any kind at the showdown (carré, simple, favori,
    mistigri).
  point: pools won by the point.
  void: deals nobody opened (their pool is played for in the deals after them).
  pool: counters in the pools awarded in the deal and the deals played on its carried
    pool (a void deal awards none; a pool won after void deals counts once, its carried
    counters included).
  pool sd: the standard deviation of that pool, each row's own (not a difference).
  bonuses: counters paid for brelans in the deal.
  seat N, seat 1: the net per deal of a seat, numbered from the right of the first deal's
    dealer (seat 1 speaks first in it, seat N deals it), over that deal and the deals
    played on its pool if it was void, where the deal has passed on and the seat holds
    another role; --json gives every seat (they sum to zero), and the chains of void deals
    cut unended after 30 deals (chains_cut) with the counters still carried at the cut
    (carried): counted apart, never as the seats' losses.
Rates are in % on the base row and in percentage points on the others; means in counters."""


def sweep_text(data: dict[str, Any]) -> str:
    """One table per policy: the base's values, then each combination's difference, each
    row named in words below it, and every column explained."""
    from .policies import describe_policy
    from .render import counted, table

    players = len([k for k in data["metrics"] if k.startswith("seat_net.")])
    columns = [*COLUMNS, (f"seat_net.{players}", f"seat {players}"), ("seat_net.1", "seat 1")]
    lines = [
        f"Sweep of {data['base']}"
        + (f" towards {data['towards']}" if data["towards"] else "")
        + f": {counted(data['deals'], 'deal')} per combination, seed {data['seed']}, the "
        "same deals for every combination.",
        "Base row: rates and means. Other rows: difference from the base (rates in "
        "percentage points) ± the half-width of its 95% interval from the paired per-deal "
        "differences (where it can be given: see the notes); * where the interval excludes "
        "0. The pool sd is each row's own.",
    ]
    for skipped in data["skipped"]:
        lines.append(f"skipped {skipped['rule']}: {skipped['reason']}")
    deals = data["deals"]
    for policy in data["policies"]:
        rows = []
        named: list[str] = []
        unmet: list[str] = []
        carried = 0.0
        stalls: list[str] = []
        for row in data["rows"]:
            if row["policy"] != policy:
                continue
            label = row["combination"]
            if row["status"] != "ok":
                rows.append([label, "", row["error"]] + [""] * (len(columns) - 1))
                continue
            carried = max(carried, abs(row["metrics"]["carried"]["mean"]))
            cut = row["metrics"].get("chains_cut")
            if cut and cut["count"]:
                n = row["deals"]
                held = round(row["metrics"]["carried"]["mean"] * n)
                words = f"{label}: {stall_words(cut['count'], held, n)}"
                stalls.append(
                    textwrap.fill(words, 92, initial_indent="  ", subsequent_indent="    ")
                )
            is_base = label == "base"
            count = "" if is_base else f"{row['came_into_play']:,}"
            for rule in row.get("rules", []):
                named.append(rule_in_words(rule))
            missing = None if is_base else not_met(row, deals)
            if missing is not None:
                rows.append([label, ACTS_WORDS[row["acts"]]] + ["-"] * len(columns))
                unmet.append(f"  {label}: {missing}")
                continue
            rows.append(
                [label, count]
                + [
                    _cell(row["metrics"][key], key.startswith("decided_by."), is_base)
                    for key, _ in columns
                ]
            )
        lines += [
            "",
            f"policy {policy}: {describe_policy(policy)}",
            table(["", "came into play", *(h for _, h in columns)], rows),
            "Chains of void deals cut unended (counted apart, not in the seats' nets): "
            + ("none in any row." if carried == 0 else f"at most {carried:.4f} counters per deal."),
        ]
        if stalls:
            lines += ["Rows whose rules make the game stall:", *stalls]
        if unmet:
            lines += ["No effect can be measured (rather than an effect of zero):", *unmet]
        if named:
            lines += ["Rules changed, from the base's value to the new one:"]
            lines += [f"  {line}" for line in dict.fromkeys(named)]
    lines += ["", SWEEP_NOTES]
    return "\n".join(lines)


def sweep_csv_rows(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One line per policy, combination and measure (the base's lines carry no diff), with
    what may be said of each interval: the mean's or the spread's judgement (``interval``,
    empty for a rate and in a stored file written before these were judged) and the
    difference's (``diff_interval``: a declined one keeps its ``diff_ci95`` ends, as the
    JSON does, and says so here), and whether the combination came into play."""
    for row in data["rows"]:
        head = {"policy": row["policy"], "combination": row["combination"], "status": row["status"]}
        if row["status"] != "ok":
            yield head | {"error": row["error"]}
            continue
        if row["combination"] != "base":
            head |= {"came_into_play": row.get("came_into_play"), "acts": acts(row)}
        for key, entry in row["metrics"].items():
            value = entry.get("rate", entry.get("mean", entry.get("sd")))
            low, high = entry["ci95"] or (None, None)
            diff_low, diff_high = entry.get("diff_ci95") or (None, None)
            yield head | {
                "metric": key,
                "value": value,
                "ci95_low": low,
                "ci95_high": high,
                "diff": entry.get("diff"),
                "diff_ci95_low": diff_low,
                "diff_ci95_high": diff_high,
                "deals": row["deals"],
                "interval": entry.get("interval"),
                "nonzero": entry.get("nonzero"),
                "largest": entry.get("largest"),
                "diff_interval": entry.get("diff_interval"),
                "diff_clear": entry.get("diff_clear"),
                "diff_moved": entry.get("diff_moved"),
                "diff_largest": entry.get("diff_largest"),
            }
