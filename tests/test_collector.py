"""The long commands freeze what they loaded before they play or build
(``cli/collector.py``), and the freeze keeps what was loaded while the collector still
collects what comes after."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.cli.commands import effects as effects_command
from bouillotte.cli.commands import site as site_command
from bouillotte.cli.commands import sweep as sweep_command
from bouillotte.site import effects_store


def _noting(events: list[str], word: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def noted(*args: Any, **kwargs: Any) -> Any:
        events.append(word)
        return call(*args, **kwargs)

    return noted


@pytest.mark.parametrize(
    ("module", "player", "words"),
    [
        (
            sweep_command,
            "run_sweep",
            ["sweep", "foster", "--vary", "hands.mignon", "-n", "3", "-q"],
        ),
        (
            effects_command,
            "compute_effects",
            ["effects", "--pair", "foster__pagat", "--write", "--force", "--deals", "4"],
        ),
    ],
)
def test_a_long_command_freezes_what_it_loaded_once_before_it_plays(
    module: Any, player: str, words: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    events: list[str] = []
    monkeypatch.setattr(module, "prepare_for_a_long_run", lambda: events.append("freeze"))
    monkeypatch.setattr(module, player, _noting(events, "play", getattr(module, player)))
    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    result = CliRunner().invoke(app, words)
    assert result.exit_code == 0, result.output
    assert events == ["freeze", "play"]


def test_a_site_build_freezes_what_it_loaded_once_before_it_builds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import bouillotte.site

    events: list[str] = []

    class Built:  # the report: the command reads its folder only
        out = tmp_path

    def build(*args: Any, **kwargs: Any) -> type[Built]:
        events.append("build")
        return Built

    monkeypatch.setattr(site_command, "prepare_for_a_long_run", lambda: events.append("freeze"))
    monkeypatch.setattr(bouillotte.site, "build_site", build)
    result = CliRunner().invoke(app, ["site", "build", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert events == ["freeze", "build"]


def test_an_effects_listing_that_plays_nothing_freezes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[str] = []
    monkeypatch.setattr(effects_command, "prepare_for_a_long_run", lambda: events.append("freeze"))
    result = CliRunner().invoke(app, ["effects", "--pair", "foster__pagat"])
    assert result.exit_code == 0, result.output
    assert events == []


def test_the_freeze_keeps_what_was_loaded_and_the_collector_still_collects_what_comes_after() -> (
    None
):
    """In a process of its own, since a freeze and a threshold last as long as their process."""
    script = textwrap.dedent(
        """
        import gc, weakref
        from bouillotte.cli.collector import YOUNG_EVERY, prepare_for_a_long_run

        class Node:
            pass

        def cycle():
            a, b = Node(), Node()
            a.other, b.other = b, a
            return weakref.ref(a)

        kept = Node()
        garbage_before = cycle()  # unreachable, but only the collector frees a cycle
        assert garbage_before() is not None
        assert any(found is kept for found in gc.get_objects())
        prepare_for_a_long_run()
        assert garbage_before() is None, "the garbage made before was frozen"
        assert gc.get_freeze_count() > 1000, gc.get_freeze_count()
        # what was loaded is in the permanent generation, out of the collector's passes
        assert all(found is not kept for found in gc.get_objects())
        assert gc.get_threshold()[0] == YOUNG_EVERY > 700, gc.get_threshold()
        garbage_after = cycle()
        made = [Node() for _ in range(YOUNG_EVERY)]  # enough for a young collection
        assert garbage_after() is None, "what came after the freeze was never collected"
        del made
        print("ok", gc.get_freeze_count() > 1000)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "True"]
