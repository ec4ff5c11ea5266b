"""One generic conformance test: random legal games under every bundled system, checking at
every step what the engine promises (as OpenSpiel's API test does over every game).

At every step of every game:

- every action the deal offers (each word, at the least, the most and a middle amount;
  in the draw, several discards) is accepted: played on a copy of the deal, rebuilt from
  the same setup and the actions so far, which also gives the same log (the same input
  gives the same deal);
- actions the rules cannot allow (a player not at the table or not to act, a word not
  offered, an amount below, above or between the allowed ones, a card not held or named
  twice) are refused with ``IllegalAction`` naming a rule the variant can cite, and the
  refusal leaves the deal exactly as it was (a snapshot of its whole state before and
  after);
- the chips are conserved (caves and stakes add up to what the table started with, the
  bonus ledger to zero) and the log accounts for every chip (the caves replayed from the
  events so far are the deal's).

At the end: the outcome is the replay of the log; its JSON is plain JSON (it survives
``json.dumps`` and ``json.loads`` unchanged); and the JSON alone (seats, caves, cards and
words read back from it) plays the same deal again, to the same JSON.

The seeds are fixed and the number of games bounded, so the everyday run stays fast;
``test_many_games_under_every_system`` plays many more (slow).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from bouillotte.play.actions import ACTION_WORDS, WITH_AMOUNT, Action, LegalAction
from bouillotte.play.deal import Deal, IllegalAction, Phase, new_deal
from bouillotte.play.outcome import replay
from bouillotte.rules.cards import pack, parse_card, parse_cards
from bouillotte.rules.profile import rule_paths

from .test_properties import LIBRARY, MAX_STEPS, NAMES, VARIANTS

GAMES = 12
"""Games per system in the everyday run (every system: about a second in all)."""
MANY_GAMES = 150
"""Games per system in the slow run."""
RULES = {*rule_paths(), "-"}
"""What a refusal may name: a rule of the profile, or ``-`` once the deal is over."""


@dataclass(frozen=True)
class Setup:
    variant_id: str
    players: tuple[str, ...]
    dealer: str
    caves: dict[str, int]
    seed: int
    carried_in: int

    def start(self) -> Deal:
        return new_deal(
            LIBRARY.get(self.variant_id),
            list(self.players),
            self.dealer,
            self.caves,
            seed=self.seed,
            carried_in=self.carried_in,
        )

    def after(self, actions: list[Action]) -> Deal:
        deal = self.start()
        for action in actions:
            deal.apply(action)
        return deal


def random_setup(rng: random.Random, variant_id: str) -> Setup:
    players = tuple(NAMES[: LIBRARY.get(variant_id).players])
    caves = {p: rng.choice([rng.randint(1, 12), rng.randint(1, 150)]) for p in players}
    return Setup(
        variant_id,
        players,
        rng.choice(players),
        caves,
        rng.randrange(10**6),
        rng.choice([0, 0, rng.randint(1, 20)]),
    )


# -- what the deal offers, and what it must refuse ------------------------------------------


def offered_actions(deal: Deal, legal: LegalAction, rng: random.Random) -> list[Action]:
    """Actions ``legal`` permits: the least, the most and a middle amount; in the draw,
    keeping the hand, throwing it all away, and a random choice of cards."""
    player = deal.to_act
    assert player is not None
    if legal.kind in WITH_AMOUNT:
        assert legal.low is not None and legal.high is not None
        step = legal.step or 1
        middle = legal.low + step * rng.randint(0, (legal.high - legal.low) // step)
        return [
            Action(player, legal.kind, total)
            for total in dict.fromkeys([legal.low, middle, legal.high])
        ]
    if legal.kind == "discard":
        hand = deal.hands[deal.seat_of[player]]
        some = tuple(rng.sample(hand, rng.randint(0, min(3, len(hand)))))
        return [
            Action(player, "discard", None, cards)
            for cards in dict.fromkeys([(), tuple(hand), some])
        ]
    return [Action(player, legal.kind)]


def refused_actions(deal: Deal, legal: list[LegalAction]) -> list[Action]:
    """Actions no rule can allow now."""
    player = deal.to_act
    assert player is not None
    first = legal[0]
    amount = first.low if first.kind in WITH_AMOUNT else None
    refused = [
        Action("nobody", first.kind, amount, ()),  # not at the table
        *(Action(other, first.kind, amount) for other in deal.names if other != player),
    ]
    offered = {a.kind for a in legal}
    # Before the deal a betting word may stand for declining the straddle (and is then
    # played as said), so only the draw's words are out of place there for certain.
    out_of_place = ("discard", "buy") if deal.phase is Phase.STRADDLE else ACTION_WORDS
    for kind in out_of_place:
        if kind not in offered:
            refused.append(Action(player, kind, 1 if kind in WITH_AMOUNT else None))
    for allowed in legal:
        if allowed.kind in WITH_AMOUNT:
            assert allowed.low is not None and allowed.high is not None
            refused += [
                Action(player, allowed.kind, allowed.low - 1),
                Action(player, allowed.kind, allowed.high + 1),
            ]
            if (allowed.step or 1) > 1 and allowed.low + 1 < allowed.high:  # off the step
                refused.append(Action(player, allowed.kind, allowed.low + 1))
        if allowed.kind == "discard":
            hand = deal.hands[deal.seat_of[player]]
            foreign = next(c for c in pack(deal.rules.table.pack_ranks()) if c not in hand)
            refused += [
                Action(player, "discard", None, (foreign,)),
                Action(player, "discard", None, (hand[0], hand[0])),
            ]
    return refused


def snapshot(deal: Deal) -> dict[str, Any]:
    """The whole state of the deal, as values (lists as tuples, mappings as dicts); the
    variant and its rules by identity."""
    return {
        name: _value(value) if name not in ("variant", "rules") else id(value)
        for name in Deal.__slots__
        for value in [getattr(deal, name)]
    }


def _value(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_value(v) for v in value)
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: _value(v) for k, v in value.items()}
    return value


# -- the promises checked at every step ------------------------------------------------------


def check_chips(deal: Deal, setup: Setup) -> None:
    start = sum(setup.caves.values()) + setup.carried_in
    assert all(c >= 0 for c in deal.cave) and all(c >= 0 for c in deal.contrib)
    assert sum(deal.cave) + sum(deal.contrib) + deal.carried_in == start
    assert sum(deal.ledger) == 0, "the bonus ledger sums to zero"
    replayed = replay(deal.events, deal.initial_caves).players
    assert [replayed[name].cave for name in deal.names] == deal.cave, "a chip moved unlogged"


def check_step(deal: Deal, setup: Setup, actions: list[Action], rng: random.Random) -> Action:
    """Check the promises at this step; return the action to play next."""
    legal = deal.legal_actions()
    assert legal, "a deal that is not over offers an action"
    assert deal.to_act is not None
    check_chips(deal, setup)
    before = snapshot(deal)
    for action in refused_actions(deal, legal):
        with pytest.raises(IllegalAction) as refused:
            deal.apply(action)
        assert refused.value.rule in RULES, f"{action}: refused under no rule"
        assert refused.value.citation and refused.value.legal
        if deal.phase is not Phase.STRADDLE:  # there, a word said for the betting to come
            assert refused.value.legal == legal  # is refused with that betting's words
        assert snapshot(deal) == before, f"refusing {action} changed the deal"
    candidates = [a for allowed in legal for a in offered_actions(deal, allowed, rng)]
    for action in candidates:
        copy = setup.after(actions)
        assert copy.events == deal.events, "the same setup and actions gave another log"
        copy.apply(action)  # offered, so accepted
        assert copy.steps == deal.steps + 1 and len(copy.events) > len(deal.events)
    return rng.choice(candidates)


def check_end(deal: Deal, setup: Setup) -> None:
    outcome = deal.outcome
    start = sum(setup.caves.values()) + setup.carried_in
    assert sum(p.cave for p in outcome.players.values()) + outcome.carry == start
    assert sum(p.ledger for p in outcome.players.values()) == 0
    assert [outcome.players[n].cave for n in deal.names] == deal.cave
    assert replay(deal.events, deal.initial_caves) == outcome
    with pytest.raises(IllegalAction) as refused:
        deal.apply(Action(deal.names[0], "fold"))
    assert refused.value.rule == "-" and refused.value.legal == []
    written = outcome.to_json()
    assert json.loads(json.dumps(written)) == written, "the outcome's JSON is not plain JSON"
    assert played_from_json(written, deal).outcome.to_json() == written


def played_from_json(written: dict[str, Any], original: Deal) -> Deal:
    """The deal played again from its JSON alone: seats and caves from ``players``, the
    dealer (who speaks last) and the cards from the ``deal`` event, the card under the
    retourne and the cards bought from what the log shows of them, the words from the
    ``straddle``, ``decline``, ``action`` and ``draw`` events."""
    events = written["events"]
    players = written["players"]
    caves = {name: p["cave"] + p["ledger"] - p["net"] for name, p in players.items()}
    carried = sum(e["amount"] for e in events if e["type"] == "carried-in")
    dealt = next((e for e in events if e["type"] == "deal"), None)
    if dealt is None:  # over before the cards were dealt: no hand can matter
        hands = {name: list(original.dealt[i]) for i, name in enumerate(original.names)}
        retourne, dealer = original.retourne, original.names[original.dealer]
    else:
        hands = {name: parse_cards(cards.split()) for name, cards in dealt["hands"].items()}
        retourne, dealer = parse_card(dealt["retourne"]), list(dealt["hands"])[-1]
    under = next((e["card"] for e in events if e["type"] == "under-retourne"), None)
    bought = [c for e in events if e["type"] == "draw" for c in e["buys"].split()]
    actions: list[Action] = []
    for e in events:
        if e["type"] == "straddle" or (e["type"] == "decline" and not e["implicit"]):
            actions.append(Action(e["player"], e["type"]))
        elif e["type"] == "action":
            total = e["total"] if e["action"] in WITH_AMOUNT else None
            actions.append(Action(e["player"], e["action"], total))
        elif e["type"] == "draw" and not e["discards"] and len(e["buys"].split()) == 1:
            actions.append(Action(e["player"], "buy"))
        elif e["type"] == "draw":
            actions.append(
                Action(e["player"], "discard", None, tuple(parse_cards(e["discards"].split())))
            )
    deal = new_deal(
        original.variant,
        list(players),
        dealer,
        caves,
        hands=hands,
        retourne=retourne,
        under_retourne=parse_card(under) if under else None,
        carried_in=carried,
        stock=parse_cards(bought[1:]),  # the turned card is the first bought
    )
    for action in actions:
        deal.apply(action)
    return deal


def play_checked(setup: Setup, rng: random.Random) -> Deal:
    deal = setup.start()
    actions: list[Action] = []
    while not deal.is_over:
        assert len(actions) < MAX_STEPS, "the deal does not end"
        action = check_step(deal, setup, actions, rng)
        deal.apply(action)
        actions.append(action)
    check_end(deal, setup)
    return deal


def play_games(variant_id: str, games: int, seed: int) -> list[Deal]:
    rng = random.Random(f"{variant_id} {seed}")
    return [play_checked(random_setup(rng, variant_id), rng) for _ in range(games)]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_random_games_keep_the_engines_promises(variant_id: str) -> None:
    deals = play_games(variant_id, GAMES, seed=1)
    assert len(deals) == GAMES
    # The games went somewhere: past the forced bets, to a settlement more than once.
    assert sum(d.steps for d in deals) > GAMES
    assert any(d.outcome.status != "void" for d in deals)


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", VARIANTS)
def test_many_games_under_every_system(variant_id: str) -> None:
    assert len(play_games(variant_id, MANY_GAMES, seed=2)) == MANY_GAMES
