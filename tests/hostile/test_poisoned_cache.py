"""Every kind of cache file poisoned every way a hostile or broken neighbour could (issue 23):
the site and ``variants list`` come out byte for byte as without any cache, no code runs,
nothing fails.

The cache folder is a place other processes can write, so each poison is what one of them
could leave there: another amount or title with the digest left as it was; the right digest
over a result of the wrong shape (``{}``, wrong types); a file too large to read; a named
pipe, a link to ``/dev/zero``, a folder where a file was; a file sealed correctly but
writable by others; a pickle that runs a command when loaded; JSON nested past Python's
stack. (A result of the right shape, sealed anew by a process running as the user, is
beyond what any cache can tell from a true one: such a process can change the tool too.)
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2.bccache
import pytest

from bouillotte.rules import diskcache
from bouillotte.site import build_site

pytestmark = pytest.mark.slow  # two builds of the bundled site (and the shared two)


class _Pickled:
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {MARK}",))


MARK = Path("/tmp") / f"bouillotte-pwned-{os.getpid()}"


def _digest_kept(file: Path) -> None:
    """Another amount, title or count, the seal left as it was."""
    text = file.read_text(encoding="utf-8")
    changed = text.replace("1", "7").replace("Foster", "Fester")
    assert changed != text, file.name
    file.write_text(changed, encoding="utf-8")


def _sealed(payload: str) -> Callable[[Path], None]:
    """A result of the wrong shape, sealed with the right digest."""

    def poison(file: Path) -> None:
        file.write_text(diskcache.seal(file, payload), encoding="utf-8")

    return poison


def _huge(file: Path) -> None:
    with file.open("wb") as stream:  # sparse: instant, and never read
        stream.write(diskcache.HEADER.encode())
        stream.truncate(3 * 2**30)


def _fifo(file: Path) -> None:
    file.unlink()
    os.mkfifo(file)


def _dev_zero(file: Path) -> None:
    file.unlink()
    file.symlink_to("/dev/zero")


def _folder(file: Path) -> None:
    file.unlink()
    file.mkdir()


def _writable_by_others(file: Path) -> None:
    """Sealed as this tool seals it, yet writable by anyone: another user may have made it."""
    payload = diskcache.load(file, 2**30)
    assert payload is not None, file.name
    file.write_text(diskcache.seal(file, payload.replace("1", "7")), encoding="utf-8")
    file.chmod(0o666)


def _pickle(file: Path) -> None:
    file.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(_Pickled()))


def _deep(file: Path) -> None:
    file.write_text(diskcache.seal(file, "[" * 200_000), encoding="utf-8")


POISONS: list[Callable[[Path], None]] = [
    _digest_kept,
    _sealed("{}"),
    _sealed('{"data": {"players": 3}, "steps": "none", "odds": [], "rows": 1}'),
    _sealed("[]"),
    _sealed("12"),
    _huge,
    _fifo,
    _dev_zero,
    _folder,
    _writable_by_others,
    _pickle,
    _deep,
]


def _digest(folder: Path) -> dict[str, str]:
    return {
        f.relative_to(folder).as_posix(): hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(folder.rglob("*"))
        if f.is_file()
    }


def _poison(cache: Path, round_: int) -> set[str]:
    """Each file of each kind its poison, in turn: every kind meets several."""
    kinds: dict[str, list[Path]] = {}
    for file in sorted(cache.iterdir()):
        kinds.setdefault(file.name.split("-")[0], []).append(file)
    for number, (_, files) in enumerate(sorted(kinds.items())):
        for index, file in enumerate(files):
            POISONS[(index + number + round_ * 5) % len(POISONS)](file)
    return set(kinds)


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes and /dev/zero")
@pytest.mark.parametrize(
    "round_",
    # The second round (each file another poison) is a whole site build more: it runs with
    # the full axe crawl (pytest -m exhaustive), keeping CI within its eight minutes.
    [0, pytest.param(1, marks=pytest.mark.exhaustive)],
)
def test_every_poisoned_cache_builds_the_site_of_no_cache(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    site_cache: Path,
    uncached_site: Path,
    round_: int,
) -> None:
    """Each round poisons a copy of the cache a cold build of the bundled site filled
    (``site_cache``: every result stored, as a build here would store it again, the keys
    naming neither the site's folder nor the cache's) and builds the site from it; its
    bytes are those of the build with no cache at all (``uncached_site``)."""
    expected = _digest(uncached_site)
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(cache))
    from bouillotte.rules.listing import variant_rows

    shutil.copytree(site_cache, cache)  # every result of a site build stored
    rows = json.dumps(variant_rows())  # the rows stored
    kinds = _poison(cache, round_)
    # (the rule effects are stored in site/effects/, not in the cache)
    assert {"attribution", "odds", "run", "simulate", "variant", "yaml"} <= kinds
    build_site(tmp_path / "poisoned")
    assert _digest(tmp_path / "poisoned") == expected
    assert json.dumps(variant_rows()) == rows
    assert not MARK.exists(), "a cache file ran code"
