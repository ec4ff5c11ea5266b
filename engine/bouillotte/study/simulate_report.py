"""The report of a simulation: its statistics as JSON data (:func:`report`) and several
variants' side by side as text (:func:`report_text`), with what each row means."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, Final

from ..rules.variant import Variant
from .situations import CLASSES, SITUATIONS
from .tally import Tally, wilson
from .void_chain import MAX_PLAYED_ON


def report(variant: Variant, tally: Tally, seed: int, policy: str) -> dict[str, Any]:
    """The statistics of a run, as JSON data; ``played_by`` is who played the steps: the
    policy, or ``advised`` for a ``strong`` player with no strategy stored for the rules."""
    from .strong_policy import played_by

    n = tally.deals
    hands = variant.rules.hands
    absent = {"favori": hands.favori == "none", "mistigri": not hands.mistigri}
    classes = [c for c in CLASSES if not absent.get(c, False) or tally.decided_by[c]]
    return {
        "variant": variant.id,
        "policy": policy,
        "played_by": played_by(variant.rules, policy),
        "seed": seed,
        "deals": n,
        "decided_by": {c: wilson(tally.decided_by[c], n) for c in classes},
        "average_pot": tally.pot.summary(),
        "bonus_flow_per_deal": tally.bonus_flow.summary(),
        "seat_net_per_deal": {
            str(position + 1): moments.summary() for position, moments in enumerate(tally.seat_net)
        },
        "still_carried_per_deal": tally.carried.summary(),
        "chains_cut": chains_cut(tally.cut, tally.carried.total, n),
        "pool_per_deal": tally.pools.summary(),
        "deals_played_on_carried_pools": tally.played_on,
        "situations_met": {key: wilson(tally.met[key], n) for key in SITUATIONS},
        "point_suit_is_retourne": wilson(tally.point_suit_is_retourne, tally.point_deals)
        | (
            {"cannot_occur": NO_WINNING_SUIT}
            if variant.rules.point.counted_cards == "whole-hand"
            else {}
        ),
        "dealt_per_hand": {
            key: wilson(tally.dealt[key], tally.hands_dealt)
            for key in ("simple_brelan", "carre", "favori")
        },
    }


def chains_cut(cut: int, carried: int, deals: int) -> dict[str, Any]:
    """The chains of void deals cut unended, as their own figure: how many (a rate of the
    deals), the counters still carried at the cut (in all), and whether the rules stall."""
    return {
        **wilson(cut, deals),
        "carried_at_cut": carried,
        "after": MAX_PLAYED_ON,
        "stalls": cut > 0,
    }


def stall_words(cut: int, carried: int, deals: int) -> str:
    """A rule set that makes the game stall, said in words (empty where none was cut)."""
    if not cut:
        return ""
    chains = "chain" if cut == 1 else "chains"
    return (
        f"The game stalls: in {cut:,} of {deals:,} deals nobody opened for {MAX_PLAYED_ON + 1} "
        f"deals in a row, so the {chains} of void deals never ended (a pool carried beyond "
        "what anyone may open for, or players who will not open); "
        f"{carried:,} counters were still carried at the cut, reported apart and not charged "
        "to the seats."
    )


NO_WINNING_SUIT: Final = "no suit wins the point: the pips of the whole hand count"
"""Why the point cannot be won by the retourne's suit where the whole hand counts."""


def _ci(summary: dict[str, Any], percent: bool = False) -> str:
    if summary.get("cannot_occur"):
        return "cannot occur"
    if summary.get("rate" if percent else "mean") is None:
        return "-"
    if percent:
        low, high = summary["ci95"]
        return f"{100 * summary['rate']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"
    judged = summary.get("interval", "normal")
    if judged == "unchanged":
        return f"{summary['mean']:.3f} (0 in every deal)"
    if judged == "declined":
        nonzero, largest = summary["nonzero"], summary["largest"]
        return f"{summary['mean']:.3f} (no interval: {nonzero:,} not 0, largest {largest:,})"
    low, high = summary["ci95"]
    return f"{summary['mean']:.3f} [{low:.3f}, {high:.3f}]"


