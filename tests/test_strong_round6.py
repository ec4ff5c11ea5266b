"""The ``strong`` layer's defects of round six, each shown failing before its fix:

- a draw the stock cannot supply (foster-three's 16-card pack with ``table.draw`` switched
  on): the game offered a discard the engine then refused, stopping ``strong solve`` and
  ``strong bands`` with the engine's advice to "give the scenario a longer 'stock:'";
  the game now offers the discards the engine takes;
- ``--csv`` naming the command's own input (the profile) was refused only after the
  whole solve, the deals played or measured;
- a damaged file in the strategy store was a traceback (``'list' object has no attribute
  'get'``, ``JSONDecodeError``) in ``simulate --policy strong``, ``strong table`` and
  ``strong solve --write``;
- plurals: ``1 deals sampled``, ``one of 1 bands of point``, ``1 CFR+ iterations``.

Every solve is tiny (one or two sampled deals, one iteration, caves of 10).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")

from .hostile import test_catalogue as catalogue
from .hostile.test_catalogue import Case, Cleanup, _patched

F3DRAW = (
    "title: Foster for three, with a draw\nsource: foster\nextends: foster-three\n"
    "summary: x.\nrules:\n  table:\n    draw: discard-and-buy\n"
)
TINY = ("--deals", "1", "--iterations", "1", "--cave", "10", "--raises", "1", "--no-straddles")
"""The smallest game of a draw: 16,485 states under foster-three's pack with a draw."""


def _f3draw(tmp: Path) -> Cleanup:
    (tmp / "f3draw.yaml").write_text(F3DRAW, encoding="utf-8")
    return None


def _my_three(tmp: Path) -> Cleanup:
    """A user's copy of foster-three (as ``variants export foster-three --as my3`` makes)."""
    (tmp / "up").mkdir()
    (tmp / "up" / "my3.yaml").write_text(
        "title: My three\nsource: foster\nextends: foster-three\nsummary: mine.\n", "utf-8"
    )
    return None


def _store_holding(text: str) -> Callable[[Path], Path]:
    """A store of strategies (a temporary folder) holding one file of ``text``."""

    def folder(tmp: Path) -> Path:
        store = tmp / "strategies"
        store.mkdir()
        (store / "foster-three__0000000000000000.json").write_text(text, "utf-8")
        return store

    return folder


def _damaged(text: str) -> Callable[[Path], Cleanup]:
    return _patched("bouillotte.strong.store", "STORE", _store_holding(text))


DAMAGED = "foster-three__0000000000000000.json: is not a stored strategy ("
TRUNCATED = '{"variant": "foster-three", "rul'

