"""The record of a deal and its settlement: the events of ``bouillotte run --json`` and the
outcome that is replayed from them alone (docs/contracts.md, "bouillotte run --json").

Each event is written as an object with its ``type``; the outcome (pools, bonuses, the
carry, each player's cave, ledger and net) is rebuilt from those events and nothing else:
every chip a player puts in (blind, ante, straddle, bet, levy) leaves his cave, every chip
returned or won comes back to it, and a bonus moves from payer to payee on the cave or, in
a profile that keeps bonuses apart, on the separate ledger. The sums below are reckoned by
hand from the events written out in each test.
"""

from __future__ import annotations

from bouillotte.play.events import (
    PUBLIC,
    Act,
    Ante,
    Blind,
    Bonus,
    CarriedIn,
    Dealt,
    Decline,
    Draw,
    DrawBegins,
    End,
    Event,
    Levy,
    Misdeal,
    NoBlind,
    NobodyOpens,
    PotWon,
    Privilege,
    Redeal,
    Return,
    Showdown,
    Stifle,
    Straddle,
    UnderRetourne,
    WonByBrelan,
    WonByPoint,
    WonUncontested,
    event_json,
    events_json,
)
from bouillotte.play.hands import POINT_VALUE, HandValue, Kind
from bouillotte.play.outcome import Outcome, PlayerResult, Status, replay, results
from bouillotte.rules.cards import SUITS, parse_card, parse_cards

CARDS = parse_cards
NINES = HandValue(Kind.BRELAN, 5, 4)
MIGNON = HandValue(Kind.BRELAN, 6, 4, "brelan mignon")


def test_every_event_has_its_json_type() -> None:
    every: list[Event] = [
        CarriedIn(5),
        NoBlind("A", "levy"),
        Blind("A", 2, 2),
        Ante("A", 1, 1),
        Straddle("B", 4, 4, 10),
        Decline("B", True),
        Dealt((("A", tuple(CARDS(["AS", "KS", "QS"]))),), parse_card("9H")),
        Act("A", "pass"),
        Privilege("D", 10),
        NobodyOpens(),
        Levy("A", 1),
        Misdeal(parse_card("AS")),
        Stifle("A"),
        Redeal(None),
        Return("A", 3, "uncalled"),
        UnderRetourne(None, "none"),
        DrawBegins(parse_card("8C")),
        Draw("A", (), (), ()),
        Showdown((("A", POINT_VALUE),)),
        PotWon(10, ("A",), "A", "r", WonUncontested()),
        Bonus("A", "B", 2, "r", False),
        End("void", 10),
    ]
    assert [event_json(e)["type"] for e in every] == [
        "carried-in",
        "no-blind",
        "blind",
        "ante",
        "straddle",
        "decline",
        "deal",
        "action",
        "privilege",
        "nobody-opens",
        "levy",
        "misdeal",
        "stifle",
        "redeal",
        "return",
        "under-retourne",
        "draw-begins",
        "draw",
        "showdown",
        "pot",
        "bonus",
        "end",
    ]


def test_plain_events_write_their_fields_in_order() -> None:
    assert list(event_json(Straddle("B", 4, 6, 10)).items()) == [
        ("type", "straddle"),
        ("player", "B"),
        ("adds", 4),
        ("total", 6),
        ("pot", 10),
    ]
    assert event_json(NoBlind("D", "the levy stands")) == {
        "type": "no-blind",
        "player": "D",
        "reason": "the levy stands",
    }
    assert event_json(Decline("B", False)) == {"type": "decline", "player": "B", "implicit": False}
    assert event_json(Redeal("C")) == {"type": "redeal", "dealer": "C"}
    assert event_json(Return("A", 3, "uncalled")) == {
        "type": "return",
        "player": "A",
        "amount": 3,
        "reason": "uncalled",
    }
    assert event_json(NobodyOpens()) == {"type": "nobody-opens"}
    assert event_json(End("settled", 0)) == {"type": "end", "status": "settled", "carry": 0}


