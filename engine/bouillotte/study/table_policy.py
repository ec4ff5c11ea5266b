"""The ``table`` family of players: Foster's thresholds for the point, moved by
:class:`Tendencies` (each a chance or a number, settable after the player's name as
``bold:straddle=0.2,bluff=0``), so that every rule of the schema that depends on a choice
is reached by some tendency (``docs/simulation.md``, "Policies"). The named players of the
family are in the registry, :data:`policies.TABLE_PLAYERS`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Final

from ..play.actions import Action
from ..play.deal import CLOSING, Phase
from ..play.events import Act
from ..play.hands import Kind
from ..play.showdown import rank_values
from ..play.stream import Stream
from ..rules.errors import InputError
from ..rules.nearest import did_you_mean
from .hand_worth import _HandCache, best_suit
from .player_view import View
from .policy_actions import _act, _lay_down, _said
from .simple_policies import SIMPLE_THRESHOLDS

_SEEING: Final = Phase.SEEING
_STRADDLE: Final = Phase.STRADDLE


_DRAW: Final = Phase.DRAW


_POINT: Final = Kind.POINT  # module names: an Enum member read off its class costs a lookup


TENDENCIES: Final[dict[str, str]] = {
    "straddle": "chance of straddling when offered, before seeing one's cards",
    "see": "chance of seeing a straddle that must be seen before the deal (else drop out)",
    "open_point": "the least point it backs with nobody else in (Foster: 21)",
    "point_shift": "added to the least point backed against others (26 against one, 32 "
    "against two): below 0 follows looser",
    "against_three": "the least point backed against three others already in (0: never)",
    "bluff": "chance of betting or raising on a hand it would otherwise lay down",
    "raises": "how many times in a deal it raises on a strong hand (re-raises past 1)",
    "strong_point": "the least point it counts strong (raised like a brelan)",
    "privilege_raise": "chance of raising in the closing round (Foster's privilege, the "
    "card's no-more round) on a strong hand, rather than passing the word",
    "call_all_in": "1: calls all in for what is left (a sight) with a hand it backs; 0: "
    "folds instead",
    "eldest_passes": "1: the eldest passes first with a brelan (Foster); 0: bets at once",
    "no_ace_alone": "1: never backs a lone ace unless of the retourne's suit (Foster); acts "
    "only where the least point backed is lowered to 11 or less (an ace alone counts 11)",
    "three_way_limit": "1: with two others in, lays down a point that is not strong once "
    "the betting has been raised (a strict reading of Foster); 0: follows",
    "met_point": "the least point it follows with once a bet has been made and met by another "
    "player (Foster: such a point should generally be laid down); 0: no such limit",
    "buy_fourth": "1: in a draw, buys a fourth to three equal cards where allowed",
    "push": "chance of putting in the whole cave (all in) on a strong hand, where allowed",
}
"""Each tendency in a sentence (``--help`` and the site list them)."""


class Tendencies:
    """How a player of the ``table`` family plays: every rule of the schema that depends on
    a choice is reached by one of these (``docs/simulation.md``, "Policies").

    Chances are between 0 and 1 and drawn from the policy's seeded generator."""

    __slots__ = (
        "against_three",
        "bluff",
        "buy_fourth",
        "call_all_in",
        "eldest_passes",
        "met_point",
        "no_ace_alone",
        "open_point",
        "point_shift",
        "privilege_raise",
        "push",
        "raises",
        "see",
        "straddle",
        "strong_point",
        "three_way_limit",
    )

    def __init__(
        self,
        straddle: float = 0.0,
        see: float = 1.0,
        point_shift: int = 0,
        against_three: int = 0,
        bluff: float = 0.0,
        raises: int = 1,
        strong_point: int = 99,
        privilege_raise: float = 0.0,
        call_all_in: int = 1,
        eldest_passes: int = 1,
        no_ace_alone: int = 0,
        three_way_limit: int = 0,
        buy_fourth: int = 1,
        push: float = 0.0,
        open_point: int = 21,
        met_point: int = 0,
    ) -> None:
        self.straddle = straddle
        self.see = see
        self.point_shift = point_shift
        self.against_three = against_three
        self.bluff = bluff
        self.raises = raises
        self.strong_point = strong_point
        self.privilege_raise = privilege_raise
        self.call_all_in = call_all_in
        self.eldest_passes = eldest_passes
        self.no_ace_alone = no_ace_alone
        self.three_way_limit = three_way_limit
        self.buy_fourth = buy_fourth
        self.push = push
        self.open_point = open_point
        self.met_point = met_point

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in TENDENCIES}

    def changed(self, values: Mapping[str, float]) -> Tendencies:
        merged = self.as_dict() | dict(values)
        return Tendencies(
            float(merged["straddle"]),
            float(merged["see"]),
            int(merged["point_shift"]),
            int(merged["against_three"]),
            float(merged["bluff"]),
            int(merged["raises"]),
            int(merged["strong_point"]),
            float(merged["privilege_raise"]),
            int(merged["call_all_in"]),
            int(merged["eldest_passes"]),
            int(merged["no_ace_alone"]),
            int(merged["three_way_limit"]),
            int(merged["buy_fourth"]),
            float(merged["push"]),
            int(merged["open_point"]),
            int(merged["met_point"]),
        )


