"""The abstraction: which choices of the full game a solvable game keeps.

Each field is a named parameter of the OpenSpiel game ``python_bouillotte`` (and of
``bouillotte strong solve``); its default keeps the full game, so the same game with no
abstraction parameter given is Bouillotte under the profile, move for move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

BET_SIZES: Final = ("min", "half", "pot", "max")
"""The sizes a bet menu may name: the least legal total, the stake to meet plus half the
pool, plus the whole pool, and the largest legal total (the whole cave)."""


class AbstractionError(ValueError):
    """An abstraction parameter the game cannot take: says which and what is valid."""


@dataclass(frozen=True, slots=True)
class Abstraction:
    """What the solvable game keeps of the full one. Every default is the full game's."""

    cave: int = 0
    """Every player's cave, in counters; 0: the profile's (``stakes.cave``). A smaller cave
    makes fewer bet sizes and a shallower tree."""
    bets: tuple[str, ...] = ()
    """The bet and raise sizes offered (of :data:`BET_SIZES`); empty: every legal total.
    The word ``all-in`` stays offered wherever the rules offer it (it is also the sight)."""
    raises: int = 0
    """The most bets and raises in a deal (an ``all-in`` above the stake to meet counts);
    once reached only calls, passes, folds and ``no-more`` are offered. 0: no cap."""
    straddles: bool = True
    """Whether a straddle is offered where the rules offer it (false: every player
    declines)."""
    deals: int = 0
    """0: the deal is dealt card by card by chance from the whole pack (every deal). N > 0:
    chance picks one of N deals, uniformly, shuffled by the engine with the seeds of
    ``simulate --seed SEED``'s first N deals."""
    classes: int = 0
    """0: a player knows his own cards and the retourne exactly. K > 0: he knows only his
    hand's class, a brelan or one of K bands of his point (his best suit's pips with the
    retourne where of that suit; the bands are quantiles of the points dealt)."""
    seed: int = 1
    """The seed of the sampled deals (with ``deals`` > 0)."""

    @property
    def is_full(self) -> bool:
        return self == Abstraction(seed=self.seed) or self == Abstraction()

    @classmethod
    def from_record(cls, record: dict[str, Any], seed: int | None = None) -> Abstraction:
        """The abstraction a stored strategy or band file records (``"abstraction"``), with
        ``seed`` where the record keeps none (a band file's seeds are listed apart)."""
        return cls(
            cave=record["cave"],
            bets=tuple(record["bets"]),
            raises=record["raises"],
            straddles=record["straddles"],
            deals=record["deals"],
            classes=record["classes"],
            seed=record["seed"] if seed is None else seed,
        )

    def key(self) -> str:
        """A stable text of the parameters (part of a stored strategy's address)."""
        return (
            f"cave={self.cave};bets={'+'.join(self.bets) or 'all'};raises={self.raises};"
            f"straddles={int(self.straddles)};deals={self.deals};classes={self.classes};"
            f"seed={self.seed}"
        )

    def describe(self, bands: int | None = None) -> str:
        """The abstraction in words (the solve command prints it); ``bands``: how many bands
        of point its game has (equal quantiles of the points dealt merge, so there may be
        fewer than :attr:`classes` asked)."""
        played = self.classes if bands is None else bands
        merged = "" if played == self.classes else f" ({self.classes} asked; equal points merge)"
        parts = [
            f"caves of {self.cave}" if self.cave else "the profile's caves",
            f"bets of {' / '.join(self.bets)} and all in" if self.bets else "every bet size",
            at_most_raises(self.raises) if self.raises else "no cap on raises",
            "straddles offered" if self.straddles else "no straddles",
            f"{counted(self.deals, 'deal')} sampled (seed {self.seed})"
            if self.deals
            else "every deal",
            f"hands known as a brelan or {point_bands(played)}{merged}"
            if self.classes
            else "hands known card for card",
        ]
        return "; ".join(parts)

    def with_seed(self, seed: int) -> Abstraction:
        return replace(self, seed=seed)


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``1 deal``, ``2 deals``: a number with its noun agreeing (``plural`` where it is
    not the singular with an s); the number as written, without a thousands' comma."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def at_most_raises(n: int) -> str:
    """The cap on bets and raises in words: ``at most 2 bets and raises``, ``at most 1
    bet or raise``."""
    return "at most 1 bet or raise" if n == 1 else f"at most {n} bets and raises"


def point_bands(n: int) -> str:
    """Which of ``n`` bands of point a hand is known to be in: ``one of 4 bands of
    point``; ``the one band of point`` where there is one."""
    return "the one band of point" if n == 1 else f"one of {n} bands of point"


def parse_bets(text: str) -> tuple[str, ...]:
    """``"pot+max"`` → ``("pot", "max")``; ``"all"`` → every size. The sizes are joined by
    ``+`` (a comma cannot pass through OpenSpiel's game string). Parsed strictly (issue 47):
    an empty value or item (``""``, ``"pot+"``), a space or another case is refused, not
    read as every size."""
    if text == "all":
        return ()
    sizes = tuple(text.split("+"))
    for size in sizes:
        if size not in BET_SIZES:
            what = f"{size!r} is not a bet size" if size else "a size is empty"
            where = "" if size == text else f" in {text!r}"
            raise AbstractionError(
                f"bets: {what}{where}; the sizes are {', '.join(BET_SIZES)} "
                "(joined by '+', as pot+max), or 'all' for every legal total"
            )
    if len(set(sizes)) != len(sizes):
        raise AbstractionError(f"bets: a size is named twice in {text!r}")
    return sizes


BOUNDS: Final = {"cave": 1_000, "raises": 100, "deals": 100_000, "classes": 1_000}
"""The largest value of each parameter (issue 47: every size a user gives is bounded, and
refused at once beyond it): a cave of 1,000 counters (every profile's is at most 200), 100
bets and raises, 100,000 sampled deals (each one shuffled when the game is made; the
stored solutions use 100 to 200) and 1,000 bands of point. Within them the game's tree is
bounded by :data:`~bouillotte.strong.solve.MAX_STATES` as it is walked."""

_UNITS: Final = {
    "cave": "counters",
    "raises": "bets and raises",
    "deals": "sampled deals",
    "classes": "bands of point",
}


def checked(abstraction: Abstraction) -> Abstraction:
    """The abstraction, or :class:`AbstractionError` naming the parameter at fault."""
    for name in ("cave", "raises", "deals", "classes"):
        value = getattr(abstraction, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise AbstractionError(f"{name}: {value!r} is not a whole number")
        if value < 0:
            raise AbstractionError(f"{name}: {value} is negative; give 0 (none) or more")
        if value > BOUNDS[name]:
            raise AbstractionError(
                f"{name}: {value} is more than {BOUNDS[name]:,} {_UNITS[name]}, "
                "the most the game takes"
            )
    if abstraction.classes and not abstraction.deals:
        raise AbstractionError(
            "classes: hand classes need sampled deals (deals > 0): their bands are "
            "quantiles of the points dealt"
        )
    return abstraction
