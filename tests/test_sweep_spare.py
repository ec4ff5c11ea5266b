"""A sweep that spares the plays a deal cannot need (one deal, many rule sets) gives the
numbers of playing every combination on its own: several systems, several policies."""

from __future__ import annotations

import pytest

from bouillotte.play.deal import new_deal
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant, differing_rules
from bouillotte.study.rule_reads import READS, recording
from bouillotte.study.sweep import SweepTally, sweep_range
from bouillotte.study.sweep_combinations import towards_combinations, vary_combinations

LIBRARY = Library()
SLOW = pytest.mark.slow


def _row(tally: SweepTally, c: int) -> tuple[object, ...]:
    return (
        tally.sums[c],
        tally.squares[c],
        tally.diff_sums[c],
        tally.diff_squares[c],
        tally.pool_powers[c],
        tally.came_into_play[c],
    )


def _combinations(base: str, towards: str | None, vary: list[str]) -> list[Variant]:
    a = LIBRARY.get(base)
    combinations = vary_combinations(a, vary)
    if towards:
        combinations += towards_combinations(a, LIBRARY.get(towards))[0]
    return [a, *(c.variant for c in combinations if c.variant is not None)]


@pytest.mark.parametrize(
    ("base", "towards", "vary", "policy", "seed"),
    [
        ("foster", None, ["forced_bets.straddle_must_be_seen", "hands.mignon"], "simple", 3),
        # The rules read only where the deal could meet them (each list is varied in
        # every combination of its values).
        (
            "foster",
            None,
            ["forced_bets.straddle_limit", "betting.two_players_betting", "bonuses.paid_from"],
            "bold",
            8,
        ),
        (
            "foster",
            None,
            [
                "betting.return_uncalled_excess",
                "hands.card_under_retourne",
                "hands.mistigri",
                "bonuses.claimed_without_showdown",
            ],
            "bold",
            9,
        ),
        pytest.param("foster", "pagat", [], "simple", 3, marks=SLOW),
        pytest.param("foster", "pagat", [], "bold", 4, marks=SLOW),
        pytest.param("pagat", "pagat-mistigri", ["hands.favori"], "random", 5, marks=SLOW),
        pytest.param(
            "foster",
            None,
            ["betting.closing", "bonuses.claimed_without_showdown"],
            "advised",
            6,
            marks=SLOW,
        ),
        pytest.param(
            "foster-three", None, ["hands.favori", "table.draw"], "cautious", 7, marks=SLOW
        ),
    ],
)
def test_sparing_plays_gives_the_numbers_of_every_combination_played_alone(
    base: str, towards: str | None, vary: list[str], policy: str, seed: int
) -> None:
    variants = _combinations(base, towards, vary)
    assert len(variants) > 2
    deals = 40
    spared = sweep_range(variants, policy, seed, 0, deals)
    played = sweep_range(variants, policy, seed, 0, deals, spare=False)
    for c in range(len(variants)):
        assert _row(spared, c) == _row(played, c)
    for c in range(1, len(variants)):
        alone = sweep_range([variants[0], variants[c]], policy, seed, 0, deals, spare=False)
        assert _row(spared, c) == _row(alone, 1)
        # A rule that changed a deal was read in it, under the base.
        assert spared.came_into_play[c] <= spared.rules_read[c] <= spared.deals
    # Some combinations were spared on some deals, and some rules read in every deal.
    assert any(n < spared.deals for n in spared.rules_read[1:])


@pytest.mark.parametrize(
    ("policy", "varied"),
    [
        # Under cautious most deals are void and their pools played on.
        ("cautious", ["bonuses.favori.amount=1,5", "bonuses.paid_from", "hands.mistigri"]),
        ("random", ["betting.raises", "betting.opening_minimum", "bonuses.paid_from"]),
        ("bold", ["betting.all_in_may_open_or_raise", "hands.favori", "betting.closing"]),
    ],
)
def test_a_play_is_taken_up_where_a_changed_rule_was_first_read(
    policy: str, varied: list[str]
) -> None:
    """A combination that changes a rule read only in a later deal of a void deal's chain,
    or only at a later step of a deal, is played on from there. Its play taken up there
    (:func:`sweep.resume_point`: from a copy of the base's deal, at a step) is the play of
    the whole chain under it, deal for deal, trace for trace, chip for chip."""
    from bouillotte.study.chain_points import StepPoint
    from bouillotte.study.deal_streams import DealStarts
    from bouillotte.study.policies import get_policy
    from bouillotte.study.sweep import TakeUpPoints, deal_values, resume_point, taken_up_traces
    from bouillotte.study.void_chain import play_one, player_names

    base = LIBRARY.get("foster")
    names = player_names(base.players)
    combinations = vary_combinations(base, varied)
    points = TakeUpPoints(base)
    taken_up = {"deal": 0, "step": 0}
    for i in range(60):
        points.clear()
        READS.clear()
        base_traces: list[list[object]] = []
        starts = DealStarts()
        played = play_one(
            recording(base), get_policy(policy), names, 1, i, base_traces, starts, mark=points.mark
        )
        chain = [p.after for p in points.points if not isinstance(p, StepPoint)]
        assert chain == list(range(len(played.deals)))
        for combination in combinations:
            assert combination.variant is not None
            changed = frozenset(differing_rules(base, combination.variant))
            point = resume_point(points.points, points.read_before, changed)
            if point is None:
                continue
            assert 0 <= point.after < len(played.deals)
            assert point.deals == tuple(played.deals[: point.after])
            if isinstance(point, StepPoint):
                taken_up["step"] += 1
                assert point.deal.variant is base  # a copy, made under the plain rules
                assert point.deal is not played.deals[point.after]
            else:
                assert point.after > 0
            taken_up["deal"] += point.after > 0
            traces = taken_up_traces(base_traces, point)
            resumed = play_one(
                combination.variant, get_policy(policy), names, 1, i, traces, starts, point
            )
            whole: list[list[object]] = []
            alone = play_one(combination.variant, get_policy(policy), names, 1, i, whole)
            assert traces == whole
            assert deal_values(resumed) == deal_values(alone)
            assert [d.outcome.players for d in resumed.deals] == [
                d.outcome.players for d in alone.deals
            ]
            assert [d.events for d in resumed.deals] == [d.events for d in alone.deals]
    assert taken_up["step"] > 10
    if policy == "cautious":
        assert taken_up["deal"] > 10


