"""Alike sampled deals walked as one game (``strong/merge.py``, ``strong solve --merge``).

The merged tree must be the same game as the whole one: for any strategy, the same
values, the same best-response gains (so the same NashConv) and the same pools; and its
groups must be the deals' hand classes, counted here apart from the walk. Needs numpy
(the ``strong`` extra); skipped with that message where it is absent."""

from __future__ import annotations

import collections
import gc
import json
import subprocess
import sys
from dataclasses import replace

import pytest

np = pytest.importorskip(
    "numpy", reason="numpy is not installed: pip install -e '.[strong]' to test the solver"
)

from bouillotte.strong.abstraction import Abstraction, AbstractionError  # noqa: E402
from bouillotte.strong.core import GameTable, table_for  # noqa: E402
from bouillotte.strong.merge import merged_tree  # noqa: E402
from bouillotte.strong.solve import (  # noqa: E402
    Tree,
    _backed_up,
    best_response_gains_of,
    build_tree,
    cfr_plus,
    stored_weights,
)

SMALL = Abstraction(cave=10, bets=("pot",), raises=1, straddles=True, deals=40, classes=2)


def _as_stored(tree: Tree, strategy: object) -> dict[str, list[list[float]]]:
    """A per-slot strategy as the store keeps it: by information state's key."""
    return {
        key: [[a, float(strategy[tree.first[i] + k])] for k, a in enumerate(tree.actions[i])]  # type: ignore[index]
        for i, key in enumerate(tree.keys)
    }


def _class_tuples(table: GameTable) -> int:
    """How many different hand classes, seat by seat, the sampled deals give: counted from
    the deals themselves, not by walking them."""
    seen: collections.Counter[tuple[str, ...]] = collections.Counter()
    for pack in table.packs:
        deal = table.deal_from(pack)
        seen[tuple(table.hand_class(hand, deal.retourne) for hand in deal.hands)] += 1
    return len(seen)


@pytest.mark.parametrize("variant", ["foster-three", "foster"])
def test_the_merged_game_is_the_whole_game(variant: str) -> None:
    """A strategy part way to equilibrium (CFR+ on the whole tree) has the same values,
    best-response gains and pools on both trees; the merged tree is smaller and has every
    information state with its actions."""
    table = table_for(variant, SMALL if variant == "foster-three" else SMALL.with_seed(3))
    whole = build_tree(table)
    merged, groups = merged_tree(table)
    assert groups == _class_tuples(table) < SMALL.deals
    assert len(merged.actor) < len(whole.actor)
    assert dict(zip(merged.keys, merged.actions, strict=True)) == dict(
        zip(whole.keys, whole.actions, strict=True)
    )
    strategy, _ = cfr_plus(whole, 15)
    stored = _as_stored(whole, strategy)
    on_whole, on_merged = stored_weights(whole, stored), stored_weights(merged, stored)
    gains_whole, values_whole = best_response_gains_of(whole, on_whole)
    gains_merged, values_merged = best_response_gains_of(merged, on_merged)
    assert sum(gains_whole) > 0.01  # not an equilibrium: the gains say something
    assert gains_merged == pytest.approx(gains_whole, abs=1e-9)
    assert values_merged == pytest.approx(values_whole, abs=1e-9)
    assert sum(values_merged) == pytest.approx(0.0, abs=1e-9)
    pools = _backed_up(whole, on_whole, whole.pools)[0]
    assert _backed_up(merged, on_merged, merged.pools)[0] == pytest.approx(pools, abs=1e-9)


def test_cfr_plus_on_the_merged_tree_solves_the_whole_game() -> None:
    """CFR+ run on the merged tree gives a strategy whose NashConv, measured on the whole
    tree, is what the merged tree says, and small."""
    table = table_for("foster-three", SMALL)
    whole = build_tree(table)
    merged, _ = merged_tree(table)
    strategy, _ = cfr_plus(merged, 300)
    stored = _as_stored(merged, strategy)
    gains_merged, _ = best_response_gains_of(merged, stored_weights(merged, stored))
    gains_whole, _ = best_response_gains_of(whole, stored_weights(whole, stored))
    assert sum(gains_whole) == pytest.approx(sum(gains_merged), abs=1e-9)
    assert sum(gains_whole) < 0.05


def test_the_collector_is_paused_for_the_walk_and_restored() -> None:
    """Python's garbage collector is off while a tree is walked, and as it was after."""
    seen: list[bool] = []
    table = table_for("foster-three", SMALL)
    assert gc.isenabled()
    merged_tree(table, step=lambda _: seen.append(gc.isenabled()))
    assert seen == [False] * SMALL.deals and gc.isenabled()
    gc.disable()
    try:
        merged_tree(table)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_deals_known_card_for_card_are_not_merged() -> None:
    """Without hand classes every deal is a game of its own information states."""
    table = table_for("foster-three", Abstraction(cave=6, bets=("pot",), raises=1, deals=5))
    merged, groups = merged_tree(table)
    assert groups == 5
    assert len(merged.actor) == len(build_tree(table).actor)


def test_the_merged_tree_is_bounded() -> None:
    table = table_for("foster-three", SMALL)
    merged, _ = merged_tree(table)
    size = len(merged.actor)
    fault = f"more than {size - 1:,} states after .*--max-states"
    with pytest.raises(AbstractionError, match=fault):
        merged_tree(table, size - 1)
    assert len(merged_tree(table, size)[0].actor) == size
    one_deal = len(build_tree(table_for("foster-three", replace(SMALL, deals=1))).actor) - 1
    with pytest.raises(AbstractionError, match="more than 10 states in deal 1 alone"):
        merged_tree(table, 10)  # a deal's own walk stops there, not when it is done
    assert one_deal > 10


def _solve(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bouillotte", "strong", "solve", "-v", "foster-three",
         "--cave", "10", "--raises", "1", "--classes", "2", "--deals", "40",
         "--iterations", "200", *extra],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_solve_merge_prints_its_games_and_nash_conv() -> None:
    """``strong solve --merge`` says how many games its deals made; the same game walked
    whole has as many information states on a larger tree, and both solve it."""
    merged = _solve("--merge", "--json")
    assert merged.returncode == 0, merged.stderr
    groups = _class_tuples(table_for("foster-three", SMALL))
    assert f"its 40 sampled deals walked as {groups} games: alike deals merged" in merged.stderr
    whole = _solve("--json")
    assert whole.returncode == 0, whole.stderr
    assert "alike deals merged" not in whole.stderr
    (row, *_), (whole_row, *_) = json.loads(merged.stdout), json.loads(whole.stdout)
    assert row["states"] < whole_row["states"]
    assert row["information_states"] == whole_row["information_states"]
    assert (row["merged_games"], whole_row["merged_games"]) == (groups, 0)
    assert row["nash_conv"] < 0.05 and whole_row["nash_conv"] < 0.05
    bad = _solve("--merge", "--max-states", "100")
    assert bad.returncode == 2
    assert (
        bad.stderr.strip()
        .splitlines()[-1]
        .startswith("error: the merged game has more than 100 states in deal 1 alone: sample")
    )
    assert "Traceback" not in bad.stderr
