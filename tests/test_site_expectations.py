"""``site build`` checks every scenario's ``expect`` as ``check`` does: a deal that does not
end as its scenario says refuses the build (exit 2, the file and line, the expected and the
actual value), unless ``--allow-mismatch``, which builds and marks it on the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.resources import bundled

# opening-minimum's own block for CardRulesPlus: the pot of 14 goes to C (the dealer's
# blind 1, each other's ante 1, C's opening 6 met by D: 1 + 3 + 5 + 5). Written 15 here.
RIGHT = "      - {amount: 14, winner: C, contenders: [C, D]}\n    bonuses: []\n    net: {A: -1"
WRONG = "      - {amount: 15, winner: C, contenders: [C, D]}\n    bonuses: []\n    net: {A: -1"


def _wrong_scenario(folder: Path) -> tuple[Path, int]:
    text = (bundled("scenarios") / "opening-minimum.yaml").read_text(encoding="utf-8")
    assert text.count(RIGHT) == 2  # CardRulesPlus's block, then the all-ante card's
    text = text.replace("id: opening-minimum\n", "id: opening-minimum-wrong\n", 1)
    text = text.replace(RIGHT, WRONG, 1)
    folder.mkdir()
    path = folder / "opening-minimum-wrong.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    line = lines.index("  cardrulesplus:", lines.index("expect:")) + 1
    return path, line


def test_a_wrong_expect_refuses_the_build_with_its_place_and_both_values(
    tmp_path: Path,
) -> None:
    path, line = _wrong_scenario(tmp_path / "mine")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["site", "build", "--out", str(out), "--scenarios", str(path.parent)]
    )
    assert result.exit_code == 2, result.output
    (message,) = [m for m in result.stderr.splitlines() if m.startswith("error:")]
    assert message.startswith(
        f"error: {path}:{line}: opening-minimum-wrong under cardrulesplus: "
        "pot 1 amount is 14, expected 15 (the site is not built"
    ), message
    assert "--allow-mismatch" in message and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.slow  # a whole build
def test_allow_mismatch_builds_and_marks_the_page(tmp_path: Path) -> None:
    path, line = _wrong_scenario(tmp_path / "mine")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["site", "build", "--out", str(out), "--scenarios", str(path.parent), "--allow-mismatch"],
    )
    assert result.exit_code == 0, result.output
    assert (
        f"mismatch, marked on its page: {path}:{line}: opening-minimum-wrong under "
        "cardrulesplus: pot 1 amount is 14, expected 15"
    ) in result.stderr
    page = (out / "scenarios" / "opening-minimum-wrong.html").read_text(encoding="utf-8")
    assert '<div class="note mismatch" role="alert">' in page
    assert "This deal does not end as its scenario expects." in page
    assert "<li>under CardRulesPlus 2020s: pot 1 amount is 14, expected 15 " in page
    assert f"opening-minimum-wrong.yaml:{line}</code>" in page
    right = (out / "scenarios" / "opening-minimum.html").read_text(encoding="utf-8")
    assert "mismatch" not in right
