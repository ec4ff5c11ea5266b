"""Sessions: rotation of the deal, carried pools, rebuys and exact final results.

The two bundled session files were worked out by hand; the arithmetic is in the comments.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.study.session import run_session
from bouillotte.study.session_file import load_session
from bouillotte.study.session_result import fraction_text, places

SESSIONS = Path(__file__).resolve().parent.parent / "scenarios" / "sessions"


def play(name: str, variant: str | None = None):  # type: ignore[no-untyped-def]
    session = load_session(SESSIONS / name)
    return run_session(session, Library().get(variant or session.model.variant or ""))


def test_pagat_teaching_session_worked_by_hand() -> None:
    # Pagat: the dealer antes 1; opening = the largest stake + at least 1; bonuses on the
    # ledger (carré 2, brelan 1, from every other player, only at a showdown); a void deal
    # carries the pool; a new cave of 100 only when broke; 12 deals; the pool still carried
    # at the end is shared in four. Caves (A, B, C, D) start at 100 each.
    #  1 (D deals) A bets 10, all fold: 9 returned, A takes 2.      caves 101 100 100  99
    #  2 (A) B bets 5, C calls, D & A fold: B's kings take 5+5+1=11.  100 106  95  99
    #      ledger: B +3, A -1, C -1, D -1
    #  3 (B) all pass: B's ante carried (1).                           100 105  95  99
    #  4 (C, 1 in) D 3, A 3, B 3, C folds; no more; hearts 48 (AH KH QH 8H 9H)
    #      to B's ace: 1+1+3+3+3 = 11.                                   97 113  94  96
    #  5 (D) A bets 20, C calls: A's carré of nines beats C's aces, 41. 118 113  74  95
    #      ledger: A +6-1=+5, C +3-2=+1, B -3, D -3 -> A 4, B 0, C 0, D -4
    #  6 (A) B bets 80, C calls with his last 74 (a sight): 6 returned to B; diamonds and
    #      clubs tie at 39, B (dealer's right, diamonds) wins 74+74+1=149. 117 188 0 95
    #  7 (B) C rebuys 100. C straddles 1; nobody opens: C takes 2.      117 187 101  95
    #  8 (C) D 5, A 15, B folds, C and D call 15; no more; D's queens beat A's eights:
    #      45 to D.                                                    102 187  86 125
    #      ledger: A +3-1, D +3-1, B -2, C -2 -> A 6, B -2, C -2, D -2
    #  9 (D) A 2, B calls; spades (48) held only by folded C and D are skipped; hearts
    #      39 to B's ace: 2+2+1 = 5.                                   100 190  86 124
    # 10 (A) all pass: A's ante carried (1).                            99 190  86 124
    # 11 (B, 1 in) C 10, A calls: C's nines win 1+1+10+10 = 22.          89 189  98 124
    #      ledger: C +3, A -1, B -1, D -1 -> A 5, B -3, C 1, D -3
    # 12 (C) all pass: C's ante carried (1), shared: 1/4 each.          89 189  97 124
    # Results = cave + ledger + 1/4 - 100 - rebuys:
    #   A 89+5+1/4-100 = -5 3/4; B 189-3+1/4-100 = 86 1/4;
    #   C 97+1+1/4-100-100 = -101 3/4; D 124-3+1/4-100 = 21 1/4   (sum 0)
    result = play("pagat-teaching.yaml")
    assert [d.dealer for d in result.deals] == list("DABCDABCDABC")
    assert [d.outcome.status for d in result.deals] == [
        "uncontested", "settled", "void", "settled", "settled", "settled",
        "uncontested", "settled", "settled", "void", "settled", "void",
    ]  # fmt: skip
    assert [d.carried_in for d in result.deals] == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    caves_after = [
        [101, 100, 100, 99], [100, 106, 95, 99], [100, 105, 95, 99], [97, 113, 94, 96],
        [118, 113, 74, 95], [117, 188, 0, 95], [117, 187, 101, 95], [102, 187, 86, 125],
        [100, 190, 86, 124], [99, 190, 86, 124], [89, 189, 98, 124], [89, 189, 97, 124],
    ]  # fmt: skip
    for deal, caves in zip(result.deals, caves_after, strict=True):
        assert [deal.outcome.players[p].cave for p in "ABCD"] == caves, deal.number
    assert [(r.player, r.amount, r.before_deal) for d in result.deals for r in d.rebuys] == [
        ("C", 100, 7)
    ]
    by_player = {s.player: s for s in result.standings}
    assert {p: s.ledger for p, s in by_player.items()} == {"A": 5, "B": -3, "C": 1, "D": -3}
    assert result.carried_at_end == 1
    assert {p: s.share for p, s in by_player.items()} == dict.fromkeys("ABCD", Fraction(1, 4))
    assert {p: s.result for p, s in by_player.items()} == {
        "A": Fraction(-23, 4),
        "B": Fraction(345, 4),
        "C": Fraction(-407, 4),
        "D": Fraction(85, 4),
    }
    assert [(s.player, s.place) for s in result.ranking()] == [
        ("B", 1), ("D", 2), ("A", 3), ("C", 4)
    ]  # fmt: skip
    assert sum(s.result for s in result.standings) == 0


def test_foster_rebuy_skips_the_dealer_and_leaves_the_pool_unclaimed() -> None:
    # Foster: blind 5, bonuses from the cave, void levy 5 each, a new stake at the player's
    # option (the file says 150), a dealer who has just rebought is passed over.
    # 1 (D) A all in 100, C calls 100, B & D fold: C's kings win 100+100+5 = 205 and 1
    #   from B and D (A, broke, pays 0).                 caves A 0, B 99, C 207, D 94
    # 2 A rebuys 150; A's turn to deal is passed to B. B blinds 5, nobody opens, each adds
    #   5: carried 25.                                   A 145, B 89, C 202, D 89
    # 3 (C, 25 in) C blinds 5, D bets 10, all fold: 5 returned, D takes 25+5+5 = 35.
    #                                                    A 145, B 89, C 197, D 119
    # 4 (D) D blinds 5, nobody opens, levy 5 each: 25 carried, unclaimed at the end.
    #                                                    A 140, B 84, C 192, D 109
    # Results: A 140-100-150 = -110, B -16, C 92, D 9 (sum -25, the unclaimed pool).
    result = play("foster-rebuy.yaml")
    assert [d.dealer for d in result.deals] == ["D", "B", "C", "D"]
    assert result.deals[1].skipped_dealer == "A"
    assert [(r.player, r.amount) for r in result.deals[1].rebuys] == [("A", 150)]
    assert {s.player: s.result for s in result.standings} == {
        "A": -110, "B": -16, "C": 92, "D": 9
    }  # fmt: skip
    assert result.carried_at_end == 25
    assert all(s.share == 0 for s in result.standings)
    assert "unclaimed" in result.notes[0]


def test_places_are_shared_on_ties() -> None:
    assert places([Fraction(1), Fraction(5), Fraction(1), Fraction(-2)]) == [2, 1, 2, 4]
    assert places([Fraction(0)] * 4) == [1, 1, 1, 1]


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(49, 4), "12 1/4"), (Fraction(-3, 4), "-3/4"), (Fraction(-49, 4), "-12 1/4"),
     (Fraction(7), "7"), (Fraction(0), "0")],
)  # fmt: skip
def test_fraction_text(value: Fraction, text: str) -> None:
    assert fraction_text(value) == text


def test_seeded_session_is_deterministic(tmp_path: Path) -> None:
    file = tmp_path / "s.yaml"
    file.write_text(
        "players: [A, B, C, D]\ndealer: D\ndeals:\n  - {seed: 5, count: 12, policy: random}\n"
    )
    result = run_session(load_session(file), Library().get("pagat"))
    again = run_session(load_session(file), Library().get("pagat"))
    assert result.to_json() == again.to_json()
    assert len(result.deals) == 12
    # Counters are conserved: with the last pool shared, the results sum to zero.
    assert sum(s.result for s in result.standings) == 0


def test_errors_name_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(
        "players: [A, B, C, D]\ndealer: D\ndeals:\n"
        "  - hands: {A: [AS, KS, QS], B: [AH, KH, QH], C: [AD, KD, QD], D: [AC, KC, QC]}\n"
        "    retourne: 9S\n"
        "    actions: [A pass, B bet 1000]\n"
    )
    with pytest.raises(InputError) as info:
        run_session(load_session(file), Library().get("foster"))
    assert info.value.line == 6 and "deal 1" in info.value.message
    file.write_text("players: [A, B, C, D]\ndealer: E\ndeals: [{seed: 1}]\n")
    with pytest.raises(InputError) as info:
        load_session(file)
    assert info.value.line == 2
    file.write_text("players: [A, B, C, D]\ndealer: D\ndeals:\n  - {seed: 1, policy: wild}\n")
    with pytest.raises(InputError, match="unknown policy"):
        load_session(file)


def test_cli_session_table_and_json() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["session", str(SESSIONS / "pagat-teaching.yaml")])
    assert out.exit_code == 0, out.output
    assert "86 1/4" in out.output and "-101 3/4" in out.output
    out = runner.invoke(app, ["session", str(SESSIONS / "pagat-teaching.yaml"), "--json"])
    assert '"result": "86 1/4"' in out.output
    out = runner.invoke(app, ["session", str(SESSIONS / "foster-rebuy.yaml"), "-v", "pagat"])
    assert out.exit_code == 2
    assert "12 deals" in out.output


GOOD = """\
players: [A, B, C, D]
dealer: D
variant: foster
deals:
  - hands: {A: [AS, KS, 8H], B: [QS, 9S, 9H], C: [8S, 8D, 9C], D: [AH, KH, QH]}
    retourne: AD
    actions: [A bet 10, B fold, C fold, D fold]
  - seed: 4
    count: 2
