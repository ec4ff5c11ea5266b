"""Shared fixtures: the bundled library, the bundled site (built once per run), and a CLI
runner that keeps stderr apart."""

from __future__ import annotations

import fcntl
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


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The bundled site, built once per test run (in-process) and shared read-only by every
    test that reads it (``test_site.py``, the browser tests): the first pytest-xdist worker
    to need it builds it under a lock, in the folder the workers share; the others wait for
    it and read the same files. The same build for every reader, not one per worker and
    file (it is 5-8 s of CPU with an empty cache)."""
    from bouillotte.site import build_site

    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # popen-gw0, popen-gw1, ... share their parent
        shared = shared.parent
    out = shared / "bundled-site"
    done = shared / "bundled-site.built"
    with (shared / "bundled-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            build_site(out)
            done.touch()
    return out


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()
