"""What a hand is worth: the kinds of brelan and how they rank.

A hand that is no brelan of any kind plays for the point (see ``point.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..rules.cards import RANK_NAMES, RANKS, Card, parse_card, rank_of, suit_of
from ..rules.profile import Hands
from .caches import cache, keep


class Kind(StrEnum):
    """The kinds of brelan, with the names the sources give them."""

    CARRE = "brelan carré"
    BRELAN = "brelan"
    FAVORI = "brelan favori"
    MISTIGRI = "brelan de Mistigri"
    POINT = "point"


BONUS_KEY: Final[dict[Kind, str]] = {
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


POINT_VALUE: Final = HandValue(Kind.POINT, -1, 0)


def tier_of(kind: Kind, rules: Hands) -> int:
    """How ``kind`` ranks (higher beats lower). Only the favori's place depends on the
    rules, so only for a favori is the rule read."""
    if kind is Kind.FAVORI:
        return _TIERS[rules.favori][kind]
    return _FIXED_TIERS[kind]


_TIERS: Final[dict[str, dict[Kind, int]]] = {
    favori: {Kind.CARRE: 6, Kind.BRELAN: 4, Kind.FAVORI: tier, Kind.MISTIGRI: 2}
    for favori, tier in {"below-simple": 3, "by-rank": 4, "above-simple": 5, "none": 0}.items()
}
"""How the kinds rank, by the profile's place for the favori (higher beats lower)."""

_FIXED_TIERS: Final[dict[Kind, int]] = {Kind.CARRE: 6, Kind.BRELAN: 4, Kind.MISTIGRI: 2}
"""The kinds whose rank is the same wherever the favori ranks."""


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
    if not _may_beat_the_point(hand, retourne, rules):
        return POINT_VALUE
    if not rules.brelans_recognised:
        return POINT_VALUE
    if len(hand) == 3 and _plain(hand, retourne, rules):
        return classify_three(hand, retourne, rules)
    return classify_any(hand, retourne, rules, declared=declared, dealt=dealt)


def _plain(hand: Sequence[Card], retourne: Card, rules: Hands) -> bool:
    """Whether :func:`classify_three` values this three-card hand rightly: no rule it
    leaves out (the mistigri, the mignon, the favori's other meanings, the bought carré)
    applies to these cards. Each such rule is read only where the cards could meet it."""
    r0, r1, r2 = hand[0] >> 2, hand[1] >> 2, hand[2] >> 2
    three = r0 == r1 == r2
    pair = r0 if r0 in (r1, r2) else (r1 if r1 == r2 else -1)
    if (three or pair == retourne >> 2) and rules.favori_meaning != "pair-with-the-retourne":
        return False
    if three and rules.carre_made_with != "the-retourne":
        return False
    if _is_mignon(hand, retourne) and rules.mignon:
        return False
    return not (_mistigri_cards(hand, rules) and rules.mistigri)


def _mistigri_cards(hand: Sequence[Card], rules: Hands) -> bool:
    """Whether the hand holds the mistigri card beside a pair (reads only the card)."""
    wild = _card(rules.mistigri_card)
    if wild not in hand:
        return False
    others = [card >> 2 for card in hand if card != wild]
    return len(set(others)) < len(others)


def _may_beat_the_point(hand: Sequence[Card], retourne: Card, rules: Hands) -> bool:
    """Whether any reading of the rules of hands could make ``hand`` more than a point:
    three of a rank (a brelan, carré or favori of any meaning), a pair of the retourne's
    rank (the favori with the retourne, and Littré's mignon), or the mistigri card beside a
    pair. Every one of them needs two cards of a rank, so most hands are points under every
    rule, and none of those rules is read for them: a sweep then knows that no rule of
    hands can change the deal (``study/rule_reads.py``). Only the mistigri card is read,
    for a hand that holds a pair."""
    if len(hand) == 3:  # the common case, without a list
        r0, r1, r2 = hand[0] >> 2, hand[1] >> 2, hand[2] >> 2
        if r0 != r1 and r0 != r2 and r1 != r2:
            return False
        if r0 == r1 == r2 or (r0 if r0 in (r1, r2) else r1) == retourne >> 2:
            return True
        return _mistigri_cards(hand, rules)
    ranks = [card >> 2 for card in hand]
    if len(set(ranks)) == len(ranks):
        return False  # no two cards of a rank
    turned = retourne >> 2
    for rank in ranks:
        same = ranks.count(rank)
        if same >= 3 or (same == 2 and rank == turned):
            return True
    # (Littré's mignon is two aces with an ace turned up: a pair of the retourne's rank.)
    return _mistigri_cards(hand, rules)


def _card(text: str) -> Card:
    """:func:`parse_card`, remembered (the mistigri card, looked at for every pair): a
    compiled dict, not ``lru_cache``'s Python call; 16 kept, then all forgotten."""
    card = _CARDS.get(text)
    return card if card is not None else keep(_CARDS, text, parse_card(text), 16)


_CARDS: Final[dict[str, Card]] = cache("hands.cards")


def classify_three(hand: Sequence[Card], retourne: Card, rules: Hands) -> HandValue:
    """:func:`classify` for the common case (three cards to which no rule it leaves out
    applies, :func:`_plain`: the favori a pair with the retourne, the carré made with the
    retourne, no mistigri or mignon in these cards) without building a Counter: three ranks
    hold at most one pair. It must agree with :func:`classify_any` on every such hand
    (tests/test_hands.py checks every one)."""
    r0, r1, r2 = hand[0] >> 2, hand[1] >> 2, hand[2] >> 2
    if r0 == r1 == r2:
        three = Kind.CARRE if r0 == retourne >> 2 and rules.carre else Kind.BRELAN
        return HandValue(three, r0, _FIXED_TIERS[three])
    pair = r0 if r0 in (r1, r2) else (r1 if r1 == r2 else -1)
    if pair == retourne >> 2 and pair >= 0 and rules.favori != "none":
        return HandValue(Kind.FAVORI, pair, _TIERS[rules.favori][Kind.FAVORI])
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
            best = max(best, HandValue(kind, rank, tier_of(kind, rules)), key=lambda v: v.key)
    if _is_mignon(hand, retourne) and rules.mignon:
        with_retourne = rules.favori != "none" and rules.favori_meaning == "pair-with-the-retourne"
        named = Kind.FAVORI if with_retourne else Kind.BRELAN
        mignon = HandValue(named, 0, tier_of(named, rules), name="brelan mignon")
        if mignon.key >= best.key:
            best = mignon
    if best.kind is Kind.POINT and _mistigri_cards(hand, rules) and rules.mistigri:
        wild = _card(rules.mistigri_card)
        others = Counter(rank_of(c) for c in hand if c != wild)
        pairs = [rank for rank, count in others.items() if count >= 2]
        best = HandValue(Kind.MISTIGRI, min(pairs), _FIXED_TIERS[Kind.MISTIGRI])
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
