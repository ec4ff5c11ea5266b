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
from bouillotte.strong.abstraction import Abstraction, AbstractionError, parse_bets  # noqa: E402
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


def test_the_solve_command_shows_its_iterations_as_it_goes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """CFR+ on a large tree runs for minutes (35 for foster's caves of 100): the command
    says how far it is, a line every ten seconds off a terminal (here every iteration),
    the iterations counted by the solver itself."""
    from bouillotte.cli import progress
    from bouillotte.cli.app import app

    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.0)
    with pytest.raises(SystemExit) as done:
        app(
            ["strong", "solve", "-v", "foster-three", "--cave", "10", "--deals", "4",
             "--classes", "2", "--raises", "1", "--no-straddles", "--iterations", "3"]
        )  # fmt: skip
    assert done.value.code in (0, None)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("CFR+")]
    assert [line.split(" (")[0] for line in lines] == [
        "CFR+: 1/3 iterations",
        "CFR+: 2/3 iterations",
        "CFR+: 3/3 iterations",
    ]
    assert "iterations/s" in lines[-1] and "ETA 0:00" in lines[-1]


def test_the_tree_is_bounded_by_max_states_unless_allowed_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk stops once the tree passes its bound (``MAX_STATES`` unless the caller
    allows another, as ``strong solve --max-states`` does), naming the option."""
    from bouillotte.strong import solve

    table = table_for("foster-three", TINY)
    size = len(build_tree(table).actor)
    with pytest.raises(AbstractionError, match=f"more than {size - 1:,} states: .*--max-states"):
        build_tree(table, size - 1)
    assert len(build_tree(table, size).actor) == size
    with pytest.raises(AbstractionError, match="10,000,001 is not between 1 and 10,000,000"):
        build_tree(table, 10_000_001)
    monkeypatch.setattr(solve, "MAX_STATES", size - 1)
    with pytest.raises(AbstractionError, match=f"more than {size - 1:,} states"):
        build_tree(table)


@pytest.mark.parametrize(
    ("bets", "what"),
    [
        ("", "a size is empty"),
        ("pot+", "a size is empty in 'pot+'"),
        ("+max", "a size is empty in '+max'"),
        ("pot++max", "a size is empty in 'pot++max'"),
        (" pot", "' pot' is not a bet size"),
        ("pot+MAX", "'MAX' is not a bet size in 'pot+MAX'"),
    ],
)
def test_a_bet_menu_is_parsed_strictly(bets: str, what: str) -> None:
    """Before, '' was read as every size (a game far too large, solved without a word) and
    an empty item or a space was dropped (issue 47: every value a user types parsed
    strictly)."""
    with pytest.raises(AbstractionError) as refused:
        parse_bets(bets)
    assert str(refused.value).startswith(f"bets: {what}; the sizes are min, half, pot, max")
    assert parse_bets("all") == () and parse_bets("max+pot") == ("max", "pot")


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


def _as_stored(tree: object, strategy: object) -> dict[str, list[list[float]]]:
    """A strategy per slot as ``payload`` stores it: each information state's rows."""
    return {
        key: [[action, float(strategy[tree.first[info] + k])]  # type: ignore[attr-defined,index]
              for k, action in enumerate(tree.actions[info])]  # type: ignore[attr-defined]
        for info, key in enumerate(tree.keys)  # type: ignore[attr-defined]
    }  # fmt: skip


