"""Figures and labels, round seven: what a recomputation of the reports found wrong.

2. On one deal ``simulate --json`` and ``sweep --json`` wrote ``Infinity`` and
   ``-Infinity`` (a normal interval from one value is infinite), which no strict JSON
   parser reads, and the CSV wrote ``inf``: an interval that cannot be computed (fewer than
   two values) is now ``null`` (an empty cell), as a mean of no value always was, and a
   tidy table refuses a number that is not finite, so no JSON of one can hold one.
5. ``differences`` labelled a misdeal rule's example "deal 20", which is simulate's deal 20
   with its first card exposed (a deal simulate never plays): the text and the JSON (and
   the CSV) name the exposed card.
6. ``simulate``'s "met:" rows count a situation met in a deal or in the deals played on its
   carried pool, while the notes said those deals were "counted apart": the rows and the
   notes now say what is counted (counting deal ``i`` alone would make "a carried pool was
   played for", and the rules that act only then, never met).
7. The sweep's pool spread had a "95% interval" from 2 or 3 deals ([0, 0] from 2) and no
   judgement: it is judged as a mean is (``interval``: declined on fewer than 100 deals or
   where one deal carries more than a tenth of the fourth moment), in the JSON and the CSV.
9. The every-rule page wrote its notes' counts without thousands separators ("not read in
   these 100000 deals") beside "100,000" in its headers.

Each test was shown failing before its fix.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import bouillotte.api as api
from bouillotte.cli.app import app
from bouillotte.play.stream import deal_seed
from bouillotte.rules.cards import card_str
from bouillotte.rules.profiles import Library
from bouillotte.site import everyrule
from bouillotte.study import intervals
from bouillotte.study.differences import make_setup
from bouillotte.study.simulate import simulate
from bouillotte.study.simulate_report import report, report_text, stall_words
from bouillotte.study.sweep_report import not_met
from bouillotte.study.tally import Moments
from bouillotte.study.tidy import SIMULATION_COLUMNS, TidyTable

LIBRARY = Library()
RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _strict(text: str) -> Any:
    """JSON as RFC 8259 has it: ``Infinity``, ``-Infinity`` and ``NaN`` are refused."""

    def refuse(token: str) -> None:
        raise ValueError(f"not JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def _run(*args: str) -> str:
    result = RUNNER.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _csv(*args: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(_run(*args, "--csv", "-"))))


# -- 2. one deal: no interval, and JSON that is JSON --------------------------------------


def test_simulate_on_one_deal_gives_no_interval_and_strict_json() -> None:
    data = _strict(_run("simulate", "-v", "foster", "-n", "1", "-q", "--json"))
    for summary in (data["average_pot"], data["bonus_flow_per_deal"], data["pool_per_deal"]):
        assert summary["n"] == 1 and summary["ci95"] is None
    assert all(s["ci95"] is None for s in data["seat_net_per_deal"].values())
    # a rate keeps its Wilson interval, which one deal bounds
    assert data["decided_by"]["point"]["ci95"] is not None
    lines = _csv("simulate", "-v", "foster", "-n", "1", "-q")
    pot = next(r for r in lines if r["measure"] == "average_pot")
    assert (pot["ci95_low"], pot["ci95_high"], pot["value"]) == ("", "", "10.0")
    assert not [r for r in lines if "inf" in (r["ci95_low"] + r["ci95_high"])]
    text = _run("simulate", "-v", "foster", "-n", "1", "-q")
    assert "average pot (not void)" in text and "inf" not in text


def test_sweep_on_one_deal_gives_no_interval_and_strict_json() -> None:
    args = ("sweep", "foster", "--vary", "hands.favori=none", "-n", "1", "-q")
    data = _strict(_run(*args, "--json"))
    row = data["rows"][1]["metrics"]
    assert row["pool"]["ci95"] is None and row["pool"]["diff_ci95"] is None
    assert row["seat_net.1"]["ci95"] is None and row["seat_net.1"]["diff_ci95"] is None
    assert row["decided_by.point"]["diff_ci95"] is None  # a rate's difference: paired, normal
    lines = _csv(*args)
    assert not [r for r in lines if "inf" in "".join(r.values())]
    pool = next(r for r in lines if r["combination"] != "base" and r["metric"] == "pool")
    assert (pool["ci95_low"], pool["diff_ci95_low"], pool["diff_ci95_high"]) == ("", "", "")
    assert "Sweep of foster" in _run(*args)  # the text: no interval to unpack


def test_the_api_s_data_on_one_deal_is_strict_json() -> None:
    """``.data`` is the command line's JSON: ``allow_nan=False`` dumps it."""
    json.dumps(api.simulate("foster", deals=1).data, allow_nan=False)
    json.dumps(api.sweep("foster", vary=["hands.favori=none"], deals=1).data, allow_nan=False)


