"""Round six of the review of ``sweep`` and ``effects``: what the tables say of an interval,
what may be said of a rule no deal read, the rows a sweep makes, and what is refused.

1. The CSV (and the API's table) gave a difference's interval where the report declined
   it, with nothing saying so, and the base's means a normal interval on 5 deals: each
   line now carries the judgements (``interval``, ``diff_interval``...), in columns added
   after the old ones, and the JSON's means are judged as ``simulate`` judges one.
2. A rule no deal of the sample read was "cannot act under this player" on 3 deals and
   came into play on 5: that claim is made only where the rules prove it, else the row is
   "not read in these deals".
3. The whole difference of ``--towards`` named no rule (``changes: {}``, ``rules: []``).
4. ``--vary`` with ``--towards`` made the same row twice: refused.
5. A sweep of which nothing can be played exited 0 with the base's row alone: refused.
6. ``--vary`` values were read loosely (``off`` as no, ``05`` as 5, an empty list as every
   value, spaces dropped): refused.
7. A rule given twice to ``--vary`` was not named; the API's messages said ``--vary``.
8. ``effects`` listed a file of other deals as stale and gave it with ``--json``, and
   ignored ``--jobs`` and ``-q`` without ``--write``: one judgement, and a refusal.

Each test failed before its fix.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import bouillotte.api as api
from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError, UserError
from bouillotte.rules.profiles import Library
from bouillotte.site import effects_run, effects_store, everyrule
from bouillotte.study import tidy
from bouillotte.study.rule_reads import READS, recording
from bouillotte.study.sweep import run_sweep
from bouillotte.study.sweep_combinations import (
    NEVER_READ,
    STRADDLED,
    cannot_be_read,
    towards_combinations,
    vary_combinations,
)
from bouillotte.study.sweep_report import acts, not_met, sweep_report, sweep_text
from bouillotte.study.void_chain import play_one, player_names

LIBRARY = Library()
RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
OLD_COLUMNS = [
    "policy",
    "combination",
    "status",
    "metric",
    "value",
    "ci95_low",
    "ci95_high",
    "diff",
    "diff_ci95_low",
    "diff_ci95_high",
    "deals",
    "error",
]
"""The columns of ``sweep --csv`` before, in their order: kept, the new ones after them."""


def _sweep(*args: str) -> Any:
    return RUNNER.invoke(app, ["sweep", "foster", *args])


def _csv(*args: str) -> list[dict[str, str]]:
    result = _sweep(*args, "-q", "--csv", "-")
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def _json(*args: str) -> dict[str, Any]:
    result = _sweep(*args, "-q", "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _refused(result: Any, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]


# -- 1. the judgements of each interval in the tables -----------------------------------------


def test_the_csv_says_that_a_difference_s_interval_is_declined() -> None:
    """The reviewer's case: the text gives no interval for the bonuses of favori=none
    ("1 moved, largest 6"); the CSV gave [-3.55, 1.15] with nothing beside it."""
    rows = _csv("--vary", "hands.favori=none", "-n", "5")
    assert list(rows[0])[: len(OLD_COLUMNS)] == OLD_COLUMNS
    line = next(
        r for r in rows if r["combination"] == "hands.favori=none" and r["metric"] == "bonus_flow"
    )
    assert (line["diff_ci95_low"], line["diff_ci95_high"]) == ("-3.551957", "1.151957")
    assert line["diff_interval"] == "declined" and line["diff_clear"] == "false"
    assert (line["diff_moved"], line["diff_largest"]) == ("1", "6")
    assert (line["came_into_play"], line["acts"]) == ("1", "acted")
    text = _sweep("--vary", "hands.favori=none", "-n", "5", "-q").stdout
    assert "-1.20 (1 moved, largest 6)" in text  # what the text says, the CSV now says


def test_the_base_s_means_are_judged_as_simulate_judges_a_mean() -> None:
    """On 5 deals a mean's normal interval stands on nothing (a count of counters got a
    negative low end): ``interval`` says it is declined, in the CSV and in the JSON."""
    rows = _csv("--vary", "hands.favori=none", "-n", "5")
    base = {r["metric"]: r for r in rows if r["combination"] == "base"}
    assert float(base["bonus_flow"]["ci95_low"]) < 0  # kept, as before
    assert base["bonus_flow"]["interval"] == "declined"
    assert (base["pool"]["nonzero"], base["pool"]["largest"]) == ("4", "15")
    assert base["decided_by.point"]["interval"] == ""  # a rate: a Wilson interval
    # The spread is judged too since the figures review of round seven (its delta-method
    # interval from 5 deals is no 95% interval): declined, where it was left unjudged.
    assert base["pool_spread"]["interval"] == "declined"
    assert base["pool"]["came_into_play"] == base["pool"]["acts"] == ""
    data = _json("--vary", "hands.favori=none", "-n", "5")
    pool = data["rows"][0]["metrics"]["pool"]
    assert (pool["interval"], pool["nonzero"], pool["largest"]) == ("declined", 4, 15)


def test_a_combination_s_own_counts_are_those_of_its_own_play() -> None:
    """A combination's ``nonzero`` and ``largest`` are those of its rules played as a
    base: its deals that no rule changed count with the base's values, and the largest
    may sit in a deal it changed."""
    foster = LIBRARY.get("foster")
    combinations, _ = towards_combinations(foster, LIBRARY.get("pagat"))
    combinations += vary_combinations(foster, ["hands.favori=none"])
    tally = run_sweep(foster, combinations, ["simple"], 120, 3)["simple"]
    for c, combination in enumerate(combinations, 1):
        assert combination.variant is not None
        alone = run_sweep(combination.variant, [], ["simple"], 120, 3)["simple"]
        for counted in ("sums", "squares", "nonzero", "largest"):
            assert getattr(alone, counted)[0] == getattr(tally, counted)[c], combination.label


def test_the_api_s_table_and_frame_carry_the_judgements() -> None:
    swept = api.sweep("foster", vary=["hands.favori=none"], deals=5)
    assert swept.table().column_names == [c.name for c in tidy.SWEEP_COLUMNS]
    records = swept.table().records()
    line = next(
        r
        for r in records
        if r["combination"] == "hands.favori=none" and r["metric"] == "bonus_flow"
    )
    assert line["diff_interval"] == "declined" and line["diff_moved"] == 1
    assert [c.name for c in tidy.SWEEP_COLUMNS][: len(OLD_COLUMNS)] == OLD_COLUMNS
    assert [c.name for c in tidy.EFFECTS_COLUMNS][2:] == [c.name for c in tidy.SWEEP_COLUMNS]
    pytest.importorskip("pandas")
    frame = swept.to_frame()
    declined = frame[(frame.metric == "bonus_flow") & (frame.combination != "base")]
    assert list(declined.diff_interval) == ["declined"] and list(declined.acts) == ["acted"]


def test_docs_data_lists_the_columns_added_to_the_sweep() -> None:
    text = (ROOT / "docs" / "data.md").read_text("utf-8")
    section = text.split("### Sweeps (`sweep --csv`)")[1].split("### ")[0]
    for column in tidy.SWEEP_COLUMNS:
        assert f"| `{column.name}` | {column.type} |" in section, column.name


# -- 2. "cannot act" only where it is proven ----------------------------------------------------


def test_a_rule_no_deal_of_a_small_sample_read_is_not_read_not_cannot_act() -> None:
    """The reviewer's case: on 3 deals no deal reads hands.favori, on 5 one does and the
    rule comes into play: nothing may be said of the players from the 3."""
    three = _json("--vary", "hands.favori=none", "-n", "3")["rows"][1]
    assert three["came_into_play"] == 0 and three["acts"] == "not-read"
    assert "cannot_act" not in three
    five = _json("--vary", "hands.favori=none", "-n", "5")["rows"][1]
    assert five["acts"] == "acted"
    text = _sweep("--vary", "hands.favori=none", "-n", "3", "-q").stdout
    assert "cannot act" not in text.split("Columns:")[0]
    assert "hands.favori=none: not read in these 3 deals" in text
    carre = _json("--vary", "bonuses.carre.amount=2", "-n", "3")["rows"][1]
    assert carre["acts"] == "not-read"


def test_cannot_act_is_said_where_the_rules_prove_it() -> None:
    """Where nobody may straddle (the teaching card), the straddle's amount is never
    read; no simulated deal is cut: both cannot act, whoever the players, and say why."""
    card = LIBRARY.get("cardrulesplus")
    combinations = vary_combinations(card, ["forced_bets.straddle_amount=the-whole-pot"])
    data = sweep_report(card, combinations, run_sweep(card, combinations, ["bold"], 4, 1), 1)
    row = data["rows"][1]
    assert row["acts"] == "cannot-act" and "nobody may straddle" in row["cannot_act"]
    said = not_met(row, 4) or ""
    assert said.startswith("cannot act under this player: no deal of 4 read the rule, and none")
    cut = _json("--vary", "table.cut_by", "-n", "2")["rows"][1]
    assert cut["acts"] == "cannot-act" and "never reads who cuts" in cut["cannot_act"]
    # Foster lets the player straddle: the same rule is only not read in a sample.
    foster = LIBRARY.get("foster")
    assert cannot_be_read(foster, ["forced_bets.straddle_amount"]) is None
    assert cannot_be_read(card, ["forced_bets.straddle_amount", "hands.favori"]) is None


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"came_into_play": 0, "rules_read": 0}, "not-read"),
        ({"came_into_play": 0, "rules_read": 0, "cannot_act": "why"}, "cannot-act"),
        ({"came_into_play": 0, "rules_read": 2}, "did-not-act"),
        ({"came_into_play": 1, "rules_read": 2}, "acted"),
        ({"acts": "cannot-act", "came_into_play": 0}, "cannot-act"),  # a stored row
    ],
)
def test_acts_claims_nothing_the_counts_do_not_prove(row: dict[str, Any], expected: str) -> None:
    assert acts(row) == expected


def test_no_code_that_plays_a_deal_names_a_rule_said_never_read() -> None:
    """The proof behind :data:`NEVER_READ`: no module of ``play/`` names the field."""
    source = "\n".join(
        p.read_text("utf-8") for p in (ROOT / "engine/bouillotte/play").rglob("*.py")
    )
    for rule in NEVER_READ:
        assert not re.search(rf"\b{rule.split('.')[1]}\b", source), rule


@pytest.mark.parametrize("policy", ["bold", "random"])
def test_no_deal_reads_a_straddle_s_rule_where_nobody_may_straddle(policy: str) -> None:
    """A guard on :data:`STRADDLED`: deals played under the card (no straddle) by the
    players who straddle most read none of the straddles' rules."""
    from bouillotte.study.policies import get_policy

    card = LIBRARY.get("cardrulesplus")
    assert not card.rules.forced_bets.straddles
    recorded = recording(card)
    names = player_names(card.players)
    read: set[str] = set()
    for i in range(40):
        READS.clear()
        play_one(recorded, get_policy(policy), names, 1, i)
        read |= READS
    assert "forced_bets.straddles" in read and read.isdisjoint(STRADDLED)


