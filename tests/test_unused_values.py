"""Rule values that no Bouillotte profile takes, each on a deal worked out by hand.

(The favori by rank has since been taken by the historical Brelan profiles; the deal here
still tests it on Foster's table.) A value nobody uses is still a promise of the schema:
someone who extends a profile with it must get the rules its docstring states. Each case
below changes one rule of Foster's system and plays a deal whose outcome was reckoned by
hand from that rule (the reckoning is in the comment); the engine must reproduce it from the
cards and actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import IllegalAction, new_deal
from bouillotte.rules.cards import parse_card, parse_cards
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

FOSTER = Library().get("foster")


@dataclass(frozen=True)
class Case:
    rule: str
    value: Any
    hands: dict[str, str]
    retourne: str
    actions: list[str]
    nets: dict[str, int]
    """The nets under the changed rule, worked out by hand."""
    foster_nets: dict[str, int] | None
    """The nets under Foster's own value (``None``: his rules refuse the actions)."""
    exposed: str | None = None
    under: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


FOSTER_POINT = {"A": "AS 9S AC", "B": "KS QS 8S", "C": "AH KH 9H", "D": "KC QC 9C"}
"""Foster's point example with A's illegible club read as the ace. Spades 48 (AS 9S, KS QS
8S), clubs 40 (AC; KC QC 9C), hearts 38 (AH KH 9H and the retourne 8H). A and B pass out; C
and D play for D's blind of 5 and C's 5: a pool of 10."""
POINT_ACTIONS = ["A pass", "B pass", "C bet 5", "D call", "A fold", "B fold"]

CASES = {
    # Foster: spades have no holder still in and are dead; clubs go to the best club among
    # C and D, D's king: D wins. Of all hands: the best club is A's ace, A is out, so clubs
    # are dead too, and C's hearts (38) win: C +5, D -5.
    "suit owned by the best card of all hands": Case(
        "point.suit_owner",
        "best-card-of-all-hands",
        FOSTER_POINT,
        "8H",
        POINT_ACTIONS,
        {"A": 0, "B": 0, "C": 5, "D": -5},
        {"A": 0, "B": 0, "C": -5, "D": 5},
    ),
    # The richest suit is spades, whose ace is A's, out of the pool: the player still in
    # with most pips in another suit wins, C's hearts AH KH 9H = 30 against D's clubs
    # KC QC 9C = 29: C +5, D -5.
    "best card, else own pips": Case(
        "point.suit_owner",
        "best-card-else-own-pips",
        FOSTER_POINT,
        "8H",
        POINT_ACTIONS,
        {"A": 0, "B": 0, "C": 5, "D": -5},
        {"A": 0, "B": 0, "C": -5, "D": 5},
    ),
    # Three nines in hand with the nine turned: Foster's carré (the fast three-card path)
    # beats D's queens (the card under the retourne, 8S, completes nothing): A takes 10 and
    # 4 from each of B, C and D; D's queens take 1 from B and C, who hold no brelan:
    # A +17, B -5, C -5, D -7. Without the carré the nines are a simple brelan and the
    # queens win the pool; each brelan takes 1 from B and C: A -3, B -2, C -2, D +7.
    "no carré": Case(
        "hands.carre",
        False,
        {"A": "9H 9D 9C", "B": "AS KH 8D", "C": "AH KD 8C", "D": "QS QH QD"},
        "9S",
        ["A bet 5", "B fold", "C fold", "D call"],
        {"A": -3, "B": -2, "C": -2, "D": 7},
        {"A": 17, "B": -5, "C": -5, "D": -7},
        under="8S",
    ),
    # A's kings make a favori with the turned KH; D holds three queens. Foster's favori
    # ranks below every simple brelan: D wins 10 and 1 from B and C; the favori takes 1 from
    # each other player (A -2, B -2, C -2, D +6). By rank, the kings beat the queens: A
    # wins 10 and, having won the pool, 2 from each; D's queens take 1 from B and C:
    # A +11, B -3, C -3, D -5.
    "the favori ranks by its rank": Case(
        "hands.favori",
        "by-rank",
        {"A": "KS KD 9C", "B": "AS 9H 8D", "C": "AC 9S 8C", "D": "QS QH QD"},
        "KH",
        ["A bet 5", "B fold", "C fold", "D call"],
        {"A": 11, "B": -3, "C": -3, "D": -5},
        {"A": -2, "B": -2, "C": -2, "D": 6},
    ),
    # A's queens win 10 from D; the brelan's counter comes from D only when those who
    # passed out do not pay (A +6, D -6), from B, C and D under Foster (A +8).
    "folded players do not pay": Case(
        "bonuses.folded_players_pay",
        False,
        {"A": "QS QH QD", "B": "KH 9H 8D", "C": "AH 9D 8C", "D": "AS KS 9S"},
        "8H",
        ["A bet 5", "B fold", "C fold", "D call"],
        {"A": 6, "B": 0, "C": 0, "D": -6},
        {"A": 8, "B": -1, "C": -1, "D": -6},
    ),
    # A card is exposed in the deal: a misdeal, D's blind goes back. A shows three aces and
    # B three kings; C and D pay each 1. Under Foster "the inferior does not pay the
    # higher" (A +2, B +2, C -2, D -2); where the inferior pays, B pays A too:
    # A +3, B +1, C -2, D -2.
    "the inferior triplet pays": Case(
        "misdeals.inferior_triplet_pays",
        True,
        {"A": "AS AH AD", "B": "KS KH KD", "C": "QS 9H 8D", "D": "QH 9S 8S"},
        "QD",
        ["A decline"],  # A declines to straddle; then the cards are dealt
        {"A": 3, "B": 1, "C": -2, "D": -2},
        {"A": 2, "B": 2, "C": -2, "D": -2},
        exposed="9H",
    ),
    # Play to the left: C, on the dealer's left, speaks first. C's three nines win D's blind
    # and C's 5 (10), and 1 from each of A, B and D: C +8, A -1, B -1, D -6. Under Foster
    # play goes to the right and C may not speak first.
    "play to the left": Case(
        "table.direction",
        "left",
        {"A": "QS QH 8D", "B": "KH AH 8S", "C": "9S 9H 9D", "D": "AS KS 8C"},
        "AD",
        ["C bet 5", "B fold", "A fold", "D call"],
        {"A": -1, "B": -1, "C": 8, "D": -6},
        None,
    ),
}


def _play(variant: Variant, case: Case) -> dict[str, int]:
    deal = new_deal(
        variant,
        list(case.hands),
        "D",
        hands={p: parse_cards(h.split()) for p, h in case.hands.items()},
        retourne=parse_card(case.retourne),
        under_retourne=parse_card(case.under) if case.under else None,
        exposed=parse_card(case.exposed) if case.exposed else None,
    )
    for text in case.actions:
        deal.apply(parse_action(text))
    assert deal.is_over
    return {name: p.net for name, p in deal.outcome.players.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_unused_value_plays_as_its_docstring_says(name: str) -> None:
    case = CASES[name]
    changed = FOSTER.with_values({case.rule: case.value}, label="changed")
    assert _play(changed, case) == case.nets
    if case.foster_nets is None:
        with pytest.raises(IllegalAction):
            _play(FOSTER, case)
    else:
        assert _play(FOSTER, case) == case.foster_nets
