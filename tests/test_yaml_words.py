"""YAML 1.1 reads ``no``, ``yes``, ``on`` and ``off`` as booleans: where a model wants text,
the word is the text as written (``language: no`` is Norwegian), and elsewhere it is refused
with the word, never ``False``, as the value."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.rules.yamlmodels import validated
from bouillotte.rules.yamlsource import parse_yaml


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    flag: bool
    side: Literal["left", "right"] = "left"
    notes: list[str] = []


def test_a_word_read_as_a_boolean_is_the_text_where_text_is_wanted(tmp_path: Path) -> None:
    doc = parse_yaml("name: off\nflag: yes\nnotes: [on, No, maybe]\n", tmp_path / "row.yaml")
    row = validated(_Row, doc)
    assert row.name == "off"
    assert row.flag is True  # a boolean field keeps YAML's boolean
    assert row.notes == ["on", "No", "maybe"]
    assert doc.data["name"] is False  # the document itself is left as it was read


def test_a_word_where_text_is_not_wanted_is_refused_with_the_word(tmp_path: Path) -> None:
    doc = parse_yaml("name: x\nflag: yes\nside: on\n", tmp_path / "row.yaml")
    with pytest.raises(InputError) as caught:
        validated(_Row, doc)
    message = str(caught.value)
    assert "row.yaml:3" in message and "side" in message
    assert "'on'" in message and "False" not in message and "True" not in message


def test_a_work_in_norwegian_is_in_norwegian(tmp_path: Path) -> None:
    (tmp_path / "sources.yaml").write_text(
        "works:\n  hoyle-no:\n    author: Anon\n    title: Kortspill\n    year: '1900'\n"
        "    language: no\n",
        encoding="utf-8",
    )
    assert Library([tmp_path]).works["hoyle-no"].language == "no"
