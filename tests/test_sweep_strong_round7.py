"""A sweep under ``--policy strong``, round seven: every row plays the same player.

The strong player plays the strategy stored for a profile's rules, and a sweep's row
changes a rule, so the row's rules have none: the row was played by ``advised`` while the
base was played by the strategy, and the sweep's sparing (a deal that read no changed
rule copied from the base) mixed the two. ``sweep foster-three --vary
bonuses.mistigri.amount=5 --policy strong`` said the rule cannot act, while played in full
the row moved 85 deals of 100: the player's change, not the rule's. Every row now keeps
the base's strategy (as an invented player keeps its tendencies), so sparing a deal and
playing it give the same numbers, and a rule that cannot act moves nothing.

Shown failing before the fix (the spared and played rows differed).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")

from bouillotte.rules.profiles import Library
from bouillotte.study.policies import sweep_player
from bouillotte.study.strong_policy import StrongPolicy
from bouillotte.study.sweep import sweep_range
from bouillotte.study.sweep_combinations import vary_combinations

LIBRARY = Library()


def _variants(vary: list[str]) -> list[object]:
    base = LIBRARY.get("foster-three")
    return [base, *(c.variant for c in vary_combinations(base, vary) if c.variant is not None)]


@pytest.mark.parametrize("vary", [["bonuses.mistigri.amount=5"], ["bonuses.brelan.amount=5"]])
def test_a_strong_sweep_spared_gives_the_numbers_played_in_full(vary: list[str]) -> None:
    variants = _variants(vary)
    deals = 25
    spared = sweep_range(variants, "strong", 1, 0, deals)  # type: ignore[arg-type]
    played = sweep_range(variants, "strong", 1, 0, deals, spare=False)  # type: ignore[arg-type]
    assert spared.sums == played.sums and spared.squares == played.squares
    assert spared.came_into_play == played.came_into_play
    if vary == ["bonuses.mistigri.amount=5"]:  # foster-three has no brelan de Mistigri
        assert played.came_into_play[1] == 0 and played.sums[1] == played.sums[0]


def test_every_row_of_a_sweep_plays_the_base_s_strategy() -> None:
    base, changed = _variants(["bonuses.brelan.amount=5"])
    player = sweep_player("strong", base.rules)  # type: ignore[attr-defined]
    assert isinstance(player, StrongPolicy)
    kept = player._solution(changed.rules)  # type: ignore[attr-defined]
    assert kept is not None and kept is player._solution(base.rules)  # type: ignore[attr-defined]
    # outside a sweep, the changed rules have no strategy of their own
    from bouillotte.study.policies import get_policy

    alone = get_policy("strong")
    assert isinstance(alone, StrongPolicy)
    assert alone._solution(changed.rules) is None  # type: ignore[attr-defined]
