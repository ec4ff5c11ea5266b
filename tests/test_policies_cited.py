"""Each tendency of ``advised`` that cites a source does what the cited sentence says, in
the sentence's own situation (a deal set up by hand, the player's choice read off the
policy), and does something else without the tendency: a cited tendency that never acts
would pass the first check and fail the second.

The sentences are Foster's "Suggestions for Good Play" (``variants/texts/foster.txt``)."""

from __future__ import annotations

from collections.abc import Sequence

from bouillotte.play.actions import Action, parse_action
from bouillotte.play.deal import Deal
from bouillotte.play.stream import POLICY, Stream
from bouillotte.rules.profiles import Library
from bouillotte.study.player_view import view_of
from bouillotte.study.policies import TABLE_PLAYERS, get_policy
from bouillotte.study.table_policy import TablePolicy

from .dealkit import start

FOSTER = Library().get("foster")

#  Four hands that no suit or brelan of the tests below disturbs: hearts for A, clubs
#  for B, diamonds and spades as each test needs.
QUIET = {"A": "8H 9C 8D", "B": "9H 8C 9D", "C": "QH QC QD", "D": "KH KC KD"}


def choice(policy: str, hands: dict[str, str], retourne: str, said: Sequence[str]) -> Action:
    """What ``policy`` does for the player to act after the words ``said``."""
    deal: Deal = start(FOSTER, hands, retourne, caves=dict.fromkeys(hands, 100))
    for text in said:
        deal.apply(parse_action(text))
    chooser = get_policy(policy)
    return chooser.choose(view_of(deal), Stream(0, POLICY))


def test_advised_takes_the_tendencies_it_cites_and_not_the_one_that_cannot_act() -> None:
    tendencies = TABLE_PLAYERS["advised"][1]
    assert tendencies.met_point == 41
    assert tendencies.eldest_passes == 1
    assert tendencies.three_way_limit == 1
    assert tendencies.call_all_in == 1
    assert tendencies.open_point == 21
    # "Good players will not bet on an ace alone": an ace alone counts 11, and advised backs
    # nothing under 21, so the tendency could never act for it (the sentence is met by the
    # threshold, and its description no longer cites it as a tendency).
    assert tendencies.no_ace_alone == 0
    assert "ace" not in TABLE_PLAYERS["advised"][0]


def test_a_bet_made_and_met_lays_a_point_of_40_down() -> None:
    """ "If a bet had been made and met by another player, such a point should generally be
    laid down" (such a point: "31, or even 40"). C holds A K 9 of spades with the queen of
    spades turned: 40."""
    hands = {"A": "AH 8C 9D", "B": "KH 9C 8D", "C": "AS KS 9S", "D": "QH QC QD"}
    said = ["A decline", "A bet 10", "B call"]
    assert str(choice("advised", hands, "QS", said)) == "C fold"
    # Without the tendency, 40 against two is above Foster's 31: C stays in (40 is strong
    # for advised, so it raises).
    without = choice("advised:met_point=0", hands, "QS", said)
    assert without.kind == "raise"


def test_a_bet_made_but_not_met_does_not_lay_the_point_down() -> None:
    hands = {"A": "AH 8C 9D", "B": "KH 9C 8D", "C": "AS KS 9S", "D": "QH QC QD"}
    made = choice("advised", hands, "QS", ["A decline", "A bet 10", "B fold"])
    assert made.kind == "raise"  # a bet made, not met: 40 against one is strong


def test_the_eldest_passes_with_a_brelan() -> None:
    """ "With good cards it is always better for the eldest hand to pass, especially with a
    brelan." A, to the dealer's right, speaks first."""
    hands = {"A": "AH AC AD", "B": "KH 9C 8D", "C": "QS KS 9S", "D": "QH QC QD"}
    assert str(choice("advised", hands, "8S", ["A decline"])) == "A pass"
    assert choice("advised:eldest_passes=0", hands, "8S", ["A decline"]).kind == "bet"


def test_three_handed_no_point_follows_beyond_the_first_raise_unless_strong() -> None:
    """ "If three play in a pool the point should be very strong to follow beyond the first
    raise." A bets, B and C call, A raises: B, with two others in, holds A K 9 of clubs
    with the eight of clubs turned, 38: enough against two (Foster's 31, our 32), not
    strong (advised counts 40 strong)."""
    hands = {"A": "AH KH 8D", "B": "AC KC 9C", "C": "AD KD QD", "D": "8H 9D QH"}
    said = ["A decline", "A bet 10", "B call", "C call", "D fold", "A raise 30"]
    assert str(choice("advised", hands, "8C", said)) == "B fold"
    assert choice("advised:three_way_limit=0", hands, "8C", said).kind == "call"


def test_a_sight_is_called_with_what_is_left() -> None:
    """ "As long as a single counter of it remains the player must call for a sight." C
    has 20 counters and A K 9 of diamonds (30, enough against one) against a bet of 50."""
    hands = {"A": "AH KH 8C", "B": "KC QC 9H", "C": "AD KD 9D", "D": "8H 8S 8D"}
    deal = start(FOSTER, hands, "QS", caves={"A": 100, "B": 100, "C": 20, "D": 100})
    for text in ["A decline", "A bet 50", "B fold"]:
        deal.apply(parse_action(text))
    policy = get_policy("advised")
    assert isinstance(policy, TablePolicy)
    assert policy.choose(view_of(deal), Stream(0, POLICY)).kind in ("call", "all-in")
    folds = get_policy("advised:call_all_in=0")
    assert folds.choose(view_of(deal), Stream(0, POLICY)).kind == "fold"


def test_the_first_to_say_antes_with_21() -> None:
    """ "The first player to say, having only 21 in his hand, should ante." A holds the ace
    and king of hearts, no heart turned: 21."""
    hands = {"A": "AH KH 8C", "B": "KC QC 9H", "C": "9D 9S 8S", "D": "QH QD 8D"}
    assert choice("advised", hands, "AS", ["A decline"]).kind == "bet"
    assert choice("advised:open_point=22", hands, "AS", ["A decline"]).kind == "pass"


def test_no_ace_alone_acts_where_the_threshold_lets_an_ace_alone_through() -> None:
    """ "Good players will not bet on an ace alone, unless the suit is turned up." With the
    least point lowered to 11 an ace alone reaches it, and the tendency lays it down,
    unless the ace's suit is turned up."""
    hands = {"A": "AH 9C 8D", "B": "KC QC 9H", "C": "9D 9S 8S", "D": "QH QD 8H"}
    loose = "table:open_point=11"
    assert choice(loose, hands, "KS", ["A decline"]).kind == "bet"
    assert choice(loose + ",no_ace_alone=1", hands, "KS", ["A decline"]).kind == "pass"
    turned = {**hands, "D": "QH QD KH"}
    assert choice(loose + ",no_ace_alone=1", turned, "8H", ["A decline"]).kind == "bet"
