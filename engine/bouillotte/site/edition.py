"""The edition of a built site: the package version and a build date that is never the
clock, so that two builds of the same sources stay byte-identical."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from ..rules.errors import InputError
from ..rules.resources import bundled


@dataclass(frozen=True)
class Edition:
    version: str
    date: str | None
    """``YYYY-MM-DD`` (UTC), or ``None`` when neither source of a date is there."""
    date_from: str
    """Where the date comes from, in words (for the "cite this" block)."""


def _version() -> str:
    try:
        return metadata.version("bouillotte")
    except metadata.PackageNotFoundError:
        return "unknown"


def _commit_time(folder: Path) -> int | None:
    """The time of the last commit of the checkout holding ``folder`` (none in a wheel)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = done.stdout.strip()
    return int(text) if done.returncode == 0 and text.isdigit() else None


_LATEST_EPOCH = 253402300799
"""31 December 9999, 23:59:59 UTC: the last second a date can be written YYYY-MM-DD."""


def _epoch(given: str) -> int:
    """``SOURCE_DATE_EPOCH`` as seconds since 1970, checked: ASCII digits naming a day up
    to the year 9999, else one line saying so (never a traceback from the clock)."""
    if not (given.isascii() and given.isdigit()) or int(given[:20]) > _LATEST_EPOCH:
        raise InputError(
            "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 (UTC), up to "
            f"{_LATEST_EPOCH} (the last day of the year 9999)",
            value=given if len(given) <= 40 else given[:20] + "...",
            has_value=True,
        )
    return int(given)


def check_source_date() -> None:
    """Refuse a ``SOURCE_DATE_EPOCH`` that names no day (:func:`_epoch`)."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given:
        _epoch(given)


def edition() -> Edition:
    """``SOURCE_DATE_EPOCH`` when set (the reproducible-builds convention), else the date of
    the last commit of the checkout the site's templates come from; never today's date."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given:
        stamp: int | None = _epoch(given)
        source = "SOURCE_DATE_EPOCH"
    else:
        stamp = _commit_time(bundled("site"))
        source = "the last commit"
    if stamp is None:
        return Edition(_version(), None, "no date known")
    day = datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d")
    return Edition(_version(), day, source)
