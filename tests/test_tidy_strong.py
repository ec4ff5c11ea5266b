"""Strong play as tidy data (issue 50): the site's table of the strong-play bands
(``data/tidy/strong_bands``, the bands the pair page of foster and pagat and the every-rule
page show, with each page's verdict) checked against the stored bands and the stored
rule effects read on their own; and ``--csv`` on ``strong solve``, ``strong exploit`` and
``strong table``, each file's rows checked against the figures the same run printed.

``strong solve`` and ``strong exploit`` need numpy (the ``strong`` extra, not OpenSpiel):
their tests are skipped with that message where it is absent. They run on a tiny
abstraction (caves of 10, four sampled deals), a second or less each."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.site.downloads import STRONG_BANDS
from bouillotte.site.strong_bands import VERDICTS, pair_bands
from bouillotte.site.tidydata import STRONG_BAND_COLUMNS, stored_pairs, strong_bands_table
from bouillotte.strong.bands import band_text, read_bands
from bouillotte.study.tidy import TidyTable
from bouillotte.study.tidy_commands import EXPLOIT_COLUMNS, SOLVE_COLUMNS, STRONG_TABLE_COLUMNS

RUNNER = CliRunner()
LIBRARY = Library()
ROOT = Path(__file__).parent.parent
TINY = ["--cave", "10", "--raises", "1", "--no-straddles", "--deals", "4", "--classes", "2"]
"""The tiny abstraction of tests/test_strong_solve.py: 465 states."""


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _same_as_csv(printed: list[dict[str, Any]], rows: list[dict[str, str]]) -> bool:
    """Whether ``--json``'s rows are the CSV's, typed: numbers as numbers, booleans as
    booleans, an empty cell as null."""
    assert [sorted(r) for r in printed] == [sorted(r) for r in rows]
    for typed, text in zip(printed, rows, strict=True):
        for key, value in typed.items():
            if value is None:
                assert text[key] == "", key
            elif isinstance(value, bool):
                assert text[key] == str(value).lower(), key
            elif isinstance(value, int | float):
                assert float(text[key]) == pytest.approx(value), key
            else:
                assert text[key] == value, key
    return True


def _stored_bands() -> dict[str, Any]:
    found = read_bands(LIBRARY.get("foster"), LIBRARY.get("pagat"))
    assert found.data is not None, f"{found.problem}: {found.fix}"
    return found.data


@pytest.fixture(scope="module")
def stored() -> dict[str, Any]:
    """The stored rule effects the pages set the bands beside, by name."""
    pairs = stored_pairs([LIBRARY.get("foster"), LIBRARY.get("pagat")])
    found = {pair.name: pair.stored.data for pair in pairs}
    assert found.get("foster__pagat") and found.get("foster__all-rules")
    return found


@pytest.fixture(scope="module")
def table() -> TidyTable:
    variants = [LIBRARY.get("foster"), LIBRARY.get("pagat")]
    return strong_bands_table(variants, stored_pairs(variants))


# -- the site's table of the bands ----------------------------------------------------------


def test_the_bands_table_is_the_stored_bands_page_by_page(table: TidyTable) -> None:
    data = _stored_bands()
    records = table.records()
    assert table.name == STRONG_BANDS == "strong_bands"
    assert {r["compared_with"] for r in records} == {"foster__pagat", "foster__all-rules"}
    assert {(r["system"], r["towards"], r["on"]) for r in records} == {
        ("foster", "pagat", data["on"])
    }
    pair = [r for r in records if r["compared_with"] == "foster__pagat"]
    # the pair page shows every stored rule: a row per measure, or one row for a rule that
    # does not act, with its reason and no figures
    assert [r["rule"] for r in pair] == [
        e["rule"] for e in data["rules"] for _ in (e["band"] if e["acts"] else [None])
    ]
    for entry in data["rules"]:
        rows = [r for r in pair if r["rule"] == entry["rule"]]
        if not entry["acts"]:
            (row,) = rows
            assert row["acts"] is False and row["reason"] == entry["reason"]
            assert row["measure"] is row["low"] is row["verdict"] is None
            continue
        assert sorted(str(r["measure"]) for r in rows) == sorted(data["measures"])
        for row in rows:
            assert [row["low"], row["high"]] == entry["band"][row["measure"]]
            assert [row["nash_conv_low"], row["nash_conv_high"]] == entry["nash_conv"]
            assert row["low"] <= row["high"] and row["reason"] is None  # type: ignore[operator]
    # the every-rule page shows only the rules it has a row of, with the same figures
    every = [r for r in records if r["compared_with"] == "foster__all-rules"]
    assert every and {r["rule"] for r in every} < {r["rule"] for r in pair}
    figures = ("rule", "measure", "low", "high", "nash_conv_low", "nash_conv_high")
    assert {tuple(r[k] for k in figures) for r in every} <= {
        tuple(r[k] for k in figures) for r in pair
    }


def _invented_sign(report: dict[str, Any], rows: list[dict[str, Any]], metric: str) -> int:
    """+1 or -1 where every invented player's difference is clear (its interval stood
    behind and excluding 0) and of one sign; 0 otherwise. Read from the stored sweep."""
    signs = set()
    for policy in report["policies"]:
        found = [r for r in rows if r["policy"] == policy]
        if len(found) != 1 or not found[0].get("came_into_play"):
            return 0
        entry = found[0]["metrics"][metric]
        if entry.get("diff_interval", "normal") != "normal":
            return 0
        low, high = entry["diff_ci95"]
        if not entry.get("diff_clear", low > 0 or high < 0):
            return 0
        signs.add(1 if entry["diff"] > 0 else -1)
    return signs.pop() if len(signs) == 1 else 0


def _band_sign(low: float, high: float, margin: float) -> int:
    """The band's sign, on its ends as shown (three places), beyond the NashConv."""
    low, high = round(low, 3), round(high, 3)
    return 1 if low > margin else -1 if high < -margin else 0


