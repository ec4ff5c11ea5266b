"""The hostile catalogue, round five (tester B): YAML files given, read as they are written.

- An explicit YAML tag on a value it cannot make (``!!bool 1``, ``!!timestamp foo``,
  ``!!int ""``) is one line at its file, line and field, in any file the tool reads (PyYAML's
  constructors fail on them with ``KeyError``, ``AttributeError``, ``IndexError``).
- A tag that is not the node's own kind (``!!map`` on a list or on a single value, ``!!seq``
  on a value, ``!!str`` on a mapping, ``!!python/...``, ``!!set``, any ``!tag`` of one's own)
  is refused at its line; a list tagged ``!!seq`` and a mapping tagged ``!!map`` read as
  they are.
- The 32-profile limit on ``extends:`` chains is found at the same profile (the first whose
  chain is too long) by every command, whatever order it reads the profiles in.
- An action's amount has at most as many digits as a number in YAML (30): 5,000 digits
  were a traceback.
- A point value is 0 to 100 and a pack is for 2 to 6 players; a rank written as a number
  (``9:``, ``[A, K, 9, 8]``, ``favori_rank: 10``) is the rank written; the fault of a rank
  without a point value names ``rules.table.point_values`` at its own line.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play import actions
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import MAX_EXTENDS, Library
from bouillotte.rules.yamlmodels import validated
from bouillotte.rules.yamlsource import MAX_INT_DIGITS, parse_yaml

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup
from .test_catalogue_files import SCENARIO, _file

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "title: P\nsource: foster\nextends: foster\nrules:\n"
POINTS = '{A: 11, K: 10, Q: 10, J: 10, "10": 10, "9": 9, "8": 8, "7": 7}'
NINES = "9" * 5000


def _scenario(old: str, new: str) -> str:
    """The scenario above with one line changed (``old`` must be there)."""
    assert old in SCENARIO
    return SCENARIO.replace(old, new)


def _chain(count: int, folder: str = "ext") -> Callable[[Path], Cleanup]:
    """``e1`` extends foster, ``e2`` extends ``e1``... up to ``e<count>``."""

    def setup(tmp: Path) -> Cleanup:
        (tmp / folder).mkdir()
        for i in range(1, count + 1):
            parent = "foster" if i == 1 else f"e{i - 1}"
            (tmp / folder / f"e{i}.yaml").write_text(
                f"title: E{i}\nsource: foster\nextends: {parent}\n", encoding="utf-8"
            )
        return None

    return setup


def _big_action(tmp: Path) -> Cleanup:
    text = (ROOT / "scenarios" / "foster-sight.yaml").read_text("utf-8")
    assert "  - C raise 85\n" in text
    (tmp / "act-big.yaml").write_text(
        text.replace("  - C raise 85\n", f'  - "C raise {NINES}"\n'), "utf-8"
    )
    return None


SESSION = f"""id: s
title: S
variant: foster
players: [A, B, C, D]
dealer: D
deals:
  - hands: {{A: [AS, QS, 8H], B: [AH, QH, 9D], C: [KS, KH, KD], D: [AD, 8S, 8C]}}
    retourne: 9C
    actions: [A bet {NINES}, B fold, C call, D fold]
