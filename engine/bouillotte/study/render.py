"""Plain-text rendering for the terminal: tables and readable accounts of a deal."""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

_ROLE = re.compile(r":[a-z:]+:`~?(?:[^`]*\.)?([^`.]+)`")
_LITERAL = re.compile(r"``([^`]+)``|`([^`]+)`")
_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])")


def plain(text: str) -> str:
    """A docstring's reStructuredText as words for the terminal: ``players-option``,
    :class:`~a.Rule` and *emphasis* lose their markup; lines are joined."""
    text = _ROLE.sub(r"\1", text)
    text = _LITERAL.sub(lambda m: m.group(1) or m.group(2), text)
    return " ".join(_EMPHASIS.sub(r"\1", text).split())


def wrapped(text: str, indent: str = "", first: str | None = None, width: int = 0) -> str:
    """``text`` wrapped to the terminal's width (``width`` if given), never cut: the
    first line starts with ``first`` (default ``indent``), the others with ``indent``."""
    columns = width or shutil.get_terminal_size().columns
    return textwrap.fill(
        text,
        width=max(columns, 40),
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``1 rule``, ``2 rules``, ``1,000 deals``: a number with its noun agreeing
    (``plural`` where it is not the singular with an s)."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    marks: Sequence[Sequence[bool]] | None = None,
) -> str:
    """A simple aligned table; cells flagged in ``marks`` get a leading ``*``."""
    cells = [[str(c) for c in row] for row in rows]
    if marks:
        cells = [
            [("*" + c) if marks[r][i] else c for i, c in enumerate(row)]
            for r, row in enumerate(cells)
        ]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines)


def event_line(event: Mapping[str, Any]) -> str:
    kind = event["type"]
    if kind in ("blind", "ante"):
        return f"{event['player']} puts up the {kind}: {event['adds']}"
    if kind == "straddle":
        return f"{event['player']} straddles: +{event['adds']} (pot {event['pot']})"
    if kind == "decline":
        return f"{event['player']} declines to straddle" + (
            " (by acting)" if event.get("implicit") else ""
        )
    if kind == "deal":
        hands = "; ".join(f"{p}: {h}" for p, h in event["hands"].items())
        return f"deal: {hands}; retourne {event['retourne']}"
    if kind == "action":
        word = event["action"]
        if "adds" in event:
            extra = " (all in)" if event.get("all_in") else ""
            extra += " - calls for a sight" if event.get("sight") else ""
            stake = f"+{event['adds']} -> {event['total']} (pot {event['pot']})"
            return f"{event['player']} {word}: {stake}{extra}"
        return f"{event['player']} {word}"
    if kind == "privilege":
        return f"all have met {event['bet']}: {event['player']} holds the privilege of raising"
    if kind == "return":
        return f"{event['player']} takes back {event['amount']} ({event['reason']})"
    if kind == "pot":
        who = ", ".join(event["contenders"])
        return f"pot {event['amount']} ({who}) -> {event['winner']}: {event['reason']}"
    if kind == "bonus":
        book = " on the ledger" if event["ledger"] else ""
        unpaid = f" ({event['unpaid']} unpaid: cave empty)" if event.get("unpaid") else ""
        paid = f"{event['from']} pays {event['to']} {event['amount']}{book}"
        return f"{paid} for the {event['reason']}{unpaid}"
    if kind == "showdown":
        return "showdown: " + "; ".join(f"{p} {h}" for p, h in event["hands"].items())
    if kind == "under-retourne":
        return str(event["note"])
    if kind == "stifle":
        return f"{event['player']} stifles his brelan: it is not shown, and not paid"
    if kind == "no-blind":
        return f"{event['player']} puts up no blind: {event['reason']}"
    if kind == "levy":
        return f"{event['player']} puts {event['amount']} in the pool for the next deal"
    if kind == "nobody-opens":
        return "nobody opens"
    if kind == "misdeal":
        where = "in the pack" if event.get("in_pack") else "during the deal"
        return f"misdeal: {event['exposed']} exposed {where}"
    if kind == "redeal":
        return "the cards are redealt" + (f" by {event['dealer']}" if event.get("dealer") else "")
    if kind == "draw-begins":
        return f"the cards are bought, the turned card {event['to_buy_first']} first"
    if kind == "draw":
        if not event["buys"]:
            return f"{event['player']} keeps his hand: {event['hand']}"
        thrown = f"throws away {event['discards']} and " if event["discards"] else ""
        return f"{event['player']} {thrown}buys {event['buys']}: {event['hand']}"
    if kind == "carried-in":
        return f"{event['amount']} carried in from a void deal"
    if kind == "end":
        return f"end: {event['status']}" + (
            f", {event['carry']} carried to the next deal" if event["carry"] else ""
        )
    return str(event)


def run_text(data: dict[str, Any], title: str) -> str:
    lines = [f"{title} — under {data['variant']}: {data['status']}"]
    for event in data["events"]:
        lines.append("  " + event_line(event))
    if data["status"] == "illegal":
        error = data["error"]
        lines.append(f"  step {error['step']} is illegal: {error['message']}")
        return "\n".join(lines)
    rows = [[name, p["cave"], p["ledger"], f"{p['net']:+d}"] for name, p in data["players"].items()]
    lines.append("")
    lines.append(table(["player", "cave", "ledger", "net"], rows))
    return "\n".join(lines)
