"""The Python API against hostile values (issue 47): a notebook passes whatever it holds
(a bool, a text, a float, a huge number), and every run is bounded and parsed as strictly
as the command line's (``study/workers.check_run``, the one place a run's sizes are
checked): one :class:`UserError` naming the value, at once, never a ``TypeError``, a
``ZeroDivisionError``, a million worker processes or a run of a trillion deals."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

import bouillotte.api as api

CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("simulate-deals-true", lambda: api.simulate("foster", deals=True), "deals must be a whole"),
    ("simulate-deals-a-text", lambda: api.simulate("foster", deals="10"), "deals must be a whole"),  # type: ignore[arg-type]
    ("simulate-deals-a-float", lambda: api.simulate("foster", deals=10.5), "deals must be a whole"),  # type: ignore[arg-type]
    (
        "simulate-deals-a-trillion",
        lambda: api.simulate("foster", deals=10**12),
        "at most 100,000,000",
    ),
    (
        "simulate-jobs-0",
        lambda: api.simulate("foster", deals=10, jobs=0),
        "jobs must be at least 1",
    ),
    (
        "simulate-a-million-jobs",
        lambda: api.simulate("foster", deals=10, jobs=10**6),
        "jobs must be at most",
    ),
    ("simulate-seed-a-text", lambda: api.simulate("foster", deals=10, seed="x"), "seed must be a"),  # type: ignore[arg-type]
    (
        "sweep-deals-0",
        lambda: api.sweep("foster", vary=["table.direction"], deals=0),
        "deals must be at least 1",
    ),
    (
        "sweep-deals-a-trillion",
        lambda: api.sweep("foster", vary=["table.direction"], deals=10**12),
        "at most 100,000,000",
    ),
    (
        "sweep-jobs-0",
        lambda: api.sweep("foster", vary=["table.direction"], deals=5, jobs=0),
        "jobs must be at least 1",
    ),
    (
        "sweep-policies-a-word",
        lambda: api.sweep("foster", vary=["table.direction"], deals=5, policies="simple"),
        "policies must be a list, as ['simple']",
    ),
    (
        "sweep-vary-a-word",
        lambda: api.sweep("foster", vary="table.direction", deals=5),
        "vary must be a list, as ['table.direction']",
    ),
    ("system-none", lambda: api.system(None), "a system is an id or a System, not NoneType"),  # type: ignore[arg-type]
    ("systems-a-number", lambda: api.systems(5), "a folder is a path"),  # type: ignore[arg-type]
    ("run-under-a-number", lambda: api.run("foster-sight", 3), "a system is an id or a System"),  # type: ignore[arg-type]
    ("matrix-of-a-number", lambda: api.matrix(7), "systems are an id, a System or a list"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("call", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_api_refuses_at_once(call: Callable[[], Any], says: str) -> None:
    started = time.monotonic()
    with pytest.raises(api.UserError) as raised:
        call()
    assert says in raised.value.describe()
    assert time.monotonic() - started < 5


def test_a_system_named_twice_counts_once() -> None:
    once = api.matrix("foster")
    assert len(api.matrix(["foster", "foster"])) == len(once) == 66
    assert api.compare("foster-sight", ["foster", "foster"]).systems == ["foster"]


def test_a_tidy_table_of_the_api_writes_csv_as_every_result(tmp_path: Any) -> None:
    table = api.matrix("foster")
    text = table.to_csv(tmp_path / "matrix.csv")
    assert text.startswith("rule,name,system,value")
    assert (tmp_path / "matrix.csv").read_text("utf-8") == text
