"""JSON Schema of profile and scenario files, for editors."""

from __future__ import annotations

from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..rules.citations import Status
from ..rules.profile import GROUPS
from .scenario import ScenarioModel


class _CitedBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str | None = Field(default=None, description="A work id from variants/sources.yaml.")
    locator: str | None = Field(default=None, description="Section, heading or page.")
    quote: str | None = Field(default=None, description="The exact sentence(s) of the source.")
    status: Status | None = Field(
        default=None, description="documented, agreement, inferred or reconstructed."
    )
    reason: str | None = Field(default=None, description="Why; required for inferred rules.")


def _profile_file_model() -> type[BaseModel]:
    groups: dict[str, Any] = {}
    for group, model in GROUPS.items():
        fields: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            cited = create_model(
                f"{model.__name__}{name.title().replace('_', '')}Cited",
                __base__=_CitedBase,
                value=(info.annotation, ...),  # type: ignore[arg-type]
            )
            fields[name] = (
                Union[info.annotation, cited, None],  # noqa: UP007
                Field(default=None, description=info.description),
            )
        groups[group] = (
            create_model(
                f"{model.__name__}Rules",
                __config__=ConfigDict(extra="forbid"),
                __doc__=model.__doc__,
                **fields,
            )
            | None,
            None,
        )
    rules = create_model("RulesFile", __config__=ConfigDict(extra="forbid"), **groups)
    return create_model(
        "VariantProfile",
        __config__=ConfigDict(extra="forbid"),
        __doc__="A Bouillotte variant profile: a rule system with a citation for every rule.",
        title=(str, Field(description="The system's name.")),
        short=(
            str | None,
            Field(
                default=None,
                description="A short name with the source's year for table headers "
                '("Foster 1897", "EB 1911"); the profile id when absent.',
            ),
        ),
        source=(str, Field(description="The main work, an id from variants/sources.yaml.")),
        summary=(str | None, Field(default=None, description="Markdown prose.")),
        extends=(str | None, Field(default=None, description="The profile this one extends.")),
        rules=(rules, Field(description="The rules, by group.")),
    )


def profile_schema() -> dict[str, Any]:
    return _profile_file_model().model_json_schema()


def scenario_schema() -> dict[str, Any]:
    return ScenarioModel.model_json_schema(by_alias=True)
