"""Chains of void deals that never end: what a table does when nobody can open (the reading
``betting.opening_short_of_the_pot``), and a chain still cut reported as its own figure,
never as the seats' losses, in ``simulate``, ``sweep`` and the pages; the pool per deal
counts the deals played on carried pools."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant
from bouillotte.site.everyrule import stall_note
from bouillotte.study.policies import get_policy
from bouillotte.study.simulate import simulate
from bouillotte.study.simulate_report import report, report_text
from bouillotte.study.sweep import run_sweep
from bouillotte.study.sweep_combinations import all_rule_combinations, vary_combinations
from bouillotte.study.sweep_report import sweep_report, sweep_text
from bouillotte.study.void_chain import MAX_PLAYED_ON, play_one, player_names, pools_awarded

LIBRARY = Library()
STALL = "betting.opening_short_of_the_pot=cannot-open"
OPEN_SHORT = "betting.opening_short_of_the_pot=all-he-has"


def _stalling_pierer() -> Variant:
    """Pierer's Brelan under the other reading: nobody short of the pot may open."""
    (combination,) = vary_combinations(LIBRARY.get("brelan-pierer"), [STALL])
    assert combination.variant is not None
    return combination.variant


def test_cli_simulate_pierer_bold_json_reports_unended_chains_as_their_own_figure() -> None:
    out = CliRunner().invoke(
        app,
        ["simulate", "-v", "brelan-pierer", "--policy", "bold", "-n", "1500", "--json", "-q"],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)  # one variant: its report alone
    cut = data["chains_cut"]
    # Under the profile's reading a player short of the pot opens for all he has: every
    # chain of void deals ends (it was cut unended in about 3 % of deals before).
    assert cut["count"] == 0 and cut["stalls"] is False and cut["carried_at_cut"] == 0
    assert data["still_carried_per_deal"]["mean"] == 0  # the old field is kept
    seats = [s["mean"] for s in data["seat_net_per_deal"].values()]
    assert abs(sum(seats)) < 1e-4  # rounded means of integer sums that add up to 0
    assert all(abs(s) < 8 for s in seats)  # no seat loses 21 counters a deal any more


def test_a_chain_cut_unended_is_not_the_seats_loss() -> None:
    variant = _stalling_pierer()
    names = player_names(4)
    policy = get_policy("bold")
    cut = [p for i in range(300) if (p := play_one(variant, policy, names, 1, i)).cut]
    assert cut, "the other reading makes some chain stall"
    for played in cut:
        assert len(played.deals) == MAX_PLAYED_ON + 1
        assert all(d.outcome.status == "void" for d in played.deals)
        # Every deal was void: all each seat lost is in the pool still carried, which is
        # reported apart, so each seat's net over the chain leaves it out.
        assert played.net == [0, 0, 0, 0]
        assert played.stakes is not None and sum(played.stakes) == played.carried > 0
        for position, seat in enumerate(played.first.order):
            lost = sum(d.outcome.players[names[seat]].net for d in played.deals)
            assert played.stakes[position] == -lost
    tally = simulate(variant, 300, 1, "bold")
    data = report(variant, tally, 1, "bold")
    assert data["chains_cut"]["count"] == len(cut)
    assert data["chains_cut"]["carried_at_cut"] == sum(p.carried for p in cut)
    # The zero-sum check: the seats sum to zero; with their stakes in the pools cut taken
    # back out, they and the counters still carried at the cut sum to zero.
    assert sum(m.total for m in tally.seat_net) == 0
    stakes = sum(sum(p.stakes or []) for p in cut)
    assert sum(m.total for m in tally.seat_net) - stakes + tally.carried.total == 0
    text = report_text([data])
    # counts with thousands separators, as the sentence below the table and the site
    # write them (figures review, round seven)
    assert f"{len(cut):,} ({tally.carried.total:,} counters carried)" in text
    assert "The game stalls" in text and "not charged to the seats" in text