def test_a_betting_word_writes_its_chips_only_where_it_puts_some_in() -> None:
    assert event_json(Act("A", "pass")) == {"type": "action", "player": "A", "action": "pass"}
    assert event_json(Act("B", "bet", 10, 12, 20)) == {
        "type": "action",
        "player": "B",
        "action": "bet",
        "adds": 10,
        "total": 12,
        "pot": 20,
    }
    assert event_json(Act("C", "bet", 0, 0, 8)) == {
        "type": "action",
        "player": "C",
        "action": "bet",
        "adds": 0,
        "total": 0,
        "pot": 8,
    }
    all_in = event_json(Act("C", "call", 5, 5, 25, all_in=True, sight=True))
    assert all_in["all_in"] is True and all_in["sight"] is True
    assert (all_in["adds"], all_in["total"], all_in["pot"]) == (5, 5, 25)
    sight = event_json(Act("C", "call", 5, 5, 25, sight=True))
    assert "all_in" not in sight and sight["sight"] is True
    assert "sight" not in event_json(Act("C", "call", 5, 5, 25, all_in=True))


def test_cards_and_hands_are_written_as_text() -> None:
    dealt = Dealt(
        (("A", tuple(CARDS(["AS", "KS", "QS"]))), ("B", tuple(CARDS(["9H", "9D", "8C"])))),
        parse_card("AH"),
    )
    assert event_json(dealt) == {
        "type": "deal",
        "hands": {"A": "AS KS QS", "B": "9H 9D 8C"},
        "retourne": "AH",
    }
    assert event_json(Showdown((("A", POINT_VALUE), ("B", NINES), ("C", MIGNON)))) == {
        "type": "showdown",
        "hands": {
            "A": "no brelan",
            "B": "brelan of nines",
            "C": "brelan mignon (brelan of eights)",
        },
    }
    assert event_json(Misdeal(parse_card("KD"))) == {"type": "misdeal", "exposed": "KD"}
    assert event_json(UnderRetourne(parse_card("8S"), "turned")) == {
        "type": "under-retourne",
        "card": "8S",
        "note": "turned",
    }
    assert event_json(UnderRetourne(None, "not turned")) == {
        "type": "under-retourne",
        "card": None,
        "note": "not turned",
    }
    assert event_json(DrawBegins(parse_card("QC"))) == {"type": "draw-begins", "to_buy_first": "QC"}
    draw = Draw(
        "A",
        tuple(CARDS(["9S", "8S"])),
        tuple(CARDS(["AD", "KD"])),
        tuple(CARDS(["AS", "AD", "KD"])),
    )
    assert event_json(draw) == {
        "type": "draw",
        "player": "A",
        "discards": "9S 8S",
        "buys": "AD KD",
        "hand": "AS AD KD",
    }


def test_pools_and_bonuses_are_written_with_their_reasons() -> None:
    pot = PotWon(24, ("A", "B"), "B", "brelan of nines", WonByBrelan(NINES), NINES)
    assert pot.to_json() == {
        "amount": 24,
        "contenders": ["A", "B"],
        "winner": "B",
        "reason": "brelan of nines",
    }
    assert event_json(pot) == {"type": "pot"} | pot.to_json()
    paid = Bonus("A", "B", 2, "brelan", ledger=True)
    assert paid.to_json() == {"from": "A", "to": "B", "amount": 2, "reason": "brelan"}
    assert event_json(paid) == {
        "type": "bonus",
        "from": "A",
        "to": "B",
        "amount": 2,
        "reason": "brelan",
        "ledger": True,
    }
    short = event_json(Bonus("A", "B", 1, "brelan", ledger=False, unpaid=3))
    assert short["unpaid"] == 3 and short["ledger"] is False
    assert events_json((pot, paid)) == [event_json(pot), event_json(paid)]
    assert events_json([]) == []


def test_the_public_events_are_those_every_player_sees() -> None:
    """The forced bets, straddles and betting words are said aloud; the cards are not."""
    assert set(PUBLIC) == {CarriedIn, Blind, Ante, Straddle, Decline, Act, Privilege}


# A four-handed deal written out: A 20, B 20, C 20, D 20. D's blind 1 (kept in his cave
# until the pool is won), a straddle by A of 2, B bets 6 (all his stake is 6), C folds, D
# calls 6 (adds 5), A calls 6 (adds 4); B's brelan of nines wins the pool of 18, and each
# of A and D pays him a bonus of 2 on the ledger; C paid a levy of 1 carried in with 3.
LOG: list[Event] = [
    CarriedIn(3),
    Levy("C", 1),
    Blind("D", 1, 1),
    Straddle("A", 2, 2, 3),
    Act("B", "bet", 6, 6, 9),
    Act("C", "fold"),
    Act("D", "call", 5, 6, 14),
    Act("A", "call", 4, 6, 18, all_in=False),
    Showdown((("A", POINT_VALUE), ("B", NINES), ("D", POINT_VALUE))),
    PotWon(18, ("A", "B", "D"), "B", "brelan of nines", WonByBrelan(NINES), NINES),
    Bonus("A", "B", 2, "brelan", ledger=True),
    Bonus("D", "B", 2, "brelan", ledger=True),
    End("settled", 0),
]
CAVES = {"A": 20, "B": 20, "C": 20, "D": 20}


