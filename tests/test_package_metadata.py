"""What a package index and a citation manager read of the project: the licence, the
classifiers, the changelog and ``CITATION.cff`` (validated against the Citation File Format
1.2.0 schema, tests/data/README.md), each agreeing with ``pyproject.toml``."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "data" / "cff-schema-1.2.0.json").read_text())


def _project() -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["project"])


def _citation() -> dict[str, Any]:
    # CFF is YAML 1.2: the date stays text (quoted in the file), as the schema wants.
    data: dict[str, Any] = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    return data


def test_citation_cff_is_valid_cff_1_2_0() -> None:
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(_citation())]
    assert errors == []


def test_the_schema_refuses_what_it_should() -> None:
    validator = jsonschema.Draft7Validator(SCHEMA)
    for broken in (
        {k: v for k, v in _citation().items() if k != "authors"},  # authors are required
        {**_citation(), "license": "MIT-ish"},  # not an SPDX identifier
        {**_citation(), "cff-version": "1.1.0"},  # another version's file
        {**_citation(), "abstrct": "typo"},  # no unknown keys
    ):
        assert not validator.is_valid(broken), broken


def test_citation_agrees_with_the_package() -> None:
    project, citation = _project(), _citation()
    assert citation["version"] == project["version"]
    assert citation["license"] == project["license"] == "MIT"
    assert citation["title"].startswith(project["name"] + ":")
    assert [a["name"] for a in citation["authors"]] == [a["name"] for a in project["authors"]]


def test_the_licence_file_is_the_declared_one() -> None:
    project = _project()
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_classifiers_name_the_pythons_supported() -> None:
    project = _project()
    classifiers = project["classifiers"]
    assert len(classifiers) == len(set(classifiers))
    least = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert least is not None
    minors = [
        int(c.rsplit(".", 1)[1])
        for c in classifiers
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert minors and min(minors) == int(least.group(1))
    assert "Typing :: Typed" in classifiers
    assert (ROOT / "engine" / "bouillotte" / "py.typed").is_file()  # what that promises


def test_every_classifier_is_one_pypi_knows_and_none_is_deprecated() -> None:
    """A classifier PyPI does not know makes an upload fail (hatchling refuses it at build
    time): checked here against the list PyPI uses, without building."""
    import trove_classifiers

    classifiers = _project()["classifiers"]
    assert [c for c in classifiers if c not in trove_classifiers.classifiers] == []
    assert [c for c in classifiers if c in trove_classifiers.deprecated_classifiers] == []
    assert "Topic :: Sociology :: History" in trove_classifiers.classifiers  # the test's list
    assert "Topic :: History" not in trove_classifiers.classifiers  # no such classifier


def test_the_changelog_has_the_version_and_the_sdist_ships_the_files() -> None:
    project = _project()
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {project['version']}\n" in changelog
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"LICENSE", "CHANGELOG.md", "CITATION.cff"} <= set(shipped)


def test_the_bundled_site_is_dated_by_the_release() -> None:
    """The bundled site's edition date is the day its version was released: the date
    CITATION.cff gives, for the version pyproject.toml gives."""
    from bouillotte.site.siteconfig import BUNDLED, DEFAULT, RELEASED

    assert _citation()["date-released"] == RELEASED.isoformat()
    assert BUNDLED.edition_date == RELEASED and DEFAULT.edition_date is None
    assert BUNDLED.model_copy(update={"edition_date": None}) == DEFAULT