# -- 3. the whole difference names its rules -----------------------------------------------------


def test_the_whole_difference_names_every_rule_it_switches() -> None:
    data = _json("--towards", "pagat", "-n", "2")
    rows = [r for r in data["rows"] if r["combination"] != "base"]
    whole = rows[-1]
    assert whole["combination"] == "all 16 rules of pagat"
    one_by_one = {k: v for r in rows[:-1] for k, v in r["changes"].items()}
    assert whole["changes"] == one_by_one
    assert [r["rule"] for r in whole["rules"]] == list(one_by_one)
    assert {r["to_system"] for r in whole["rules"]} == {"pagat"}
    text = sweep_text(data)
    assert text.count("hands.favori: below simple (foster: inferred) -> none") == 1


# -- 4, 5. one of --vary and --towards; something to compare ---------------------------------------


def test_vary_with_towards_is_refused() -> None:
    _refused(
        _sweep("--vary", "hands.favori=none", "--towards", "pagat", "-n", "5", "-q"),
        "--vary and --towards: give one of them",
    )
    with pytest.raises(InputError, match=r"^vary and towards: give one of them"):
        api.sweep("foster", vary=["hands.favori=none"], towards="pagat", deals=5)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("--towards", "foster-five"), "table.players=5: changes the number of players"),
        (("--vary", "forced_bets.dealer_blind=1000"), "dealer_blind=1000: not a valid system"),
        (("--vary", "forced_bets.dealer_blind=1000,2000"), "(and 1 other, none playable)"),
        (("--vary", "hands.favori=below-simple"), "every combination asked for is foster"),
    ],
)
def test_a_sweep_with_nothing_that_can_be_played_is_refused(
    args: tuple[str, ...], why: str
) -> None:
    _refused(_sweep(*args, "-n", "5", "-q"), "nothing to compare", why)


