"""What happens in a deal, one frozen record per kind of step.

A consumer matches on the record's class (``isinstance(event, Bet)``) or on its ``kind``,
the ``type`` string of the JSON; :func:`event_json` gives the JSON form (the contract of
``bouillotte run --json``), built only when output needs it: cards and hand values are kept
as data, and written as text only there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Final, TypeAlias, TypeVar, cast, overload

from ..rules.cards import Card, card_str, cards_str
from .caches import cache, keep
from .hands import HandValue


@dataclass(frozen=True, slots=True)
class CarriedIn:
    """A pool carried into this deal from a void deal."""

    amount: int

    @property
    def kind(self) -> str:
        return "carried-in"


@dataclass(frozen=True, slots=True)
class NoBlind:
    """The carried levy stands for the dealer's blind."""

    player: str
    reason: str

    @property
    def kind(self) -> str:
        return "no-blind"


@dataclass(frozen=True, slots=True)
class Blind:
    player: str
    adds: int
    total: int

    @property
    def kind(self) -> str:
        return "blind"


@dataclass(frozen=True, slots=True)
class Ante:
    player: str
    adds: int
    total: int

    @property
    def kind(self) -> str:
        return "ante"


@dataclass(frozen=True, slots=True)
class Straddle:
    player: str
    adds: int
    total: int
    pot: int

    @property
    def kind(self) -> str:
        return "straddle"


@dataclass(frozen=True, slots=True)
class Decline:
    """The straddle refused; ``implicit`` when a betting word declined it."""

    player: str
    implicit: bool

    @property
    def kind(self) -> str:
        return "decline"


class Dealt:
    """The cards dealt: each player's hand (in speaking order) and the retourne.

    Immutable and equal by value, as the frozen dataclasses here; a plain class, so that
    the compiled engine builds it natively (one every deal, never shared)."""

    __slots__ = ("hands", "retourne")

    def __init__(self, hands: tuple[tuple[str, tuple[Card, ...]], ...], retourne: Card) -> None:
        self.hands: Final = hands
        self.retourne: Final = retourne

    @property
    def kind(self) -> str:
        return "deal"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Dealt)
            and self.hands == other.hands
            and self.retourne == other.retourne
        )

    def __hash__(self) -> int:
        return hash((self.hands, self.retourne))

    def __repr__(self) -> str:
        return f"Dealt(hands={self.hands!r}, retourne={self.retourne!r})"


class Act:
    """A betting word. ``adds``, ``total`` and ``pot`` are ``None`` for a word that puts in
    nothing by its nature (``pass``, ``fold``, ``no-more``).

    Immutable and equal by value, as the frozen dataclasses here; a plain class, so that
    the compiled engine builds it natively (several every deal; a frozen dataclass's
    ``__init__`` runs as Python code, a ``setattr`` per field)."""

    __slots__ = ("action", "adds", "all_in", "player", "pot", "sight", "total")

    def __init__(
        self,
        player: str,
        action: str,
        adds: int | None = None,
        total: int | None = None,
        pot: int | None = None,
        all_in: bool = False,
        sight: bool = False,
    ) -> None:
        self.player: Final = player
        self.action: Final = action
        self.adds: Final = adds
        self.total: Final = total
        self.pot: Final = pot
        self.all_in: Final = all_in
        self.sight: Final = sight

    @property
    def kind(self) -> str:
        return "action"

    def _fields(self) -> tuple[object, ...]:
        return (self.player, self.action, self.adds, self.total, self.pot, self.all_in, self.sight)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Act) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Act(player={self.player!r}, action={self.action!r}, adds={self.adds!r}, "
            f"total={self.total!r}, pot={self.pot!r}, all_in={self.all_in!r}, "
            f"sight={self.sight!r})"
        )


@dataclass(frozen=True, slots=True)
class Privilege:
    """Foster's calling privilege offered to ``player`` at the bet ``bet``."""

    player: str
    bet: int

    @property
    def kind(self) -> str:
        return "privilege"


@dataclass(frozen=True, slots=True)
class NobodyOpens:
    @property
    def kind(self) -> str:
        return "nobody-opens"


@dataclass(frozen=True, slots=True)
class Levy:
    player: str
    amount: int

    @property
    def kind(self) -> str:
        return "levy"


@dataclass(frozen=True, slots=True)
class Misdeal:
    exposed: Card
    in_pack: bool = False
    """The exposed card was left in the pack, not given to a player."""

    @property
    def kind(self) -> str:
        return "misdeal"


@dataclass(frozen=True, slots=True)
class Stifle:
    """The winner without a showdown keeps his brelan hidden."""

    player: str

    @property
    def kind(self) -> str:
        return "stifle"


@dataclass(frozen=True, slots=True)
class Redeal:
    """After a misdeal: ``dealer`` deals again where he keeps the deal (else ``None``)."""

    dealer: str | None

    @property
    def kind(self) -> str:
        return "redeal"


