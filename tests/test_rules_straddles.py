"""Blinds and straddles before the deal, pinned on the sources' words.

Foster: "the dealer puts up a blind, usually five counters, which the player on his right
has the privilege of straddling. If he straddles, he may be straddled again, and so on";
the straddle doubles the last stake (variants/foster.yaml, inferred from the poker term).
After the deal "each player in turn, beginning with the one to the right of the dealer,
or to the right of the last straddler, if any" speaks. The teaching card (02): "Only
dealer antes 1. Before seeing cards, dealer’s right may add the whole pot’s amount, the
next player right may double the new pot, and so on for at most one circuit; the first
refusal ends these blind carre bets." Every sum below is reckoned by hand from these.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import Deal, IllegalAction, Phase
from bouillotte.play.events import Act, Ante, Blind, Decline, PotWon, Straddle, WonUncontested
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

from .dealkit import nets, start

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")
PAGAT = LIBRARY.get("pagat")
HANDS = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 9S", "D": "AH KH QC"}


def deal(
    variant: Variant, actions: Sequence[str] = (), caves: dict[str, int] | None = None
) -> Deal:
    d = start(variant, HANDS, "9H", caves=caves)
    for text in actions:
        d.apply(parse_action(text))
    return d


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


def says(d: Deal, text: str) -> tuple[str, str]:
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action(text))
    return caught.value.message, caught.value.rule


def straddles(d: Deal) -> list[tuple[str, int, int, int]]:
    return [(e.player, e.adds, e.total, e.pot) for e in d.events if isinstance(e, Straddle)]


def test_foster_each_straddle_doubles_the_last_round_to_the_dealer() -> None:
    d = deal(FOSTER)
    assert d.events[0] == Blind("D", 5, 5)
    assert (d.phase, d.to_act, legal(d)) == (Phase.STRADDLE, "A", ["straddle 10", "decline"])
    d.apply(parse_action("A straddle"))
    assert (d.to_act, legal(d)) == ("B", ["straddle 20", "decline"])
    d.apply(parse_action("B straddle"))
    assert (d.to_act, legal(d)) == ("C", ["straddle 40", "decline"])
    d.apply(parse_action("C straddle"))
    # D's blind of 5 is part of his 80: he adds 75.
    assert (d.to_act, legal(d)) == ("D", ["straddle 80", "decline"])
    d.apply(parse_action("D straddle"))
    assert straddles(d) == [
        ("A", 10, 10, 15),
        ("B", 20, 20, 35),
        ("C", 40, 40, 75),
        ("D", 75, 80, 150),
    ]
    # Round to the dealer: no more straddles; the deal; the right of the last straddler (D),
    # A, speaks first, and the stake to equal is D's 80.
    assert (d.phase, d.to_act) == (Phase.BETTING, "A")
    assert legal(d) == ["pass", "bet 80-100", "all-in 100", "fold"]


def test_foster_the_first_refusal_ends_the_straddles() -> None:
    d = deal(FOSTER, ["A straddle", "B decline"])
    assert d.events[-2] == Decline("B", False)
    # B speaks first after the deal: he is to the right of the last straddler, A.
    assert (d.phase, d.to_act) == (Phase.BETTING, "B")
    assert legal(d) == ["pass", "bet 10-100", "all-in 100", "fold"]
    assert says(d, "B straddle") == (
        "B cannot 'straddle': a straddle is offered only before the deal, and that time is past",
        "forced_bets.straddles",
    )


def test_a_betting_word_in_place_of_the_straddle_declines_it_and_is_played() -> None:
    d = deal(FOSTER, ["A bet 5"])
    assert d.events[-3] == Decline("A", True)
    assert d.events[-1] == Act("A", "bet", 5, 5, 10)
    assert d.to_act == "B"


def test_a_betting_word_in_place_of_the_straddle_is_checked_as_a_bet() -> None:
    d = deal(FOSTER)
    assert says(d, "A bet 4") == (
        "A cannot open for 4: the least opening is 5",
        "betting.opening_minimum",
    )
    assert d.phase is Phase.STRADDLE and legal(d) == ["straddle 10", "decline"]


def test_a_player_who_cannot_afford_the_straddle_may_only_decline() -> None:
    d = deal(FOSTER, caves={"A": 9, "B": 100, "C": 100, "D": 100})
    assert legal(d) == ["decline"]
    assert says(d, "A straddle") == (
        "A cannot afford the straddle (10 counters; 9 left in the cave)",
        "forced_bets.straddle_amount",
    )
    d = deal(FOSTER, caves={"A": 10, "B": 100, "C": 100, "D": 100})
    assert legal(d) == ["straddle 10", "decline"]


def test_a_short_dealer_posts_what_he_has_as_blind() -> None:
    d = deal(FOSTER, caves={"A": 100, "B": 100, "C": 100, "D": 3})
    assert d.events[0] == Blind("D", 3, 3)
    assert legal(d) == ["straddle 6", "decline"]


def test_pagat_each_straddle_adds_the_whole_pot() -> None:
    d = deal(PAGAT)
    assert d.events[0] == Blind("D", 1, 1)
    for name in "ABCD":
        d.apply(parse_action(f"{name} straddle"))
    # pot 1; A adds 1 (pot 2); B adds 2 (4); C adds 4 (8); D adds 8 to his 1 (16).
    assert straddles(d) == [("A", 1, 1, 2), ("B", 2, 2, 4), ("C", 4, 4, 8), ("D", 8, 9, 16)]
    assert (d.phase, d.to_act) == (Phase.BETTING, "A")
    # A opens by bringing his 1 up to D's 9 ("up to the largest already made").
    assert legal(d) == ["pass", "bet 9-99", "fold"]


def test_pagat_after_straddles_an_unopened_pool_goes_to_the_last_straddler() -> None:
    """Teaching card 03: "after carre, all-pass awards it to the last straddler"."""
    d = deal(
        PAGAT, ["A straddle", "B straddle", "C decline", "C pass", "D pass", "A pass", "B pass"]
    )
    assert d.is_over
    won = d.outcome.pots
    assert [(p.amount, p.winner) for p in won] == [(4, "B")]
    assert won[0].decision == WonUncontested("nobody opened; the last to stake takes the pool")
    assert nets(d.outcome) == {"A": -1, "B": 2, "C": 0, "D": -1}


# -- readings the profiles may choose: straddling past a refusal, the straddle seen -----


def test_where_a_refusal_does_not_end_the_straddles_the_next_player_is_offered() -> None:
    variant = FOSTER.with_values({"forced_bets.straddling_ends_at_first_refusal": False})
    d = deal(variant)
    assert says(d, "A bet 5") == (
        "A is offered the straddle, and after him the next player: 'straddle' or 'decline' first",
        "forced_bets.straddles",
    )
    d.apply(parse_action("A decline"))
    assert (d.phase, d.to_act, legal(d)) == (Phase.STRADDLE, "B", ["straddle 10", "decline"])


def test_where_the_straddle_must_be_seen_the_others_call_it_or_drop_out() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(variant, ["A straddle", "B decline"])
    assert (d.phase, d.to_act) == (Phase.SEEING, "B")
    assert legal(d) == ["call 10", "fold"]
    assert says(d, "B raise 20") == (
        "before the deal B must see the raise ('call' 10) or drop out ('fold')",
        "forced_bets.straddle_must_be_seen",
    )
    for text in ["B fold", "C fold", "D fold"]:
        d.apply(parse_action(text))
    # Nobody saw it: A takes the blind and his own straddle, 15, before any card is seen.
    assert d.is_over
    assert [(p.amount, p.winner, p.reason) for p in d.outcome.pots] == [
        (15, "A", "uncontested: nobody saw the raise")
    ]
    assert nets(d.outcome) == {"A": 5, "B": 0, "C": 0, "D": -5}


def test_where_the_straddle_must_be_seen_a_betting_word_for_the_answer_must_be_a_call() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(variant, ["A straddle"])
    assert says(d, "B bet 30") == (
        "before the deal B must see the raise ('call' 10) or drop out ('fold')",
        "forced_bets.straddle_must_be_seen",
    )
    d.apply(parse_action("B call"))
    # B's call declined the straddle and saw A's 10; C and D see it or drop out next.
    assert d.events[-2] == Decline("B", True)
    assert (d.phase, d.to_act, legal(d)) == (Phase.SEEING, "C", ["call 10", "fold"])


def test_a_pool_won_before_the_deal_shows_no_hand() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(variant, ["A straddle", "B fold", "C fold", "D fold"])
    assert isinstance(d.events[-2], PotWon) and d.outcome.bonuses == ()


def test_with_no_blind_a_doubling_straddle_doubles_nothing() -> None:
    """Twice the last stake, where no stake is up, is nothing: the word costs no counter."""
    variant = FOSTER.with_values({"forced_bets.dealer_blind": 0})
    d = deal(variant)
    assert legal(d) == ["straddle 0", "decline"]


def test_where_refusals_do_not_end_the_straddles_only_the_last_offer_can_be_answered_by_a_bet() -> (
    None
):
    """Each of A, B and C is offered in turn; a bet in place of the answer is refused while
    a player after him may still straddle. D, the dealer, is offered last: after him nobody
    is, but A speaks first after the deal, so D's bet is refused too."""
    variant = FOSTER.with_values({"forced_bets.straddling_ends_at_first_refusal": False})
    d = deal(variant, ["A decline", "B decline"])
    assert says(d, "C bet 5") == (
        "C is offered the straddle, and after him the next player: 'straddle' or 'decline' first",
        "forced_bets.straddles",
    )
    d.apply(parse_action("C decline"))
    assert says(d, "D bet 5") == (
        "D is offered the straddle, but A speaks first after the deal: 'straddle' or "
        "'decline' first",
        "forced_bets.straddles",
    )


