"""The examples in the docstrings run, and give what they show.

``Deal`` (play/deal.py) and ``Variant`` (rules/variant.py) each carry one whole deal as a
doctest, for a newcomer to paste into ``python``; this runs them, and any example added to
another module's docstrings, so that none goes stale.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import bouillotte

PACKAGE = Path(bouillotte.__file__).parent


def modules_with_examples() -> list[str]:
    """The engine's modules whose source holds a doctest prompt."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            found.append(".".join(parts).removesuffix(".__init__"))
    return found


def test_the_deal_and_the_variant_carry_an_example() -> None:
    assert {"bouillotte.play.deal", "bouillotte.rules.variant"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_examples_give_what_they_show(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [test for test in finder.find(module) if test.examples]
    assert tests, f"{name} has '>>> ' in its source but no example in its docstrings"
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of the examples in {name} failed (above)"