def test_each_verdict_weighs_the_band_against_the_invented_players_effect(
    table: TidyTable, stored: dict[str, Any]
) -> None:
    """The verdict, worked out again from the stored band and the stored sweep the page
    sets it beside: the dealer's and the eldest hand's net and the pools are weighed, a
    middle seat is not."""
    data = _stored_bands()
    entries = {e["rule"]: e for e in data["rules"]}
    players = data["players"]
    expected = {
        "survives": lambda mine, strong: mine != 0 and strong == mine,
        "does not survive": lambda mine, strong: mine != 0 and strong == 0,
        "reversed": lambda mine, strong: mine != 0 and strong == -mine,
        "only under strong play": lambda mine, strong: mine == 0 and strong != 0,
        "neither clear": lambda mine, strong: mine == 0 and strong == 0,
    }
    weighed = 0
    for row in table.records():
        entry = entries[str(row["rule"])]
        report = stored[str(row["compared_with"])]["report"]
        seats = sum(1 for k in report["metrics"] if k.startswith("seat_net."))
        parts = {p["rule"]: p["to"] for p in entry.get("parts", [])}
        if row["compared_with"] == "foster__pagat":
            swept = [r for r in report["rows"] if set(r.get("changes") or {}) == set(parts)]
        else:
            swept = [r for r in report["rows"] if (r.get("changes") or {}) == parts]
        theirs = {f"seat_net.{players}": f"seat_net.{seats}", "seat_net.1": "seat_net.1"}
        theirs["pool"] = "pool"
        if not entry["acts"] or not swept or row["measure"] not in theirs:
            assert row["verdict"] is None, row
            continue
        mine = _invented_sign(report, swept, theirs[str(row["measure"])])
        strong = _band_sign(row["low"], row["high"], entry["nash_conv"][1])  # type: ignore[arg-type]
        assert expected[str(row["verdict"])](mine, strong), (row, mine, strong)
        weighed += 1
    assert weighed >= 3 * sum(e["acts"] for e in data["rules"])  # on the pair page at least
    assert {r["verdict"] for r in table.records()} - {None} <= set(VERDICTS)


