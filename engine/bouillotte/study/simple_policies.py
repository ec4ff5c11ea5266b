"""The three policies that take no tendencies.

``simple``
    After Foster's "Suggestions for Good Play": a brelan is always backed (and raised once);
    the point is backed only above a threshold that rises with the number of players
    already in: 21 alone ("The first player to say, having only 21 in his hand, should
    ante"), 26 against one, 32 against two ("if two other players had already anted, 31,
    or even 40 would be a doubtful hand"), never against three ("if four players are
    engaged, it is almost a certainty that brelans will be shown"); three cards of one suit
    to the King are bet high.
``cautious``
    Backs a brelan, or a point of 40 or more when nobody else is in; never raises.
``random``
    A uniformly random legal action, with a uniformly random legal amount (seeded).
"""

from __future__ import annotations

from typing import Final

from ..play.actions import Action
from ..play.hands import Kind
from ..play.stream import Stream
from .hand_worth import _HandCache
from .player_view import View
from .policy_actions import _act, _back, _lay_down, _said

_POINT: Final = Kind.POINT  # module names: an Enum member read off its class costs a lookup


SIMPLE_THRESHOLDS: Final = (21, 26, 32)
"""The least point the simple policy backs with 0, 1 or 2 other players in; with 3, none.
Foster gives the first and calls 31 "doubtful" against two; 26 is our midpoint."""


class SimplePolicy(_HandCache):
    """Foster's "Suggestions for Good Play", reduced to a rule of thumb (see the module)."""

    name = "simple"

    def choose(self, view: View, rng: Stream) -> Action:
        kind, pips, cards, top = self.worth(view)
        if kind is not _POINT:
            eldest = not view.opened and not view.anybody_spoke()
            if eldest and view.find("pass") is not None:
                # "With good cards it is always better for the eldest hand to pass."
                return _act(view, "pass")
            return _back(view, strong=True, size=max(view.pot // 2, 1))
        others = view.others_in()
        if others >= len(SIMPLE_THRESHOLDS) or pips < SIMPLE_THRESHOLDS[others]:
            return _lay_down(view)
        # "With three cards of one suit to the King, it is usual to bet high."
        high = cards == 3 and top <= 1
        return _back(view, strong=high, size=2 * view.pot)


class CautiousPolicy(_HandCache):
    """Backs only a brelan, or a point of 40 or more when nobody else is in; never raises."""

    name = "cautious"

    def choose(self, view: View, rng: Stream) -> Action:
        kind, pips, _, _ = self.worth(view)
        if kind is not _POINT:
            return _back(view, strong=False, size=0)
        if pips >= 40 and view.others_in() == 0:
            return _back(view, strong=False, size=0)
        return _lay_down(view)


class RandomPolicy:
    """Any legal action, uniformly; bets and raises of a uniformly random legal amount."""

    name = "random"

    def choose(self, view: View, rng: Stream) -> Action:
        offered = view.legal
        legal = offered[rng.below(len(offered))]
        if legal.kind in ("bet", "raise"):
            assert legal.low is not None
            high = legal.high or legal.low
            return Action(view.player, legal.kind, _in_steps(rng, legal.low, high, legal.step or 1))
        return _said(view.player, legal.kind)


def _in_steps(rng: Stream, low: int, high: int, step: int) -> int:
    """An amount from ``low`` to ``high`` in steps of ``step`` (``low`` <= ``high``), each
    equally likely."""
    return low + step * rng.below((high - low + step) // step)