class Return:
    """Chips given back to ``player`` (an uncalled stake, what an all-in could not call).

    Immutable and equal by value, as the frozen dataclasses here; a plain class, so that
    the compiled engine builds it natively."""

    __slots__ = ("amount", "player", "reason")

    def __init__(self, player: str, amount: int, reason: str) -> None:
        self.player: Final = player
        self.amount: Final = amount
        self.reason: Final = reason

    @property
    def kind(self) -> str:
        return "return"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Return)
            and self.player == other.player
            and self.amount == other.amount
            and self.reason == other.reason
        )

    def __hash__(self) -> int:
        return hash((self.player, self.amount, self.reason))

    def __repr__(self) -> str:
        return f"Return(player={self.player!r}, amount={self.amount!r}, reason={self.reason!r})"


@dataclass(frozen=True, slots=True)
class UnderRetourne:
    """Foster's card under the retourne, turned, and what it did."""

    card: Card | None
    note: str

    @property
    def kind(self) -> str:
        return "under-retourne"


@dataclass(frozen=True, slots=True)
class DrawBegins:
    to_buy_first: Card

    @property
    def kind(self) -> str:
        return "draw-begins"


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    discards: tuple[Card, ...]
    buys: tuple[Card, ...]
    hand: tuple[Card, ...]

    @property
    def kind(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Showdown:
    """The hands shown: each contender's value, in speaking order."""

    hands: tuple[tuple[str, HandValue], ...]

    @property
    def kind(self) -> str:
        return "showdown"


# -- why a pool went where it did ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WonUncontested:
    """Nobody disputed the pool; ``why`` says how it came to be so (empty at a showdown,
    for a side pool only one player reached)."""

    why: str = ""


@dataclass(frozen=True, slots=True)
class WonByBrelan:
    """The best brelan shown took the pool."""

    value: HandValue


@dataclass(frozen=True, slots=True)
class WonByPoint:
    """The point took the pool: the winning ``suit`` (``NO_SUIT``, -1, where a whole hand's
    pips count) and its ``total``."""

    suit: int
    total: int


@dataclass(frozen=True, slots=True)
class WonBySuit:
    """A side pool to the best holder of the suit that won the main pool ("the suit that
    wins cannot lose"), holding ``card``."""

    suit: int
    card: Card


Decision: TypeAlias = WonUncontested | WonByBrelan | WonByPoint | WonBySuit


class PotWon:
    """A pool awarded: ``decision`` is why, as data; ``reason`` the same in words.

    Immutable and equal by value, as the frozen dataclasses here; a plain class, so that
    the compiled engine builds it natively (one or more every deal)."""

    __slots__ = ("amount", "contenders", "decision", "reason", "winner", "winner_value")

    def __init__(
        self,
        amount: int,
        contenders: tuple[str, ...],
        winner: str,
        reason: str,
        decision: Decision,
        winner_value: HandValue | None = None,
    ) -> None:
        self.amount: Final = amount
        self.contenders: Final = contenders
        self.winner: Final = winner
        self.reason: Final = reason
        self.decision: Final = decision
        self.winner_value: Final = winner_value
        """The winner's hand where hands were valued (a showdown), else ``None``."""

    @property
    def kind(self) -> str:
        return "pot"

    def _fields(self) -> tuple[object, ...]:
        return (
            self.amount,
            self.contenders,
            self.winner,
            self.reason,
            self.decision,
            self.winner_value,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PotWon) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"PotWon(amount={self.amount!r}, contenders={self.contenders!r}, "
            f"winner={self.winner!r}, reason={self.reason!r}, decision={self.decision!r}, "
            f"winner_value={self.winner_value!r})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "contenders": list(self.contenders),
            "winner": self.winner,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Bonus:
    """A payment for a brelan (or triplets at a misdeal); ``unpaid`` what a cave could not
    pay of it."""

    payer: str
    payee: str
    amount: int
    reason: str
    ledger: bool
    unpaid: int = 0

    @property
    def kind(self) -> str:
        return "bonus"

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class End:
    status: str
    carry: int

    @property
    def kind(self) -> str:
        return "end"


Event: TypeAlias = (
    CarriedIn
    | NoBlind
    | Blind
    | Ante
    | Straddle
    | Decline
    | Dealt
    | Act
    | Privilege
    | NobodyOpens
    | Levy
    | Misdeal
    | Stifle
    | Redeal
    | Return
    | UnderRetourne
    | DrawBegins
    | Draw
    | Showdown
    | PotWon
    | Bonus
    | End
)

PUBLIC: Final = (CarriedIn, Blind, Ante, Straddle, Decline, Act, Privilege)
"""Events every player at the table witnesses (the deal, with the hands, is not)."""


def event_json(event: Event) -> dict[str, Any]:
    """The event as ``bouillotte run --json`` writes it: an object with its ``type``."""
    out: dict[str, Any] = {"type": event.kind}
    match event:
        case Act():
            out["player"] = event.player
            out["action"] = event.action
            if event.adds is not None:
                out |= {"adds": event.adds, "total": event.total, "pot": event.pot}
                if event.all_in:
                    out["all_in"] = True
                if event.sight:
                    out["sight"] = True
        case Dealt():
            out["hands"] = {name: cards_str(hand) for name, hand in event.hands}
            out["retourne"] = card_str(event.retourne)
        case Showdown():
            out["hands"] = {name: value.describe() for name, value in event.hands}
        case PotWon():
            out |= event.to_json()
        case Bonus():
            out |= event.to_json()
            out["ledger"] = event.ledger
            if event.unpaid:
                out["unpaid"] = event.unpaid
        case Return():
            out |= {"player": event.player, "amount": event.amount, "reason": event.reason}
        case Misdeal():
            out["exposed"] = card_str(event.exposed)
            if event.in_pack:
                out["in_pack"] = True
        case UnderRetourne():
            out["card"] = card_str(event.card) if event.card is not None else None
            out["note"] = event.note
        case DrawBegins():
            out["to_buy_first"] = card_str(event.to_buy_first)
        case Draw():
            out["player"] = event.player
            out["discards"] = cards_str(event.discards)
            out["buys"] = cards_str(event.buys)
            out["hand"] = cards_str(event.hand)
        case _:
            for f in fields(event):  # the fields, in order, as they are
                out[f.name] = getattr(event, f.name)
    return out


def events_json(events: list[Event] | tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_json(e) for e in events]


__all__ = [
    "PUBLIC",
    "Act",
    "Ante",
    "Blind",
    "Bonus",
    "CarriedIn",
    "Dealt",
    "Decision",
    "Decline",
    "Draw",
    "DrawBegins",
    "End",
    "Event",
    "Levy",
    "Misdeal",
    "NoBlind",
    "NobodyOpens",
    "PotWon",
    "Privilege",
    "Redeal",
    "Return",
    "Showdown",
    "Stifle",
    "Straddle",
    "UnderRetourne",
    "WonByBrelan",
    "WonByPoint",
    "WonBySuit",
    "WonUncontested",
    "event_json",
    "events_json",
]


_R = TypeVar("_R")
_A = TypeVar("_A")
_B = TypeVar("_B")
_C = TypeVar("_C")
_D = TypeVar("_D")
_E = TypeVar("_E")
_F = TypeVar("_F")
_KEPT: Final[dict[tuple[object, ...], object]] = cache("events.records")
_KEPT_MOST: Final = 4096


# One overload per number of fields (a ``TypeVarTuple`` would say it once, but mypyc cannot
# compile it), so that the type checker holds each field to the record's constructor.
@overload
def once(record: Callable[[], _R], /) -> _R: ...
@overload
def once(record: Callable[[_A], _R], a: _A, /) -> _R: ...
@overload
def once(record: Callable[[_A, _B], _R], a: _A, b: _B, /) -> _R: ...
@overload
def once(record: Callable[[_A, _B, _C], _R], a: _A, b: _B, c: _C, /) -> _R: ...
@overload
def once(record: Callable[[_A, _B, _C, _D], _R], a: _A, b: _B, c: _C, d: _D, /) -> _R: ...
@overload
def once(
    record: Callable[[_A, _B, _C, _D, _E], _R], a: _A, b: _B, c: _C, d: _D, e: _E, /
) -> _R: ...
@overload
def once(
    record: Callable[[_A, _B, _C, _D, _E, _F], _R], a: _A, b: _B, c: _C, d: _D, e: _E, f: _F, /
) -> _R: ...
def once(record: Callable[..., _R], /, *fields: object) -> _R:
    """``record(*fields)``, made once and then shared: records are immutable, so one serves
    every deal that logs the same (the same antes, the same straddles). A few thousand are
    kept, then all forgotten and made again. The key is each field's type as well as its
    value, so fields equal across types (``1``, ``True`` and ``1.0``; a ``StrEnum`` member
    and its string) never share a record.

    Only for the frozen dataclasses, whose ``__init__`` runs as Python code even compiled;
    the plain classes (``Act``, ``Return``, ``PlayerResult``) are made directly, which
    costs less than building this key. The fields are typed as the record's constructor
    takes them, positionally: ``once(Blind, name, "2", 2)`` is a type error, as
    ``Blind(name, "2", 2)`` is."""
    key = (record, fields, tuple([type(f) for f in fields]))
    found = _KEPT.get(key)
    if found is None:
        found = keep(_KEPT, key, record(*fields), _KEPT_MOST)
    return cast(_R, found)