def test_the_sentence_says_each_verdict_in_the_vocabularys_words(table: TidyTable) -> None:
    """Each row's verdict is said in the rule's sentence by its words in VERDICTS, about
    the measure's band; and the sentence is the one the pair page's bands carry."""
    words = {"seat_net.3": "the dealer's net", "seat_net.1": "the eldest hand's net"}
    words["pool"] = "the pools"
    for row in table.records():
        if row["verdict"] is None:
            continue
        band = band_text(row["low"], row["high"])  # type: ignore[arg-type]
        said = f"{words[str(row['measure'])]} {band}" if band != "no change" else band
        clauses = [c for c in str(row["sentence"]).split("; ") if said in c]
        assert clauses, (row["sentence"], said)
        # the verdict's words before and after the measures, with the players named
        before, _, after = VERDICTS[str(row["verdict"])].partition("{measures}")
        start = before.split("{who}")[-1].strip()
        assert any(start in c and after.split("{who}")[-1].strip(" ).") in c for c in clauses)
    foster, pagat = LIBRARY.get("foster"), LIBRARY.get("pagat")
    found = read_bands(foster, pagat)
    assert found.data is not None
    pairs = {p.name: p.stored.data for p in stored_pairs([foster, pagat])}
    bands = pair_bands(foster, pagat, pairs["foster__pagat"])
    assert bands is not None and bands.compared_with == "foster__pagat"
    on_page = {view.rule: view.sentence for view in bands.by_changes.values()}
    in_table = {
        r["rule"]: r["sentence"] for r in table.records() if r["compared_with"] == "foster__pagat"
    }
    assert in_table == on_page


def test_the_bands_table_is_typed_in_csv_and_json(table: TidyTable) -> None:
    types = {c.name: c.type for c in STRONG_BAND_COLUMNS}
    assert types["low"] == types["nash_conv_high"] == "number"
    assert types["acts"] == "boolean" and types["verdict"] == "string"
    rows = _rows(table.csv_text())
    assert len(rows) == len(table.records())
    for row, record in zip(rows, table.records(), strict=True):
        assert row["acts"] == ("true" if record["acts"] else "false")
        if record["low"] is not None:
            assert float(row["low"]) == record["low"]
        else:
            assert row["low"] == row["measure"] == ""
    verdicts = ", ".join(VERDICTS)
    assert verdicts in next(c.description for c in STRONG_BAND_COLUMNS if c.name == "verdict")
    # docs/data.md lists the verdicts, and each column with its type and description
    doc = (ROOT / "docs" / "data.md").read_text("utf-8")
    section = doc.split("### Bands under strong play, as the pages show them")[1]
    section = section.split("\n### ")[0]
    for verdict in VERDICTS:
        assert f"- `{verdict}`: " in section, verdict
    for title, columns in (
        ("### Bands under strong play, as the pages show them", STRONG_BAND_COLUMNS),
        ("### A solution of the abstracted game", SOLVE_COLUMNS),
        ("### Best responses against an invented player", EXPLOIT_COLUMNS),
        ("### One strong seat among invented players", STRONG_TABLE_COLUMNS),
    ):
        section = doc.split(title)[1].split("\n### ")[0]
        for c in columns:
            assert f"| `{c.name}` | {c.type} | {c.description} |" in section, (title, c.name)


@pytest.mark.slow  # reads the whole site (conftest's ``site``)
def test_the_pages_link_the_bands_and_print_their_sentences(site: Path) -> None:
    import json

    rows = json.loads((site / "data" / "tidy" / f"{STRONG_BANDS}.json").read_text("utf-8"))
    for page, compared in (
        ("compare/foster--pagat.html", "foster__pagat"),
        ("every-rule.html", "foster__all-rules"),
    ):
        text = (site / page).read_text("utf-8")
        prefix = "../" if "/" in page else ""
        for ext in ("csv", "json"):
            link = f'href="{prefix}data/tidy/{STRONG_BANDS}.{ext}" download>the strong-play bands'
            assert link in text, (page, ext)
        assert f"compared_with = {compared}" in text
        plain = html.unescape(re.sub(r"<[^>]+>", "", text))
        mine = [r for r in rows if r["compared_with"] == compared]
        assert mine
        for row in mine:
            assert row["sentence"] in plain, (page, row["rule"])


# -- strong solve, strong exploit and strong table ------------------------------------------


def _figures(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"[+-]\d+\.\d+", text)]


