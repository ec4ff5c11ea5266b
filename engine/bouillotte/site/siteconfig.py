"""A site's configuration file (``site.yaml``), for editors who publish their own site.

Validated like a profile: an unknown key, a wrong type or a bad value is one line naming
the file, the line and the field (exit 2).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..rules.citations import LANGUAGE_TAG, Names
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
        description="The pages' language, a BCP 47 tag such as 'en' or 'fr' (<html lang>).",
    )
    footer: str | None = Field(
        None, max_length=2_000, description="A line of Markdown added to every page's footer."
    )
    base_url: str | None = Field(
        None,
        description="The public address the site is published at (https://…/). With it, each "
        "page gets a canonical link and the build writes sitemap.xml.",
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
        if not LANGUAGE_TAG.fullmatch(value):
            raise ValueError("must be a language tag such as 'en', 'fr' or 'en-GB'")
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        fault = web_address_fault(value)  # the one parser of an address (rules/escaping.py)
        if fault is not None:
            raise ValueError(fault)
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise ValueError("must be an http:// or https:// address, without ? or #")
        return value if value.endswith("/") else value + "/"


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
