"""What must hold for every deal under every profile, over random legal play."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bouillotte.play.actions import Action
from bouillotte.play.deal import Deal, new_deal
from bouillotte.play.events import Act
from bouillotte.play.outcome import replay
from bouillotte.rules.profiles import Library

LIBRARY = Library()
VARIANTS = LIBRARY.ids()
NAMES = ["A", "B", "C", "D", "E", "F"]
MAX_STEPS = 300


def random_game(data: st.DataObject, variant_id: str) -> tuple[Deal, list[Action], dict[str, Any]]:
    variant = LIBRARY.get(variant_id)
    players = NAMES[: variant.players]
    dealer = data.draw(st.sampled_from(players), label="dealer")
    caves = {p: data.draw(st.integers(1, 150), label=f"cave {p}") for p in players}
    seed = data.draw(st.integers(0, 10**6), label="seed")
    carried = data.draw(st.integers(0, 20), label="carried in")
    setup = {"players": players, "dealer": dealer, "caves": caves, "seed": seed, "carried": carried}
    deal = new_deal(variant, players, dealer, caves, seed=seed, carried_in=carried)
    actions: list[Action] = []
    while not deal.is_over:
        assert len(actions) < MAX_STEPS, "the deal does not end"
        legal = deal.legal_actions()
        assert legal, "a deal that is not over must offer an action"
        choice = data.draw(st.sampled_from(legal))
        amount = None
        cards: tuple[int, ...] = ()
        if choice.kind in ("bet", "raise"):
            assert choice.low is not None and choice.high is not None
            step = choice.step or 1  # raises that multiply the bet allow only its multiples
            amount = choice.low + step * data.draw(
                st.integers(0, (choice.high - choice.low) // step)
            )
        assert deal.to_act is not None
        if choice.kind == "discard":  # the draw: throw away any of the cards held
            hand = deal.hands[deal.seat_of[deal.to_act]]
            cards = tuple(data.draw(st.lists(st.sampled_from(hand), unique=True, max_size=3)))
        action = Action(deal.to_act, choice.kind, amount, cards)
        deal.apply(action)
        actions.append(action)
    return deal, actions, setup


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant_id=st.sampled_from(VARIANTS))
def test_random_legal_play_ends_and_conserves_chips(data: st.DataObject, variant_id: str) -> None:
    deal, _, setup = random_game(data, variant_id)
    outcome = deal.outcome
    start = sum(setup["caves"].values()) + setup["carried"]
    caves = sum(p.cave for p in outcome.players.values())
    ledgers = sum(p.ledger for p in outcome.players.values())
    assert caves + outcome.carry == start
    assert ledgers == 0, "bonuses on the ledger sum to zero"
    assert sum(p.net for p in outcome.players.values()) == setup["carried"] - outcome.carry
    assert all(p.cave >= 0 for p in outcome.players.values())
    # The outcome agrees with the engine's own state, and with its log replayed alone.
    assert [outcome.players[n].cave for n in deal.names] == deal.cave
    assert replay(deal.events, deal.initial_caves) == outcome


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant_id=st.sampled_from(VARIANTS))
def test_no_pot_goes_to_a_folded_player(data: st.DataObject, variant_id: str) -> None:
    deal, _, _ = random_game(data, variant_id)
    folded = {e.player for e in deal.outcome.events if isinstance(e, Act) and e.action == "fold"}
    for pot in deal.outcome.pots:
        assert pot.winner not in folded
        assert pot.winner in pot.contenders
    total = sum(p.amount for p in deal.outcome.pots)
    if deal.outcome.status != "void":
        assert total == sum(deal.contrib) + deal.carried_in


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant_id=st.sampled_from(VARIANTS))
def test_replaying_the_same_input_gives_the_same_log(data: st.DataObject, variant_id: str) -> None:
    deal, actions, setup = random_game(data, variant_id)
    again = new_deal(
        LIBRARY.get(variant_id),
        setup["players"],
        setup["dealer"],
        setup["caves"],
        seed=setup["seed"],
        carried_in=setup["carried"],
    )
    for action in actions:
        again.apply(action)
    assert again.outcome == deal.outcome
