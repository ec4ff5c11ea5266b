"""The hostile catalogue, round five (tester B): YAML files refused in the user's words.

- A merge key (``<<: *defaults``) is refused at its line in one sentence (PyYAML's
  "could not determine a constructor for the tag ... merge" was shown, with the advice to
  quote the value, which makes a key ``<<``).
- ``replaces: "true"`` (quoted) is refused as what it is, text where true or false is wanted,
  at its line (the message said "say 'replaces: true'" of a line that says it).
- Keys that YAML 1.1 reads as booleans (``yes``, ``no``, ``on``, ``off``) are the words
  written: players called ``yes`` and ``on`` have their caves and hands (both keys were
  read as ``True`` and refused as "the key True appears twice"); two different words are
  never called one key.
- A value where a mapping is wanted, or a value of none of a union's forms, is answered in
  words: the keys wanted, every form allowed, at the field itself (never a Python class, nor
  a union's branch such as ``.int``).
- Through ``extends:``, a parent's bad rule is refused at the parent's file and line
  whichever profile is read (the child overriding it made it pass; a rule the child does not
  state was blamed on the child's ``rules:`` line).

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from bouillotte.rules.errors import InputError
from bouillotte.rules.yamlmodels import validated
from bouillotte.rules.yamlsource import parse_yaml

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup
from .test_catalogue_files import SCENARIO

PROFILE = "title: P\nsource: foster\nextends: foster\nrules:\n"
YES_NO = """id: yn
title: T
source: {work: foster, locator: x, status: constructed}
players: [yes, no, on, off]
dealer: off
caves: {yes: 10, no: 20, on: 30, off: 40}
hands: {yes: [AC, KC, 9C], no: [KS, 9D, 8D], on: [AS, QS, 9S], off: [AH, KH, QC]}
retourne: 9H
actions: [yes fold, no fold, on fold]
variants: [foster]
"""


def _files(texts: dict[str, str]) -> Callable[[Path], Cleanup]:
    """Files by name, in the case's folder."""

    def setup(tmp: Path) -> Cleanup:
        for name, text in texts.items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
        return None

    return setup


def _scenario(old: str, new: str) -> str:
    assert old in SCENARIO
    return SCENARIO.replace(old, new)


PARENT_BAD = "title: Q\nsource: foster\nextends: foster\nrules:\n  stakes: {cave: -5}\n"
CHILD = "title: P\nsource: foster\nextends: q\nrules:\n  stakes: {cave: 50}\n"
PARENT_UNFIT = "title: Q\nsource: foster\nextends: foster\nrules:\n  table: {hand_size: 5}\n"

