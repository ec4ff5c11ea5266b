"""The hostile catalogue, round five (issue 47): ``strong`` and its stores.

- The stored strategies are the bundled systems' own: ``strong solve -v MY.yaml --write``
  stored a user's profile's strategy in the package, where the strong player of a bundled
  system with the same rules played it, or failed ("unknown variant"); a stored file of
  a profile this build does not bundle is now skipped, and a ``--write`` that changes what
  the strong player plays says so.
- The site's bands are those of the documented abstraction: a tiny ``strong bands --write``
  replaced them (the first file by name won); ``--write`` of other options is refused.
- A rule the solved system (``--on``) already holds at the second system's value is said
  so, never "does not act"; ``--seeds`` is parsed as every whole number (no space).
- A cave the forced bets take whole (``--cave 5`` under a blind of 5) is refused, not
  "solved" at NashConv 0; a variant path OpenSpiel's game string cannot carry is refused.
- ``SOURCE_DATE_EPOCH`` of thousands of digits is read, never a traceback from ``int``.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix. Every solve is tiny (``--deals 2 --iterations 2 --cave 10``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup, _patched

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = ROOT / "engine" / "bouillotte" / "strong" / "strategies"
SMALL = ("--deals", "2", "--iterations", "2")
TINY = (*SMALL, "--cave", "10")
BANDS = ("strong", "bands", "-v", "foster", "-v", "pagat", *TINY, "--seeds", "1")


def _tracked_strategies() -> list[Path]:
    """The strategies the repository holds (not a file a run left behind)."""
    listed = subprocess.run(
        ["git", "ls-files", "engine/bouillotte/strong/strategies"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    return [ROOT / name for name in listed] or sorted(STRATEGIES.glob("*.json"))


def _store_copy(tmp: Path) -> Path:
    """A copy of the store of strategies, which a case may write to."""
    folder = tmp / "strategies"
    folder.mkdir()
    for path in _tracked_strategies():
        shutil.copy(path, folder / path.name)
    return folder


def _both(*setups: Callable[[Path], Cleanup]) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        undo = [made for made in (one(tmp) for one in setups) if made is not None]

        def cleanup() -> None:
            for one in reversed(undo):
                one()

        return cleanup

    return setup


def _store_without_the_profile_s_caves(tmp: Path) -> Path:
    """The store (a copy) without foster-three's strategy at its profile's caves (100):
    the strong player plays the one at caves of 20."""
    folder = _store_copy(tmp)
    for path in folder.glob("foster-three__*.json"):
        if json.loads(path.read_text("utf-8"))["abstraction"]["cave"] == 100:
            path.unlink()
    return folder


def _copy_of_foster_three(tmp: Path) -> Cleanup:
    """A user's profile with foster-three's rules, named to sort before it."""
    (tmp / "cp").mkdir()
    (tmp / "cp" / "a-copy.yaml").write_text(
        "title: A copy of Foster\nsource: foster\nextends: foster-three\nsummary: same rules.\n",
        encoding="utf-8",
    )
    return None


def _a_stranger_in_the_store(tmp: Path) -> Cleanup:
    """The store (a copy) holds a strategy of foster-three's rules stored under a user's
    id (as ``strong solve -v cp/a-copy.yaml --write`` left it), sorting first."""
    from bouillotte.strong import store

    undo = _patched("bouillotte.strong.store", "STORE", _store_copy)(tmp)
    (played,) = [
        d
        for d in store.stored(every=True)
        if d["variant"] == "foster-three" and d["abstraction"]["cave"] == 100
    ]
    stranger = {k: v for k, v in played.items() if k != "file"} | {"variant": "a-copy"}
    (store.STORE / "a-copy__0000000000000000.json").write_text(json.dumps(stranger), "utf-8")
    return undo


def _store_on_a_full_disk(tmp: Path) -> Cleanup:
    """The store of strategies on a full disk (``mnt``), empty."""
    unmount = catalogue._full_disk(tmp)
    (tmp / "mnt" / "strategies").mkdir()
    undo = _patched("bouillotte.strong.store", "STORE", lambda t: t / "mnt" / "strategies")(tmp)

    def cleanup() -> None:
        if undo is not None:
            undo()
        if unmount is not None:
            unmount()

    return cleanup


CASES = [
    Case(
        # stored into the package: the strong player of foster-three then failed on it
        "strong-solve-write-of-a-user-s-profile",
        ("strong", "solve", "-v", "{tmp}/cp/a-copy.yaml", *TINY, "--write"),
        "error: --write: 'a-copy' is not a bundled system: the store holds the strategies "
        "the strong player plays under the bundled systems only",
        setup=_both(
            _copy_of_foster_three, _patched("bouillotte.strong.store", "STORE", _store_copy)
        ),
        untouched=("strategies",),
        one_line=False,  # the abstraction's and the tree's lines come first
    ),
    Case(
        # "error: unknown variant 'a-copy'" for the bundled foster-three
        "strong-table-with-a-stranger-s-strategy-stored",
        ("strong", "table", "-v", "foster-three", "--deals", "2"),
        "strong at one seat of foster-three against advised",
        exit=0,
        setup=_a_stranger_in_the_store,
    ),
    Case(
        # a 2-iteration solve nearer the profile's caves took over the strong player silently
        "strong-solve-write-that-changes-what-the-strong-player-plays",
        ("strong", "solve", "-v", "foster-three", *SMALL, "--cave", "30", "--write"),
        "in place of foster-three__4cbfe0e98f55d4a9.json",
        exit=0,
        setup=_patched("bouillotte.strong.store", "STORE", _store_without_the_profile_s_caves),
    ),
    Case(
        "strong-solve-write-that-changes-nothing-played",
        ("strong", "solve", "-v", "foster-three", *TINY, "--write"),
        "stored foster-three__",
        exit=0,
        setup=_patched("bouillotte.strong.store", "STORE", _store_copy),
        never=("note:",),
    ),
    Case(
        # the site then showed 2 iterations on 2 deals in place of the documented bands
        "strong-bands-write-of-a-tiny-abstraction",
        (*BANDS, "--write"),
        "error: --write stores the bands the site shows, those of the documented options "
        "(docs/strong-play.md); with --cave 10 --deals 2 --seeds 1 --iterations 2 they would "
        "never be shown",
        setup=_patched("bouillotte.strong.bands", "BANDS_STORE", lambda t: t / "bands"),
        gone=("bands",),
        within=10,
    ),
    Case(
        # "forced_bets.dealer_blind: does not act in the abstracted game", exit 0
        "strong-bands-on-the-second-system",
        (*BANDS, "--rule", "forced_bets.dealer_blind", "--on", "pagat"),
        "error: --on pagat already has pagat's value of forced_bets.dealer_blind (1): nothing "
        "would be switched",
        within=10,
    ),
    Case(
        "strong-bands-on-the-second-system-every-rule",
        (*BANDS, "--on", "pagat"),
        "--on pagat already has pagat's value of every rule on which foster and pagat differ (21)",
        within=10,
    ),
    Case(
        # int(" 1") is 1: every other whole number of the command line refuses the space
        "strong-bands-seeds-with-a-leading-space",
        ("strong", "bands", "-v", "foster", "-v", "pagat", *TINY, "--seeds", " 1"),
        "error: --seeds: ' 1' is not a whole number in ASCII digits",
        within=10,
    ),
    Case(
        # "solved": every deal returns 0, NashConv 0.0000
        "strong-solve-a-cave-the-blind-takes-whole",
        ("strong", "solve", *SMALL, "--cave", "5"),
        "error: cave: 5 is not more than foster-three's forced bets (the dealer's blind 5, the "
        "void levy 5): one would take a whole cave before anyone chooses; give at least 6",
        within=10,
    ),
    Case(
        "strong-solve-a-cave-of-one",
        ("strong", "solve", *SMALL, "--cave", "1", "-v", "pagat"),
        "cave: 1 is not more than pagat's forced bets (the dealer's blind 1)",
        within=10,
    ),
    Case(
        "strong-bands-a-cave-the-blind-takes-whole",
        ("strong", "bands", "-v", "foster", "-v", "pagat", *SMALL, "--cave", "3", "--seeds", "1"),
        "cave: 3 is not more than foster-three's forced bets",
        within=10,
    ),
    Case(
        # the table was written, then the strategy failed: a table of a solution not stored
        "strong-solve-csv-and-write-into-a-full-store",
        ("strong", "solve", "-v", "foster-three", *TINY, "--csv", "{tmp}/t.csv", "--write"),
        "cannot write: No space left on device",
        setup=_store_on_a_full_disk,
        gone=("t.csv",),
        untouched=("mnt",),
        one_line=False,  # the abstraction's and the tree's lines come first
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round_five_strong(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_the_reader_keeps_to_the_documented_bands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A current file of other inputs that sorts before the documented one (a tiny
    ``--write`` once made it) is not what the site shows: the first file by name won."""
    from bouillotte.rules.profiles import Library
    from bouillotte.strong import bands
    from bouillotte.strong.abstraction import Abstraction

    library = Library()
    foster, pagat = library.get("foster"), library.get("pagat")
    stored = bands.read_bands(foster, pagat).data
    assert stored is not None
    shipped = bands.BANDS_STORE
    monkeypatch.setattr(bands, "BANDS_STORE", tmp_path)
    three = library.get(stored["on"])
    documented = bands.address(stored["key"], "foster", "pagat")
    shutil.copy(shipped / documented.name, tmp_path)
    for iterations in range(2, 40):
        tiny = stored | {"iterations": iterations, "seeds": [1]}
        ab = Abstraction.from_record(tiny["abstraction"], seed=1)
        tiny["key"] = bands.inputs_key(foster, pagat, three, ab, (1,), iterations)
        path = bands.address(tiny["key"], "foster", "pagat")
        if path.name < documented.name:
            path.write_text(json.dumps(tiny), "utf-8")
            break
    assert len(list(tmp_path.glob("*.json"))) == 2
    found = bands.read_bands(foster, pagat).data
    assert found is not None and found["iterations"] == stored["iterations"]
    (tmp_path / documented.name).unlink()
    missing = bands.read_bands(foster, pagat)
    assert missing.data is None
    assert "is of other inputs than the documented ones" in missing.problem


