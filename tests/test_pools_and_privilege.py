"""Behaviours no scenario pinned before (issue 10, section 6), each a deal played by the
engine from cards and actions, with the outcome worked out by hand in the docstring."""

from __future__ import annotations

from bouillotte.play.actions import parse_action
from bouillotte.play.events import Act, Privilege, Straddle
from bouillotte.rules.profiles import Library

from .dealkit import nets, play, pots, start

# Spades AS KS (A) + QS (B) + 9S 8S (D) = 48 beat hearts 30, diamonds 27 and clubs 18 (with
# the retourne KC); A holds the ace of spades. No pair, so no brelan of any kind.
HANDS = {"A": "AS KS 9H", "B": "QS 9D 8C", "C": "AH QH 8D", "D": "9S 8S KD"}


def test_a_fold_when_the_privilege_is_offered_a_second_time(library: Library) -> None:
    """B opens for 10 and all meet it; B holds the privilege and raises to 20; all meet it.
    The privilege is offered a second time, to C (on B's right), who folds: withdrawing
    from the pool, he passes the privilege to D, and D's refusal is the call. Pool 4 x 20
    = 80 to A (spades 48): A +60, B -20, C -20 (his stake stays in), D -20."""
    deal = start(library.get("foster"), HANDS, "KC")
    outcome = play(
        deal,
        [
            "A pass",
            "B bet 10",
            "C call",
            "D call",
            "A call",
            "B raise 20",
            "C call",
            "D call",
            "A call",
            "C fold",
            "D no-more",
        ],
    )
    offered = [e.player for e in outcome.events if isinstance(e, Privilege)]
    assert offered == ["B", "C"]
    assert pots(outcome) == [(80, "A")]
    assert outcome.pots[0].contenders == ("A", "B", "D")
    assert nets(outcome) == {"A": 60, "B": -20, "C": -20, "D": -20}


def test_a_cave_exactly_equal_to_the_straddle(library: Library) -> None:
    """A's cave is 10, exactly the straddle over D's blind of 5 (twice the blind): he may
    straddle, and is then all in and never asked to act again. B declines, then opens for
    10 (the straddle's amount), C passes out, D meets it; B passes the word to D, who
    declines. Pool 3 x 10 = 30, A, B and D in it, to A (spades 48): A +20, B -10, D -10."""
    deal = start(library.get("foster"), HANDS, "KC", caves={"A": 10, "B": 100, "C": 100, "D": 100})
    assert "straddle 10" in [str(a) for a in deal.legal_actions()]
    outcome = play(
        deal,
        ["A straddle", "B decline", "B bet 10", "C fold", "D call", "B no-more", "D no-more"],
    )
    straddle = next(e for e in outcome.events if isinstance(e, Straddle))
    assert (straddle.player, straddle.adds) == ("A", 10)
    acted = [e.player for e in outcome.events if isinstance(e, Act)]
    assert "A" not in acted
    assert pots(outcome) == [(30, "A")]
    assert nets(outcome) == {"A": 20, "B": -10, "C": 0, "D": -10}


SIDE_HANDS = {"A": "8S 8H 8D", "B": "AS QD 9C", "C": "AH QH 9S", "D": "KS QS 8C"}
SIDE_CAVES = {"A": 10, "B": 100, "C": 100, "D": 100}
SIDE_ACTIONS = ["A pass", "B bet 20", "C call", "D fold", "A call", "B no-more", "C no-more"]


def test_a_carried_pool_joins_the_main_pool_not_the_side_pool(library: Library) -> None:
    """20 are carried from a void deal. A (cave 10) calls B's 20 for a sight. Main pool:
    A, B, C 10 each + D's blind 5 + the 20 carried = 55, won by A's brelan of eights; the
    side pool (B and C, 10 more each) = 20 goes to spades 48 (D's folded KS QS count), whose
    best card among B and C is B's ace. A's brelan is paid 1 by B, C and D.
    A -10 + 55 + 3 = +48; B -20 + 20 - 1 = -1; C -21; D -6 (the nets sum to the 20 carried)."""
    deal = start(library.get("foster"), SIDE_HANDS, "KD", caves=SIDE_CAVES, carried_in=20)
    outcome = play(deal, SIDE_ACTIONS)
    assert pots(outcome) == [(55, "A"), (20, "B")]
    assert [p.contenders for p in outcome.pots] == [("A", "B", "C"), ("B", "C")]
    assert nets(outcome) == {"A": 48, "B": -1, "C": -21, "D": -6}
    assert outcome.carry == 0


