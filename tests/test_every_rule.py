"""The full sweep (``bouillotte sweep foster --all-rules``) and its stored result, the page
"What every rule of Foster's system does": built from the file alone, every rule with its
values side by side, labelled with players, deals and carried counters, and a note for the
rules no deal read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.site import everyrule
from bouillotte.study.sweep_combinations import ALL_RULES_POLICIES, all_rule_combinations
from bouillotte.study.sweep_report import not_met

from .test_effects_sample import _without_added

LIBRARY = Library()
RUNNER = CliRunner()


def test_the_full_sweep_switches_every_rule_of_finitely_many_values_alone() -> None:
    foster = LIBRARY.get("foster")
    combinations, skipped = all_rule_combinations(foster)
    changed = [next(iter(c.changes)) for c in combinations]
    assert all(len(c.changes) == 1 for c in combinations)
    # Each of a rule's other values once: betting.closing has three values, so two rows.
    assert changed.count("betting.closing") == 2
    assert changed.count("hands.favori") == 3
    assert "bonuses.carre.paid_by" in changed  # a part of a rule made of parts
    assert "stakes.cave" not in changed  # a number: no finite list of values
    assert {s.rule for s in skipped} >= {"session.carried_pot_at_end", "misdeals.dealer_keeps_deal"}
    assert not set(changed) & {s.rule for s in skipped}
    assert all(c.variant is not None for c in combinations)


def test_sweep_all_rules_json_says_which_rules_were_read() -> None:
    result = RUNNER.invoke(
        app, ["sweep", "foster", "--all-rules", "-n", "4", "--policy", "simple", "--json", "-q"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = [r for r in data["rows"] if r["combination"] != "base"]
    assert len(rows) == len(all_rule_combinations(LIBRARY.get("foster"))[0])
    by_label = {r["combination"]: r for r in rows}
    # The cut is never simulated: no deal reads it. The direction of play is read in all.
    assert by_label["table.cut_by=player-on-dealers-right"]["rules_read"] == 0
    assert by_label["table.direction=left"]["rules_read"] == 4
    assert all(r["came_into_play"] <= r["rules_read"] for r in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--all-rules", "--vary", "hands.favori"], "--all-rules varies every rule already"),
        (["--all-rules", "--towards", "pagat"], "--all-rules varies every rule already"),
        ([], "--towards VARIANT or --all-rules"),
    ],
)
def test_bad_input_to_the_full_sweep_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = RUNNER.invoke(app, ["sweep", "foster", *args, "-n", "2"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_the_help_shows_the_full_sweep_with_an_example() -> None:
    result = RUNNER.invoke(app, ["sweep", "--help"])
    assert "--all-rules" in result.output
    assert "bouillotte sweep foster --all-rules" in result.output


@pytest.mark.slow
def test_the_page_is_built_from_the_stored_file_and_names_what_never_came_into_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bouillotte.site import effects_store

    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    monkeypatch.setattr(everyrule, "store_folder", lambda: tmp_path)
    foster = LIBRARY.get("foster")
    missing = everyrule.every_rule_page(LIBRARY.all())
    assert missing is not None
    path, template, title, context, _ = missing
    assert (path, template, title) == (
        "every-rule.html",
        "everyrule.html",
        "What every rule of Foster's system does",
    )
    assert context["problem"] == "no stored full sweep of foster" and "blocks" not in context
    data = everyrule.compute_every_rule(foster, deals=6)
    assert data["command"] == (
        "bouillotte sweep foster --all-rules --deals 6 --seed 1 "
        + " ".join(f"--policy {p}" for p in ALL_RULES_POLICIES)
    )
    everyrule.write_every_rule(data)
    found = everyrule.every_rule_page(LIBRARY.all())
    assert found is not None
    context = found[3]
    assert context["deals"] == 6 and context["players"] == list(ALL_RULES_POLICIES)
    blocks = {b.rule: b for b in context["blocks"]}
    closing = blocks["betting.closing"]
    assert [v.value for v in closing.rows] == [
        "calling privilege",
        "no more round",
        "single round",
    ]
    assert closing.rows[0].is_base and len(closing.rows[0].cells) == len(ALL_RULES_POLICIES)
    assert all(len(cells) == len(context["columns"]) for v in closing.rows for cells in v.cells)
    assert "cannot act under any of these players" in blocks["table.cut_by"].note
    # A rule only the sample left unread is said to be unread, not to be unable to act.
    unread = [b for b in blocks.values() if "No deal of 6 read this rule" in b.note]
    assert unread and all("cannot act" not in b.note for b in unread)
    # A rule the deals read but that changed nothing "did not act"; one never read "cannot".
    words = {
        row["acts"]: not_met(row, 6)
        for row in data["report"]["rows"]
        if row["combination"] != "base" and row["status"] == "ok"
    }
    assert set(words) >= {"cannot-act", "did-not-act", "acted"}
    assert str(words["cannot-act"]).startswith("cannot act under this player: no deal of 6")
    assert str(words["did-not-act"]).startswith("did not act in these deals: read in ")
    assert words["acted"] is None
    assert "No player's choice reaches this rule" in blocks["hands.card_under_retourne"].note
    # Another number of deals or other code: another key, and the page says what to run.
    (tmp_path / "foster__all-rules.json").write_text(
        json.dumps(data | {"key": "0" * 16}), encoding="utf-8"
    )
    stale = everyrule.every_rule_page(LIBRARY.all())
    assert stale is not None and "other rules, players or results version" in stale[3]["problem"]
    assert stale[3]["fix"] == "bouillotte effects --write"


@pytest.mark.slow
def test_the_effects_command_lists_and_writes_the_full_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bouillotte.site import effects_store

    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    monkeypatch.setattr(everyrule, "store_folder", lambda: tmp_path)
    listed = RUNNER.invoke(app, ["effects", "--pair", "foster__all-rules"])
    assert listed.exit_code == 1
    assert listed.output.startswith("foster__all-rules: no stored full sweep of foster\n")
    args = ["effects", "--pair", "foster__all-rules", "--write", "--deals", "3", "-q"]
    written = RUNNER.invoke(app, args)
    assert written.exit_code == 0, written.output
    assert "foster__all-rules: written to" in written.output and "s of CPU" in written.output
    again = RUNNER.invoke(app, ["effects", "--pair", "foster__all-rules", "--deals", "3"])
    assert again.output == "foster__all-rules: up to date\n"


@pytest.mark.slow
def test_the_stored_full_sweep_reproduces_its_sample() -> None:
    """The stored file's first deals, recomputed, give its ``sample`` exactly (its key
    may be stale after a change of the engine; ``bouillotte effects`` says so)."""
    stored = json.loads(everyrule.every_rule_path().read_text(encoding="utf-8"))
    foster = LIBRARY.get("foster")
    again = everyrule.compute_every_rule(foster, deals=min(everyrule.SAMPLE_DEALS, stored["deals"]))
    # judgements added since the file was stored are compared once it holds them
    assert _without_added(again["report"], stored["sample"]) == stored["sample"]


@pytest.mark.slow
def test_a_site_without_a_fresh_full_sweep_says_so_on_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm_cache: Path
) -> None:
    """A missing (or stale) stored sweep is a page that says what to run, not a failed
    build (the template once required the sweep's figures). The other results are read
    from a warm cache (the rule effects are never in it: they are stored in site/effects/)."""
    from bouillotte.site import build_site, effects_store

    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path / "store")
    monkeypatch.setattr(everyrule, "store_folder", lambda: tmp_path / "store")
    build_site(tmp_path / "out")
    page = (tmp_path / "out" / "every-rule.html").read_text(encoding="utf-8")
    assert "Not shown: no stored full sweep of Foster 1897" in page
    assert "bouillotte effects --write" in page
