"""Scenario files, round six: what a scenario states that no deal can give is bad input at
its line (exit 2), whatever command reads the file.

- An ``expect_readings`` entry for the variant's own value of the rule (it is no other
  reading: the outcome goes in ``expect``).
- An ``expect`` block that states nothing (``foster: {}``) checks nothing: ``check`` counts
  it with the deals without an expect block, as it does ``expect_readings: {foster: {}}``.
- Impossible ``expect`` values: a contender listed twice, a pool's winner who does not
  contend for it, a bonus to the payer himself or of a negative amount, a negative pool,
  cave or carry.
- A ``favori_rank`` that no system the scenario runs under declares, or that the pack of
  one that declares lacks.
- A ``stifled`` player who, in the deal as played, does not win without a showdown holding
  a brelan (known once the deal is played).
- A profile's empty ``extends:`` names no profile, said at its line.

Each test was shown failing before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

ROOT = Path(__file__).resolve().parent.parent

SHOWDOWN = """\
id: mine
title: Mine
source: {work: foster, locator: "x", status: constructed}
players: [A, B, C, D]
dealer: D
hands:
  A: [AS, 9S, 9C]
  B: [KS, QS, 8S]
  C: [AH, KH, 9H]
  D: [AC, KC, QC]
retourne: 8H
actions: [A fold, B fold, C bet 10, D call]
variants: [foster]
"""
"""Foster's first worked example (``foster-point``): C and D go to a showdown, D wins."""

UNCONTESTED = """\
id: mine
title: Mine
source: {work: foster, locator: "x", status: constructed}
players: [A, B, C, D]
dealer: D
hands:
  A: [QS, QH, QD]
  B: [AS, KH, 9D]
  C: [KS, AH, 9C]
  D: [AD, KD, 9S]
retourne: 8C
actions: [A bet 10, B fold, C fold, D fold]
variants: [foster]
"""
"""A wins uncontested with three queens (``uncontested-brelan``)."""


