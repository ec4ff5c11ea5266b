"""The stored results of "What each rule does" (``site/effects/``): content-addressed, used
only when their key matches, never recomputed by a build, and reproduced by recomputing a
sample of their deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.site import effects
from bouillotte.site.names import Names
from bouillotte.site.rules import system_order
from bouillotte.study import sweep
from bouillotte.study.sweep import run_sweep
from bouillotte.study.sweep_combinations import towards_combinations
from bouillotte.study.sweep_report import sweep_report

LIBRARY = Library()
PAIRS = effects.effect_pairs(system_order(LIBRARY.all()))


def test_the_pairs_share_a_pack_and_a_number_of_players() -> None:
    names = {f"{a.id}__{b.id}" for a, b in PAIRS}
    assert "foster__pagat" in names
    assert not any("brelan-pierer" in n or "foster-five" in n for n in names)
    for a, b in PAIRS:
        assert a.players == b.players
        assert a.rules.table.pack_ranks() == b.rules.table.pack_ranks()


def test_every_stored_file_is_up_to_date() -> None:
    """Like the golden transcripts: a change to the engine or a profile that moves the
    figures must come with `bouillotte effects --write`."""
    stored = [(a, b) for a, b in PAIRS if effects.store_path(a, b).is_file()]
    assert ("foster", "pagat") in [(a.id, b.id) for a, b in stored]
    for a, b in stored:
        found = effects.stored_effects(a, b)
        assert found.data is not None, found.problem
        assert found.data["deals"] >= 20_000
        assert len(found.data["policies"]) >= 2
        assert found.data["command"] == effects.command(a, b)


def test_every_bundled_pair_has_stored_results() -> None:
    missing = [f"{a.id}__{b.id}" for a, b in PAIRS if not effects.store_path(a, b).is_file()]
    assert not missing


def test_the_effects_command_lists_each_pair() -> None:
    from typer.testing import CliRunner

    from bouillotte.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["effects", "--pair", "foster__pagat"])
    assert result.exit_code == 0, result.output
    assert result.output == "foster__pagat: up to date\n"
    wrong = runner.invoke(app, ["effects", "--pair", "foster__nobody"])
    assert wrong.exit_code == 2
    assert "no such pair 'foster__nobody'" in wrong.output


def test_a_file_is_used_only_when_its_key_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(effects, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("pagat"), LIBRARY.get("pagat-mistigri")
    assert effects.stored_effects(a, b).problem == "no stored results for pagat and pagat-mistigri"
    data = effects.compute_effects(a, b, deals=40)
    effects.write_effects(a, b, data)
    found = effects.stored_effects(a, b)
    assert found.data == json.loads(json.dumps(data))
    # Other rules: another key, and the file is not used.
    changed = a.with_values({"forced_bets.dealer_blind": 2})
    assert effects.effects_key(changed, b, 40) != effects.effects_key(a, b, 40)
    (tmp_path / "pagat__pagat-mistigri.json").write_text(
        json.dumps(data | {"key": effects.effects_key(changed, b, 40)}), encoding="utf-8"
    )
    stale = effects.stored_effects(a, b)
    assert stale.data is None and "other rules or another engine" in stale.problem
    page = effects.pair_effects(a, b)
    assert page is not None and not page.available
    assert page.fix == "bouillotte effects --write"
    # A damaged file (another shape of JSON) is not used either, and breaks nothing.
    for damaged in ("[]", '{"deals": "many"}', "12"):
        (tmp_path / "pagat__pagat-mistigri.json").write_text(damaged, encoding="utf-8")
        found = effects.stored_effects(a, b)
        assert found.data is None and "is not a stored result" in found.problem


def test_the_page_is_drawn_from_the_file_and_never_sweeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(effects, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    effects.write_effects(a, b, effects.compute_effects(a, b, deals=60))

    def no_sweep(*args: object, **kwargs: object) -> None:
        raise AssertionError("the stored figures should have been used")

    monkeypatch.setattr(sweep, "run_sweep", no_sweep)
    names = Names.of([a, b], {})
    page = effects.pair_effects(b, a, names=names)  # the pair may be named the other way round
    assert page is not None and page.available
    labels = [e.label for e in page.effects]
    switched, _ = towards_combinations(a, b)
    assert sorted(labels) == sorted(c.label for c in switched)
    assert labels[-1].startswith("all ")  # the whole difference last, the rules by size
    sizes = [e.size for e in page.effects[:-1]]
    assert sizes == sorted(sizes, reverse=True)
    assert page.command.startswith("bouillotte sweep foster --towards pagat --deals 60")
    blind = next(e for e in page.effects if e.label == "forced_bets.dealer_blind=1")
    assert blind.rules == [
        "Dealer's blind: 5 (Foster 1897, documented) → 1 (Teaching card, documented)"
    ]
    assert blind.heading == "Dealer's blind → 1"
    assert page.chart is not None and "Dealer&#x27;s blind → 1" in page.chart
    section = effects.rule_effects_section([a, b], lambda _: None)
    assert section.tables and section.missing is None


@pytest.mark.slow
@pytest.mark.parametrize("pair", ["foster__pagat", "pagat__pagat-mistigri"])
def test_a_sample_of_the_stored_deals_is_reproduced(pair: str) -> None:
    """Recompute the first 200 deals of a stored run, as the stored command would, and
    compare with the sample kept beside the figures: the same numbers to the last digit."""
    a, b = (LIBRARY.get(v) for v in pair.split("__"))
    found = effects.stored_effects(a, b)
    assert found.data is not None, found.problem
    combinations, skipped = towards_combinations(a, b)
    policies = found.data["policies"]
    tallies = run_sweep(a, combinations, policies, 200, found.data["seed"])
    again = sweep_report(a, combinations, tallies, found.data["seed"], skipped, b.id)
    assert json.loads(json.dumps(again)) == found.data["sample"]
