"""The profile file format, described once: what stands at the top level of
``variants/<id>.yaml`` and how a rule is written in it.

The loader (``profiles.py``) validates every file against :class:`ProfileFile` and splits
each rule into its value and its citation (:data:`VALUE_KEY` beside the keys of
:class:`~.citations.Citation`); the JSON Schema for editors (``bouillotte schema
profile``, ``study/schema.py``) is made from the same model, with each rule's type from
``profile.py``.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .citations import CITATION_KEYS
from .linetext import Short, Title

Game = Literal["bouillotte", "brelan"]


class ProfileFile(BaseModel):
    """A Bouillotte variant profile: a rule system with a citation for every rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: Title = Field(description="The system's name, on one line.")
    short: Short | None = Field(
        default=None,
        description="A short name with the source's year for table headers "
        '("Foster 1897", "EB 1911"); the profile id when absent.',
    )
    source: str = Field(description="The main work, an id from variants/sources.yaml.")
    summary: str | None = Field(default=None, description="Markdown prose.")
    extends: str | None = Field(default=None, description="The profile this one extends.")
    replaces: bool = Field(
        default=False,
        description="true when this profile's id (its file name) is also the id of a bundled "
        "profile, or of one in an earlier --variants folder, and this profile is meant to "
        "stand in its place (and so in the place of every profile that extends it); without "
        "it such a profile is refused. Every command then says on stderr which file it uses.",
    )
    game: Game = Field(
        default="bouillotte",
        description="The game this is a system of: bouillotte, or brelan (the older game). "
        "A scenario that names no variants runs under every Bouillotte system that seats "
        "its players; a Brelan system plays only the scenarios that name it.",
    )
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="The rules, by group: each rule bare (cave: 100) or with its citation "
        "(value: plus source, locator, quote, status...). A profile that extends another "
        "states only the rules it changes.",
    )


class Inheritance(BaseModel):
    """Beside a rule's value and citation in a flattened profile (``bouillotte variants
    export``): the value is not this profile's own but inherited from another system, whose
    profile need not be read with it (a ``--no-bundled`` site)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    inherited_from: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$",
        max_length=100,
        description="The id of the profile (system) that states this value (written as a "
        "profile's id; that profile need not be read with this one); the rule is "
        "shown as inherited from it, as if this profile extended it.",
    )
    source_silent: bool = Field(
        default=False,
        description="With inherited_from: this profile's own source says nothing of the "
        "rule, so the other system's value stands in (shown 'inherited from … — … is silent').",
    )

    @model_validator(mode="after")
    def _silent_needs_its_system(self) -> Inheritance:
        if self.source_silent and not self.inherited_from:
            raise ValueError("'source_silent' needs 'inherited_from', the system that states it")
        return self


PROFILE_KEYS = frozenset(ProfileFile.model_fields)
"""The keys a profile file may have at its top level."""
GAMES: tuple[str, ...] = get_args(Game)
"""The games a profile may be a system of."""
VALUE_KEY = "value"
"""A rule written with its citation holds its value under this key, beside the keys of a
citation (:data:`CITED_KEYS`)."""
INHERITANCE_KEYS = frozenset(Inheritance.model_fields)
"""The keys that mark a rule of a flattened profile as inherited (:class:`Inheritance`)."""
CITED_KEYS = frozenset({VALUE_KEY, *CITATION_KEYS, *INHERITANCE_KEYS})
"""The keys of a rule written with its citation."""