"""

# (the change, the line, words of the message): one fault each, with its line worked out
# from the file above.
CASES = {
    "card": (("8H]", "8Y]"), 5, "deals.0.hands.A.2: '8Y' is not a card"),
    "dealt-twice": (("8H]", "QS]"), 5, "deals.0.hands.B.0: QS is dealt twice"),
    "action-word": (("A bet 10", "A wager 10"), 7, "deals.0.actions.0: 'wager' is not an"),
    # A stranger is refused by the rules of the table when he acts (a scenario refuses him
    # on reading).
    "stranger": (("A bet 10", "E bet 10"), 7, "deal 1: there is no player 'E' at this table"),
    "illegal": (("A bet 10", "A bet 1000"), 7, "deal 1: A cannot stake 1000"),
    "too-many": (("D fold]", "D fold, A fold]"), 7, "deal 1 is over (uncontested) after 4"),
    "too-few": ((", D fold]", "]"), 7, "deal 1: the actions end before the deal does"),
    "dealer": (("  - seed: 4", "  - dealer: C\n    seed: 4"), 8, "A deals deal 2"),
    # Foster: "This original cave cannot be added to or deducted from."
    "top-up": (("  - seed: 4", "  - buy: {A: 10}\n    seed: 4"), 8, "a cave cannot be added"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_session(tmp_path: Path, case: str) -> None:
    (old, new), line, words = CASES[case]
    assert old in GOOD
    file = tmp_path / "mine.yaml"
    file.write_text(GOOD.replace(old, new), encoding="utf-8")
    result = CliRunner().invoke(app, ["session", str(file)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {file}:{line}: "), result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_good_session_plays(tmp_path: Path) -> None:
    file = tmp_path / "mine.yaml"
    file.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(app, ["session", str(file)])
    assert result.exit_code == 0, result.output
    assert "Session under foster: 3 deals" in result.stdout


def test_two_players_in_turn_bought_a_stake_and_the_deal_passes_over_both() -> None:
    # Foster: "should the player whose turn it is to deal have lost everything on the
    # previous deal, and have just purchased another stake, the deal passes to the player
    # beyond him"; the new stake is "usually at his own option".
    # Caves A 20, B 20, C 100, D 100; D deals and blinds 5.
    # 1 A all in 20, B calls 20 (all he has), C calls 20, D folds: C's kings take
    #   20+20+20+5 = 65, and 1 from D for the brelan (A and B, broke, pay nothing).
    #                                          caves A 0, B 0, C 146, D 94
    # 2 A buys 150 (written: his own option); B buys his first stake again, 20 (the file
    #   gives no `rebuy`). A's turn to deal: he has just bought, so it passes beyond him to
    #   B, who has just bought too, so it passes beyond him as well: C deals and blinds 5.
    #   D bets 10, the rest fold: 5 returned, D takes 5 + 5 = 10. A 150, B 20, C 141, D 99
    # Results: A 150-20-150 = -20, B 20-20-20 = -20, C 141-100 = 41, D 99-100 = -1 (sum 0).
    result = play("foster-two-rebuy.yaml")
    assert [d.dealer for d in result.deals] == ["D", "C"]
    assert result.deals[1].skipped_dealers == ("A", "B")
    assert sorted((r.player, r.amount) for r in result.deals[1].rebuys) == [
        ("A", 150), ("B", 20)
    ]  # fmt: skip
    assert [result.deals[0].outcome.players[p].cave for p in "ABCD"] == [0, 0, 146, 94]
    assert {s.player: s.result for s in result.standings} == {
        "A": -20, "B": -20, "C": 41, "D": -1
    }  # fmt: skip
    deal_two = result.to_json()["deals"][1]
    assert (deal_two["skipped_dealer"], deal_two["skipped_dealers"]) == ("A", ["A", "B"])


def _write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "s.yaml"
    file.write_text(text)
    return file


BROKE_A = """\
players: [A, B, C, D]
dealer: D
caves: {A: 20}
deals:
  - hands: {A: [AS, QS, 8H], B: [AH, QH, 9D], C: [KS, KH, KD], D: [AD, 8S, 8C]}
    retourne: 9C
    actions: [A all-in, B fold, C call, D fold]
  - buy: {A: BOUGHT}
    hands: {A: [AS, KS, QS], B: [AH, KH, QH], C: [AD, KD, QD], D: [AC, KC, QC]}
    retourne: 9S
    actions: [C pass, D pass, A pass, B pass]
