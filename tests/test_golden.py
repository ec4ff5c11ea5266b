"""Golden transcripts: every bundled scenario under every variant, diffed with its file.

A failure prints the unified diff. After a deliberate change, regenerate from the
repository root with ``bouillotte golden --write`` and review ``git diff tests/golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.cli.commands.golden import Golden, golden_diff, goldens, stale_files

pytestmark = pytest.mark.slow  # every scenario under every system, against its transcript

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
GOLDENS = list(goldens())


def test_the_library_has_transcripts() -> None:
    assert GOLDENS, "no bundled scenario runs under any variant"


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_transcript_matches_its_golden_file(golden: Golden) -> None:
    diff = golden_diff(golden, GOLDEN_DIR)
    assert not diff, (
        "transcript differs from its golden file (regenerate with `bouillotte golden "
        "--write` if the change is intended):\n" + "\n".join(diff)
    )


def test_no_stale_golden_files() -> None:
    stale = stale_files({g.name for g in GOLDENS}, GOLDEN_DIR)
    assert not stale, f"golden files for no scenario and variant: {[p.name for p in stale]}"


def test_transcripts_are_deterministic() -> None:
    again = {g.name: g.text for g in goldens()}
    assert again == {g.name: g.text for g in GOLDENS}
