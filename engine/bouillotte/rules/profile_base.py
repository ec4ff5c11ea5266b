"""What every group of rules of the profile schema is made of: the base model of a group
(frozen, unknown keys refused, built only after its fields are described), the words of a
rule's values (:func:`value_labels`) and the ranks a pack may hold."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, JsonValue

VALUE_LABELS = "value_labels"
"""The key of a field's ``json_schema_extra`` that holds the words of its values."""


def value_labels(labels: dict[str, str]) -> dict[str, JsonValue]:
    """A rule's values in words, for its field's ``json_schema_extra``: every value the
    field's ``Literal`` allows, each with the few words a reader sees instead of it
    (``tests/test_profiles.py`` checks that none is missing and none is extra)."""
    return {VALUE_LABELS: dict(labels)}


Rank = Literal["A", "K", "Q", "J", "10", "9", "8", "7"]


class _Group(BaseModel):
    # Each field's docstring is its description (describe_fields at the end of the module),
    # so no model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
