"""Generated YAML documents (random keys, types, nesting, shared values written as aliases,
alias bombs, NUL bytes, cut-off text) fed to the profile, scenario and session loaders:
each ends with success or with exit 2 and one message naming the file; never a traceback,
never more than a second (Hypothesis's deadline)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bouillotte.cli.app import app

pytestmark = pytest.mark.slow  # Hypothesis generates many YAML documents

KEYS = [
    "id", "title", "source", "work", "status", "locator", "players", "dealer", "hands",
    "retourne", "actions", "variants", "expect", "seed", "deck", "caves", "notes", "extends",
    "rules", "stakes", "cave", "forced_bets", "dealer_blind", "table", "deals", "count",
    "policy", "variant", "buy", "value", "quote", "reason", "summary", "net", "pots",
]  # fmt: skip
WORDS = [
    "1:40", "0100", "yes", "no", "~", "AS", "KS", "QH", "A bet 10", "B fold", "foster",
    "pagat", "documented", "constructed", "2001-01-01", "javascript:alert(1)", "A", "B", "C",
    "D", "simple", "<script>", "0x1F", ".inf",
]  # fmt: skip

TEXT = st.text(st.characters(codec="utf-8"), max_size=12)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.integers(10**40, 10**60),
    st.floats(allow_nan=False),
    TEXT,
    st.sampled_from(WORDS),
)
KEY = st.one_of(st.sampled_from(KEYS), TEXT.filter(bool), st.integers(0, 20))
TREE = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(KEY, kids, max_size=6),
    max_leaves=40,
)


def _containers(node: Any, found: list[Any], depth: int = 0) -> None:
    if isinstance(node, dict | list) and depth < 12 and len(found) < 200:
        found.append(node)
        for child in node.values() if isinstance(node, dict) else node:
            _containers(child, found, depth + 1)


# Good documents to start from, so that changes reach past the first check.
BASES: list[str] = [
    "",
    """id: mine
title: Mine
source: {work: foster, status: constructed}
players: [A, B, C, D]
dealer: D
hands: {A: [AS, KS, 8H], B: [QS, 9S, 9H], C: [8S, 8D, 9C], D: [AH, KH, QH]}
retourne: AD
actions: [A bet 10, B fold, C fold, D fold]
""",
    """title: Mine
source: foster
extends: foster
rules:
  stakes: {cave: 200}
  forced_bets: {dealer_blind: {value: 5, source: foster, status: inferred, reason: why}}
""",
    """variant: pagat
players: [A, B, C, D]
dealer: D
deals:
  - {seed: 3, count: 2}
  - {hands: {A: [AS, KS, 8H], B: [QS, 9S, 9H], C: [8S, 8D, 9C], D: [AH, KH, QH]},
     retourne: AD, actions: [A bet 10, B fold, C fold, D fold]}
""",
]


def _change(draw: st.DrawFn, node: Any) -> None:
    """Replace or add one value somewhere inside ``node``."""
    while True:
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        if not children or draw(st.integers(0, 2)) == 0:
            break
        key, child = draw(st.sampled_from(children))
        if not isinstance(child, dict | list) or draw(st.booleans()):
            node[key] = draw(TREE)
            return
        node = child
    if isinstance(node, dict):
        node[draw(KEY)] = draw(TREE)
    else:
        node.append(draw(TREE))


@st.composite
def documents(draw: st.DrawFn) -> str:
    doc: dict[Any, Any] = yaml.safe_load(draw(st.sampled_from(BASES))) or {}
    doc.update(draw(st.dictionaries(KEY, TREE, min_size=0 if doc else 1, max_size=6)))
    for _ in range(draw(st.integers(0, 3))):
        _change(draw, doc)
    containers: list[Any] = []
    _containers(doc, containers)
    # Shared values: the same object in two places is written as an anchor and an alias
    # (a container may even come to hold itself).
    for _ in range(draw(st.integers(0, 3))):
        target = draw(st.sampled_from(containers))
        shared = draw(st.sampled_from(containers))
        if isinstance(target, dict):
            target[draw(KEY)] = shared
        else:
            target.append(shared)
    if draw(st.booleans()):  # a bomb: levels of lists that each repeat the one below
        bomb: Any = "lol"
        for _ in range(draw(st.integers(1, 9))):
            bomb = [bomb] * draw(st.integers(2, 9))
        doc[draw(KEY)] = bomb
    text = yaml.safe_dump(doc, allow_unicode=True, default_flow_style=draw(st.booleans()))
    cut = draw(st.sampled_from(["whole", "nul", "cut"]))
    at = draw(st.integers(0, max(len(text) - 1, 0)))
    if cut == "nul":
        text = text[:at] + "\x00" + text[at:]
    elif cut == "cut":
        text = text[:at]
    return text


def _outcome(argv: list[str], file: Path) -> None:
    result = CliRunner().invoke(app, argv)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: Hypothesis reports the document
    assert result.exit_code in (0, 2), (result.exit_code, result.stdout, result.stderr)
    if result.exit_code == 2:
        message = result.stderr.strip()
        assert message.startswith("error: "), message
        assert str(file) in message, message


@settings(
    max_examples=60,
    # No deadline: a timed assertion fails on a loaded machine (1.4 s once, at load 20). A
    # document that would expand without bound is refused by the parser's own limits,
    # which tests/hostile/test_catalogue.py runs in a real process under its hang guard.
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=documents())
def test_generated_yaml_is_loaded_or_refused_with_a_message(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "profiles"
        folder.mkdir()
        profile = folder / "gen.yaml"
        profile.write_text(text, encoding="utf-8")
        _outcome(["variants", "show", "gen", "--variants", str(folder)], profile)
        scenario = Path(tmp) / "scenario.yaml"
        scenario.write_text(text, encoding="utf-8")
        _outcome(["run", str(scenario)], scenario)
        session = Path(tmp) / "session.yaml"
        session.write_text(text, encoding="utf-8")
        _outcome(["session", str(session)], session)
