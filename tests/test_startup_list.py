"""``bouillotte variants list`` reads its rows from a cache keyed by the content of every
profile file and of the code that reads them (``rules/listing.py``), and a command line
that leaves an option out is handled by Typer as any other: neither may change a byte of
what any command prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules import diskcache, listing
from bouillotte.rules.profiles import Library

CHILD = """\
title: My system
source: foster
extends: foster
rules:
  table:
    players: {players}
"""


def listed(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["variants", "list", *args])
    return result.exit_code, result.stdout, result.stderr


def rows_of(library: Library) -> list[dict[str, object]]:
    """The rows built from the profiles, as the list gives them."""
    return [
        {
            "id": v.id,
            "title": v.title,
            "players": v.players,
            "source": v.source,
            "extends": v.extends,
        }
        for v in library.all()
    ]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(folder))
    return folder


def stored(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{listing.KIND}-*.json")) if cache.is_dir() else []


def test_cold_warm_and_damaged_caches_print_the_same_bytes(
    cache: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run builds the profiles and stores the rows; the second reads them back
    without building anything; a damaged cache file is built again and replaced."""
    cold = [listed(runner), listed(runner, "--json")]
    assert cold[0][0] == 0 and cold[1][0] == 0
    assert json.loads(cold[1][1]) == rows_of(Library())
    (file,) = stored(cache)

    def built(*args: object, **kwargs: object) -> None:
        raise AssertionError("a warm cache should leave nothing to build")

    with monkeypatch.context() as warm:
        warm.setattr(Library, "__init__", built)
        assert [listed(runner), listed(runner, "--json")] == cold

    good = file.read_text(encoding="utf-8")
    payload = diskcache.load(file, listing.MAX_FILE_BYTES)
    assert payload is not None and good == diskcache.seal(file, payload)
    stored_rows = json.loads(payload)
    rows = stored_rows["rows"]

    def wrapped(changed: object) -> str:
        return json.dumps({**stored_rows, "rows": changed})

    a_text = next(iter(stored_rows["texts"]))
    wrong = {  # sealed with the right digest, yet not rows: refused for their shape
        "not JSON": payload[: len(payload) // 2],
        "the rows alone": json.dumps(rows),
        "not a list": wrapped({"rows": rows}),
        "a key missing": wrapped([{k: v for k, v in r.items() if k != "title"} for r in rows]),
        "keys reordered": wrapped([dict(reversed(r.items())) for r in rows]),
        "players as text": wrapped([{**r, "players": str(r["players"])} for r in rows]),
        "players true": wrapped([{**r, "players": True} for r in rows]),
        "a quoted text since changed": json.dumps(
            {**stored_rows, "texts": {**stored_rows["texts"], a_text: "0" * 64}}
        ),
        "notes not text": json.dumps({**stored_rows, "notes": [1]}),
        "nested too deep": "[" * 100_000,
        "empty": "",
        "too long": payload + " " * listing.MAX_FILE_BYTES,
    }
    damaged = {
        **{why: diskcache.seal(file, text) for why, text in wrong.items()},
        # not sealed, or not by the digest of what it holds: refused unread
        "another title, the digest unchanged": good.replace("Foster's", "Fester's"),
        "rows without the seal": payload,
        "not UTF-8": "\udcff",
        "sealed for another file": diskcache.seal(file.with_name("other.json"), payload),
    }
    for why, text in damaged.items():
        file.write_bytes(text.encode("utf-8", "surrogateescape"))
        assert [listed(runner), listed(runner, "--json")] == cold, why
        assert file.read_text(encoding="utf-8") == good, why


def test_an_unusable_cache_folder_only_costs_time(
    tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache folder under a file, a cache file that is a folder, a home folder that
    cannot hold one: the same output, exit 0, nothing on stderr."""
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(tmp_path / "cold"))
    expected = [listed(runner), listed(runner, "--json")]
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(blocker / "cache"))
    assert [listed(runner), listed(runner, "--json")] == expected
    (file,) = stored(tmp_path / "cold")
    folder = tmp_path / "folder-cache"
    (folder / file.name).mkdir(parents=True)
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(folder))
    assert [listed(runner), listed(runner, "--json")] == expected
    monkeypatch.delenv("BOUILLOTTE_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(blocker / "home"))
    assert [listed(runner), listed(runner, "--json")] == expected


def test_a_changed_profile_is_never_listed_from_the_cache(
    cache: Path, tmp_path: Path, runner: CliRunner
) -> None:
    """A user's folder is part of the key: the rows follow every change of its files,
    and a profile that turns bad fails as it always did, cached rows or not."""
    mine = tmp_path / "mine"
    mine.mkdir()
    profile = mine / "mine.yaml"
    for players in (4, 3, 4):
        profile.write_text(CHILD.format(players=players), encoding="utf-8")
        code, out, _ = listed(runner, "--json", "--variants", str(mine))
        assert code == 0
        assert json.loads(out) == rows_of(Library([mine]))
        assert {r["id"]: r["players"] for r in json.loads(out)}["mine"] == players
    assert len(stored(cache)) == 2  # the second 4 is read back, not stored again

    bad = CHILD.format(players=4).replace("players: 4", "players: four")
    profile.write_text(bad, encoding="utf-8")
    result = runner.invoke(app, ["variants", "list", "--variants", str(mine)])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line == (
        f"error: {profile}:6: rules.table.players: Input should be a valid integer (value: 'four')"
    )
    assert len(stored(cache)) == 2  # nothing stored for a library that does not load


def test_rows_built_while_a_profile_changed_are_not_stored(
    cache: Path, tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows read from a file that changed after it was hashed would be stored under the
    old bytes' key: they are not stored at all."""
    mine = tmp_path / "mine"
    mine.mkdir()
    profile = mine / "mine.yaml"
    profile.write_text(CHILD.format(players=4), encoding="utf-8")
    build = Library.all

    def edited_meanwhile(self: Library) -> list[object]:
        profile.write_text(CHILD.format(players=3), encoding="utf-8")
        return list(build(self))

    with monkeypatch.context() as racing:
        racing.setattr(Library, "all", edited_meanwhile)
        assert listed(runner, "--variants", str(mine))[0] == 0
    assert stored(cache) == []
    profile.write_text(CHILD.format(players=4), encoding="utf-8")
    rows = json.loads(listed(runner, "--json", "--variants", str(mine))[1])
    assert {r["id"]: r["players"] for r in rows}["mine"] == 4


def test_a_user_profile_replaces_a_bundled_one_in_the_key(
    cache: Path, tmp_path: Path, runner: CliRunner
) -> None:
    """The same file name in a user's folder (which replaces the bundled profile, as it
    says) keys the rows apart from the bundled library's; a warm list says which file it
    uses as a cold one does."""
    bundled = json.loads(listed(runner, "--json")[1])
    mine = tmp_path / "mine"
    mine.mkdir()
    profile = mine / "foster-three.yaml"
    profile.write_text(CHILD.format(players=5), encoding="utf-8")
    code, _, err = listed(runner, "--json", "--variants", str(mine))
    assert code == 2 and "say 'replaces: true'" in err
    profile.write_text("replaces: true\n" + CHILD.format(players=5), encoding="utf-8")
    code, out, err = listed(runner, "--json", "--variants", str(mine))
    assert code == 0
    note = f"note: using {profile} (replaces: true) in place of the bundled profile 'foster-three'"
    assert err.strip() == note
    assert listed(runner, "--json", "--variants", str(mine)) == (0, out, err)
    replaced = {r["id"]: r for r in json.loads(out)}["foster-three"]
    assert replaced["title"] == "My system" and replaced["players"] == 5
    assert json.loads(listed(runner, "--json")[1]) == bundled


def test_a_warm_list_reads_no_profile(tmp_path: Path) -> None:
    """What the cache is for: once the rows are stored, listing neither parses YAML nor
    builds the profiles (and with an empty cache the output is the same). Pydantic is
    imported either way: Typer converts the options with it."""
    code = (
        "import sys\n"
        "from bouillotte.cli.app import app\n"
        "try:\n"
        "    app(['variants', 'list'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('bouillotte.rules.profiles', 'yaml') if m in sys.modules))\n"
    )
    env = {**os.environ, "BOUILLOTTE_CACHE": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        for _ in range(2)
    ]
    cold, warm = (run.stdout.splitlines() for run in runs)
    assert cold[:-1] == warm[:-1]
    assert cold[-1] == "['bouillotte.rules.profiles', 'yaml']"  # built from the profiles
    assert warm[-1] == "[]"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--deals", "abc"], "Invalid value for '--deals' / '-n'"),
        (["variants", "list", "--variants", "pyproject.toml"], "is a file"),
        (["check", "--bogus"], "No such option: --bogus"),
    ],
)
def test_a_given_option_is_converted_and_refused(
    runner: CliRunner, args: list[str], message: str
) -> None:
    """A value given is converted, and a bad one refused, by Typer (usage errors exit 2)."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_cache_reads_no_more_of_a_file_than_the_library() -> None:
    """Listing hashes a profile only where the library would read it (a regular file
    within the size limit); a device such as ``/dev/zero`` is left to the library's
    refusal (tests/hostile plays it)."""
    from bouillotte.rules import yamlsource

    assert listing.MAX_FILE_BYTES == yamlsource.MAX_FILE_BYTES