_CHANCES: Final = frozenset({"straddle", "see", "bluff", "privilege_raise", "push"})


class TablePolicy(_HandCache):
    """A player of the ``table`` family: Foster's thresholds for the point, moved by its
    :class:`Tendencies`, with straddles, sights, re-raises, raises in the closing round and
    draws as its tendencies say."""

    def __init__(self, name: str, tendencies: Tendencies) -> None:
        super().__init__()
        self.name = name
        self.tendencies = tendencies

    def choose(self, view: View, rng: Stream) -> Action:
        t = self.tendencies
        phase = view.phase
        if phase is _STRADDLE:  # before the deal: nobody has seen his cards
            if t.straddle > 0 and rng.random() < t.straddle:
                return _act(view, "straddle")
            return _act(view, "decline")
        if phase is _SEEING:
            if t.see >= 1 or rng.random() < t.see:
                return _act(view, "call")
            return _act(view, "fold")
        kind, pips, cards, top = self.worth(view)
        if phase is _DRAW:
            return self._draw(view, kind)
        brelan = kind is not _POINT
        others = view.others_in()
        if brelan:
            backed, strong = True, True
        else:
            backed = self._backs_point(view, pips, cards, top, others)
            strong = pips >= t.strong_point
        if not backed and t.bluff > 0 and rng.random() < t.bluff:
            backed, strong = True, True  # a bluff: bet or raise as on a strong hand
        if not backed:
            return _lay_down(view)
        eldest = not view.opened and not view.anybody_spoke()
        if brelan and t.eldest_passes and eldest and view.find("pass") is not None:
            # "With good cards it is always better for the eldest hand to pass."
            return _act(view, "pass")
        if not brelan and t.met_point and pips < t.met_point and _bet_made_and_met(view):
            # "If a bet had been made and met by another player, such a point should
            # generally be laid down."
            return _lay_down(view)
        if (
            t.three_way_limit
            and not strong
            and others >= 2
            and view.raised == 0
            and view.bet > view.stake
            and _raises_seen(view) >= 1
        ):
            # "If three play in a pool the point should be very strong to follow beyond
            # the first raise."
            return _lay_down(view)
        size = max(view.pot, 1)
        pushing = strong and t.push > 0 and view.raised < t.raises
        if pushing and rng.random() < t.push:
            # The whole cave: all in where the rules allow it, else the largest bet or raise
            # (which the others can meet only by calling all in, for a sight).
            if view.find("all-in") is not None and view.find("raise" if view.opened else "bet"):
                return _said(view.player, "all-in")
            everything = view.stake + view.cave
            return _act(view, "raise" if view.opened else "bet", everything)
        if phase in CLOSING:
            if strong and view.raised < t.raises and rng.random() < t.privilege_raise:
                return _act(view, "raise", view.bet + size)
            return _act(view, "no-more")
        if not view.opened:
            return _act(view, "bet", view.bet + size if strong else 0)
        if strong and view.raised < t.raises:
            return _act(view, "raise", view.bet + size)
        if view.bet - view.stake >= view.cave and not t.call_all_in:
            return _act(view, "fold")
        return _act(view, "call")

    def _backs_point(self, view: View, pips: int, cards: int, top: int, others: int) -> bool:
        t = self.tendencies
        if others >= len(SIMPLE_THRESHOLDS):
            return t.against_three > 0 and pips >= t.against_three
        least = t.open_point if others == 0 else SIMPLE_THRESHOLDS[others] + t.point_shift
        if pips < least:
            return False
        # "Good players will not bet on an ace alone, unless the suit is turned up."
        ace_alone = cards == 1 and top == 0 and (view.retourne & 3) != _suit_of_best(view)
        return not (t.no_ace_alone and ace_alone)

    def _draw(self, view: View, kind: Kind) -> Action:
        if kind is not _POINT:
            if self.tendencies.buy_fourth and view.find("buy") is not None:
                return _said(view.player, "buy")
            return Action(view.player, "discard")
        legal = view.find("discard")
        most = legal.high if legal is not None and legal.high is not None else 0
        keep = _suit_of_best(view)
        thrown = tuple(card for card in view.hand if card & 3 != keep)[:most]
        return Action(view.player, "discard", cards=thrown)


