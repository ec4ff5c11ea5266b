"""Benchmarks: deals per second through the full engine, sessions, odds, and PokerKit.

Run:  python benchmarks/run.py [--deals N] [--profile]

Every figure is measured in this run on this machine (one process, wall-clock time, best
of three repeats). PokerKit (``pip install pokerkit``) plays a comparable hand: four
players, one street of no-limit betting with blinds, random legal actions, a showdown.
``--profile`` prints the engine's hot path under cProfile (foster, simple policy).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bouillotte.deal import new_deal
from bouillotte.policies import get_policy, play
from bouillotte.profiles import Library
from bouillotte.session import load_session, run_session

ROOT = Path(__file__).resolve().parent.parent
TARGET = 10_000


def best_rate(work: Callable[[], int], repeats: int = 3) -> float:
    """Items per second, best of ``repeats``."""
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        items = work()
        best = max(best, items / (time.perf_counter() - start))
    return best


def engine_deals(variant_id: str, policy_name: str, deals: int) -> Callable[[], int]:
    variant = Library().get(variant_id)
    names = ["A", "B", "C", "D"]
    policy = get_policy(policy_name)

    def work() -> int:
        for i in range(deals):
            deal = new_deal(variant, names, "D", seed=i)
            play(deal, policy, random.Random(i))
        return deals

    return work


def session_runs(runs: int) -> Callable[[], int]:
    session = load_session(ROOT / "scenarios" / "sessions" / "pagat-teaching.yaml")
    variant = Library().get("pagat")

    def work() -> int:
        for _ in range(runs):
            run_session(session, variant)
        return runs

    return work


def odds_runs(variant_id: str) -> Callable[[], int] | None:
    try:
        from bouillotte.odds import compute_odds
    except ImportError:
        return None
    rules = Library().get(variant_id).rules

    def work() -> int:
        compute_odds(rules)
        return 1

    return work


def odds_all_packs() -> Callable[[], int]:
    """The three Foster packs (16, 20 and 24 cards) one after another, as ``bouillotte odds``."""
    from bouillotte.odds import compute_odds

    library = Library()
    rules = [library.get(v).rules for v in ("foster-three", "foster", "foster-five")]

    def work() -> int:
        for r in rules:
            compute_odds(r)
        return 1

    return work


def site_build() -> Callable[[], int]:
    """The whole reference site from the bundled library, into a temporary folder."""
    from bouillotte.sitebuild import build_site

    def work() -> int:
        with tempfile.TemporaryDirectory() as folder:
            build_site(Path(folder) / "site", [], [], log=lambda _: None)
        return 1

    return work


def pokerkit_hands(hands: int) -> Callable[[], int] | None:
    try:
        from pokerkit import (
            Automation,
            BettingStructure,
            Deck,
            Opening,
            StandardHighHand,
            State,
            Street,
        )
    except ImportError:
        return None
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    street = Street(False, (False, False), 3, False, Opening.POSITION, 2, None)

    def work() -> int:
        rng = random.Random(1)
        for _ in range(hands):
            state = State(
                automations,
                Deck.STANDARD,
                (StandardHighHand,),
                (street,),
                BettingStructure.NO_LIMIT,
                True,
                (0,) * 4,
                (1, 2),
                0,
                (100,) * 4,
                4,
            )
            while state.status:
                options = [
                    name
                    for name, able in (
                        ("fold", state.can_fold()),
                        ("call", state.can_check_or_call()),
                        ("raise", state.can_complete_bet_or_raise_to()),
                    )
                    if able
                ]
                choice = rng.choice(options)
                if choice == "fold":
                    state.fold()
                elif choice == "call":
                    state.check_or_call()
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    assert low is not None and high is not None
                    state.complete_bet_or_raise_to(rng.randint(low, high))
        return hands

    return work


def profile(deals: int) -> str:
    work = engine_deals("foster", "simple", deals)
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000, help="deals per engine figure")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the engine")
    args = parser.parse_args()
    rows: list[tuple[str, str, str]] = []
    for variant in ("foster", "pagat"):
        for policy in ("random", "simple"):
            rate = best_rate(engine_deals(variant, policy, args.deals))
            note = ""
            if variant == "foster" and policy == "simple":
                note = f"target {TARGET:,}: {'met' if rate >= TARGET else 'NOT met'}"
            rows.append((f"engine deals/s, {variant}, {policy} policy", f"{rate:,.0f}", note))
    per_session = 1 / best_rate(session_runs(20))
    rows.append(("pagat 12-deal session (file)", f"{per_session * 1000:,.1f} ms", ""))
    for variant in ("foster", "pagat", "foster-five"):
        odds = odds_runs(variant)
        if odds is None:
            rows.append((f"odds, {variant}", "-", "odds.py not present"))
        else:
            rows.append((f"odds, {variant}", f"{1000 / best_rate(odds):,.1f} ms", "exact"))
    all_packs = 1 / best_rate(odds_all_packs())
    rows.append(
        (
            "odds, all three Foster packs",
            f"{all_packs * 1000:,.0f} ms",
            f"target 2,000 ms: {'met' if all_packs < 2 else 'NOT met'}",
        )
    )
    site = 1 / best_rate(site_build(), repeats=2)
    rows.append(
        (
            "site build, bundled library",
            f"{site * 1000:,.0f} ms",
            f"target 3,000 ms: {'met' if site < 3 else 'NOT met'}",
        )
    )
    poker = pokerkit_hands(max(args.deals // 5, 200))
    if poker is None:
        rows.append(("pokerkit hands/s", "-", "pip install pokerkit"))
    else:
        rows.append(
            ("pokerkit hands/s (4 players, 1 street NL)", f"{best_rate(poker):,.0f}", "random play")
        )
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    print(f"{'benchmark'.ljust(width)}  {'result'.rjust(value_width)}  note")
    print(f"{'-' * width}  {'-' * value_width}  ----")
    for name, value, note in rows:
        print(f"{name.ljust(width)}  {value.rjust(value_width)}  {note}".rstrip())
    if args.profile:
        print()
        print(profile(args.deals))


if __name__ == "__main__":
    main()
