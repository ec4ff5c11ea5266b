"""The terminal table of ``bouillotte compare``."""

from __future__ import annotations

from typing import Any

from ..study import render
from ..study.attribution import MAX_SET, Attribution, Direction, findings
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
    lines = [f"{scenario.id}: {scenario.model.title}"]
    for variant, rereads in comparison.rereads.items():
        lines.extend(f"  {r.text(variant)}" for r in rereads)
    lines.append(render.table(headers, rows, marks))
    for result in comparison.results:
        for pot in result.data["pots"]:
            lines.append(
                f"  {result.variant.id}: pot {pot['amount']} to {pot['winner']} — {pot['reason']}"
            )
        if result.data["status"] == "illegal":
            lines.append(f"  {result.variant.id}: {result.data['error']['message']}")
    for attribution in comparison.attributions:
        lines.extend(attribution_lines(attribution))
    return "\n".join(lines)


def _sets(groups: list[list[str]]) -> str:
    return "; ".join(" + ".join(group) for group in groups)


def _direction_lines(direction: Direction, base: str, other: str, indent: str) -> list[str]:
    lines = []
    for finding in findings(direction):
        said = finding.says(other, base)
        lines.append(
            f"{indent}{said}: {_sets(finding.sets)}" if finding.names_rules() else f"{indent}{said}"
        )
    if not direction.outcome.sets:
        lines.append(f"{indent}no combination tried gives {other}'s outcome")
    lines.append(f"{indent}({direction.outcome.note()})")
    return lines


def attribution_lines(attribution: Attribution) -> list[str]:
    """What the rules do, in words: the minimal sets both ways, the rules that change the
    outcome alone, and each rule's standing and sentence in both systems."""
    base, other = attribution.base, attribution.other
    lines = [f"why {other} differs from {base} (switching {base}'s rules to {other}'s):"]
    towards, back = attribution.towards, attribution.back
    if towards is not None:
        lines.extend(_direction_lines(towards, base, other, "  "))
    if back is not None and attribution.back_differs():
        lines.append(f"  the other way, switching {other}'s rules to {base}'s:")
        lines.extend(_direction_lines(back, other, base, "    "))
    if towards is None or not towards.outcome.complete:
        label = "one at a time (each rule switched alone, or else the smallest sets)"
        if attribution.responsible:
            exact = _sets(attribution.reproduces)
            lines.append(
                f"  {label}: changing {_sets(attribution.responsible)} changes the outcome"
                + (f"; {exact} alone gives {other}'s" if exact else "")
            )
        else:
            lines.append(
                f"  {label}: no set of up to {MAX_SET} of the "
                f"{len(attribution.differing)} differing rules changes it alone"
            )
    named = attribution.named()
    if named:
        lines.append("  the rules named, with each system's standing and sentence:")
    for path in named:
        lines.append(f"    {attribution.standing_text(path)}")
        for variant, sentence in attribution.sentences.get(path, {}).items():
            lines.append(f"      {variant}: {sentence}")
    return lines