def test_an_interval_from_fewer_than_two_values_is_none_where_reported() -> None:
    one = Moments()
    one.add(7)
    assert one.summary() == {
        "n": 1,
        "mean": 7.0,
        "ci95": None,
        "interval": "declined",
        "nonzero": 1,
        "largest": 7,
    }
    one.add(9)
    assert one.summary()["ci95"] == [6.040036, 9.959964]  # 8 ± 1.96 · 1.414 / √2
    assert intervals.difference(3, 9, 1, 1, 3)["diff_ci95"] is None
    assert intervals.difference(0, 0, 1, 0, 0)["diff_ci95"] is None
    assert intervals.difference(3, 5, 2, 2, 2)["diff_ci95"] is not None


def test_a_tidy_table_refuses_a_number_that_is_not_finite() -> None:
    """A figure that is not finite would be ``Infinity`` in the JSON, which is not JSON:
    the table fails at once, naming the column, rather than write it."""
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError, match="ci95_low"):
            TidyTable.of("t", "t", SIMULATION_COLUMNS, [{"ci95_low": bad}])
    table = TidyTable.of("t", "t", SIMULATION_COLUMNS, [{"ci95_low": None, "value": 1.5}])
    assert _strict(table.json_text())[0]["ci95_low"] is None


# -- 5. the misdeal rule's example names its exposed card -----------------------------------


def test_a_misdeal_example_names_the_card_exposed() -> None:
    foster = LIBRARY.get("foster")
    # the card exposed is the first card dealt of simulate's deal 20 of seed 1
    first = make_setup(foster, 20, deal_seed(1, 20), exposed=False).hands["A"][0]
    exposed = card_str(first)
    args = ("differences", "foster", "pagat", "--deals", "30", "--seed", "1")
    text = _run(*args)
    line = next(x for x in text.splitlines() if x.startswith("misdeals.triplet_payment"))
    assert f"deal 20 (first card {exposed} exposed), simple" in line
    # a deal played as dealt says nothing of an exposed card
    assert not [x for x in text.splitlines() if "exposed" in x and x.startswith("betting.")]
    rules = {r["rule"]: r for r in _strict(_run(*args, "--json"))["rules"]}
    misdeal = rules["misdeals.triplet_payment"]
    assert (misdeal["deal"], misdeal["exposed"]) == (20, exposed)
    assert all(
        r["exposed"] is None for k, r in rules.items() if r["found"] and not k.startswith("mis")
    )
    lines = _csv(*args)
    assert {r["exposed"] for r in lines if r["rule"] == "misdeals.triplet_payment"} == {exposed}
    assert {r["exposed"] for r in lines if r["rule"] == "betting.closing"} == {""}


def test_the_docs_say_a_misdeal_example_is_played_with_a_card_exposed() -> None:
    text = " ".join((ROOT / "docs" / "simulation.md").read_text(encoding="utf-8").split())
    assert "with its first card exposed" in text
    assert "`exposed`" in " ".join((ROOT / "docs" / "data.md").read_text().split())


# -- 6. "met" counts the deals played on a carried pool too ----------------------------------


def test_met_says_it_counts_the_deals_played_on_a_carried_pool() -> None:
    foster = LIBRARY.get("foster")
    data = report(foster, simulate(foster, 200, 3), 3, "simple")
    met = data["situations_met"]
    # what is counted: a carried pool is played for only on a void deal's pool, never in
    # the deal counted, and every void deal's pool is played for
    assert met["carried-in"]["count"] == data["decided_by"]["void"]["count"] == 36
    assert met["showdown"]["count"] == 60  # more than the 50 showdowns of the deals counted
    text = report_text([data])
    assert "met (carried-pool deals incl.): a carried pool was played for" in text
    assert "\nmet: " not in text
    notes = " ".join(text.split("What the rows mean:")[1].split())
    assert "met (carried-pool deals incl.): the deals in which the situation arose, in" in notes
    assert "or in a deal played on its carried pool" in notes
    docs = " ".join((ROOT / "docs" / "simulation.md").read_text(encoding="utf-8").split())
    assert "the situations met (`situations_met`)" in docs


# -- 7. the pool's spread is judged -------------------------------------------------------


@pytest.mark.parametrize("deals", ["2", "3"])
def test_the_pool_spread_of_a_few_deals_is_declined(deals: str) -> None:
    args = ("sweep", "foster", "--vary", "hands.favori=none", "-n", deals, "-q")
    spread = _strict(_run(*args, "--json"))["rows"][0]["metrics"]["pool_spread"]
    assert spread["interval"] == "declined"
    lines = _csv(*args)
    assert {r["interval"] for r in lines if r["metric"] == "pool_spread"} == {"declined"}