def report_text(reports: Sequence[dict[str, Any]]) -> str:
    """The reports of several variants side by side (95% confidence intervals)."""
    from .render import table

    headers = ["", *(r["variant"] for r in reports)]
    rows: list[list[str]] = [["deals", *(f"{r['deals']:,}" for r in reports)]]
    keys = [c for c in CLASSES if any(c in r["decided_by"] for r in reports)]
    for key in keys:
        rows.append(
            [f"decided by {key}"]
            + [_ci(r["decided_by"][key], True) if key in r["decided_by"] else "-" for r in reports]
        )
    rows.append(["average pot (not void)", *(_ci(r["average_pot"]) for r in reports)])
    rows.append(["bonus flow per deal", *(_ci(r["bonus_flow_per_deal"]) for r in reports)])
    seats = max(len(r["seat_net_per_deal"]) for r in reports)
    for position in range(1, seats + 1):
        rows.append(
            [f"net per deal: {_seat_row(position, reports)}"]
            + [
                _ci(r["seat_net_per_deal"][str(position)])
                if str(position) in r["seat_net_per_deal"]
                else "-"
                for r in reports
            ]
        )
    rows.append(["pool per deal (carried-pool deals incl.)", *(_pool(r) for r in reports)])
    rows.append(["still carried per deal", *(_ci(r["still_carried_per_deal"]) for r in reports)])
    rows.append(["chains cut unended", *(_cut_text(r) for r in reports)])
    rows.append(
        [
            "deals played on carried pools",
            *(f"{r['deals_played_on_carried_pools']:,}" for r in reports),
        ]
    )
    rows.append(
        ["point won by retourne's suit", *(_ci(r["point_suit_is_retourne"], True) for r in reports)]
    )
    for key in ("simple_brelan", "carre", "favori"):
        rows.append(
            [f"dealt per hand: {key}", *(_ci(r["dealt_per_hand"][key], True) for r in reports)]
        )
    for key, words in SITUATIONS.items():
        rows.append([f"{MET_LABEL}: {words}", *(_met(r, key) for r in reports)])
    policy = reports[0]["policy"] if reports else ""
    seed = reports[0]["seed"] if reports else ""
    head = f"Simulation: policy {policy}, seed {seed}; 95% confidence intervals in brackets"
    head += "".join(
        "\n" + textwrap.fill(UNSOLVED_WORDS.format(**r), 92, break_on_hyphens=False)
        for r in reports
        if r.get("played_by", r["policy"]) != r["policy"]
    )
    stalls = [
        f"{r['variant']}: " + stall_words(c["count"], c["carried_at_cut"], r["deals"])
        for r in reports
        if (c := r.get("chains_cut")) and c["count"]
    ]
    body = head + "\n\n" + table(headers, rows)
    if stalls:
        body += "\n\n" + "\n".join(textwrap.fill(words, 92) for words in stalls)
    return body + "\n\n" + SIMULATE_NOTES


def _pool(report: dict[str, Any]) -> str:
    entry = report.get("pool_per_deal")
    return "-" if entry is None else _ci(entry)


def _cut_text(report: dict[str, Any]) -> str:
    entry = report.get("chains_cut")
    if entry is None:
        return "-"
    if not entry["count"]:
        return "none"
    return f"{entry['count']:,} ({entry['carried_at_cut']:,} counters carried)"


UNSOLVED_WORDS: Final = (
    "{variant}: no {policy} strategy is stored for its rules, so {played_by} played every "
    "step and its figures are {played_by}'s (played_by in --json and --csv; bouillotte "
    "strong solve -v {variant} --write stores one)"
)
"""Said of a system whose ``played_by`` is not its policy (``strong`` with no strategy)."""


