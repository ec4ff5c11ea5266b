"""Shared fixtures: the bundled library, the bundled site (built once per run), and a CLI
runner that keeps stderr apart."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
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
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tests keep their caches in a folder of their own (one per pytest worker), never
    in the user's ``~/.cache/bouillotte``: a run neither reads a developer's warm cache
    nor leaves files in it. Tests of the cache itself set ``BOUILLOTTE_CACHE`` again."""
    folder = tmp_path_factory.mktemp("cache")
    os.environ["BOUILLOTTE_CACHE"] = str(folder)
    return folder


@pytest.fixture(autouse=True)
def cache_folder_kept(own_cache_folder: Path) -> Iterator[None]:
    """A test that changes ``BOUILLOTTE_CACHE`` puts it back: otherwise the tests that run
    after it in the same worker use the user's own cache, or fail only in some orders."""
    yield
    now = os.environ.get("BOUILLOTTE_CACHE")
    assert now == str(own_cache_folder), f"BOUILLOTTE_CACHE left as {now!r} by this test"


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


def _shared(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The folder every pytest-xdist worker of this run shares (popen-gw0, popen-gw1, ...
    share their parent)."""
    shared = tmp_path_factory.getbasetemp()
    return shared if worker_id == "master" else shared.parent


@contextlib.contextmanager
def _cache_at(folder: Path) -> Iterator[None]:
    """``BOUILLOTTE_CACHE`` set to ``folder`` for a while, then as it was."""
    before = os.environ.get("BOUILLOTTE_CACHE")
    os.environ["BOUILLOTTE_CACHE"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ["BOUILLOTTE_CACHE"]
        else:
            os.environ["BOUILLOTTE_CACHE"] = before


def _once(shared: Path, name: str, build: Callable[[Path], None]) -> Path:
    """``shared / name``, made by ``build`` once per test run: the first worker to need it
    builds it under a lock; the others wait for it and read the same files."""
    out = shared / name
    done = shared / f"{name}.built"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            build(out)
            done.touch()
    return out


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str, own_cache_folder: Path) -> Path:
    """The bundled site, built once per test run (in-process) and shared read-only by every
    test that reads it (``test_site.py``, the browser tests): the same build for every
    reader, not one per worker and file (it is 5-8 s of CPU with an empty cache).

    It is built cold, with an empty cache folder of its own (:func:`site_cache`), which
    then holds every result the build stored; the worker that builds it gets those results
    in its own cache folder too, as if it had built the site there."""
    from bouillotte.site import build_site

    shared = _shared(tmp_path_factory, worker_id)

    def build(out: Path) -> None:
        cache = shared / "bundled-site-cache"
        with _cache_at(cache):
            build_site(out)
        shutil.copytree(cache, own_cache_folder, dirs_exist_ok=True)

    return _once(shared, "bundled-site", build)


@pytest.fixture(scope="session")
def site_cache(site: Path) -> Path:
    """The cache folder of :func:`site`'s cold build: every result a build of the bundled
    site stores, stored from an empty folder. Shared: a test copies it before using it."""
    return site.parent / "bundled-site-cache"


@pytest.fixture(scope="session")
def uncached_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The bundled site built once more (in-process) with no usable cache at all (the cache
    folder under a file: nothing read, nothing stored, no error): the bytes every cached
    build must give (``test_site.py``, ``hostile/test_poisoned_cache.py``)."""
    from bouillotte.site import build_site

    shared = _shared(tmp_path_factory, worker_id)

    def build(out: Path) -> None:
        blocker = shared / "uncached-site-a-file"
        blocker.write_text("not a folder", encoding="utf-8")
        with _cache_at(blocker / "cache"):
            build_site(out)

    return _once(shared, "uncached-site", build)


@pytest.fixture()
def warm_cache(
    tmp_path_factory: pytest.TempPathFactory, site_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A copy of :func:`site_cache` as this test's cache folder: a build of the bundled
    site reads back what it would compute (the same bytes: ``test_site.py``'s
    ``test_the_build_cache_changes_no_byte``), for tests about something else."""
    cache = tmp_path_factory.mktemp("warm") / "cache"  # beside tmp_path, not in it
    shutil.copytree(site_cache, cache)
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(cache))
    return cache


@pytest.fixture()
def case_dir() -> Iterator[Path]:
    """A folder of its own for a case of the hostile catalogue (``tests/hostile/``): made
    under the system's temporary folder with a short name, whatever pytest's ``tmp_path``."""
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-hostile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()
