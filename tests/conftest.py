"""Shared fixtures: the bundled library, and a CLI runner that keeps stderr apart."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from bouillotte.rules.profiles import Library

ROOT = Path(__file__).resolve().parent.parent

# CI replays the same property-test examples every run (reproducible verdicts); a
# developer's runs draw new ones, which is where new failures are found.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests keep their caches in a folder of their own (one per pytest worker), never
    in the user's ``~/.cache/bouillotte``: a run neither reads a developer's warm cache
    nor leaves files in it. Tests of the cache itself set ``BOUILLOTTE_CACHE`` again."""
    os.environ["BOUILLOTTE_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()
