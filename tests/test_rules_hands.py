"""The kinds of brelan and their order, pinned rule by rule from the sources.

Foster (Rank of the Hands): "A Brelan Carré is four of a kind; three in the player's hand,
and the fourth turned up on the pack." "A Simple Brelan is three of a kind in the player's
hand, three aces being the highest, and three eights the lowest." "Should the brelan be
formed by uniting the retourne with two cards in the player's hand, it is a brelan favori";
the three kinds "rank in the following order": carré, simple, favori. The teaching card:
"Two personal cards plus retourné do not make a brelan." Every expected value below is read
off those sentences (or the profile field's docstring), not off the engine.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bouillotte.play.hands import (
    POINT_VALUE,
    HandValue,
    Kind,
    classify,
    classify_any,
    classify_three,
    suit_cards,
    tier_of,
    triplets,
)
from bouillotte.rules.cards import RANKS, SUITS, Card, parse_card, parse_cards
from bouillotte.rules.profile import Hands
from bouillotte.rules.profiles import Library

LIBRARY = Library()
FOSTER = LIBRARY.get("foster").rules.hands
PAGAT = LIBRARY.get("pagat").rules.hands
MISTIGRI = LIBRARY.get("pagat-mistigri").rules.hands
NO_BRELANS = LIBRARY.get("pagat-no-brelans").rules.hands
ACADEMIE = LIBRARY.get("brelan-18th-century").rules.hands  # favori: the declared rank
PIERER = LIBRARY.get("brelan-pierer").rules.hands  # favori: held from the deal; bought carré


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def rank(name: str) -> int:
    return RANKS.index(name)


def with_(base: Hands, **changes: object) -> Hands:
    updated = base.model_copy(update=changes)
    assert isinstance(updated, Hands)
    return updated


def value(hand: str, retourne: str, rules: Hands = FOSTER, **kw: object) -> HandValue:
    return classify(cards(hand), parse_card(retourne), rules, **kw)  # type: ignore[arg-type]


# --- what each kind is --------------------------------------------------------------------


def test_three_in_hand_and_the_fourth_turned_up_is_a_carre() -> None:
    for order in permutations(cards("9S 9H 9D")):
        got = classify(list(order), parse_card("9C"), FOSTER)
        assert (got.kind, got.rank) == (Kind.CARRE, rank("9"))


def test_three_in_hand_with_another_retourne_is_a_simple_brelan() -> None:
    got = value("KS KH KD", "9C")
    assert (got.kind, got.rank, got.name) == (Kind.BRELAN, rank("K"), None)


def test_without_the_carre_the_four_are_a_simple_brelan() -> None:
    got = value("9S 9H 9D", "9C", with_(FOSTER, carre=False))
    assert (got.kind, got.rank) == (Kind.BRELAN, rank("9"))


@pytest.mark.parametrize("hand", ["8S 8H AD", "8S AD 8H", "AD 8S 8H"])
def test_a_pair_uniting_with_the_retourne_is_the_favori_in_any_order(hand: str) -> None:
    """Foster's example: "The retourne is an eight; [...] Another player holds a pair of
    eights, and claims brelan favori." The pair may stand in any two of the three places."""
    got = value(hand, "8C")
    assert (got.kind, got.rank) == (Kind.FAVORI, rank("8"))
    assert got.is_brelan


@pytest.mark.parametrize("hand", ["8S 8H AD", "8S AD 8H", "AD 8S 8H"])
def test_a_pair_of_another_rank_than_the_retourne_is_the_point(hand: str) -> None:
    assert value(hand, "9C") == POINT_VALUE
    assert not value(hand, "9C").is_brelan


def test_teaching_card_two_personal_cards_plus_the_retourne_make_no_brelan() -> None:
    for order in permutations(cards("9H 9D KS")):
        assert classify(list(order), parse_card("9S"), PAGAT) == POINT_VALUE


def test_three_different_ranks_are_the_point() -> None:
    assert value("AS KS QS", "AH") == POINT_VALUE
    assert value("AS KS QS", "AH").describe() == "no brelan"


def test_a_table_that_plays_the_point_alone_sees_no_brelan() -> None:
    assert value("9S 9H 9D", "9C", NO_BRELANS) == POINT_VALUE
    assert value("AS AH AD", "KC", NO_BRELANS) == POINT_VALUE


# --- the order of the kinds ---------------------------------------------------------------


def key(hand: str, retourne: str, rules: Hands = FOSTER) -> tuple[int, int]:
    return value(hand, retourne, rules).key