def _suit_of_best(view: View) -> int:
    """The suit of the player's best point (the retourne counted where of that suit)."""
    return best_suit(view.hand, view.retourne, rank_values(view.rules))[3]


def _bet_made_and_met(view: View) -> bool:
    """Whether the bet the player now faces was made by one player and met (called, or
    called all in for the whole of it) by another, read from the public log: Foster's "a
    bet had been made and met by another player". Only words count: forced bets and
    straddles are not a bet made."""
    if not view.opened or view.bet <= view.stake:
        return False
    bettor = ""
    largest = 0
    met = False
    for event in view.public[: view.seen]:
        if not isinstance(event, Act) or event.total is None:
            continue
        action, total = event.action, event.total
        if action in ("bet", "raise") or (action == "all-in" and total > largest):
            bettor, largest, met = event.player, total, False
        elif bettor and event.player != bettor and total >= largest:
            met = True  # a call, or an all-in for the whole bet
    return met and bettor != view.player


def _raises_seen(view: View) -> int:
    """How many raises the betting has seen so far (read from the public log)."""
    raised = 0
    for event in view.public[: view.seen]:
        if isinstance(event, Act) and event.action == "raise":
            raised += 1
    return raised


_WHOLE_RANGES: Final[dict[str, tuple[int, int]]] = {
    "open_point": (0, 99),
    "point_shift": (-99, 99),
    "against_three": (0, 99),
    "met_point": (0, 99),
    "raises": (0, 99),
    "strong_point": (0, 99),
    "call_all_in": (0, 1),
    "eldest_passes": (0, 1),
    "no_ace_alone": (0, 1),
    "three_way_limit": (0, 1),
    "buy_fourth": (0, 1),
}
"""The whole numbers each tendency that is not a chance may take (a point is below 99; 99
means never; 0 and 1 are no and yes)."""


_CHANCE_TEXT: Final = re.compile(r"(?:[01](?:\.[0-9]*)?|\.[0-9]+)")
"""A decimal that may be a chance, however written (``.5``, ``0.``, ``1.00``)."""
_CHANCE_WRITTEN: Final = re.compile(r"0|1|0\.[0-9]*[1-9]")
"""A chance as the tool writes it (``0``, ``0.25``, ``1``): a digit on each side of the
point, no zero after the last decimal, so that each chance has one label, as each whole
number has (``_WHOLE_TEXT``)."""