"""


def test_a_new_stake_at_his_own_option_is_the_one_written(tmp_path: Path) -> None:
    # Foster: "not until he is decavé [...] can he purchase another stake, the amount of
    # which is usually at his own option". A (cave 20) loses all of it to C's kings in deal
    # 1 and writes `buy: {A: 150}` before deal 2: he has 150, not his first stake of 20.
    # 1 (D blinds 5) A all in 20, C calls: C takes 20+20+5 = 45, and 1 from B and D for
    #   his brelan (A, broke, pays nothing).  caves A 0, B 99, C 100-20+45+2 = 127, D 94
    # 2 A buys 150; his turn to deal is passed to B (he has just bought). B blinds 5,
    #   nobody opens, each adds 5: 5 + 20 = 25 carried.   A 145, B 89, C 122, D 89
    # Results: A 145-20-150 = -25, B -11, C 22, D -11 (sum -25: the pool left unclaimed).
    file = _write(tmp_path, BROKE_A.replace("BOUGHT", "150"))
    result = run_session(load_session(file), Library().get("foster"))
    assert [(r.player, r.amount) for r in result.deals[1].rebuys] == [("A", 150)]
    assert result.deals[1].dealer == "B" and result.deals[1].skipped_dealers == ("A",)
    assert [result.deals[0].outcome.players[p].cave for p in "ABCD"] == [0, 99, 127, 94]
    assert [result.deals[1].outcome.players[p].cave for p in "ABCD"] == [145, 89, 122, 89]
    assert {s.player: s.result for s in result.standings} == {
        "A": -25, "B": -11, "C": 22, "D": -11
    }  # fmt: skip


def test_a_new_stake_of_a_fixed_size_refuses_another_amount(tmp_path: Path) -> None:
    # The teaching card: "If a cave reaches zero, a new cave of 100 is allowed before the
    # next deal": under pagat, A may buy 100 after losing everything, not 150.
    # (pagat plays sessions of twelve deals: ten seeded deals follow; an all-in cannot
    # open, so C opens and A calls with his last 20; A deals deal 2, nobody is passed over)
    text = (
        BROKE_A.replace(
            "A all-in, B fold, C call, D fold", "A pass, B fold, C bet 30, D fold, A call"
        ).replace("C pass, D pass, A pass, B pass", "B pass, C pass, D pass, A pass")
        + "  - {seed: 3, count: 10}\n"
    )
    file = _write(tmp_path, text.replace("BOUGHT", "150"))
    with pytest.raises(InputError) as caught:
        run_session(load_session(file), Library().get("pagat"))
    assert caught.value.describe().startswith(f"{file}:8: deals.1.buy.A: A has lost everything")
    assert "under pagat is 100 counters (stakes.rebuy_amount" in caught.value.describe()
    file = _write(tmp_path, text.replace("BOUGHT", "100"))
    result = run_session(load_session(file), Library().get("pagat"))
    assert [(r.player, r.amount) for r in result.deals[1].rebuys] == [("A", 100)]
    assert (result.deals[1].dealer, result.deals[1].skipped_dealers) == ("A", ())