def test_three_aces_the_highest_brelan_and_three_eights_the_lowest() -> None:
    keys = [key(f"{r}S {r}H {r}D", "7C", with_(FOSTER, carre=False)) for r in RANKS]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(RANKS)


def test_the_carre_beats_every_simple_brelan() -> None:
    assert key("8S 8H 8D", "8C") > key("AS AH AD", "KC")


def test_foster_the_brelan_of_queens_beats_the_favori_of_eights() -> None:
    """Foster: "The retourne is an eight; a brelan of Queens is shown, and wins the pool.
    Another player holds a pair of eights, and claims brelan favori." (favori below-simple)"""
    assert key("QS QH QD", "8C") > key("8S 8H AD", "8C")
    # below every simple brelan, however high the favori's rank
    assert key("8S 8H 8D", "AC") > key("AS AH KD", "AC")


def test_favori_by_rank_ranks_with_the_simple_brelans() -> None:
    by_rank = with_(FOSTER, favori="by-rank")
    assert key("KS KH AD", "KC", by_rank) > key("QS QH QD", "8C", by_rank)
    assert key("AS AH AD", "8C", by_rank) > key("KS KH AD", "KC", by_rank)
    assert key("9S 9H 9D", "9C", by_rank) > key("AS AH KD", "AC", by_rank)


def test_favori_above_simple_beats_every_simple_brelan_but_not_the_carre() -> None:
    above = with_(FOSTER, favori="above-simple")
    assert key("8S 8H AD", "8C", above) > key("AS AH AD", "KC", above)
    assert key("8S 8H 8D", "8C", above) > key("AS AH KD", "AC", above)


def test_any_brelan_beats_the_point() -> None:
    for favori in ("below-simple", "by-rank", "above-simple"):
        rules = with_(FOSTER, favori=favori)
        assert key("8S 8H AD", "8C", rules) > key("AS KS QS", "AH", rules)
    assert key("8S 8H 8D", "AC", PAGAT) > POINT_VALUE.key


def test_tiers_place_the_favori_as_the_profile_says() -> None:
    brelan = tier_of(Kind.BRELAN, FOSTER)
    assert tier_of(Kind.FAVORI, with_(FOSTER, favori="below-simple")) < brelan
    assert tier_of(Kind.FAVORI, with_(FOSTER, favori="by-rank")) == brelan
    assert tier_of(Kind.FAVORI, with_(FOSTER, favori="above-simple")) > brelan
    assert tier_of(Kind.FAVORI, with_(FOSTER, favori="above-simple")) < tier_of(Kind.CARRE, FOSTER)
    assert POINT_VALUE.tier < tier_of(Kind.MISTIGRI, FOSTER) < tier_of(Kind.FAVORI, FOSTER)


def test_names_say_the_kind_and_the_rank() -> None:
    assert value("9S 9H 9D", "9C").describe() == "brelan carré of nines"
    assert value("AS AH AD", "KC").describe() == "brelan of aces"
    assert value("8S 8H AD", "8C").describe() == "brelan favori of eights"


# --- the shortcut: the same answer whatever the order of the cards ----------------------

PACK = [parse_card(r + s) for r in ("A", "K", "Q", "J", "10", "9", "8") for s in SUITS]


def expected_by_the_words(hand: list[Card], retourne: Card, rules: Hands) -> tuple[Kind, int]:
    """The kind, read straight off Foster's definitions (and the profile's switches)."""
    ranks = sorted(c >> 2 for c in hand)
    turned = retourne >> 2
    if ranks[0] == ranks[2]:
        if rules.carre and ranks[0] == turned:
            return Kind.CARRE, turned
        return Kind.BRELAN, ranks[0]
    pairs = [r for r in set(ranks) if ranks.count(r) == 2]
    if pairs and pairs[0] == turned and rules.favori != "none":
        return Kind.FAVORI, turned
    return Kind.POINT, -1


@settings(deadline=None)  # mutmut's trampolines slow every call down
@given(
    deal=st.permutations(PACK).map(lambda p: (p[:3], p[3])),
    favori=st.sampled_from(["none", "below-simple", "by-rank", "above-simple"]),
    carre=st.booleans(),
)
def test_a_hand_ranks_the_same_in_every_order_of_its_cards(
    deal: tuple[list[Card], Card], favori: str, carre: bool
) -> None:
    hand, retourne = deal
    rules = with_(FOSTER, favori=favori, carre=carre)
    want = expected_by_the_words(hand, retourne, rules)
    for order in permutations(hand):
        got = classify(list(order), retourne, rules)
        assert (got.kind, got.rank) == want
        assert got.tier == (0 if got.kind is Kind.POINT else tier_of(got.kind, rules))
        assert classify_three(list(order), retourne, rules) == classify_any(
            list(order), retourne, rules
        )


