"""How a policy says what it does: the legal action nearest to the one it wants, its
amount clamped to the legal range (:func:`_act`), and the two ways of playing a hand, to
back it (:func:`_back`) or to lay it down (:func:`_lay_down`)."""

from __future__ import annotations

from typing import Final

from ..play.actions import ACTION_WORDS, Action, LegalAction
from ..play.caches import cache
from ..play.deal import CLOSING, Phase
from .player_view import View

_SEEING: Final = Phase.SEEING


_STRADDLE: Final = Phase.STRADDLE


def _amount(legal: LegalAction, wanted: int) -> int:
    low = legal.low if legal.low is not None else 0
    high = legal.high if legal.high is not None else low
    amount = max(low, min(high, wanted))
    if legal.step:  # only whole steps above the least (Pierer's raises)
        amount = max(low, amount - (amount - low) % legal.step)
    return amount


_SAFE: Final = ("no-more", "pass", "fold", "decline")


_FALLBACKS: Final = {
    "raise": ("raise", "call", "no-more", *_SAFE),
    "bet": ("bet", "pass", *_SAFE),
    "call": ("call", "all-in", "no-more", *_SAFE),
}


_FALLBACKS.update({word: (word, *_SAFE) for word in ACTION_WORDS if word not in _FALLBACKS})


_SAID: Final[dict[tuple[str, str], Action]] = cache("policies.said")


def _said(player: str, word: str) -> Action:
    """The action of a word without an amount (actions are immutable: made once each)."""
    action = _SAID.get((player, word))
    if action is None:
        action = _SAID[player, word] = Action(player, word)
    return action


def _act(view: View, kind: str, wanted: int | None = None) -> Action:
    """The action ``kind`` if legal (amount clamped to the legal range), else the nearest
    safe one: call → all-in (a sight) → no-more → pass → fold → decline."""
    offered = view.legal
    for word in _FALLBACKS[kind]:
        for legal in offered:
            if legal.kind != word:
                continue
            if word in ("bet", "raise"):
                return Action(view.player, word, _amount(legal, wanted or 0))
            return _said(view.player, word)
    first = view.legal[0]
    return Action(view.player, first.kind, first.low if first.kind in ("bet", "raise") else None)


def _back(view: View, strong: bool, size: int) -> Action:
    """Come in (or stay in) with a hand worth backing; raise once if ``strong``."""
    if view.phase is _SEEING:  # before the deal nobody has seen his cards: always see
        return _act(view, "call")
    if view.phase is _STRADDLE:
        return _act(view, "decline")
    if not view.opened:
        return _act(view, "bet", view.bet + size if strong else 0)
    if strong and view.my_raises() < 1:
        return _act(view, "raise", view.bet + size)
    if view.phase in CLOSING:
        return _act(view, "no-more")
    return _act(view, "call")


def _lay_down(view: View) -> Action:
    if view.phase is _SEEING:  # before the deal nobody has seen his cards: always see
        return _act(view, "call")
    if view.phase is _STRADDLE:
        return _act(view, "decline")
    if not view.opened:
        return _act(view, "pass")
    if view.phase in CLOSING:
        return _act(view, "no-more") if view.stake >= view.bet else _act(view, "fold")
    return _act(view, "fold")