def test_strong_solve_csv_is_a_row_per_seat_of_the_printed_solution(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")
    out = tmp_path / "solve.csv"
    args = ["strong", "solve", "-v", "foster-three", *TINY, "--iterations", "60"]
    result = RUNNER.invoke(app, [*args, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = _rows(out.read_text("utf-8"))
    line = next(x for x in result.stdout.splitlines() if x.startswith("NashConv"))
    conv = float(line.split()[1])
    values = _figures(line.split("values ")[1])
    assert [int(r["seat"]) for r in rows] == [1, 2, 3]
    assert [f"{float(r['value']):+.3f}" for r in rows] == [f"{v:+.3f}" for v in values]
    assert {f"{float(r['nash_conv']):.4f}" for r in rows} == {f"{conv:.4f}"}
    gains = [float(r["best_response_gain"]) for r in rows]
    assert min(gains) >= -1e-9 and sum(gains) == pytest.approx(float(rows[0]["nash_conv"]))
    cpu = float(line.split("(")[1].split(" s of CPU")[0])
    assert {f"{float(r['cpu_seconds']):.1f}" for r in rows} == {f"{cpu:.1f}"}
    tree = re.search(r"tree: (\d+) states, (\d+) information states", result.output)
    assert tree is not None
    assert {(r["states"], r["information_states"]) for r in rows} == {tree.groups()}
    assert {(r["variant"], r["iterations"], r["cave"], r["bets"]) for r in rows} == {
        ("foster-three", "60", "10", "pot")
    }
    assert {(r["straddles"], r["sampled_deals"], r["classes"], r["seed"]) for r in rows} == {
        ("false", "4", "2", "1")
    }
    # on stdout with -: the same solution (the CPU time aside), and no report line
    again = RUNNER.invoke(app, [*args, "--csv", "-"])
    assert again.exit_code == 0, again.output
    assert "NashConv" not in again.stdout
    printed = _rows(again.stdout)
    assert [{**r, "cpu_seconds": ""} for r in printed] == [{**r, "cpu_seconds": ""} for r in rows]


def test_strong_exploit_csv_is_a_row_per_seat_of_the_printed_figures(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")
    out = tmp_path / "exploit.csv"
    args = ["strong", "exploit", "--policy", "simple", "--deals", "4"]
    result = RUNNER.invoke(app, [*args, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    rows = _rows(out.read_text("utf-8"))
    said = re.search(
        r"^simple on foster-three's abstracted game: NashConv ([\d.]+) counters per deal; "
        r"values (.*) \((\d+) choices with no abstract counterpart",
        result.stdout,
        re.M,
    )
    assert said is not None, result.stdout
    assert [int(r["seat"]) for r in rows] == [1, 2, 3]
    assert {f"{float(r['nash_conv']):.4f}" for r in rows} == {said.group(1)}
    assert [f"{float(r['value']):+.3f}" for r in rows] == said.group(2).split(", ")
    assert {r["no_counterpart"] for r in rows} == {said.group(3)}
    gains = [float(r["best_response_gain"]) for r in rows]
    assert min(gains) >= -1e-9 and sum(gains) == pytest.approx(float(rows[0]["nash_conv"]))
    assert {(r["policy"], r["samples"], r["sampled_deals"]) for r in rows} == {("simple", "1", "4")}
    again = RUNNER.invoke(app, [*args, "--csv", "-"])
    assert again.exit_code == 0, again.output
    assert "NashConv" not in again.stdout and _rows(again.stdout) == rows
    as_json = RUNNER.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert _same_as_csv(json.loads(as_json.stdout), rows)


def test_strong_table_csv_is_the_printed_net_and_interval(tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    # 2,000 deals of seed 1 (0.4 s): with fewer, one deal of 100 counters or more carries a
    # tenth of the spread and the interval is declined (study/intervals.py's rule), which
    # depends on the strategy stored: 400 held under the 300-deal one, not under later ones.
    args = ["strong", "table", "--against", "advised", "--deals", "2000", "--seed", "1"]
    result = RUNNER.invoke(app, [*args, "--csv", str(out)])
    assert result.exit_code == 0, result.output
    (row,) = _rows(out.read_text("utf-8"))
    said = re.search(
        r"against advised: ([+-][\d.]+) counters per deal \[([+-][\d.]+), ([+-][\d.]+)\] "
        r"over 2000 deals \(seed 1\); (\d+) steps from the strategy, (\d+) by advised",
        result.stdout,
    )
    assert said is not None, result.stdout
    low, high = float(row["ci95_low"]), float(row["ci95_high"])
    net = float(row["net_per_deal"])
    assert [f"{x:+.3f}" for x in (net, low, high)] == list(said.groups()[:3])
    assert low < net < high and net - low == pytest.approx(high - net)
    assert (row["strategy_steps"], row["advised_steps"]) == said.groups()[3:]
    assert (row["variant"], row["against"], row["seed"], row["deals"]) == (
        "foster-three",
        "advised",
        "1",
        "2000",
    )
    assert row["interval"] == "normal" and int(row["moved"]) >= 100
    again = RUNNER.invoke(app, [*args, "--csv", "-"])
    assert again.exit_code == 0, again.output
    assert "counters per deal" not in again.stdout and _rows(again.stdout) == [row]
    as_json = RUNNER.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    (typed,) = json.loads(as_json.stdout)
    assert _same_as_csv([typed], [row]) and isinstance(typed["strategy_steps"], int)


def test_strong_table_plays_a_users_own_profile_by_its_path(tmp_path: Path) -> None:
    """As the other strong commands: no strategy is stored for its rules (its cave is not
    foster-three's), so the strong seat's every step is advised's."""
    own = tmp_path / "my-three.yaml"
    own.write_text(
        "title: My three\nsource: foster\nextends: foster-three\n"
        "rules:\n  stakes:\n    cave:\n      value: 120\n      source: foster\n"
        "      status: inferred\n      reason: A test's own cave.\n",
        encoding="utf-8",
    )
    result = RUNNER.invoke(app, ["strong", "table", "-v", str(own), "--deals", "6", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert (row["variant"], row["deals"], row["strategy_steps"]) == ("my-three", 6, 0)
    assert row["advised_steps"] > 0


def test_strong_table_declines_its_interval_where_too_few_deals_moved() -> None:
    """The intervals' rule (study/intervals.py), as simulate's: 12 deals are too few."""
    args = ["strong", "table", "--against", "advised", "--deals", "12", "--seed", "3"]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    said = re.search(
        r"([+-][\d.]+) counters per deal \(no interval: (\d+) deals moved it, the largest by "
        r"([\d.]+)\) over 12 deals",
        result.stdout,
    )
    assert said is not None, result.stdout
    (typed,) = json.loads(RUNNER.invoke(app, [*args, "--json"]).stdout)
    assert typed["interval"] == "declined" and 0 < typed["moved"] < 100
    assert [f"{typed['net_per_deal']:+.3f}", str(typed["moved"]), f"{typed['largest']:.3f}"] == [
        *said.groups()
    ]


@pytest.mark.parametrize("command", ["solve", "exploit", "table", "measure", "bands"])
def test_json_and_csv_on_stdout_together_are_refused_before_the_work(command: str) -> None:
    systems = ["-v", "foster", "-v", "pagat"] if command == "bands" else []
    result = RUNNER.invoke(app, ["strong", command, *systems, "--json", "--csv", "-"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "error: --json and --csv -: both print on stdout; give --csv a file"
    )


@pytest.mark.parametrize("command", ["solve", "exploit", "table"])
def test_a_csv_file_that_cannot_be_written_is_one_line_and_exit_2(
    command: str, tmp_path: Path
) -> None:
    target = tmp_path / "no-such" / "x.csv"
    result = RUNNER.invoke(app, ["strong", command, "--csv", str(target)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert lines[0].endswith("no such folder for the CSV file")
    assert not target.parent.exists()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("{tmp}/nope.yaml", "nope.yaml: no such profile file (a profile is a .yaml file)"),
        ("{tmp}/notes.txt", "notes.txt: not a profile: give a variant id"),
        ("{tmp}", ": not a profile: give a variant id"),
        ("{tmp}/mine.yml", "mine.yml: a profile file's name ends in .yaml (rename it)"),
    ],
)
def test_a_strong_variant_that_is_no_profile_is_refused_as_such(
    tmp_path: Path, given: str, says: str
) -> None:
    """Before, each was 'unknown variant' with the file's stem as the id ('nope', 'notes'),
    and a .yml file was looked for as a .yaml one."""
    (tmp_path / "notes.txt").write_text("not a profile\n", encoding="utf-8")
    (tmp_path / "mine.yml").write_text("title: Mine\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["strong", "table", "-v", given.format(tmp=tmp_path)])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert says in line and "unknown variant" not in line


def test_a_strong_variant_id_is_an_id_whatever_the_current_folder_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file named ``foster`` in the current folder (and a ``foster.yaml`` beside it) is not
    read in place of the bundled profile: before, any existing file was taken for a path."""
    (tmp_path / "foster").write_text("anything\n", encoding="utf-8")
    (tmp_path / "foster.yaml").write_text("title: Not Foster\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["strong", "table", "-v", "foster", "--deals", "2", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert row["variant"] == "foster" and row["strategy_steps"] > 0