CHANCE_DECIMALS: Final = 15
"""The most decimals a chance is written with: a float holds any decimal of 15 significant
digits exactly enough to give it back, and no more (``0.99999999999999999999`` would be
played as 1, under a label that says otherwise)."""


_WHOLE_TEXT: Final = re.compile(r"0|-?[1-9][0-9]{0,2}")
"""A whole number as the tool writes it: no leading zero (``099``, ``00``, ``-0``), as
``--vary`` reads one, so that each value has one label."""


def _chance(text: str) -> float | None:
    """The chance ``text`` writes, if it is one from 0 to 1 compared as written (as a
    decimal, never after its rounding to a float: ``1.00000000000000000001`` is above 1)."""
    if not _CHANCE_TEXT.fullmatch(text) or not 0 <= Decimal(text) <= 1:
        return None
    return float(text)


def _tendency_value(name: str, key: str, text: str) -> float:
    """One tendency's value, written in ASCII digits and within its range, as the label
    shows it (no leading zero, no more decimals than are played), else one line saying
    what it takes."""
    if key in _CHANCES:
        value = _chance(text)
        decimals = len(text.partition(".")[2])
        if value is not None and decimals <= CHANCE_DECIMALS and _CHANCE_WRITTEN.fullmatch(text):
            return value
        words = "a chance, from 0 to 1 (as 0.25, in ASCII digits)"
        if value is not None and decimals <= CHANCE_DECIMALS:
            plain = format(Decimal(text).normalize(), "f")
            how = "a digit on each side of the point" if "." in (text[0], text[-1]) else ""
            how = how or "no zero after the last decimal"
            words += f", not {text!r}: write {plain!r}, with {how}"
            text = ""
        elif value is not None:
            words += (
                f", not {text!r}: write it with at most {CHANCE_DECIMALS} decimals (more are "
                "not played as written)"
            )
            text = ""
    else:
        low, high = _WHOLE_RANGES[key]
        if _WHOLE_TEXT.fullmatch(text) and low <= int(text) <= high:
            return int(text)
        words = (
            "0 or 1" if (low, high) == (0, 1) else f"a whole number from {low} to {high}"
        ) + " (in ASCII digits)"
        if re.fullmatch(r"-?[0-9]{1,3}", text) and low <= int(text) <= high:
            unsigned = text.removeprefix("-")
            without = "a leading zero" if len(unsigned) > 1 else "a minus"
            words += f", not {text!r}: write {str(int(text))!r}, without {without}"
            text = ""
    said = f", not {text!r}" if text else ""
    raise InputError(f"policy {name!r}: {key} is {words}{said}", value=name, has_value=True)


def _not_a_tendency(part: str, key: str | None) -> str:
    """Why ``part`` (``key=value``, or no ``=`` at all: ``key`` ``None``) sets no tendency:
    a name is written with ``_`` (``open_point``), never read from another spelling, which
    would label a player otherwise than the one it plays."""
    listed = f"give NAME:tendency=value,... with tendencies {', '.join(TENDENCIES)}"
    if key is None:
        return f"{part!r} is not a tendency; {listed}"
    spelled = key.replace("-", "_")
    if spelled in TENDENCIES:
        return f"{key!r} is not a tendency: write {spelled!r} (with '_', not '-')"
    return f"{key!r} is not a tendency{did_you_mean(key, TENDENCIES)}; {listed}"


def _parse_tendencies(name: str, given: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for part in given.split(","):
        key, equals, text = part.partition("=")
        key = key.strip()
        if not equals or key not in TENDENCIES:
            raise InputError(
                f"policy {name!r}: {_not_a_tendency(part.strip(), key if equals else None)}",
                value=name,
                has_value=True,
            )
        if key in values:
            raise InputError(
                f"policy {name!r}: {key} is set twice; set each tendency once",
                value=name,
                has_value=True,
            )
        values[key] = _tendency_value(name, key, text.strip())
    return values
