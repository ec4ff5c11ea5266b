"""Setting a deal up from what a scenario gives: hands and a retourne, a pack in order, or
a seed; and the stock a draw buys from. Foster: "Three cards are given to each player,
one at a time, face down, and the thirteenth is then turned face up on the pack." A
fault is reported with the field of the scenario it stands in.
"""

from __future__ import annotations

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import SetupError, new_deal
from bouillotte.play.dealing import shuffled_pack
from bouillotte.play.events import Blind, CarriedIn, Dealt
from bouillotte.rules.cards import card_str, pack, parse_card, parse_cards
from bouillotte.rules.profiles import Library

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")
PIERER = LIBRARY.get("brelan-pierer")
PLAYERS = ["A", "B", "C", "D"]
PACK = parse_cards(
    [
        "AS",
        "AH",
        "AD",
        "AC",
        "KS",
        "KH",
        "KD",
        "KC",
        "QS",
        "QH",
        "QD",
        "QC",
        "9S",
        "9H",
        "9D",
        "9C",
        "8S",
        "8H",
        "8D",
        "8C",
    ]
)
HANDS = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 9S", "D": "AH KH QC"}


def fault(**kw: object) -> tuple[str, tuple[str | int, ...]]:
    with pytest.raises(SetupError) as caught:
        new_deal(FOSTER, PLAYERS, "D", **kw)  # type: ignore[arg-type]
    return caught.value.message, caught.value.path


def test_a_deal_needs_hands_a_pack_or_a_seed() -> None:
    assert fault() == ("give hands and a retourne, a deck, or a seed", ("hands",))
    hands = {name: parse_cards(h.split()) for name, h in HANDS.items()}
    assert fault(hands=hands) == ("no retourne given", ("retourne",))
    assert fault(deck=[*PACK[:19], PACK[0]]) == (
        f"the deck holds {card_str(PACK[0])} twice (items 0 and 19)",
        ("deck", 19),
    )


def test_a_pack_in_order_is_dealt_one_at_a_time_from_the_dealers_right() -> None:
    """D deals: A (on his right) gets the 1st, 5th and 9th cards; the 13th is turned."""
    d = new_deal(FOSTER, PLAYERS, "D", deck=PACK)
    d.apply(parse_action("A decline"))  # the cards are dealt once the straddles are over
    dealt = next(e for e in d.events if isinstance(e, Dealt))
    assert dealt.hands == (
        ("A", tuple(parse_cards(["AS", "KS", "QS"]))),
        ("B", tuple(parse_cards(["AH", "KH", "QH"]))),
        ("C", tuple(parse_cards(["AD", "KD", "QD"]))),
        ("D", tuple(parse_cards(["AC", "KC", "QC"]))),
    )
    assert dealt.retourne == parse_card("9S")
    assert d.events[0] == Blind("D", 5, 5)
    assert d.initial_caves == dict.fromkeys(PLAYERS, 100)


def test_a_pack_in_order_leaves_the_rest_to_buy_in_a_draw() -> None:
    """Pierer's draw buys the turned card first, then the pack after it in order."""
    order = pack(PIERER.rules.table.pack_ranks())
    d = new_deal(PIERER, PLAYERS, "D", deck=order)
    assert d.stock[:3] == [order[12], order[13], order[14]]


def test_a_seed_deals_the_same_cards_every_time_from_the_variants_pack() -> None:
    first, again, other = (new_deal(FOSTER, PLAYERS, "D", seed=s) for s in (7, 7, 8))
    for d in (first, again, other):
        d.apply(parse_action("A decline"))
    dealt = next(e for e in first.events if isinstance(e, Dealt))
    assert dealt == next(e for e in again.events if isinstance(e, Dealt))
    cards = [c for _, hand in dealt.hands for c in hand] + [dealt.retourne]
    assert len(set(cards)) == 13
    assert set(cards) <= set(pack(FOSTER.rules.table.pack_ranks()))
    assert next(e for e in other.events if isinstance(e, Dealt)) != dealt


def test_the_stock_holds_only_undealt_cards_of_the_pack() -> None:
    hands = {name: parse_cards(h.split()) for name, h in HANDS.items()}
    with pytest.raises(SetupError) as caught:
        new_deal(
            PIERER,
            PLAYERS,
            "D",
            hands=hands,
            retourne=parse_card("7H"),
            stock=parse_cards(["JS", "AC"]),
        )
    assert (caught.value.message, caught.value.path) == (
        "AC in the stock is dealt already",
        ("stock", 1),
    )
    with pytest.raises(SetupError) as caught:
        new_deal(
            PIERER,
            PLAYERS,
            "D",
            hands=hands,
            retourne=parse_card("7H"),
            stock=parse_cards(["JS", "JS"]),
        )
    assert (caught.value.message, caught.value.path) == (
        "JS in the stock is dealt already",
        ("stock", 1),
    )
    with pytest.raises(SetupError) as caught:
        new_deal(
            FOSTER,
            PLAYERS,
            "D",
            hands=hands,
            retourne=parse_card("9H"),
            stock=parse_cards(["8S", "7S"]),
        )
    assert (caught.value.message, caught.value.path) == (
        "7S in the stock is not in the pack",
        ("stock", 1),
    )


