"""Golden transcripts: one deal under one variant as plain, deterministic text.

A transcript is what a reviewer reads to see how a scenario plays: the deal, every step
(who acts, what was legal, what he did, the pool after it), then the settlement (pools with
their winners and reasons, bonuses, each player's cave, ledger and net, the carry). For a
refused action it ends with the step, the rule and the message. The text depends only on
the scenario and the profile, so it can be kept under version control and diffed
(OpenSpiel's "playthrough" files are the model); see ``bouillotte golden``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.cards import parse_card, parse_cards
from .render import event_line
from .replay import Step
from .scenario import RunResult

_SETUP_EVENTS = ("carried-in", "no-blind", "blind", "ante", "straddle", "decline")


def transcript(result: RunResult) -> str:
    """The readable, byte-stable account of ``result`` (ends with a newline)."""
    data = result.data
    lines = _header(result)
    lines += ["", "before the deal"]
    lines += [f"  {event_line(e)}" for e in _setup_events(data["events"])] or ["  nothing"]
    lines += ["", "steps"]
    lines += _steps(result.steps) or ["  none"]
    lines.append("")
    if data["status"] == "illegal":
        lines += _refusal(data["error"])
    else:
        lines += _settlement(data)
    return "\n".join(lines) + "\n"


def _header(result: RunResult) -> list[str]:
    data, model = result.data, result.scenario.model
    lines = [
        f"scenario: {data['scenario']} — {model.title}",
        f"variant:  {data['variant']} — {result.variant.title}",
        f"status:   {data['status']}",
        f"seats:    {' '.join(model.players)} (to the right); dealer {model.dealer}",
    ]
    deal = next((e for e in data["events"] if e["type"] == "deal"), None)
    if deal is not None:
        hands = "; ".join(f"{name} {cards}" for name, cards in deal["hands"].items())
        lines.append(f"cards:    {hands}; retourne {deal['retourne']}")
    elif model.hands is not None:  # refused before the deal was logged
        hands = "; ".join(f"{name} {' '.join(model.hands[name])}" for name in model.players)
        lines.append(f"cards:    {hands}; retourne {model.retourne}")
    if model.under_retourne is not None:
        lines.append(f"under:    {model.under_retourne} (the card under the retourne)")
    if model.exposed is not None:
        lines.append(f"exposed:  {model.exposed} ({_where_exposed(model.exposed, model.hands)})")
    if model.stock is not None:
        lines.append(f"stock:    {' '.join(model.stock)} (bought after the turned card)")
    if model.favori_rank is not None:
        lines.append(f"favori:   {model.favori_rank} (the rank declared at the start)")
    return lines


def _setup_events(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The forced bets and straddles made before the first betting word."""
    found = []
    for event in events:
        if event["type"] == "deal":
            break
        if event["type"] in _SETUP_EVENTS:
            found.append(event)
    return found


def _steps(steps: Sequence[Step]) -> list[str]:
    lines: list[str] = []
    width = len(str(len(steps)))
    for step in steps:
        number = str(step.number).rjust(width)
        pad = " " * (width + 4)
        lines.append(f"  {number}. {step.player} to act; legal: {' | '.join(step.legal) or '-'}")
        # A betting word where a straddle was offered declines it first (DESIGN.md).
        offered = any(legal.startswith("decline") for legal in step.legal)
        declines = offered and step.action.split()[1] not in ("straddle", "decline")
        note = " (declines the straddle by acting)" if declines else ""
        lines.append(f"  {pad}action: {step.action}{note}; pot {step.pot}")
    return lines


def _refusal(error: Mapping[str, Any]) -> list[str]:
    return [
        "refused",
        f"  step {error['step']}, rule {error['rule']}",
        f"  {error['message']}",
    ]


def _settlement(data: Mapping[str, Any]) -> list[str]:
    lines = ["settlement"]
    notes = [
        e
        for e in data["events"]
        if e["type"] in ("return", "under-retourne", "misdeal", "draw-begins", "draw")
    ]
    for event in notes:
        lines.append(f"  {event_line(event)}")
    showdown = next((e for e in data["events"] if e["type"] == "showdown"), None)
    if showdown is not None:
        shown = "; ".join(f"{name} {value}" for name, value in showdown["hands"].items())
        lines.append(f"  showdown: {shown}")
    lines.append("  pots:")
    for i, pot in enumerate(data["pots"], start=1):
        contenders = " ".join(pot["contenders"])
        lines.append(f"    {i}. {pot['amount']} to {pot['winner']} (contenders {contenders})")
        lines.append(f"       {pot['reason']}")
    if not data["pots"]:
        lines.append("    none")
    lines.append("  bonuses:")
    for bonus in data["bonuses"]:
        lines.append(f"    {bonus['from']} -> {bonus['to']} {bonus['amount']} ({bonus['reason']})")
    if not data["bonuses"]:
        lines.append("    none")
    lines.append("  players:")
    players: Mapping[str, Mapping[str, int]] = data["players"]
    width = max((len(name) for name in players), default=1)
    for name, result in players.items():
        lines.append(
            f"    {name.ljust(width)}  cave {result['cave']:>5}  ledger {result['ledger']:>+4}"
            f"  net {result['net']:>+5}"
        )
    lines.append(f"  carry: {data['carry']}")
    return lines


def _where_exposed(exposed: str, hands: Mapping[str, Sequence[str]] | None) -> str:
    """Foster's two places: "either in the pack or in giving it to a player"."""
    if hands is None:
        return "shown during the deal"
    card = parse_card(exposed)
    dealt = any(card in parse_cards(hand) for hand in hands.values())
    return "shown during the deal" if dealt else "shown in the pack, given to no player"