def test_which_suit_wins_a_third_pool(library: Library) -> None:
    """A all in for 10, B all in for 20, C raises to 40 and D meets it: three pools. Spades
    (AS KS QS with A, 9S with B, the retourne 8S: 48) win the main pool 40 for A; the first
    side pool (B, C, D: 30) goes to B, who holds a spade (the suit that wins cannot lose);
    neither C nor D holds a spade, so the third pool (C, D: 40) is decided on its own: the
    best suit owned by one of them, hearts (AH KH QH with C, 9H with B: 40) over diamonds
    29, goes to C. A +30, B +10, C 0, D -40."""
    hands = {"A": "AS KS QS", "B": "9S 9H 8D", "C": "AH KH QH", "D": "AD KD 9C"}
    caves = {"A": 10, "B": 20, "C": 100, "D": 100}
    deal = start(library.get("foster"), hands, "8S", caves=caves)
    outcome = play(deal, ["A all-in", "B all-in", "C raise 40", "D call", "C no-more", "D no-more"])
    assert pots(outcome) == [(40, "A"), (30, "B"), (40, "C")]
    assert outcome.pots[2].contenders == ("C", "D")
    assert outcome.pots[2].reason.startswith("point: hearts 40, best card held by C")
    assert "spades 48 cannot win" in outcome.pots[2].reason
    assert nets(outcome) == {"A": 30, "B": 10, "C": 0, "D": -40}


def test_the_sight_flag_marks_a_short_call_only(library: Library) -> None:
    """B opens for 20. A, with 10, calls for a sight: all in, short of the bet, flagged.
    C, with exactly 20, calls: all in too, but he meets the whole bet, so no sight. D
    passes out. Main pool: A, B, C 10 each + D's blind 5 = 35; side pool B and C 20.
    Spades (AS KS with A, QS with B, 9S 8S with D, folded) = 48: A takes 35, and B, who
    holds a spade, the side pool. A +25, B 0, C -20, D -5."""
    caves = {"A": 10, "B": 100, "C": 20, "D": 100}
    deal = start(library.get("foster"), HANDS, "KC", caves=caves)
    outcome = play(deal, ["A pass", "B bet 20", "C call", "D fold", "A call"])
    calls = {e.player: e for e in outcome.events if isinstance(e, Act) and e.action == "call"}
    assert calls["A"].adds == 10 and calls["A"].all_in and calls["A"].sight
    assert calls["C"].adds == 20 and calls["C"].all_in and not calls["C"].sight
    assert pots(outcome) == [(35, "A"), (20, "B")]
    assert nets(outcome) == {"A": 25, "B": 0, "C": -20, "D": -5}


def test_what_the_last_straddler_must_add_to_open_under_each_reading(library: Library) -> None:
    """D blinds 5, A straddles to 10; B, C and D pass, and A may open. Reading "equal the
    amount of the ante" as fresh counters, he must reach 15; as his stake standing, 10
    (he adds nothing); under the teaching card's agreement, 11."""
    foster = library.get("foster")
    least = {}
    for value in ("equal-the-blind", "equal-the-largest", "match-the-largest-plus-one"):
        deal = start(foster.with_values({"betting.opening_minimum": value}), HANDS, "KC")
        for text in ("A straddle", "B decline", "B pass", "C pass", "D pass"):
            deal.apply(parse_action(text))
        bet = next(a for a in deal.legal_actions() if a.kind == "bet")
        least[value] = bet.low
    assert least == {
        "equal-the-blind": 15,
        "equal-the-largest": 10,
        "match-the-largest-plus-one": 11,
    }


def test_a_levy_standing_for_the_blind_still_prices_the_straddle(library: Library) -> None:
    """After a void deal (20 carried), read as the next deal's stake, D puts up no blind;
    A's straddle is still twice the blind's usual 5, i.e. 10, and B's least opening after
    it is the straddle's 10. B opens for 10 and nobody meets it: B takes 20 + 10 + 10 = 40
    (A's straddle was met, so nothing goes back): B +30, A -10."""
    variant = library.get("foster").with_values(
        {"void_deals.levy_and_next_blind": "levy-instead-of-blind"}
    )
    deal = start(variant, HANDS, "KC", carried_in=20)
    assert [e.kind for e in deal.events][:2] == ["carried-in", "no-blind"]
    assert "straddle 10" in [str(a) for a in deal.legal_actions()]
    deal.apply(parse_action("A straddle"))
    deal.apply(parse_action("B decline"))
    bet = next(a for a in deal.legal_actions() if a.kind == "bet")
    assert bet.low == 10
    outcome = play(deal, ["B bet 10", "C fold", "D fold", "A fold"])
    assert pots(outcome) == [(40, "B")]
    assert nets(outcome) == {"A": -10, "B": 30, "C": 0, "D": 0}
