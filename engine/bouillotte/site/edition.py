"""The edition of a built site: the package version and the editor's date for it.

The date is the editor's, never the tool's: ``edition_date`` in the site's ``site.yaml``
(``bouillotte new`` writes the day it makes the folder), else ``SOURCE_DATE_EPOCH`` when the
one building sets it (the reproducible-builds convention), else none at all: a build never
takes the clock or the date of the tool's own last commit (which dated every site, an
editor's too, by our code, and a wheel's by nothing). Two builds of the same sources stay
byte-identical.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, date, datetime
from importlib import metadata

from ..rules.errors import InputError

HOW_TO_DATE = (
    "no edition date: the pages and their citations are undated (n.d.); set the date of "
    "this edition in the site's configuration, edition_date: YYYY-MM-DD in site.yaml "
    "(--config), or SOURCE_DATE_EPOCH"
)
"""The one line a build without a date logs."""


@dataclass(frozen=True)
class Edition:
    version: str
    date: str | None
    """``YYYY-MM-DD``, or ``None`` when the editor gave none."""
    date_from: str
    """Where the date comes from, in words (``site.yaml``, ``SOURCE_DATE_EPOCH``)."""


def _version() -> str:
    try:
        return metadata.version("bouillotte")
    except metadata.PackageNotFoundError:
        return "unknown"


_LATEST_EPOCH = 253402300799
"""31 December 9999, 23:59:59 UTC: the last second a date can be written YYYY-MM-DD."""


def _epoch(given: str) -> int:
    """``SOURCE_DATE_EPOCH`` as seconds since 1970, checked: ASCII digits naming a day up
    to the year 9999 (zeros before them allowed; nothing else, not even a space or a line
    break around them: the reproducible-builds convention refuses a malformed value), else
    one line saying so (never a traceback from the clock, nor from ``int`` past its 4,300
    digits). Set but empty, it is unset."""
    digits = given.lstrip("0") or "0"
    if (
        not (given.isascii() and given.isdigit())
        or len(digits) > len(str(_LATEST_EPOCH))
        or int(digits) > _LATEST_EPOCH
    ):
        raise InputError(
            "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 (UTC), up to "
            f"{_LATEST_EPOCH} (the last day of the year 9999)",
            value=given if len(given) <= 40 else given[:20] + "...",
            has_value=True,
        )
    return int(digits)


def check_source_date() -> None:
    """Refuse a ``SOURCE_DATE_EPOCH`` that names no day (:func:`_epoch`)."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "")
    if given:
        _epoch(given)


def edition(edition_date: date | None = None) -> Edition:
    """The edition: ``edition_date`` (the site's ``site.yaml``) when given, else
    ``SOURCE_DATE_EPOCH`` when set, else undated; never today's date, never a commit's."""
    if edition_date is not None:
        return Edition(_version(), edition_date.isoformat(), "site.yaml")
    given = os.environ.get("SOURCE_DATE_EPOCH", "")
    if given:
        day = datetime.fromtimestamp(_epoch(given), tz=UTC).strftime("%Y-%m-%d")
        return Edition(_version(), day, "SOURCE_DATE_EPOCH")
    return Edition(_version(), None, "no date given")
