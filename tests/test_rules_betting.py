"""The betting as the sources describe it, and what a player is told when a word is refused.

Foster, Betting: each player in turn "can do one of three things: Equal the amount of the
ante; increase it as much as he pleases within the limits of his cave; or pass, retaining
his cards but betting nothing." Once the game is open a player calls, raises or withdraws.
The teaching card (03): "An opener brings their total contribution up to the largest
already made; our agreement requires adding at least 1 even when already equal"; (05) "A
player short of chips may call all-in with the remainder, but cannot open or raise."
Pierer's Brelan opens for exactly as much as is in the pool and raises by multiples of the bet
(variants/brelan-pierer.yaml). The legal lists and the refusals below are reckoned by hand
from these rules; the refusals' words are what a user reads, so they are pinned whole.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bouillotte.play.actions import LegalAction, parse_action
from bouillotte.play.deal import Deal, IllegalAction, Phase
from bouillotte.play.events import Act, Privilege
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

from .dealkit import start

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")
PAGAT = LIBRARY.get("pagat")
PIERER = LIBRARY.get("brelan-pierer")
HANDS = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 9S", "D": "AH KH QC"}
PIERER_HANDS = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 7S", "D": "AH KH QC"}


def deal(
    variant: Variant = FOSTER,
    actions: Sequence[str] = (),
    hands: dict[str, str] = HANDS,
    retourne: str = "9H",
    caves: dict[str, int] | None = None,
) -> Deal:
    d = start(variant, hands, retourne, caves=caves)
    for text in actions:
        d.apply(parse_action(text))
    return d


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


def refused(d: Deal, text: str) -> IllegalAction:
    before = (legal(d), len(d.events), d.to_act)
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action(text))
    assert (legal(d), len(d.events), d.to_act) == before  # the deal is unchanged
    assert [str(a) for a in caught.value.legal] == before[0]
    return caught.value


def says(d: Deal, text: str) -> tuple[str, str]:
    error = refused(d, text)
    return error.message, error.rule


# -- Foster: blind 5, straddles double the last, the calling privilege --------------------


def test_foster_opening_equals_the_blind_and_goes_up_to_the_cave() -> None:
    d = deal(actions=["A decline"])
    assert (d.phase, d.to_act) == (Phase.BETTING, "A")
    assert legal(d) == ["pass", "bet 5-100", "all-in 100", "fold"]
    assert says(d, "A bet 4") == (
        "A cannot open for 4: the least opening is 5",
        "betting.opening_minimum",
    )
    assert says(d, "A bet 101") == (
        "A cannot stake 101: his cave allows at most 100 (bets are limited to the cave)",
        "stakes.cave",
    )
    for word in ["call", "no-more", "raise 10"]:
        assert says(d, f"A {word}") == (
            f"nobody has opened yet, so A cannot '{word.split()[0]}': pass, open with "
            "'bet N', or fold",
            "betting.pass_before_opening",
        )
    for word in ["straddle", "decline"]:
        assert says(d, f"A {word}") == (
            f"A cannot '{word}': a straddle is offered only before the deal, and that time is past",
            "forced_bets.straddles",
        )


def test_foster_once_open_a_player_calls_raises_or_withdraws() -> None:
    d = deal(actions=["A decline", "A bet 10"])
    assert d.to_act == "B"
    assert legal(d) == ["call 10", "raise 11-100", "all-in 100", "fold"]
    assert says(d, "B pass") == (
        "the game is open: B cannot pass now, only call, raise or fold (withdraw from the pool)",
        "betting.pass_before_opening",
    )
    assert says(d, "B bet 20") == (
        "the game is already open at 10: raise to a total with 'raise N'",
        "betting.opening_minimum",
    )
    assert says(d, "B raise 10") == (
        "B cannot raise to 10: the bet is 10 and a raise must reach at least 11",
        "betting.minimum_raise",
    )
    assert says(d, "B raise 101") == (
        "B cannot stake 101: his cave allows at most 100 (bets are limited to the cave)",
        "stakes.cave",
    )
    assert says(d, "B no-more") == (
        "'no-more' is said only when everyone has met the bet; B must call 10, raise or fold",
        "betting.closing",
    )
    assert says(d, "B decline") == (
        "B cannot 'decline': a straddle is offered only before the deal, and that time is past",
        "forced_bets.straddles",
    )


def test_foster_the_opener_holds_the_privilege_once_all_have_called() -> None:
    """A opens for 10 and B, C, D call: the privilege is A's, who may raise or pass it."""
    d = deal(actions=["A decline", "A bet 10", "B call", "C call", "D call"])
    assert (d.phase, d.to_act) == (Phase.PRIVILEGE, "A")
    assert d.events[-1] == Privilege("A", 10)
    assert legal(d) == ["no-more", "raise 11-100", "all-in 100", "fold"]
    assert says(d, "A call") == (
        "A has already met the bet: say 'no-more' or raise",
        "betting.closing",
    )
    assert says(d, "A raise 10") == (
        "A cannot raise to 10: the bet is 10 and a raise must reach at least 11",
        "betting.minimum_raise",
    )
    assert says(d, "A straddle") == (
        "A cannot 'straddle': a straddle is offered only before the deal, and that time is past",
        "forced_bets.straddles",
    )
    assert d.pot_total() == 40


