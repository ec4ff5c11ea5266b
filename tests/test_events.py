"""Typed events and outcome: each pool records why it was won, as data; an action is checked
before anything changes, including a betting word said in place of the straddle's answer."""

from __future__ import annotations

import uuid

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import Deal, IllegalAction, Phase
from bouillotte.play.events import (
    Act,
    Decline,
    End,
    Levy,
    WonByBrelan,
    WonByPoint,
    WonBySuit,
    WonUncontested,
    event_json,
    once,
)
from bouillotte.play.hands import Kind
from bouillotte.play.outcome import Status, replay
from bouillotte.rules.cards import SUITS, parse_card
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

from .dealkit import play, start
from .test_worked_examples import SIGHT_ACTIONS, SIGHT_CAVES, SIGHT_HANDS

CLUBS = SUITS.index("C")


def test_the_point_and_the_suit_that_cannot_lose_are_recorded(library: Library) -> None:
    """Foster's sight: clubs 40 (tied with spades, A nearest the dealer's right) takes the
    main pool; D holds the queen of clubs, so clubs take the side pool too."""
    deal = start(library.get("foster"), SIGHT_HANDS, "9H", caves=SIGHT_CAVES)
    outcome = play(deal, SIGHT_ACTIONS)
    main, side = outcome.pots
    assert main.decision == WonByPoint(CLUBS, 40)
    assert main.winner_value is not None and main.winner_value.kind is Kind.POINT
    assert side.decision == WonBySuit(CLUBS, parse_card("QC"))


def test_a_brelan_and_an_uncontested_pool_are_recorded(library: Library) -> None:
    hands = {"A": "KS KH KD", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH QH 8H"}
    foster = library.get("foster")
    shown = play(
        start(foster, hands, "AD"), ["A decline", "A bet 10", "B call", "C fold", "D fold"]
    )
    [pot] = shown.pots
    assert isinstance(pot.decision, WonByBrelan)
    assert pot.decision.value.kind is Kind.BRELAN and pot.winner == "A"
    alone = play(
        start(foster, hands, "AD"), ["A decline", "A bet 10", "B fold", "C fold", "D fold"]
    )
    assert alone.pots[0].decision == WonUncontested("every other player has withdrawn")
    assert replay(alone.events, {n: 100 for n in hands}).pots == alone.pots


def test_a_betting_word_in_place_of_the_straddle_is_refused_when_another_may_straddle(
    library: Library,
) -> None:
    """Where the straddle passes on after a refusal, A's bet cannot stand for his refusal:
    B would be offered the straddle before anyone bets. The deal is left as it was."""
    variant = library.get("foster").with_values(
        {"forced_bets.straddling_ends_at_first_refusal": False}
    )
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(variant, hands, "AD")
    before = (list(deal.events), list(deal.contrib), deal.to_act, deal.phase)
    with pytest.raises(IllegalAction) as caught:
        deal.apply(parse_action("A bet 10"))
    assert caught.value.rule == "forced_bets.straddles"
    assert (deal.events, deal.contrib, deal.to_act, deal.phase) == before
    deal.apply(parse_action("A decline"))
    assert deal.phase is Phase.STRADDLE and deal.to_act == "B"


def test_a_call_in_place_of_the_straddle_declines_it_and_sees_the_last_one(
    library: Library,
) -> None:
    """Britannica: a straddle must be seen before the deal. A straddles; B's 'call' declines
    B's own straddle and sees A's."""
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    deal = start(library.get("britannica-1911"), hands, "AD")
    deal.apply(parse_action("A straddle"))
    deal.apply(parse_action("B call"))
    declined = [e for e in deal.events if isinstance(e, Decline)]
    assert declined == [Decline("B", True)]
    called = [e for e in deal.events if isinstance(e, Act)]
    assert called[-1].action == "call" and deal.contrib[1] == deal.contrib[0]
    assert event_json(declined[0]) == {"type": "decline", "player": "B", "implicit": True}


def test_every_offered_action_is_accepted_and_nothing_past_it(library: Library) -> None:
    """One check offers and refuses: each word offered, at each end of its range, is
    accepted; one counter past either end is refused."""
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 9C", "D": "AH KH QH"}
    for variant_id in ("foster", "pagat", "britannica-1911"):
        variant = library.get(variant_id)

        def fresh(variant: Variant = variant) -> Deal:
            deal = start(variant, hands, "AD")
            deal.apply(parse_action("A decline"))
            return deal

        offered = fresh().legal_actions()
        assert {"pass", "bet", "fold"} <= {legal.kind for legal in offered}
        for legal in offered:
            if legal.kind not in ("bet", "raise"):
                fresh().apply(parse_action(f"A {legal.kind}"))
                continue
            assert legal.low is not None and legal.high is not None
            for amount in (legal.low, legal.high):
                fresh().apply(parse_action(f"A {legal.kind} {amount}"))
            for amount in (legal.low - 1, legal.high + 1):
                with pytest.raises(IllegalAction):
                    fresh().apply(parse_action(f"A {legal.kind} {amount}"))


def test_a_record_logged_again_is_the_one_made_the_first_time() -> None:
    # Records are immutable, so deals that log the same one share it: the first asking
    # makes it, later askings for the same fields get that very record, other fields
    # another. (A name no deal has used, so that the record is new to this process.)
    name = f"player {uuid.uuid4().hex}"
    first = once(Levy, name, 3)
    assert first == Levy(name, 3)
    assert once(Levy, name, 3) is first
    other = once(Levy, name, 4)
    assert other == Levy(name, 4)
    assert once(Levy, name, 4) is other


def test_fields_equal_across_types_never_share_a_record() -> None:
    # ``1 == True == 1.0`` and a StrEnum member equals its string: the shared records are
    # keyed by each field's type too, so each asking gets a record of its own fields.
    name = f"player {uuid.uuid4().hex}"
    # (A float amount is a type error, as in ``Levy(name, 1.0)``: ``once`` keeps the record's
    # signature; the ignore below would be reported unused if it did not.)
    float_levy = once(Levy, name, 1.0)  # type: ignore[arg-type]
    by_int, by_bool, by_float = once(Levy, name, 1), once(Levy, name, True), float_levy
    assert [type(r.amount) for r in (by_int, by_bool, by_float)] == [int, bool, float]
    assert once(Levy, name, 1) is by_int and once(Levy, name, True) is by_bool
    settled = once(End, Status.SETTLED, 0)
    assert type(once(End, "settled", 0).status) is str
    assert once(End, Status.SETTLED, 0) is settled and type(settled.status) is Status
