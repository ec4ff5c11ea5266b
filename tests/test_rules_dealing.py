"""Setting a deal up and dealing a pack, pinned on Foster's words.

Foster, Cards: "a piquet pack, reduced to twenty cards, only the A K Q 9 8 of each suit".
Dealing: "the cards [...] are dealt from right to left. Three cards are given to each
player, one at a time, face down, and the thirteenth is then turned face up on the pack.
This card is called the retourne." The card under it is the fourteenth ("the player may
turn up the card under the retourne"). Pierer deals "1 u. 2 od. 2 u. 1 Karte, nie 3
zugleich". A player "decavé" has no stake to play with until he buys another.
"""

from __future__ import annotations

import dataclasses

import pytest

from bouillotte.play.dealing import (
    SetupError,
    check_setup,
    deal_from_pack,
    shuffled_pack,
)
from bouillotte.rules.cards import pack, parse_card, parse_cards
from bouillotte.rules.profile import Table
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")
PLAYERS = ["A", "B", "C", "D"]
CAVES = dict.fromkeys(PLAYERS, 100)
HANDS = {"A": "AS KH 9D", "B": "QS 9C 8H", "C": "AC KC 8D", "D": "KS AH 9S"}
# a pack in a known order, top card first
PACK = "AS AH AD AC KS KH KD KC QS QH QD QC 9S 9H 9D 9C 8S 8H 8D 8C"
ORDER = parse_cards(PACK.split())


def with_table(variant: Variant, **changes: object) -> Variant:
    table = variant.rules.table.model_copy(update=changes)
    assert isinstance(table, Table)
    rules = variant.rules.model_copy(update={"table": table})
    return dataclasses.replace(variant, rules=rules)


def setup(
    variant: Variant = FOSTER,
    players: list[str] = PLAYERS,
    dealer: str = "D",
    caves: dict[str, int] = CAVES,
    hands: dict[str, str] = HANDS,
    retourne: str = "QH",
    under: str | None = "8S",
    exposed: str | None = None,
) -> None:
    check_setup(
        variant,
        players,
        dealer,
        caves,
        {name: parse_cards(h.split()) for name, h in hands.items()},
        parse_card(retourne),
        parse_card(under) if under else None,
        parse_card(exposed) if exposed else None,
    )


def fault(**kw: object) -> tuple[str, tuple[str | int, ...], str | None]:
    with pytest.raises(SetupError) as caught:
        setup(**kw)  # type: ignore[arg-type]
    return caught.value.message, caught.value.path, caught.value.field


def test_a_sound_deal_passes() -> None:
    setup()
    setup(exposed="AS", under=None)


def test_foster_deals_one_at_a_time_from_right_to_left_and_turns_the_thirteenth() -> None:
    """D deals: the first card to A (on his right), then B, C and D, three rounds."""
    hands, retourne, under = deal_from_pack(FOSTER, PLAYERS, "D", ORDER)
    assert hands == {
        "A": [ORDER[0], ORDER[4], ORDER[8]],
        "B": [ORDER[1], ORDER[5], ORDER[9]],
        "C": [ORDER[2], ORDER[6], ORDER[10]],
        "D": [ORDER[3], ORDER[7], ORDER[11]],
    }
    assert retourne == ORDER[12]
    assert under == ORDER[13]


@pytest.mark.parametrize(
    ("variant", "turned", "word", "exposed"),
    [("foster-three", 10, "tenth", "ten"), ("foster-five", 16, "sixteenth", "sixteen")],
)
def test_fosters_thirteenth_card_is_the_tenth_with_three_and_the_sixteenth_with_five(
    variant: str, turned: int, word: str, exposed: str
) -> None:
    """Foster: "Three cards are given to each player, one at a time, face down, and the
    thirteenth is then turned face up on the pack" and "This will expose thirteen cards,
    including the retourne", both of the four-handed game. Three players' three cards are
    nine, so the card turned is the tenth (10 = 3 x 3 + 1); five players' fifteen, the
    sixteenth (5 x 3 + 1). The profiles keep Foster's words and say how they apply."""
    profile = LIBRARY.get(variant)
    n = profile.players
    cards = pack(profile.rules.table.pack_ranks())  # the three- or five-handed pack in order
    players = ["A", "B", "C", "D", "E"][:n]
    hands, retourne, _ = deal_from_pack(profile, players, players[-1], cards)
    assert retourne == cards[turned - 1] and turned == n * 3 + 1
    assert sorted(c for h in hands.values() for c in h) == sorted(cards[: turned - 1])
    for path, said, reads in (
        ("table.hand_size", "the thirteenth is then turned", f"turns the {word} card"),
        ("point.counted_cards", "expose thirteen cards", f"exposes {exposed} cards"),
    ):
        assert profile.info[path].defined_in == variant  # said in the profile, not inherited
        citation = profile.info[path].citation
        assert citation is not None and citation.quote is not None and citation.reason
        assert said in citation.quote  # Foster's own words, unchanged
        assert reads in " ".join(citation.reason.split())  # and how they apply here
    assert f"the {word}" in profile.summary and f"over {exposed} exposed" in " ".join(
        profile.summary.split()
    )