CASES = [
    # -- (1) a merge key -------------------------------------------------------------------
    Case(
        "merge-key-in-a-scenario",
        ("run", "{tmp}/merge.yaml"),
        "merge.yaml:12: caves.<<: merge keys (<<: *name) are not read; write the keys out",
        setup=_files(
            {"merge.yaml": SCENARIO + "defaults: &d {A: 35, B: 60}\ncaves:\n  <<: *d\n  C: 120\n"}
        ),
        never=("constructor", "quote the value"),
    ),
    Case(
        "merge-key-in-a-profile",
        ("variants", "show", "p", "--variants", "{tmp}/pr"),
        "p.yaml:6: rules.stakes.<<: merge keys (<<: *name) are not read",
        setup=_files({"pr/p.yaml": PROFILE + "  stakes:\n    <<: {cave: 50}\n"}),
        never=("constructor",),
    ),
    Case(
        "merge-word-as-a-value-is-text",
        ("run", "{tmp}/t.yaml"),
        "<< — under foster",
        exit=0,
        setup=_files({"t.yaml": _scenario("title: Mine", "title: <<")}),
        one_line=False,
    ),
    # -- (2) replaces: "true" --------------------------------------------------------------
    Case(
        "replaces-quoted-true-of-a-bundled-id",
        ("variants", "list", "--variants", "{tmp}/rp"),
        'rp/foster.yaml:3: replaces: Input should be true or false, unquoted ("true" in quotes '
        "is text)",
        setup=_files(
            {"rp/foster.yaml": 'title: P\nsource: foster\nreplaces: "true"\nextends: pagat\n'}
        ),
        never=("say 'replaces: true'",),
    ),
    Case(
        "replaces-quoted-true-of-a-new-id",
        ("variants", "list", "--variants", "{tmp}/rp"),
        'rp/p.yaml:3: replaces: Input should be true or false, unquoted ("true" in quotes is text)',
        setup=_files({"rp/p.yaml": 'title: P\nsource: foster\nreplaces: "true"\nextends: pagat\n'}),
    ),
    Case(
        "replaces-false-of-a-bundled-id",
        ("variants", "list", "--variants", "{tmp}/rp"),
        "rp/foster.yaml:3: the id 'foster' (the file's name) is already the bundled profile",
        setup=_files(
            {"rp/foster.yaml": "title: P\nsource: foster\nreplaces: false\nextends: pagat\n"}
        ),
    ),
    # -- (3) keys read by YAML 1.1 as booleans ---------------------------------------------
    Case(
        "players-yes-no-on-off-have-caves-and-hands",
        ("run", "{tmp}/yn.yaml"),
        "under foster",
        exit=0,
        setup=_files({"yn.yaml": YES_NO}),
        never=("True", "appears twice"),
        one_line=False,
    ),
    Case(
        "a-word-key-given-twice-is-named-as-written",
        ("run", "{tmp}/yn.yaml"),
        "yn.yaml:6: the key 'yes' appears twice",
        setup=_files({"yn.yaml": YES_NO.replace("off: 40}", 'off: 40, "yes": 5}')}),
        never=("True",),
    ),
    # -- (4) a value where a mapping is wanted ---------------------------------------------
    Case(
        "scenario-source-a-single-word",
        ("run", "{tmp}/src.yaml"),
        "src.yaml:3: source: Input should be a mapping, as in "
        "{work: ..., locator: ..., status: ...}",
        setup=_files(
            {"src.yaml": _scenario('{work: foster, locator: "x", status: constructed}', "foster")}
        ),
        never=("SourceRef", "instance of"),
    ),
    Case(
        "session-deal-a-number",
        ("session", "{tmp}/s5.yaml"),
        "s5.yaml:4: deals.0: Input should be a mapping (its keys:",
        setup=_files(
            {"s5.yaml": "variant: foster\nplayers: [A, B, C, D]\ndealer: D\ndeals: [5]\n"}
        ),
        never=("DealSpec", "instance of"),
    ),
    Case(
        "bibliography-work-a-number",
        ("sources", "--variants", "{tmp}/sv"),
        "sources.yaml:1: works.w1: Input should be a mapping, as in {author: ..., title: ...",
        setup=_files({"sv/sources.yaml": "works: {w1: 5}\n"}),
        never=("instance of Work",),
    ),
    Case(
        "expect-pot-a-number",
        ("run", "{tmp}/t.yaml"),
        "t.yaml:12: expect.foster.pots.0: Input should be a mapping",
        setup=_files({"t.yaml": SCENARIO + "expect:\n  foster:\n    pots: [5]\n"}),
        never=("ExpectPot", "instance of"),
    ),
    Case(
        "glossary-term-a-word",
        ("sources", "--variants", "{tmp}/g"),
        "glossary.yaml:1: terms.0: Input should be a mapping",
        setup=_files({"g/glossary.yaml": "terms: [brelan]\n"}),
        never=("Term", "instance of"),
    ),
    # -- (5) a rule of a number or a word --------------------------------------------------
    Case(
        "rule-number-or-word-misspelt",
        ("variants", "show", "p", "--variants", "{tmp}/pr"),
        "p.yaml:5: rules.stakes.rebuy_amount: takes a whole number or players-option "
        "(did you mean 'players-option'?) (value: 'Players-Option')",
        setup=_files({"pr/p.yaml": PROFILE + "  stakes: {rebuy_amount: Players-Option}\n"}),
        never=(".int", "valid integer"),
    ),
    Case(
        "rule-number-or-word-a-fraction",
        ("variants", "show", "p", "--variants", "{tmp}/pr"),
        "p.yaml:5: rules.void_deals.carried_pool_stake: takes a whole number or blind-and-antes "
        "(value: 2.5)",
        setup=_files({"pr/p.yaml": PROFILE + "  void_deals: {carried_pool_stake: 2.5}\n"}),
        never=(".int", "literal["),
    ),
    # -- (6) extends: a parent's bad rule --------------------------------------------------
    Case(
        "parent-bad-rule-overridden-by-the-child",
        ("odds", "--variants", "{tmp}/ch", "-v", "p"),
        "ch/q.yaml:5: rules.stakes.cave: Input should be greater than or equal to 1 (value: -5)",
        setup=_files({"ch/q.yaml": PARENT_BAD, "ch/p.yaml": CHILD}),
    ),
    Case(
        "parent-bad-rule-variants-show-child",
        ("variants", "show", "p", "--variants", "{tmp}/ch"),
        "ch/q.yaml:5: rules.stakes.cave: Input should be greater than or equal to 1 (value: -5)",
        setup=_files({"ch/q.yaml": PARENT_BAD, "ch/p.yaml": CHILD}),
    ),
    Case(
        "parent-rules-unfit-blamed-on-the-parent",
        ("variants", "show", "p", "--variants", "{tmp}/ch"),
        "ch/q.yaml:4: rules.table.packs: 16 cards cannot deal 5",
        setup=_files({"ch/q.yaml": PARENT_UNFIT, "ch/p.yaml": CHILD}),
        never=("p.yaml",),
    ),
    Case(
        "child-rules-unfit-blamed-on-the-child",
        ("variants", "show", "p", "--variants", "{tmp}/ch"),
        "ch/p.yaml:4: rules.table.packs: 16 cards cannot deal 5",
        setup=_files(
            {
                "ch/q.yaml": "title: Q\nsource: foster\nextends: foster\n",
                "ch/p.yaml": CHILD.replace("stakes: {cave: 50}", "table: {hand_size: 5}"),
            }
        ),
        never=("q.yaml",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_message(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_two_words_read_as_one_key_are_named_as_written() -> None:
    for text, words in (
        ("m:\n  true: 1\n  1: 2\n", "'true' and '1'"),
        ("m:\n  0: 1\n  -0: 2\n", "'0' and '-0'"),
    ):
        with pytest.raises(InputError) as error:
            parse_yaml(text, Path("k.yaml"))
        assert f"k.yaml:3: m: the keys {words} are read as one key" in str(error.value)


def test_yaml_11_boolean_keys_are_the_words_written() -> None:
    doc = parse_yaml("m: {yes: 1, on: 2, No: 3, OFF: 4, true: 5}\n", Path("k.yaml"))
    assert doc.data == {"m": {"yes": 1, "on": 2, "No": 3, "OFF": 4, True: 5}}


def test_a_union_is_named_by_its_forms_at_its_field() -> None:
    class Meaning(BaseModel):
        model_config = ConfigDict(extra="forbid")
        value: str | bool | int | None
        size: int | Literal["any", "all"] = 1

    doc = parse_yaml("value: 1.5\n", Path("m.yaml"))
    with pytest.raises(InputError) as error:
        validated(Meaning, doc)
    assert str(error.value) == (
        "m.yaml:1: value: takes text, true or false, a whole number or nothing (null) (value: 1.5)"
    )
    doc = parse_yaml("value: x\nsize: alll\n", Path("m.yaml"))
    with pytest.raises(InputError) as error:
        validated(Meaning, doc)
    assert str(error.value) == (
        "m.yaml:2: size: takes a whole number, any or all (did you mean 'all'?) (value: 'alll')"
    )


def test_no_message_names_a_python_type() -> None:
    class Inner(BaseModel):
        model_config = ConfigDict(extra="forbid")
        a: int

    class Outer(BaseModel):
        model_config = ConfigDict(extra="forbid")
        inner: Inner
        table: dict[Literal["A", "K"], int] = {}
        items: list[str] = []

    for text, said in (
        ("inner: 5\n", "m.yaml:1: inner: Input should be a mapping, as in {a: ...} (value: 5)"),
        ("inner: {a: 1}\ntable: 5\n", "m.yaml:2: table: Input should be a mapping (value: 5)"),
        ("inner: {a: 1}\nitems: 5\n", "m.yaml:2: items: Input should be a valid list (value: 5)"),
    ):
        with pytest.raises(InputError) as error:
            validated(Outer, parse_yaml(text, Path("m.yaml")))
        assert str(error.value) == said
        for python in ("Inner", "dict[", "typing.", "Literal", "instance"):
            assert python not in str(error.value)