def test_a_rule_the_solved_system_holds_already_is_not_switched() -> None:
    """``--on`` a system that holds the second's value of one rule but not of another:
    the first is said to be not switched, not to "not act"."""
    from bouillotte.strong.abstraction import Abstraction
    from bouillotte.strong.bands import NOT_ACTING, compute_bands
    from bouillotte.strong.core import load_variant

    foster, pagat, on = (load_variant(v) for v in ("foster", "pagat", "cardrulesplus"))
    tiny = Abstraction(cave=10, bets=("pot",), raises=1, straddles=False, deals=2, classes=2)
    rules = ["forced_bets.dealer_blind", "point.suit_tie"]
    data = compute_bands(foster, pagat, on, tiny, (1,), 2, rules=rules)
    blind, tie = data["rules"]
    assert blind["acts"] is False and blind["reason"] != NOT_ACTING
    assert blind["reason"].startswith("not switched: cardrulesplus already has pagat's value (1)")
    assert tie["rule"] == "point.suit_tie" and not tie.get("reason", "").startswith("not switched")


def test_pyspiel_refuses_a_path_its_game_string_cannot_carry(tmp_path: Path) -> None:
    """``str(game)`` is OpenSpiel's game string (``name(key=value,...)``): a path holding
    ``,`` ``=`` ``(`` or ``)`` was written raw into it, so that the game's own
    serialisation did not load again ("Wrong type for parameter cave")."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import bouillotte.strong  # noqa: F401  (registers python_bouillotte)
    from bouillotte.rules.errors import InputError

    for name in ("odd,cave=5", "odd(1)"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "house.yaml").write_text(
            "title: House\nsource: foster\nextends: foster\nsummary: x.\n", "utf-8"
        )
        with pytest.raises(InputError, match="a variant path may not hold , = \\( or \\)"):
            pyspiel.load_game("python_bouillotte", {"variant": f"{folder}/house.yaml", "deals": 2})
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(tmp_path / "odd(1)" / "house.yaml", plain)
    game = pyspiel.load_game("python_bouillotte", {"variant": f"{plain}/house.yaml", "deals": 2})
    text = pyspiel.serialize_game_and_state(game, game.new_initial_state())
    assert str(pyspiel.deserialize_game_and_state(text)[0]) == str(game)


def test_pyspiel_refuses_a_cave_the_forced_bets_take_whole() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    import bouillotte.strong  # noqa: F401
    from bouillotte.strong.abstraction import AbstractionError

    with pytest.raises(AbstractionError, match="cave: 5 is not more than foster-three's"):
        pyspiel.load_game("python_bouillotte", {"variant": "foster-three", "cave": 5, "deals": 1})
    game = pyspiel.load_game(
        "python_bouillotte", {"variant": "foster-three", "cave": 6, "deals": 1}
    )
    assert game.num_players() == 3


@pytest.mark.parametrize(
    ("given", "day"),
    [("0" * 5000 + "1", "1970-01-01"), ("0" * 5000 + "86400", "1970-01-02"), ("0", "1970-01-01")],
    ids=["five-thousand-zeros", "zeros-then-a-day", "zero"],
)
def test_source_date_epoch_of_thousands_of_digits(
    given: str, day: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zeros before the seconds passed the bound (``int(given[:20])``), then ``int(given)``
    raised Python's 4,300-digit ``ValueError``: a traceback, exit 1."""
    from bouillotte.site.edition import check_source_date, edition

    monkeypatch.setenv("SOURCE_DATE_EPOCH", given)
    check_source_date()
    assert edition().date == day


def test_source_date_epoch_past_the_year_9999_after_zeros(monkeypatch: pytest.MonkeyPatch) -> None:
    from bouillotte.rules.errors import InputError
    from bouillotte.site.edition import check_source_date

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0" * 5000 + "9" * 4400)
    with pytest.raises(InputError, match="up to 253402300799"):
        check_source_date()
