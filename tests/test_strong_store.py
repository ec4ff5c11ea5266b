"""The stored strategies are current: each file's name is the address its declared inputs
give today (the profile's rules, the abstraction, the game's version, the iterations), and
a small sample of its game, walked again through today's engine, is the one it was solved
on. A change to what a state of the game does (not a comment or a faster loop in
``play/``) fails here; this says which file and the command that regenerates it. No
solving, no OpenSpiel (numpy walks the sample)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bouillotte.strong.abstraction import Abstraction
from bouillotte.strong.core import load_variant
from bouillotte.strong.solve import game_sample
from bouillotte.strong.store import GAME_VERSION, address, rules_digest, stored


def _command(data: dict[str, object]) -> str:
    ab = data["abstraction"]
    assert isinstance(ab, dict)
    return (
        f"bouillotte strong solve -v {data['variant']} --cave {ab['cave']} "
        f"--bets {'+'.join(ab['bets']) or 'all'} --raises {ab['raises']} "
        f"--{'' if ab['straddles'] else 'no-'}straddles --deals {ab['deals']} "
        f"--classes {ab['classes']} --seed {ab['seed']} --iterations {data['iterations']} --write"
    )


def test_every_stored_strategy_is_current() -> None:
    found = stored(every=True)
    assert found, "no stored strategy at all"
    stale = []
    for data in found:
        ab = data["abstraction"]
        abstraction = Abstraction.from_record(ab)
        variant = load_variant(data["variant"])
        expected = address(variant, abstraction, data["iterations"]).name
        if (
            data["game_version"] != GAME_VERSION
            or data["game_sample"] != game_sample(variant, abstraction)
            or data["rules"] != rules_digest(variant)
            or data["file"] != expected
        ):
            stale.append(f"{data['file']} (now {expected}): {_command(data)}")
    assert not stale, (
        "stale stored strategies (if what a state does changed, bump store.GAME_VERSION); "
        "regenerate and delete the old files:\n" + "\n".join(stale)
    )


def test_a_strategy_of_another_game_version_is_never_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file an upgrade left behind (solved for an earlier version of the game) is not
    among the strategies the ``strong`` player chooses from; the staleness test sees it."""
    from bouillotte.strong import store

    current = stored()[0]
    for name, version in (("new.json", GAME_VERSION), ("old.json", GAME_VERSION - 1)):
        data = {k: v for k, v in current.items() if k != "file"} | {"game_version": version}
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(store, "STORE", tmp_path)
    assert [d["file"] for d in stored()] == ["new.json"]
    assert [d["file"] for d in stored(every=True)] == ["new.json", "old.json"]


def test_bands_and_their_table_are_put_in_place_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``strong bands --csv F --write``: the table is staged first, then the bands; when
    the bands cannot be written, the table is not left in place either (both or neither)."""
    from contextlib import ExitStack

    from bouillotte.cli.options import write_tidy
    from bouillotte.rules.errors import InputError
    from bouillotte.strong import bands
    from bouillotte.study.tidy import Column, TidyTable

    (tmp_path / "afile").write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setattr(bands, "BANDS_STORE", tmp_path / "afile" / "bands")
    columns = (Column("rule", "string", "a rule"), Column("low", "number", "a figure"))
    table = TidyTable.of("bands", "Bands", columns, [{"rule": "a", "low": 1.0}])
    data = {"key": "0" * 64, "systems": ["foster", "pagat"]}
    with pytest.raises(InputError, match="Not a directory"), ExitStack() as stack:
        write_tidy(tmp_path / "t.csv", False, table, stack)
        bands.write_bands(data, stack)
    assert not (tmp_path / "t.csv").exists()
    with ExitStack() as stack:  # and with a store that takes them, both are in place
        monkeypatch.setattr(bands, "BANDS_STORE", tmp_path / "bands")
        write_tidy(tmp_path / "t.csv", False, table, stack)
        path = bands.write_bands(data, stack)
        assert not path.exists() and not (tmp_path / "t.csv").exists()
    assert path.is_file() and (tmp_path / "t.csv").read_text("utf-8").startswith("rule,low")


def test_stored_bands_are_undone_when_their_table_cannot_be_put_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bands are put in place first (staged last), then the table's rename is refused
    (a file busy, a mount): the bands stored were left, for a command that failed."""
    import errno
    import os

    from bouillotte.cli.options import write_tidy
    from bouillotte.rules.errors import InputError
    from bouillotte.rules.together import Together
    from bouillotte.strong import bands
    from bouillotte.study.tidy import Column, TidyTable

    monkeypatch.setattr(bands, "BANDS_STORE", tmp_path / "bands")
    columns = (Column("rule", "string", "a rule"), Column("low", "number", "a figure"))
    table = TidyTable.of("bands", "Bands", columns, [{"rule": "a", "low": 1.0}])
    real = os.replace

    def busy(src: str, dst: str) -> None:
        if Path(dst).name == "t.csv":
            raise OSError(errno.EBUSY, os.strerror(errno.EBUSY), dst)
        real(src, dst)

    monkeypatch.setattr(os, "replace", busy)
    busy_table = r"t\.csv: cannot write: Device or resource busy"
    with pytest.raises(InputError, match=busy_table), Together() as stack:
        write_tidy(tmp_path / "t.csv", False, table, stack)
        path = bands.write_bands({"key": "0" * 64, "systems": ["foster", "pagat"]}, stack)
    assert not path.exists() and not (tmp_path / "t.csv").exists()
    assert [p.name for p in (tmp_path / "bands").iterdir()] == []