"""

# the first profile of the chain e1..e40 whose chain (itself, the profiles below it, foster)
# holds more than 32 profiles: e32
TOO_LONG = f"e{MAX_EXTENDS}.yaml:3: extends: 'extends:' chains more than 32 profiles"

CASES = [
    # -- (a) a tag on a value it cannot make -------------------------------------------------
    *[
        Case(
            f"tagged-{name}-title",
            ("run", "{tmp}/tag.yaml"),
            f"tag.yaml:1: title: {says}",
            setup=_file("tag.yaml", f"title: {value}\n"),
        )
        for name, value, says in (
            ("bool-1", "!!bool 1", "not a valid bool"),
            ("timestamp-foo", "!!timestamp foo", "not a date"),
            ("int-empty", '!!int ""', "not a valid int"),
            ("float-empty", '!!float ""', "not a valid float"),
            ("bool-empty", '!!bool ""', "not a valid bool"),
        )
    ],
    Case(
        "tagged-bool-1-in-a-scenarios-caves",
        ("run", "{tmp}/s.yaml"),
        "s.yaml:10: caves.A: not a valid bool",
        setup=_file("s.yaml", SCENARIO + "caves: {A: !!bool 1, B: 100, C: 100, D: 100}\n"),
    ),
    Case(
        "tagged-int-empty-in-a-profile",
        ("variants", "show", "p", "--variants", "{tmp}/pr"),
        "p.yaml:5: rules.stakes.cave: not a valid int",
        setup=_file("pr/p.yaml", PROFILE + '  stakes: {cave: !!int ""}\n'),
    ),
    Case(
        "tagged-timestamp-foo-in-a-session",
        ("session", "{tmp}/s.yaml"),
        "s.yaml:2: title: not a date",
        setup=_file("s.yaml", SESSION.replace("title: S", "title: !!timestamp foo")),
    ),
    # -- (b) a tag that is not the node's own kind -----------------------------------------
    *[
        Case(
            f"tag-{name}",
            ("check", "{tmp}/s.yaml"),
            says,
            setup=_file("s.yaml", _scenario(old, new)),
        )
        for name, old, new, says in (
            (
                "python-object-on-a-list",
                "players: [A, B, C, D]",
                "players: !!python/object/apply:os.system [A, B, C, D]",
                "s.yaml:4: players: the YAML tag !!python/object/apply:os.system does not "
                "fit a list",
            ),
            (
                "str-on-a-mapping",
                "hands: {A:",
                "hands: !!str {A:",
                "s.yaml:6: hands: the YAML tag !!str does not fit a mapping",
            ),
            (
                "map-on-a-list",
                "variants: [foster]",
                "variants: !!map [foster]",
                "s.yaml:9: variants: the YAML tag !!map does not fit a list",
            ),
            (
                "map-on-a-value",
                "variants: [foster]",
                "variants: [foster]\nexpect: !!map x",
                "s.yaml:10: expect: the YAML tag !!map does not fit a single value",
            ),
            (
                "seq-on-a-value",
                "variants: [foster]",
                "variants: [foster]\nstifled: !!seq D",
                "s.yaml:10: stifled: the YAML tag !!seq does not fit a single value",
            ),
            (
                "set-on-a-mapping",
                "variants: [foster]",
                "variants: [foster]\nexpect: !!set {foster}",
                "s.yaml:10: expect: the YAML tag !!set does not fit a mapping",
            ),
            (
                "own-tag-on-a-value",
                "title: Mine",
                "title: !mine Mine",
                "s.yaml:2: title: the YAML tag !mine does not fit a single value",
            ),
            (
                "own-tag-on-a-mapping",
                "source: {work",
                "source: !mine {work",
                "s.yaml:3: source: the YAML tag !mine does not fit a mapping",
            ),
            (
                "python-name-on-a-key",
                "dealer: D",
                "!!python/name:os.system dealer: D",
                "s.yaml:5: the YAML tag !!python/name:os.system does not fit a single value",
            ),
        )
    ],
    Case(
        "tags-of-the-nodes-own-kind-read",
        ("run", "{tmp}/s.yaml"),
        "Mine",
        exit=0,
        setup=_file(
            "s.yaml",
            _scenario("variants: [foster]", "variants: !!seq [foster]")
            .replace("hands: {A:", "hands: !!map {A:")
            .replace("title: Mine", "title: !!str Mine"),
        ),
        one_line=False,
    ),
    # -- (c) the extends chain too long, found at the same profile by every command --------
    *[
        Case(f"extends-chain-of-40-{name}", argv, TOO_LONG, setup=_chain(40))
        for name, argv in (
            ("variants-list", ("variants", "list", "--variants", "{tmp}/ext")),
            ("odds", ("odds", "--variants", "{tmp}/ext")),
            ("odds-of-e40", ("odds", "--variants", "{tmp}/ext", "-v", "e40")),
            ("show-e40", ("variants", "show", "e40", "--variants", "{tmp}/ext")),
            ("show-e33", ("variants", "show", "e33", "--variants", "{tmp}/ext")),
            ("show-e32", ("variants", "show", "e32", "--variants", "{tmp}/ext")),
        )
    ],
    Case(
        "extends-chain-of-32-reads",
        ("variants", "show", "e31", "--variants", "{tmp}/ext"),
        "E31",
        exit=0,
        setup=_chain(31),
        one_line=False,
    ),
    # -- (d) an action's amount of 5,000 digits ----------------------------------------------
    *[
        Case(
            f"action-amount-of-5000-digits-{command}",
            (command, "{tmp}/act-big.yaml", *more),
            f"act-big.yaml:36: actions.2: 'C raise {'9' * 20}...': the amount has 5,000 "
            f"digits; an amount has at most {MAX_INT_DIGITS}",
            setup=_big_action,
        )
        for command, more in (("run", ("-v", "foster")), ("check", ()), ("compare", ()))
    ],
    Case(
        "action-amount-of-5000-digits-in-a-session",
        ("session", "{tmp}/s.yaml"),
        f"s.yaml:9: deals.0.actions.0: 'A bet {'9' * 20}...': the amount has 5,000 digits",
        setup=_file("s.yaml", SESSION),
    ),
    # -- (e) the numbers of the table rules bounded --------------------------------------------
    Case(
        "point-value-negative",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "p.yaml:5: rules.table.point_values.A: Input should be greater than or equal to 0 "
        "(value: -11)",
        setup=_file(
            "pr/p.yaml", PROFILE + f"  table: {{point_values: {POINTS}}}\n".replace("11", "-11")
        ),
    ),
    Case(
        "point-value-of-30-digits",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "p.yaml:5: rules.table.point_values.A: Input should be less than or equal to 100",
        setup=_file(
            "pr/p.yaml",
            PROFILE + f"  table: {{point_values: {POINTS}}}\n".replace("11", "1" + "0" * 29),
        ),
    ),
    Case(
        "pack-for-9-players",
        ("variants", "show", "p", "--variants", "{tmp}/pr"),
        "p.yaml:6: rules.table.packs: a pack for 9 players; a table seats 2 to 6",
        setup=_file(
            "pr/p.yaml",
            PROFILE + "  table:\n    packs: {4: [A, K, Q, '9', '8'], 9: [A, K, Q, J, '10']}\n",
        ),
    ),
    # -- (f) a rank written as a number; the fault of a missing point value at its line --------
    Case(
        "point-values-missing",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "p.yaml:5: rules.table.point_values: gives no value for K Q J 9 8",
        setup=_file("pr/p.yaml", PROFILE + "  table: {point_values: {A: 12}}\n"),
    ),
    Case(
        "ranks-written-as-numbers-read",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "given the point",
        exit=0,
        setup=_file(
            "pr/p.yaml",
            PROFILE + "  table:\n"
            "    point_values: {A: 11, K: 10, Q: 10, J: 10, 10: 10, 9: 9, 8: 8, 7: 7}\n"
            '    packs: {3: [A, K, 9, 8], 4: [A, K, Q, "9", "8"], 5: [A, K, Q, J, 9, 8]}\n',
        ),
        one_line=False,
    ),
    Case(
        "rank-key-given-twice",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "p.yaml:5: the key 9 appears twice",
        setup=_file(
            "pr/p.yaml",
            PROFILE + f"  table: {{point_values: {POINTS[:-1]}, 9: 9}}}}\n",
        ),
    ),
    Case(
        "rank-key-not-a-rank",
        ("odds", "--variants", "{tmp}/pr", "-v", "p"),
        "p.yaml:5: rules.table.point_values.11",
        setup=_file(
            "pr/p.yaml",
            PROFILE + f"  table: {{point_values: {POINTS[:-1]}, 11: 9}}}}\n",
        ),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_yaml(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


@pytest.mark.parametrize("first", [(), ("e10",), ("e31",), ("e33",), ("e40",), ("e10", "e33")])
def test_the_extends_limit_is_found_at_the_same_profile_whatever_is_read_first(
    first: tuple[str, ...], case_dir: Path
) -> None:
    _chain(40)(case_dir)
    library = Library([case_dir / "ext"])
    for variant_id in first:  # read (and cached, where it can be) before
        with contextlib.suppress(InputError):
            library.get(variant_id)
    for asked in ("e40", "e32"):
        with pytest.raises(InputError) as error:
            library.get(asked)
        assert Path(str(error.value.file)).name == f"e{MAX_EXTENDS}.yaml"
        assert (error.value.line, error.value.field) == (3, "extends")
    with pytest.raises(InputError) as error:
        library.all()
    assert Path(str(error.value.file)).name == f"e{MAX_EXTENDS}.yaml"
    assert library.get("e31").id == "e31"


def test_an_amount_has_as_many_digits_as_a_yaml_number() -> None:
    most = getattr(actions, "MAX_AMOUNT_DIGITS", None)
    assert most == MAX_INT_DIGITS
    assert actions.parse_action("C raise " + "9" * most).amount == int("9" * most)
    with pytest.raises(actions.ActionSyntaxError, match="the amount has 31 digits"):
        actions.parse_action("C raise " + "9" * (most + 1))
    with pytest.raises(actions.ActionSyntaxError, match="the amount has 5,000 digits"):
        actions.parse_action("C raise " + NINES)


def test_a_favori_rank_written_as_a_number_is_the_rank() -> None:
    text = (ROOT / "scenarios" / "brelan-18th-declared-favori.yaml").read_text("utf-8")
    runner = CliRunner()
    outputs = []
    with tempfile.TemporaryDirectory() as folder:
        for rank in ('"10"', "10"):
            path = Path(folder) / "fr.yaml"
            path.write_text(text.replace("favori_rank: K", f"favori_rank: {rank}"), "utf-8")
            result = runner.invoke(app, ["run", str(path), "--json"])
            assert result.exit_code in (0, 1), result.output
            outputs.append(result.stdout)
    assert outputs[0] == outputs[1]


def test_a_key_at_fault_is_named_at_its_line_without_a_marker() -> None:
    class Points(BaseModel):
        model_config = ConfigDict(extra="forbid")
        values: dict[Literal["A", "10", "9"], int]

    doc = parse_yaml("values:\n  10: 10\n  9: 9\n  11: 11\n", Path("m.yaml"))
    with pytest.raises(InputError) as error:
        validated(Points, doc)
    assert str(error.value) == (
        "m.yaml:4: values.11: Input should be 'A', '10' or '9' (value: '11')"
    )
    doc = parse_yaml("values:\n  10: 10\n  9: 9\n", Path("m.yaml"))
    assert validated(Points, doc).values == {"10": 10, "9": 9}


def test_collection_tags_of_their_own_kind_read() -> None:
    doc = parse_yaml("a: !!seq [1, 2]\nb: !!map {c: d}\nc: ! [x]\n", Path("t.yaml"))
    assert doc.data == {"a": [1, 2], "b": {"c": "d"}, "c": ["x"]}
