"""The sources' worked examples, played from their cards and actions.

Each test is named after the statement of the source it checks; the numbers asserted are
the source's, and the engine must reach them from the cards and the betting alone.
"""

from __future__ import annotations

import pytest

from bouillotte.play.deal import IllegalAction
from bouillotte.play.events import Act, Ante, Blind, Privilege, Redeal, Return, Straddle
from bouillotte.rules.profiles import Library

from .dealkit import nets, play, pots, start

SIGHT_HANDS = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 9S", "D": "AH KH QC"}
SIGHT_CAVES = {"A": 35, "B": 60, "C": 120, "D": 185}
SIGHT_ACTIONS = ["A all-in", "B fold", "C raise 85", "D all-in", "C call"]


def test_sight_a_takes_105_and_d_the_remaining_170(library: Library) -> None:
    """Foster: "He therefore takes down 105 as his share of the pool, leaving 170 to be
    decided between C and D. [...] D wins the remainder of the pool." """
    deal = start(library.get("foster"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    outcome = play(deal, SIGHT_ACTIONS)
    assert pots(outcome) == [(105, "A"), (170, "D")]
    assert outcome.pots[0].contenders == ("A", "C", "D")
    returns = [e for e in outcome.events if isinstance(e, Return)]
    assert [(e.player, e.amount) for e in returns] == [("D", 65)]  # "his superfluous 65"
    assert outcome.players["C"].cave == 0  # "As it is, C is decavé"
    assert sum(nets(outcome).values()) == 0


def test_sight_clubs_and_spades_tie_at_40_and_a_wins_by_position(library: Library) -> None:
    deal = start(library.get("foster"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    outcome = play(deal, SIGHT_ACTIONS)
    reason = outcome.pots[0].reason
    assert "clubs 40 ties spades 40" in reason and "A" in reason


def test_sight_with_the_aces_transposed_c_takes_the_remainder(library: Library) -> None:
    """Foster: "If we transposed the club ace and spade ace, spades would be the winning
    suit, because the elder hand, A, had the best card of it; but C would take the
    remainder of the pool, because he held a spade, while D did not." """
    hands = dict(SIGHT_HANDS, A="AS KC 9C", C="AC QS 9S")
    outcome = play(start(library.get("foster"), hands, "9H", caves=SIGHT_CAVES), SIGHT_ACTIONS)
    assert pots(outcome) == [(105, "A"), (170, "C")]
    assert outcome.pots[0].reason.startswith("point: spades 40")


def test_sight_if_neither_held_the_winning_suit_c_would_win_on_his_better_point(
    library: Library,
) -> None:
    """Foster: "If neither C nor D had a card of the winning suit, C would win from D on
    account of his better point." D's club queen becomes the diamond queen."""
    hands = dict(SIGHT_HANDS, D="AH KH QD")
    outcome = play(start(library.get("foster"), hands, "9H", caves=SIGHT_CAVES), SIGHT_ACTIONS)
    assert pots(outcome)[1] == (170, "C")


def test_sight_pagat_refuses_the_all_in_opening_with_its_citation(library: Library) -> None:
    deal = start(library.get("pagat"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    with pytest.raises(IllegalAction) as caught:
        play(deal, SIGHT_ACTIONS)
    assert caught.value.rule == "betting.all_in_may_open_or_raise"
    assert "cannot open or raise" in caught.value.citation
    assert [str(a) for a in caught.value.legal] == ["pass", "bet 1-34", "fold"]


POINT_HANDS = {"A": "AS 9S 9C", "B": "KS QS 8S", "C": "AH KH 9H", "D": "AC KC QC"}


@pytest.mark.parametrize("a_club", ["9C", "QC", "KC", "AC"])
def test_point_spades_cannot_win_and_d_wins_with_clubs_40(library: Library, a_club: str) -> None:
    """Foster: "Spades are the winning suit: but neither C nor D has a spade [...] the spade
    suit cannot win anything. As between clubs and hearts, D's point is 40, and C's 38; so
    D wins the pool." A's club is illegible in the diagram: D wins whichever it is."""
    d_clubs = " ".join(c for c in ["AC", "KC", "QC", "9C"] if c != a_club)
    hands = dict(POINT_HANDS, A=f"AS 9S {a_club}", D=d_clubs)
    deal = start(library.get("foster"), hands, "8H")
    outcome = play(deal, ["A pass", "B pass", "C bet 10", "D call", "A fold", "B fold"])
    assert pots(outcome) == [(20, "D")]
    reason = outcome.pots[0].reason
    assert "clubs 40" in reason and "spades 48 cannot win" in reason


@pytest.mark.parametrize(("a_club", "winner"), [("9C", "D"), ("KC", "D"), ("QC", "D"), ("AC", "C")])
def test_point_under_the_older_wikipedia_reading_depends_on_the_illegible_club(
    library: Library, a_club: str, winner: str
) -> None:
    """Research notes §5.5: under the older English Wikipedia ("If he has [dropped], the
    winner is the player counting the greatest face value of cards in any other suit") D's
    own clubs are 31 (A holds 9C), 30 against C's hearts 30 (KC or QC: a tie, which Foster's
    dealer-first rule gives to D), or 29 (AC: C wins)."""
    variant = library.get("foster").with_values({"point.suit_owner": "best-card-else-own-pips"})
    d_clubs = " ".join(c for c in ["AC", "KC", "QC", "9C"] if c != a_club)
    hands = dict(POINT_HANDS, A=f"AS 9S {a_club}", D=d_clubs)
    outcome = play(
        start(variant, hands, "8H"), ["A pass", "B pass", "C bet 10", "D call", "A fold", "B fold"]
    )
    assert pots(outcome) == [(20, winner)]
    assert "counts most in another suit" in outcome.pots[0].reason


def test_point_a_would_have_won_had_he_backed_his_hand(library: Library) -> None:
    """Foster: "A would have won the pool if he had backed his hand, because he would have
    had the highest card of the winning suit." """
    deal = start(library.get("foster"), POINT_HANDS, "8H")
    outcome = play(
        deal,
        ["A pass", "B pass", "C bet 10", "D call", "A call", "B fold", "C no-more", "D no-more"],
    )
    assert pots(outcome) == [(30, "A")]


FAVORI_HANDS = {"A": "QS QH QD", "B": "8S 8H AC", "C": "KS 9S AD", "D": "KH 9H AH"}


def test_favori_not_paid_by_the_queens_but_paid_by_everyone_else(library: Library) -> None:
    """Foster: "The retourne is an eight; a brelan of Queens is shown, and wins the pool.
    Another player holds a pair of eights, and claims brelan favori. He does not pay the
    winning brelan, but receives one counter from its holder, and also from each of the
    other players." """
    deal = start(library.get("foster"), FAVORI_HANDS, "8D")
    outcome = play(
        deal,
        [
            "A bet 10",
            "B call",
            "C fold",
            "D fold",
        ],
    )
    assert pots(outcome) == [(25, "A")]
    paid = sorted((b.payer, b.payee, b.amount) for b in outcome.bonuses)
    # The queens are paid by the players without a brelan (C, D); the favori by all three.
    assert paid == [
        ("A", "B", 1),
        ("C", "A", 1),
        ("C", "B", 1),
        ("D", "A", 1),
        ("D", "B", 1),
    ]
    assert not any(b.payer == "B" and b.payee == "A" for b in outcome.bonuses)


def test_favori_winning_the_pool_is_paid_two_by_each_player(library: Library) -> None:
    """Foster: "If the brelan favori wins the pool, it is paid two counters by each player." """
    hands = dict(FAVORI_HANDS, A="QS KD QD")
    outcome = play(
        start(library.get("foster"), hands, "8D"), ["A bet 10", "B call", "C fold", "D fold"]
    )
    assert pots(outcome) == [(25, "B")]
    assert sorted((b.payer, b.amount) for b in outcome.bonuses) == [
        ("A", 2),
        ("C", 2),
        ("D", 2),
    ]


def test_two_simple_brelans_are_both_paid_by_the_other_two(library: Library) -> None:
    """Foster: "If two simple brelans are shown, the higher wins the pool; but both must be
    paid by each of the other two players, who did not hold brelans." """
    hands = {"A": "KS KH KD", "B": "9S 9H 9D", "C": "AS QS 8S", "D": "AH QH 8H"}
    outcome = play(
        start(library.get("foster"), hands, "AC"), ["A bet 10", "B call", "C fold", "D fold"]
    )
    assert pots(outcome) == [(25, "A")]
    assert sorted((b.payer, b.payee) for b in outcome.bonuses) == [
        ("C", "A"),
        ("C", "B"),
        ("D", "A"),
        ("D", "B"),
    ]


def test_c_decave_with_a_brelan_keeps_the_one_counter_b_pays_him(library: Library) -> None:
    """Foster: "If C had lost this pool with a brelan in his hand, he would not be decavé;
    because [...] B, who had passed out, would have to pay him for the brelan, and with this
    one white counter he would have to call for a sight in the next pool he entered." """
    hands = {"A": "AS AH AD", "B": "QS 9D 8D", "C": "9S 9H 9C", "D": "KS KH KD"}
    deal = start(library.get("foster"), hands, "QH", caves=SIGHT_CAVES)
    outcome = play(deal, SIGHT_ACTIONS)
    assert pots(outcome) == [(105, "A"), (170, "D")]
    assert outcome.players["C"].cave == 1
    assert [(b.payer, b.amount) for b in outcome.bonuses if b.payee == "C"] == [("B", 1)]


def test_teaching_card_carre_and_brelan_offset_on_the_ledger(library: Library) -> None:
    """Teaching card: "Retourné is 9♠. A shows 9♥,9♦,9♣; B shows K♥,K♦,K♣. Both stayed in,
    and the pot is 12. A's carré wins 12. [...] After offsets the bonus changes are A=+5,
    B=+1, C=−3, D=−3. Their sum is 0; the pot award is separate from these bonuses." """
    hands = {"A": "9H 9D 9C", "B": "KH KD KC", "C": "AS QS 8S", "D": "AH QH 8H"}
    deal = start(library.get("pagat"), hands, "9S")
    actions = ["A bet 3", "B call", "C call", "D call", "B no-more", "C no-more", "D no-more"]
    outcome = play(deal, actions)
    assert pots(outcome) == [(12, "A")]
    ledger = {name: p.ledger for name, p in outcome.players.items()}
    assert ledger == {"A": 5, "B": 1, "C": -3, "D": -3}
    assert sum(ledger.values()) == 0
    assert {name: p.cave for name, p in outcome.players.items()} == {
        "A": 109,
        "B": 97,
        "C": 97,
        "D": 97,
    }


def test_carre_receives_four_white_counters_from_each_player(library: Library) -> None:
    """Foster: "In addition to winning the pool, the holder of a brelan carré receives from
    each player four white counters." """
    hands = {"A": "9H 9D 9C", "B": "KH QS 8D", "C": "AS QH 8S", "D": "AH KS 8H"}
    outcome = play(
        start(library.get("foster"), hands, "9S"), ["A bet 5", "B fold", "C fold", "D fold"]
    )
    assert sorted((b.payer, b.amount) for b in outcome.bonuses) == [
        ("B", 4),
        ("C", 4),
        ("D", 4),
    ]


def test_simple_brelan_receives_one_counter_from_each_of_the_other_players(
    library: Library,
) -> None:
    """Foster: "the holder of a simple brelan receives one counter from each of the other
    players at the table"; the teaching card: "ordinary brelan 1, including folded players"."""
    hands = {"A": "KH KD KC", "B": "9H QS 8D", "C": "AS QH 8S", "D": "AH 9S 8H"}
    for vid in ("foster", "pagat"):
        outcome = play(
            start(library.get(vid), hands, "AD"), ["A bet 5", "B call", "C fold", "D fold"]
        )
        assert sorted((b.payer, b.amount) for b in outcome.bonuses) == [
            ("B", 1),
            ("C", 1),
            ("D", 1),
        ], vid


def test_sight_c_raises_50_putting_up_85_and_d_bets_180_more_than_his_blind(
    library: Library,
) -> None:
    """Foster: "D blinds five [...] A puts up all his 35 counters. B passes out. C raises 50,
    putting up 85; and D bets everything, 180 more than his blind." """
    deal = start(library.get("foster"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    outcome = play(deal, SIGHT_ACTIONS)
    stakes = [
        (e.player, e.adds)
        for e in outcome.events
        if isinstance(e, Blind | Ante | Straddle | Act) and e.adds is not None
    ]
    assert stakes == [("D", 5), ("A", 35), ("C", 85), ("D", 180), ("C", 35)]


def test_pagat_hearts_and_diamonds_39_b_wins_as_owner_of_hearts(library: Library) -> None:
    """pagat.com (2019), in our English from the French machine translation: hearts and
    diamonds each have 39; had A stayed in, diamonds would have won, but A folds, and B wins
    as owner of the heart suit ("Les cœurs et les diamants ont chacun 39 points [...] A se
    couche, B l’emporte sur la position de propriétaire de la combinaison-cœur")."""
    hands = {"A": "AD 9C 8C", "B": "KH QD KS", "C": "QH KD AC", "D": "8H 8D AS"}
    folded = play(
        start(library.get("pagat"), hands, "AH"),
        ["A fold", "B bet 5", "C call", "D call", "C no-more", "D no-more"],
    )
    assert pots(folded)[0][1] == "B"
    assert "hearts 39 ties diamonds 39" in folded.pots[0].reason
    stayed = play(
        start(library.get("pagat"), hands, "AH"),
        ["A pass", "B bet 5", "C call", "D call", "A call", "C no-more", "D no-more", "A no-more"],
    )
    assert pots(stayed)[0][1] == "A"


def test_calling_privilege_passes_to_the_right_round_by_round(library: Library) -> None:
    """Foster: "B opens for five reds. C passes out, while D and A both meet the bet [...]
    This does not call B, who has the privilege of raising [...] Suppose he raises, and D
    and A both meet it. On this second round [...] it is D's turn to say whether or not he
    will raise. On the next round it will be A's turn". Here D raises on his round, so the
    privilege reaches A; A passes the word and B, receiving it, declines: it is a call."""
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 8C", "D": "AH KH QH"}
    deal = start(library.get("foster"), hands, "AD")
    script = ["A pass", "B bet 25", "C fold", "D call", "A call"]
    for text in script:
        play_step(deal, text)
    assert deal.to_act == "B"
    assert str(deal.legal_actions()[0]) == "no-more"
    for text in ["B raise 50", "D call", "A call"]:
        play_step(deal, text)
    assert deal.to_act == "D"  # "it is D's turn to say whether or not he will raise"
    for text in ["D raise 75", "A call", "B call"]:
        play_step(deal, text)
    assert deal.to_act == "A"  # "On the next round it will be A's turn"
    play_step(deal, "A no-more")
    assert deal.to_act == "B"  # the word passes to the player on his right
    play_step(deal, "B no-more")  # "If he declines, it is a call"
    assert deal.is_over and deal.outcome.status == "settled"
    holders = [e.player for e in deal.outcome.events if isinstance(e, Privilege)]
    assert holders == ["B", "D", "A"]


def play_step(deal: object, text: str) -> None:
    from bouillotte.play.actions import parse_action
    from bouillotte.play.deal import Deal

    assert isinstance(deal, Deal)
    deal.apply(parse_action(text))


def test_no_more_round_gives_everyone_but_the_last_raiser_a_chance(library: Library) -> None:
    """Teaching card: "With 3 or 4, after all calls everyone except the last raiser gets one
    further chance to raise or say 'no more'. If nobody raises, show down; a raise restarts
    the cycle." """
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(library.get("pagat"), hands, "AD")
    for text in ["A bet 2", "B raise 5", "C call", "D call", "A call"]:
        play_step(deal, text)
    assert deal.to_act == "C"  # the last raiser is B; C speaks first
    for text in ["C no-more", "D raise 9", "A call", "B call", "C call"]:
        play_step(deal, text)
    order = []
    while not deal.is_over:
        order.append(deal.to_act)
        play_step(deal, f"{deal.to_act} no-more")
    assert order == ["A", "B", "C"]  # everyone but D, the last raiser, from his right


def test_two_players_a_call_ends_the_betting(library: Library) -> None:
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    for vid in ("foster", "pagat"):
        deal = start(library.get(vid), hands, "AD")
        outcome = play(deal, ["A bet 6", "B fold", "C fold", "D call"])
        assert outcome.status == "settled"


def test_misdeal_triplets_receive_one_counter_from_each_other_player(library: Library) -> None:
    """Foster: "If any player can show triplets, he receives one white counter from each of
    the other players, and the hands are then abandoned. [...] A misdeal does not lose the
    deal." """
    hands = {"A": "KS KH KD", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH QH 8H"}
    outcome = play(start(library.get("foster"), hands, "AD", exposed="QS"), ["A decline"])
    assert outcome.status == "void"
    assert nets(outcome) == {"A": 3, "B": -1, "C": -1, "D": -1}
    redeal = [e for e in outcome.events if isinstance(e, Redeal)]
    assert redeal == [Redeal("D")]


def test_nobody_opens_foster_each_puts_five_for_the_next_deal(library: Library) -> None:
    """Foster: "If no one will open, the deal is void, and each player puts five counters in
    the pool for the next deal." """
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(library.get("foster"), hands, "AD")
    outcome = play(deal, ["A pass", "B pass", "C pass", "D pass"])
    assert outcome.status == "void"
    assert outcome.carry == 5 + 4 * 5
    assert nets(outcome) == {"A": -5, "B": -5, "C": -5, "D": -10}


def test_nobody_opens_after_a_carre_the_last_straddler_takes_it(library: Library) -> None:
    """Teaching card: "after carre, all-pass awards it to the last straddler." """
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(library.get("pagat"), hands, "AD")
    outcome = play(deal, ["A straddle", "B pass", "C pass", "D pass", "A pass"])
    assert outcome.status == "uncontested"
    assert pots(outcome) == [(2, "A")]  # the ante of 1 and A's carre of 1
    assert nets(outcome) == {"A": 1, "B": 0, "C": 0, "D": -1}


def test_nobody_opens_pagat_carries_the_pot(library: Library) -> None:
    """Teaching card: "All-pass without carre carries the pot" """
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    outcome = play(
        start(library.get("pagat"), hands, "AD"), ["A pass", "B pass", "C pass", "D pass"]
    )
    assert outcome.status == "void" and outcome.carry == 1


def test_carre_straddles_double_the_pot_and_foster_straddles_double_the_last(
    library: Library,
) -> None:
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    pagat = start(library.get("pagat"), hands, "AD")
    foster = start(library.get("foster"), hands, "AD")
    for deal in (pagat, foster):
        for text in ["A straddle", "B straddle", "C straddle"]:
            play_step(deal, text)
    assert pagat.contrib == [1, 2, 4, 1]  # pot 1 -> 2 -> 4 -> 8
    assert foster.contrib == [10, 20, 40, 5]
    assert foster.to_act == "D"  # the dealer may buy the age back
    play_step(foster, "D straddle")
    assert foster.contrib[3] == 80 and foster.to_act == "A"  # straddling stops


def test_card_under_the_retourne_turns_a_higher_brelan_into_a_carre(library: Library) -> None:
    """Foster: "If any player holds a brelan [...] of a higher denomination than the brelan
    carré, the player may turn up the card under the retourne, and if this makes his hand a
    brelan carré also, he wins the pool." """
    hands = {"A": "9S 9H 9D", "B": "KS KH KD", "C": "AS QS 8S", "D": "AH QH 8H"}
    actions = ["A bet 10", "B call", "C fold", "D fold"]
    with_king = play(start(library.get("foster"), hands, "9C", under="KC"), actions)
    assert pots(with_king) == [(25, "B")]
    without = play(start(library.get("foster"), hands, "9C", under="AC"), actions)
    assert pots(without) == [(25, "A")]
    pagat = play(start(library.get("pagat"), hands, "9C", under="KC"), actions)
    assert pots(pagat)[0][1] == "A"


def test_tie_with_the_dealer_owning_a_tied_suit(library: Library) -> None:
    """Foster: "In case of ties, the dealer, or the player nearest him on the right wins";
    teaching card: "the owner of a tied suit earliest anticlockwise from dealer wins"."""
    hands = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AH KH QC", "D": "AS QS 9S"}
    actions = ["A bet 10", "B fold", "C fold", "D call"]
    foster = play(start(library.get("foster"), hands, "9H"), actions)
    pagat = play(start(library.get("pagat"), hands, "9H"), actions)
    assert pots(foster) == [(20, "D")]
    assert pots(pagat) == [(20, "A")]


def test_a_refused_action_leaves_the_deal_unchanged(library: Library) -> None:
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(library.get("foster"), hands, "AD")
    before = (list(deal.events), list(deal.contrib), deal.to_act, deal.phase)
    with pytest.raises(IllegalAction) as caught:
        play_step(deal, "A bet 500")  # would decline the straddle, then is refused
    assert caught.value.rule == "stakes.cave"
    assert (deal.events, deal.contrib, deal.to_act, deal.phase) == before
    play_step(deal, "A straddle")
    assert deal.contrib[0] == 10


def test_a_refused_betting_word_lists_the_betting_words(library: Library) -> None:
    deal = start(library.get("pagat"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    assert [str(a) for a in deal.legal_actions()] == ["straddle 1", "decline"]
    with pytest.raises(IllegalAction) as caught:
        play_step(deal, "A all-in")
    assert [str(a) for a in caught.value.legal] == ["pass", "bet 1-34", "fold"]
    assert [str(a) for a in deal.legal_actions()] == ["straddle 1", "decline"]


def test_an_action_after_the_end_is_refused_without_a_misleading_rule(library: Library) -> None:
    deal = start(library.get("foster"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    play(deal, SIGHT_ACTIONS)
    with pytest.raises(IllegalAction) as caught:
        play_step(deal, "A fold")
    assert "the deal is over (settled)" in caught.value.message
    assert caught.value.legal == []