def test_every_pair_against_the_retourne_in_every_place() -> None:
    """The shortcut reads the cards by position: a pair held first and second, first and
    third, or second and third, of every rank, makes the favori with a retourne of its
    rank (and a pair of another rank makes nothing)."""
    for r in range(7):
        other = (r + 1) % 7
        pair = [r << 2, r << 2 | 1]
        odd = other << 2
        for hand in ([*pair, odd], [pair[0], odd, pair[1]], [odd, *pair]):
            got = classify_three(hand, r << 2 | 3, FOSTER)
            assert (got.kind, got.rank) == (Kind.FAVORI, r)
            assert classify_three(hand, other << 2 | 3, FOSTER) == POINT_VALUE


# --- the other meanings of favori and carré (the older systems) ------------------------


def test_academie_the_declared_rank_is_the_favori() -> None:
    """Académie 1740: "le Brelan qu'on a déclaré au commencement du jeu"."""
    declared = value("KS KH KD", "9C", ACADEMIE, declared=rank("K"))
    assert (declared.kind, declared.rank) == (Kind.FAVORI, rank("K"))
    assert value("KS KH KD", "9C", ACADEMIE, declared=rank("Q")).kind is Kind.BRELAN
    assert value("KS KH KD", "9C", ACADEMIE).kind is Kind.BRELAN
    # a pair with the retourne is no favori in this meaning
    assert value("KS KH 9D", "KC", ACADEMIE, declared=rank("K")) == POINT_VALUE
    # the carré (three and the retourne) stays a carré even of the declared rank
    assert value("KS KH KD", "KC", ACADEMIE, declared=rank("K")).kind is Kind.CARRE


def test_pierer_a_brelan_held_from_the_deal_is_the_favori() -> None:
    """Pierer: "ein B. gleich von Haus aus, B. favori (gebornes B.)"."""
    born = value("QS QH QD", "9C", PIERER, dealt=cards("QS QH QD"))
    assert (born.kind, born.rank) == (Kind.FAVORI, rank("Q"))
    drawn = value("QS QH QD", "9C", PIERER, dealt=cards("QS QH 8D"))
    assert (drawn.kind, drawn.rank) == (Kind.BRELAN, rank("Q"))
    # by default the hand itself is the hand as dealt
    assert value("QS QH QD", "9C", PIERER).kind is Kind.FAVORI
    assert value("QS QH 9D", "QC", PIERER) == POINT_VALUE


def test_pierer_the_carre_is_four_in_hand_with_the_fourth_bought() -> None:
    """Pierer: "Zu 3 gleichen Karten [...] die 4. zugekauft, heißt; B carré"."""
    four = value("KS KH KD KC", "9S", PIERER)
    assert (four.kind, four.rank) == (Kind.CARRE, rank("K"))
    # three in hand and the fourth turned up is no carré under this meaning
    assert value("KS KH KD", "KC", PIERER, dealt=cards("KS KH 9D")).kind is Kind.BRELAN
    # and four in hand are no carré where the carré is made with the retourne
    assert value("KS KH KD KC", "9S", FOSTER).kind is Kind.BRELAN
    # without the carré, the four held from the deal are the favori
    no_carre = with_(PIERER, carre=False)
    assert value("KS KH KD KC", "9S", no_carre).kind is Kind.FAVORI


def test_littre_brelan_mignon_two_aces_a_king_and_the_ace_of_his_suit() -> None:
    """Littré: "deux as et un roi dans la main, l'as de retourne est de la couleur de son
    roi". With Foster's favori it ranks and is paid as the favori of aces; without the
    favori it is a simple brelan of aces (the profile field's docstring)."""
    mignon = with_(FOSTER, mignon=True)
    got = value("AS AH KD", "AD", mignon)
    assert (got.kind, got.rank, got.name) == (Kind.FAVORI, 0, "brelan mignon")
    assert got.describe() == "brelan mignon (brelan favori of aces)"
    # the ace turned up of another suit than the king: a plain favori of aces
    plain = value("AS AH KD", "AC", mignon)
    assert (plain.kind, plain.name) == (Kind.FAVORI, None)
    # no ace turned up: nothing
    assert value("AS AH KD", "KC", mignon) == POINT_VALUE
    # without the favori the mignon is a simple brelan of aces
    alone = value("AS AH KD", "AD", with_(PAGAT, mignon=True))
    assert (alone.kind, alone.rank, alone.name) == (Kind.BRELAN, 0, "brelan mignon")
    declared = with_(ACADEMIE, mignon=True)
    assert value("AS AH KD", "AD", declared).kind is Kind.BRELAN
    # not recognised: the same cards are a plain favori
    assert value("AS AH KD", "AD").name is None


