"""The outcome of a deal, derived from its event log alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlayerResult:
    cave: int
    """The cave at the end of the deal."""
    ledger: int
    """The change on the separate bonus ledger (0 where bonuses are paid from the cave)."""
    net: int
    """The whole change over the deal: cave change plus ledger change."""


@dataclass(frozen=True)
class Outcome:
    status: str
    """``settled`` (a showdown), ``uncontested``, or ``void`` (nobody opened, a misdeal)."""
    pots: list[dict[str, Any]]
    bonuses: list[dict[str, Any]]
    carry: int
    carried_in: int
    players: dict[str, PlayerResult]
    events: list[dict[str, Any]] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "error": None,
            "pots": self.pots,
            "bonuses": self.bonuses,
            "carry": self.carry,
            "players": {
                name: {"cave": r.cave, "ledger": r.ledger, "net": r.net}
                for name, r in self.players.items()
            },
            "events": self.events,
        }


def outcome_from_events(
    events: Sequence[dict[str, Any]], initial_caves: Mapping[str, int]
) -> Outcome:
    """Replay the log: every counter that moved is in an event."""
    cave = dict(initial_caves)
    ledger = dict.fromkeys(initial_caves, 0)
    pots: list[dict[str, Any]] = []
    bonuses: list[dict[str, Any]] = []
    status, carry, carried_in = "void", 0, 0
    for event in events:
        kind = event["type"]
        if kind in ("blind", "ante", "straddle", "action"):
            cave[event["player"]] -= event.get("adds", 0)
        elif kind == "levy":
            cave[event["player"]] -= event["amount"]
        elif kind == "return":
            cave[event["player"]] += event["amount"]
        elif kind == "pot":
            cave[event["winner"]] += event["amount"]
            pots.append({k: event[k] for k in ("amount", "contenders", "winner", "reason")})
        elif kind == "bonus":
            book = ledger if event["ledger"] else cave
            book[event["from"]] -= event["amount"]
            book[event["to"]] += event["amount"]
            bonuses.append({k: event[k] for k in ("from", "to", "amount", "reason")})
        elif kind == "carried-in":
            carried_in = event["amount"]
        elif kind == "end":
            status, carry = event["status"], event["carry"]
    players = {
        name: PlayerResult(
            cave=cave[name],
            ledger=ledger[name],
            net=cave[name] - initial_caves[name] + ledger[name],
        )
        for name in initial_caves
    }
    return Outcome(status, pots, bonuses, carry, carried_in, players, list(events))
