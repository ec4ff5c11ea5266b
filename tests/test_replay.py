"""One way to play a deal from a file: scenarios and sessions share study/replay.py, and every
error a user can cause derives from one base class."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play.actions import ActionSyntaxError, parse_action
from bouillotte.play.deal import Deal, IllegalAction, new_deal
from bouillotte.play.dealing import SetupError
from bouillotte.play.showdown import MissingCardError
from bouillotte.rules.cards import CardError, parse_card, parse_cards
from bouillotte.rules.errors import InputError, UserError
from bouillotte.rules.profiles import Library
from bouillotte.study.replay import DealPlace, WrittenCards, read_actions, replay, set_up
from bouillotte.study.scenario import load_scenario

DEAL = [
    "hands:",
    "  A: [AS, KS, 8H]",
    "  B: [QS, 9S, 9H]",
    "  C: [8S, 8D, 9C]",
    "  D: [AH, KH, QH]",
    "retourne: AD",
    "actions: [A bet 10, B fold, C fold, D fold]",
]
"""One deal, written the same way in a scenario and in a session."""

SCENARIO_HEAD = """\
id: mine
title: Mine
source: {work: foster, status: constructed}
players: [A, B, C, D]
dealer: D
variants: [foster]
"""
SESSION_HEAD = """\
players: [A, B, C, D]
dealer: D
variant: foster
deals:
"""


def _scenario(deal: list[str]) -> str:
    return SCENARIO_HEAD + "".join(f"{line}\n" for line in deal)


def _session(deal: list[str]) -> str:
    body = [("  - " if i == 0 else "    ") + line for i, line in enumerate(deal)]
    return SESSION_HEAD + "".join(f"{line}\n" for line in body)


def _fault(tmp_path: Path, name: str, text: str, argv: list[str]) -> tuple[int, str, str]:
    """Run a command on the file; its one-line error as (line, field, message)."""
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, [*argv[:1], str(file), *argv[1:]])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    where = re.escape(str(file))
    found = re.fullmatch(rf"error: {where}:(\d+): (\S+): (.*)", result.stderr.strip())
    assert found, result.stderr
    return int(found[1]), found[2], found[3]


# Each fault changes one line of the deal: (the line's start, the new line).
FAULTS = {
    "card-written-wrong": ("  A:", "  A: [AS, KS, 7Z]"),
    "card-dealt-twice": ("  A:", "  A: [AS, KS, QS]"),
    "card-not-in-the-pack": ("  A:", "  A: [AS, KS, JH]"),
    "hand-too-short": ("  A:", "  A: [AS, KS]"),
    "retourne-dealt-already": ("retourne:", "retourne: AS"),
    "under-retourne-written-wrong": ("retourne:", "retourne: AD\nunder_retourne: XX"),
    "exposed-card-not-dealt": ("retourne:", "retourne: AD\nexposed: JS"),
    "action-word": ("actions:", "actions: [A wager 10, B fold, C fold, D fold]"),
    "action-amount": ("actions:", "actions: [A bet ten, B fold, C fold, D fold]"),
    "discard-card": ("actions:", "actions: [A discard ZZ, B fold, C fold, D fold]"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_scenario_and_a_session_report_a_fault_of_their_deal_alike(
    tmp_path: Path, fault: str
) -> None:
    start, new = FAULTS[fault]
    deal = []
    for line in DEAL:
        deal.extend(new.split("\n") if line.startswith(start) else [line])
    scenario_text, session_text = _scenario(deal), _session(deal)
    s_line, s_field, s_message = _fault(tmp_path, "s.yaml", scenario_text, ["run", "-v", "foster"])
    d_line, d_field, d_message = _fault(tmp_path, "d.yaml", session_text, ["session"])
    assert d_message == s_message
    assert d_field == f"deals.0.{s_field}"
    # The same line of the deal: the deal starts after each file's head.
    assert d_line - SESSION_HEAD.count("\n") == s_line - SCENARIO_HEAD.count("\n")


def test_the_engine_errors_a_user_can_cause_share_one_base(library: Library) -> None:
    foster = library.get("foster")
    players = ["A", "B", "C", "D"]
    hands = {"A": ["AS", "KS", "8H"], "B": ["QS", "9S", "9H"], "C": ["8S", "8D", "9C"]}
    hands["D"] = ["AH", "KH", "QH"]

    def deal(**changes: list[str]) -> Deal:
        given = {p: parse_cards(h) for p, h in {**hands, **changes}.items()}
        return new_deal(foster, players, "D", hands=given, retourne=parse_card("AD"))

    raised: list[UserError] = []
    for attempt in (
        lambda: parse_card("7Z"),
        lambda: parse_action("A wager 10"),
        lambda: deal(A=["AS", "KS", "QS"]),
        lambda: deal().apply(parse_action("A bet 500")),
    ):
        with pytest.raises(UserError) as caught:
            attempt()
        raised.append(caught.value)
    kinds = [type(e) for e in raised]
    assert kinds == [CardError, ActionSyntaxError, SetupError, IllegalAction]
    card, action, setup, illegal = raised
    assert card.describe() == card.message and "'7Z' is not a card" in card.message
    assert "'wager' is not an action word" in action.describe()
    # An error that knows where it stands within what was given says so.
    assert setup.path == ("hands", "B", 0) and setup.describe().startswith("hands.B.0: QS")
    assert isinstance(illegal, IllegalAction) and illegal.rule == "stakes.cave"
    assert "[rule stakes.cave:" in illegal.describe()
    missing = MissingCardError("the card under the retourne is needed")
    assert isinstance(missing, UserError) and missing.path == ("under_retourne",)
    # Those that were value errors still are, for the callers that catch them so.
    assert all(isinstance(e, ValueError) for e in (card, action, setup, missing))
    assert issubclass(InputError, UserError)


class _Plain:
    """A wording that names nothing, to see what the replay passes it."""

    def over(self, deal: Deal, played: int, left: int) -> str:
        return f"over after {played}, {left} left"

    def unfinished(self, deal: Deal, legal: str) -> str:
        return f"{deal.to_act} to act: {legal}"

    def missing(self, error: MissingCardError) -> str:
        return f"missing: {error.message}"


def _place(tmp_path: Path, deal: list[str]) -> DealPlace:
    file = tmp_path / "s.yaml"
    file.write_text(_scenario(deal), encoding="utf-8")
    return DealPlace(load_scenario(file))


def _start(place: DealPlace, library: Library) -> Deal:
    written = WrittenCards(
        hands={"A": ["AS", "KS", "8H"], "B": ["QS", "9S", "9H"], "C": ["8S", "8D", "9C"]}
        | {"D": ["AH", "KH", "QH"]},
        retourne="AD",
    )
    return set_up(
        place, library.get("foster"), written, players=list("ABCD"), dealer="D", caves=None
    )


def test_replay_returns_the_refused_action_and_the_steps_before_it(
    tmp_path: Path, library: Library
) -> None:
    place = _place(tmp_path, DEAL)
    actions = read_actions(place, ["A bet 10", "B bet 3", "C fold"], ("actions",))
    deal = _start(place, library)
    played = replay(place, deal, actions, ("actions",), _Plain())
    assert [s.action for s in played.steps] == ["A bet 10", "B bet 3"]
    assert played.refused is not None and played.refused.rule == "betting.opening_minimum"
    assert played.steps[0].legal == [str(a) for a in _start(place, library).legal_actions()]


@pytest.mark.parametrize(
    ("texts", "line_key", "message"),
    [
        (["A bet 10", "B fold", "C fold", "D fold", "A fold"], 4, "over after 4, 1 left"),
        (["A bet 10", "B fold"], None, "C to act: call 10, raise 11-100, all-in 100, fold"),
    ],
)
def test_replay_refuses_actions_that_do_not_fit_the_deal(
    tmp_path: Path, library: Library, texts: list[str], line_key: int | None, message: str
) -> None:
    place = _place(tmp_path, DEAL)
    actions = read_actions(place, texts, ("actions",))
    with pytest.raises(InputError) as caught:
        replay(place, _start(place, library), actions, ("actions",), _Plain())
    error = caught.value
    assert error.message == message
    assert error.field == ("actions" if line_key is None else f"actions.{line_key}")
    assert error.line == 1 + SCENARIO_HEAD.count("\n") + DEAL.index(DEAL[-1])


def test_only_a_scenario_checks_the_players_of_its_actions_before_the_deal(
    tmp_path: Path,
) -> None:
    place = _place(tmp_path, DEAL)
    with pytest.raises(InputError, match="'E' is not one of the players"):
        read_actions(place, ["E bet 10"], ("actions",), players=list("ABCD"))
    # Without the players, the deal refuses the stranger by its rules when he acts.
    assert read_actions(place, ["E bet 10"], ("actions",))[0].action.player == "E"


def test_a_missing_card_in_a_session_names_the_deal(tmp_path: Path) -> None:
    # The carré of nines is turned, the kings are a higher brelan than the carré: Foster
    # then turns the card under the retourne, which this deal does not give.
    deal = [
        "hands: {A: [9H, 9D, 9C], B: [KH, KD, KC], C: [AS, QH, 8D], D: [AH, QD, 8C]}",
        "retourne: 9S",
        "actions: [A bet 5, B call, C call, D call, A no-more, B no-more]",
    ]
    line, field, message = _fault(tmp_path, "d.yaml", _session(deal), ["session"])
    assert field == "deals.0.under_retourne" and line == 1 + SESSION_HEAD.count("\n")
    assert message.startswith("deal 1: a player holds a brelan higher than the brelan carré")
    line, field, message = _fault(tmp_path, "s.yaml", _scenario(deal), ["run", "-v", "foster"])
    assert field == "under_retourne"
    assert message.endswith("add 'under_retourne:' to the scenario (variant foster)")
