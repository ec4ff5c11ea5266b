"""The showdown: Foster's card under the retourne, and each pool to its winner.

Foster, Rank of the Hands: "If any player holds a brelan, [three of a kind,] of a higher
denomination than the brelan carré, the player may turn up the card under the retourne,
and if this makes his hand a brelan carré also, he wins the pool." Calling for a Sight: A
all in for 35, B out, C and D in for 120; "The point is exactly even for clubs and spades,
40 in each. [...] A wins on account of his position, so clubs is the winning suit, and A
has the best card of it. [...] as D has a card of the winning suit, while C has not, D wins
the remainder of the pool." "If we transposed the club ace and spade ace, spades would be
the winning suit, because the elder hand, A, had the best card of it; but C would take the
remainder of the pool, because he held a spade, while D did not."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bouillotte.play.hands import HandValue, Kind
from bouillotte.play.point import Seating
from bouillotte.play.pots import Pot
from bouillotte.play.showdown import MissingCardError, award_pots, hand_values, rank_values
from bouillotte.rules.cards import RANKS, Card, parse_card, parse_cards
from bouillotte.rules.profile import Rules
from bouillotte.rules.profiles import Library

LIBRARY = Library()
FOSTER = LIBRARY.get("foster").rules
A, B, C, D = range(4)
NAMES = ["A", "B", "C", "D"]
D_DEALS = Seating(NAMES, [A, B, C, D], D)


def hands(*texts: str) -> list[list[Card]]:
    return [parse_cards(t.split()) for t in texts]


def changed(rules: Rules, group: str, **changes: object) -> Rules:
    part = getattr(rules, group).model_copy(update=changes)
    updated = rules.model_copy(update={group: part})
    assert isinstance(updated, Rules)
    return updated


# --- the card under the retourne ------------------------------------------------------

# C holds three nines and the nine of clubs is turned: a carré of nines. D holds three kings,
# a brelan "of a higher denomination than the brelan carré"; B three eights, a lower one.
CARRE_AND_KINGS = hands("AS QS AH", "8S 8H 8D", "9S 9H 9D", "KS KH KD")
NINE = parse_card("9C")


def test_the_card_under_the_retourne_completes_the_higher_carre() -> None:
    values, note = hand_values(CARRE_AND_KINGS, NINE, parse_card("KC"), [B, C, D], FOSTER)
    assert (values[D].kind, values[D].rank) == (Kind.CARRE, RANKS.index("K"))
    assert values[D].key > values[C].key
    assert note == "the card under the retourne, KC, completes a higher brelan carré"
    # the lower brelan of eights is not helped
    assert values[B].kind is Kind.BRELAN


def test_the_card_under_the_retourne_that_completes_nothing() -> None:
    values, note = hand_values(CARRE_AND_KINGS, NINE, parse_card("8C"), [B, C, D], FOSTER)
    assert note == "the card under the retourne, 8C, completes nothing"
    assert values[D].kind is Kind.BRELAN
    assert values[B].kind is Kind.BRELAN  # the eights are below the carré: not turned for
    assert values[C].key > values[D].key


def test_the_card_is_turned_only_for_a_brelan_above_the_carre_of_a_player_still_in() -> None:
    # only the lower brelan of eights is in against the carré: nothing is turned
    values, note = hand_values(CARRE_AND_KINGS, NINE, parse_card("8C"), [B, C], FOSTER)
    assert note is None
    assert values[B].kind is Kind.BRELAN
    # the carré has passed out: nothing to beat, nothing turned (and no card needed)
    assert hand_values(CARRE_AND_KINGS, NINE, None, [B, D], FOSTER)[1] is None
    # no carré at all
    assert hand_values(CARRE_AND_KINGS, parse_card("AC"), None, [B, C, D], FOSTER)[1] is None


def test_a_needed_card_under_the_retourne_must_be_given() -> None:
    with pytest.raises(MissingCardError) as caught:
        hand_values(CARRE_AND_KINGS, NINE, None, [B, C, D], FOSTER)
    assert caught.value.message == (
        "a player holds a brelan higher than the brelan carré, so the card under the "
        "retourne must be turned (hands.card_under_retourne), but the deal does not give "
        "it: add 'under_retourne:' to the scenario"
    )
    assert caught.value.path == ("under_retourne",)


def test_without_the_rule_the_card_under_the_retourne_is_never_turned() -> None:
    pagat = LIBRARY.get("pagat").rules
    values, note = hand_values(CARRE_AND_KINGS, NINE, parse_card("KC"), [B, C, D], pagat)
    assert note is None
    assert (values[C].kind, values[D].kind) == (Kind.CARRE, Kind.BRELAN)


def test_the_declared_rank_and_the_dealt_hands_reach_every_seat() -> None:
    academie = LIBRARY.get("brelan-18th-century").rules
    values, _ = hand_values(
        CARRE_AND_KINGS, parse_card("AC"), None, [B, C, D], academie, declared=RANKS.index("K")
    )
    assert [v.kind for v in values] == [Kind.POINT, Kind.BRELAN, Kind.BRELAN, Kind.FAVORI]
    pierer = LIBRARY.get("brelan-pierer").rules
    dealt = hands("AS QS AH", "8S 8H 9C", "9S 9H 9D", "KS KH KD")
    values, _ = hand_values(CARRE_AND_KINGS, parse_card("AC"), None, [B, C, D], pierer, dealt=dealt)
    assert [v.kind for v in values] == [Kind.POINT, Kind.BRELAN, Kind.FAVORI, Kind.FAVORI]


# --- awarding the pools ---------------------------------------------------------------

# Foster's sight, with hands of our own: the retourne is the eight of hearts. Clubs: AC QC
# (A) + 9C (B) + KC (D) = 11+10+9+10 = 40. Spades: 9S (B) + AS KS QS (C) = 9+31 = 40.
# Hearts: QH (B) + AH KH (D) + 8H = 10+21+8 = 39. Diamonds: 8D (A) = 8. No brelan (B's two
# nines do not match the retourne). A owns clubs (AC), C spades (AS), D hearts (AH). D deals:
# the tie goes to the dealer, else to A, nearest his right.
SIGHT = hands("AC QC 8D", "9C 9S QH", "AS KS QS", "KC AH KH")
EIGHT_OF_HEARTS = parse_card("8H")
SIGHT_POTS = [Pot(105, (A, C, D)), Pot(170, (C, D))]


def award(
    cards: list[list[Card]],
    retourne: Card,
    pots: list[Pot],
    rules: Rules = FOSTER,
    under: Card | None = None,
    **kw: object,
) -> list[tuple[int, str]]:
    values, _ = hand_values(cards, retourne, under, [A, B, C, D], rules)
    got = award_pots(pots, cards, retourne, values, rules, D_DEALS, **kw)  # type: ignore[arg-type]
    assert [a.pot for a in got] == pots
    return [(a.winner, a.reason) for a in got]


def test_foster_sight_a_takes_the_main_pool_and_d_the_remainder() -> None:
    assert award(SIGHT, EIGHT_OF_HEARTS, SIGHT_POTS) == [
        (A, "point: clubs 40 ties spades 40; A is nearest the dealer's right"),
        (D, "clubs, the suit that won the main pool, cannot lose: D holds KC"),
    ]


def test_foster_sight_with_the_aces_transposed_c_takes_the_remainder() -> None:
    transposed = hands("AS QC 8D", "9C 9S QH", "AC KS QS", "KC AH KH")
    assert award(transposed, EIGHT_OF_HEARTS, SIGHT_POTS) == [
        (A, "point: spades 40 ties clubs 40; A is nearest the dealer's right"),
        (C, "spades, the suit that won the main pool, cannot lose: C holds KS"),
    ]


def test_without_the_winning_suit_rule_the_side_pool_goes_by_its_own_point() -> None:
    """Between C and D alone: spades 40 (C's AS) tie clubs 40 (D's KC, the best club among
    them); D is the dealer, who wins ties under Foster's words."""
    own = changed(FOSTER, "point", side_pots_by_winning_suit=False)
    assert award(SIGHT, EIGHT_OF_HEARTS, SIGHT_POTS, own)[1] == (
        D,
        "point: clubs 40 ties spades 40; D is the dealer, who wins ties",
    )