def test_the_api_refuses_a_sweep_with_nothing_to_play() -> None:
    with pytest.raises(InputError, match="no combination asked for can be played"):
        api.sweep("foster", towards="foster-five", deals=5)


# -- 6, 7. --vary read strictly, and its messages ------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("hands.card_under_retourne=off", "cannot be 'off'; it takes no, yes"),
        ("hands.card_under_retourne=0", "cannot be '0'; it takes no, yes"),
        ("hands.card_under_retourne=n", "cannot be 'n'; it takes no, yes"),
        ("hands.card_under_retourne=FALSE", "cannot be 'FALSE'; it takes no, yes"),
        ("hands.card_under_retourne=True", "cannot be 'True'; it takes no, yes"),
        ("hands.card_under_retourne= no", "hold no space: write 'hands.card_under_retourne=no'"),
        ("hands.favori = none", "hold no space: write 'hands.favori=none'"),
        ("hands.favori=", "hands.favori= gives no value"),
        ("forced_bets.dealer_blind=05", "cannot be '05': write a whole number"),
        ("forced_bets.dealer_blind=3,03", "cannot be '03': write a whole number"),
        ("forced_bets.dealer_blind=3,", "a value is empty"),
        ("bonuses.carre.amount=-0", "cannot be '-0'"),
    ],
)
def test_a_vary_value_is_written_as_the_tool_writes_it(spec: str, says: str) -> None:
    _refused(_sweep("--vary", spec, "-n", "1", "-q"), says)


