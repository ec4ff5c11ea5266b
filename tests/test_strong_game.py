"""``python_bouillotte``: Bouillotte as an OpenSpiel game, played by the project's engine.

Needs ``open_spiel`` (the ``strong`` extra, ``pip install -e ".[strong]"``); without it every
test here is skipped with that message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.rules.cards import parse_card
from bouillotte.rules.profiles import Library

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed: pip install -e '.[strong]' to test the OpenSpiel game",
)

import bouillotte.strong  # noqa: E402, F401  (registers python_bouillotte)

BUNDLED = Library().ids()


def _load(variant: str, **params: object) -> object:
    return pyspiel.load_game("python_bouillotte", {"variant": variant, **params})


def _deck(hands: dict[str, str], retourne: str, under: str) -> list[int]:
    """The pack, top first, that deals these hands one card at a time from A (on the
    dealer's right), then the retourne and the card under it (Foster's "Three cards are
    given to each player, one at a time")."""
    rows = [[parse_card(c) for c in hand.split()] for hand in hands.values()]
    return [row[i] for i in range(3) for row in rows] + [parse_card(retourne), parse_card(under)]


def _play(state: object, words: list[str]) -> None:
    for word in words:
        named = {state.action_to_string(a): a for a in state.legal_actions()}  # type: ignore[attr-defined]
        assert word in named, (word, sorted(named))
        state.apply_action(named[word])  # type: ignore[attr-defined]


def test_registered_under_its_name() -> None:
    assert "python_bouillotte" in pyspiel.registered_names()


@pytest.mark.parametrize("variant", BUNDLED)
def test_openspiel_random_simulation_passes(variant: str) -> None:
    """OpenSpiel's own check of a game's promises (legal actions sorted and applicable,
    chance outcomes summing to one, returns summing to the utility sum, states cloned and
    serialised), over random playthroughs of every bundled system."""
    game = _load(variant)
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def test_random_simulation_of_an_abstraction() -> None:
    game = _load(
        "foster-three", cave=20, bets="pot+max", raises=2, straddles=False, deals=30, classes=4
    )
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)


def test_a_users_own_profile_by_its_path(tmp_path: Path) -> None:
    own = tmp_path / "my-three.yaml"
    own.write_text("title: My three\nsource: foster\nextends: foster-three\n", encoding="utf-8")
    game = _load(str(own))
    assert game.num_players() == 3  # type: ignore[attr-defined]
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_fosters_deal_pays_as_reckoned_by_hand() -> None:
    """The deal of ``Deal``'s docstring, dealt by chance card by card: D's blind of 5, A
    declines the straddle and bets 10, B folds, C raises to 20, D folds, A calls; C's three
    eights take the pool (5 + 20 + 20 = 45, of which 20 are his) and a counter of bonus
    from each other player: A -20 - 1, B -1, C +25 + 3, D -5 - 1."""
    game = _load("foster")
    state = game.new_initial_state()  # type: ignore[attr-defined]
    hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 8C", "D": "AH KH QH"}
    for card in _deck(hands, "AD", "9D"):
        assert state.is_chance_node()
        assert card in dict(state.chance_outcomes())
        state.apply_action(card)
    assert state.current_player() == 0
    # offered the straddle before the cards are dealt, A knows none of them yet
    assert state.information_state_string(0) == "A|unseen|"
    _play(state, ["decline"])
    assert state.information_state_string(0) == "A|AS KS 8H ret AD|Ad"
    _play(state, ["bet 10", "fold", "raise 20", "fold", "call"])
    assert state.is_terminal()
    assert state.returns() == [-21.0, -1.0, 28.0, -6.0]
    # what B knows: his cards, the retourne and every word said, not A's cards
    assert state.information_state_string(1) == "B|QS 9S 9H ret AD|Ad Ab10 Bf Cr20 Df Ac"


def test_a_carried_pool_is_shared_equally() -> None:
    """Foster: "If no one will open, the deal is void, and each player puts five counters
    in the pool for the next deal." Three players, nobody opens: the dealer's blind 5 and
    the three levies of 5 are carried (20); in a one-deal game each player is credited a
    third of it, so the returns sum to zero: A and B -5 + 20/3, C (the dealer) -10 + 20/3."""
    game = _load("foster-three")
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    _play(state, ["decline", "pass", "pass", "pass"])
    assert state.returns() == pytest.approx([-5 + 20 / 3, -5 + 20 / 3, -10 + 20 / 3])
    assert sum(state.returns()) == pytest.approx(0.0)


def test_the_abstraction_offers_its_menu_and_caps_raises() -> None:
    """Caves of 20, bets of the pool's size only, at most two bets and raises, no
    straddles. A: the blind 5 is the pool, a bet of the pool makes 5 + 5 = 10. B: the stake
    to meet 10 and the pool 15 make 25, more than his cave: the raise is to 20, all he
    has. C, after two bets: his all-in (20) only meets the stake, so it stays (a sight);
    no bet or raise is offered."""
    game = _load("foster-three", cave=20, bets="pot", raises=2, straddles=False, deals=5)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(0)
    assert _names(state) == ["decline"]
    _play(state, ["decline"])
    assert _names(state) == ["all-in", "bet 10", "fold", "pass"]
    _play(state, ["bet 10"])
    assert _names(state) == ["all-in", "call", "fold", "raise 20"]
    _play(state, ["raise 20"])
    assert _names(state) == ["all-in", "call", "fold"]


def _names(state: object) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())  # type: ignore[attr-defined]


def test_an_unknown_bet_size_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(Exception, match="'third' is not a bet size; the sizes are min, half"):
        _load("foster-three", bets="third")
