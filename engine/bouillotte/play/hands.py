"""What a hand is worth: the kinds of brelan and how they rank.

A hand that is no brelan of any kind plays for the point (see ``point.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..rules.cards import RANK_NAMES, RANKS, Card, parse_card, rank_of, suit_of
from ..rules.profile import Hands


class Kind(StrEnum):
    """The kinds of brelan, with the names the sources give them."""

    CARRE = "brelan carré"
    BRELAN = "brelan"
    FAVORI = "brelan favori"
    MISTIGRI = "brelan de Mistigri"
    POINT = "point"


BONUS_KEY: dict[Kind, str] = {
    Kind.CARRE: "carre",
    Kind.BRELAN: "brelan",
    Kind.FAVORI: "favori",
    Kind.MISTIGRI: "mistigri",
}


@dataclass(frozen=True, slots=True)
class HandValue:
    kind: Kind
    rank: int
    """Rank index of the three (0 = aces); -1 for the point."""
    tier: int
    """Higher beats lower; equal tiers compare by rank."""
    name: str | None = None
    """A name the sources give this very combination (Littré's *brelan mignon*), which
    ranks and is paid as ``kind``."""

    @property
    def key(self) -> tuple[int, int]:
        return (self.tier, -self.rank)

    @property
    def is_brelan(self) -> bool:
        return self.kind is not Kind.POINT

    def describe(self) -> str:
        if self.kind is Kind.POINT:
            return "no brelan"
        text = f"{self.kind.value} of {RANK_NAMES[RANKS[self.rank]]}s"
        return f"{self.name} ({text})" if self.name else text


POINT_VALUE = HandValue(Kind.POINT, -1, 0)


def tier_of(kind: Kind, rules: Hands) -> int:
    return _TIERS[rules.favori][kind]


_TIERS: dict[str, dict[Kind, int]] = {
    favori: {Kind.CARRE: 6, Kind.BRELAN: 4, Kind.FAVORI: tier, Kind.MISTIGRI: 2}
    for favori, tier in {"below-simple": 3, "by-rank": 4, "above-simple": 5, "none": 0}.items()
}
"""How the kinds rank, by the profile's place for the favori (higher beats lower)."""


def classify(
    hand: Sequence[Card],
    retourne: Card,
    rules: Hands,
    *,
    declared: int | None = None,
    dealt: Sequence[Card] | None = None,
) -> HandValue:
    """The best kind of brelan this hand makes with the retourne, or the point.

    ``declared`` is the rank index declared favori for the deal (``favori_meaning:
    declared-rank``); ``dealt`` is the hand as dealt, before any draw (``held-from-the-deal``;
    by default the hand itself).
    """
    if not rules.brelans_recognised:
        return POINT_VALUE
    plain = (
        len(hand) == 3
        and not rules.mistigri
        and not rules.mignon
        and rules.favori_meaning == "pair-with-the-retourne"
        and rules.carre_made_with == "the-retourne"
    )
    if plain:
        return classify_three(hand, retourne, rules)
    return classify_any(hand, retourne, rules, declared=declared, dealt=dealt)


def classify_three(hand: Sequence[Card], retourne: Card, rules: Hands) -> HandValue:
    """:func:`classify` for the common case (three cards; the favori a pair with the
    retourne, the carré made with the retourne; no mistigri or mignon) without building a
    Counter: three ranks hold at most one pair. It must agree with :func:`classify_any` on
    every such hand (tests/test_hands.py checks every one)."""
    tiers = _TIERS[rules.favori]
    r0, r1, r2 = hand[0] >> 2, hand[1] >> 2, hand[2] >> 2
    if r0 == r1 == r2:
        three = Kind.CARRE if rules.carre and r0 == retourne >> 2 else Kind.BRELAN
        return HandValue(three, r0, tiers[three])
    pair = r0 if r0 in (r1, r2) else (r1 if r1 == r2 else -1)
    if pair == retourne >> 2 and pair >= 0 and rules.favori != "none":
        return HandValue(Kind.FAVORI, pair, tiers[Kind.FAVORI])
    return POINT_VALUE


def classify_any(
    hand: Sequence[Card],
    retourne: Card,
    rules: Hands,
    *,
    declared: int | None = None,
    dealt: Sequence[Card] | None = None,
) -> HandValue:
    """:func:`classify` for every case: any hand size, the favori's other meanings, the
    bought carré, the brelan mignon and the brelan de Mistigri."""
    tiers = _TIERS[rules.favori]
    counts = Counter(rank_of(c) for c in hand)
    turned = rank_of(retourne)
    best = POINT_VALUE
    for rank, count in counts.items():
        kind: Kind | None = None
        if count >= 3:
            kind = _kind_of_three(rank, count, turned, rules, declared, dealt or hand)
        elif (
            count == 2
            and rank == turned
            and rules.favori != "none"
            and rules.favori_meaning == "pair-with-the-retourne"
        ):
            kind = Kind.FAVORI
        if kind is not None:
            best = max(best, HandValue(kind, rank, tiers[kind]), key=lambda v: v.key)
    if rules.mignon and _is_mignon(hand, retourne):
        with_retourne = rules.favori != "none" and rules.favori_meaning == "pair-with-the-retourne"
        named = Kind.FAVORI if with_retourne else Kind.BRELAN
        mignon = HandValue(named, 0, tiers[named], name="brelan mignon")
        if mignon.key >= best.key:
            best = mignon
    if rules.mistigri and best.kind is Kind.POINT:
        wild = parse_card(rules.mistigri_card)
        if wild in hand:
            others = Counter(rank_of(c) for c in hand if c != wild)
            pairs = [rank for rank, count in others.items() if count >= 2]
            if pairs:
                best = HandValue(Kind.MISTIGRI, min(pairs), tiers[Kind.MISTIGRI])
    return best


def _kind_of_three(
    rank: int,
    count: int,
    turned: int,
    rules: Hands,
    declared: int | None,
    dealt: Sequence[Card],
) -> Kind:
    """Three or four of ``rank`` in hand: a carré, a favori or a simple brelan."""
    if rules.carre:
        if rules.carre_made_with == "a-bought-fourth" and count >= 4:
            return Kind.CARRE
        if rules.carre_made_with == "the-retourne" and rank == turned:
            return Kind.CARRE
    if rules.favori != "none":
        if rules.favori_meaning == "declared-rank" and declared == rank:
            return Kind.FAVORI
        held = sum(1 for c in dealt if rank_of(c) == rank) >= 3
        if rules.favori_meaning == "held-from-the-deal" and held:
            return Kind.FAVORI
    return Kind.BRELAN


def _is_mignon(hand: Sequence[Card], retourne: Card) -> bool:
    """Littré's brelan mignon: two aces and a king in hand, the ace of the king's suit
    turned up."""
    if rank_of(retourne) != 0:
        return False
    aces = sum(1 for c in hand if rank_of(c) == 0)
    kings = [c for c in hand if rank_of(c) == 1]
    return aces == 2 and any(suit_of(k) == suit_of(retourne) for k in kings)


def triplets(hand: Sequence[Card]) -> int | None:
    """The rank index of three of a kind held in hand (for misdeals), if any."""
    counts = Counter(rank_of(c) for c in hand)
    found = [rank for rank, count in counts.items() if count >= 3]
    return min(found) if found else None


def suit_cards(hand: Sequence[Card], suit: int) -> list[Card]:
    return [c for c in hand if suit_of(c) == suit]