def test_the_every_rule_row_of_the_opening_shows_no_stall_as_a_seat_effect() -> None:
    base = LIBRARY.get("foster")
    combinations, _ = all_rule_combinations(base)
    (opening,) = [
        c for c in combinations if c.changes == {"betting.opening_minimum": "exactly-the-pot"}
    ]
    ending = vary_combinations(base, ["betting.opening_minimum=exactly-the-pot", OPEN_SHORT])
    (both,) = [c for c in ending if len(c.changes) == 2]
    tallies = run_sweep(base, [opening, both], ["bold"], 400, 1)
    data = sweep_report(base, [opening, both], tallies, 1, read=True)
    rows = {r["combination"]: r for r in data["rows"]}
    # Foster's void deal makes no exception for a pool nobody can meet (cannot-open):
    # with the opening at the pot the game stalls. That is its own figure, said in words,
    # and no seat shows the 62 to 69 counters a deal the cut pools used to charge them.
    stalled = rows[opening.label]
    metrics = stalled["metrics"]
    assert metrics["chains_cut"]["count"] > 0 and metrics["carried"]["mean"] > 0
    assert "The game stalls" in stall_note(stalled)
    assert abs(sum(metrics[f"seat_net.{s}"]["mean"] for s in range(1, 5))) < 1e-4
    for seat in range(1, 5):
        assert abs(metrics[f"seat_net.{seat}"]["diff"]) < 10
    assert "Rows whose rules make the game stall:" in sweep_text(data)
    # Read the other way (a player short of the pot opens for all he has), no chain is cut.
    ended = rows[both.label]
    assert ended["metrics"]["chains_cut"]["count"] == 0 and stall_note(ended) == ""
    assert ended["metrics"]["carried"]["mean"] == 0


def test_the_pool_per_deal_counts_the_deals_played_on_carried_pools() -> None:
    """Foster: "If no one will open, the deal is void, and each player puts five counters
    in the pool for the next deal"; "the dealer puts up a blind" of five. A void deal
    followed by one that is won: the pool won holds at least the 5 + 4 x 5 = 25 carried
    (an opener nobody meets takes his own bet back: "he wins the antes and straddles"),
    and it is the deal's pool per deal, where deal ``i`` alone counted 0."""
    variant = LIBRARY.get("foster")
    names = player_names(4)
    policy = get_policy("simple")
    chains = [
        p for i in range(200) if len((p := play_one(variant, policy, names, 1, i)).deals) == 2
    ]
    assert chains
    for played in chains:
        first, second = played.deals
        assert first.outcome.status == "void" and second.outcome.status != "void"
        won = sum(p.amount for p in second.outcome.pots)
        assert won >= 25
        assert pools_awarded(played) == won
    tally = simulate(variant, 200, 1, "simple")
    data = report(variant, tally, 1, "simple")
    every = sum(pools_awarded(play_one(variant, policy, names, 1, i)) for i in range(200))
    assert data["pool_per_deal"]["mean"] == round(every / 200, 6)
    combinations = vary_combinations(variant, ["hands.favori=none"])
    swept = sweep_report(
        variant, combinations, run_sweep(variant, combinations, ["simple"], 200, 1), 1
    )
    base = next(r for r in swept["rows"] if r["combination"] == "base")
    assert base["metrics"]["pool"]["mean"] == data["pool_per_deal"]["mean"]
    assert "carried pool included" in swept["metrics"]["pool"]


def test_the_every_rule_page_says_a_stall_in_words_under_its_rule() -> None:
    from bouillotte.site import everyrule

    data = everyrule.compute_every_rule(LIBRARY.get("foster"), deals=30)
    blocks = {b.rule: b for b in everyrule.rule_blocks(data)}
    rows = {v.value: v for v in blocks["betting.opening_minimum"].rows}
    exact = rows["exactly the pot"]
    (note,) = [n for n in exact.notes if "stalls" in n]
    assert note.startswith("bold: The game stalls") and "not charged to the seats" in note
    bold = next(cells for cells in exact.cells if cells[0] == "bold")
    assert not any(cell.endswith("*") for cell in bold[-2:])  # no seat effect starred
    assert not any("stalls" in n for n in rows["equal the largest"].notes)