def test_the_values_the_messages_name_are_taken() -> None:
    foster = LIBRARY.get("foster")
    assert foster.rules.hands.card_under_retourne  # yes: the base's, left out
    made = vary_combinations(foster, ["hands.card_under_retourne=no,yes"])
    assert [c.changes for c in made] == [{"hands.card_under_retourne": "no"}]
    amounts = vary_combinations(foster, ["bonuses.carre.amount=0,10"])
    assert [c.changes["bonuses.carre.amount"] for c in amounts] == ["0", "10"]
    assert len(vary_combinations(foster, ["hands.favori"])) == 3  # every value but the base's


def test_a_rule_given_twice_is_named_and_the_api_says_vary() -> None:
    _refused(
        _sweep("--vary", "hands.favori=none", "--vary", "hands.favori=none", "-n", "1", "-q"),
        "--vary: hands.favori is given to --vary twice",
    )
    with pytest.raises(UserError) as raised:
        api.sweep("foster", vary=["hands.favori=none", "hands.favori=by-rank"], deals=1)
    assert str(raised.value).startswith("vary: hands.favori is given to vary twice")
    with pytest.raises(UserError) as raised:
        api.sweep("foster", vary=["stakes.cave"], deals=1)
    assert "--vary" not in str(raised.value) and "vary=['stakes.cave=5,10']" in str(raised.value)


