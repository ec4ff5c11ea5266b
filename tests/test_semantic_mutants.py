"""The standing semantic mutants (``mutation/semantic/``): each still applies to the engine
as it is, and the runner reports a patch that does not apply, or that reaches outside
``engine/``, as an error, without touching the working tree. (Whether each mutant is killed
is what ``mutation/semantic/run`` itself checks: it runs the rule tests once per mutant.)"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "mutation" / "semantic"
PATCHES = sorted(FOLDER.glob("*.patch"))
needs_patch = pytest.mark.skipif(shutil.which("patch") is None, reason="needs GNU patch")


def _runner() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("semantic_run", str(FOLDER / "run"))
    spec = importlib.util.spec_from_loader("semantic_run", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["semantic_run"] = module
    loader.exec_module(module)
    return module


def _header(patch: Path) -> list[str]:
    lines = patch.read_text(encoding="utf-8").splitlines()
    return lines[: next(i for i, line in enumerate(lines) if line.startswith(("diff ", "--- ")))]


RULES = [p for p in PATCHES if not any(line.startswith("tests:") for line in _header(p))]
"""The rule mutants (of ``play/``, killed by the rule tests); the others name their tests."""


def test_there_is_a_standing_set_of_fifteen_to_twenty_five_rule_mutants() -> None:
    assert 15 <= len(RULES) <= 25
    assert len(PATCHES) > len(RULES), "no mutant of the code outside the rules"


@needs_patch
@pytest.mark.parametrize("patch", PATCHES, ids=[p.stem for p in PATCHES])
def test_each_mutant_says_what_it_breaks_and_still_applies(patch: Path) -> None:
    text = patch.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first and not first.startswith(("---", "+++", "@@", "tests:"))
    files = [line[4:] for line in text.splitlines() if line.startswith("+++ ")]
    where = "b/engine/bouillotte/play/" if patch in RULES else "b/engine/bouillotte/"
    assert files and all(f.startswith(where) for f in files)
    if patch not in RULES:  # the tests that must kill it exist, and the runner reads them
        named = _runner().own_tests(patch)
        assert named and all((ROOT / name).is_file() for name in named), named
    dry = subprocess.run(
        ["patch", "-p1", "--dry-run", "--batch", "--forward", "-s", "-i", str(patch)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert dry.returncode == 0, dry.stdout + dry.stderr


@needs_patch
def test_a_stale_patch_or_one_outside_the_engine_is_an_error(tmp_path: Path) -> None:
    runner = _runner()
    before = (ROOT / "engine/bouillotte/play/pots.py").read_text(encoding="utf-8")
    stale = tmp_path / "stale.patch"
    stale.write_text(
        "A line that is no longer there\n\n--- a/engine/bouillotte/play/pots.py\n"
        "+++ b/engine/bouillotte/play/pots.py\n@@ -1,1 +1,1 @@\n-no such line\n+x\n",
        encoding="utf-8",
    )
    verdict = runner.run_one(stale, [])
    assert (verdict.outcome, verdict.detail.split(":")[0]) == (
        "error",
        "the patch no longer applies",
    )
    outside = tmp_path / "outside.patch"
    outside.write_text(
        "A test changed\n\n--- a/tests/conftest.py\n+++ b/tests/conftest.py\n"
        "@@ -1,1 +1,1 @@\n-x\n+y\n",
        encoding="utf-8",
    )
    verdict = runner.run_one(outside, [])
    assert verdict.outcome == "error" and "only engine/" in verdict.detail
    assert (ROOT / "engine/bouillotte/play/pots.py").read_text(encoding="utf-8") == before
