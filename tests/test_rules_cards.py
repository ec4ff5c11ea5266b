"""Cards as the sources write them: rank then suit, the ace highest.

Foster: "The ace is the highest card in play and in cutting"; the pack keeps "A K Q 9 8 of
each suit" (with the Jacks for five players). Cards are written rank then suit (``AS``,
``10H``), ``T`` for the ten, suit symbols and lower case accepted on input.
"""

from __future__ import annotations

import pytest

from bouillotte.rules.cards import (
    RANKS,
    SUITS,
    CardError,
    card_str,
    cards_str,
    make,
    pack,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_ranks_run_from_the_ace_down() -> None:
    assert RANKS == ("A", "K", "Q", "J", "10", "9", "8", "7")
    assert rank_of(parse_card("AS")) < rank_of(parse_card("KS")) < rank_of(parse_card("8S"))


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", "A", "S"),
        ("10h", "10", "H"),
        ("Td", "10", "D"),
        ("tC", "10", "C"),
        ("A♠", "A", "S"),
        ("K♥", "K", "H"),
        ("Q♦", "Q", "D"),
        ("J♣", "J", "C"),
        ("9♤", "9", "S"),
        ("8♡", "8", "H"),
        ("7♢", "7", "D"),
        ("A♧", "A", "C"),
        ("ks", "K", "S"),
    ],
)
def test_a_card_is_read_rank_then_suit(text: str, rank: str, suit: str) -> None:
    card = parse_card(text)
    assert (RANKS[rank_of(card)], SUITS[suit_of(card)]) == (rank, suit)
    assert card == make(rank, suit)


@pytest.mark.parametrize("text", ["", "A", " S ", "XS", "AX", "SA", "11S", "A♠♠"])
def test_what_is_not_a_card_is_refused_with_how_to_write_one(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    message = str(caught.value)
    assert message.startswith(f"{text!r} is not a card: ")
    assert "AS" in message


def test_the_refusal_lists_the_ranks_and_suits() -> None:
    with pytest.raises(CardError) as caught:
        parse_card("XS")
    assert str(caught.value) == (
        "'XS' is not a card: ranks are A K Q J 10 9 8 7, suits are S H D C "
        "(or ♠ ♥ ♦ ♣), rank first, as in AS or 9H"
    )
    with pytest.raises(CardError) as caught:
        parse_card("A")
    assert str(caught.value) == "'A' is not a card: write rank then suit, such as AS or 9H"


def test_the_written_forms() -> None:
    ten = parse_card("10H")
    assert card_str(ten) == "10H"
    assert cards_str(parse_cards(["AS", "9c", "Td"])) == "AS 9C 10D"
    assert cards_str([]) == ""


def test_rank_and_suit_of_a_card() -> None:
    card = parse_card("QD")
    assert rank_of(card) == RANKS.index("Q")
    assert suit_of(card) == 2
    assert suit_of(parse_card("QC")) == 3
    assert suit_of(parse_card("QS")) == 0


def test_foster_twenty_card_pack() -> None:
    cards = pack(["A", "K", "Q", "9", "8"])
    assert len(cards) == 20
    assert cards_str(cards[:5]) == "AS AH AD AC KS"
    assert cards_str(cards[-4:]) == "8S 8H 8D 8C"
    assert len(set(cards)) == 20
    # a fresh list each time: shuffling one leaves the next untouched
    cards.reverse()
    assert cards_str(pack(["A", "K", "Q", "9", "8"])[:1]) == "AS"
