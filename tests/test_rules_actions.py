"""The words a player may say, as the scenarios write them, and what a player is told.

The words follow the sources' betting: a player passes, bets, calls (sees), raises, folds
(Foster's player "withdraws"), goes all-in with his whole cave, or, in the teaching
card's closing round, says "no more"; before the deal the player after the dealer may
straddle or decline; where a profile has a draw, a player discards and buys. A bet or a
raise names the player's total stake after it ("A bet 35"). A line we cannot read is
refused with a message that tells the user how to write it: those messages are part of
the contract and pinned here word for word.
"""

from __future__ import annotations

import pytest

from bouillotte.play.actions import (
    ACTION_WORDS,
    Action,
    ActionSyntaxError,
    LegalAction,
    parse_action,
)
from bouillotte.rules.cards import parse_card
from bouillotte.rules.errors import UserError

WORDS = "straddle, decline, pass, bet, call, raise, fold, all-in, no-more, discard, buy"


def refusal(text: str) -> str:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(text)
    assert isinstance(caught.value, UserError) and isinstance(caught.value, ValueError)
    return str(caught.value)


def test_the_words_are_the_rules_words_in_a_fixed_order() -> None:
    assert ", ".join(ACTION_WORDS) == WORDS


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("A pass", Action("A", "pass")),
        ("B fold", Action("B", "fold")),
        ("C call", Action("C", "call")),
        ("D all-in", Action("D", "all-in")),
        ("A no-more", Action("A", "no-more")),
        ("B straddle", Action("B", "straddle")),
        ("B decline", Action("B", "decline")),
        ("C buy", Action("C", "buy")),
        ("A bet 35", Action("A", "bet", 35)),
        ("B raise 120", Action("B", "raise", 120)),
        ("A bet 0", Action("A", "bet", 0)),
        ("Marie raise 7", Action("Marie", "raise", 7)),
    ],
)
def test_a_word_and_its_total(text: str, action: Action) -> None:
    assert parse_action(text) == action


def test_discard_names_the_cards_thrown_away_or_none() -> None:
    assert parse_action("A discard 9S 8S") == Action(
        "A", "discard", None, (parse_card("9S"), parse_card("8S"))
    )
    assert parse_action("A discard") == Action("A", "discard", None, ())


def test_a_card_we_cannot_read_is_refused_with_the_line() -> None:
    assert refusal("A discard 9S 9X") == (
        "'A discard 9S 9X': '9X' is not a card: ranks are A K Q J 10 9 8 7, suits are "
        "S H D C (or ♠ ♥ ♦ ♣), rank first, as in AS or 9H"
    )


@pytest.mark.parametrize("text", ["A", "", "A bet 35 now"])
def test_a_line_of_the_wrong_length_shows_how_to_write_one(text: str) -> None:
    assert refusal(text) == (
        f"{text!r} is not an action: write '<player> <word> [amount]', as in 'A bet 35'"
    )


def test_an_unknown_word_lists_the_words() -> None:
    assert refusal("A check") == f"'check' is not an action word; the words are {WORDS}"
    assert refusal("A Check 5") == f"'Check' is not an action word; the words are {WORDS}"


@pytest.mark.parametrize("text", ["A bet", "A bet x", "A raise -5", "A raise 3.5"])
def test_a_bet_or_raise_needs_the_total_stake(text: str) -> None:
    word = text.split()[1]
    assert refusal(text) == (
        f"{text!r}: '{word}' needs a whole number, the player's total stake after it "
        f"(as in 'A {word} 35')"
    )


@pytest.mark.parametrize("text", ["A call 10", "A fold 0", "A pass 5"])
def test_other_words_take_no_amount(text: str) -> None:
    assert refusal(text) == f"{text!r}: '{text.split()[1]}' takes no amount"


def test_an_action_is_written_back_as_it_was_read() -> None:
    assert str(Action("A", "pass")) == "A pass"
    assert str(Action("A", "bet", 35)) == "A bet 35"
    assert str(Action("A", "bet", 0)) == "A bet 0"
    assert str(Action("A", "discard", None, (parse_card("9S"), parse_card("8S")))) == (
        "A discard 9S 8S"
    )
    for text in ["B raise 120", "A discard 9S", "C fold"]:
        assert str(parse_action(text)) == text


def test_what_is_legal_is_said_in_the_words_a_player_types() -> None:
    assert str(LegalAction("fold")) == "fold"
    assert str(LegalAction("call", 20)) == "call 20"
    assert str(LegalAction("call", 20, 20)) == "call 20"
    assert str(LegalAction("bet", 5, 100)) == "bet 5-100"
    assert str(LegalAction("raise", 40, 160, 20)) == "raise 40-160 by 20"
    assert str(LegalAction("raise", 40, 160, 0)) == "raise 40-160"
    assert str(LegalAction("discard", 0, 3)) == "discard 0-3 cards"
    assert str(LegalAction("discard", 0, 0)) == "discard"
    fold = LegalAction("fold")
    assert (fold.kind, fold.low, fold.high, fold.step) == ("fold", None, None, None)
    assert fold == LegalAction("fold", None, None, None) != LegalAction("fold", 0)
    assert len({fold, LegalAction("fold"), LegalAction("call", 20)}) == 2


def test_actions_are_equal_by_value() -> None:
    bet = Action("A", "bet", 35)
    assert bet == parse_action("A bet 35") and hash(bet) == hash(parse_action("A bet 35"))
    assert bet != Action("A", "bet", 36) and bet != Action("B", "bet", 35)
    assert repr(bet) == "Action(player='A', kind='bet', amount=35, cards=())"
