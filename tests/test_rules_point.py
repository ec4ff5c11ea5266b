"""The point: which suit wins and who owns it, rule by rule.

Foster, The Point: "The pips in each suit are then counted, the ace reckoning for 11, court
cards for 10 each, and the 9 and 8 at their face value. Whichever suit has the greatest
number of pips is called the suit that wins, and the player who holds the highest card of
it takes the pool; provided, of course, that he was one of those who backed his hand until
the last call." His example: spades win on the count, "but neither C nor D has a spade, and
as neither A nor B is in the call, the spade suit cannot win anything"; D's 40 beats C's 38;
"A would have won the pool if he had backed his hand". Ties: "In case of ties, the dealer,
or the player nearest him on the right wins." The hands below are built for each rule and
every count is added up by hand in the docstring.
"""

from __future__ import annotations

from bouillotte.play.point import (
    NO_SUIT,
    Seating,
    best_holder_of,
    decide_by_point,
    suit_totals,
)
from bouillotte.play.showdown import rank_values
from bouillotte.rules.cards import SUITS, Card, parse_card, parse_cards
from bouillotte.rules.profile import Point
from bouillotte.rules.profiles import Library

LIBRARY = Library()
FOSTER_RULES = LIBRARY.get("foster").rules
FOSTER = FOSTER_RULES.point
VALUES = rank_values(FOSTER_RULES)  # A 11, K Q J 10 10, 9 9, 8 8, 7 7
A, B, C, D = range(4)
NAMES = ["A", "B", "C", "D"]
S, H, DI, CL = (SUITS.index(s) for s in "SHDC")
# D deals; the word goes right: A, B, C, then D
D_DEALS = Seating(NAMES, [A, B, C, D], D)
# C deals: D, A, B, then C
C_DEALS = Seating(NAMES, [D, A, B, C], C)


def hands(*texts: str) -> list[list[Card]]:
    return [parse_cards(t.split()) for t in texts]


def rule(**changes: object) -> Point:
    updated = FOSTER.model_copy(update=changes)
    assert isinstance(updated, Point)
    return updated


def test_the_pips_are_ace_11_courts_10_and_the_nine_and_eight_at_face() -> None:
    assert VALUES == [11, 10, 10, 10, 10, 9, 8, 7]


# Foster's first example, with hands of our own that fit every sentence of it. The retourne
# is the eight of hearts. Spades: AS KS 9S (A) + QS 8S (B) = 11+10+9+10+8 = 48. Clubs:
# AC KC 9C (D) + QC (B) = 11+10+9+10 = 40. Hearts: AH KH 9H (C) + the retourne 8H = 38.
# Diamonds: none.
EXAMPLE = hands("AS KS 9S", "QS 8S QC", "AH KH 9H", "AC KC 9C")
EIGHT_OF_HEARTS = parse_card("8H")


def test_suit_totals_count_every_hand_and_the_retourne() -> None:
    totals = suit_totals(EXAMPLE, EIGHT_OF_HEARTS, VALUES)
    assert totals[S] == 48
    assert totals[CL] == 40
    assert totals[H] == 38
    assert totals[DI] == 0