def test_mistigri_with_a_pair_is_a_brelan_below_every_ordinary_brelan() -> None:
    """pagat's Mistigri variation: the QC with a pair in hand, below every brelan."""
    for hand in ("QC 9S 9H", "9S QC 9H", "9S 9H QC"):
        got = value(hand, "AD", MISTIGRI)
        assert (got.kind, got.rank) == (Kind.MISTIGRI, rank("9"))
        assert got.is_brelan
    assert key("QC 9S 9H", "AD", MISTIGRI) < key("8S 8H 8D", "AD", MISTIGRI)
    assert key("QC 9S 9H", "AD", MISTIGRI) > POINT_VALUE.key
    # the mistigri without a pair, or a pair without the mistigri, is the point
    assert value("QC 9S KH", "AD", MISTIGRI) == POINT_VALUE
    assert value("QH 9S 9H", "AD", MISTIGRI) == POINT_VALUE
    # three queens with the mistigri among them are a plain brelan of queens
    assert value("QC QS QH", "AD", MISTIGRI).kind is Kind.BRELAN
    # where the mistigri is not recognised the QC is an ordinary card
    assert value("QC 9S 9H", "AD", PAGAT) == POINT_VALUE


def test_mistigri_of_the_highest_pair_in_a_longer_hand() -> None:
    wild = with_(MISTIGRI, mistigri_card="8C")
    got = classify(cards("8C 9S 9H KS KH"), parse_card("AD"), wild)
    assert (got.kind, got.rank) == (Kind.MISTIGRI, rank("K"))


def test_the_best_of_several_brelans_in_a_longer_hand() -> None:
    got = classify(cards("9S 9H 9D KS KH KD"), parse_card("7C"), FOSTER)
    assert (got.kind, got.rank) == (Kind.BRELAN, rank("K"))
    got = classify(cards("KS KH KD 9S 9H 9D"), parse_card("9C"), FOSTER)
    assert (got.kind, got.rank) == (Kind.CARRE, rank("9"))


# --- triplets on a misdeal, and cards of a suit ------------------------------------------


def test_triplets_are_three_of_a_rank_held() -> None:
    assert triplets(cards("9S 9H 9D")) == rank("9")
    assert triplets(cards("9S 9H KD")) is None
    assert triplets(cards("KS KH KD KC")) == rank("K")
    assert triplets(cards("9S 9H 9D KS KH KD")) == rank("K")


def test_suit_cards_are_the_cards_of_that_suit() -> None:
    hand = cards("AS KH QS 9D")
    assert suit_cards(hand, SUITS.index("S")) == cards("AS QS")
    assert suit_cards(hand, SUITS.index("C")) == []


def test_a_hand_of_four_is_read_whole() -> None:
    """After a draw a hand may hold four cards: a pair in the last two places still unites
    with the retourne."""
    got = classify(cards("9S 8H KS KH"), parse_card("KD"), FOSTER)
    assert (got.kind, got.rank) == (Kind.FAVORI, rank("K"))


def test_a_bought_fourth_carre_needs_four_in_hand_even_with_foster_favori() -> None:
    bought = with_(FOSTER, carre_made_with="a-bought-fourth")
    assert value("KS KH KD", "KC", bought).kind is Kind.BRELAN
    assert value("KS KH KD KC", "9C", bought).kind is Kind.CARRE


def test_no_favori_where_the_profile_has_none_whatever_its_meaning() -> None:
    """pagat (no favori), in its Mistigri variation: a pair with the retourne is nothing; a
    declared rank or a brelan held from the deal is a simple brelan."""
    assert value("9S 9H KD", "9C", MISTIGRI) == POINT_VALUE
    no_favori = with_(ACADEMIE, favori="none")
    assert value("KS KH KD", "9C", no_favori, declared=rank("K")).kind is Kind.BRELAN
    assert value("QS QH QD", "9C", with_(PIERER, favori="none")).kind is Kind.BRELAN