def test_the_pool_spread_of_enough_comparable_deals_is_normal() -> None:
    """On 1,000 deals of bold players no pool carries a tenth of the fourth moment (under
    simple players on a few hundred deals, one pool of 215 carries a third: declined)."""
    args = ("sweep", "foster", "--vary", "hands.favori=none", "--policy", "bold", "-n", "1000")
    data = _strict(_run(*args, "-q", "--json"))
    spreads = [r["metrics"]["pool_spread"] for r in data["rows"]]
    assert [s["interval"] for s in spreads] == ["normal", "normal"]


def test_the_spread_s_judgement() -> None:
    """Declined below 100 deals, or where one deal carries more than a tenth of the sum of
    the fourth powers of the deviations; unchanged where every deal's value is the same."""

    def powers(values: list[int]) -> list[int]:
        return [sum(v**k for v in values) for k in range(1, 5)]

    even = [0, 10, 20, 30] * 50
    assert intervals.judge_spread(powers(even), len(even), 30) == "normal"
    assert intervals.judge_spread(powers(even[:99]), 99, 30) == "declined"
    one_large = [*even, 900]
    assert intervals.judge_spread(powers(one_large), len(one_large), 900) == "declined"
    same = [15] * 120
    assert intervals.judge_spread(powers(same), len(same), 15) == "unchanged"
    assert intervals.judge_spread([0, 0, 0, 0], 0, 0) == "declined"


def test_a_stored_file_without_the_spread_s_judgement_is_still_read() -> None:
    """The stored rule effects were written before the spread was judged: their CSV says
    nothing of it (an empty cell), as of a mean in a file written before means were."""
    lines = _csv("effects", "--pair", "foster__pagat")
    spread = [r for r in lines if r["metric"] == "pool_spread"]
    assert spread and {r["interval"] for r in spread} <= {"", "normal", "declined", "unchanged"}


# -- 9. the every-rule page's counts carry thousands separators ------------------------------


def test_the_notes_write_counts_with_thousands_separators() -> None:
    row = {"came_into_play": 0, "rules_read": 0, "rules": []}
    assert not_met(row, 100000) == (
        "not read in these 100,000 deals: no deal's play read the rule; nothing is said of "
        "these players, and other deals may read it"
    )
    read = not_met({"came_into_play": 0, "rules_read": 12551, "rules": []}, 100000)
    assert read is not None and read.startswith(
        "did not act in these deals: read in 12,551 of 100,000"
    )
    cannot = not_met({"came_into_play": 0, "rules_read": 0, "cannot_act": "x", "rules": []}, 100000)
    assert cannot is not None and "no deal of 100,000 read the rule" in cannot
    stall = stall_words(21007, 25134880, 100000)
    assert "in 21,007 of 100,000 deals nobody opened" in stall
    assert "25,134,880 counters were still carried" in stall


def test_the_every_rule_page_s_notes_have_no_count_without_separators() -> None:
    data = json.loads(everyrule.every_rule_path().read_text(encoding="utf-8"))
    notes = [n for b in everyrule.rule_blocks(data) for v in b.rows for n in v.notes]
    notes += [b.note for b in everyrule.rule_blocks(data)]
    notes += [everyrule.stall_note(r) for r in data["report"]["rows"] if r["status"] == "ok"]
    assert any("100,000" in n for n in notes)
    bare = [n for n in notes if re.search(r"(?<![\d,.])\d{4,}(?![\d,])", n)]
    assert not bare, bare[:3]


def test_a_stored_file_with_an_infinite_interval_is_not_used(tmp_path: Path) -> None:
    """A file an earlier version wrote on one deal held ``Infinity``, which Python's JSON
    reader takes and no standard one does: the store refuses it as not JSON (the listing
    says so and --write makes it again), rather than pass it to a table that refuses it."""
    from bouillotte.site.effects_store import read_stored

    path = tmp_path / "foster__pagat.json"
    path.write_text('{"deals": 1, "key": "k", "ci95": [-Infinity, Infinity]}', encoding="utf-8")
    stored = read_stored(path, lambda deals: "k", 1, "missing", "stale")
    assert stored.data is None
    assert stored.problem == "foster__pagat.json is not JSON (as RFC 8259 writes it)"
    path.write_text('{"deals": 1, "key": "k", "ci95": null}', encoding="utf-8")
    assert read_stored(path, lambda deals: "k", 1, "missing", "stale").data is not None


def test_a_rule_not_read_in_one_deal_is_said_of_one_deal() -> None:
    result = CliRunner().invoke(app, ["sweep", "foster", "--vary", "hands.favori=none",
                                      "-n", "1", "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "hands.favori=none: not read in this one deal: no deal's play" in result.stdout
    assert "these 1 deals" not in result.stdout