def test_foster_spades_cannot_win_and_d_wins_with_clubs_40() -> None:
    got = decide_by_point([C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, FOSTER, D_DEALS)
    assert (got.winner, got.suit) == (D, CL)
    assert got.reason == (
        "point: clubs 40, best card held by D; spades 48 cannot win (no player still in holds one)"
    )


def test_foster_a_would_have_won_had_he_backed_his_hand() -> None:
    got = decide_by_point([A, C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, FOSTER, D_DEALS)
    assert (got.winner, got.suit, got.total) == (A, S, 48)
    assert got.reason == "point: spades 48, best card held by A"


def test_a_folded_hands_cards_count_for_the_best_card_among_those_in() -> None:
    """Foster: "his cards count for the player who has the highest card of the suit among
    those who backed their hands". B (in) holds QS 8S, A (out) the AS: spades 48 go to B."""
    got = decide_by_point([B, C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, FOSTER, D_DEALS)
    assert (got.winner, got.suit) == (B, S)


def test_best_card_of_all_hands_a_suit_whose_best_card_is_out_cannot_win() -> None:
    """The other reading: the owner is the holder of the best card of all, so with A out
    spades cannot win even though B is in with the QS; clubs 40 (D) beat hearts 38 (C)."""
    strict = rule(suit_owner="best-card-of-all-hands")
    got = decide_by_point([B, C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, strict, D_DEALS)
    assert (got.winner, got.suit) == (D, CL)
    assert got.reason == (
        "point: clubs 40, best card held by D; "
        "spades 48 cannot win (no player still in holds its best card)"
    )


def test_best_card_of_all_hands_when_every_best_card_is_out() -> None:
    """No source says who wins when every suit's best card lies in a folded hand: A (out)
    holds AS AH AD, D (out) AC. The suits then go to the best cards of B and C, who are
    in: spades AS 11 + 8S 8 (D) + KS 10 + QS 10 (B) = 39 to B's KS; hearts AH 11 + 9H 9 +
    8H 8 + KH 10 = 38 to C's KH; diamonds AD 11 + 9D 9 + the retourne 8D 8 = 28; clubs AC
    11 + 8C 8 = 19. Spades 39 win: B (once an engine error: max() of nothing)."""
    strict = rule(suit_owner="best-card-of-all-hands")
    dealt = hands("AS AH AD", "KS QS 8H", "KH 9D 8C", "AC 8S 9H")
    got = decide_by_point([B, C], dealt, parse_card("8D"), VALUES, strict, D_DEALS)
    assert (got.winner, got.suit) == (B, S)
    assert got.reason == (
        "point: spades 39, best card held by B; every suit's best card lies in a folded "
        "hand, so each suit goes to the best card of the players still in"
    )


def test_a_dead_suit_below_the_winning_count_is_not_mentioned() -> None:
    """B out with QS 8S QC, A in: spades 48 to A; no dead suit is as rich, none named."""
    got = decide_by_point([A, C], EXAMPLE, EIGHT_OF_HEARTS, VALUES, FOSTER, D_DEALS)
    assert got.reason == "point: spades 48, best card held by A"


# A tie of 40: spades AS KS (A) + QS 9S (B) = 11+10+10+9 = 40; clubs AC KC (C) + 9C (D) +
# the retourne QC = 11+10+9+10 = 40; hearts 9H (A) + 8H (B) + QH (D) = 27; diamonds 9D (C)
# + 8D (D) = 17. A owns spades, C clubs.
TIE = hands("AS KS 9H", "QS 9S 8H", "AC KC 9D", "9C 8D QH")
QUEEN_OF_CLUBS = parse_card("QC")


def test_tie_totals() -> None:
    assert suit_totals(TIE, QUEEN_OF_CLUBS, VALUES) == [40, 27, 17, 40]


def test_foster_tie_the_dealer_first_when_he_owns_a_tied_suit() -> None:
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, FOSTER, C_DEALS)
    assert (got.winner, got.suit) == (C, CL)
    assert got.reason == "point: clubs 40 ties spades 40; C is the dealer, who wins ties"


def test_foster_tie_else_the_player_nearest_the_dealers_right() -> None:
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, FOSTER, D_DEALS)
    assert (got.winner, got.suit) == (A, S)
    assert got.reason == "point: spades 40 ties clubs 40; A is nearest the dealer's right"


def test_eldest_first_puts_the_dealer_last() -> None:
    eldest = rule(suit_tie="eldest-first")
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, eldest, C_DEALS)
    assert (got.winner, got.suit) == (A, S)
    assert got.reason.endswith("; A is nearest the dealer's right")


def test_retourne_suit_wins_the_tie_else_eldest_first() -> None:
    by_retourne = rule(suit_tie="retourne-suit")
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, by_retourne, D_DEALS)
    assert (got.winner, got.suit) == (C, CL)
    assert got.reason == "point: clubs 40 ties spades 40; the retourne's suit (clubs) wins the tie"
    # clubs are out of the tie if C has dropped and no other player in holds a club but D
    # (9C): D owns clubs; still the retourne's suit
    got = decide_by_point([A, D], TIE, QUEEN_OF_CLUBS, VALUES, by_retourne, D_DEALS)
    assert (got.winner, got.suit) == (D, CL)


def test_best_holder_of_a_suit_among_some_seats() -> None:
    assert best_holder_of(TIE, [A, B, C, D], S) == (A, parse_card("AS"))
    assert best_holder_of(TIE, [B, C, D], S) == (B, parse_card("QS"))
    assert best_holder_of(TIE, [C], S) is None
    assert best_holder_of(TIE, [A, B], H) == (A, parse_card("9H"))


# --- each player's own hand ---------------------------------------------------------------


