"""A site's configuration file (``site.yaml``), for editors who publish their own site.

Validated like a profile: an unknown key, a wrong type or a bad value is one line naming
the file, the line and the field (exit 2).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Final
from urllib.parse import quote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..rules.citations import Names, language_fault
from ..rules.errors import InputError
from ..rules.escaping import web_address_fault
from ..rules.linetext import Title
from ..rules.yamlmodels import validated
from ..rules.yamlsource import read_mapping
from .theme import check_folder


class SiteConfig(BaseModel):
    """What an editor may set for a site of their own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: Title = Field(
        "Bouillotte compared",
        description="The site's name: in every page's title, the header and 'cite this'.",
    )
    intro: str | None = Field(
        None,
        max_length=20_000,
        description="The home page's introduction, in Markdown (raw HTML is shown as text).",
    )
    language: str = Field(
        "en",
        description="The pages' language, a BCP 47 tag such as 'en' or 'fr' (<html lang>), "
        "of at most 35 characters, each variant subtag once.",
    )
    footer: str | None = Field(
        None, max_length=2_000, description="A line of Markdown added to every page's footer."
    )
    base_url: str | None = Field(
        None,
        description="The public address the site is published at (https://…/): no ? or #, "
        "no user name or password, the host in ASCII (a path's other characters are "
        "percent-encoded). With it, each page gets a canonical link and the build writes "
        "sitemap.xml.",
    )
    authors: Names = Field(
        default_factory=list,
        description="Who wrote the site, each as 'Family, Given' (a name without a comma is "
        "a body, such as 'The bouillotte project'): 'cite this page' opens with them.",
    )
    editors: Names = Field(
        default_factory=list,
        description="Who edits the site, written as 'authors' are: 'cite this page' opens "
        "with them, marked 'ed.', where no authors are given.",
    )
    edition_date: date | None = Field(
        None,
        description="The date of this edition of the site, a day written YYYY-MM-DD "
        "(unquoted), for 'cite this page' and every page's metadata; 'bouillotte new' writes "
        "the day it makes the folder. Without it, SOURCE_DATE_EPOCH when set, else the "
        "pages are undated (never the tool's own date).",
    )
    theme: str | None = Field(
        None,
        description="A folder (relative to this file, inside its folder: no absolute path, "
        "no '..', no link leading out) holding templates/ and/or assets/ whose files replace "
        "the bundled ones of the same name.",
    )

    @field_validator("theme")
    @classmethod
    def _theme(cls, value: str | None) -> str | None:
        if value is None:
            return None
        path = Path(value)
        if not value.strip() or path.is_absolute() or ".." in path.parts:
            raise ValueError(
                "must be a folder beside this file: a relative path without '..' "
                "(a theme is confined to its folder)"
            )
        return value

    @field_validator("edition_date", mode="before")
    @classmethod
    def _edition_date(cls, value: object) -> object:
        # YAML reads an unquoted 2027-03-04 as a day (an impossible one is refused where it
        # is read, rules/yamlsource.py); a quoted one is read the same way, strictly. Anything
        # else is not a day: another spelling, a number, a time of day.
        if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value, re.ASCII):
            try:
                return date.fromisoformat(value)
            except ValueError as exc:
                raise ValueError(f"not a date that exists ({exc})") from None
        raise ValueError("must be a day written YYYY-MM-DD in the digits 0-9, such as 2027-03-04")

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        fault = language_fault(value)
        if fault is not None:
            raise ValueError(fault)
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        return None if value is None else base_address(value)


_PATH_KEPT = "/:@!$&'()*+,;=%"
"""What a path keeps as it is when its address is written in ASCII, beside the letters,
digits and ``-._~``: the separators RFC 3986 lets a path hold, and ``%`` (each one already
followed by two hexadecimal digits)."""
_IDNA_DEVIATIONS = frozenset("ßς\u200c\u200d")
"""The characters IDNA 2003 (Python's ``idna`` codec) maps otherwise than IDNA 2008, which
names the host today: a host holding one is given no suggested ASCII name."""


def base_address(value: str) -> str:
    """The site's public address (``base_url``) as the pages write it: an ``http://`` or
    ``https://`` address (the scheme in any case, written in lower case), without ``?`` or
    ``#``, a user name or a password, each ``%`` a percent-encoding, the host in ASCII;
    a path's other characters percent-encoded as UTF-8 (``/règles/`` is
    ``/r%C3%A8gles/``), ending in ``/``. Anything else is a :class:`ValueError` saying
    what is wrong."""
    fault = web_address_fault(value)  # the one parser of an address (rules/escaping.py)
    if fault is not None and "which is no percent-encoding" in fault:
        fault = fault.removeprefix("the url ")  # the field is named: base_url holds '%zz'
    if fault is not None:
        raise ValueError(fault)
    if "?" in value or "#" in value:
        raise ValueError(
            "must be the address of the site's folder, without ? or # (each page's address "
            "is this one followed by the page's path)"
        )
    parts = urlsplit(value)
    if "@" in parts.netloc:
        raise ValueError(
            "holds a user name or password (user:password@ before the host), which every "
            "canonical link, the sitemap and 'Cite this page' would publish: remove it"
        )
    host = parts.hostname or ""
    if not host.isascii():
        raise ValueError(
            f"the host {host!r} is not written in ASCII: write its ASCII (IDNA) name, the "
            f"one DNS knows{_ascii_host(host)}"
        )
    path = quote(parts.path, safe=_PATH_KEPT)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path.rstrip('/')}/"


def _ascii_host(host: str) -> str:
    """`` (xn--caf-dma.example)``: ``host``'s ASCII name, where the codec gives the one
    every browser gives; else nothing."""
    if _IDNA_DEVIATIONS.intersection(host):
        return ""
    try:
        return f" ({host.encode('idna').decode('ascii')})"
    except UnicodeError:
        return ""


DEFAULT = SiteConfig(editors=["The bouillotte project"])
"""The configuration of a site built without ``--config``: edited by the project that makes
it (no person is named: the profiles, texts and pages are the project's joint work)."""

RELEASED: Final = date(2026, 12, 5)
"""The day this version of the package was released (``CITATION.cff``'s ``date-released``,
which ``tests/test_package_metadata.py`` checks against this): the edition date of the bundled
site, built from the bundled profiles and scenarios alone with :data:`DEFAULT`."""

BUNDLED = DEFAULT.model_copy(update={"edition_date": RELEASED})
"""The bundled site's configuration: :data:`DEFAULT`, dated by the release it comes with. A
site with an editor's own profiles or scenarios is the editor's edition, dated by its own
``site.yaml`` (or ``SOURCE_DATE_EPOCH``), never by ours."""


def load_config(file: Path) -> tuple[SiteConfig, Path | None]:
    """The configuration and its theme folder (resolved beside the file, checked to exist)."""
    doc = read_mapping(file, "a site configuration")
    config = validated(SiteConfig, doc)
    theme = None
    if config.theme is not None:
        theme = file.parent / config.theme
        if not theme.is_dir():
            raise InputError(
                "no such theme folder",
                file=file,
                line=doc.line(("theme",)),
                field="theme",
                value=config.theme,
                has_value=True,
            )
        theme = check_folder(theme, file, doc.line(("theme",)))
    return config, theme
