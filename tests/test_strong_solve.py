"""The CFR+ solver of the abstracted game and its NashConv, checked against OpenSpiel's.

Needs ``open_spiel`` (the ``strong`` extra, which brings numpy); skipped with that message
where it is absent."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed: pip install -e '.[strong]' to test the solver",
)

import bouillotte.strong  # noqa: E402, F401  (registers python_bouillotte)
from bouillotte.strong.abstraction import Abstraction  # noqa: E402
from bouillotte.strong.core import table_for  # noqa: E402
from bouillotte.strong.solve import build_tree, cfr_plus, nash_conv  # noqa: E402

TINY = Abstraction(cave=10, bets=("pot",), raises=1, straddles=False, deals=4, classes=2)
PARAMS = {"variant": "foster-three", "cave": 10, "bets": "pot", "raises": 1,
          "straddles": False, "deals": 4, "classes": 2}  # fmt: skip


def _tabular(game: object, tree: object, strategy: object) -> object:
    from open_spiel.python import policy

    table = policy.TabularPolicy(game)
    for info, key in enumerate(tree.keys):  # type: ignore[attr-defined]
        row = table.policy_for_key(key)
        row[:] = 0
        for k, action in enumerate(tree.actions[info]):  # type: ignore[attr-defined]
            row[action] = strategy[tree.first[info] + k]  # type: ignore[attr-defined,index]
    return table


def test_nash_conv_agrees_with_openspiel() -> None:
    """Our NashConv over the tree's arrays equals OpenSpiel's exploitability.nash_conv,
    which walks the game's states, for a strategy part way to equilibrium."""
    from open_spiel.python.algorithms import exploitability

    tree = build_tree(table_for("foster-three", TINY))
    strategy, _ = cfr_plus(tree, 20)
    ours, _ = nash_conv(tree, strategy)
    game = pyspiel.load_game("python_bouillotte", PARAMS)
    theirs = exploitability.nash_conv(game, _tabular(game, tree, strategy))
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert ours > 0.01  # twenty iterations are not an equilibrium


def test_cfr_plus_converges() -> None:
    """NashConv falls as CFR+ runs, and values sum to zero."""
    tree = build_tree(table_for("foster-three", TINY))
    early, _ = nash_conv(tree, cfr_plus(tree, 10)[0])
    late, values = nash_conv(tree, cfr_plus(tree, 400)[0])
    assert late < early / 4
    assert late < 0.05
    assert sum(values) == pytest.approx(0.0, abs=1e-9)
