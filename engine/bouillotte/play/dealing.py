"""Setting a deal up: checking the seats and cards given, dealing a pack in order, and the
same deal as chance steps (:class:`ChanceDeal`) that a caller can enumerate."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Final

from ..rules.cards import Card, card_str, cards_str, pack
from ..rules.errors import UserError
from ..rules.variant import Variant
from .caches import cache, keep
from .stream import SHUFFLE, Stream, shuffle


class SetupError(UserError, ValueError):
    """The cards or seats given for a deal cannot be dealt under this variant.

    ``path`` says where the fault stands in a scenario: ``("hands", "A", 2)``.
    """

    def __init__(self, message: str, *path: str | int) -> None:
        super().__init__(message, path=path)


def _the_pack(variant: Variant) -> str:
    """``the 20-card pack of foster (A K Q 9 8 of each suit)``, as a refusal names it."""
    ranks = variant.rules.table.pack_ranks()
    return f"the {4 * len(ranks)}-card pack of {variant.id} ({' '.join(ranks)} of each suit)"


def check_deck(variant: Variant, deck: Sequence[Card]) -> None:
    """A deck given card by card: each a card of the variant's pack, none twice, each fault
    at its place in the deck (``deck.12``)."""
    table = variant.rules.table
    allowed = _pack_set(tuple(table.pack_ranks()))
    first: dict[Card, int] = {}
    for i, card in enumerate(deck):
        if card not in allowed:
            raise SetupError(f"{card_str(card)} is not in {_the_pack(variant)}", "deck", i)
        if card in first:
            raise SetupError(
                f"the deck holds {card_str(card)} twice (items {first[card]} and {i})", "deck", i
            )
        first[card] = i


def check_setup(
    variant: Variant,
    players: Sequence[str],
    dealer: str,
    caves: Mapping[str, int],
    hands: Mapping[str, Sequence[Card]],
    retourne: Card,
    under_retourne: Card | None,
    exposed: Card | None,
    *,
    cards: bool = True,
) -> None:
    """Check the seats, the caves and (unless ``cards`` is false: a deal shuffled from the
    variant's own pack) every hand and card given."""
    table = variant.rules.table
    if len(players) != table.players:
        raise SetupError(
            f"{len(players)} players, but {variant.id} is a game for {table.players}", "players"
        )
    if len(set(players)) != len(players):
        raise SetupError("a player is named twice", "players")
    if dealer not in players:
        raise SetupError(f"the dealer {dealer!r} is not one of the players", "dealer")
    for name in players:
        if name not in caves:
            raise SetupError(f"no cave for {name}", "caves")
        if caves[name] < 0:
            raise SetupError(
                f"{name}'s cave is negative ({caves[name]}): give a cave of 1 or more",
                "caves",
                name,
            )
        if caves[name] == 0:
            raise SetupError(
                f"{name}'s cave is empty: a player who is décavé has no hand in a deal until "
                "he buys a new stake (stakes.rebuy_amount); give him a cave of 1 or more, or "
                "leave him out of the players",
                "caves",
                name,
            )
    if cards:  # hands dealt from the variant's own pack are the players' and whole
        _check_hands(variant, players, hands)
        _check_cards(variant, players, hands, retourne, under_retourne, exposed)


def _check_hands(
    variant: Variant, players: Sequence[str], hands: Mapping[str, Sequence[Card]]
) -> None:
    """One hand for each player and none for anybody else, each of the variant's size."""
    size = variant.rules.table.hand_size
    for name in players:
        if name not in hands:
            raise SetupError(f"no hand for {name}", "hands")
        if len(hands[name]) != size:
            raise SetupError(
                f"{name} holds {len(hands[name])} cards; {variant.id} deals {size}",
                "hands",
                name,
            )
    for name in hands:
        if name not in players:
            raise SetupError(f"a hand for {name!r}, who is not at the table", "hands", name)


def _check_cards(
    variant: Variant,
    players: Sequence[str],
    hands: Mapping[str, Sequence[Card]],
    retourne: Card,
    under_retourne: Card | None,
    exposed: Card | None,
) -> None:
    table = variant.rules.table
    allowed = _pack_set(tuple(table.pack_ranks()))
    seen: dict[Card, str] = {}
    given: list[tuple[Card, str, tuple[str | int, ...]]] = [
        (card, f"{name}'s hand", ("hands", name, i))
        for name in players
        for i, card in enumerate(hands[name])
    ]
    given.append((retourne, "the retourne", ("retourne",)))
    if under_retourne is not None:
        given.append((under_retourne, "the card under the retourne", ("under_retourne",)))
    for card, where, path in given:
        if card not in allowed:
            raise SetupError(f"{card_str(card)} ({where}) is not in {_the_pack(variant)}", *path)
        if card in seen:
            raise SetupError(f"{card_str(card)} is dealt twice ({seen[card]} and {where})", *path)
        seen[card] = where
    # "If any card is exposed during the deal, either in the pack or in giving it to a
    # player, it is a misdeal" (Foster): a card of a hand, or one left in the pack.
    if exposed is not None and exposed not in allowed:
        raise SetupError(
            f"the exposed card {card_str(exposed)} is not in {_the_pack(variant)}",
            "exposed",
        )
    if exposed is not None and exposed == retourne:
        raise SetupError(
            f"the exposed card {card_str(exposed)} is the retourne, which is turned up by "
            "rule: give a card of a hand, or one left in the pack",
            "exposed",
        )


def _pack_order(ranks: tuple[str, ...]) -> tuple[Card, ...]:
    """The pack in its order before the shuffle (made once per pack)."""
    found = _PACK_ORDERS.get(ranks)
    return found if found is not None else keep(_PACK_ORDERS, ranks, tuple(pack(ranks)), 64)


_PACK_ORDERS: Final[dict[tuple[str, ...], tuple[Card, ...]]] = cache("dealing.pack_orders")


def _pack_set(ranks: tuple[str, ...]) -> frozenset[Card]:
    """The pack's cards, to check a card given against (made once per pack)."""
    found = _PACK_SETS.get(ranks)
    return found if found is not None else keep(_PACK_SETS, ranks, frozenset(pack(ranks)), 64)


_PACK_SETS: Final[dict[tuple[str, ...], frozenset[Card]]] = cache("dealing.pack_sets")


def deal_from_pack(
    variant: Variant, players: Sequence[str], dealer: str, order: Sequence[Card]
) -> tuple[dict[str, list[Card]], Card, Card | None]:
    """Deal ``order`` (top card first) as the variant deals: hands, retourne, card under it."""
    table = variant.rules.table
    n, size = len(players), table.hand_size
    if len(order) < n * size + 1:
        raise SetupError(
            f"{len(order)} cards cannot deal {size} to each of {n} players and a retourne",
            "deck",
        )
    layout = _layout(
        tuple(players), dealer, size, table.direction, table.packets, table.deal_singly
    )
    cards: list[Card] = order if isinstance(order, list) else list(order)  # read natively
    hands = {name: [cards[i] for i in layout[seat]] for seat, name in enumerate(players)}
    under = cards[n * size + 1] if len(cards) > n * size + 1 else None
    return hands, cards[n * size], under


def _layout(
    players: tuple[str, ...], dealer: str, size: int, direction: str, packets: str, singly: bool
) -> tuple[tuple[int, ...], ...]:
    """:func:`_lay_out`, remembered."""
    key = (players, dealer, size, direction, packets, singly)
    found = _LAYOUTS.get(key)
    if found is None:
        found = keep(
            _LAYOUTS, key, _lay_out(players, dealer, size, direction, packets, singly), 256
        )
    return found


_LAYOUTS: Final[
    dict[tuple[tuple[str, ...], str, int, str, str, bool], tuple[tuple[int, ...], ...]]
] = cache("dealing.layouts")


def _lay_out(
    players: tuple[str, ...], dealer: str, size: int, direction: str, packets: str, singly: bool
) -> tuple[tuple[int, ...], ...]:
    """Where each player's cards lie in the pack, in the order he receives them: the same
    for every deal at one table, so worked out once."""
    n = len(players)
    d = players.index(dealer) if dealer in players else 0
    step = 1 if direction == "right" else -1
    seats = [players[(d + step * k) % n] for k in range(1, n + 1)]
    places: dict[str, list[int]] = {name: [] for name in players}
    packet_sizes = {"one-then-two": (1, size - 1), "two-then-one": (size - 1, 1)}.get(packets)
    if packet_sizes is not None:  # Pierer: "1 u. 2 od. 2 u. 1 Karte, nie 3 zugleich"
        i = 0
        for packet in packet_sizes:
            for seat in seats:
                places[seat].extend(range(i, i + packet))
                i += packet
    else:
        for i in range(n * size):
            places[seats[i % n] if singly else seats[i // size]].append(i)
    return tuple(tuple(places[name]) for name in players)


def shuffled_pack(variant: Variant, seed: int) -> list[Card]:
    """The variant's pack in the order of the shuffle stream of ``seed``
    (:func:`.stream.shuffle`).

    The last few shuffles are kept (:data:`_SHUFFLED`): a sweep plays the same deal under
    every rule set, the same seed and (mostly) the same pack each time. The pack's rules
    are read every time, kept or not, so what a deal reads is the same either way."""
    table = variant.rules.table
    ranks = tuple(table.packs[table.players])  # Table.pack_ranks(), a Python call, inlined
    key = (ranks, seed)
    kept = _SHUFFLED.get(key)
    if kept is None:
        cards = list(_pack_order(ranks))
        shuffle(cards, Stream(seed, SHUFFLE))
        keep(_SHUFFLED, key, tuple(cards), _SHUFFLED_MOST)
        return cards
    return list(kept)


_SHUFFLED: Final[dict[tuple[tuple[str, ...], int], tuple[Card, ...]]] = cache("dealing.shuffled")
_SHUFFLED_MOST: Final = 256
"""The shuffles :func:`shuffled_pack` keeps (then all forgotten): a deal's, and those of the
deals played on its carried pool, under the few packs a sweep's rows deal (a sweep's rows
play a void deal's chain on to different lengths; docs/speed.md says how many this keeps
from being shuffled again)."""


def checked_stock(
    variant: Variant,
    hands: Mapping[str, Sequence[Card]],
    retourne: Card,
    stock: Sequence[Card],
) -> list[Card]:
    """The stock to buy from: cards of the pack that were not dealt."""
    dealt = {card for hand in hands.values() for card in hand} | {retourne}
    pack_cards = set(pack(variant.rules.table.pack_ranks()))
    seen: set[Card] = set()
    for i, card in enumerate(stock):
        if card in dealt or card in seen:
            raise SetupError(f"{card_str(card)} in the stock is dealt already", "stock", i)
        if card not in pack_cards:
            raise SetupError(f"{card_str(card)} in the stock is not in the pack", "stock", i)
        seen.add(card)
    return list(stock)


# -- the deal as chance steps ---------------------------------------------------------------

HAND: Final = "hand"
"""A chance step that gives the next player his whole hand (:meth:`ChanceDeal.step`)."""
RETOURNE: Final = "retourne"
"""A chance step that turns the retourne up."""
UNDER: Final = "under-retourne"
"""A chance step that gives the card under the retourne (Foster's fourteenth card)."""


class ChanceDeal:
    """A deal's cards given by chance, one step at a time: OpenSpiel's chance node.

    A shuffled pack dealt by :func:`deal_from_pack` gives every deal (each player's hand,
    the retourne, and the card under it where asked for) the same chance: each card's place
    in the deal is fixed by the table's way of dealing, and every order of the pack is
    equally likely. So the same deal is a sequence of chance steps, each of whose outcomes
    is equally likely: each player's hand in turn (in the order of ``players`` given to
    :func:`deal_from_pack`), as the cards it holds, sorted (the order a hand was received
    in changes nothing a rule reads), then the retourne, then (``under``) the card under it.
    Nothing else is dealt: the cards left are the stock.

    - :meth:`step` says what chance gives next (:data:`HAND`, :data:`RETOURNE`,
      :data:`UNDER`), or ``None`` when the deal is dealt.
    - :meth:`outcomes` lists what it may give, each with its probability;
      :meth:`apply` gives one and returns the deal after it (this one is unchanged).
    - :func:`every_deal` walks every path to a dealt deal, with its probability.

    A dealt deal's :attr:`hands`, :attr:`retourne` and :attr:`under` are what a ``Deal``
    is made from (``new_deal(..., hands=..., retourne=..., under_retourne=...)``), so a
    game tree can put these steps before the first decision, as OpenSpiel does
    (docs/chance.md).
    """

    __slots__ = ("_pack", "_under", "hands", "left", "players", "retourne", "size", "under")

    def __init__(self, cards: Sequence[Card], players: int, size: int, *, under: bool = False):
        if players * size + 1 + int(under) > len(cards):
            raise ValueError(
                f"{len(cards)} cards cannot deal {size} to each of {players} players and a "
                "retourne" + (" with a card under it" if under else "")
            )
        self.left: tuple[Card, ...] = tuple(sorted(cards))
        """The cards not yet dealt, in pack order."""
        self._pack = self.left  # the whole pack: what apply() starts each next deal from
        self.players = players
        self.size = size
        self._under = under
        self.hands: tuple[tuple[Card, ...], ...] = ()
        """The hands dealt so far, the first player's first, each sorted."""
        self.retourne: Card | None = None
        self.under: Card | None = None

    @staticmethod
    def of(variant: Variant, *, under: bool = False) -> ChanceDeal:
        """The deal of ``variant``'s own pack, before any card is dealt."""
        table = variant.rules.table
        return ChanceDeal(pack(table.pack_ranks()), table.players, table.hand_size, under=under)

    def step(self) -> str | None:
        """What chance gives next, or ``None`` once the deal is dealt."""
        if len(self.hands) < self.players:
            return HAND
        if self.retourne is None:
            return RETOURNE
        if self._under and self.under is None:
            return UNDER
        return None

    def choices(self) -> list[tuple[Card, ...]]:
        """What chance may give at this step (each as the cards given, sorted), all equally
        likely; empty once the deal is dealt."""
        step = self.step()
        if step is None:
            return []
        if step == HAND:
            return list(combinations(self.left, self.size))
        return [(card,) for card in self.left]

    def outcomes(self) -> list[tuple[tuple[Card, ...], Fraction]]:
        """:meth:`choices` with the probability of each (OpenSpiel's ``chance_outcomes``)."""
        choices = self.choices()
        chance = Fraction(1, len(choices)) if choices else Fraction(0)
        return [(choice, chance) for choice in choices]

    def chance(self) -> Fraction:
        """The probability of each outcome of this step: one over their number."""
        step = self.step()
        if step is None:
            return Fraction(0)
        return Fraction(1, comb(len(self.left), self.size) if step == HAND else len(self.left))

    def apply(self, outcome: Sequence[Card]) -> ChanceDeal:
        """The deal after chance gives ``outcome`` (cards not yet dealt, as many as the step
        gives); this one is left as it was."""
        step = self.step()
        given = tuple(sorted(outcome))
        wanted = self.size if step == HAND else 1
        if step is None or len(given) != wanted or len(set(given)) != wanted:
            raise ValueError(
                f"{cards_str(given) or 'nothing'} cannot be given at this step "
                f"({step or 'the deal is dealt'}: {wanted if step else 0} cards not yet dealt)"
            )
        unknown = [card for card in given if card not in self.left]
        if unknown:
            raise ValueError(f"{cards_str(unknown)} not among the cards left to deal")
        # made through the constructor (mypyc's compiled class has no __new__ to call)
        after = ChanceDeal(self._pack, self.players, self.size, under=self._under)
        after.left = tuple([card for card in self.left if card not in given])
        after.hands, after.retourne, after.under = self.hands, self.retourne, self.under
        if step == HAND:
            after.hands = (*self.hands, given)
        elif step == RETOURNE:
            after.retourne = given[0]
        else:
            after.under = given[0]
        return after


def every_deal(start: ChanceDeal) -> Iterator[tuple[Fraction, ChanceDeal]]:
    """Every dealt deal reachable from ``start``, each once, with its probability from
    ``start`` (the probabilities sum to one). Depth first, in the order of
    :meth:`ChanceDeal.choices`: only small packs (two hands of three from twelve cards and
    a retourne is 110,880 deals)."""
    made: dict[int, Fraction] = {}  # the few probabilities met, each made once
    for ways, dealt in _walk(start, 1):
        probability = made.get(ways)
        if probability is None:
            probability = made[ways] = Fraction(1, ways)
        yield probability, dealt


def _walk(deal: ChanceDeal, ways: int) -> Iterator[tuple[int, ChanceDeal]]:
    """:func:`every_deal`, each deal with the number of equally likely ways to it (every
    outcome of a step is equally likely, so a path's probability is one over the product
    of its steps' numbers of outcomes)."""
    choices = deal.choices()
    if not choices:
        yield ways, deal
        return
    ways = ways * len(choices)
    for choice in choices:
        yield from _walk(deal.apply(choice), ways)
