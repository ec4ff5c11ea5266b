"""Issue 47, round eight of the catalogue: what the round's probes of every command and
option found (each case failed before its fix), and a wrong success: a profile that says
``replaces: true`` with nothing to replace (its file's name mistyped) was read in silence
as a system of its own, the bundled one it was meant to replace still in use.
"""

from __future__ import annotations

from pathlib import Path

from . import test_catalogue as catalogue
from .test_catalogue import _editor_folder


def test_replaces_with_nothing_to_replace_is_noted(tmp_path: Path) -> None:
    folder = _editor_folder(tmp_path)
    (folder / "fostre.yaml").write_text(
        "replaces: true\ntitle: Mine\nsource: house-rules\nextends: foster\nrules: {}\n",
        encoding="utf-8",
    )
    code, out, err = catalogue._in_process(
        ["variants", "show", "fostre", "--variants", str(folder)], tmp_path
    )
    assert code == 0, err
    assert "fostre: Mine" in out
    assert (
        f"note: {folder / 'fostre.yaml'} says 'replaces: true', but no bundled profile or "
        "profile of an earlier folder is 'fostre': it is a system of its own" in err
    )
    code, _, err = catalogue._in_process(
        ["variants", "show", "our-table", "--variants", str(folder)], tmp_path
    )
    assert code == 0 and "replaces" not in err, err