def test_foster_the_word_passes_to_the_next_player_with_a_counter_left() -> None:
    """B called 10 of his 11: his last counter keeps him in, and the word A passes is his."""
    d = deal(
        actions=["A decline", "A bet 10", "B call", "C call", "D call", "A no-more"],
        caves={"A": 100, "B": 11, "C": 100, "D": 100},
    )
    assert (d.phase, d.to_act) == (Phase.PRIVILEGE, "B")
    assert legal(d) == ["no-more", "raise 11", "all-in 11", "fold"]


def test_foster_calls_add_only_what_meets_the_bet() -> None:
    """D's blind of 5 counts toward his stake: his call of 10 adds 5."""
    d = deal(actions=["A decline", "A bet 10", "B call", "C fold", "D call"])
    acts = [e for e in d.events if isinstance(e, Act)]
    assert [(e.player, e.action, e.adds, e.total, e.pot) for e in acts] == [
        ("A", "bet", 10, 10, 15),
        ("B", "call", 10, 10, 25),
        ("C", "fold", None, None, None),
        ("D", "call", 5, 10, 30),
    ]


def test_foster_a_player_with_nothing_left_is_not_asked_again() -> None:
    """B has only the 10 he called; when A raises to 20, the word goes past B to C."""
    d = deal(
        actions=["A decline", "A bet 10", "B call", "C call", "D call", "A raise 20"],
        caves={"A": 100, "B": 10, "C": 100, "D": 100},
    )
    assert d.to_act == "C"  # B has nothing left to say
    assert legal(d) == ["call 20", "raise 21-100", "all-in 100", "fold"]


def test_a_player_speaks_only_in_turn_and_only_if_seated() -> None:
    d = deal(actions=["A decline"])
    assert says(d, "B pass") == (
        "it is A's turn, not B's (play passes to the right)",
        "table.direction",
    )
    turn = refused(d, "B pass")
    assert turn.citation == FOSTER.cite("table.direction") and "right" in turn.citation
    assert says(d, "X pass") == (
        "there is no player 'X' at this table (A, B, C, D)",
        "table.players",
    )


def test_a_refusal_describes_the_rule_its_citation_and_what_is_legal() -> None:
    error = refused(deal(actions=["A decline"]), "A bet 4")
    assert error.citation == FOSTER.cite("betting.opening_minimum")
    assert error.describe() == (
        "A cannot open for 4: the least opening is 5 [rule betting.opening_minimum: "
        f"{error.citation}] Legal now: pass, bet 5-100, all-in 100, fold."
    )