# A: AS KS 9H (spades 21, hearts 9); B: QS 9S 8H (spades 19, hearts 8); C: AC KC 9D (clubs
# 21, diamonds 9); D: 9C 8D QH (clubs 9, diamonds 8, hearts 10). Retourne QC.
def test_own_hand_each_counts_his_best_suit_alone() -> None:
    """A's spades 21 tie C's clubs 21 (B 19, D 10): with D dealing, A is nearest his right."""
    own = rule(counted_cards="own-hand", suit_tie="eldest-first")
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, own, D_DEALS)
    assert (got.winner, got.suit, got.total) == (A, S, 21)
    assert got.reason == "point: A spades, C clubs tie at 21; A is nearest the dealer's right"
    got = decide_by_point([B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, own, D_DEALS)
    assert (got.winner, got.suit, got.total) == (C, CL, 21)
    assert got.reason == "point: C's clubs 21 in hand is best"


def test_own_hand_and_retourne_adds_the_retourne_to_its_suit_if_held() -> None:
    """C's clubs 21 + the QC = 31 beat A's spades 21; D holds a club too, so his clubs
    count 9 + 10 = 19 (better than his hearts 10)."""
    with_retourne = rule(counted_cards="own-hand-and-retourne")
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, with_retourne, D_DEALS)
    assert (got.winner, got.suit) == (C, CL)
    assert got.reason == "point: C's clubs 31 in hand is best"
    # without C: A's spades 21 against D's clubs 9 + 10 = 19 and B's spades 19
    got = decide_by_point([A, B, D], TIE, QUEEN_OF_CLUBS, VALUES, with_retourne, D_DEALS)
    assert (got.winner, got.suit) == (A, S)
    # the retourne counts only for a player holding its suit: B and D without A and C
    got = decide_by_point([B, D], TIE, QUEEN_OF_CLUBS, VALUES, with_retourne, D_DEALS)
    assert (got.winner, got.suit) == (D, CL)


def test_whole_hand_counts_every_pip_whatever_the_suit() -> None:
    """Britannica's literal words: A 11+10+9 = 30, B 10+9+8 = 27, C 11+10+9 = 30, D 9+8+10
    = 27. A and C tie at 30; no suit wins."""
    whole = rule(counted_cards="whole-hand")
    got = decide_by_point([B, D], TIE, QUEEN_OF_CLUBS, VALUES, whole, D_DEALS)
    assert (got.winner, got.suit, got.total) == (D, NO_SUIT, 27)
    assert got.reason == "point: B, D tie at 27 pips; D is the dealer, who wins ties"
    got = decide_by_point([A, B], TIE, QUEEN_OF_CLUBS, VALUES, whole, D_DEALS)
    assert (got.winner, got.suit, got.total) == (A, NO_SUIT, 30)
    assert got.reason == "point: A's hand holds 30 pips"
    got = decide_by_point([A, C], TIE, QUEEN_OF_CLUBS, VALUES, whole, D_DEALS)
    assert (got.winner, got.reason) == (
        A,
        "point: A, C tie at 30 pips; A is nearest the dealer's right",
    )
    got = decide_by_point([A, C], TIE, QUEEN_OF_CLUBS, VALUES, whole, C_DEALS)
    assert (got.winner, got.reason) == (
        C,
        "point: A, C tie at 30 pips; C is the dealer, who wins ties",
    )
    eldest = rule(counted_cards="whole-hand", suit_tie="eldest-first")
    got = decide_by_point([A, C], TIE, QUEEN_OF_CLUBS, VALUES, eldest, C_DEALS)
    assert (got.winner, got.reason) == (
        A,
        "point: A, C tie at 30 pips; A is nearest the dealer's right",
    )


def test_encyclopedie_capture_the_higher_card_takes_the_lower_of_its_suit() -> None:
    """Encyclopédie: the cards in hand "emportent toutes les cartes inférieures de la même
    couleur". Among A, B and D: A's spades AS KS take B's QS 9S: 21 + 19 = 40; B's spades
    (top QS) take nothing of A's higher ones: 19; B's hearts 8H take nothing from A's 9H
    (higher) ... D's hearts QH take A's 9H and B's 8H: 10 + 9 + 8 = 27. A wins, 40."""
    capture = rule(counted_cards="own-hand-with-capture")
    got = decide_by_point([A, B, D], TIE, QUEEN_OF_CLUBS, VALUES, capture, D_DEALS)
    assert (got.winner, got.suit) == (A, S)
    assert got.reason == "point: A's spades 40 with the lower cards it takes is best"
    # D and B alone: D's hearts QH take B's 8H (18); B's spades 19 take nothing: B wins
    got = decide_by_point([B, D], TIE, QUEEN_OF_CLUBS, VALUES, capture, D_DEALS)
    assert (got.winner, got.suit) == (B, S)