def test_the_outcome_is_rebuilt_from_the_log_alone() -> None:
    outcome = replay(LOG, CAVES)
    assert outcome.status is Status.SETTLED
    assert outcome.carry == 0 and outcome.carried_in == 3
    assert outcome.pots == (LOG[9],)
    assert outcome.bonuses == (LOG[10], LOG[11])
    assert outcome.events == tuple(LOG)
    # A: -2 -4 = 14 in the cave, -2 on the ledger; B: -6 +18 = 32, +4; C: -1; D: -1 -5.
    assert outcome.players == {
        "A": PlayerResult(14, -2, -8),
        "B": PlayerResult(32, 4, 16),
        "C": PlayerResult(19, 0, -1),
        "D": PlayerResult(14, -2, -8),
    }


def test_a_bonus_off_the_ledger_moves_caves_and_a_return_gives_chips_back() -> None:
    log: list[Event] = [
        Ante("A", 2, 2),
        Ante("B", 2, 2),
        Act("A", "bet", 10, 12, 14),
        Act("B", "all-in", 5, 7, 19, all_in=True),
        Return("A", 5, "more than B could call"),
        PotWon(14, ("A", "B"), "A", "point", WonByPoint(SUITS.index("S"), 31)),
        Bonus("B", "A", 3, "brelan", ledger=False),
        End("uncontested", 0),
    ]
    outcome = replay(log, {"A": 20, "B": 7})
    # A: 20 -2 -10 +5 +14 +3 = 30; B: 7 -2 -5 -3 = -3 (the replay does not cap a cave).
    assert outcome.players == {"A": PlayerResult(30, 0, 10), "B": PlayerResult(-3, 0, -10)}
    assert outcome.status is Status.UNCONTESTED


def test_a_log_without_an_end_is_void_with_nothing_carried() -> None:
    outcome = replay([Blind("D", 1, 1)], {"D": 10})
    assert (outcome.status, outcome.carry, outcome.carried_in) == (Status.VOID, 0, 0)
    assert outcome.players == {"D": PlayerResult(9, 0, -1)}
    assert outcome.pots == () and outcome.bonuses == ()


def test_a_void_deal_carries_its_pool() -> None:
    outcome = replay([Ante("A", 1, 1), Ante("B", 1, 1), NobodyOpens(), End("void", 2)], CAVES)
    assert outcome.status is Status.VOID and str(outcome.status) == "void"
    assert outcome.carry == 2


def test_the_results_net_is_the_cave_change_plus_the_ledger_change() -> None:
    assert results({"A": 10, "B": 5}, {"A": 7, "B": 9, "X": 1}, {"A": 1, "B": -2}) == {
        "A": PlayerResult(7, 1, -2),
        "B": PlayerResult(9, -2, 2),
    }


def test_the_outcome_json_is_the_contract_of_run_json() -> None:
    outcome = replay(LOG, CAVES)
    assert outcome.to_json() == {
        "status": "settled",
        "error": None,
        "pots": [
            {
                "amount": 18,
                "contenders": ["A", "B", "D"],
                "winner": "B",
                "reason": "brelan of nines",
            }
        ],
        "bonuses": [
            {"from": "A", "to": "B", "amount": 2, "reason": "brelan"},
            {"from": "D", "to": "B", "amount": 2, "reason": "brelan"},
        ],
        "carry": 0,
        "players": {
            "A": {"cave": 14, "ledger": -2, "net": -8},
            "B": {"cave": 32, "ledger": 4, "net": 16},
            "C": {"cave": 19, "ledger": 0, "net": -1},
            "D": {"cave": 14, "ledger": -2, "net": -8},
        },
        "events": events_json(LOG),
    }
    assert [s.value for s in Status] == ["settled", "uncontested", "void"]
    assert isinstance(outcome, Outcome)
