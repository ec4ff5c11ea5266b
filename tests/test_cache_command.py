"""``bouillotte cache info|clear``: the cache folder and emptying it, and only of our files."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from platformdirs import user_cache_path
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.diskcache import cache_dir, store

runner = CliRunner()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(cache))
    store(cache / "odds-1.json", '{"a": 1}')
    store(cache / "odds-2.json", '{"b": 22}')
    (cache / "notes.txt").write_text("the user's own file, not ours\n", encoding="utf-8")
    (cache / "sub").mkdir()
    store(cache / "sub" / "deeper.json", "{}")  # not ours to walk into
    (cache / "link.json").symlink_to(cache / "odds-1.json")
    return cache


def test_info_counts_our_files(folder: Path) -> None:
    result = runner.invoke(app, ["cache", "info", "--json"])
    assert result.exit_code == 0, result.output
    sizes = [len((folder / name).read_bytes()) for name in ("odds-1.json", "odds-2.json")]
    assert json.loads(result.stdout) == {"folder": str(folder), "files": 2, "bytes": sum(sizes)}


def test_clear_deletes_our_files_only(folder: Path) -> None:
    result = runner.invoke(app, ["cache", "clear"])
    assert result.exit_code == 0, result.output
    assert "deleted 2 files" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["link.json", "notes.txt", "sub"]
    assert (folder / "sub" / "deeper.json").is_file()


def test_clear_older_than_keeps_the_recent(folder: Path) -> None:
    old = time.time() - 40 * 86_400
    os.utime(folder / "odds-1.json", (old, old))
    result = runner.invoke(app, ["cache", "clear", "--older-than", "30"])
    assert result.exit_code == 0, result.output
    assert not (folder / "odds-1.json").exists()
    assert (folder / "odds-2.json").is_file()
    refused = runner.invoke(app, ["cache", "clear", "--older-than", "-1"])
    assert refused.exit_code == 2 and "--older-than" in refused.stderr


def test_the_folder_is_the_platforms(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BOUILLOTTE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == user_cache_path("bouillotte", appauthor=False)
    assert cache_dir() == tmp_path / "xdg" / "bouillotte"  # on Linux, as before
    result = runner.invoke(app, ["cache", "info"])
    assert result.stdout == f"{tmp_path / 'xdg' / 'bouillotte'}: 0 files, 0 KiB\n"