def test_the_deal_starts_on_the_dealers_right_whoever_deals() -> None:
    hands, _, _ = deal_from_pack(FOSTER, PLAYERS, "B", ORDER)
    assert hands["C"] == [ORDER[0], ORDER[4], ORDER[8]]
    assert hands["B"] == [ORDER[3], ORDER[7], ORDER[11]]


def test_a_deal_to_the_left_starts_on_the_dealers_left() -> None:
    left = with_table(FOSTER, direction="left")
    hands, _, _ = deal_from_pack(left, PLAYERS, "D", ORDER)
    assert hands["C"] == [ORDER[0], ORDER[4], ORDER[8]]
    assert hands["B"] == [ORDER[1], ORDER[5], ORDER[9]]
    assert hands["D"] == [ORDER[3], ORDER[7], ORDER[11]]


def test_three_at_a_time_when_not_dealt_singly() -> None:
    packets = with_table(FOSTER, deal_singly=False)
    hands, retourne, _ = deal_from_pack(packets, PLAYERS, "D", ORDER)
    assert hands["A"] == ORDER[0:3]
    assert hands["B"] == ORDER[3:6]
    assert hands["D"] == ORDER[9:12]
    assert retourne == ORDER[12]


def test_pierer_one_then_two_and_two_then_one() -> None:
    one_two = with_table(FOSTER, packets="one-then-two")
    hands, retourne, under = deal_from_pack(one_two, PLAYERS, "D", ORDER)
    assert hands["A"] == [ORDER[0], ORDER[4], ORDER[5]]
    assert hands["D"] == [ORDER[3], ORDER[10], ORDER[11]]
    assert (retourne, under) == (ORDER[12], ORDER[13])
    two_one = with_table(FOSTER, packets="two-then-one")
    hands, _, _ = deal_from_pack(two_one, PLAYERS, "D", ORDER)
    assert hands["A"] == [ORDER[0], ORDER[1], ORDER[8]]
    assert hands["D"] == [ORDER[6], ORDER[7], ORDER[11]]
    # with only the thirteen cards there is no card under the retourne
    assert deal_from_pack(two_one, PLAYERS, "D", ORDER[:13])[2] is None


def test_thirteen_cards_deal_no_card_under_the_retourne() -> None:
    hands, retourne, under = deal_from_pack(FOSTER, PLAYERS, "D", ORDER[:13])
    assert (retourne, under) == (ORDER[12], None)
    assert sum(len(h) for h in hands.values()) == 12


def test_too_few_cards_to_deal() -> None:
    with pytest.raises(SetupError) as caught:
        deal_from_pack(FOSTER, PLAYERS, "D", ORDER[:12])
    assert caught.value.message == "12 cards cannot deal 3 to each of 4 players and a retourne"
    assert caught.value.field == "deck"


def test_a_shuffled_pack_is_the_whole_pack_in_an_order_fixed_by_the_seed() -> None:
    cards = shuffled_pack(FOSTER, 7)
    assert sorted(cards) == sorted(pack(["A", "K", "Q", "9", "8"]))
    assert len(cards) == 20
    assert shuffled_pack(FOSTER, 7) == cards
    assert shuffled_pack(FOSTER, 8) != cards


# --- what check_setup refuses ---------------------------------------------------------


def test_the_number_of_players_is_the_profiles() -> None:
    message, path, field = fault(players=["A", "B", "C"], hands={k: HANDS[k] for k in "ABC"})
    assert message == "3 players, but foster is a game for 4"
    assert (path, field) == (("players",), "players")


