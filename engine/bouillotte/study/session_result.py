"""What a session gives: each deal's record, and the final standings in exact fractions.

A player's final result is his cave plus his bonus ledger and his share of the last pool,
minus his first stake and his rebuys; a share of a pool split in equal parts can be a
fraction, so results are exact (``12 1/4``). ``SessionResult.to_json`` is the public JSON
of ``bouillotte session --json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..play.outcome import Outcome


@dataclass(frozen=True)
class Rebuy:
    player: str
    amount: int
    before_deal: int


@dataclass(frozen=True)
class DealRecord:
    number: int
    dealer: str
    carried_in: int
    rebuys: list[Rebuy]
    """Stakes bought just before this deal."""
    outcome: Outcome
    hands: dict[str, str]
    retourne: str
    actions: list[str]
    skipped_dealers: tuple[str, ...] = ()
    """Who was passed over as dealer, having just bought a new stake, in turn."""
    seed: int | None = None
    """The shuffle seed of a seeded deal (``None`` for a deal whose cards are written)."""
    policy: str | None = None
    """A seeded deal's policy: its item's ``policy``, else the session's (``None`` for a
    written deal)."""
    policies: dict[str, str] = field(default_factory=dict)
    """Each player's policy in a seeded deal (``policy``, or his own from ``policies``);
    empty for a written deal, whose actions are the file's."""

    @property
    def policy_words(self) -> str:
        """The policy in words: the one name where every player follows it, else each
        player's (``A bold, B simple``); empty for a written deal."""
        names = set(self.policies.values())
        if len(names) == 1:
            return names.pop()
        return ", ".join(f"{p} {name}" for p, name in self.policies.items())

    @property
    def skipped_dealer(self) -> str | None:
        """The first player passed over as dealer (the JSON's ``skipped_dealer``)."""
        return self.skipped_dealers[0] if self.skipped_dealers else None

    def summary(self) -> str:
        if self.outcome.status == "void":
            return f"void, {self.outcome.carry} carried"
        return "; ".join(f"{p.amount} to {p.winner}" for p in self.outcome.pots)


@dataclass(frozen=True)
class Standing:
    player: str
    place: int
    cave: int
    ledger: int
    share: Fraction
    stake: int
    rebuys: int
    result: Fraction


@dataclass(frozen=True)
class SessionResult:
    variant: str
    players: list[str]
    deals: list[DealRecord]
    standings: list[Standing]
    """In seating order (``place`` gives the ranking)."""
    carried_at_end: int
    carried_pot_at_end: str
    notes: list[str] = field(default_factory=list)

    def ranking(self) -> list[Standing]:
        return sorted(self.standings, key=lambda s: (s.place, self.players.index(s.player)))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "deals": [
                {
                    "deal": d.number,
                    "dealer": d.dealer,
                    "skipped_dealer": d.skipped_dealer,
                    "skipped_dealers": list(d.skipped_dealers),
                    "carried_in": d.carried_in,
                    "seed": d.seed,
                    "policy": d.policy,
                    "policies": dict(d.policies),
                    "rebuys": [{"player": r.player, "amount": r.amount} for r in d.rebuys],
                    "hands": d.hands,
                    "retourne": d.retourne,
                    "actions": d.actions,
                    "status": str(d.outcome.status),
                    "pots": [p.to_json() for p in d.outcome.pots],
                    "bonuses": [b.to_json() for b in d.outcome.bonuses],
                    "carry": d.outcome.carry,
                    "players": {
                        n: {"cave": r.cave, "ledger": r.ledger, "net": r.net}
                        for n, r in d.outcome.players.items()
                    },
                }
                for d in self.deals
            ],
            "carried_at_end": self.carried_at_end,
            "carried_pot_at_end": self.carried_pot_at_end,
            "standings": [
                {
                    "player": s.player,
                    "place": s.place,
                    "cave": s.cave,
                    "ledger": s.ledger,
                    "share": fraction_text(s.share),
                    "stake": s.stake,
                    "rebuys": s.rebuys,
                    "result": fraction_text(s.result),
                }
                for s in self.ranking()
            ],
            "notes": self.notes,
        }


def fraction_text(value: Fraction) -> str:
    """An exact amount as a mixed number: ``12``, ``12 1/4``, ``-3/4``, ``-12 1/4``."""
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value.numerator), value.denominator)
    if part == 0:
        return f"{sign}{whole}"
    frac = f"{part}/{value.denominator}"
    return f"{sign}{whole} {frac}" if whole else f"{sign}{frac}"


def places(results: Sequence[Fraction]) -> list[int]:
    """Competition ranking: equal results share a place (1, 1, 3, ...)."""
    return [1 + sum(other > mine for other in results) for mine in results]
