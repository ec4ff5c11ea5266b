"""The draw, where the profile has one (``table.draw``): each player still in, in speaking
order, throws cards away and buys as many, or buys a fourth to three equal cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.cards import card_str, rank_of
from .actions import Action, LegalAction
from .events import Draw, DrawBegins
from .phases import DRAW, Stage
from .settlement import showdown

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["Drawing", "begin_draw"]

_BUY: Final = LegalAction("buy")


class Drawing(Stage):
    """The draw: who is still to draw (``queue``, in order) and how many cards of the
    stock have been bought."""

    __slots__ = ("bought", "queue")

    def __init__(self, queue: list[int], bet: int) -> None:
        super().__init__(DRAW, bet)
        self.queue = queue
        self.bought = 0

    def copy(self, deal: Deal) -> Drawing:
        other = Drawing(list(self.queue), self.bet)
        other.bought = self.bought
        return other

    def legal(self, deal: Deal, seat: int) -> list[LegalAction]:
        legal = [LegalAction("discard", 0, len(deal.hands[seat]))]
        if _may_buy_a_fourth(deal, seat):
            legal.append(_BUY)
        return legal

    def permits(self, deal: Deal, seat: int, legal: LegalAction, action: Action) -> bool:
        return self.fault(deal, seat, action) is None

    def refusal(self, deal: Deal, seat: int, action: Action) -> tuple[str, str]:
        fault = self.fault(deal, seat, action)
        assert fault is not None
        return fault

    def fault(self, deal: Deal, seat: int, action: Action) -> tuple[str, str] | None:
        """What is wrong with a word said in the draw, or ``None``."""
        name, hand = deal.names[seat], deal.hands[seat]
        if action.kind == "discard":
            for card in action.cards:
                if card not in hand:
                    return f"{name} does not hold {card_str(card)}", "table.draw"
            if len(set(action.cards)) != len(action.cards):
                return f"{name} names a card twice", "table.draw"
            wanted = len(action.cards)
        elif action.kind == "buy":
            if not _may_buy_a_fourth(deal, seat):
                return f"{name} holds no three equal cards, so cannot buy a fourth", "table.draw"
            wanted = 1
        else:
            return (
                f"this is the draw: {name} throws cards away and buys as many ('discard' and "
                "the cards, or 'discard' alone to keep his hand)",
                "table.draw",
            )
        left = len(deal.stock) - self.bought
        if wanted > left:
            return (
                f"{name} would buy {wanted} cards, but only {left} are left to buy (give the "
                "scenario a longer 'stock:' or a 'deck:')",
                "table.draw",
            )
        return None

    def do(self, deal: Deal, seat: int, action: Action) -> None:
        """Throw away cards and buy as many (``discard``), or buy a fourth (``buy``)."""
        hand = deal.hands[seat]
        thrown = action.cards if action.kind == "discard" else ()
        wanted = len(thrown) if action.kind == "discard" else 1
        bought = deal.stock[self.bought : self.bought + wanted]
        self.bought += wanted
        deal.hands[seat] = [c for c in hand if c not in thrown] + bought
        deal.events.append(
            Draw(deal.names[seat], tuple(thrown), tuple(bought), tuple(deal.hands[seat]))
        )
        self.queue.remove(seat)
        if self.queue:
            deal.to_act_seat = self.queue[0]
        else:
            showdown(deal)


def begin_draw(deal: Deal, bet: int) -> None:
    """The betting closed at ``bet``: those still in draw, in speaking order."""
    drawing = Drawing(deal.contenders(), bet)
    deal.state = drawing
    deal.events.append(DrawBegins(deal.retourne))
    deal.to_act_seat = drawing.queue[0]


def _may_buy_a_fourth(deal: Deal, seat: int) -> bool:
    ranks = [rank_of(c) for c in deal.hands[seat]]
    return any(ranks.count(r) >= 3 for r in set(ranks))