def test_a_player_named_twice() -> None:
    assert fault(players=["A", "B", "C", "C"])[:2] == ("a player is named twice", ("players",))


def test_the_dealer_must_be_at_the_table() -> None:
    assert fault(dealer="E")[:2] == ("the dealer 'E' is not one of the players", ("dealer",))


def test_every_player_needs_a_cave_and_a_positive_one() -> None:
    assert fault(caves={"A": 100, "B": 100, "C": 100})[:2] == ("no cave for D", ("caves",))
    assert fault(caves={**CAVES, "B": -5})[:2] == (
        "B's cave is negative (-5): give a cave of 1 or more",
        ("caves", "B"),
    )
    message, path, field = fault(caves={**CAVES, "C": 0})
    assert message == (
        "C's cave is empty: a player who is décavé has no hand in a deal until he buys a "
        "new stake (stakes.rebuy_amount); give him a cave of 1 or more, or leave him out of "
        "the players"
    )
    assert (path, field) == (("caves", "C"), "caves.C")
    setup(caves={**CAVES, "C": 1})


def test_every_player_needs_a_hand_of_the_profiles_size() -> None:
    no_hand = {k: HANDS[k] for k in "ABC"}
    assert fault(hands=no_hand)[:2] == ("no hand for D", ("hands",))
    message, path, _ = fault(hands={**HANDS, "B": "QS 9C"})
    assert message == "B holds 2 cards; foster deals 3"
    assert path == ("hands", "B")
    stranger = {**HANDS, "E": "8C 8S 9H"}
    assert fault(hands=stranger)[:2] == ("a hand for 'E', who is not at the table", ("hands", "E"))


def test_every_card_is_of_the_pack_and_dealt_once() -> None:
    message, path, _ = fault(hands={**HANDS, "C": "AC JC 8D"})
    assert message == "JC (C's hand) is not in the 20-card pack of foster (A K Q 9 8 of each suit)"
    assert path == ("hands", "C", 1)
    message, path, _ = fault(retourne="AS")
    assert message == "AS is dealt twice (A's hand and the retourne)"
    assert path == ("retourne",)
    message, path, _ = fault(under="QH")
    assert message == "QH is dealt twice (the retourne and the card under the retourne)"
    assert path == ("under_retourne",)
    message, path, _ = fault(under="7S")
    assert path == ("under_retourne",)
    assert message.startswith("7S (the card under the retourne) is not in the 20-card pack")


def test_the_exposed_card_is_a_card_of_the_pack_dealt_or_left_in_it() -> None:
    # Foster: "If any card is exposed during the deal, either in the pack or in giving it
    # to a player, it is a misdeal": 8C, left in the pack, may be the exposed card.
    setup(exposed="8C")
    setup(exposed="8S")
    setup(exposed="AS")
    assert fault(exposed="7C")[:2] == (
        "the exposed card 7C is not in the 20-card pack of foster (A K Q 9 8 of each suit)",
        ("exposed",),
    )
    # The retourne is turned up by rule, not exposed.
    assert fault(exposed="QH")[:2] == (
        "the exposed card QH is the retourne, which is turned up by rule: give a card of a "
        "hand, or one left in the pack",
        ("exposed",),
    )


def test_cards_unchecked_when_asked() -> None:
    check_setup(
        FOSTER,
        PLAYERS,
        "D",
        CAVES,
        {name: parse_cards(["7S", "7S", "7S"]) for name in PLAYERS},
        parse_card("7S"),
        None,
        None,
        cards=False,
    )


def test_fourteen_cards_give_the_card_under_the_retourne() -> None:
    assert deal_from_pack(FOSTER, PLAYERS, "D", ORDER[:14])[1:] == (ORDER[12], ORDER[13])
    one_two = with_table(FOSTER, packets="one-then-two")
    assert deal_from_pack(one_two, PLAYERS, "D", ORDER[:14])[1:] == (ORDER[12], ORDER[13])


def test_a_dealer_not_at_the_table_deals_from_the_first_seat() -> None:
    """check_setup refuses such a dealer; dealing alone falls back on the first seat, so the
    first card goes to the second player."""
    hands, _, _ = deal_from_pack(FOSTER, PLAYERS, "E", ORDER)
    assert hands["B"] == [ORDER[0], ORDER[4], ORDER[8]]
    assert hands["A"] == [ORDER[3], ORDER[7], ORDER[11]]
