"""The stored results of "What each rule does" (``site/effects/``): keyed on their declared
inputs, used only when their key matches, never recomputed by a build (the sample of every
stored file is recomputed in ``tests/test_effects_sample.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.site import effects, effects_run, effects_store
from bouillotte.site.names import Names
from bouillotte.site.rules import system_order
from bouillotte.study import sweep
from bouillotte.study.policies import get_policy
from bouillotte.study.sweep_combinations import towards_combinations
from bouillotte.study.table_policy import TENDENCIES

LIBRARY = Library()
PAIRS = effects_store.effect_pairs(system_order(LIBRARY.all()))


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
    stored = [(a, b) for a, b in PAIRS if effects_store.store_path(a, b).is_file()]
    assert ("foster", "pagat") in [(a.id, b.id) for a, b in stored]
    for a, b in stored:
        found = effects_store.stored_effects(a, b)
        assert found.data is not None, found.problem
        assert found.data["deals"] >= 20_000
        assert len(found.data["policies"]) >= 2
        assert found.data["command"] == effects_store.command(a, b)


def test_every_bundled_pair_has_stored_results() -> None:
    missing = [f"{a.id}__{b.id}" for a, b in PAIRS if not effects_store.store_path(a, b).is_file()]
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
    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("pagat"), LIBRARY.get("pagat-mistigri")
    assert (
        effects_store.stored_effects(a, b).problem
        == "no stored results for pagat and pagat-mistigri"
    )
    data = effects_run.compute_effects(a, b, deals=40)
    effects_store.write_effects(a, b, data)
    found = effects_store.stored_effects(a, b)
    assert found.data == json.loads(json.dumps(data))
    # Other rules: another key, and the file is not used.
    changed = a.with_values({"forced_bets.dealer_blind": 2})
    assert effects_store.effects_key(changed, b, 40) != effects_store.effects_key(a, b, 40)
    (tmp_path / "pagat__pagat-mistigri.json").write_text(
        json.dumps(data | {"key": effects_store.effects_key(changed, b, 40)}), encoding="utf-8"
    )
    stale = effects_store.stored_effects(a, b)
    assert stale.data is None and "other rules, players or results version" in stale.problem
    page = effects.pair_effects(a, b)
    assert page is not None and not page.available
    assert page.fix == "bouillotte effects --write"
    # A damaged file (another shape of JSON) is not used either, and breaks nothing.
    for damaged in ("[]", '{"deals": "many"}', "12"):
        (tmp_path / "pagat__pagat-mistigri.json").write_text(damaged, encoding="utf-8")
        found = effects_store.stored_effects(a, b)
        assert found.data is None and "is not a stored result" in found.problem


def test_the_page_is_drawn_from_the_file_and_never_sweeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    effects_store.write_effects(a, b, effects_run.compute_effects(a, b, deals=60))

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


def test_the_key_changes_with_each_declared_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key covers what the figures are declared to depend on: the deals, the seed, the
    players and their order, the systems' rules, the players' tendencies and the results
    version; each changed alone gives another key."""
    from bouillotte.study import policies

    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    key = effects_store.effects_key(a, b, 40)
    assert effects_store.effects_key(a, b, 40) == key
    assert effects_store.effects_key(a, b, 41) != key
    assert effects_store.effects_key(a, b, 40, seed=2) != key
    assert effects_store.effects_key(b, a, 40) != key
    changed = b.with_values({"forced_bets.dealer_blind": 3})
    assert effects_store.effects_key(a, changed, 40) != key
    pair = (a, b)
    both = effects_store.sweep_key(pair, ("advised", "bold"), 40, 1)
    assert both == key
    assert effects_store.sweep_key(pair, ("bold", "advised"), 40, 1) != key
    assert effects_store.sweep_key(pair, ("advised",), 40, 1) != key
    sentence, tendencies = policies.TABLE_PLAYERS["bold"]
    bolder = tendencies.changed({"bluff": 0.5})
    monkeypatch.setitem(policies.TABLE_PLAYERS, "bold", (sentence, bolder))
    assert effects_store.effects_key(a, b, 40) != key  # the same name, other tendencies
    monkeypatch.setitem(policies.TABLE_PLAYERS, "bold", (sentence, tendencies))
    assert effects_store.effects_key(a, b, 40) == key
    monkeypatch.setattr(effects_store, "RESULTS_VERSION", effects_store.RESULTS_VERSION + 1)
    assert effects_store.effects_key(a, b, 40) != key


def test_the_key_records_the_inputs_as_declared() -> None:
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    inputs = effects_store.key_inputs((a, b), ("advised", "simple"), 40, 7)
    assert inputs["deals"] == 40 and inputs["seed"] == 7
    assert inputs["results_version"] == effects_store.RESULTS_VERSION
    assert [s[0] for s in inputs["systems"]] == ["foster", "pagat"]
    assert inputs["systems"][0][1] == a.players
    assert inputs["systems"][1][2]["forced_bets"]["straddle_amount"] == "the-whole-pot"
    advised, simple = inputs["policies"]
    assert simple == {"name": "simple", "tendencies": None}
    assert advised["name"] == "advised"
    assert advised["tendencies"]["open_point"] == 21  # Foster's point alone, as advised


def test_the_key_reads_no_source_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a tripwire on bytes: working the key out opens no file, so a comment or a
    refactor of the engine leaves every stored file in use (its meaning is checked by
    recomputing a sample, tests/test_effects_sample.py)."""
    a, b = LIBRARY.get("foster"), LIBRARY.get("pagat")
    key = effects_store.effects_key(a, b)

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the key read a file")

    monkeypatch.setattr(Path, "read_bytes", no_reading)
    monkeypatch.setattr(Path, "read_text", no_reading)
    monkeypatch.setattr(Path, "open", no_reading)
    assert effects_store.effects_key(a, b) == key


def test_a_file_of_another_number_of_deals_is_read_with_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored file is checked against the key of the deals it says it has."""
    monkeypatch.setattr(effects_store, "store_folder", lambda: tmp_path)
    a, b = LIBRARY.get("pagat"), LIBRARY.get("pagat-mistigri")
    data = {"key": effects_store.effects_key(a, b, 30), "deals": 30, "report": {}}
    effects_store.write_effects(a, b, data)
    assert effects_store.stored_effects(a, b).data == data
    effects_store.write_effects(a, b, data | {"deals": 31})
    assert effects_store.stored_effects(a, b).data is None


@pytest.mark.parametrize("name", list(TENDENCIES))
def test_each_tendency_set_after_a_colon_lands_in_its_own_field(name: str) -> None:
    """The tendencies are an input of the key and of the play: one set after a colon
    changes that tendency alone (a parser that swapped two fields would move another)."""
    table = get_policy("table")
    defaults = table.tendencies.as_dict()  # type: ignore[attr-defined]
    default = defaults[name]
    if isinstance(default, float):  # a chance
        value: float = 0.37
    elif name in ("call_all_in", "eldest_passes", "no_ace_alone", "three_way_limit", "buy_fourth"):
        value = 1 - int(default)  # a yes or no
    else:
        value = 7  # a point, a shift or a count
    assert value != default
    policy = get_policy(f"table:{name}={value}")
    assert policy.tendencies.as_dict() == defaults | {name: value}  # type: ignore[attr-defined]
