"""JSON Schema of profile and scenario files, for editors."""

from __future__ import annotations

from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..rules.citations import Citation
from ..rules.profile import GROUPS
from ..rules.profilefile import VALUE_KEY, Inheritance, ProfileFile
from .scenario import ScenarioModel


def _cited_base() -> type[BaseModel]:
    """A rule written with its citation, less its value: every key of a citation, each
    optional (a bare ``value:`` carries none), and the marks of an inherited value."""
    fields: dict[str, Any] = {}
    for name, info in [*Citation.model_fields.items(), *Inheritance.model_fields.items()]:
        annotation: Any = info.annotation
        optional = annotation | None
        fields[name] = (optional, Field(default=None, description=info.description))
    return create_model("CitedRule", __config__=ConfigDict(extra="forbid"), **fields)


def _profile_file_model() -> type[BaseModel]:
    """The JSON Schema's model: the file format of ``rules/profilefile.py`` with each rule's
    type and meaning from ``rules/profile.py``."""
    cited_base = _cited_base()
    groups: dict[str, Any] = {}
    for group, model in GROUPS.items():
        fields: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            value: dict[str, Any] = {VALUE_KEY: (info.annotation, ...)}
            cited = create_model(
                f"{model.__name__}{name.title().replace('_', '')}Cited",
                __base__=cited_base,
                **value,
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
    envelope: dict[str, Any] = {
        name: (rules if name == "rules" else info.annotation, info)
        for name, info in ProfileFile.model_fields.items()
    }
    return create_model(
        "VariantProfile",
        __config__=ConfigDict(extra="forbid"),
        __doc__=ProfileFile.__doc__,
        **envelope,
    )


def profile_schema() -> dict[str, Any]:
    return _profile_file_model().model_json_schema()


def scenario_schema() -> dict[str, Any]:
    return ScenarioModel.model_json_schema(by_alias=True)
