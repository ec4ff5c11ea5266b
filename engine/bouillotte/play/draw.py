"""The draw, where the profile has one (``table.draw``): each player still in, in speaking
order, throws cards away and buys as many, or buys a fourth to three equal cards."""

from __future__ import annotations

from typing import Final

from ..rules.cards import card_str, rank_of
from .actions import Action, LegalAction
from .board import Board
from .events import Draw, DrawBegins
from .phases import DRAW, DRAWN, GOES_ON, Exit, Stage

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

    def copy(self, board: Board) -> Drawing:
        other = Drawing(list(self.queue), self.bet)
        other.bought = self.bought
        return other

    def legal(self, board: Board, seat: int) -> list[LegalAction]:
        """A discard of as many cards as he holds and the stock has left to buy; a fourth
        bought where he holds three equal cards and a card is left."""
        left = len(board.stock) - self.bought
        legal = [LegalAction("discard", 0, min(len(board.hands[seat]), left))]
        if left >= 1 and _may_buy_a_fourth(board, seat):
            legal.append(_BUY)
        return legal

    def permits(self, board: Board, seat: int, legal: LegalAction, action: Action) -> bool:
        return self.fault(board, seat, action) is None

    def refusal(self, board: Board, seat: int, action: Action) -> tuple[str, str]:
        fault = self.fault(board, seat, action)
        assert fault is not None
        return fault

    def fault(self, board: Board, seat: int, action: Action) -> tuple[str, str] | None:
        """What is wrong with a word said in the draw, or ``None``."""
        name, hand = board.names[seat], board.hands[seat]
        if action.kind == "discard":
            for card in action.cards:
                if card not in hand:
                    return f"{name} does not hold {card_str(card)}", "table.draw"
            if len(set(action.cards)) != len(action.cards):
                return f"{name} names a card twice", "table.draw"
            wanted = len(action.cards)
        elif action.kind == "buy":
            if not _may_buy_a_fourth(board, seat):
                return f"{name} holds no three equal cards, so cannot buy a fourth", "table.draw"
            wanted = 1
        else:
            return (
                f"this is the draw: {name} throws cards away and buys as many ('discard' and "
                "the cards, or 'discard' alone to keep his hand)",
                "table.draw",
            )
        left = len(board.stock) - self.bought
        if wanted > left:
            return (
                f"{name} would buy {wanted} cards, but only {left} are left to buy (give the "
                "scenario a longer 'stock:' or a 'deck:')",
                "table.draw",
            )
        return None

    def do(self, board: Board, seat: int, action: Action) -> Exit:
        """Throw away cards and buy as many (``discard``), or buy a fourth (``buy``)."""
        hand = board.hands[seat]
        thrown = action.cards if action.kind == "discard" else ()
        wanted = len(thrown) if action.kind == "discard" else 1
        bought = board.stock[self.bought : self.bought + wanted]
        self.bought += wanted
        board.hands[seat] = [c for c in hand if c not in thrown] + bought
        board.events.append(
            Draw(board.names[seat], tuple(thrown), tuple(bought), tuple(board.hands[seat]))
        )
        self.queue.remove(seat)
        if self.queue:
            board.to_act_seat = self.queue[0]
            return GOES_ON
        return DRAWN


def begin_draw(board: Board, bet: int) -> Drawing:
    """The betting closed at ``bet``: those still in draw, in speaking order."""
    drawing = Drawing(board.contenders(), bet)
    board.events.append(DrawBegins(board.retourne))
    board.to_act_seat = drawing.queue[0]
    return drawing


def _may_buy_a_fourth(board: Board, seat: int) -> bool:
    ranks = [rank_of(c) for c in board.hands[seat]]
    return any(ranks.count(r) >= 3 for r in set(ranks))