def test_capture_leaves_the_cards_of_a_brelan_alone() -> None:
    """Except cards making up a brelan: B's three nines are not taken by A's 9-beating
    cards. A: AS KH QD (spades 11, hearts 10, diamonds 10); B: 9S 9H 9D. A takes nothing:
    his best is spades 11; B's spades 9 take nothing of A's (higher): B counts 9."""
    capture = rule(counted_cards="own-hand-with-capture")
    two = hands("AS KH QD", "9S 9H 9D")
    seating = Seating(["A", "B"], [A, B], B)
    got = decide_by_point([A, B], two, parse_card("8C"), VALUES, capture, seating)
    assert (got.winner, got.reason) == (
        A,
        "point: A's spades 11 with the lower cards it takes is best",
    )
    # a lone nine is taken: B holds 9S 9H 8D; A's spades take the 9S (11 + 9 = 20)
    two = hands("AS KH QD", "9S 9H 8D")
    got = decide_by_point([A, B], two, parse_card("8C"), VALUES, capture, seating)
    assert got.reason == "point: A's spades 20 with the lower cards it takes is best"


# --- the older Wikipedia: the richest suit's best card, else one's own pips ------------


def test_richest_suit_best_card_wins_if_its_holder_is_in() -> None:
    owner = rule(suit_owner="best-card-else-own-pips")
    got = decide_by_point([A, C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, owner, D_DEALS)
    assert (got.winner, got.suit, got.total) == (A, S, 48)
    assert got.reason == "point: spades 48, best card held by A"


def test_richest_suit_out_then_most_pips_in_another_suit() -> None:
    """Spades 48, best card (AS) A's, and A is out. C's best other suit: hearts AH KH 9H 30;
    D's: clubs AC KC 9C 30. They tie at 30: eldest first, C is nearer the dealer's (D's)
    right; Foster's tie rule puts the dealer, D, first."""
    eldest = rule(suit_owner="best-card-else-own-pips", suit_tie="eldest-first")
    got = decide_by_point([C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, eldest, D_DEALS)
    # the pool is won on the richest suit's count, spades 48, though by other pips
    assert (got.winner, got.suit, got.total) == (C, S, 48)
    assert got.reason == (
        "point: spades 48, but its best card is A's, out of the pool; "
        "C counts most in another suit (30); C is nearest the dealer's right"
    )
    dealer_first = rule(suit_owner="best-card-else-own-pips")
    got = decide_by_point([C, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, dealer_first, D_DEALS)
    assert (got.winner, got.suit) == (D, S)
    assert got.reason.endswith("D counts most in another suit (30); D is the dealer, who wins ties")
    # B (QS 8S QC: clubs 10, his spades left out) against D (clubs 30): D alone, no tie to
    # win as the dealer
    got = decide_by_point([B, D], EXAMPLE, EIGHT_OF_HEARTS, VALUES, dealer_first, D_DEALS)
    assert got.reason == (
        "point: spades 48, but its best card is A's, out of the pool; "
        "D counts most in another suit (30)"
    )
    # B (QS 8S QC: clubs 10, his spades left out) against C (hearts 30): C, no tie
    got = decide_by_point([B, C], EXAMPLE, EIGHT_OF_HEARTS, VALUES, dealer_first, D_DEALS)
    assert got.reason == (
        "point: spades 48, but its best card is A's, out of the pool; "
        "C counts most in another suit (30)"
    )


def test_richest_suit_out_its_cards_do_not_count_in_the_fallback() -> None:
    """The fallback counts "the greatest face value of cards in any other suit": the
    richest suit is left out. Spades AS KS (A) + QS 9S 8S (C) = 48, hearts AH KH (B) + the
    retourne QH = 31, clubs AC KC (D) + 8C (B) = 29, diamonds 9D (A) + 8D (D) = 17. Spades
    are richest; their ace is A's, and A is out. C holds only spades, 27 of them, and
    nothing in any other suit: 0. D's clubs AC KC make 21: D wins, though C's 27 in
    spades would beat him were the richest suit counted."""
    deal = hands("AS KS 9D", "AH KH 8C", "QS 9S 8S", "AC KC 8D")
    queen_of_hearts = parse_card("QH")
    assert suit_totals(deal, queen_of_hearts, VALUES) == [48, 31, 17, 29]
    owner = rule(suit_owner="best-card-else-own-pips", suit_tie="eldest-first")
    got = decide_by_point([C, D], deal, queen_of_hearts, VALUES, owner, D_DEALS)
    assert (got.winner, got.suit, got.total) == (D, S, 48)
    assert got.reason == (
        "point: spades 48, but its best card is A's, out of the pool; "
        "D counts most in another suit (21)"
    )


def test_richest_suits_tied_go_by_the_tie_rule_between_their_holders() -> None:
    """Spades 40 (AS: A) and clubs 40 (AC: C) tie as richest. With C dealing and the
    dealer first, clubs are the richest suit, and C holds its best card."""
    owner = rule(suit_owner="best-card-else-own-pips")
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, owner, C_DEALS)
    assert (got.winner, got.suit) == (C, CL)
    assert got.reason == "point: clubs 40, best card held by C"
    got = decide_by_point([A, B, C, D], TIE, QUEEN_OF_CLUBS, VALUES, owner, D_DEALS)
    assert (got.winner, got.suit) == (A, S)


def test_a_richest_suit_that_no_player_holds() -> None:
    """Hands of one card (the schema allows them): A the 8S, B the 9D, the retourne the AH.
    Hearts 11 are the richest suit and nobody holds a heart: each counts his own other
    suits, A 8, B 9: B."""
    owner = rule(suit_owner="best-card-else-own-pips")
    one = hands("8S", "9D")
    seating = Seating(["A", "B"], [A, B], B)
    got = decide_by_point([A, B], one, parse_card("AH"), VALUES, owner, seating)
    assert (got.winner, got.suit) == (B, H)
    assert got.reason == (
        "point: hearts 11, but no player holds it, out of the pool; B counts most in another "
        "suit (9)"
    )


def test_several_dead_suits_are_named_richest_first() -> None:
    """Best card of all hands. A (out): AH KH QH; B (out): AC KC QC; C: 9C 9S 8S; D: QS 9D
    KD; the retourne 8D. Clubs 31 + 9 = 40 (best card B's), hearts 31 (A's): both dead.
    Spades 9 + 8 + 10 = 27 and diamonds 9 + 10 + 8 = 27 are both D's: D, who is the dealer."""
    strict = rule(suit_owner="best-card-of-all-hands")
    cards = hands("AH KH QH", "AC KC QC", "9C 9S 8S", "QS 9D KD")
    got = decide_by_point([C, D], cards, parse_card("8D"), VALUES, strict, D_DEALS)
    assert (got.winner, got.suit) == (D, S)
    assert got.reason == (
        "point: spades 27 ties diamonds 27; D is the dealer, who wins ties"
        "; clubs 40 cannot win (no player still in holds its best card)"
        "; hearts 31 cannot win (no player still in holds its best card)"
    )


def test_a_best_total_in_two_suits_is_counted_in_the_retournes_for_the_tie() -> None:
    """CardRulesPlus: "Point hands use Ace=11, all others = 10; ties are broken by the
    retourné's suit." Retourne 9H. A holds KD QD 8C: diamonds 10+10 = 20. C holds KS QS QH:
    spades 10+10 = 20, and hearts QH with the retourne 9H, 10+10 = 20. A and C tie at 20;
    C's 20 stands in the retourne's suit (as well as in spades), A's does not: C wins."""
    rules = LIBRARY.get("cardrulesplus").rules
    values = rank_values(rules)  # A 11, every other card 10
    deal = hands("KD QD 8C", "9S 8S AD", "KS QS QH", "AC KC 8H")
    got = decide_by_point([A, C], deal, parse_card("9H"), values, rules.point, D_DEALS)
    assert (got.winner, got.suit, got.total) == (C, H, 20)
    assert got.reason == (
        "point: A diamonds, C hearts tie at 20; the retourne's suit (hearts) wins the tie"
    )
    # With the tie broken by position instead, C's 20 is counted in his first suit as
    # before, and the eldest, A, wins.
    eldest = rules.point.model_copy(update={"suit_tie": "eldest-first"})
    got = decide_by_point([A, C], deal, parse_card("9H"), values, eldest, D_DEALS)
    assert (got.winner, got.suit, got.total) == (A, DI, 20)
