"""Profiles load, cite their rules, and bad profiles fail with file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import differing_rules

CHILD = """\
title: My system
source: foster
extends: foster
rules:
  stakes:
    cave: 50
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_profiles_are_listed(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "list", "--json"])
    assert result.exit_code == 0, result.output
    ids = {row["id"] for row in json.loads(result.stdout)}
    assert {"foster", "foster-three", "foster-five", "pagat"} <= ids


def test_player_counts_and_packs(library: Library) -> None:
    sizes = {v: len(library.get(v).rules.table.pack_ranks()) * 4 for v in library.ids()}
    assert sizes["foster"] == 20 and sizes["foster-three"] == 16 and sizes["foster-five"] == 24
    assert library.get("foster-three").players == 3


def test_every_rule_of_the_primary_profiles_is_cited(library: Library) -> None:
    for vid in ("foster", "pagat"):
        variant = library.get(vid)
        for path in rule_paths():
            if path == "hands.mistigri_card":
                continue  # a parameter of a rule these systems do not have
            citation = variant.citation(path)
            assert citation is not None, f"{vid}: {path} has no citation"


def test_diff_foster_pagat_shows_each_side_with_its_quote(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "diff", "foster", "pagat", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rules = {d["rule"] for d in data["differences"]}
    assert {"betting.closing", "hands.favori", "point.suit_tie", "bonuses.paid_from"} <= rules
    for diff in data["differences"]:
        for vid in ("foster", "pagat"):
            assert diff[vid]["citation"] is not None, diff["rule"]


def test_child_profile_inherits_and_overrides(tmp_path: Path) -> None:
    write(tmp_path, "mine.yaml", CHILD)
    variant = Library([tmp_path]).get("mine")
    assert variant.rules.stakes.cave == 50
    assert variant.info["stakes.cave"].defined_in == "mine"
    assert variant.info["betting.closing"].defined_in == "foster"
    assert differing_rules(Library().get("foster"), variant) == ["stakes.cave"]


def test_show_marks_inherited_rules(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "show", "foster-three", "--json"])
    data = json.loads(result.stdout)
    by_rule = {r["rule"]: r for r in data["rules"]}
    assert by_rule["table.players"]["inherited_from"] is None
    assert by_rule["stakes.cave"]["inherited_from"] == "foster"


BAD_CASES = {
    "broken-yaml": ("title: x\nrules: [unclosed\n", 3, None, "not valid YAML"),
    "unknown-key": (CHILD + "    cavee: 5\n", 7, "rules.stakes.cavee", "unknown rule"),
    "wrong-type": (CHILD.replace("cave: 50", "cave: lots"), 6, "rules.stakes.cave", "integer"),
    "unknown-extends": (CHILD.replace("extends: foster", "extends: fostr"), 3, "extends", "fostr"),
    "unknown-source": (
        CHILD.replace("cave: 50", "cave: {value: 50, source: hoyle, status: inferred, reason: x}"),
        6,
        "rules.stakes.cave.source",
        "hoyle",
    ),
    "pack-too-small": (
        CHILD.replace("stakes:\n    cave: 50", "table:\n    players: 5\n    packs: {5: [A, K, Q]}"),
        7,
        "rules.table.packs",
        "cannot deal 3 to each of 5 players",
    ),
    "bad-status": (
        CHILD.replace("cave: 50", "cave: {value: 50, status: guessed}"),
        6,
        "rules.stakes.cave.status",
        "documented",
    ),
    "inferred-without-reason": (
        CHILD.replace("cave: 50", "cave: {value: 50, status: inferred}"),
        6,
        "rules.stakes.cave",
        "needs a 'reason'",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_profile_gives_file_line_field_and_exit_2(
    tmp_path: Path, runner: CliRunner, case: str
) -> None:
    text, line, field, words = BAD_CASES[case]
    file = write(tmp_path, "mine.yaml", text)
    with pytest.raises(InputError) as caught:
        Library([tmp_path]).get("mine")
    error = caught.value
    assert error.file == str(file)
    assert error.line == line, error.describe()
    if field:
        assert error.field == field, error.describe()
    assert words in error.describe()
    result = runner.invoke(app, ["variants", "show", "mine", "--variants", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{file}:{line}" in result.stderr
    assert "Traceback" not in result.output


def test_cycle_of_extends(tmp_path: Path, runner: CliRunner) -> None:
    write(tmp_path, "one.yaml", "title: One\nsource: foster\nextends: two\n")
    write(tmp_path, "two.yaml", "title: Two\nsource: foster\nextends: one\n")
    with pytest.raises(InputError) as caught:
        Library([tmp_path]).get("one")
    assert "cycle" in caught.value.message and "one -> two -> one" in caught.value.message
    assert caught.value.line == 3
    result = runner.invoke(app, ["variants", "show", "one", "--variants", str(tmp_path)])
    assert result.exit_code == 2 and "cycle" in result.stderr


def test_root_profile_must_state_every_rule(tmp_path: Path) -> None:
    write(tmp_path, "bare.yaml", "title: Bare\nsource: foster\nrules:\n  stakes:\n    cave: 5\n")
    with pytest.raises(InputError) as caught:
        Library([tmp_path]).get("bare")
    assert "must state every rule" in caught.value.message


def test_unknown_variant_on_the_command_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "show", "fostre"])
    assert result.exit_code == 2
    assert "unknown variant 'fostre'" in result.stderr and "foster" in result.stderr


def test_schema_describes_profiles(runner: CliRunner) -> None:
    result = runner.invoke(app, ["schema", "profile"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert "rules" in schema["properties"]
    text = result.stdout
    assert "calling-privilege" in text and "the suit that wins cannot lose" in text.lower()


def test_the_schema_accepts_every_bundled_profile_and_refuses_a_stray_key() -> None:
    """The schema for editors and the loader read one description of the file
    (``rules/profilefile.py``): what the tool reads, an editor must not flag."""
    from pydantic import ValidationError

    from bouillotte.rules.yamlsource import read_yaml
    from bouillotte.study.schema import _profile_file_model

    model = _profile_file_model()
    library = Library()
    for variant_id in library.ids():
        model.model_validate(read_yaml(library.files[variant_id]).data)
    foster = read_yaml(library.files["foster"]).data
    with pytest.raises(ValidationError, match="colour"):
        model.model_validate({**foster, "colour": "red"})
    cave = {"value": 100, "status": "documented", "quote": "q", "pages": 3}
    with pytest.raises(ValidationError, match="pages"):
        model.model_validate({**foster, "rules": {"stakes": {"cave": cave}}})
