"""The reference work every speed figure is measured against, as the project's design
defines it.

``pokerkit_hand``: PokerKit's ``State`` with automations for antes, bet collection, dealing,
showing and chip pushing; the standard deck; 4 players; 5 hole cards each; ante 1; one
fixed-limit street (small bet 2) opened by position; the scripted actions check, bet, fold,
call, call; showdown; a fresh ``State`` per hand.

``bare_deal``: the floor a Python engine can approach: a fresh ``Random(i)`` per deal
shuffles the 20-card pack, deals 4 x 3 and the retourne, looks for brelans, and otherwise
counts the suits over every card and gives the richest suit's best card the pool.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

try:  # imported by name: without the `bench` extra (as in CI), mypy sees the same types
    pk: Any = importlib.import_module("pokerkit")
except ImportError:  # the `bench` extra brings it
    pk = None

SCRIPT = ("x", "b", "f", "c", "c")


def _automations() -> tuple[Any, ...]:
    if pk is None:
        raise SystemExit(
            "benchmarks: the reference hand needs PokerKit, which the `bench` extra installs: "
            "pip install -e '.[bench]'"
        )
    a = pk.Automation
    return (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.CARD_BURNING,
        a.HOLE_DEALING,
        a.BOARD_DEALING,
        a.RUNOUT_COUNT_SELECTION,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )


def pokerkit_hand(automations: tuple[Any, ...]) -> Any:
    """One reference hand, played to its end; returns the final state."""
    assert pk is not None
    state = pk.State(
        automations,
        pk.Deck.STANDARD,
        (pk.StandardHighHand,),
        (pk.Street(False, (False,) * 5, 0, False, pk.Opening.POSITION, 2, 4),),
        pk.BettingStructure.FIXED_LIMIT,
        True,  # ante trimming
        1,  # antes
        0,  # blinds or straddles
        0,  # bring-in
        200,  # starting stacks
        4,
        mode=pk.Mode.CASH_GAME,
    )
    step = 0
    while state.status:
        word = SCRIPT[step] if step < len(SCRIPT) else "x"
        step += 1
        if word == "f":
            state.fold()
        elif word == "b":
            state.complete_bet_or_raise_to()
        else:
            state.check_or_call()
    return state


def pokerkit_hands(hands: int) -> int:
    automations = _automations()
    for _ in range(hands):
        pokerkit_hand(automations)
    return hands


def pokerkit_sane() -> bool:
    """Chips are conserved and the hand ends."""
    state = pokerkit_hand(_automations())
    return sum(state.stacks) == 800 and not state.status


RANK_VALUE = (11, 10, 10, 9, 8)
PACK = [(r, s) for r in range(5) for s in range(4)]


def bare_deal(seed: int) -> tuple[str, int]:
    cards = PACK[:]
    random.Random(seed).shuffle(cards)
    hands = [cards[3 * i : 3 * i + 3] for i in range(4)]
    turned = cards[12]
    best: tuple[tuple[int, int], int] | None = None
    for seat, hand in enumerate(hands):
        rank = hand[0][0]
        if hand[1][0] == rank and hand[2][0] == rank:
            key = (1 if turned[0] == rank else 0, -rank)
            if best is None or key > best[0]:
                best = (key, seat)
    if best is not None:
        return "brelan", best[1]
    totals = [0, 0, 0, 0]
    for hand in hands:
        for rank, suit in hand:
            totals[suit] += RANK_VALUE[rank]
    totals[turned[1]] += RANK_VALUE[turned[0]]
    suit = max(range(4), key=totals.__getitem__)
    best_rank, winner = 9, -1
    for seat, hand in enumerate(hands):
        for rank, s in hand:
            if s == suit and rank < best_rank:
                best_rank, winner = rank, seat
    return "point", winner


def bare_deals(deals: int) -> int:
    for i in range(deals):
        bare_deal(i)
    return deals