def test_the_help_says_what_is_refused() -> None:
    shown = RUNNER.invoke(app, ["sweep", "--help"], env={"COLUMNS": "200"}).stdout
    words = " ".join(shown.replace("│", " ").split())
    assert "Not with --towards or --all-rules (refused)" in words
    assert "without a leading zero" in words


# -- 8. effects: one judgement of a stored file ---------------------------------------------------


@pytest.fixture()
def five_deal_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the store (two of its files), with foster__pagat made again on 5 deals."""
    store = tmp_path / "effects"
    store.mkdir()
    for name in ("pagat__pagat-mistigri.json", "foster__all-rules.json"):
        shutil.copy(effects_store.store_folder() / name, store / name)
    monkeypatch.setattr(effects_store, "store_folder", lambda: store)
    monkeypatch.setattr(everyrule, "store_folder", lambda: store)
    foster, pagat = LIBRARY.get("foster"), LIBRARY.get("pagat")
    effects_store.write_effects(foster, pagat, effects_run.compute_effects(foster, pagat, 5))
    return store


def _effects(*args: str) -> Any:
    return RUNNER.invoke(app, ["effects", "--pair", "foster__pagat", *args])


def test_deals_asked_for_judge_the_listing_and_the_figures_alike(five_deal_store: Path) -> None:
    """The reviewer's case: listed stale under -n 7, given by --json -n 7 with exit 0."""
    listed = _effects("-n", "7")
    assert listed.exit_code == 1
    assert "foster__pagat: made with 5 deals, not the 7 asked (--deals)" in listed.stdout
    given = _effects("--json", "-n", "7")
    assert given.exit_code == 1
    entry = json.loads(given.stdout)["foster__pagat"]
    assert entry["stored"] is None and entry["problem"].startswith("made with 5 deals")
    assert "foster__pagat: made with 5 deals, not the 7 asked" in given.stderr
    table = _effects("--csv", "-", "-n", "7")
    assert table.exit_code == 1 and table.stdout.count("\n") == 1  # the header alone
    # Of the deals asked for: up to date, and given.
    assert _effects("-n", "5").stdout == "foster__pagat: up to date\n"
    assert json.loads(_effects("--json", "-n", "5").stdout)["foster__pagat"]["stored"]["deals"] == 5


def test_without_deals_a_file_whose_key_matches_is_up_to_date_everywhere(
    five_deal_store: Path,
) -> None:
    """As the site uses it: listed up to date (its deals named) and given, both exit 0."""
    listed = _effects()
    assert listed.exit_code == 0
    assert listed.stdout.startswith("foster__pagat: up to date (made with 5 deals, not the site's")
    given = _effects("--json")
    assert (
        given.exit_code == 0 and json.loads(given.stdout)["foster__pagat"]["stored"]["deals"] == 5
    )
    records = api.effects("foster", "pagat").records()
    assert {r["deals"] for r in records} == {5}
    line = next(r for r in records if r["combination"] != "base" and r["diff_interval"])
    assert line["diff_interval"] in ("normal", "declined", "unchanged")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--jobs", "2"), "--jobs: it sets the processes of --write only"),
        (("-j", "1"), "--jobs: it sets the processes of --write only"),
        (("-q",), "--quiet: it silences the progress of --write only"),
        (("--json", "-q"), "--quiet: it silences the progress of --write only"),
    ],
)
def test_options_that_only_a_computation_heeds_are_refused_without_write(
    five_deal_store: Path, args: tuple[str, ...], says: str
) -> None:
    _refused(_effects(*args), says)