def test_a_dealer_whose_blind_took_his_cave_may_only_decline_the_straddle() -> None:
    """D's blind of 5 is all he has: offered the straddle after C, he cannot pay it, and a
    betting word in its place is refused (he has nothing left to bet)."""
    caves = {"A": 100, "B": 100, "C": 100, "D": 5}
    d = deal(FOSTER, ["A straddle", "B straddle", "C straddle"], caves)
    assert (d.to_act, legal(d)) == ("D", ["decline"])
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action("D bet 50"))
    assert caught.value.rule == "forced_bets.straddles"
    assert [str(a) for a in caught.value.legal] == ["decline"]
    seen = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(seen, ["A straddle", "B straddle", "C straddle"], caves)
    # The straddle is to be seen from A on (D has nothing to see it with): D is not first.
    assert says(d, "D call") == (
        "D is offered the straddle: 'straddle' or 'decline' first",
        "forced_bets.straddles",
    )


def test_the_refusal_of_a_bet_for_the_straddles_answer_offers_the_seeing_words() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(variant, ["A straddle"], {"A": 100, "B": 6, "C": 100, "D": 100})
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action("B bet 6"))
    # B has 6: he may see the 10 only for his 6.
    assert [str(a) for a in caught.value.legal] == ["call 6", "fold"]
    assert caught.value.message == (
        "before the deal B must see the raise ('call' 10) or drop out ('fold')"
    )


