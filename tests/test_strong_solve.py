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


def test_the_solve_command_prints_nash_conv() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bouillotte", "strong", "solve", "-v", "foster-three",
         "--cave", "10", "--deals", "4", "--classes", "2", "--raises", "1",
         "--no-straddles", "--iterations", "400"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figure = float(done.stdout.split("NashConv ")[1].split()[0])
    assert 0 <= figure < 0.05
    assert "400 CFR+ iterations" in done.stdout
    assert "4 deals sampled (seed 1)" in done.stderr


def test_a_bad_bet_size_is_one_line_and_exit_2() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bouillotte", "strong", "solve", "--bets", "third"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: bets: 'third' is not a bet size; the sizes are min, half, pot, max (joined by "
        "'+', as pot+max), or 'all' for every legal total"
    ]