CASES = [
    # 1: "error: C would buy 3 cards, but only 2 are left to buy (give the scenario a
    # longer 'stock:' or a 'deck:') ... Legal now: discard 0-3 cards."
    Case(
        "strong-solve-a-draw-the-stock-cannot-supply",
        ("strong", "solve", "-v", "{tmp}/f3draw.yaml", *TINY, "--classes", "2"),
        "NashConv",
        exit=0,
        setup=_f3draw,
        never=("scenario", "error:"),
    ),
    Case(
        # stopped at [2/2]: the rest of the rules were never reported
        "strong-bands-a-draw-the-stock-cannot-supply",
        (
            "strong",
            "bands",
            "-v",
            "foster",
            "-v",
            "brelan-pierer",
            "--rule",
            "table.draw",
            "--rule",
            "table.packs",
            *TINY,
            "--classes",
            "2",
            "--seeds",
            "1",
        ),
        "table.packs: not a valid system with brelan-pierer's value: table.players: table.packs "
        "has no pack for 3 players (it has packs for [4])\n",
        exit=0,
        never=("scenario", "error:", "pydantic"),
    ),
    # 2: the whole solve (the deals played, measured) before "is an input of this command"
    Case(
        "strong-solve-csv-its-own-profile",
        ("strong", "solve", "-v", "{tmp}/up/my3.yaml", *TINY, "--csv", "{tmp}/up/my3.yaml"),
        "my3.yaml: is an input of this command",
        setup=_my_three,
        untouched=("up",),
        never=("tree:", "NashConv"),
        within=20,
    ),
    Case(
        "strong-table-csv-its-own-profile",
        (
            "strong",
            "table",
            "-v",
            "{tmp}/up/my3.yaml",
            "--deals",
            "20",
            "--csv",
            "{tmp}/up/my3.yaml",
        ),
        "my3.yaml: is an input of this command",
        setup=_my_three,
        untouched=("up",),
        never=("strong at one seat",),
        within=20,
    ),
    Case(
        "strong-measure-csv-its-own-profile",
        (
            "strong",
            "measure",
            "-v",
            "{tmp}/up/my3.yaml",
            "--deals",
            "3",
            "--csv",
            "{tmp}/up/my3.yaml",
        ),
        "my3.yaml: is an input of this command",
        setup=_my_three,
        untouched=("up",),
        never=("end otherwise",),
        within=20,
    ),
    Case(
        "strong-exploit-csv-its-own-profile",
        (
            "strong",
            "exploit",
            "-v",
            "{tmp}/up/my3.yaml",
            "--deals",
            "2",
            "--csv",
            "{tmp}/up/my3.yaml",
        ),
        "my3.yaml: is an input of this command",
        setup=_my_three,
        untouched=("up",),
        never=("NashConv",),
        within=20,
    ),
    # 3: a traceback: AttributeError 'list' object has no attribute 'get', JSONDecodeError
    Case(
        "simulate-strong-with-a-list-in-the-store",
        ("simulate", "-v", "foster-three", "--policy", "strong", "--deals", "2"),
        DAMAGED + "it holds a JSON list, not an object): remove it, or store one again with "
        "bouillotte strong solve -v foster-three --write",
        setup=_damaged("[1, 2]"),
    ),
    Case(
        "simulate-strong-with-a-truncated-file-in-the-store",
        ("simulate", "-v", "foster-three", "--policy", "strong", "--deals", "2"),
        DAMAGED + "not JSON: ",
        setup=_damaged(TRUNCATED),
    ),
    Case(
        "strong-table-with-a-list-in-the-store",
        ("strong", "table", "--deals", "2"),
        DAMAGED + "it holds a JSON list",
        setup=_damaged("[1, 2]"),
    ),
    Case(
        "strong-table-with-a-truncated-file-in-the-store",
        ("strong", "table", "--deals", "2"),
        DAMAGED + "not JSON: ",
        setup=_damaged(TRUNCATED),
    ),
    Case(
        # refused before the solve, not after it
        "strong-solve-write-with-a-list-in-the-store",
        ("strong", "solve", "--deals", "2", "--iterations", "1", "--cave", "10", "--write"),
        DAMAGED + "it holds a JSON list",
        setup=_damaged("[1, 2]"),
        never=("tree:", "NashConv"),
        one_line=False,  # the abstraction's line comes first
    ),
    Case(
        "strong-solve-write-with-a-truncated-file-in-the-store",
        ("strong", "solve", "--deals", "2", "--iterations", "1", "--cave", "10", "--write"),
        DAMAGED + "not JSON: ",
        setup=_damaged(TRUNCATED),
        never=("tree:", "NashConv"),
        one_line=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_strong_round_six(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_a_draw_offers_only_the_discards_the_stock_can_supply() -> None:
    """Foster-three's pack with a draw leaves seven cards to buy: after A and B have thrown
    three each, C may throw one at most. Every discard offered is one the engine takes
    (its own check), so each deal can be played to its end throwing the most offered."""
    from bouillotte.play.phases import Phase
    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.core import WORDS, GameTable, Node, load_variant

    variant = load_variant("foster-three").with_values({"table.draw": "discard-and-buy"})
    ab = Abstraction(cave=10, bets=("pot",), raises=1, straddles=False, deals=2, classes=2)
    table = GameTable(variant, ab)
    offered: dict[str, list[int]] = {}
    for sampled in range(ab.deals):
        node = Node(table)
        node.apply(sampled)
        while not node.is_terminal():
            deal, legal = node.deal, node.legal()
            assert deal is not None
            if deal.phase is Phase.DRAW:
                sizes = {a: bin(a - len(WORDS)).count("1") for a in legal if a >= len(WORDS)}
                offered[str(deal.to_act)] = sorted(set(sizes.values()))
                node.apply(max(sizes, key=lambda a: sizes[a]))  # the most cards thrown
                continue
            # the first to speak bets, the others call: all three draw
            bets = [a for a in legal if a >= table.bet_base]
            calls = [a for a in legal if a < len(WORDS) and WORDS[a] in ("call", "decline")]
            node.apply((bets or calls or legal)[0])
        assert sum(node.returns()) == pytest.approx(0)
        assert offered == {"A": [0, 1, 2, 3], "B": [0, 1, 2, 3], "C": [0, 1]}


def test_the_game_offers_what_the_engine_offers_without_a_draw() -> None:
    """Where the stock runs short nowhere (brelan-pierer's 32 cards for four), every
    discard of the engine's range is offered: 8 sets of places of a hand of three."""
    from bouillotte.play.phases import Phase
    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.core import WORDS, GameTable, Node, load_variant

    table = GameTable(
        load_variant("brelan-pierer"),
        Abstraction(cave=10, bets=("pot",), raises=1, straddles=False, deals=1, classes=2),
    )
    node = Node(table)
    node.apply(0)
    while not node.is_terminal():
        deal, legal = node.deal, node.legal()
        assert deal is not None
        if deal.phase is Phase.DRAW:
            assert len([a for a in legal if len(WORDS) <= a < table.bet_base]) == 8
            node.apply(len(WORDS) + 7)
            continue
        bets = [a for a in legal if a >= table.bet_base]
        calls = [a for a in legal if a < len(WORDS) and WORDS[a] in ("call", "decline")]
        node.apply((bets or calls or legal)[0])


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: {k: v for k, v in d.items() if k != "strategy"}, "no dict 'strategy'"),
        (lambda d: d | {"abstraction": [1]}, "no dict 'abstraction'"),
        (lambda d: d | {"abstraction": d["abstraction"] | {"cave": "20"}}, "abstraction.cave"),
        (lambda d: d | {"abstraction": d["abstraction"] | {"cave": -1}}, "is negative"),
        (lambda d: d | {"abstraction": d["abstraction"] | {"bets": ["most"]}}, "abstraction.bets"),
        (lambda d: d | {"bands": [17, "x"]}, "'bands' is not a list of whole numbers"),
        (lambda d: d | {"strategy": {"A|B|": [[1]]}}, "the strategy's row 'A|B|'"),
        (lambda d: d | {"strategy": {"A|B|": [[1, "x"]]}}, "the strategy's row 'A|B|'"),
        (lambda d: d | {"variant": 3}, "no str 'variant'"),
        (lambda d: "[" * 100_000, "nested too deep"),
        (lambda d: "", "not JSON: Expecting value, line 1 column 1"),
    ],
    ids=[
        "no-strategy",
        "abstraction-a-list",
        "cave-a-string",
        "cave-negative",
        "bets-unknown",
        "bands-a-word",
        "row-short",
        "weight-a-word",
        "variant-a-number",
        "nested",
        "empty",
    ],
)
def test_a_damaged_stored_strategy_is_one_line(
    change: Callable[[dict[str, object]], object],
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bouillotte.rules.errors import InputError
    from bouillotte.strong import store

    current = {k: v for k, v in store.stored()[0].items() if k != "file"}
    current["strategy"] = dict(list(current["strategy"].items())[:3])  # small: no need of all
    made = change(current)
    text = made if isinstance(made, str) else json.dumps(made)
    (tmp_path / "foster-three__0000000000000000.json").write_text(text, "utf-8")
    monkeypatch.setattr(store, "STORE", tmp_path)
    with pytest.raises(InputError) as raised:
        store.stored()
    line = str(raised.value)
    assert "foster-three__0000000000000000.json: is not a stored strategy (" in line
    assert says in line and "\n" not in line
    assert line.endswith("strong solve -v foster-three --write (docs/strong-play.md)")


def test_a_sound_store_is_read_as_before() -> None:
    """The check refuses nothing the solver writes: every stored strategy passes it."""
    from bouillotte.strong import store

    assert [d["file"] for d in store.stored(every=True)] == sorted(
        p.name for p in store.STORE.glob("*.json")
    )


def test_one_deal_one_band_one_raise_in_words() -> None:
    """``1 deals sampled``, ``one of 1 bands of point``, ``at most 1 bets and raises``."""
    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.bands import label
    from bouillotte.strong.core import GameTable, load_variant

    one = Abstraction(cave=10, bets=("pot",), raises=1, deals=1, classes=1)
    assert one.describe() == (
        "caves of 10; bets of pot and all in; at most 1 bet or raise; straddles offered; "
        "1 deal sampled (seed 1); hands known as a brelan or the one band of point"
    )
    two = Abstraction(cave=10, bets=("pot",), raises=2, deals=2, classes=2)
    assert "at most 2 bets and raises" in two.describe()
    assert "2 deals sampled (seed 1); hands known as a brelan or one of 2 bands of point" in (
        two.describe()
    )
    table = GameTable(load_variant("foster-three"), one)
    said = label(table, (1,), 1)
    assert "1 sampled deal per solution (seed 1)" in said
    assert "the one band of point, 1 CFR+ iteration, one deal" in said
    assert "at most 1 bet or raise," in said
    many = label(GameTable(load_variant("foster-three"), two), (1, 2), 400)
    assert "2 sampled deals per solution (seeds 1, 2)" in many
    assert "one of 2 bands of point, 400 CFR+ iterations" in many


def test_one_deal_and_one_iteration_as_strong_solve_says_them() -> None:
    from typer.testing import CliRunner

    from bouillotte.cli.app import app

    argv = [
        "strong",
        "solve",
        "--deals",
        "1",
        "--iterations",
        "1",
        "--classes",
        "1",
        "--cave",
        "10",
    ]
    done = CliRunner().invoke(app, argv)
    assert done.exit_code == 0, done.stderr
    assert "1 deal sampled (seed 1); hands known as a brelan or the one band of point" in (
        done.stderr
    )
    assert "after 1 CFR+ iteration (" in done.stdout


@pytest.fixture()
def case_dir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-strong6-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