def _line(text: str, words: str) -> int:
    """The 1-based line of the first line of ``text`` holding ``words``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if words in line)


def _invoke(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, args)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def _bad_input(args: list[str], file: Path, line: int, words: str) -> None:
    """Exit 2 and one ``error:`` line at ``file:line`` saying ``words``."""
    code, _, err = _invoke(args)
    assert code == 2, err
    (said,) = err.strip().splitlines()
    assert said.startswith(f"error: {file}:{line}: "), said
    assert words in said, said


def _commands(file: Path) -> list[list[str]]:
    return [["check", str(file)], ["run", str(file)], ["compare", str(file)]]


# -- 1. a reading that is the variant's own value -----------------------------------------


@pytest.mark.parametrize(
    ("rule", "value"),
    [
        ("point.suit_tie", "dealer-first"),
        ("bonuses.folded_players_pay", "'true'"),
        ("bonuses.folded_players_pay", "true"),
        ("stakes.cave", "100"),
    ],
)
@pytest.mark.parametrize("command", ["check", "run", "compare"])
def test_a_reading_of_the_variants_own_value_is_bad_input(
    tmp_path: Path, rule: str, value: str, command: str
) -> None:
    text = (
        SHOWDOWN + f"expect_readings:\n  foster:\n    {rule}:\n      {value}: {{net: {{A: 15}}}}\n"
    )
    file = tmp_path / "own.yaml"
    file.write_text(text, "utf-8")
    _bad_input(
        [command, str(file)],
        file,
        _line(text, f"{value}:"),
        f"this is foster's own value of {rule}: expect_readings is for the other readings",
    )


def test_a_reading_of_another_value_is_still_checked(tmp_path: Path) -> None:
    text = SHOWDOWN + (
        "expect_readings:\n  foster:\n    point.suit_tie:\n"
        "      eldest-first: {net: {C: -10, D: 10}}\n"
    )
    file = tmp_path / "other.yaml"
    file.write_text(text, "utf-8")
    code, out, _ = _invoke(["check", str(file)])
    assert code == 0 and "1 checked, 0 mismatches" in out, out


# -- 2. a block that states nothing checks nothing ----------------------------------------


@pytest.mark.parametrize(
    "block",
    [
        "expect:\n  foster: {}\n",
        "expect:\n  foster: {net: {}}\n",
        "expect_readings:\n  foster: {}\n",
    ],
)
def test_a_block_that_states_nothing_is_counted_without_an_expect_block(
    tmp_path: Path, block: str
) -> None:
    file = tmp_path / "empty.yaml"
    file.write_text(SHOWDOWN + block, "utf-8")
    code, out, err = _invoke(["check", str(file)])
    assert code == 0, err
    assert "1 run of 1 scenario: 0 checked, 0 mismatches, 0 errors, 1 without an expect block" in (
        out
    )
    code, out, _ = _invoke(["check", str(file), "--json"])
    report = json.loads(out)
    assert (report["checked"], report["unchecked"]) == (0, [["mine", "foster"]])


def test_a_reading_that_states_no_outcome_is_played_but_not_counted_checked(
    tmp_path: Path,
) -> None:
    text = SHOWDOWN + "expect_readings:\n  foster:\n    point.suit_tie:\n      eldest-first: {}\n"
    file = tmp_path / "reading.yaml"
    file.write_text(text, "utf-8")
    code, out, _ = _invoke(["check", str(file)])
    assert code == 0
    assert "2 runs of 1 scenario: 0 checked, 0 mismatches, 0 errors, 2 without" in out, out


# -- 3. impossible expect values ----------------------------------------------------------

IMPOSSIBLE = {
    "contender-twice": (
        "pots: [{contenders: [A, B, A]}]",
        "expect.foster.pots.0.contenders.2: 'A' is listed twice (items 0 and 2)",
    ),
    "winner-not-contending": (
        "pots: [{winner: A, contenders: [C, D]}]",
        "expect.foster.pots.0.winner: the winner 'A' is not one of the pool's contenders",
    ),
    "negative-pool": ("pots: [{amount: -20}]", "expect.foster.pots.0.amount: a pool holds 0"),
    "bonus-to-himself": (
        "bonuses: [{from: A, to: A, amount: -5}]",
        "expect.foster.bonuses.0.to: 'A' pays 'A': a bonus goes from one player to another",
    ),
    "negative-bonus": (
        "bonuses: [{from: A, to: B, amount: -5}]",
        "expect.foster.bonuses.0.amount: a bonus pays 0 counters or more",
    ),
    "negative-carry": ("carry: -1", "expect.foster.carry: the pool carried to the next deal"),
    "negative-cave": ("cave: {A: -1}", "expect.foster.cave.A: a cave is never below 0"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
@pytest.mark.parametrize("command", ["check", "run"])
def test_an_impossible_expect_value_is_bad_input_at_its_line(
    tmp_path: Path, case: str, command: str
) -> None:
    value, words = IMPOSSIBLE[case]
    text = SHOWDOWN + f"expect:\n  foster:\n    {value}\n"
    file = tmp_path / "imp.yaml"
    file.write_text(text, "utf-8")
    _bad_input([command, str(file)], file, _line(text, value), words)


def test_an_impossible_value_in_a_reading_is_bad_input_too(tmp_path: Path) -> None:
    text = SHOWDOWN + (
        "expect_readings:\n  foster:\n    point.suit_tie:\n      eldest-first:\n        carry: -1\n"
    )
    file = tmp_path / "imp.yaml"
    file.write_text(text, "utf-8")
    _bad_input(["run", str(file)], file, _line(text, "carry: -1"), "carry: the pool carried")


# -- 4. a favori rank no system can declare -----------------------------------------------

FAVORI = (ROOT / "scenarios" / "brelan-18th-declared-favori.yaml").read_text("utf-8")


def test_a_favori_rank_the_pack_lacks_is_bad_input(tmp_path: Path) -> None:
    text = FAVORI.replace("favori_rank: K", "favori_rank: 7").replace(
        "id: brelan-18th-declared-favori", "id: fav7"
    )
    file = tmp_path / "fav7.yaml"
    file.write_text(text, "utf-8")
    for args in (["run", str(file), "-v", "brelan-18th-century"], ["check", str(file)]):
        _bad_input(
            args,
            file,
            _line(text, "favori_rank:"),
            "favori_rank: brelan-18th-century's pack has no 7 to declare favori: its ranks are "
            "A K Q J 10 9 8",
        )


def test_a_favori_rank_under_systems_that_declare_none_is_bad_input(tmp_path: Path) -> None:
    text = SHOWDOWN + "favori_rank: 10\n"
    file = tmp_path / "fav10.yaml"
    file.write_text(text, "utf-8")
    for command in ("run", "check", "compare"):
        _bad_input(
            [command, str(file)], file, _line(text, "favori_rank"), "foster declares no favori"
        )
    both = text.replace("variants: [foster]", "variants: [foster, pagat]")
    file.write_text(both, "utf-8")
    _bad_input(
        ["run", str(file)],
        file,
        _line(both, "favori_rank"),
        "none of the systems it runs under (foster, pagat) declares a favori",
    )


def test_the_bundled_declared_favori_still_plays(tmp_path: Path) -> None:
    code, out, err = _invoke(
        ["check", str(ROOT / "scenarios" / "brelan-18th-declared-favori.yaml")]
    )
    assert code == 0 and "2 checked, 0 mismatches" in out, err


# -- 5. a stifled player who cannot stifle ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "who", "why"),
    [
        (SHOWDOWN, "C", "the deal goes to a showdown, where C shows his hand"),
        (SHOWDOWN, "A", "the deal goes to a showdown, A having folded"),
        (UNCONTESTED, "B", "A wins the pool, B having folded"),
        (
            UNCONTESTED.replace("QS, QH, QD", "QS, QH, 9H").replace("9S]", "QD]"),
            "A",
            "A holds no brelan (QS QH 9H)",
        ),
        (
            UNCONTESTED.replace(
                "actions: [A bet 10, B fold, C fold, D fold]",
                "actions: [A pass, B pass, C pass, D pass]",
            ),
            "A",
            "the deal is void: nobody wins it",
        ),
    ],
)
@pytest.mark.parametrize("command", ["run", "check"])
def test_a_stifled_player_who_cannot_stifle_is_bad_input(
    tmp_path: Path, text: str, who: str, why: str, command: str
) -> None:
    text = text + f"stifled: [{who}]\n"
    file = tmp_path / "st.yaml"
    file.write_text(text, "utf-8")
    _bad_input(
        [command, str(file)],
        file,
        _line(text, "stifled:"),
        f"stifled.0: under foster {who} cannot stifle a brelan: {why}; a stifled player wins "
        "without a showdown holding a brelan",
    )


def test_the_winner_with_a_brelan_may_stifle_it(tmp_path: Path) -> None:
    file = tmp_path / "ok.yaml"
    file.write_text(UNCONTESTED + "stifled: [A]\n", "utf-8")
    code, out, err = _invoke(["run", str(file), "--json"])
    assert code == 0, err
    assert {"type": "stifle", "player": "A"} in json.loads(out)["events"]
    stifled = ROOT / "scenarios" / "uncontested-brelan-stifled.yaml"
    code, out, err = _invoke(["check", str(stifled)])  # teaching-card systems pay none
    assert code == 0 and "0 mismatches, 0 errors" in out, err


# -- 6. an empty extends: -----------------------------------------------------------------


@pytest.mark.parametrize("written", ["", " ~", " null", ' ""', " '  '"])
def test_an_empty_extends_names_no_profile_at_its_line(tmp_path: Path, written: str) -> None:
    (tmp_path / "a.yaml").write_text(f"title: x\nsource: foster\nextends:{written}\n", "utf-8")
    code, _, err = _invoke(["variants", "show", "a", "--variants", str(tmp_path)])
    assert code == 2
    (said,) = err.strip().splitlines()
    assert said.startswith(f"error: {tmp_path / 'a.yaml'}:3: extends: 'extends:' names no profile")


def test_the_api_checks_a_scenarios_blocks_as_the_commands_do(tmp_path: Path) -> None:
    import bouillotte.api as api
    from bouillotte.rules.errors import UserError

    text = FAVORI.replace("favori_rank: K", "favori_rank: 7").replace(
        "id: brelan-18th-declared-favori", "id: fav7"
    )
    file = tmp_path / "fav7.yaml"
    file.write_text(text, "utf-8")
    with pytest.raises(UserError) as raised:
        api.run(str(file), "brelan-18th-century")
    assert "pack has no 7 to declare favori" in str(raised.value)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (", A bet 2]", "after 4 actions, but 1 more is written"),
        (", A bet 2, B fold]", "after 4 actions, but 2 more are written"),
    ],
)
def test_actions_past_the_deals_end_are_counted_in_words(
    tmp_path: Path, extra: str, said: str
) -> None:
    file = tmp_path / "over.yaml"
    file.write_text(UNCONTESTED.replace("D fold]", "D fold" + extra), "utf-8")
    code, _, err = _invoke(["run", str(file)])
    assert code == 2 and said in err, err
