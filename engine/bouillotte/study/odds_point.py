"""The point's exact counts for :mod:`bouillotte.study.odds`: deals with no brelan, by the
winning point.

*The richest suit over every exposed card* (:func:`suit_point_counts`). The retourne's suit
is fixed (the suits are alike), and a dynamic programme runs over the ranks, from the highest
value down, choosing for each rank which suits went into the hands and adding its value to
those suits' totals; the three other suits are alike, so their totals are kept sorted.
Whether the cards chosen can be split into the hands with no brelan is counted by inclusion
and exclusion over the "bad" hands (three of a kind, and with the favori two or more of the
retourne's rank): the state carries the cards in hand and the retourne rank's cards in hand,
and the number of other ranks chosen as three of a kind travels packed in one integer. The
signed number of deals of each state is applied once, after the last rank, for each
reading of the rules (:func:`suit_point_totals`), so one count, cached by the pack's values
and the players, serves every reading of the favori and of brelans.

Only the winning point is reported (the best total, whether it is shared, and whether the
retourne's suit holds it), so a suit that can no longer reach it is forgotten: when a suit's
total plus every value still to come is below the best total so far, the suit can neither
win nor tie, and its total is replaced by :data:`GONE`. States that differ only in such
totals merge; from the highest value down, few values are left to come when the tables are
largest, and the table before the last rank of Foster's 24-card count keeps about one state
in eight.

*The best hand's pips* (:func:`hand_point_counts`) depend on the values of the cards alone;
only a brelan depends on their ranks. So the brelans are taken out by inclusion and
exclusion (their hands' pips are known), and the other hands are dealt from the cards
grouped by value (:func:`_free_hands`), a table that every retourne and every set of brelans
shares.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import comb, factorial

HAND_SIZE = 3
SUIT_COUNT = 4

GONE = -1
"""The total of a suit that can no longer reach the winning point (see the module
docstring)."""

_Totals = tuple[int, int, int, int]  # retourne's suit, then the other three sorted


def _splits(cards: int, hands: int) -> int:
    """Ways to split ``cards`` cards into ``hands`` labelled hands of three (all of them)."""
    if cards != HAND_SIZE * hands:
        return 0
    hand_orders: int = factorial(HAND_SIZE) ** hands
    return factorial(cards) // hand_orders


def _signed_deals(j: int, rho: int, players: int, favori: bool, brelans: bool) -> int:
    """The signed deals that one state of :func:`suit_point_counts` stands for, once every
    rank is placed with all ``3 * players`` cards in hand: ``j`` bad hands of three of a
    kind chosen (the inclusion-exclusion term, with its sign) and ``rho`` cards of the
    retourne's rank in hand.

    A set of ``m`` bad hands uses distinct hands and ranks, so it is placed on the hands in
    ``n!/(n-m)!`` ways and the other cards split freely. The retourne's rank gives one more
    bad hand: with the favori, "this hand holds two or more of it" (three of them, or two
    and any card not in the other bad hands); without, "this hand holds its three cards".
    Where brelans are not recognised there are no bad hands.
    """
    need = HAND_SIZE * players
    if not brelans:
        return _splits(need, players) if j == 0 else 0

    def placed(m: int) -> int:  # m bad hands on distinct hands, the rest split freely
        if m > players:
            return 0
        return factorial(players) // factorial(players - m) * _splits(need - 3 * m, players - m)

    ways = placed(j)
    if favori and rho >= 2:
        ways -= placed(j + 1) * (comb(rho, 3) + comb(rho, 2) * (need - rho - HAND_SIZE * j))
    elif not favori and rho == 3:
        ways -= placed(j + 1)
    return -ways if j % 2 else ways


class _Moves(dict[_Totals, _Totals]):
    """Totals -> the same after one rank's cards of the suits in ``pattern`` (retourne's
    suit first, then one flag per position of the other sorted totals) add ``value``,
    with the suits that can no longer win (``left``: the values still to come) forgotten;
    each entry is worked out the first time it is asked for."""

    def __init__(self, value: int, pattern: tuple[int, int, int, int], left: int) -> None:
        super().__init__()
        self.value, self.pattern, self.left = value, pattern, left

    def __missing__(self, totals: _Totals) -> _Totals:
        v = self.value
        f0, f1, f2, f3 = self.pattern
        t0, a, b, c = totals
        if f0 and t0 != GONE:
            t0 += v
        if f1 and a != GONE:
            a += v
        if f2 and b != GONE:
            b += v
        if f3 and c != GONE:
            c += v
        if a > b:
            a, b = b, a
        if b > c:
            b, c = c, b
            if a > b:
                a, b = b, a
        reach = (t0 if t0 > c else c) - self.left  # a total below this cannot win nor tie
        if t0 < reach:
            t0 = GONE
        if a < reach:
            a = GONE
            if b < reach:
                b = GONE
                if c < reach:
                    c = GONE
        moved = (t0, a, b, c)
        self[totals] = moved
        return moved


@cache
def suit_point_counts(values: tuple[int, ...], players: int) -> dict[int, dict[_Totals, list[int]]]:
    """Card sets for the point over every exposed card, the retourne in suit 0, by the
    retourne rank's cards in hand ``rho`` and then by suit totals (suits that cannot win as
    :data:`GONE`): a list whose entry ``j`` counts the ways to choose ``3 * players`` cards
    in hand and, for the inclusion-exclusion, ``j`` ranks other than the retourne's with
    three or four cards in hand and three of each one's cards.

    ``values`` are the pack's point values, from the highest down. Weighted by
    :func:`_signed_deals`, the counts give the deals with no brelan under any reading of the
    rules (:func:`suit_point_totals`).

    In the programme the counts by ``j`` travel as one integer, ``j`` in bits
    ``j * width`` onwards (no count reaches ``2 ** width``), so choosing ``j`` ranks with
    three cards is a multiplication: a rank's ``k >= 3`` cards multiply the ways by
    ``1 + comb(k, 3) * 2 ** width`` (not chosen, or chosen in ``comb(k, 3)`` ways).
    """
    need = HAND_SIZE * players
    ranks = len(values)
    # every count, at every rank, is at most (sets of the pack's cards: 2 ** cards) * (ways
    # to choose threes among them: at most 5 per rank) * (retourne ranks)
    bound: int = (1 << SUIT_COUNT * ranks) * 5**ranks * ranks
    width = bound.bit_length() + 1
    patterns = [(a0, p & 1, p >> 1 & 1, p >> 2 & 1) for a0 in (0, 1) for p in range(8)]
    times = [1 + (comb(sum(p), 3) << width) for p in patterns]
    # state: (cards in hand, retourne rank's cards in hand or -1 before it) -> {totals: ways}
    layer: dict[tuple[int, int], dict[_Totals, int]] = {(0, -1): {(0, 0, 0, 0): 1}}
    remaining = ranks
    to_come = sum(values)
    for v in values:
        remaining -= 1
        to_come -= v
        moves = [_Moves(v, p, to_come) for p in patterns]
        steps = list(zip(moves, [sum(p) for p in patterns], times, strict=True))
        nxt: dict[tuple[int, int], dict[_Totals, int]] = {}

        def put(
            table: dict[_Totals, int],
            move: _Moves,
            key: tuple[int, int],
            factor: int,
            into: dict[tuple[int, int], dict[_Totals, int]] = nxt,
        ) -> None:
            target = into.get(key)
            if target is None:
                target = into[key] = {}
            get = target.get
            if factor == 1:
                for totals, w in table.items():
                    moved = move[totals]
                    target[moved] = get(moved, 0) + w
            else:
                for totals, w in table.items():
                    moved = move[totals]
                    target[moved] = get(moved, 0) + w * factor

        for (c, rho), table in layer.items():
            # this rank is not the retourne's: any of its four cards may be in hand
            if rho >= 0 or remaining:
                spare = SUIT_COUNT * remaining - (1 if rho < 0 else 0)
                for move, k, mult in steps:
                    nc = c + k
                    if nc <= need <= nc + spare:
                        put(table, move, (nc, rho), mult)
            if rho >= 0:
                continue
            # this rank is the retourne's: its card of suit 0 is turned up
            spare = SUIT_COUNT * remaining
            for move, k, _ in steps[8:]:
                nc = c + k - 1
                if nc <= need <= nc + spare:
                    put(table, move, (nc, k - 1), 1)
        layer = nxt
    mask = (1 << width) - 1
    return {
        rho: {
            totals: [w >> (width * j) & mask for j in range(players + 1)]
            for totals, w in table.items()
        }
        for (c, rho), table in layer.items()
        if c == need and rho >= 0
    }


def suit_point_totals(
    values: tuple[int, ...], players: int, favori: bool, brelans: bool
) -> dict[_Totals, int]:
    """Deals with no recognised brelan, the retourne in suit 0, by suit totals (retourne's
    suit, then the others sorted; a suit that cannot win is :data:`GONE`)."""
    result: dict[_Totals, int] = {}
    for rho, table in suit_point_counts(values, players).items():
        deals = [_signed_deals(j, rho, players, favori, brelans) for j in range(players + 1)]
        get = result.get
        for totals, by_j in table.items():
            result[totals] = get(totals, 0) + sum(w * d for w, d in zip(by_j, deals, strict=True))
    return {totals: w for totals, w in result.items() if w}


# -- the point over every exposed card with the brelan de Mistigri ---------------------

_Ways = tuple[int, int, int, int, int]
"""The packed counts one state of :func:`mistigri_point_totals` carries (see there)."""

_Step = tuple[int, int, int, int, int, int, int]
"""One rank's factors for those counts: ``O``, ``I``, ``S``, ``B``, ``T``, then what ``S``
adds to ``B`` and to ``T`` (a mistigri's pair of this rank)."""


@cache
def mistigri_point_totals(
    values: tuple[int, ...], wild: int, players: int, favori: bool
) -> dict[_Totals, int]:
    """Deals with no recognised hand where the brelan de Mistigri is one (its card: one card
    of the rank at position ``wild`` of ``values``), by suit totals as
    :func:`suit_point_totals` gives them, but counted over every retourne: the sum of the
    weights is the number of such deals.

    The same programme over the ranks, with the retourne in suit 0. The mistigri is one
    card; exchanging the suits other than the retourne's, the deals with the mistigri of
    each suit are the deals with the retourne of that suit, so counting each set of cards
    once for each of its rank's four cards as the mistigri counts every deal once. At the
    mistigri's rank the set's cards of it in hand say for how many of those four the
    mistigri is in hand (the retourne's own card is the mistigri in one of them, turned
    up).

    With the mistigri in hand, one more bad hand enters the inclusion and exclusion: the
    mistigri and a pair of another rank (not the retourne's where the favori is
    recognised: that hand is the favori, already bad). At most one such hand, on a rank not
    used by another bad hand, and three of the mistigri's rank beside it must leave the
    mistigri out. So each state carries five packed counts (events packed as in
    :func:`suit_point_counts`): ``O``, the sets times the choices of the mistigri out of
    hand; ``I``, the same with it in hand, no mistigri's hand chosen; ``S``, as ``I`` with
    the threes of the mistigri's rank leaving it out (what a mistigri's hand is chosen
    beside); ``B`` and ``T``, a mistigri's hand chosen, its pair of a rank other than the
    retourne's, or of the retourne's (where that is no favori)."""
    need = HAND_SIZE * players
    ranks = len(values)
    bound: int = (1 << SUIT_COUNT * ranks) * 5**ranks * ranks * 24 * ranks
    width = bound.bit_length() + 1
    patterns = [(a0, p & 1, p >> 1 & 1, p >> 2 & 1) for a0 in (0, 1) for p in range(8)]

    def times(k: int) -> int:  # a rank's k cards in hand: not three of a kind, or one
        return 1 + (comb(k, 3) << width) if k >= 3 else 1

    # state: (cards in hand, retourne rank's cards in hand or -1, mistigri's rank: -1 not
    # yet, 0 not the retourne's, 1 the retourne's) -> {totals: ways}
    layer: dict[tuple[int, int, int], dict[_Totals, _Ways]] = {
        (0, -1, -1): {(0, 0, 0, 0): (1, 1, 1, 0, 0)}
    }
    remaining = ranks
    to_come = sum(values)
    for position, v in enumerate(values):
        remaining -= 1
        to_come -= v
        is_wild = position == wild
        moves = [_Moves(v, p, to_come) for p in patterns]
        nxt: dict[tuple[int, int, int], dict[_Totals, _Ways]] = {}

        def put(
            table: dict[_Totals, _Ways],
            move: _Moves,
            key: tuple[int, int, int],
            by: _Step,
            into: dict[tuple[int, int, int], dict[_Totals, _Ways]] = nxt,
        ) -> None:
            """Each state's counts after this rank: ``O``, ``I``, ``S``, ``B``, ``T`` times
            their factors, and ``S`` times a mistigri's pair into ``B`` and ``T``."""
            om, im, sm, bm, tm, bs, ts = by
            target = into.setdefault(key, {})
            for totals, (o, i, s, b, t) in table.items():
                moved = move[totals]
                add = (o * om, i * im, s * sm, b * bm + s * bs, t * tm + s * ts)
                old = target.get(moved)
                if old is not None:
                    add = (
                        old[0] + add[0],
                        old[1] + add[1],
                        old[2] + add[2],
                        old[3] + add[3],
                        old[4] + add[4],
                    )
                target[moved] = add

        for (c, rho, qt), table in layer.items():
            if rho >= 0 or remaining:  # this rank is not the retourne's
                spare = SUIT_COUNT * remaining - (1 if rho < 0 else 0)
                for move, pattern in zip(moves, patterns, strict=True):
                    k = sum(pattern)
                    nc = c + k
                    if not nc <= need <= nc + spare:
                        continue
                    full = times(k)
                    if is_wild:
                        # the mistigri out of hand for 4 - k of its rank's cards, in for k
                        kept = times(k - 1) if k else 1  # threes that leave the mistigri out
                        step = (full * (4 - k), full * k, kept * k, kept * k, kept * k, 0, 0)
                        put(table, move, (nc, rho, 0), step)
                    else:  # a pair of this rank may be the mistigri's
                        put(
                            table,
                            move,
                            (nc, rho, qt),
                            (full, full, full, full, full, comb(k, 2), 0),
                        )
            if rho >= 0:
                continue
            # this rank is the retourne's: its card of suit 0 is turned up
            spare = SUIT_COUNT * remaining
            for move, pattern in zip(moves[8:], patterns[8:], strict=True):
                held = sum(pattern) - 1
                nc = c + held
                if not nc <= need <= nc + spare:
                    continue
                if is_wild:
                    # the mistigri is the retourne (one choice) or one of the other three;
                    # a pair of its own rank beside it is three of a kind, not its hand
                    step = (4 - held, held, held, held, held, 0, 0)
                    put(table, move, (nc, held, 1), step)
                else:  # a pair of the retourne's rank is the mistigri's where no favori
                    pair = 0 if favori else comb(held, 2)
                    put(table, move, (nc, held, qt), (1, 1, 1, 1, 1, 0, pair))
        layer = nxt
    mask = (1 << width) - 1
    result: dict[_Totals, int] = {}
    for (c, rho, qt), table in layer.items():
        if c != need or rho < 0:
            continue
        plain = [_signed_deals(j, rho, players, favori, True) for j in range(players + 1)]
        chosen = [_mistigri_deals(j, rho, qt == 1, players, favori) for j in range(players + 1)]
        # a pair of the retourne's rank: its three cannot also be a bad hand
        beside = [
            _mistigri_deals(j, rho, qt == 1, players, favori, pair_turned=True)
            for j in range(players + 1)
        ]
        for totals, (o, i, _, b, t) in table.items():
            total = 0
            for j in range(players + 1):
                shift = width * j
                total += ((o >> shift & mask) + (i >> shift & mask)) * plain[j]
                total += (b >> shift & mask) * chosen[j] + (t >> shift & mask) * beside[j]
            if total:
                result[totals] = result.get(totals, 0) + total
    return {totals: w for totals, w in result.items() if w}


def _mistigri_deals(
    j: int, rho: int, wild_turned_rank: bool, players: int, favori: bool, pair_turned: bool = False
) -> int:
    """The signed deals of a set of ``j`` threes and a mistigri's hand (with the mistigri in
    hand): as :func:`_signed_deals` with one more bad hand. The retourne's rank's bad hand
    must leave out the mistigri (where it is of that rank) and the pair (where the pair is
    of that rank, the carré cannot be made beside it)."""
    need = HAND_SIZE * players

    def placed(m: int) -> int:
        if m > players:
            return 0
        return factorial(players) // factorial(players - m) * _splits(need - 3 * m, players - m)

    ways = placed(j + 1)
    own = rho - (1 if wild_turned_rank else 0)  # the retourne rank's cards besides the mistigri
    if favori:
        if own >= 2:
            third = need - rho - HAND_SIZE * j - 2 - (0 if wild_turned_rank else 1)
            ways -= placed(j + 2) * (comb(own, 3) + comb(own, 2) * third)
    elif own == 3 and not pair_turned:
        ways -= placed(j + 2)
    return -ways if (j + 1) % 2 else ways


# -- the point over each whole hand: by value, brelans taken out ------------------------


@cache
def hand_point_counts(
    values: tuple[int, ...], players: int, favori: bool, brelans: bool
) -> dict[tuple[int, bool], int]:
    """Deals with no recognised brelan, the retourne being one given card, by the best
    hand's pips and whether two or more hands hold them: ``{(best pips, tied): deals}``,
    summed over the retourne's rank.

    A hand's pips depend on the values of its cards alone, and only a brelan depends on
    their ranks; so the brelans are taken out by inclusion and exclusion, and the hands
    left are dealt from the cards grouped by value. For each retourne value (retournes of
    equal value give equal counts, so each value is counted once and multiplied by how many
    ranks have it), a set of ``m`` "bad" hands is chosen: three of one rank (``4`` ways for a
    rank other than the retourne's), and the retourne's rank with the favori two or more of
    its three cards (two of them and any card of another rank, or all three), without it all
    three; bad hands use distinct ranks and hands, so a set is placed in ``n!/(n-m)!`` ways
    and counted with the sign ``(-1)^m``. Its hands' pips are known; the other ``n - m``
    hands are dealt from the cards left, counted by value alone (:func:`_free_hands`).
    """
    distinct = sorted(set(values))
    per_value = Counter(values)
    index = {v: i for i, v in enumerate(distinct)}
    result: dict[tuple[int, bool], int] = {}
    for turned_value, alike in sorted(per_value.items()):
        t = index[turned_value]
        pool = [SUIT_COUNT * per_value[v] for v in distinct]
        pool[t] -= 1  # the retourne
        # ranks that may be three of a kind in a hand, other than the retourne's, by value
        free_ranks = [per_value[v] - (v == turned_value) for v in distinct]
        # bad hands of three of a rank other than the retourne's: how many of each value
        choices: list[tuple[tuple[int, ...], int]] = [((), 1)]
        if brelans:
            for ranks in free_ranks:
                choices = [
                    ((*taken, e), ways * comb(ranks, e) * SUIT_COUNT**e)
                    for taken, ways in choices
                    for e in range(min(ranks, players) + 1)
                ]
        else:
            choices = [((0,) * len(distinct), 1)]
        # the retourne rank's bad hand: none, or its cards taken from the value's pool and
        # the hand's pips, with a third card of value index w (or None) and the ways
        turned: list[tuple[int, int | None, int, int]] = [(0, None, 0, 1)]  # taken, w, pips, ways
        if brelans:
            turned.append((3, None, 3 * turned_value, 1))
            if favori:
                turned += [(2, w, 2 * turned_value + v, 3) for w, v in enumerate(distinct)]
        for taken, ways in choices:
            trips = sum(taken)
            if trips > players:
                continue
            after = [g - 3 * e for g, e in zip(pool, taken, strict=True)]
            pips = [3 * v for v, e in zip(distinct, taken, strict=True) for _ in range(e)]
            for turned_taken, w, turned_pips, turned_ways in turned:
                m = trips + (1 if turned_taken else 0)
                if m > players:
                    continue
                left = list(after)
                left[t] -= turned_taken
                hand_pips = [*pips, turned_pips] if turned_taken else pips
                times = turned_ways
                if w is not None:
                    # the third card: any card of value w but the retourne rank's last one
                    times *= left[w] - (1 if w == t else 0)
                    left[w] -= 1
                if not times or min(left) < 0:
                    continue
                times *= ways * alike * factorial(players) // factorial(players - m)
                if m % 2:
                    times = -times
                rest = _free_hands(tuple(distinct), tuple(left), players - m)
                get = result.get
                for (top, tied), count in rest.items():
                    for p in hand_pips:
                        if p > top:
                            top, tied = p, False
                        elif p == top:
                            tied = True
                    key = (top, tied)
                    result[key] = get(key, 0) + times * count
    return {key: w for key, w in result.items() if w}


@cache
def _free_hands(
    values: tuple[int, ...], pool: tuple[int, ...], hands: int
) -> dict[tuple[int, bool], int]:
    """Ways to deal ``hands`` labelled hands of three, any cards, from ``pool`` cards of each
    of ``values``, by the best hand's pips and whether two or more hands hold them (``-1``
    and false for no hand). Only the number of cards of each value matters: a hand taking
    ``a`` cards of a value with ``g`` left has ``comb(g, a)`` choices."""
    if hands == 0:
        return {(-1, False): 1}
    out: dict[tuple[int, bool], int] = {}
    get = out.get
    for taken, pips in _value_hands(values):
        ways = 1
        for i, a in taken:
            ways *= comb(pool[i], a)
        if not ways:
            continue
        left = list(pool)
        for i, a in taken:
            left[i] -= a
        for (top, tied), w in _free_hands(values, tuple(left), hands - 1).items():
            if pips > top:
                key = (pips, False)
            elif pips == top:
                key = (top, True)
            else:
                key = (top, tied)
            out[key] = get(key, 0) + ways * w
    return out


@cache
def _value_hands(values: tuple[int, ...]) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Every hand as how many cards of each value index it takes, with its pips."""
    hands = []
    for combo in combinations_with_replacement(range(len(values)), HAND_SIZE):
        taken = tuple((i, combo.count(i)) for i in sorted(set(combo)))
        hands.append((taken, sum(values[i] for i in combo)))
    return hands


_COMB = [[comb(n, k) for k in range(HAND_SIZE + 1)] for n in range(SUIT_COUNT + 1)]
"""``comb(n, k)`` for the cards of one rank: ``_COMB[n][k]``."""


def forget_counts() -> None:
    """Drop every cached count, so that the next one is counted afresh."""
    for counted in (suit_point_counts, hand_point_counts, _free_hands, _value_hands):
        counted.cache_clear()
