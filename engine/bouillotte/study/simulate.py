"""Many seeded deals played by betting policies, and what they tell about a rule system.

Deal ``i`` of a run with seed ``S`` is shuffled with seed ``S + i`` and its policies draw
from their own generator seeded from ``S + i``, so every deal is fixed by its number alone:
a run split over several processes gives exactly the numbers of a run in one. Every deal
starts afresh (each player with the variant's cave, no pool carried in), the last player
dealing; seats are reported by position relative to the dealer (1 is the dealer's right,
the first to speak; the dealer is last).

Counters are integers, so the tallies are exact integer sums and merge in any order; only
the reported rates, means and 95% confidence intervals are floats (Wilson intervals for
rates, normal intervals for means).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Any

from ..play.deal import Deal, new_deal
from ..play.events import WonByPoint
from ..play.hands import Kind
from ..rules.cards import RANKS
from ..rules.variant import Variant
from .policies import Policy, get_policy, play

Z95 = 1.959963984540054
CLASSES = ("carré", "brelan", "favori", "mistigri", "point", "uncontested", "void")
"""What decides a deal's main pool: a kind of brelan at the showdown, the point, no
showdown at all (one player left), or nobody opening."""

_KIND_CLASS = {
    Kind.CARRE: "carré",
    Kind.BRELAN: "brelan",
    Kind.FAVORI: "favori",
    Kind.MISTIGRI: "mistigri",
    Kind.POINT: "point",
}


@dataclass
class Moments:
    """Integer count, sum and sum of squares: exact, and mergeable in any order."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def summary(self) -> dict[str, Any]:
        if self.n == 0:
            return {"n": 0, "mean": None, "ci95": None}
        mean = self.total / self.n
        if self.n > 1:
            variance = (self.squares - self.total * self.total / self.n) / (self.n - 1)
            half = Z95 * math.sqrt(max(variance, 0.0) / self.n)
        else:
            half = math.inf
        return {"n": self.n, "mean": _r(mean), "ci95": [_r(mean - half), _r(mean + half)]}


def _r(x: float) -> float:
    return round(x, 6)


def wilson(hits: int, n: int) -> dict[str, Any]:
    """A rate with its 95% Wilson score interval."""
    if n == 0:
        return {"count": 0, "n": 0, "rate": None, "ci95": None}
    p = hits / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return {"count": hits, "n": n, "rate": _r(p), "ci95": [_r(centre - half), _r(centre + half)]}


@dataclass
class Tally:
    """Everything counted over a run of deals."""

    deals: int = 0
    decided_by: Counter[str] = field(default_factory=Counter)
    pot: Moments = field(default_factory=Moments)
    """The pools awarded in a deal, over deals that are not void."""
    bonus_flow: Moments = field(default_factory=Moments)
    """Counters paid for brelans in a deal, over every deal."""
    seat_net: list[Moments] = field(default_factory=list)
    point_deals: int = 0
    point_suit_is_retourne: int = 0
    hands_dealt: int = 0
    dealt: Counter[str] = field(default_factory=Counter)
    """Hands as dealt (before any betting): simple brelan, carré, favori (a pair of the
    retourne's rank)."""

    def merge(self, other: Tally) -> None:
        self.deals += other.deals
        self.decided_by.update(other.decided_by)
        self.pot.merge(other.pot)
        self.bonus_flow.merge(other.bonus_flow)
        if not self.seat_net:
            self.seat_net = [Moments() for _ in other.seat_net]
        for mine, theirs in zip(self.seat_net, other.seat_net, strict=True):
            mine.merge(theirs)
        self.point_deals += other.point_deals
        self.point_suit_is_retourne += other.point_suit_is_retourne
        self.hands_dealt += other.hands_dealt
        self.dealt.update(other.dealt)