def test_one_strong_seat_agrees_with_openspiel() -> None:
    """The stored strategy at one seat and another behaviour (always the last legal action)
    at the others: each seat's value over the arrays equals OpenSpiel's expected game score,
    which walks the game's states."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import expected_game_score

    from bouillotte.strong.solve import behaviour, seat_values, stored_weights

    table = table_for("foster-three", TINY)
    tree = build_tree(table)
    strategy, _ = cfr_plus(tree, 20)
    last = behaviour(table, tree, lambda node: {node.legal()[-1]: 1.0})
    ours = seat_values(tree, stored_weights(tree, _as_stored(tree, strategy)), last)
    game = pyspiel.load_game("python_bouillotte", PARAMS)
    solved = _tabular(game, tree, strategy)
    others = policy.TabularPolicy(game)
    for info, key in enumerate(tree.keys):
        row = others.policy_for_key(key)
        row[:] = 0
        row[tree.actions[info][-1]] = 1.0
    for seat in range(3):
        chosen = [solved if player == seat else others for player in range(3)]
        theirs = expected_game_score.policy_value(game.new_initial_state(), chosen)
        assert ours[seat] == pytest.approx(theirs[seat], abs=1e-9)
    # not the strategy's own values: the others' behaviour counts
    _, own = nash_conv(tree, strategy)
    assert max(abs(a - b) for a, b in zip(ours, own, strict=True)) > 0.1


def test_strong_exploit_strong_seat(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """``strong exploit --strong-seat`` plays the stored strategy the strong player would
    play (here a small one, the only one stored) at each seat against the invented player,
    on that strategy's own game, and says which file and game."""
    from pathlib import Path

    from typer.testing import CliRunner

    from bouillotte.cli.app import app
    from bouillotte.play.stream import POLICY, Stream
    from bouillotte.strong import store
    from bouillotte.strong.solve import (
        Solution,
        behaviour,
        payload,
        seat_values,
        stored_weights,
    )
    from bouillotte.study.player_view import view_of
    from bouillotte.study.policies import get_policy

    assert isinstance(tmp_path, Path)
    monkeypatch.setattr(store, "STORE", tmp_path)
    runner = CliRunner()
    done = runner.invoke(app, ["strong", "exploit", "--strong-seat", "--policy", "cautious"])
    assert done.exit_code == 2
    assert "no strong strategy is stored for foster-three's rules" in done.output

    table = table_for("foster-three", TINY)
    tree = build_tree(table)
    strategy, cpu = cfr_plus(tree, 50)
    conv, values = nash_conv(tree, strategy)
    path = store.address(table.variant, TINY, 50)
    store.write(path, payload(table, tree, Solution(strategy, 50, cpu, conv, values)))

    done = runner.invoke(app, ["strong", "exploit", "--strong-seat", "--policy", "cautious"])
    assert done.exit_code == 0, done.output
    assert f"strong ({path.name}: caves of 10;" in done.output
    import re

    found = re.search(r"at A (\S+), B (\S+), C (\S+) \(the last seat deals", done.output)
    assert found is not None, done.output
    seats = [float(x) for x in found.groups()]
    # the same figures as the functions give, the invented player drawn as the command does
    cautious, rng = get_policy("cautious"), Stream(1, POLICY)
    from bouillotte.cli.commands.strong import _abstract_id

    def choose(node: object) -> dict[int, float]:
        found = _abstract_id(node, cautious.choose(view_of(node.deal), rng))  # type: ignore[attr-defined]
        return {node.legal()[0] if found is None else found: 1.0}  # type: ignore[attr-defined]

    expected = seat_values(
        tree, stored_weights(tree, _as_stored(tree, strategy)), behaviour(table, tree, choose)
    )
    assert seats == pytest.approx(expected, abs=6e-4)  # printed to 3 places, rows rounded
    mean = float(done.output.split("cautious on foster-three's abstracted game: ")[1].split()[0])
    assert mean == pytest.approx(sum(seats) / 3, abs=2e-3)

    done = runner.invoke(app, ["strong", "exploit", "--strong-seat", "--deals", "5"])
    assert done.exit_code == 2
    assert "--deals: --strong-seat plays the stored strategy" in done.output

    # --seed: the strategy on other sampled deals (its bands kept); its own seed gives
    # its own figures
    def printed(*more: str) -> str:
        args = ["strong", "exploit", "--strong-seat", "--policy", "cautious", *more]
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
        return done.output

    assert printed("--seed", "1") == printed()
    other = printed("--seed", "2")
    assert "4 deals sampled (seed 2)" in other
    assert other.split(" at one seat against ")[1] != printed().split(" at one seat against ")[1]
    done = runner.invoke(app, ["strong", "exploit", "--seed", "2"])
    assert done.exit_code == 2
    assert "--seed: only with --strong-seat" in done.output
    done = runner.invoke(app, ["strong", "exploit", "--strong-seat", "--csv", "-"])
    assert done.exit_code == 2
    assert (
        "--csv and --json: the NashConv run's figures only, not with --strong-seat" in done.output
    )


def test_the_walk_stops_at_a_share_of_the_machine_s_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the bound on states, the walk stops once its process has taken
    ``MEMORY_SHARE`` of the machine's memory (a state costs 3.5 KB under a draw: 10,000,000
    of them would be 35 GB), with one line naming what it took."""
    from bouillotte.strong import solve

    monkeypatch.setattr(solve, "MEMORY_SHARE", 1e-6)
    with pytest.raises(AbstractionError, match=r"has taken [\d.]+ GiB of memory at .* states"):
        build_tree(table_for("foster-three", TINY))