def test_where_straddles_stop_before_the_dealer_the_third_straddle_is_the_last() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_limit": "before-the-dealer"})
    d = deal(variant, ["A straddle", "B straddle", "C straddle"])
    # D is not offered: the cards are dealt, and D speaks first (right of C) at 40.
    assert (d.phase, d.to_act) == (Phase.BETTING, "D")


def test_a_player_with_nothing_left_is_not_asked_to_see_the_straddle() -> None:
    """D's blind of 5 is his whole cave: when B and C drop out, nobody is left to see
    A's straddle, and the cards are dealt to A and D (D all in for his blind)."""
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    caves = {"A": 100, "B": 100, "C": 100, "D": 5}
    d = deal(variant, ["A straddle", "B fold", "C fold"], caves)
    assert d.phase is Phase.BETTING


def test_a_player_who_dropped_out_before_the_deal_is_not_asked_after_it() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    d = deal(variant, ["A straddle", "B fold", "C call", "D call"])
    # B, on A's right, would speak first; he has dropped out, so C does.
    assert (d.phase, d.to_act) == (Phase.BETTING, "C")


def test_where_everyone_antes_each_puts_up_his_ante_and_the_dealer_his_blind() -> None:
    """The profile pagat-everyone-antes: the dealer's blind of 2, every other player's ante
    of 1, posted in speaking order from the dealer's right."""
    d = deal(LIBRARY.get("pagat-everyone-antes"))
    assert d.events[:4] == [Ante("A", 1, 1), Ante("B", 1, 1), Ante("C", 1, 1), Blind("D", 2, 2)]
    assert d.pot_total() == 5


def test_a_player_with_one_counter_left_is_asked_to_see_the_straddle() -> None:
    variant = FOSTER.with_values({"forced_bets.straddle_must_be_seen": True})
    caves = {"A": 100, "B": 1, "C": 1, "D": 100}
    d = deal(variant, ["A straddle"], caves)
    d.apply(parse_action("B call"))  # B's one counter, in place of declining
    assert (d.phase, d.to_act) == (Phase.SEEING, "C")


def test_a_dealer_all_in_by_his_blind_is_not_asked_after_the_deal() -> None:
    d = deal(
        FOSTER, ["A decline", "A pass", "B pass", "C pass"], {"A": 100, "B": 100, "C": 100, "D": 5}
    )
    assert d.is_over and d.outcome.status.value == "void"


def test_after_an_all_pass_the_next_dealer_alone_adds_one() -> None:
    """The teaching card: "All-pass without carre carries the pot and next dealer adds 1";
    pagat.com, of the version in which everyone antes too: "les jetons du pot restent et
    le donneur ajoute un autre jeton" (the chips stay in the pot and the dealer adds another
    chip). With 5 carried in, D adds 1 and nobody antes: the pool holds 6, and D's 1 is the
    largest stake, so the least opening is 1 + 1 = 2 and D, opening for 2, makes it 7."""
    everyone = LIBRARY.get("pagat-everyone-antes")
    for variant in (PAGAT, everyone):
        d = start(variant, HANDS, "9H", carried_in=5)
        assert [e for e in d.events if isinstance(e, Blind | Ante)] == [Blind("D", 1, 1)]
        for text in ("A pass", "B pass", "C pass"):
            d.apply(parse_action(text))
        assert legal(d) == ["pass", "bet 2-99", "fold"]
        d.apply(parse_action("D bet 2"))
        assert d.pot_total() == 5 + 1 + 1
    # On a deal with nothing carried in, everyone antes as usual: D 2, the others 1 each.
    d = start(everyone, HANDS, "9H")
    assert [e for e in d.events if isinstance(e, Blind | Ante)] == [
        Ante("A", 1, 1), Ante("B", 1, 1), Ante("C", 1, 1), Blind("D", 2, 2)
    ]  # fmt: skip