def test_nothing_follows_the_end_of_a_deal() -> None:
    d = deal(actions=["A decline", "A bet 10", "B fold", "C fold", "D fold"])
    assert d.is_over and d.to_act is None and legal(d) == []
    with pytest.raises(IllegalAction) as caught:
        d.apply(parse_action("A pass"))
    assert caught.value.message == (
        "the deal is over (uncontested): no action can follow its settlement"
    )
    assert caught.value.describe() == (
        "the deal is over (uncontested): no action can follow its settlement [rule -: no rule "
        "is at issue: the deal has ended] Legal now: nothing (the deal is over)."
    )


# -- the teaching card: the dealer antes 1, an opener adds at least 1, no all-in opening --


def test_pagat_opening_matches_the_largest_and_adds_at_least_one() -> None:
    d = deal(PAGAT, ["A decline"])
    # A has nothing in: he opens at 1, matching the dealer's 1; all of his 100 is refused
    # ("cannot open or raise" all-in), so the most he may open for is 99.
    assert legal(d) == ["pass", "bet 1-99", "fold"]
    assert says(d, "A all-in") == (
        "A cannot open with his whole cave (100): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )
    assert says(d, "A bet 100") == says(d, "A all-in")
    d = deal(PAGAT, ["A decline", "A pass", "B pass", "C pass"])
    # D, the dealer, has his ante of 1 in and must add at least 1: 2 to 99 + 1 = 100 - 1.
    assert d.to_act == "D"
    assert legal(d) == ["pass", "bet 2-99", "fold"]


def test_pagat_a_whole_cave_at_the_least_opening_is_still_refused_as_all_in() -> None:
    """A has 1 counter: the least opening (the dealer's 1) is his whole cave."""
    d = deal(PAGAT, ["A decline"], caves={"A": 1, "B": 100, "C": 100, "D": 100})
    assert legal(d) == ["pass", "fold"]
    assert says(d, "A bet 1") == (
        "A cannot open with his whole cave (1): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )
    d = deal(PAGAT, ["A decline", "A bet 40"], caves={"A": 100, "B": 41, "C": 100, "D": 100})
    assert legal(d) == ["call 40", "fold"]
    assert says(d, "B raise 41") == (
        "B cannot raise with his whole cave (41): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )


def test_pagat_all_in_only_as_a_call() -> None:
    """B's cave of 30 is less than A's bet of 40: he may call all-in, never raise all-in."""
    d = deal(PAGAT, ["A decline", "A bet 40"], caves={"A": 100, "B": 30, "C": 100, "D": 100})
    assert legal(d) == ["call 30", "all-in 30", "fold"]
    assert says(d, "B raise 30") == (
        "B cannot raise to 30: the bet is 40 and a raise must reach at least 41",
        "betting.minimum_raise",
    )
    d.apply(parse_action("B all-in"))
    act = d.events[-1]
    assert isinstance(act, Act)
    assert (act.player, act.adds, act.total, act.all_in, act.sight) == ("B", 30, 30, True, True)


def test_pagat_a_raise_must_leave_something_in_the_cave() -> None:
    d = deal(PAGAT, ["A decline", "A bet 40"], caves={"A": 100, "B": 60, "C": 100, "D": 100})
    assert legal(d) == ["call 40", "raise 41-59", "fold"]
    assert says(d, "B all-in") == (
        "B cannot raise with his whole cave (60): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )
    assert says(d, "B raise 60") == says(d, "B all-in")


def test_pagat_no_more_round_after_everyone_has_called() -> None:
    """Teaching card 03: "With 3 or 4, after all calls everyone except the last raiser gets
    one further chance to raise or say “no more”." """
    d = deal(PAGAT, ["A decline", "A bet 5", "B call", "C call", "D call"])
    assert (d.phase, d.to_act) == (Phase.NO_MORE, "B")
    assert legal(d) == ["no-more", "raise 6-99", "fold"]
    assert says(d, "B call") == (
        "B has already met the bet: say 'no-more' or raise",
        "betting.closing",
    )
    assert says(d, "B all-in") == (
        "B cannot raise with his whole cave (100): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )
    for text in ["B no-more", "C no-more", "D no-more"]:
        d.apply(parse_action(text))
    assert d.is_over


def test_pagat_a_fold_in_the_no_more_round_passes_the_turn() -> None:
    d = deal(PAGAT, ["A decline", "A bet 5", "B call", "C call", "D call", "B fold"])
    assert (d.phase, d.to_act) == (Phase.NO_MORE, "C")
    for text in ["C no-more", "D no-more"]:
        d.apply(parse_action(text))
    assert d.is_over
    assert [p.contenders for p in d.outcome.pots] == [("A", "C", "D")]


def test_a_player_all_in_has_nothing_more_to_say_in_the_no_more_round() -> None:
    """C calls all in for his 40; the no-more round goes from the raiser A to B and D."""
    d = deal(
        PAGAT,
        ["A decline", "A bet 40", "B call", "C call", "D call"],
        caves={"A": 100, "B": 100, "C": 40, "D": 100},
    )
    assert (d.phase, d.to_act) == (Phase.NO_MORE, "B")
    assert says(d, "B pass") == (
        "the game is open: B cannot pass now, only call, raise or fold (withdraw from the pool)",
        "betting.pass_before_opening",
    )
    d.apply(parse_action("B no-more"))
    assert d.to_act == "D"
    d.apply(parse_action("D no-more"))
    assert d.is_over


# -- Pierer: the opening as much as the pool, raises by multiples of the bet ------------


def test_pierer_opens_for_the_pool_and_raises_by_multiples_of_the_bet() -> None:
    d = deal(PIERER, [], PIERER_HANDS, "7H", caves={"A": 100, "B": 50, "C": 100, "D": 100})
    # D's blind 4 is the pool: A opens for exactly 4 ("so muß er so viel Geld zusetzen,
    # als im Stamm steht"), not more, and not with his whole cave; no straddles here.
    assert (d.phase, d.to_act) == (Phase.BETTING, "A")
    assert legal(d) == ["pass", "bet 4", "fold"]
    assert says(d, "A bet 5") == (
        "A cannot open for 5: the opening adds exactly as much as the pot holds, to 4; "
        "raising comes after",
        "betting.opening_minimum",
    )
    assert says(d, "A bet 3")[1] == "betting.opening_minimum"
    assert says(d, "A all-in")[1] == "betting.opening_minimum"
    assert says(d, "A straddle") == (
        "A cannot 'straddle': this system has no straddles",
        "forced_bets.straddles",
    )
    d.apply(parse_action("A bet 4"))
    # B may double, triple... the bet of 4: 8, 12, ... and his whole cave of 50 as well.
    assert legal(d) == ["call 4", "raise 8-50 by 4", "all-in 50", "fold"]
    assert says(d, "B raise 10") == (
        "B cannot raise to 10: a raise doubles, quadruples or otherwise multiplies the bet "
        "of 4 (to 8, 12, ...)",
        "betting.raises",
    )
    assert says(d, "B raise 6") == (
        "B cannot raise to 6: the bet is 4 and a raise must reach at least 8",
        "betting.minimum_raise",
    )
    assert says(d, "B raise 52") == (
        "B cannot stake 52: his cave allows at most 50 (bets are limited to the cave)",
        "stakes.cave",
    )
    d.apply(parse_action("B raise 50"))
    assert d.events[-1] == Act("B", "raise", 50, 50, 58, all_in=True)


def test_pierer_opening_is_exactly_the_pot_at_its_boundaries() -> None:
    caves = {"A": 4, "B": 3, "C": 100, "D": 100}
    d = deal(PIERER, [], PIERER_HANDS, "7H", caves=caves)
    # A's whole cave is the pot's 4: the exact opening, said either way.
    assert legal(d) == ["pass", "bet 4", "all-in 4", "fold"]
    d.apply(parse_action("A pass"))
    # B holds 3, less than the pot: he cannot open at all.
    assert legal(d) == ["pass", "fold"]
    d = deal(PIERER, ["A pass", "B pass", "C pass"], PIERER_HANDS, "7H")
    # The dealer's passe of 4 stands in the pot: he adds 4 more, to 8, and no other sum.
    assert legal(d) == ["pass", "bet 8", "fold"]
    at_least = PIERER.with_values({"betting.opening_minimum": "as-much-as-the-pot"})
    d = deal(at_least, [], PIERER_HANDS, "7H")
    assert legal(d) == ["pass", "bet 4-100", "all-in 100", "fold"]


# Pierer's raises read four ways ("Ich setze 8, 16, 40 etc. Frcs. zu", the stake being 4):
# after A's opening of 4, B's least raise and its step; then, after B raises to the least,
# C's. Reckoned by hand from each reading's docstring in rules/profile.py.
RAISE_READINGS = {
    # make it 8; after 8, twice 8 = 16, by 8
    "multiples-of-the-bet": ("raise 8-50 by 4", "raise 8", "raise 16-100 by 8"),
    # make it 8; after 8, the next multiple of 4: 12, by 4
    "multiples-of-the-first-stake": ("raise 8-50 by 4", "raise 8", "raise 12-100 by 4"),
    # add 8 to 4: 12; after 12, add 8: 20, by 4
    "adds-multiples-of-the-first-stake": ("raise 12-50 by 4", "raise 12", "raise 20-100 by 4"),
    # add 8 to 4: 12; after 12, add twice 12: 36, by 12
    "adds-multiples-of-the-bet": ("raise 12-50 by 4", "raise 12", "raise 36-100 by 12"),
}


@pytest.mark.parametrize("reading", sorted(RAISE_READINGS))
def test_pierer_raises_under_each_reading(reading: str) -> None:
    first, said, second = RAISE_READINGS[reading]
    variant = PIERER.with_values({"betting.raises": reading})
    caves = {"A": 100, "B": 50, "C": 100, "D": 100}
    d = deal(variant, ["A bet 4"], PIERER_HANDS, "7H", caves=caves)
    assert legal(d)[1] == first
    d.apply(parse_action("B " + said))
    assert legal(d)[1] == second


def test_pierer_first_stake_is_what_the_opener_added_not_his_total() -> None:
    # The dealer opens last, adding 4 to his passe of 4: the bet is 8, the first stake 4.
    variant = PIERER.with_values({"betting.raises": "multiples-of-the-first-stake"})
    d = deal(variant, ["A pass", "B pass", "C pass", "D bet 8"], PIERER_HANDS, "7H")
    assert d.to_act == "A"
    assert legal(d)[1] == "raise 12-100 by 4"
    assert says(d, "A raise 14") == (
        "A cannot raise to 14: a raise makes the stake a multiple (twice or more) of the "
        "first stake, 4 (to 12, 16, ...)",
        "betting.raises",
    )
    d = deal(PIERER, ["A pass", "B pass", "C pass", "D bet 8"], PIERER_HANDS, "7H")
    assert legal(d)[1] == "raise 16-100 by 8"


def test_where_all_in_may_not_raise_a_whole_cave_off_the_multiples_is_refused_as_all_in() -> None:
    variant = PIERER.with_values({"betting.all_in_may_open_or_raise": False})
    d = deal(
        variant, ["A bet 4"], PIERER_HANDS, "7H", caves={"A": 100, "B": 50, "C": 100, "D": 100}
    )
    assert legal(d) == ["call 4", "raise 8-49 by 4", "fold"]
    assert says(d, "B raise 50") == (
        "B cannot raise with his whole cave (50): going all in is only a call under this system",
        "betting.all_in_may_open_or_raise",
    )


def test_pierer_opening_counts_the_whole_pool_for_the_dealer() -> None:
    """After A, B and C pass, D has his blind of 4 in a pool of 4: he opens for 4 more."""
    d = deal(PIERER, ["A pass", "B pass", "C pass"], PIERER_HANDS, "7H")
    assert d.to_act == "D"
    assert legal(d) == ["pass", "bet 8", "fold"]


def test_pagat_a_player_with_one_counter_left_is_asked_in_the_no_more_round() -> None:
    """B's call of 5 leaves him 1 counter: he is still asked, and may say no more."""
    d = deal(
        PAGAT,
        ["A decline", "A bet 5", "B call", "C fold", "D call"],
        caves={"A": 100, "B": 6, "C": 100, "D": 100},
    )
    assert (d.phase, d.to_act) == (Phase.NO_MORE, "B")


def test_foster_a_player_who_withdraws_after_the_word_is_passed_passes_it_on() -> None:
    """A holds the privilege and passes the word to B; B withdraws instead of declining:
    the word goes on to C, whose refusal is the call."""
    d = deal(actions=["A decline", "A bet 10", "B call", "C call", "D call", "A no-more"])
    assert d.to_act == "B"
    d.apply(parse_action("B fold"))
    assert (d.phase, d.to_act) == (Phase.PRIVILEGE, "C")
    d.apply(parse_action("C no-more"))
    assert d.is_over


def test_foster_an_all_in_at_the_bet_is_a_call_and_above_it_a_raise() -> None:
    """B's whole cave is 10, A's bet: his all-in is a call, and nobody must speak again;
    with 100 it raises, and A must answer."""
    d = deal(
        actions=["A decline", "A bet 10", "B all-in", "C call", "D call"],
        caves={"A": 100, "B": 10, "C": 100, "D": 100},
    )
    assert d.events[-4] == Act("B", "all-in", 10, 10, 25, all_in=True)
    assert (d.phase, d.to_act) == (Phase.PRIVILEGE, "A")
    d = deal(actions=["A decline", "A bet 10", "B all-in"])
    assert d.events[-1] == Act("B", "all-in", 100, 100, 115, all_in=True)
    assert (d.to_act, legal(d)) == ("C", ["call 100", "all-in 100", "fold"])


def test_the_words_that_put_in_nothing_are_recorded_as_said() -> None:
    d = deal(actions=["A decline", "A pass"])
    assert d.events[-1] == Act("A", "pass")
    d = deal(actions=["A decline", "A all-in"])
    assert d.events[-1] == Act("A", "all-in", 100, 100, 105, all_in=True)
    d = deal(PAGAT, ["A decline", "A bet 5", "B call", "C call", "D call", "B no-more"])
    assert d.events[-1] == Act("B", "no-more")


def test_an_opening_with_nothing_in_the_pool_is_at_least_one_counter() -> None:
    """Pierer opens for as much as the pool, and Foster's reading 'equal the largest'
    matches the stake up: with no blind, the least opening is still one counter."""
    pierer = PIERER.with_values({"forced_bets.dealer_blind": 0})
    assert legal(deal(pierer, [], PIERER_HANDS, "7H")) == ["pass", "bet 1", "fold"]
    at_least = pierer.with_values({"betting.opening_minimum": "as-much-as-the-pot"})
    assert legal(deal(at_least, [], PIERER_HANDS, "7H")) == [
        "pass",
        "bet 1-100",
        "all-in 100",
        "fold",
    ]
    largest = FOSTER.with_values(
        {"forced_bets.dealer_blind": 0, "betting.opening_minimum": "equal-the-largest"}
    )
    assert legal(deal(largest, ["A decline"])) == ["pass", "bet 1-100", "all-in 100", "fold"]


def test_pagat_a_player_with_one_counter_is_asked_after_the_opening() -> None:
    d = deal(PAGAT, ["A decline", "A bet 1"], caves={"A": 100, "B": 1, "C": 100, "D": 100})
    assert d.to_act == "B"


def test_foster_the_privilege_round_ends_when_one_player_is_left_to_raise() -> None:
    """B is all in for 10; A, offered the privilege, withdraws: C alone could raise, with
    nobody to raise against, so the hands are shown."""
    d = deal(
        actions=["A decline", "A bet 10", "B all-in", "C call", "D fold", "A fold"],
        caves={"A": 100, "B": 10, "C": 100, "D": 100},
    )
    assert d.is_over
    assert [p.contenders for p in d.outcome.pots] == [("B", "C")]


def test_the_counters_the_players_policies_read() -> None:
    """The deal keeps, for the policies' view of the table, who came in by his own word,
    how many of those are still in, how often each has bet or raised, and how many
    betting words were said. A opens, B calls, C raises, D folds."""
    d = deal(actions=["A decline", "A bet 10", "B call", "C raise 20", "D fold"])
    seat = {name: i for i, name in enumerate(d.names)}
    assert [d.came_in[seat[n]] for n in "ABCD"] == [True, True, True, False]
    assert [d.raises[seat[n]] for n in "ABCD"] == [1, 0, 1, 0]
    assert (d.in_by_choice, d.spoken) == (3, 4)
    d.apply(parse_action("A fold"))
    assert (d.in_by_choice, d.spoken) == (2, 5)
    d.apply(parse_action("B fold"))
    assert d.is_over and (d.in_by_choice, d.spoken) == (1, 6)


def test_the_least_opening_and_the_whole_cave_are_offered_at_the_edges() -> None:
    """Pagat: A with 2 counters may open for 1 only (all of his 2 would be all in). Foster:
    A with 5 may open for the blind's 5, which is all he has, so as an all-in too."""
    d = deal(PAGAT, ["A decline"], caves={"A": 2, "B": 100, "C": 100, "D": 100})
    assert legal(d) == ["pass", "bet 1", "fold"]
    d = deal(actions=["A decline"], caves={"A": 5, "B": 100, "C": 100, "D": 100})
    assert d.legal_actions() == [
        LegalAction("pass"),
        LegalAction("bet", 5, 5),
        LegalAction("all-in", 5, 5),
        LegalAction("fold"),
    ]


def test_pagat_a_cave_equal_to_the_bet_may_call_it_all_in() -> None:
    d = deal(PAGAT, ["A decline", "A bet 40"], caves={"A": 100, "B": 40, "C": 100, "D": 100})
    assert d.legal_actions() == [
        LegalAction("call", 40),
        LegalAction("all-in", 40, 40),
        LegalAction("fold"),
    ]


def test_a_call_with_the_last_counter_is_all_in() -> None:
    d = deal(
        PAGAT, ["A decline", "A bet 1", "B call"], caves={"A": 100, "B": 1, "C": 100, "D": 100}
    )
    assert d.events[-1] == Act("B", "call", 1, 1, 3, all_in=True)


def test_pierer_raises_on_a_bet_of_one_go_by_one() -> None:
    pierer = PIERER.with_values({"forced_bets.dealer_blind": 0})
    d = deal(pierer, ["A bet 1"], PIERER_HANDS, "7H")
    assert d.legal_actions()[1] == LegalAction("raise", 2, 100, 1)


def test_words_are_recorded_for_players_of_any_name() -> None:
    """Each word is recorded with its speaker, whoever he is (names never seen before)."""
    names = {"Nord": "AC KC 9C", "Ouest": "KS 9D 8D", "Sud": "AS QS 9S", "Est": "AH KH QC"}
    d = start(FOSTER, names, "9H", dealer="Est")
    for text in ["Nord decline", "Nord pass", "Ouest fold"]:
        d.apply(parse_action(text))
    assert d.events[-2:] == [Act("Nord", "pass"), Act("Ouest", "fold")]


def test_each_raise_is_counted_for_the_player_who_makes_it() -> None:
    d = deal(actions=["A decline", "A bet 10", "B raise 20", "C fold", "D fold", "A raise 30"])
    d.apply(parse_action("B raise 40"))
    seat = {name: i for i, name in enumerate(d.names)}
    assert (d.raises[seat["A"]], d.raises[seat["B"]]) == (2, 2)
