"""The outcome of a deal: kept by the deal as it settles, and checkable against its log.

Every counter that moves is also in an event, so :func:`replay` rebuilds the same outcome
from the log alone (the property tests check that it does); the deal does not need to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Final

from .events import (
    Act,
    Ante,
    Blind,
    Bonus,
    CarriedIn,
    End,
    Event,
    Levy,
    PotWon,
    Return,
    Straddle,
    events_json,
)


class Status(StrEnum):
    """How a deal ended (the ``status`` of ``bouillotte run --json``)."""

    SETTLED = "settled"
    """A showdown."""
    UNCONTESTED = "uncontested"
    """One player left, or the last to stake took a pool nobody opened."""
    VOID = "void"
    """Nobody opened, or a misdeal: the pool is carried."""


class PlayerResult:
    """One player's result of a deal.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one for every player, every deal)."""

    __slots__ = ("cave", "ledger", "net")

    def __init__(self, cave: int, ledger: int, net: int) -> None:
        self.cave: Final = cave
        """The cave at the end of the deal."""
        self.ledger: Final = ledger
        """The change on the separate bonus ledger (0 where bonuses are paid from the cave)."""
        self.net: Final = net
        """The whole change over the deal: cave change plus ledger change."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PlayerResult)
            and self.cave == other.cave
            and self.ledger == other.ledger
            and self.net == other.net
        )

    def __hash__(self) -> int:
        return hash((self.cave, self.ledger, self.net))

    def __repr__(self) -> str:
        return f"PlayerResult(cave={self.cave!r}, ledger={self.ledger!r}, net={self.net!r})"


class Outcome:
    """How a deal ended: its status, the pools and bonuses paid, what is carried, each
    player's result and the log.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one every deal)."""

    __slots__ = ("bonuses", "carried_in", "carry", "events", "players", "pots", "status")

    def __init__(
        self,
        status: Status,
        pots: tuple[PotWon, ...],
        bonuses: tuple[Bonus, ...],
        carry: int,
        carried_in: int,
        players: dict[str, PlayerResult],
        events: tuple[Event, ...],
    ) -> None:
        self.status: Final = status
        self.pots: Final = pots
        """The pools awarded, main pool first, each with why it was won."""
        self.bonuses: Final = bonuses
        self.carry: Final = carry
        self.carried_in: Final = carried_in
        self.players: Final = players
        self.events: Final = events

    def _fields(self) -> tuple[object, ...]:
        return (
            self.status,
            self.pots,
            self.bonuses,
            self.carry,
            self.carried_in,
            self.players,
            self.events,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())  # raises, as the dataclass did: players is a dict

    def __repr__(self) -> str:  # the log left out, as it was
        return (
            f"Outcome(status={self.status!r}, pots={self.pots!r}, bonuses={self.bonuses!r}, "
            f"carry={self.carry!r}, carried_in={self.carried_in!r}, players={self.players!r})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "error": None,
            "pots": [p.to_json() for p in self.pots],
            "bonuses": [b.to_json() for b in self.bonuses],
            "carry": self.carry,
            "players": {
                name: {"cave": r.cave, "ledger": r.ledger, "net": r.net}
                for name, r in self.players.items()
            },
            "events": events_json(self.events),
        }


def results(
    initial: Mapping[str, int], cave: Mapping[str, int], ledger: Mapping[str, int]
) -> dict[str, PlayerResult]:
    return {
        name: PlayerResult(cave[name], ledger[name], cave[name] - start + ledger[name])
        for name, start in initial.items()
    }


def replay(events: Sequence[Event], initial_caves: Mapping[str, int]) -> Outcome:
    """Rebuild the outcome from the log alone: every counter that moved is in an event."""
    cave = dict(initial_caves)
    ledger = dict.fromkeys(initial_caves, 0)
    pots: list[PotWon] = []
    bonuses: list[Bonus] = []
    status, carry, carried_in = Status.VOID, 0, 0
    for event in events:
        match event:
            case Blind() | Ante() | Straddle():
                cave[event.player] = cave[event.player] - event.adds
            case Act():
                cave[event.player] = cave[event.player] - (event.adds or 0)
            case Levy():
                cave[event.player] = cave[event.player] - event.amount
            case Return():
                cave[event.player] = cave[event.player] + event.amount
            case PotWon():
                cave[event.winner] = cave[event.winner] + event.amount
                pots.append(event)
            case Bonus():
                book = ledger if event.ledger else cave
                book[event.payer] = book[event.payer] - event.amount
                book[event.payee] = book[event.payee] + event.amount
                bonuses.append(event)
            case CarriedIn():
                carried_in = event.amount
            case End():
                status, carry = Status(event.status), event.carry
    players = results(initial_caves, cave, ledger)
    return Outcome(status, tuple(pots), tuple(bonuses), carry, carried_in, players, tuple(events))