def _seat_row(position: int, reports: Sequence[dict[str, Any]]) -> str:
    """A seat's row of the text, with each system's dealer named: systems of different
    sizes seat their dealer at different numbers (seat 3 of three, seat 5 of five)."""
    sizes = [len(r["seat_net_per_deal"]) for r in reports]
    if len(set(sizes)) <= 1 or position == 1:
        return seat_label(position, max(sizes, default=position))
    dealing = [r["variant"] for r, size in zip(reports, sizes, strict=True) if size == position]
    if not dealing:
        return f"seat {position}"
    return f"seat {position} (dealer of the deal counted under {', '.join(dealing)})"


def seat_label(position: int, seats: int) -> str:
    """A seat by its number, with the role it holds in the deal counted (not in the deals
    played on its carried pool, where the deal has passed on)."""
    if position == 1:
        return "seat 1 (eldest in the deal counted)"
    if position == seats:
        return f"seat {seats} (dealer of the deal counted)"
    return f"seat {position}"


MET_LABEL: Final = "met (carried-pool deals incl.)"
"""The label of a situation's row: a deal counts where the situation arose in it or in a
deal played on its carried pool (a carried pool is played for only there)."""


def _met(report: dict[str, Any], key: str) -> str:
    entry = report.get("situations_met", {}).get(key)
    if entry is None:
        return "-"
    if entry["count"] == 0:
        return f"not met in {entry['n']:,} deals"
    deals = "deal" if entry["count"] == 1 else "deals"
    return f"{entry['count']:,} {deals} ({100 * entry['rate']:.1f}%)"


SIMULATE_NOTES: Final = """\
What the rows mean:
  deals: deals played, each from its own stream of (seed, deal number); a void deal's pool
    is played for in the deals after it, which are not counted among the deals ("deals
    played on carried pools" counts them) but are part of their deal in the seats' nets,
    the pool per deal and the situations met (rows that say so).
  decided by X: the share of deals whose main pool went to X: a kind of brelan at the
    showdown, the point, a player left alone (uncontested), or nobody opening (void).
  average pot (not void): the counters in the pools of a deal that was not void.
  bonus flow per deal: the counters paid for brelans in a deal.
  net per deal: what a seat gained or lost over a deal and those played on its carried
    pool. Seats are numbered from the right of the dealer of the deal counted (seat 1 is
    its eldest, speaking first; a system's last seat deals it, and where the systems seat
    different numbers, each dealer's row names its systems); in the deals played on a
    carried pool the deal has passed on and the seat holds another role, so a seat's net
    is the seat's, not a role's; a chain cut unended is left out (its pool is not the
    seats' loss): the seats sum to zero. "no interval: N not 0, largest X" where fewer
    than 100 deals gave the seat a nonzero net, or one deal carries more than a tenth of
    the sum of squares: a normal interval would rest on a few deals (docs/simulation.md).
  pool per deal (carried-pool deals incl.): the counters in the pools awarded over a deal
    and the deals played on its carried pool (a void deal awards none; a pool won after
    void deals counts once, its carried counters included).
  still carried per deal: the counters no deal had won yet when a chain of void deals was
    cut unended after 30 deals played on its pool, per deal.
  chains cut unended: the deals whose chain of void deals was cut so, and the counters
    still carried at the cut (what the seats had put in): where there are any, the game
    stalls, as the sentence under the table says.
  point won by retourne's suit ("cannot occur" where no suit wins the point, the whole
    hand's pips counting): of the deals won by the point, those whose winning suit is
    the retourne's.
  dealt per hand: hands as dealt, before any betting (checked against `bouillotte odds`).
  met (carried-pool deals incl.): the deals in which the situation arose, in the deal
    itself or in a deal played on its carried pool (a carried pool is met only there, and
    "hands were shown" may count more deals than those decided at the showdown); a rule
    that acts only then can act only in those deals (docs/simulation.md says which rule
    needs which situation)."""