def test_the_cards_given_are_checked_when_a_deal_is_made() -> None:
    """Every card given is checked: the card under the retourne and the exposed card too."""
    hands = {name: parse_cards(h.split()) for name, h in HANDS.items()}
    nine = parse_card("9H")
    assert fault(hands=hands, retourne=nine, under_retourne=parse_card("AC")) == (
        "AC is dealt twice (A's hand and the card under the retourne)",
        ("under_retourne",),
    )
    assert fault(hands=hands, retourne=nine, exposed=parse_card("7S")) == (
        "the exposed card 7S is not in the 20-card pack of foster (A K Q 9 8 of each suit)",
        ("exposed",),
    )
    sevens = dict(hands, B=parse_cards(["KS", "9D", "7D"]))
    assert fault(hands=sevens, retourne=nine) == (
        "7D (B's hand) is not in the 20-card pack of foster (A K Q 9 8 of each suit)",
        ("hands", "B", 2),
    )


def test_each_action_applied_is_counted() -> None:
    d = new_deal(FOSTER, PLAYERS, "D", deck=PACK)
    assert d.steps == 0
    for text in ["A decline", "A pass", "B bet 5"]:
        d.apply(parse_action(text))
    assert d.steps == 3


def test_the_card_under_the_retourne_is_the_fourteenth_unless_given() -> None:
    """Foster: the player "may turn up the card under the retourne": dealt from a pack in
    order, it is the card after the thirteenth; a scenario may name it instead."""
    assert new_deal(FOSTER, PLAYERS, "D", deck=PACK).under_retourne == PACK[13]
    named = new_deal(FOSTER, PLAYERS, "D", deck=PACK, under_retourne=PACK[19])
    assert named.under_retourne == PACK[19]


def test_a_seeded_deal_keeps_the_carried_pool() -> None:
    d = new_deal(FOSTER, PLAYERS, "D", seed=7, carried_in=10)
    assert d.events[:2] == [CarriedIn(10), Blind("D", 5, 5)]
    assert d.pot_total() == 15


def test_a_seeded_deal_deals_its_shuffled_pack_like_a_pack_in_order() -> None:
    """The seed's pack is dealt as a pack given in order would be: the 13th card turned,
    the 14th under it, the rest to buy; what the scenario adds is kept."""
    order = shuffled_pack(FOSTER, 7)
    d = new_deal(FOSTER, PLAYERS, "D", seed=7, stifled=("A",), favori_rank=2)
    d.apply(parse_action("A decline"))
    dealt = next(e for e in d.events if isinstance(e, Dealt))
    assert dealt.retourne == order[12]
    assert dealt.hands[0] == ("A", (order[0], order[4], order[8]))
    assert d.under_retourne == order[13]
    assert d.stock == [order[12], *order[13:]]
    assert (d.stifled, d.favori_rank) == (frozenset({"A"}), 2)


def test_a_pack_in_order_or_a_seed_is_checked_like_hands_given() -> None:
    sevens = [parse_card("7S"), *PACK[1:]]
    assert fault(deck=sevens) == (  # named at its item of the deck given
        "7S is not in the 20-card pack of foster (A K Q 9 8 of each suit)",
        ("deck", 0),
    )
    seeded = new_deal(FOSTER, PLAYERS, "D", seed=7)
    dealt = {c for hand in seeded.hands for c in hand} | {seeded.retourne}
    undealt = next(c for c in PACK if c not in dealt)
    # A card left in the pack may be exposed ("either in the pack or in giving it", Foster);
    # the retourne, turned up by rule, may not.
    assert new_deal(FOSTER, PLAYERS, "D", seed=7, exposed=undealt).exposed == undealt
    assert fault(seed=7, exposed=seeded.retourne) == (
        f"the exposed card {card_str(seeded.retourne)} is the retourne, which is turned up "
        "by rule: give a card of a hand, or one left in the pack",
        ("exposed",),
    )


def test_the_turned_card_cannot_be_in_the_stock() -> None:
    hands = {name: parse_cards(h.split()) for name, h in HANDS.items()}
    with pytest.raises(SetupError) as caught:
        new_deal(
            PIERER,
            PLAYERS,
            "D",
            hands=hands,
            retourne=parse_card("7H"),
            stock=parse_cards(["JS", "7H"]),
        )
    assert (caught.value.message, caught.value.path) == (
        "7H in the stock is dealt already",
        ("stock", 1),
    )
