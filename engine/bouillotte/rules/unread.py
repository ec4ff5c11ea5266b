"""Works known but not yet read: the rule manuals the comparison does not yet cover.

``variants/unread.yaml`` lists them, as data: each work with what identifies it (a
catalogue number, a copy's address), what is known of it and from where, and where to look
next. Nothing of their rules is quoted, since their rules were not read; a sentence that
was read (a title page) is quoted only as the research notes give it. The Sources page
shows them in a section of its own, "Known but not yet read". A folder given with
``--variants`` may hold its own ``unread.yaml``, whose works are added to the bundled ones
(or replace the bundled work of the same id).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .citations import WebAddress, Year
from .docstrings import describe_fields
from .idtext import listed_once
from .linetext import Line, Name, Words, WorkTitle
from .yamlmodels import validated
from .yamlsource import read_mapping

UNREAD_FILE = "unread.yaml"


class Identifier(BaseModel):
    """One way to find a copy of the work."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    label: Line
    """What the identifier is (``Gallica``, ``Scribd copy of the Gallica scan``)."""
    value: Line
    """The identifier itself (``bpt6k1104783``, ``document 676182597``)."""
    url: WebAddress | None = None
    """Where it leads, if it is an address (``http://`` or ``https://`` only: the Sources
    page links to it)."""


class UnreadWork(BaseModel):
    """A work located or cited, whose rules could not be read."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """Unique; the work's anchor on the Sources page (``sources.html#unread-burger-1883``)."""
    author: Name | None = None
    """The author or compiler as known (``J.-A. Burger``); none for an anonymous work."""
    title: WorkTitle
    """The title as known (it may be cut short, ``…``)."""
    year: Year
    """The edition's year as known (``1883``, ``1802-1824``)."""
    imprint: Line | None = None
    """Place and publisher as known (``Paris: Roret``)."""
    status: Literal["located", "cited", "not-found"]
    """``located``: a copy, a catalogue entry or a contents list was found, but not its
    rules; ``cited``: known only because another work cites it; ``not-found``: named by
    the literature, but no copy or record was found."""
    identifiers: list[Identifier] = []
    """Catalogue numbers and copies, for a reader who can open them."""
    known: Words
    """What is known of the work and from where, in Markdown; no words of its rules."""
    next_step: str | None = None
    """Where to look next."""
    cited_in: Annotated[list[str], AfterValidator(listed_once)] = []
    """Works of the bibliography that cite it (ids of ``sources.yaml``), each once."""


class UnreadFile(BaseModel):
    """An ``unread.yaml``: a list ``works:``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    works: list[UnreadWork]


describe_fields(__name__)


def load_unread(file: Path, works: set[str]) -> list[UnreadWork]:
    """Read an ``unread.yaml``: its works, in the file's order; a fault (an id used twice,
    a ``cited_in`` that is no work of the bibliography) is reported at its file and line."""
    doc = read_mapping(file, "a list 'works:' of works known but not yet read")
    found = validated(UnreadFile, doc).works
    ids: set[str] = set()
    for i, work in enumerate(found):
        if work.id in ids:
            raise doc.fault(("works", i, "id"), "this id is used twice", work.id)
        ids.add(work.id)
        if work.id in works:
            raise doc.fault(
                ("works", i, "id"), "this id is a work of the bibliography, which was read", work.id
            )
        for j, cited in enumerate(work.cited_in):
            if cited not in works:
                raise doc.fault(
                    ("works", i, "cited_in", j),
                    f"unknown source id; the bibliography has {', '.join(sorted(works))}",
                    cited,
                )
    return found
