"""Rule attribution names the rules that make two systems' outcomes differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import differing_rules
from bouillotte.study.attribution import Attribution, signature
from bouillotte.study.compare import compare
from bouillotte.study.scenario import ScenarioLibrary

from .test_rule_coverage import ACROSS_DEALS


def test_every_rule_on_which_foster_and_pagat_differ_is_attributed_somewhere(
    library: Library,
) -> None:
    """Each differing rule that can act within one deal is named as responsible for the
    difference between foster and pagat in at least one bundled scenario."""
    named: set[str] = set()
    for scenario in ScenarioLibrary().all():
        ids = scenario.variant_ids(library)
        if "foster" not in ids or "pagat" not in ids:
            continue
        comparison = compare(scenario, library, ["foster", "pagat"])
        for attribution in comparison.attributions:
            for group in attribution.responsible:
                named.update(group)
    within_a_deal = [
        p
        for p in differing_rules(library.get("foster"), library.get("pagat"))
        if p not in ACROSS_DEALS
    ]
    missing = [p for p in within_a_deal if p not in named]
    assert not missing, f"never attributed: {missing}"


@pytest.mark.parametrize(
    ("scenario_id", "rule", "alone"),
    [
        ("foster-sight", "betting.all_in_may_open_or_raise", True),
        ("tie-dealer-owns-a-suit", "point.suit_tie", True),
        # The card under the retourne changes the winner, but the carré bonus and the
        # ledger differ too, so no one rule alone gives pagat's outcome.
        ("carre-card-under-retourne", "hands.card_under_retourne", False),
    ],
)
def test_the_responsible_rule_is_named(
    library: Library, scenario_id: str, rule: str, alone: bool
) -> None:
    scenario = ScenarioLibrary().find(scenario_id)
    comparison = compare(scenario, library, ["foster", "pagat"])
    (attribution,) = comparison.attributions
    assert [rule] in attribution.responsible
    assert ([rule] in attribution.reproduces) is alone


def test_identical_outcomes_need_no_attribution(library: Library) -> None:
    scenario = ScenarioLibrary().find("foster-point")
    comparison = compare(scenario, library, ["foster", "pagat"])
    assert not comparison.differs(1)
    assert comparison.attributions == []


# -- minimal sets: every smallest combination of rules that reproduces a difference ----------


def _sight(library: Library, *readings: str) -> Attribution:
    from bouillotte.rules.readings import parse_reading

    scenario = ScenarioLibrary().find("foster-sight")
    chosen = [parse_reading(r, library.readings) for r in readings]
    comparison = compare(scenario, library, ["foster", "cardrulesplus"], readings=chosen)
    (attribution,) = comparison.attributions
    return attribution


def test_the_rules_that_together_give_cardrulesplus_its_main_pool(library: Library) -> None:
    """Foster's sight under CardRulesPlus (worked by hand from the two profiles): each
    player counts his own hand with the retourne, so A's clubs (AC KC 9C), C's spades
    (AS QS 9S) and D's hearts (AH KH and the retourne 9H) tie, at 30 by Foster's values and
    31 by CardRulesPlus's (the 9 counts 10); with everyone's ante of 1 the main pool is 106.
    The tie goes to D either way: he owns the retourne's suit, and he is the dealer, whom
    Foster's literal reading (dealer-first) puts first. So the ante and the count alone give
    CardRulesPlus's chips, neither does alone, and the tie-break and the values are needed
    for its reasons ("tie at 31; the retourne's suit (hearts) wins the tie")."""
    a = _sight(library)
    assert a.towards is not None and a.towards.outcome.complete
    assert a.towards.outcome.sets == [["forced_bets.others_ante", "point.counted_cards"]]
    assert a.towards.outcome.changes == ["forced_bets.others_ante", "point.counted_cards"]
    assert a.towards.outcome.alone() == []
    (same_way,) = a.towards.same_way.sets
    assert "point.suit_tie" in same_way and "table.point_values" in same_way
    assert set(same_way) == {
        "forced_bets.others_ante",
        "point.counted_cards",
        "point.suit_tie",
        "table.point_values",
    }
    # The one-at-a-time answer keeps its meaning.
    assert a.responsible == [["forced_bets.others_ante"], ["point.counted_cards"]]
    assert a.reproduces == []


def test_under_the_eldest_first_reading_the_tie_break_is_needed_for_the_chips(
    library: Library,
) -> None:
    """Read eldest first, Foster gives the three-way tie to A (nearest the dealer's right),
    so CardRulesPlus's main pool to D needs its tie-break too."""
    a = _sight(library, "point.suit_tie=eldest-first")
    assert a.towards is not None
    assert a.towards.outcome.sets == [
        ["forced_bets.others_ante", "point.counted_cards", "point.suit_tie"]
    ]


def test_every_set_found_reproduces_and_no_part_of_it_does(library: Library) -> None:
    from itertools import combinations

    from bouillotte.study.attribution import PlayCache, _Player

    scenario = ScenarioLibrary().find("foster-sight")
    base = compare(scenario, library, ["foster", "cardrulesplus"])
    first, other = base.results
    a = base.attributions[0]
    assert a.towards is not None
    play = _Player(scenario, first.variant, other.variant, other.data, PlayCache(scenario))
    for found in a.towards.outcome.sets:
        assert play(tuple(found)).reproduces
        for size in range(len(found)):
            for part in combinations(found, size):
                assert not play(part).reproduces, part


@pytest.mark.slow
def test_the_ways_of_a_deal_decide_every_combination_as_playing_them_all_does(
    library: Library,
) -> None:
    """The exact search from the ways the deal goes agrees with playing every combination
    in order of size, both ways, for every pair of systems differing on nine rules or
    fewer (where playing them all fits the limit) that ends differently in these deals."""
    from bouillotte.study.attribution import PlayCache, _Player

    from .attribution_oracles import search_sets

    checked = 0
    for scenario_id in ("foster-sight", "tie-dealer-owns-a-suit", "all-in-opening"):
        scenario = ScenarioLibrary().find(scenario_id)
        comparison = compare(scenario, library, with_attribution=False)
        results = comparison.results
        for i, rx in enumerate(results):
            for ry in results[i + 1 :]:
                x, y = rx.variant, ry.variant
                if len(differing_rules(x, y)) > 9 or signature(rx.data) == signature(ry.data):
                    continue
                a = compare(scenario, library, [x.id, y.id]).attributions[0]
                assert a.towards is not None and a.back is not None
                for got, (base, other) in ((a.towards, (rx, ry)), (a.back, (ry, rx))):
                    play = _Player(
                        scenario, base.variant, other.variant, other.data, PlayCache(scenario)
                    )
                    start = signature(base.data)
                    want = search_sets(a.differing, play, start, 512)
                    same = search_sets(a.differing, play, start, 512, same_way=True)
                    assert want.complete and got.outcome.by_ways and got.outcome.complete
                    assert got.outcome.sets == want.sets, (scenario_id, x.id, y.id)
                    assert got.same_way.sets == same.sets
                    assert got.outcome.changes == want.changes
                checked += 1
    assert checked >= 3


def test_a_search_cut_short_says_so() -> None:
    """Played in order of size: a set holding one found is not played; an invalid
    combination reproduces nothing; the limit cuts the search and the result says where."""
    from bouillotte.study.reproduce import Trial

    from .attribution_oracles import search_sets

    rules = ["a", "b", "c", "d", "e"]

    def play(paths: tuple[str, ...]) -> Trial:
        switched = set(paths)
        if switched == {"d"}:
            return Trial(None, False)  # no valid system
        return Trial(("changed",) if "a" in switched else ("base",), {"a", "b"} <= switched)

    full = search_sets(rules, play, ("base",), limit=100)
    assert full.complete and full.sets == [["a", "b"]] and full.changes == ["a"]
    assert full.invalid == 1 and full.played == 31 - 7  # the 7 other sets holding a and b
    cut = search_sets(rules, play, ("base",), limit=8)
    assert not cut.complete and cut.up_to == 1 and cut.sets == [["a", "b"]]
    assert "search cut after 8 combinations" in cut.note()


def test_the_ways_of_a_program_are_all_found() -> None:
    """A made-up deal that reads ``x``, then ``y`` only if ``x`` is switched, else ``z``."""
    from itertools import combinations

    from bouillotte.study.trajectories import ways

    from .attribution_oracles import outcome_of

    def deal(switched: frozenset[str]) -> tuple[tuple[bool, ...], list[str]]:
        if "x" in switched:
            return ("y" in switched,), ["x", "y"]
        return ("z" in switched, "w" in switched), ["x", "z", "w"]

    rules = ["w", "x", "y", "z"]
    found = ways(rules, deal, 100)
    assert len(found.leaves) == 2 + 4 and found.complete
    for size in range(len(rules) + 1):
        for switched in map(frozenset, combinations(rules, size)):
            assert outcome_of(found.leaves, switched) == deal(switched)[0]
    # Bounded, level by level: the base and the three ways one switched rule reaches
    # (x, z, w) fit in 4; a level that does not fit is not played at all.
    cut = ways(rules, deal, 5)
    assert not cut.complete and cut.up_to == 1 and len(cut.leaves) == 4
    for switched in map(frozenset, combinations(rules, 1)):
        assert outcome_of(cut.leaves, switched) == deal(switched)[0]
    # A way that gives what is sought is not followed: everything below holds its rules.
    settled = ways(rules, deal, 100, settled=lambda outcome: outcome == (False,))
    assert settled.complete and len(settled.leaves) == 5


def test_plays_are_found_by_the_values_of_the_rules_they_read() -> None:
    """A play read ``x`` then ``y``: any rules agreeing on those two end the same, others
    are not found."""
    from bouillotte.study.trajectories import Paths

    paths = Paths()
    paths.add({"x": "1", "y": "2", "z": "3"}.__getitem__, (("end",), ["x", "y"]))
    assert paths.find({"x": "1", "y": "2", "z": "9"}.__getitem__) == (("end",), ["x", "y"])
    assert paths.find({"x": "1", "y": "5", "z": "3"}.__getitem__) is None
    assert paths.played == 1


def test_the_terminal_says_what_each_list_means(runner: CliRunner) -> None:
    result = runner.invoke(
        app, ["compare", "foster-sight", "--only", "foster,cardrulesplus"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        "these rules together produce cardrulesplus's outcome: "
        "forced_bets.others_ante + point.counted_cards"
    ) in out
    assert "alone changes the outcome, but not to cardrulesplus's" in out
    assert "for cardrulesplus's reasons too: table.point_values + forced_bets.others_ante" in out
    assert "point.suit_tie (foster: inferred; cardrulesplus: inferred)" in out
    assert '"In case of ties, the dealer, or the player nearest him on the right wins."' in out
    data = json.loads(
        runner.invoke(
            app, ["compare", "foster-sight", "--only", "foster,cardrulesplus", "--json"]
        ).stdout
    )
    (entry,) = data["attribution"]
    assert entry["minimal_sets"] == [["forced_bets.others_ante", "point.counted_cards"]]
    assert entry["responsible"] == [["forced_bets.others_ante"], ["point.counted_cards"]]
    assert entry["search"]["complete"] and entry["reverse"]["base"] == "cardrulesplus"
    assert "point.suit_tie" in entry["same_way"]["minimal_sets"][0]
    assert [e["kind"] for e in entry["explanation"]] == ["together", "changes", "same-way"]


def test_a_reading_is_played_from_the_terminal(runner: CliRunner) -> None:
    """Tied suits when the dealer owns one (worked by hand): spades and clubs tie at 48;
    read dealer first, D (the dealer, clubs) takes the 20; read eldest first, A does."""
    own = runner.invoke(app, ["run", "tie-dealer-owns-a-suit", "-v", "foster", "--json"])
    eldest = ["--reading", "point.suit_tie=eldest-first"]
    read = runner.invoke(app, ["run", "tie-dealer-owns-a-suit", "-v", "foster", "--json", *eldest])
    assert own.exit_code == read.exit_code == 0, read.output
    assert json.loads(own.stdout)["pots"][0]["winner"] == "D"
    data = json.loads(read.stdout)
    assert data["pots"][0]["winner"] == "A"
    assert data["readings"][0]["rule"] == "point.suit_tie"
    assert data["readings"][0]["own"] == "dealer-first"
    pair = ["compare", "foster-sight", "--only", "foster,cardrulesplus"]
    text = runner.invoke(app, [*pair, *eldest]).stdout
    assert "foster reads point.suit_tie as eldest-first instead of dealer-first" in text
    assert "forced_bets.others_ante + point.counted_cards + point.suit_tie" in text


@pytest.mark.parametrize(
    ("reading", "words"),
    [
        ("point.suit_tie=first", "its readings: dealer-first, eldest-first, retourne-suit"),
        ("point.tie=eldest-first", "unknown rule 'point.tie'; the rules with readings:"),
        ("betting.closing=single-round", "'betting.closing' has no readings"),
        ("point.suit_tie", "write a reading as RULE=VALUE"),
    ],
)
def test_a_bad_reading_is_one_line_naming_what_is_valid(
    runner: CliRunner, reading: str, words: str
) -> None:
    for command in (["run", "foster-sight", "-v", "foster"], ["compare", "foster-sight"]):
        result = runner.invoke(app, [*command, "--reading", reading])
        assert result.exit_code == 2
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_every_expected_reading_plays_from_the_terminal_as_check_plays_it(
    library: Library,
) -> None:
    """``--reading`` plays each ``expect_readings`` entry of a system resting on the
    sentence as ``bouillotte check`` does (a system resting on another text keeps its own
    rule)."""
    from bouillotte.rules.readings import parse_reading
    from bouillotte.study.reread import reread, rests_on, run_reread
    from bouillotte.study.scenario import reading_cases, run_reading

    played = 0
    for scenario in ScenarioLibrary().all():
        for case in reading_cases(scenario):
            variant = library.get(case.variant_id)
            chosen = parse_reading(f"{case.rule}={case.value}", library.readings)
            changed, applied = reread(variant, [chosen])
            assert bool(applied) == rests_on(variant, chosen[0]), (scenario.id, case.rule)
            if not applied:
                continue
            got = run_reread(scenario, changed, applied).data
            want = run_reading(scenario, variant, case).data
            assert signature(got) == signature(want), (scenario.id, case.rule)
            played += 1
    assert played >= len(library.readings)


def test_a_bounded_search_says_how_far_it_went_and_gives_the_one_at_a_time_answer(
    library: Library,
) -> None:
    """Within the site's 32 ways, foster-sight under Foster and CardRulesPlus (seven of the
    nine differing rules read: 1 + 7 + 21 ways up to two rules, 35 more for three) is
    decided up to two rules: the pair of the ante and the count is found, minimal, and the
    sets for CardRulesPlus's reasons (four rules) are not; the text says so."""
    from bouillotte.cli.compare_text import attribution_lines
    from bouillotte.study.attribution import SITE_WAYS_LIMIT

    scenario = ScenarioLibrary().find("foster-sight")
    comparison = compare(scenario, library, ["foster", "cardrulesplus"], ways_limit=SITE_WAYS_LIMIT)
    (a,) = comparison.attributions
    assert a.towards is not None
    search = a.towards.outcome
    assert not search.complete and search.up_to == 2 and search.played <= SITE_WAYS_LIMIT
    assert search.sets == [["forced_bets.others_ante", "point.counted_cards"]]
    assert a.towards.same_way.sets == []
    text = "\n".join(attribution_lines(a))
    assert "every combination of up to 2 of the 9 differing rules decided" in text
    assert "one at a time (each rule switched alone" in text


NO_RULE = (
    "under cardrulesplus's rules, britannica-1911's written actions already give "
    "britannica-1911's outcome: the difference comes from how the deal was played, not from a "
    "rule"
)


def test_an_empty_minimal_set_is_said_not_dropped(runner: CliRunner, library: Library) -> None:
    """Issue 46, item 6: on opening-minimum, Britannica's own written actions (C opens for 1)
    played under CardRulesPlus's rules are already refused as under Britannica: no rule needs
    switching (the empty set is minimal), and the text, the JSON and the site say so."""
    args = ["compare", "opening-minimum", "-v", "cardrulesplus", "-v", "britannica-1911"]
    result = runner.invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"  {NO_RULE}\n" in result.stdout
    (entry,) = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["attribution"]
    assert entry["minimal_sets"] == [[]]
    assert entry["explanation"][0] == {"kind": "no-rule", "sets": [[]], "says": NO_RULE}
    # The site's words: the systems by name, and no empty list of rules after a colon.
    from bouillotte.site.scenes import attribution_view

    scenario = ScenarioLibrary().find("opening-minimum")
    (made,) = compare(scenario, library, ["cardrulesplus", "britannica-1911"]).attributions
    names = {"cardrulesplus": "CardRulesPlus 2020s", "britannica-1911": "EB 1911"}
    view = attribution_view(made, "", names)
    assert view.towards is not None
    first = view.towards.findings[0]
    assert first.says == (
        "under CardRulesPlus 2020s's rules, EB 1911's written actions already give EB 1911's "
        "outcome: the difference comes from how the deal was played, not from a rule"
    )
    assert first.sets == []


@pytest.mark.slow
def test_the_pair_page_says_no_rule_is_needed(site: Path) -> None:
    page = site / "compare" / "britannica-1911--cardrulesplus.html"
    html = page.read_text(encoding="utf-8").replace("&#39;", "'")
    assert (
        "<li>Under CardRulesPlus 2020s's rules, EB 1911's written actions already give EB "
        "1911's outcome: the difference comes from how the deal was played, not from a rule."
        "</li>"
    ) in html
