"""A sample of every stored sweep (``site/effects/``) recomputed and compared, in the everyday
suite: the store is keyed on its declared inputs and a results version, not on the engine's
source (``docs/effects-store.md``), so a change of what a deal does is caught here, by its
meaning. When this fails, the change moved stored figures: bump ``RESULTS_VERSION``
(``site/effects_store.py``) and regenerate the store (``bouillotte effects --write``).

Each file keeps beside its figures the report of its first deals alone (``sample``). A few
of its rows (the base's, the first rows that acted, one that did not, the whole difference)
are played again on those deals and must give the same numbers to the last digit; a row's
figures depend on its own rules alone, so the rows left out are not needed for those kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.site.effects_run import sample_rows
from bouillotte.site.effects_store import store_folder
from bouillotte.study.sweep_combinations import all_rule_combinations, towards_combinations

LIBRARY = Library()
STORED = sorted(store_folder().glob("*.json"))
ACTED = 3
"""How many rows that acted in the sample are recomputed, per file."""


def chosen_rows(sample: dict[str, Any]) -> list[str]:
    """The rows recomputed: the first :data:`ACTED` that acted under some player, the first
    that did not act under any, and the whole difference (the base's row always comes)."""
    by_label: dict[str, set[str]] = {}
    for row in sample["rows"]:
        if row["combination"] != "base" and row["status"] == "ok":
            by_label.setdefault(row["combination"], set()).add(row["acts"])
    acted = [label for label, acts in by_label.items() if "acted" in acts]
    idle = [label for label, acts in by_label.items() if "acted" not in acts]
    whole = [label for label in by_label if label.startswith("all ")]
    return list(dict.fromkeys(acted[:ACTED] + idle[:1] + whole))


ADDED: dict[str, str] = {"pool_spread": "interval"}
"""Judgements added to the report after files were stored, which add no figure to those
stored and move none: a stored sample without one is compared without it (a file written
since holds it, and it is compared). The pool spread's ``interval`` (figures review, round
seven): the stored files gain it when next regenerated."""


def _rows(report: dict[str, Any], labels: set[str]) -> list[dict[str, Any]]:
    return [r for r in report["rows"] if r["combination"] in labels | {"base"}]


def _without_added(again: dict[str, Any], sample: dict[str, Any]) -> dict[str, Any]:
    """``again`` without the :data:`ADDED` judgements that ``sample`` does not hold."""
    held = {
        (metric, key)
        for row in sample["rows"]
        for metric, entry in row.get("metrics", {}).items()
        for key in entry
    }
    for row in again["rows"]:
        for metric, key in ADDED.items():
            entry = row.get("metrics", {}).get(metric)
            if entry is not None and (metric, key) not in held:
                entry.pop(key, None)
    return again


def test_every_stored_file_is_sampled() -> None:
    assert len(STORED) >= 16
    assert "foster__all-rules.json" in {p.name for p in STORED}


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_a_sample_of_the_stored_rows_is_what_the_engine_plays_now(path: Path) -> None:
    stored = json.loads(path.read_text(encoding="utf-8"))
    sample = stored["sample"]
    base_id, towards_id = path.stem.split("__")
    base = LIBRARY.get(base_id)
    towards = None if towards_id == "all-rules" else LIBRARY.get(towards_id)
    # The sweep still makes the same rows (the labels are cheap: no deal is played).
    if towards is None:
        combinations, _ = all_rule_combinations(base)
    else:
        combinations, _ = towards_combinations(base, towards)
    stored_labels = [
        r["combination"] for r in sample["rows"] if r["policy"] == sample["policies"][0]
    ]
    assert [c.label for c in combinations] == stored_labels[1:]
    labels = chosen_rows(sample)
    assert labels, "a sample with no row to recompute"
    again = sample_rows(base, towards, sample["deals"], labels, sample["policies"], sample["seed"])
    again = _without_added(json.loads(json.dumps(again)), sample)
    chosen = set(labels)
    assert _rows(again, chosen) == _rows(sample, chosen)
    assert {k: v for k, v in again.items() if k != "rows"} == {
        k: v for k, v in sample.items() if k != "rows"
    }