def test_the_recorded_variant_plays_as_the_variant_and_notes_what_it_reads() -> None:
    foster = LIBRARY.get("foster")
    names = ["A", "B", "C", "D"]
    READS.clear()
    recorded = new_deal(recording(foster), names, "D", seed=11)
    assert "table.hand_size" in READS and "stakes.cave" in READS
    assert not any(r.startswith("session.") for r in READS)  # they act between deals
    plain = new_deal(foster, names, "D", seed=11)
    assert recorded.hands == plain.hands and recorded.retourne == plain.retourne
    assert recording(foster).rules.model_dump() == foster.rules.model_dump()


def test_a_rule_set_the_engine_cannot_play_is_a_failed_row_and_the_others_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bouillotte.study import sweep
    from bouillotte.study.sweep_report import sweep_report, sweep_text
    from bouillotte.study.void_chain import play_one as real

    base = LIBRARY.get("foster")
    combinations = vary_combinations(base, ["hands.favori"])
    broken, other = combinations[0], combinations[1]

    failed_on: list[int] = []

    def play_one(variant: Variant, *args: object, **kwargs: object) -> object:
        # Under that rule set, the engine fails from deal 7 on (where the rule set is played:
        # a deal that reads no rule it changes is spared, and never reaches it).
        deal = args[3]
        assert isinstance(deal, int)
        if variant is broken.variant and deal >= 7:
            failed_on.append(deal)
            raise ValueError("no suit can win")
        return real(variant, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep, "play_one", play_one)
    tallies = sweep.run_sweep(base, combinations, ["simple"], 40, seed=2)
    data = sweep_report(base, combinations, tallies, 2)
    rows = {r["combination"]: r for r in data["rows"]}
    assert failed_on, "the broken rule set was never played from deal 7 on"
    first = failed_on[0]
    assert failed_on == [first], "a failed row is not played again"
    assert rows[broken.label]["status"] == "failed"
    assert f"deal {first} of seed 2 (ValueError: no suit can win)" in rows[broken.label]["error"]
    assert rows[other.label]["status"] == "ok"
    assert rows["base"]["deals"] == 40
    assert f"the engine failed on deal {first}" in sweep_text(data)


def _point_values_changed(variant: Variant) -> Variant:
    """``variant`` with the ace worth 1 in the point (another reading of every hand
    holding one, with the rules of hands unchanged)."""
    from dataclasses import replace

    table = variant.rules.table
    values = {**table.point_values, "A": 1}
    rules = variant.rules.model_copy(
        update={"table": table.model_copy(update={"point_values": values})}
    )
    return replace(variant, rules=rules)


@pytest.mark.parametrize("policy", ["simple", "bold"])
def test_a_policy_that_played_other_rule_sets_decides_as_one_of_its_own(policy: str) -> None:
    """A sweep's rows share one policy, which remembers a hand's worth for each reading of
    hands (the rules of hands and the point values), not for each rule set: every row is
    what that system swept alone gives, with a policy that met no other. The rows differ
    from the base in rules of hands only, in the point values only (the ace worth 1), or
    in many rules (pagat, britannica-1911)."""
    base = LIBRARY.get("foster")
    hands_only = [c.variant for c in vary_combinations(base, ["hands.mistigri", "hands.favori"])]
    variants = [
        base,
        *(v for v in hands_only if v is not None),
        _point_values_changed(base),
        LIBRARY.get("pagat"),
        LIBRARY.get("britannica-1911"),
    ]
    assert variants[-3].rules.hands == base.rules.hands
    assert variants[-3].rules.table.point_values != base.rules.table.point_values
    deals = 30
    shared = sweep_range(variants, policy, 11, 0, deals, spare=False)
    for c, variant in enumerate(variants):
        alone = sweep_range([variant], policy, 11, 0, deals, spare=False)
        assert shared.sums[c] == alone.sums[0], (c, variant.id)
        assert shared.squares[c] == alone.squares[0], (c, variant.id)
    # The ace's value changed what was played (else the test shows nothing of it).
    assert shared.sums[len(variants) - 3] != shared.sums[0]