def test_a_side_pool_none_of_whose_players_holds_the_winning_suit_goes_by_its_point() -> None:
    """Clubs won the main pool (A). A side pool of B and C: C holds no club, B the 9C: B.
    Then with D's KC given to B (B: KC 9C QH, D: 9S AH KH), a main pool of A, B and C to A
    (clubs); a side pool of C and D, neither holding a club, goes by its own point: clubs
    are dead there (no club held by C or D), spades 40 to C."""
    pots = [Pot(105, (A, C, D)), Pot(50, (B, C))]
    got = award(SIGHT, EIGHT_OF_HEARTS, pots)
    assert got[1] == (B, "clubs, the suit that won the main pool, cannot lose: B holds 9C")
    # a side pool of C alone against nobody holding a club: it is decided on its own point
    spades_only = hands("AC QC 8D", "KC 9C QH", "AS KS QS", "9S AH KH")
    pots = [Pot(105, (A, B, C)), Pot(50, (C, D))]
    got = award(spades_only, EIGHT_OF_HEARTS, pots)
    assert got[0] == (A, "point: clubs 40 ties spades 40; A is nearest the dealer's right")
    assert got[1] == (
        C,
        "point: spades 40, best card held by C; clubs 40 cannot win (no player still in holds one)",
    )


def test_an_uncontested_pool_and_the_best_brelan() -> None:
    values_hands = hands("AS QS AH", "8S 8H 8D", "9S 9H 9D", "KS KH KD")
    pots = [Pot(40, (A, B, C, D)), Pot(20, (C, D)), Pot(10, (D,))]
    assert award(values_hands, parse_card("AC"), pots) == [
        (D, "brelan of kings (D)"),
        (D, "brelan of kings (D)"),
        (D, "uncontested"),
    ]


