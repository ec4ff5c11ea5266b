"""The schema's field docstrings are read once per module (``rules/docstrings.py``), not by
pydantic class by class: each field must get the very description pydantic's
``use_attribute_docstrings`` would give it."""

from __future__ import annotations

import importlib
import inspect
import sys
from types import ModuleType

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic._internal._docs_extraction import extract_docstrings_from_cls

from bouillotte.rules.docstrings import describe_fields

MODULES = [
    "bouillotte.rules.profile_table",
    "bouillotte.rules.profile_betting",
    "bouillotte.rules.profile_hands",
    "bouillotte.rules.readings",
    "bouillotte.rules.glossary",
    "bouillotte.study.scenario",
    "bouillotte.study.session_file",
]


def models_of(module: ModuleType) -> list[type[BaseModel]]:
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == module.__name__
    ]


def pydantic_descriptions(model: type[BaseModel]) -> dict[str, str | None]:
    """What ``use_attribute_docstrings`` gives each field: its own docstring, else the
    description it inherits (pydantic reads the class's source itself)."""
    own = extract_docstrings_from_cls(model, use_inspect=True)
    found: dict[str, str | None] = {}
    for name in model.model_fields:
        if name in inspect.get_annotations(model):
            found[name] = own.get(name)
        else:
            parent = next(b for b in model.__mro__[1:] if name in getattr(b, "model_fields", {}))
            found[name] = pydantic_descriptions(parent)[name]
    return found


@pytest.mark.parametrize("name", MODULES)
def test_every_field_is_described_as_pydantic_would(name: str) -> None:
    module = importlib.import_module(name)
    models = models_of(module)
    assert models
    described = 0
    for model in models:
        got = {field: info.description for field, info in model.model_fields.items()}
        assert got == pydantic_descriptions(model), model.__name__
        described += sum(1 for doc in got.values() if doc)
    assert described > 0


def test_the_descriptions_reach_the_json_schema() -> None:
    """The models are built after their fields are described, so the JSON Schema (which
    pydantic draws from the built model) carries each docstring."""
    from bouillotte.study.scenario import ScenarioModel

    schema = ScenarioModel.model_json_schema()
    for field, info in ScenarioModel.model_fields.items():
        if info.description:
            key = info.alias or field
            assert schema["properties"][key]["description"] == info.description


class Early(BaseModel):
    """A model built before its fields are described."""

    value: int
    """A number."""


def test_a_model_built_too_early_is_refused() -> None:
    """``describe_fields`` after the model is built would leave the built schema without
    the descriptions: it says so instead of doing it."""
    module = sys.modules[__name__]
    with pytest.raises(RuntimeError, match="Early was built before its fields"):
        describe_fields(module.__name__)


class Later(BaseModel):
    """A deferred model, described before it is first used."""

    model_config = ConfigDict(defer_build=True)

    count: int
    """How many,
        indented as a docstring is."""


def test_a_deferred_model_is_described_then_still_validates() -> None:
    fields = Later.model_fields
    fields["count"].description = None
    describe_fields_of_later()
    assert fields["count"].description == "How many,\nindented as a docstring is."
    with pytest.raises(ValidationError):
        Later.model_validate({"count": "many"})
    assert Later.model_json_schema()["properties"]["count"]["description"] == (
        "How many,\nindented as a docstring is."
    )


def describe_fields_of_later() -> None:
    """``describe_fields`` on this module, with ``Early`` (built) left out of it."""
    module = sys.modules[__name__]
    early = module.Early
    try:
        del module.Early
        describe_fields(module.__name__)
    finally:
        module.Early = early  # type: ignore[attr-defined]
