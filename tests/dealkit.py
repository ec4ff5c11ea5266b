"""Small helpers to set up and play a deal from strings in tests."""

from __future__ import annotations

from collections.abc import Sequence

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import Deal, new_deal
from bouillotte.play.outcome import Outcome
from bouillotte.rules.cards import parse_card, parse_cards
from bouillotte.rules.variant import Variant


def start(
    variant: Variant,
    hands: dict[str, str],
    retourne: str,
    *,
    dealer: str = "D",
    caves: dict[str, int] | None = None,
    under: str | None = None,
    exposed: str | None = None,
    carried_in: int = 0,
) -> Deal:
    players = list(hands)
    return new_deal(
        variant,
        players,
        dealer,
        caves,
        hands={p: parse_cards(h.split()) for p, h in hands.items()},
        retourne=parse_card(retourne),
        under_retourne=parse_card(under) if under else None,
        exposed=parse_card(exposed) if exposed else None,
        carried_in=carried_in,
    )


def play(deal: Deal, actions: Sequence[str]) -> Outcome:
    for text in actions:
        deal.apply(parse_action(text))
    assert deal.is_over, f"the deal is not over: {deal.to_act} to act"
    return deal.outcome


def nets(outcome: Outcome) -> dict[str, int]:
    return {name: p.net for name, p in outcome.players.items()}


def pots(outcome: Outcome) -> list[tuple[int, str]]:
    return [(p.amount, p.winner) for p in outcome.pots]
