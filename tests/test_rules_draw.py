"""The draw of Pierer's Brelan (``table.draw: discard-and-buy``): when the betting is over
each player still in, in turn to the right, throws cards away and buys as many from the
stock, the turned card first; a player holding three equal cards may buy a fourth (the
*brelan carré*). See variants/brelan-pierer.yaml for the quotes. What a player is told
when a word is refused is pinned whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import Deal, IllegalAction, Phase, new_deal
from bouillotte.play.events import Draw, DrawBegins, Showdown
from bouillotte.play.hands import Kind
from bouillotte.rules.cards import parse_card, parse_cards
from bouillotte.rules.profiles import Library

PIERER = Library().get("brelan-pierer")
HANDS = {"A": "AC AD AS", "B": "KS 9D 8D", "C": "QS QH 7S", "D": "AH KH QC"}
BETTING = ["A bet 4", "B call", "C fold", "D fold"]


def deal(actions: Sequence[str] = BETTING, stock: str = "JS JH 10C") -> Deal:
    d = new_deal(
        PIERER,
        list(HANDS),
        "D",
        hands={name: parse_cards(h.split()) for name, h in HANDS.items()},
        retourne=parse_card("7H"),
        stock=parse_cards(stock.split()),
    )
    for text in actions:
        d.apply(parse_action(text))
    return d


def says(d: Deal, text: str) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action(text))
    assert caught.value.rule == "table.draw"
    return caught.value.message, caught.value.rule


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text.split()))


def test_the_draw_follows_the_betting_with_the_first_still_in() -> None:
    d = deal()
    assert (d.phase, d.to_act) == (Phase.DRAW, "A")
    assert d.events[-1] == DrawBegins(parse_card("7H"))
    # A holds three aces: he may change up to three cards, or buy a fourth.
    assert [str(a) for a in d.legal_actions()] == ["discard 0-3 cards", "buy"]


def test_a_player_without_three_equal_cards_cannot_buy_a_fourth() -> None:
    d = deal([*BETTING, "A buy"])
    assert (d.to_act, [str(a) for a in d.legal_actions()]) == ("B", ["discard 0-3 cards"])
    assert says(d, "B buy") == (
        "B holds no three equal cards, so cannot buy a fourth",
        "table.draw",
    )


def test_a_pair_is_not_three_equal_cards_and_cannot_buy_a_fourth() -> None:
    """Pierer's carré is "Zu 3 gleichen Karten [...] die 4. zugekauft": three equal cards
    with the fourth bought. C's pair of queens (QS QH 7S) is one card short of them: he
    may change cards, not buy one more."""
    d = deal(["A bet 4", "B fold", "C call", "D fold", "A buy"])
    assert (d.to_act, [str(a) for a in d.legal_actions()]) == ("C", ["discard 0-3 cards"])
    assert says(d, "C buy") == (
        "C holds no three equal cards, so cannot buy a fourth",
        "table.draw",
    )


def test_the_words_of_the_draw_are_checked_against_the_hand() -> None:
    d = deal()
    assert says(d, "A pass") == (
        "this is the draw: A throws cards away and buys as many ('discard' and the cards, or "
        "'discard' alone to keep his hand)",
        "table.draw",
    )
    assert says(d, "A discard KH") == ("A does not hold KH", "table.draw")
    assert says(d, "A discard AC AC") == ("A names a card twice", "table.draw")
    assert says(d, "A bet 8") == says(d, "A pass")


def test_cards_are_bought_from_the_stock_in_order_and_then_shown() -> None:
    """Pierer: "die aufgeworfene Karte ist unter der zu Kaufenden" (the turned card is among
    those to be bought): it is bought first, then the stock in order."""
    d = deal([*BETTING, "A buy", "B discard 9D 8D"])
    draws = [e for e in d.events if isinstance(e, Draw)]
    assert draws == [
        Draw("A", (), cards("7H"), cards("AC AD AS 7H")),
        Draw("B", cards("9D 8D"), cards("JS JH"), cards("KS JS JH")),
    ]
    assert d.is_over
    # Pool: D's blind 4, A's 4, B's 4; A's three aces beat B's nothing.
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(12, "A")]


def test_keeping_the_hand_buys_nothing() -> None:
    d = deal([*BETTING, "A discard", "B discard"])
    draws = [e for e in d.events if isinstance(e, Draw)]
    assert draws == [Draw("A", (), (), cards("AC AD AS")), Draw("B", (), (), cards("KS 9D 8D"))]


def test_nobody_buys_more_than_the_stock_holds() -> None:
    """The turned card and JS are all there is to buy: A takes the first, one is left."""
    d = deal([*BETTING, "A buy"], stock="JS")
    assert says(d, "B discard 9D 8D") == (
        "B would buy 2 cards, but only 1 are left to buy (give the scenario a longer 'stock:' "
        "or a 'deck:')",
        "table.draw",
    )
    d.apply(parse_action("B discard 8D"))
    assert d.is_over


def test_each_buys_after_the_one_before_in_turn() -> None:
    """Three still in (A, B, C: D folds, then A passes the word and B declines it): A buys
    the turned card, B the next two, C the one after."""
    betting = ["A bet 4", "B call", "C call", "D fold", "A no-more", "B no-more"]
    d = deal([*betting, "A buy", "B discard 9D 8D", "C discard 7S"])
    draws = [(e.player, e.buys) for e in d.events if isinstance(e, Draw)]
    assert draws == [("A", cards("7H")), ("B", cards("JS JH")), ("C", cards("10C"))]
    assert d.is_over


def test_a_fourth_can_be_bought_while_one_card_is_left() -> None:
    d = deal(stock="")
    d.apply(parse_action("A buy"))  # the turned card, the only card to buy
    assert says(d, "B discard 9D") == (
        "B would buy 1 cards, but only 0 are left to buy (give the scenario a longer 'stock:' "
        "or a 'deck:')",
        "table.draw",
    )


def test_a_brelan_held_from_the_deal_is_the_favori_and_one_bought_is_not() -> None:
    """Pierer: "ein B. gleich von Haus aus, B. favori (gebornes B.)": A's kings are dealt,
    B's aces are made by buying the turned AD. Both rank by rank (``favori: by-rank``):
    the aces win, but only the kings are the favori."""
    hands = {"A": "KS KH KD", "B": "AS AH 9D", "C": "QS QH 7S", "D": "JH 10H 8C"}
    d = new_deal(
        PIERER,
        list(hands),
        "D",
        hands={name: parse_cards(h.split()) for name, h in hands.items()},
        retourne=parse_card("AD"),
    )
    for text in [*BETTING, "A discard", "B discard 9D"]:
        d.apply(parse_action(text))
    shown = next(e for e in d.events if isinstance(e, Showdown))
    assert [(name, value.kind) for name, value in shown.hands] == [
        ("A", Kind.FAVORI),
        ("B", Kind.BRELAN),
    ]
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(12, "B")]


def test_a_fourth_cannot_be_bought_when_nothing_is_left() -> None:
    """A buys the turned card, the only one; B, holding three kings, finds none left."""
    hands = {"A": "AC AD AS", "B": "KS KH KD", "C": "QS QH 7S", "D": "JH 10H 8C"}
    d = new_deal(
        PIERER,
        list(hands),
        "D",
        hands={name: parse_cards(h.split()) for name, h in hands.items()},
        retourne=parse_card("7H"),
    )
    for text in [*BETTING, "A buy"]:
        d.apply(parse_action(text))
    assert says(d, "B buy") == (
        "B would buy 1 cards, but only 0 are left to buy (give the scenario a longer 'stock:' "
        "or a 'deck:')",
        "table.draw",
    )
