"""The terminal table of ``bouillotte compare``."""

from __future__ import annotations

from typing import Any

from ..study import render
from ..study.compare import Comparison


def _cells(data: dict[str, Any], players: list[str]) -> list[str]:
    if data["status"] == "illegal":
        error = data["error"]
        pots = f"step {error['step']} refused ({error['rule']})"
        return ["illegal", pots, "", *["" for _ in players]]
    pots = "; ".join(f"{p['amount']}->{p['winner']}" for p in data["pots"]) or "-"
    if data["carry"]:
        pots += f" (carry {data['carry']})"
    bonuses = ", ".join(f"{b['from']}->{b['to']} {b['amount']}" for b in data["bonuses"]) or "-"
    nets = [f"{data['players'][p]['net']:+d}" for p in players]
    return [data["status"], pots, bonuses, *nets]


def comparison_text(comparison: Comparison) -> str:
    scenario = comparison.scenario
    players = scenario.model.players
    rows, marks = [], []
    first: list[str] | None = None
    for result in comparison.results:
        cells = _cells(result.data, players)
        first = first or cells
        rows.append([result.variant.id, *cells])
        marks.append([False, *[c != f for c, f in zip(cells, first, strict=True)]])
    headers = ["variant", "status", "pots", "bonuses", *[f"net {p}" for p in players]]
    lines = [f"{scenario.id}: {scenario.model.title}", render.table(headers, rows, marks)]
    for result in comparison.results:
        for pot in result.data["pots"]:
            lines.append(
                f"  {result.variant.id}: pot {pot['amount']} to {pot['winner']} — {pot['reason']}"
            )
        if result.data["status"] == "illegal":
            lines.append(f"  {result.variant.id}: {result.data['error']['message']}")
    for attribution in comparison.attributions:
        if attribution.responsible:
            causes = "; ".join(" + ".join(group) for group in attribution.responsible)
            exact = "; ".join(" + ".join(group) for group in attribution.reproduces)
            lines.append(
                f"why {attribution.other} differs from {attribution.base}: {causes}"
                + (f" (alone reproduces it: {exact})" if exact else "")
            )
            named = dict.fromkeys(p for group in attribution.responsible for p in group)
            for path in named:
                lines.append(f"    {attribution.standing_text(path)}")
        else:
            lines.append(
                f"why {attribution.other} differs from {attribution.base}: no set of up to 3 "
                f"of the {len(attribution.differing)} differing rules changes it alone"
            )
    return "\n".join(lines)
