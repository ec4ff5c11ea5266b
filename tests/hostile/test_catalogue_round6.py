"""The hostile catalogue, round six (issue 47): typed values parsed strictly, and a table
on stdout alone.

- A policy (``--policy``, a session's ``policy:``) and a reading (``--reading``) hold no
  space: ``bold: straddle=0.1`` was played as ``bold:straddle=0.1`` under a label of its
  own, two players in one table of results.
- ``sweep --csv -`` prints the table instead of the report, and ``--csv -`` with ``--json``
  is refused, as every other command does: the CSV and the report shared stdout, exit 0.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup
from .test_catalogue_round5 import ED_LIST, _text_header

SESSION = (
    "variant: foster\nplayers: [A, B, C, D]\ndealer: D\npolicy: 'bold: straddle=1'\n"
    "deals:\n  - {seed: 1, count: 2}\n"
)


def _session(tmp: Path) -> Cleanup:
    (tmp / "s.yaml").write_text(SESSION, encoding="utf-8")
    return None


CASES = [
    Case(
        "policy-with-a-space-after-its-colon",
        ("simulate", "-v", "foster", "-n", "3", "-q", "--policy", "bold: straddle=0.1"),
        "error: a policy holds no space: write 'bold:straddle=0.1'",
    ),
    Case(
        "policy-with-a-space-before-its-equals",
        ("sweep", "foster", "--towards", "pagat", "-n", "3", "-q", "--policy", "bold:bluff =0"),
        "error: a policy holds no space: write 'bold:bluff=0'",
    ),
    Case(
        "a-sessions-policy-with-a-space",
        ("session", "{tmp}/s.yaml"),
        "s.yaml:4: policy: a policy holds no space: write 'bold:straddle=1'",
        setup=_session,
    ),
    Case(
        "reading-with-a-space-after-its-equals",
        ("compare", "foster-sight", "--reading", "point.suit_tie= eldest-first"),
        "error: --reading: a reading holds no space: write 'point.suit_tie=eldest-first'",
    ),
    Case(
        "text-language-past-its-length",
        ED_LIST,
        "line 2: Text language: a language tag has at most 35 characters (RFC 5646), not 450,002",
        setup=_text_header(
            "Work: house-rules\n",
            "Work: house-rules\nText language: en" + "-abcdefgh" * 50_000 + "\n",
        ),
    ),
    Case(
        "sweep-csv-dash-with-json",
        ("sweep", "foster", "--vary", "hands.favori=none", "-n", "3", "-q", "--csv", "-", "--json"),
        "error: --json and --csv -: both print on stdout; give --csv a file",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round_six(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_sweep_csv_to_stdout_is_the_table_alone() -> None:
    argv = ["sweep", "foster", "--vary", "hands.favori=none", "-n", "5", "-q", "--csv", "-"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:3] == ["policy", "combination", "status"]
    assert {len(row) for row in rows} == {len(rows[0])}  # one table, no report after it


# -- the Python API: a system's id in bytes, a position as numpy's integer --------------------


@pytest.mark.parametrize("call", ["simulate", "odds", "matrix"])
def test_a_systems_id_in_bytes_is_named_as_bytes(call: str) -> None:
    import bouillotte.api as api
    from bouillotte.rules.errors import UserError

    with pytest.raises(UserError) as raised:
        getattr(api, call)(b"foster")
    assert "not bytes" in str(raised.value)


def test_a_system_is_chosen_by_a_numpy_integer_as_deals_are() -> None:
    np = pytest.importorskip("numpy")
    import bouillotte.api as api

    systems = api.systems()
    assert systems[np.int64(1)].id == systems[1].id