def test_a_brelan_beats_any_point_and_the_carre_beats_a_higher_brelan() -> None:
    cards = hands("AS KS QS", "8S 8H 8D", "AH KH QH", "9S 9H AD")
    assert award(cards, parse_card("AC"), [Pot(40, (A, B, C, D))]) == [(B, "brelan of eights (B)")]
    assert award(cards, parse_card("9C"), [Pot(40, (B, C, D))]) == [
        (B, "brelan of eights (B)")  # below-simple: the favori of nines loses to the eights
    ]
    cards = hands("AS AH AD", "8S 8H 8D", "KH QH 9H", "KS QS 9S")
    assert award(cards, parse_card("8C"), [Pot(40, (A, B, C, D))], under=parse_card("KC")) == [
        (B, "brelan carré of eights (B)")
    ]
    assert award(cards, parse_card("8C"), [Pot(40, (A, B, C, D))], under=parse_card("AC")) == [
        (A, "brelan carré of aces (A)")
    ]


# When a brelan takes the main pool and the side pool goes to the point: A (all in) shows
# three nines; B passed out with AS KS QS; C holds AC 8S 8H, D KD QD 8D; the retourne QH.
# Counting B's hand: spades 31 + 9S 9 + 8S 8 = 48, owned among C and D by C (8S): C.
# Leaving B's hand hidden: spades 9 + 8 = 17, hearts 9H 9 + 8H 8 + QH 10 = 27, diamonds
# 9D 9 + KD QD 8D 28 = 37 (D), clubs AC 11: D.
FOLDED = hands("9S 9H 9D", "AS KS QS", "AC 8S 8H", "KD QD 8D")
QUEEN_OF_HEARTS = parse_card("QH")
FOLDED_POTS = [Pot(60, (A, C, D)), Pot(40, (C, D))]


def test_folded_hands_shown_and_counted_in_a_side_pool() -> None:
    got = award(FOLDED, QUEEN_OF_HEARTS, FOLDED_POTS, shown=[A, C, D])
    assert got == [(A, "brelan of nines (A)"), (C, "point: spades 48, best card held by C")]


def test_folded_hands_not_shown_when_a_brelan_was_shown() -> None:
    hidden = changed(FOSTER, "point", folded_hands_in_side_pools="not-shown")
    got = award(FOLDED, QUEEN_OF_HEARTS, FOLDED_POTS, hidden, shown=[A, C, D])
    assert got[1] == (D, "point: diamonds 37, best card held by D")
    # without a list of hands shown, every hand counts
    assert award(FOLDED, QUEEN_OF_HEARTS, FOLDED_POTS, hidden)[1][0] == C
    # and with no brelan among the hands shown, every hand is shown
    got = award(FOLDED, QUEEN_OF_HEARTS, [Pot(40, (C, D))], hidden, shown=[C, D])
    assert got == [(C, "point: spades 48, best card held by C")]


