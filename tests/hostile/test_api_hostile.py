"""The Python API against hostile values (issue 47): a notebook passes whatever it holds
(a bool, a text, a float, a huge number), and every run is bounded and parsed as strictly
as the command line's (``study/workers.check_run``, the one place a run's sizes are
checked): one :class:`UserError` naming the value, at once, never a ``TypeError``, a
``ZeroDivisionError``, a million worker processes or a run of a trillion deals."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bouillotte.api as api

CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("simulate-deals-true", lambda: api.simulate("foster", deals=True), "deals must be a whole"),
    ("simulate-deals-a-text", lambda: api.simulate("foster", deals="10"), "deals must be a whole"),  # type: ignore[arg-type]
    ("simulate-deals-a-float", lambda: api.simulate("foster", deals=10.5), "deals must be a whole"),  # type: ignore[arg-type]
    (
        "simulate-deals-a-trillion",
        lambda: api.simulate("foster", deals=10**12),
        "at most 100,000,000",
    ),
    (
        "simulate-jobs-0",
        lambda: api.simulate("foster", deals=10, jobs=0),
        "jobs must be at least 1",
    ),
    (
        "simulate-a-million-jobs",
        lambda: api.simulate("foster", deals=10, jobs=10**6),
        "jobs must be at most",
    ),
    ("simulate-seed-a-text", lambda: api.simulate("foster", deals=10, seed="x"), "seed must be a"),  # type: ignore[arg-type]
    (
        "sweep-deals-0",
        lambda: api.sweep("foster", vary=["table.direction"], deals=0),
        "deals must be at least 1",
    ),
    (
        "sweep-deals-a-trillion",
        lambda: api.sweep("foster", vary=["table.direction"], deals=10**12),
        "at most 100,000,000",
    ),
    (
        "sweep-jobs-0",
        lambda: api.sweep("foster", vary=["table.direction"], deals=5, jobs=0),
        "jobs must be at least 1",
    ),
    (
        "sweep-policies-a-word",
        lambda: api.sweep("foster", vary=["table.direction"], deals=5, policies="simple"),
        "policies must be a list, as ['simple']",
    ),
    (
        "sweep-vary-a-word",
        lambda: api.sweep("foster", vary="table.direction", deals=5),
        "vary must be a list, as ['table.direction']",
    ),
    ("system-none", lambda: api.system(None), "a system is an id or a System, not NoneType"),  # type: ignore[arg-type]
    ("systems-a-number", lambda: api.systems(5), "a folder is a path"),  # type: ignore[arg-type]
    ("run-under-a-number", lambda: api.run("foster-sight", 3), "a system is an id or a System"),  # type: ignore[arg-type]
    ("matrix-of-a-number", lambda: api.matrix(7), "systems are an id, a System or a list"),  # type: ignore[arg-type]
    # a scenario of the wrong kind: one UserError naming it, never pathlib's TypeError
    (
        "run-scenario-a-number",
        lambda: api.run(3, "foster"),  # type: ignore[arg-type]
        "a scenario is an id or a file, not int",
    ),
    (
        "run-scenario-none",
        lambda: api.run(None, "foster"),  # type: ignore[arg-type]
        "a scenario is an id or a file, not NoneType",
    ),
    (
        "run-scenario-bytes",
        lambda: api.run(b"foster-sight", "foster"),  # type: ignore[arg-type]
        "a scenario is an id or a file, not bytes",
    ),
    (
        "run-scenario-empty",
        lambda: api.run("", "foster"),
        "scenario: the empty text names no scenario",
    ),
    (
        "compare-scenario-none",
        lambda: api.compare(None),  # type: ignore[arg-type]
        "a scenario is an id or a file, not NoneType",
    ),
    ("systems-folder-empty", lambda: api.systems(""), "folder: the empty text names no folder"),
    (
        "run-scenarios-folder-empty",
        lambda: api.run("foster-sight", "foster", scenarios=""),
        "scenarios: the empty text names no folder",
    ),
    # a flag is True or False, as all_rules is; never a text or None read by its truth
    (
        "systems-bundled-a-word",
        lambda: api.systems(bundled="no"),  # type: ignore[arg-type]
        "bundled must be True or False, not 'no'",
    ),
    (
        "systems-bundled-none",
        lambda: api.systems(bundled=None),  # type: ignore[arg-type]
        "bundled must be True or False, not None",
    ),
    (
        "compare-explain-a-word",
        lambda: api.compare("foster-sight", ["foster", "pagat"], explain="no"),  # type: ignore[arg-type]
        "explain must be True or False, not 'no'",
    ),
    (
        "compare-explain-one",
        lambda: api.compare("foster-sight", ["foster", "pagat"], explain=1),  # type: ignore[arg-type]
        "explain must be True or False, not 1",
    ),
    # an empty list of systems is refused everywhere, as simulate refuses it (None: every one)
    ("simulate-no-system", lambda: api.simulate([], deals=3), "systems: name at least one system"),
    (
        "compare-no-system",
        lambda: api.compare("foster-sight", []),
        "systems: name at least one system",
    ),
    ("matrix-no-system", lambda: api.matrix([]), "systems: name at least one system"),
    ("odds-no-system", lambda: api.odds([]), "systems: name at least one system"),
    ("odds-no-system-a-tuple", lambda: api.odds(()), "systems: name at least one system"),
    (
        "matrix-of-an-empty-systems",
        lambda: api.matrix(api.systems(bundled=False)),
        "systems: name at least one system",
    ),
    # a System made by hand of what is no Variant (system("foster") makes one)
    (
        "system-of-a-text",
        lambda: api.System("foster"),  # type: ignore[arg-type]
        "a System holds a Variant: write system('foster')",
    ),
    ("systems-of-texts", lambda: api.Systems(["foster"]), "Systems holds System objects, not str"),  # type: ignore[list-item]
    # a Systems object indexed by what it does not hold
    (
        "systems-unknown-id",
        lambda: api.systems()["nope"],
        "unknown system 'nope'; known: foster, brelan-18th-century",
    ),
    ("systems-misspelt-id", lambda: api.systems()["fostr"], "(did you mean 'foster'?)"),
    (
        "systems-position-too-far",
        lambda: api.systems()[99],
        "no system at this position: there are 11 (0 to 10) (value: 99)",
    ),
    (
        "systems-position-a-float",
        lambda: api.systems()[1.0],  # type: ignore[call-overload]
        "a system is chosen by its position (a whole number) or its id, not float",
    ),
    ("systems-position-a-bool", lambda: api.systems()[True], "not bool"),
    (
        "systems-position-in-none",
        lambda: api.systems(bundled=False)[0],
        "no system at this position: there are none (value: 0)",
    ),
    # round seven: a None among texts, an OS error, a NUL in a path
    ("sweep-vary-none", lambda: api.sweep("foster", vary=[None], deals=3), "holds NoneType None"),  # type: ignore[list-item]
    (
        "sweep-policies-none",
        lambda: api.sweep("foster", vary=["betting.raises"], policies=[None], deals=3),  # type: ignore[list-item]
        "policies must be a list of texts; it holds NoneType None",
    ),
    (
        "run-a-scenario-name-too-long",
        lambda: api.run("x" * 1000, "foster"),
        "... (1,000 characters): the name is too long for this file system",
    ),
    ("run-a-nul-in-the-scenario", lambda: api.run("a\0b", "foster"), "holds no NUL character"),
    ("systems-a-nul-in-the-folder", lambda: api.systems("a\0b"), "holds no NUL character"),
    (
        "to-csv-a-nul-in-the-path",
        lambda: api.run("foster-sight", "foster").to_csv("x\0y.csv"),
        "holds no NUL character",
    ),
]


@pytest.mark.parametrize(("call", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_api_refuses_at_once(call: Callable[[], Any], says: str) -> None:
    started = time.monotonic()
    with pytest.raises(api.UserError) as raised:
        call()
    assert says in raised.value.describe()
    assert time.monotonic() - started < 5


def test_a_system_named_twice_counts_once() -> None:
    once = api.matrix("foster")
    assert len(api.matrix(["foster", "foster"])) == len(once) == 66
    assert api.compare("foster-sight", ["foster", "foster"]).systems == ["foster"]


def test_a_tidy_table_of_the_api_writes_csv_as_every_result(tmp_path: Any) -> None:
    table = api.matrix("foster")
    text = table.to_csv(tmp_path / "matrix.csv")
    assert text.startswith("rule,name,system,value")
    assert (tmp_path / "matrix.csv").read_text("utf-8") == text


def test_systems_lookup_errors_stay_key_and_index_errors() -> None:
    """``Systems`` is a sequence: code that caught ``KeyError``/``IndexError`` (and the
    sequence's own ``index``/``reversed``, which stop at ``IndexError``) still works."""
    every = api.systems()
    with pytest.raises(KeyError):
        every["nope"]
    with pytest.raises(IndexError):
        every[99]
    with pytest.raises(TypeError):
        every[1.0]  # type: ignore[call-overload]
    assert every.index(every["pagat"]) == every.ids.index("pagat")
    assert [s.id for s in reversed(every)] == every.ids[::-1]


# -- the System given is the system used ---------------------------------------------------

HOUSE = """\
title: House rules
source: foster
extends: foster
summary: x.
rules:
  point:
    suit_tie:
      value: eldest-first
      status: inferred
      reason: Ours.
"""
OTHER_HOUSE = "title: Another house\nsource: foster\nextends: pagat\nsummary: y.\n"


@pytest.fixture(scope="module")
def houses(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two folders, each with a system ``house``: foster's game with its own tie of the
    point (``mine``), and pagat's (``mine2``)."""
    mine, mine2 = tmp_path_factory.mktemp("mine"), tmp_path_factory.mktemp("mine2")
    (mine / "house.yaml").write_text(HOUSE, "utf-8")
    (mine2 / "house.yaml").write_text(OTHER_HOUSE, "utf-8")
    return mine, mine2


def test_simulate_plays_the_system_given_not_another_of_its_id(houses: tuple[Path, Path]) -> None:
    mine, mine2 = houses
    house = api.systems(mine)["house"]
    own = api.simulate("house", deals=200, folder=mine).data
    assert api.simulate("house", deals=200, folder=mine2).data != own  # the test means something
    assert api.simulate(house, deals=200, folder=mine2).data == own
    assert api.simulate(house, deals=200).data == own  # no folder: the object is enough
    assert api.simulate(["pagat", house], deals=200).data[1] == own[0]


def test_matrix_and_odds_of_the_system_given(houses: tuple[Path, Path]) -> None:
    mine, mine2 = houses
    house = api.systems(mine)["house"]
    rows = api.matrix("house", folder=mine).rows
    assert api.matrix("house", folder=mine2).rows != rows
    assert api.matrix(house, folder=mine2).rows == api.matrix(house).rows == rows
    counted = api.odds("house", folder=mine).data
    assert api.odds(house, folder=mine2).data == api.odds(house).data == counted


def test_compare_plays_the_system_given(houses: tuple[Path, Path]) -> None:
    mine, mine2 = houses
    house = api.systems(mine)["house"]
    own = api.compare("tie-dealer-owns-a-suit", ["foster", "house"], folder=mine).data
    other = api.compare("tie-dealer-owns-a-suit", ["foster", "house"], folder=mine2).data
    assert other != own
    assert api.compare("tie-dealer-owns-a-suit", ["foster", house], folder=mine2).data == own
    assert api.compare("tie-dealer-owns-a-suit", [house, "foster"]).systems == ["house", "foster"]


def test_sweep_and_effects_of_the_system_given(houses: tuple[Path, Path]) -> None:
    mine, mine2 = houses
    house = api.systems(mine)["house"]
    vary = ["point.suit_tie=dealer-first"]
    own = api.sweep("house", vary=vary, deals=50, folder=mine).data
    assert api.sweep(house, vary=vary, deals=50, folder=mine2).data == own
    towards = api.sweep("foster", towards="house", deals=50, folder=mine).data
    assert api.sweep("foster", towards=house, deals=50).data == towards
    with pytest.raises(api.UserError) as raised:
        api.effects(house, "foster", folder=mine2)
    assert "unknown variant" not in raised.value.describe()


def test_two_systems_of_one_id_are_refused_not_merged(houses: tuple[Path, Path]) -> None:
    mine, mine2 = houses
    house, other = api.systems(mine)["house"], api.systems(mine2)["house"]
    calls: list[Callable[[], Any]] = [
        lambda: api.simulate([house, other], deals=3),
        lambda: api.matrix([house, other]),
        lambda: api.simulate([house, "house"], deals=3, folder=mine2),
        lambda: api.compare("tie-dealer-owns-a-suit", ["foster", house, "house"], folder=mine2),
    ]
    for call in calls:
        with pytest.raises(api.UserError) as raised:
            call()
        assert "two different systems have the id 'house'" in raised.value.describe()
    # the same system twice (as an object and by the id that names it) counts once
    assert len(api.matrix([house, "house"], folder=mine)) == len(api.matrix(house))


# -- a comparison asked about a system it did not play -------------------------------------


def test_explanation_of_a_system_not_compared_is_refused() -> None:
    c = api.compare("foster-sight", ["foster", "pagat"])
    assert c.explanation("pagat") == [["betting.all_in_may_open_or_raise"]]
    assert c.explanation("foster") == []  # the first ends as itself
    assert c.explanation(api.system("pagat")) == [["betting.all_in_may_open_or_raise"]]
    for asked, says in [
        (
            "pagta",
            "'pagta' is not among the systems compared: foster, pagat (did you mean 'pagat'?)",
        ),
        ("britannica-1911", "'britannica-1911' is not among the systems compared: foster, pagat"),
        (3, "a system is an id or a System, not int; the systems compared: foster, pagat"),
    ]:
        with pytest.raises(api.UserError) as raised:
            c.explanation(asked)  # type: ignore[arg-type]
        assert says in raised.value.describe()


# -- the strong player with no stored strategy -------------------------------------------

UNSOLVED = "britannica-1911"
"""A bundled system with no strong strategy stored for its rules."""


def test_simulate_strong_without_a_stored_strategy_warns() -> None:
    with pytest.warns(UserWarning, match=f"no strong strategy is stored for {UNSOLVED}'s") as seen:
        api.simulate(UNSOLVED, deals=3, policy="strong")
    assert seen[0].filename == __file__  # the caller's line, not the library's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api.simulate("foster", deals=3, policy="strong")  # a strategy is stored: no warning
        api.simulate(UNSOLVED, deals=3, policy="advised")


def test_sweep_strong_without_a_stored_strategy_warns() -> None:
    with pytest.warns(UserWarning, match=f"no strong strategy is stored for {UNSOLVED}'s") as seen:
        api.sweep(UNSOLVED, vary=["table.direction"], deals=3, policies=["simple", "strong"])
    assert seen[0].filename == __file__


# -- CSV to a path of the wrong kind ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "says"),
    [
        (3, "path: a CSV file is a path (a str or a Path), not int"),
        (False, "path: a CSV file is a path (a str or a Path), not bool"),
        (b"x.csv", "path: a CSV file is a path (a str or a Path), not bytes"),
        ("", "path: the empty text names no file"),
    ],
    ids=["a-number", "false", "bytes", "empty"],
)
def test_to_csv_refuses_a_path_of_the_wrong_kind(path: Any, says: str) -> None:
    for result in (api.matrix("foster"), api.odds("foster")):
        with pytest.raises(api.UserError) as raised:
            result.to_csv(path)
        assert says in raised.value.describe()


# -- round five: seeds past int64, ids of a str subclass, pairs never stored ----------------


@pytest.mark.parametrize("seed", [99999999999999999999, -(2**63) - 1, 2**63])
def test_a_seed_past_int64_stays_whole_in_the_frame(seed: int) -> None:
    """``check_seed`` takes any seed of at most 20 digits; ``to_frame()`` cast the column to
    pandas' ``Int64`` and raised pandas' raw ``OverflowError`` for one past 2**63."""
    pytest.importorskip("pandas")
    frame = api.simulate("foster", deals=2, seed=seed).to_frame()
    assert set(frame["seed"]) == {seed}
    assert str(frame["deals"].dtype) == "Int64"  # a column that fits keeps its type


def test_an_id_of_a_str_subclass_is_its_text() -> None:
    """An id given as a ``(str, Enum)`` member (or any ``str`` subclass) is its text: the
    member's ``str()`` ("Sys.FOSTER") labelled every table, a subclass's own ``__str__``
    relabelled foster as pagat, and ``effects()`` found "no stored results"."""
    from enum import Enum

    class Sys(str, Enum):  # noqa: UP042  (not StrEnum: its str() is "Sys.FOSTER")
        FOSTER = "foster"
        PAGAT = "pagat"

    class Liar(str):
        def __str__(self) -> str:
            return "pagat"

    found = api.system(Sys.FOSTER)
    assert type(found.id) is str and repr(found).startswith("<System foster: ")
    assert repr(api.system(Liar("foster"))).startswith("<System foster: Foster")
    simulated = api.simulate(Sys.PAGAT, deals=20)
    assert "  pagat: decided by" in repr(simulated)
    assert {r["variant"] for r in simulated.table().records()} == {"pagat"}
    assert api.matrix(Sys.FOSTER).to_csv().splitlines()[1].split(",")[2] == "foster"
    assert {r["variant"] for r in api.odds([Sys.FOSTER]).table().records()} == {"foster"}
    assert api.run("foster-sight", Sys.PAGAT).data["variant"] == "pagat"
    assert api.compare("foster-sight", [Sys.FOSTER, Sys.PAGAT]).systems == ["foster", "pagat"]
    assert len(api.effects(Sys.FOSTER, Sys.PAGAT)) == len(api.effects("foster", "pagat"))
    assert api.systems()[Sys.PAGAT].id == "pagat"


@pytest.mark.parametrize(
    ("pair", "says"),
    [
        (("pagat", "foster"), "no such pair 'pagat__foster' (stored as foster, pagat); the pairs"),
        (("foster", "foster"), "no such pair 'foster__foster'"),
        (("foster", "foster-five"), "no such pair 'foster__foster-five'"),
    ],
    ids=["reversed", "itself", "another-pack"],
)
def test_effects_of_a_pair_never_stored_names_the_pairs(pair: tuple[str, str], says: str) -> None:
    """The site stores some pairs only: ``effects()`` of another said "`bouillotte effects
    --write` regenerates them", which never makes it; the command line's message instead."""
    with pytest.raises(api.UserError) as raised:
        api.effects(*pair)
    message = raised.value.describe()
    assert says in message and "; the pairs are cardrulesplus__pagat, " in message
    assert "--write" not in message


def test_a_whole_number_is_checked_by_its_value() -> None:
    """An ``int`` subclass whose comparisons always say no passed every bound (10**12
    deals ran until stopped); numpy's integers, what a DataFrame's cell gives, were refused
    as no whole number."""
    numpy = pytest.importorskip("numpy")

    class Evil(int):
        def __lt__(self, other: object) -> bool:
            return False

        def __gt__(self, other: object) -> bool:
            return False

    with pytest.raises(api.UserError, match="deals must be at most 100,000,000"):
        api.simulate("foster", deals=Evil(10**12))
    assert "3 deals each" in str(api.simulate("foster", deals=numpy.int64(3)))


def _spoil(value: Any) -> None:
    """Change every dict and list within ``value`` in place, as a notebook's cleaning step
    might."""
    if isinstance(value, dict):
        for key in list(value):
            _spoil(value[key])
            if not isinstance(value[key], dict | list):
                value[key] = 99
        value["spoiled"] = True
    elif isinstance(value, list):
        for item in value:
            _spoil(item)
        value.append("spoiled")


@pytest.mark.parametrize(
    "made",
    [
        lambda: api.run("foster-sight", "foster"),
        lambda: api.compare("foster-sight", ["foster", "pagat"]),
        lambda: api.simulate(["foster", "pagat"], deals=20),
        lambda: api.sweep("foster", towards="pagat", deals=20),
        lambda: api.odds(["foster", "pagat"]),
    ],
    ids=["run", "compare", "simulate", "sweep", "odds"],
)
def test_changing_data_changes_nothing_of_the_result(made: Callable[[], Any]) -> None:
    """``.data`` was the result's own JSON: a notebook that changed it in place changed the
    result's summary, table and CSV, and the next ``.data``."""
    result = made()
    summary, csv, data = repr(result), result.to_csv(), result.data
    _spoil(result.data)
    assert "spoiled" not in str(data)  # the JSON read before is a copy of its own
    assert (repr(result), result.to_csv(), result.data) == (summary, csv, data)
