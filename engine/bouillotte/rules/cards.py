"""Cards, ranks and suits.

A card is written rank then suit, ``AS KH QD JC 10S 9H 8C`` (``T`` is accepted for the
ten; ``A♠ 9♥`` and ASCII lower case are accepted on input). It is read exactly as written:
a space around it, or a letter of another alphabet that case mapping turns into an ASCII one
(the long s ``ſ``, which ``upper()`` makes ``S``; the Kelvin sign; fullwidth letters), is
refused, named and escaped, never taken for the letter it looks like. Inside the engine a
card is a small integer, ``rank * 4 + suit``, so hands compare and hash cheaply; ranks are
numbered from the ace (0) down to the seven (7), which is the order of every source's pack.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final, TypeAlias

from .errors import MAX_VALUE_SHOWN, UserError, quoted
from .idtext import escaped

RANKS: Final[tuple[str, ...]] = ("A", "K", "Q", "J", "10", "9", "8", "7")
"""Every rank a Bouillotte or Brelan pack may hold, highest first."""

SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
SUIT_NAMES: Final[dict[str, str]] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final[dict[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES: Final[dict[str, str]] = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "10": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
}

_SYMBOL_TO_SUIT: Final = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})
SUIT_SIGNS: Final = "".join(_SYMBOL_TO_SUIT)
"""Every suit symbol read as a suit (``♠`` and ``♤`` for spades...): a card's only
characters outside ASCII."""
_RANK_ALIASES: Final = {"T": "10"}
_HOW: Final = (
    f"ranks are {' '.join(RANKS)}, suits are S H D C (or ♠ ♥ ♦ ♣), rank first, as in AS or 9H"
)


class CardError(UserError, ValueError):
    """A card written in a way we cannot read."""


Card: TypeAlias = int
"""A card as ``rank_index * 4 + suit_index``."""


def make(rank: str, suit: str) -> Card:
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def odd_character(text: str, allowed: str = "") -> str | None:
    """The first character of ``text`` outside printable ASCII but the space (or
    ``allowed``), named as a message shows it: ``U+017F LATIN SMALL LETTER LONG S``,
    ``U+0020 SPACE``; ``None`` where there is none."""
    for c in text:
        if not (" " < c <= "~" or c in allowed):
            return f"U+{ord(c):04X} {unicodedata.name(c, 'a control character')}"
    return None


def escaped_quoted(text: str) -> str:
    """``text`` quoted in a message, each character outside printable ASCII as its escape
    (``'A\\u017f'``), cut as :func:`quoted` cuts: a homoglyph is never shown as the letter
    it looks like."""
    if len(text) <= MAX_VALUE_SHOWN:
        return f"'{escaped(text)}'"
    return f"'{escaped(text[: MAX_VALUE_SHOWN - 20])}'... ({len(text):,} characters)"


def parse_card(text: str) -> Card:
    """Read one card such as ``AS``, ``10h``, ``Td`` or ``A♠``, exactly as written."""
    odd = odd_character(text, SUIT_SIGNS)
    if odd is not None:
        raise CardError(
            f"{escaped_quoted(text)} is not a card: it holds {odd}; write it in ASCII, "
            f"without spaces: {_HOW}"
        )
    if len(text) < 2:
        raise CardError(f"{quoted(text)} is not a card: write rank then suit, such as AS or 9H")
    rank_text, suit_text = text[:-1].upper(), text[-1]
    suit = _SYMBOL_TO_SUIT.get(suit_text, suit_text.upper())
    rank = _RANK_ALIASES.get(rank_text, rank_text)
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"{quoted(text)} is not a card: {_HOW}")
    return make(rank, suit)


def parse_cards(items: Iterable[str]) -> list[Card]:
    return [parse_card(item) for item in items]


def card_str(card: Card) -> str:
    """The ASCII form used in JSON and transcripts: ``AS``, ``10H``."""
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Sequence[Card]) -> str:
    return " ".join(card_str(c) for c in cards)


def pack(ranks: Sequence[str]) -> list[Card]:
    """Every card of the given ranks, in a fixed order (rank by rank, suits S H D C)."""
    return [RANKS.index(rank) * 4 + suit for rank in ranks for suit in range(4)]