def test_no_suit_wins_a_whole_hand_point_so_side_pools_stand_alone() -> None:
    """Britannica's whole hand: A AC QC 8D 11+10+8 = 29, B 9C 9S QH 9+9+10 = 28, C AS KS QS
    31, D KC AH KH 10+11+10 = 31. The main pool (B, C, D): C and D tie at 31 and D is the
    dealer; the side pool (A, B) goes by its own count, A 29 against B 28."""
    whole = LIBRARY.get("britannica-1911").rules
    got = award(SIGHT, EIGHT_OF_HEARTS, [Pot(90, (B, C, D)), Pot(40, (A, B))], whole)
    assert got == [
        (D, "point: C, D tie at 31 pips; D is the dealer, who wins ties"),
        (A, "point: A's hand holds 29 pips"),
    ]


def test_rank_values_follow_the_profile_table() -> None:
    assert rank_values(FOSTER) == [11, 10, 10, 10, 10, 9, 8, 7]
    pagat = LIBRARY.get("pagat").rules
    assert rank_values(pagat)[:3] == [11, 10, 10]


# Four pools. The retourne 9S; A: AS KS QS, so spades 11+10+10+9 = 40 and A alone holds
# spades. B: AH 8H 8D; C: AC KC 9D; D: KH QC 9H. Hearts 11+8+10+9 = 38, clubs 11+10+10 = 31,
# diamonds 8+9 = 17. No brelan (B's eights do not match the retourne).
FOUR = hands("AS KS QS", "AH 8H 8D", "AC KC 9D", "KH QC 9H")
FOUR_POTS = [Pot(40, (A, B, C, D)), Pot(30, (B, C, D)), Pot(20, (C, D)), Pot(10, (D,))]


def test_only_the_main_pools_suit_cannot_lose() -> None:
    """Spades win the main pool (A). No later pool's players hold a spade, so each goes by
    its own point: hearts 38 to B (AH) among B, C, D; hearts 38 to D (KH) among C and D, by
    the point and not as "the suit that won" (hearts won only a side pool); D alone last."""
    dead = "; spades 40 cannot win (no player still in holds one)"
    assert award(FOUR, parse_card("9S"), FOUR_POTS) == [
        (A, "point: spades 40, best card held by A"),
        (B, "point: hearts 38, best card held by B" + dead),
        (D, "point: hearts 38, best card held by D" + dead),
        (D, "uncontested"),
    ]


def test_a_rank_the_profile_gives_no_value_counts_nothing() -> None:
    table = FOSTER.table.model_copy(update={"point_values": {"A": 11, "K": 10}})
    rules = FOSTER.model_copy(update={"table": table})
    assert isinstance(rules, Rules)
    assert rank_values(rules) == [11, 10, 0, 0, 0, 0, 0, 0]


BRELANS = st.builds(
    lambda tier, rank: HandValue(Kind.BRELAN, rank, tier),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=0, max_value=2),
)


@given(
    st.lists(BRELANS, min_size=4, max_size=4),
    st.lists(st.sampled_from([A, B, C, D]), min_size=2, max_size=4, unique=True),
    st.permutations([A, B, C, D]),
)
def test_a_pool_goes_to_the_best_brelan_and_between_equals_to_the_first_to_speak(
    values: list[HandValue], contenders: list[int], order: list[int]
) -> None:
    """The best brelan by its tier, then its rank (0 is the ace); between equal brelans,
    the contender first in speaking order: as ``max`` with that key finds it."""
    seating = Seating(NAMES, order, order[-1])
    cards = hands("AS QS AH", "8S 8H 8D", "9S 9H 9D", "KS KH KD")  # the values given decide
    pot = Pot(60, tuple(contenders))
    (got,) = award_pots([pot], cards, parse_card("AC"), values, FOSTER, seating)
    expected = max(contenders, key=lambda s: (values[s].key, -order.index(s)))
    assert got.winner == expected