def player_names(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


def _count_dealt(deal: Deal, tally: Tally) -> None:
    turned = deal.retourne >> 2  # the rank index (rules.cards: rank * 4 + suit)
    dealt = tally.dealt
    for hand in deal.hands:
        counts = [0] * len(RANKS)
        three = -1
        for card in hand:
            rank = card >> 2
            counts[rank] += 1
            if counts[rank] == 3:
                # No more than one rank can be held three times in a hand of three to five.
                three = rank
        if three >= 0:
            dealt["carre" if three == turned else "simple_brelan"] += 1
        elif counts[turned] == 2:
            dealt["favori"] += 1
    tally.hands_dealt += len(deal.hands)


def decided_by(deal: Deal) -> tuple[str, bool | None]:
    """The class that decided the main pool, and (for the point) whether the winning suit
    is the retourne's: read from the outcome, which records why each pool was won."""
    outcome = deal.outcome
    if outcome.status != "settled":
        return str(outcome.status), None
    main = outcome.pots[0]
    value = main.winner_value
    assert value is not None  # a showdown valued every hand shown
    decision = main.decision
    if value.kind is not Kind.POINT or not isinstance(decision, WonByPoint):
        return _KIND_CLASS[value.kind], None
    return "point", decision.suit == deal.retourne & 3


def play_one(variant: Variant, policy: Policy, names: Sequence[str], seed: int, i: int) -> Deal:
    """Deal ``i`` of a run with seed ``seed``, played to its end by ``policy``: the same
    cards whatever the variant (the shuffle depends on ``seed + i`` alone), which is what
    lets a sweep compare rules on common random numbers."""
    deal = new_deal(variant, names, names[-1], seed=seed + i)
    # Seeding from a string hashes it: made only for a policy that draws from it.
    rng = random.Random(f"{seed + i}:policy") if policy.needs_rng else _NO_DRAWS
    play(deal, policy, rng)
    return deal


_NO_DRAWS = random.Random(0)
"""The generator handed to a policy that never draws (``Policy.needs_rng``)."""


def play_range(variant: Variant, policy_name: str, seed: int, start: int, stop: int) -> Tally:
    """Play deals ``start`` to ``stop - 1`` of a run and count them."""
    names = player_names(variant.players)
    policy: Policy = get_policy(policy_name)
    tally = Tally(seat_net=[Moments() for _ in names])
    for i in range(start, stop):
        deal = play_one(variant, policy, names, seed, i)
        _count_dealt(deal, tally)
        outcome = deal.outcome
        tally.deals += 1
        decided, retourne_suit = decided_by(deal)
        tally.decided_by[decided] += 1
        if retourne_suit is not None:
            tally.point_deals += 1
            tally.point_suit_is_retourne += int(retourne_suit)
        if outcome.status != "void":
            tally.pot.add(sum(p.amount for p in outcome.pots))
        tally.bonus_flow.add(sum(b.amount for b in outcome.bonuses))
        players = outcome.players
        for moments, seat in zip(tally.seat_net, deal.order, strict=True):
            moments.add(players[names[seat]].net)
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


@contextmanager
def worker_pool(
    jobs: int,
    setup: Callable[..., None] | None = None,
    setup_args: tuple[Any, ...] = (),
) -> Iterator[Pool]:
    """``jobs`` worker processes that no Ctrl-C leaves behind, each first running
    ``setup(*setup_args)`` where given (to receive once what every task shares).

    Workers ignore Ctrl-C: this process catches it and ends them at once (terminate),
    rather than waiting for every chunk already queued.
    """
    pool = multiprocessing.Pool(jobs, initializer=_start_worker, initargs=(setup, setup_args))
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _start_worker(setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*setup_args)


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


def report(variant: Variant, tally: Tally, seed: int, policy: str) -> dict[str, Any]:
    """The statistics of a run, as JSON data."""
    n = tally.deals
    hands = variant.rules.hands
    absent = {"favori": hands.favori == "none", "mistigri": not hands.mistigri}
    classes = [c for c in CLASSES if not absent.get(c, False) or tally.decided_by[c]]
    return {
        "variant": variant.id,
        "policy": policy,
        "seed": seed,
        "deals": n,
        "decided_by": {c: wilson(tally.decided_by[c], n) for c in classes},
        "average_pot": tally.pot.summary(),
        "bonus_flow_per_deal": tally.bonus_flow.summary(),
        "seat_net_per_deal": {
            str(position + 1): moments.summary() for position, moments in enumerate(tally.seat_net)
        },
        "point_suit_is_retourne": wilson(tally.point_suit_is_retourne, tally.point_deals),
        "dealt_per_hand": {
            key: wilson(tally.dealt[key], tally.hands_dealt)
            for key in ("simple_brelan", "carre", "favori")
        },
    }


def _ci(summary: dict[str, Any], percent: bool = False) -> str:
    if summary.get("rate" if percent else "mean") is None:
        return "-"
    if percent:
        low, high = summary["ci95"]
        return f"{100 * summary['rate']:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"
    low, high = summary["ci95"]
    return f"{summary['mean']:.3f} [{low:.3f}, {high:.3f}]"


def report_text(reports: Sequence[dict[str, Any]]) -> str:
    """The reports of several variants side by side (95% confidence intervals)."""
    from .render import table

    headers = ["", *(r["variant"] for r in reports)]
    rows: list[list[str]] = [["deals", *(str(r["deals"]) for r in reports)]]
    keys = [c for c in CLASSES if any(c in r["decided_by"] for r in reports)]
    for key in keys:
        rows.append(
            [f"decided by {key}"]
            + [_ci(r["decided_by"][key], True) if key in r["decided_by"] else "-" for r in reports]
        )
    rows.append(["average pot (not void)", *(_ci(r["average_pot"]) for r in reports)])
    rows.append(["bonus flow per deal", *(_ci(r["bonus_flow_per_deal"]) for r in reports)])
    seats = max(len(r["seat_net_per_deal"]) for r in reports)
    for position in range(1, seats + 1):
        label = "dealer" if position == seats else f"dealer's right +{position - 1}"
        if position == 1:
            label = "dealer's right (eldest)"
        rows.append(
            [f"net per deal: {label}"]
            + [
                _ci(r["seat_net_per_deal"][str(position)])
                if str(position) in r["seat_net_per_deal"]
                else "-"
                for r in reports
            ]
        )
    rows.append(
        ["point won by retourne's suit", *(_ci(r["point_suit_is_retourne"], True) for r in reports)]
    )
    for key in ("simple_brelan", "carre", "favori"):
        rows.append(
            [f"dealt per hand: {key}", *(_ci(r["dealt_per_hand"][key], True) for r in reports)]
        )
    policy = reports[0]["policy"] if reports else ""
    seed = reports[0]["seed"] if reports else ""
    head = f"Simulation: policy {policy}, seed {seed}; 95% confidence intervals in brackets"
    return head + "\n\n" + table(headers, rows)
