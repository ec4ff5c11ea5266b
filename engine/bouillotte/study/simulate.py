"""Many seeded deals played by betting policies, and what they tell about a rule system.

:func:`simulate` plays deals ``0`` to ``deals - 1`` of a run with seed ``S`` in chunks, in
this process or over worker processes (:mod:`workers`), and merges what each chunk counts
(:func:`play_range`) into one :class:`tally.Tally`: the same numbers whatever the number of
processes. Each deal is dealt from its own stream of (``S``, ``i``) (:mod:`deal_streams`),
played with the deals that play on its pool where it is void (:mod:`void_chain`), and
counted by what decided it and the situations it reached (:mod:`situations`); the report
is :mod:`simulate_report`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..play.deal import Deal
from ..rules.cards import RANKS
from ..rules.variant import Variant
from .player_view import Policy
from .policies import get_policy
from .situations import decided_by, situations_met
from .tally import Moments, Tally
from .void_chain import play_one, player_names, pools_awarded
from .workers import check_run, worker_pool


def _count_dealt(deal: Deal, tally: Tally) -> None:
    turned = deal.retourne >> 2  # the rank index (rules.cards: rank * 4 + suit)
    dealt = tally.dealt
    for hand in deal.hands:
        counts = [0] * len(RANKS)
        three = -1
        for card in hand:
            rank = card >> 2
            counts[rank] = counts[rank] + 1
            if counts[rank] == 3:
                # No more than one rank can be held three times in a hand of three to five.
                three = rank
        if three >= 0:
            dealt["carre" if three == turned else "simple_brelan"] += 1
        elif counts[turned] == 2:
            dealt["favori"] += 1
    tally.hands_dealt += len(deal.hands)


def play_range(variant: Variant, policy_name: str, seed: int, start: int, stop: int) -> Tally:
    """Play deals ``start`` to ``stop - 1`` of a run and count them."""
    names = player_names(variant.players)
    policy: Policy = get_policy(policy_name)
    tally = Tally(seat_net=[Moments() for _ in names])
    # Counted in plain dicts, added to the tally's Counters once at the end: compiled, a
    # dict of ints is read and written natively, a Counter (a Python class) is not.
    decided_count: dict[str, int] = {}
    met_count: dict[str, int] = {}
    seat_net = tally.seat_net
    for i in range(start, stop):
        played = play_one(variant, policy, names, seed, i)
        deal = played.first
        _count_dealt(deal, tally)
        outcome = deal.outcome
        tally.deals += 1
        tally.played_on += len(played.deals) - 1
        decided, retourne_suit = decided_by(deal)
        decided_count[decided] = decided_count.get(decided, 0) + 1
        if retourne_suit is not None:
            tally.point_deals += 1
            tally.point_suit_is_retourne += int(retourne_suit)
        if outcome.status != "void":
            tally.pot.add(sum([p.amount for p in outcome.pots]))
        tally.bonus_flow.add(sum([b.amount for b in outcome.bonuses]))
        tally.carried.add(played.carried)
        if played.carried:
            tally.cut += 1
        tally.pools.add(pools_awarded(played))
        net = played.net
        for position in range(len(seat_net)):
            seat_net[position].add(net[position])
        met: set[str] = set()
        for one in played.deals:
            met.update(situations_met(one))
        for situation in met:
            met_count[situation] = met_count.get(situation, 0) + 1
    tally.decided_by.update(decided_count)
    tally.met.update(met_count)
    return tally


def _chunks(deals: int, jobs: int) -> list[tuple[int, int]]:
    """The deals cut into runs for one process (a hundredth each, for the progress) or for
    workers: about fifty per worker, so that the bar moves and the workers end together,
    of 250 to 2,000 deals, so that a chunk's overhead (a few milliseconds) stays small."""
    if jobs <= 1:
        size = max(500, deals // 100)
    else:
        size = min(2000, max(250, math.ceil(deals / (jobs * 50))))
    return [(start, min(start + size, deals)) for start in range(0, deals, size)]


def simulate(
    variant: Variant,
    deals: int,
    seed: int,
    policy: str = "simple",
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``deals`` seeded deals; ``progress`` is called with the number of deals done."""
    check_run(deals, seed, jobs)
    get_policy(policy)  # an unknown policy is an input error before any work starts
    total = Tally(seat_net=[Moments() for _ in range(variant.players)])
    chunks = _chunks(deals, jobs)
    if jobs <= 1:
        for start, stop in chunks:
            total.merge(play_range(variant, policy, seed, start, stop))
            if progress:
                progress(stop - start)
        return total
    with worker_pool(jobs, _start_simulation, (variant, policy, seed)) as pool:
        for (start, stop), tally in zip(chunks, pool.imap(_play_chunk, chunks), strict=True):
            total.merge(tally)
            if progress:
                progress(stop - start)
    return total


_RUN: tuple[Variant, str, int] | None = None
"""In a simulation's worker: the variant, policy and seed every chunk shares, received
once when the worker starts rather than with each chunk."""


def _start_simulation(variant: Variant, policy: str, seed: int) -> None:
    global _RUN
    _RUN = (variant, policy, seed)


def _play_chunk(bounds: tuple[int, int]) -> Tally:
    assert _RUN is not None, "a simulation worker plays only after _start_simulation"
    variant, policy, seed = _RUN
    return play_range(variant, policy, seed, *bounds)
