"""How a deal ends: a pool nobody disputes, a misdeal, a void deal carried, and the record
of it all, pinned on the sources' words and reckoned by hand.

Foster: "Then D withdraws his superfluous 65, and it is a call" (an uncalled excess goes
back); two simple brelans "must be paid by each of the other two players, who did not hold
brelans" (a brelan is paid by those without one), and a winner who frightened off his
opponents may "stifle the brelan"; "If any card is exposed during the deal, either in the
pack or in giving it to a player, it is a misdeal" (the profile returns the stakes).
Where the carried levy stands for the blind (``void_deals.levy_and_next_blind``), the
dealer puts up nothing. The outcome of every deal equals the replay of its log.
"""

from __future__ import annotations

import pytest

from bouillotte.play.actions import parse_action
from bouillotte.play.deal import Deal, new_deal
from bouillotte.play.events import (
    PUBLIC,
    Act,
    Blind,
    Bonus,
    CarriedIn,
    Decline,
    Levy,
    Misdeal,
    NoBlind,
    Redeal,
    Return,
    Stifle,
    UnderRetourne,
    WonByBrelan,
    WonUncontested,
)
from bouillotte.play.outcome import PlayerResult, Status, replay
from bouillotte.rules.cards import RANKS, parse_card, parse_cards
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant

from .dealkit import nets

LIBRARY = Library()
FOSTER = LIBRARY.get("foster")
HANDS = {"A": "8S 8H 8D", "B": "KS 9D 8C", "C": "KC QS 9S", "D": "KH QC AC"}
PLAYERS = list(HANDS)


def deal(
    variant: Variant = FOSTER,
    actions: tuple[str, ...] = (),
    *,
    exposed: str | None = None,
    stifled: tuple[str, ...] = (),
    carried_in: int = 0,
    favori_rank: int | None = None,
) -> Deal:
    d = new_deal(
        variant,
        PLAYERS,
        "D",
        hands={name: parse_cards(h.split()) for name, h in HANDS.items()},
        retourne=parse_card("9H"),
        exposed=parse_card(exposed) if exposed else None,
        stifled=stifled,
        carried_in=carried_in,
        favori_rank=favori_rank,
    )
    for text in actions:
        d.apply(parse_action(text))
    return d


def checked(d: Deal) -> Deal:
    """The outcome is the replay of the log; the public record is the witnessed events."""
    assert d.is_over
    assert replay(d.events, dict.fromkeys(PLAYERS, 100)) == d.outcome
    assert d.public == [e for e in d.events if isinstance(e, PUBLIC)]
    return d


UNCALLED = ("A decline", "A bet 10", "B fold", "C fold", "D fold")


def test_an_uncalled_winner_takes_back_his_excess_and_is_paid_for_his_brelan() -> None:
    """A bets 10 over D's blind of 5 and nobody calls: 5 comes back, the pool is 10 (A's
    5 and D's blind), and A's brelan of eights is paid 1 by each of B, C and D."""
    d = checked(deal(actions=UNCALLED))
    out = d.outcome
    assert out.status is Status.UNCONTESTED
    assert Return("A", 5, "uncalled excess withdrawn") in d.events
    assert [(p.amount, p.winner, p.reason) for p in out.pots] == [
        (10, "A", "uncontested: every other player has withdrawn")
    ]
    assert [(b.payer, b.payee, b.amount, b.reason, b.ledger, b.unpaid) for b in out.bonuses] == [
        ("B", "A", 1, "brelan", False, 0),
        ("C", "A", 1, "brelan", False, 0),
        ("D", "A", 1, "brelan", False, 0),
    ]
    assert nets(out) == {"A": 8, "B": -1, "C": -1, "D": -6}
    assert out.players["A"] == PlayerResult(108, 0, 8)


def test_a_stifled_brelan_is_not_shown_and_not_paid() -> None:
    d = checked(deal(actions=UNCALLED, stifled=("A",)))
    assert Stifle("A") in d.events
    assert d.outcome.bonuses == ()
    assert nets(d.outcome) == {"A": 5, "B": 0, "C": 0, "D": -5}


def test_stifling_a_hand_without_a_brelan_changes_nothing() -> None:
    actions = ("A decline", "A fold", "B bet 10", "C fold", "D fold")
    d = checked(deal(actions=actions, stifled=("B",)))
    assert not any(isinstance(e, Stifle) for e in d.events)
    assert nets(d.outcome) == {"A": 0, "B": 5, "C": 0, "D": -5}


def test_an_unshown_brelan_of_the_declared_rank_is_paid_as_the_favori() -> None:
    """The Académie's favori, "le Brelan qu'on a déclaré au commencement du jeu qui se
    payeroit double": eights declared, A's three eights win the pool unseen and are paid
    as Foster's profile pays a favori that wins the pool, 2 by each other player."""
    variant = FOSTER.with_values({"hands.favori_meaning": "declared-rank"})
    d = checked(deal(variant, UNCALLED, favori_rank=RANKS.index("8")))
    assert [(b.payer, b.payee, b.amount, b.reason) for b in d.outcome.bonuses] == [
        ("B", "A", 2, "brelan favori winning the pool"),
        ("C", "A", 2, "brelan favori winning the pool"),
        ("D", "A", 2, "brelan favori winning the pool"),
    ]
    assert nets(d.outcome) == {"A": 11, "B": -2, "C": -2, "D": -7}


def test_no_hand_is_paid_where_bonuses_need_a_showdown() -> None:
    variant = FOSTER.with_values({"bonuses.claimed_without_showdown": False})
    d = checked(deal(variant, UNCALLED))
    assert d.outcome.bonuses == ()


def test_a_misdeal_returns_the_stakes_and_the_dealer_deals_again() -> None:
    """A straddles 10 over the blind, B declines, the deal exposes B's KS: the 10 and the
    blind of 5 go back, and D deals again."""
    d = checked(deal(actions=("A straddle", "B decline"), exposed="KS"))
    after = d.events[d.events.index(Misdeal(parse_card("KS"))) + 1 :]
    assert after[:2] == [
        Return("A", 10, "stakes returned: the hands are abandoned"),
        Return("D", 5, "stakes returned: the hands are abandoned"),
    ]
    # A's three eights are triplets at a misdeal: each other player pays him 1 (Foster).
    assert [(b.payer, b.payee, b.amount) for b in after[2:5] if isinstance(b, Bonus)] == [
        ("B", "A", 1),
        ("C", "A", 1),
        ("D", "A", 1),
    ]
    assert after[5] == Redeal("D")
    assert (d.outcome.status, d.outcome.carry) == (Status.VOID, 0)
    assert nets(d.outcome) == {"A": 3, "B": -1, "C": -1, "D": -1}


def test_a_card_exposed_in_the_pack_is_a_misdeal_too() -> None:
    """Foster: "If any card is exposed during the deal, either in the pack or in giving it
    to a player, it is a misdeal". The AS is in no hand (nor the retourne): exposed in the
    pack. As with a dealt card, the blind of 5 goes back, A's three eights collect 1 from
    each other player, and D deals again: A +3, the others -1."""
    d = checked(deal(actions=("A decline",), exposed="AS"))
    assert Misdeal(parse_card("AS"), True) in d.events
    assert Return("D", 5, "stakes returned: the hands are abandoned") in d.events
    assert d.events[-2:-1] == [Redeal("D")]
    assert nets(d.outcome) == {"A": 3, "B": -1, "C": -1, "D": -1}
    event = next(e for e in d.outcome.to_json()["events"] if e["type"] == "misdeal")
    assert event == {"type": "misdeal", "exposed": "AS", "in_pack": True}
    # a dealt card's misdeal event says nothing of the pack, as before
    dealt = checked(deal(actions=("A decline",), exposed="KS"))
    event = next(e for e in dealt.outcome.to_json()["events"] if e["type"] == "misdeal")
    assert event == {"type": "misdeal", "exposed": "KS"}


def test_a_betting_word_said_before_a_misdeal_is_refused() -> None:
    """The straddles end in a misdeal: a betting word there would never be played. It was
    taken for a decline and dropped in silence; it is refused (round seven), and the
    straddle's answer, 'decline', ends the deal."""
    from bouillotte.play.board import IllegalAction

    with pytest.raises(IllegalAction) as refused:
        deal(actions=("A bet 5",), exposed="KS")
    assert refused.value.rule == "misdeals.exposed_card_is_misdeal"
    assert [str(a) for a in refused.value.legal] == ["straddle 10", "decline"]
    d = checked(deal(actions=("A decline",), exposed="KS"))
    assert Decline("A", False) in d.events
    assert not any(isinstance(e, Act) for e in d.events)
    assert d.outcome.carry == 0


def test_where_the_stakes_stay_and_the_deal_passes_the_pool_is_carried() -> None:
    variant = FOSTER.with_values(
        {"misdeals.stakes_on_a_misdeal": "stay-in-the-pool", "misdeals.dealer_keeps_deal": False}
    )
    d = checked(deal(variant, ("A straddle", "B decline"), exposed="KS"))
    assert not any(isinstance(e, Return) for e in d.events)
    assert Redeal(None) in d.events
    assert (d.outcome.status, d.outcome.carry) == (Status.VOID, 15)


def test_where_the_carried_levy_stands_for_the_blind_the_dealer_puts_up_nothing() -> None:
    variant = FOSTER.with_values({"void_deals.levy_and_next_blind": "levy-instead-of-blind"})
    d = deal(variant, carried_in=20)
    assert d.events[:2] == [
        CarriedIn(20),
        NoBlind("D", "the carried levy stands for the blind"),
    ]
    assert not any(isinstance(e, Blind) for e in d.events)
    # The straddle doubles the blind's usual 5 all the same.
    assert [str(a) for a in d.legal_actions()] == ["straddle 10", "decline"]
    d = deal(FOSTER, carried_in=20)
    assert d.events[:2] == [CarriedIn(20), Blind("D", 5, 5)]
    assert d.pot_total() == 25
    # A carry of a single counter stands for the blind too; no carry, and the blind is put up.
    assert deal(variant, carried_in=1).events[:2] == [
        CarriedIn(1),
        NoBlind("D", "the carried levy stands for the blind"),
    ]
    assert deal(variant).events[0] == Blind("D", 5, 5)


def test_where_passing_folds_a_pass_withdraws_the_player() -> None:
    variant = FOSTER.with_values({"betting.pass_before_opening": "folds"})
    d = deal(variant, ("A decline", "A pass"))
    assert d.events[-1] == Act("A", "fold")
    assert d.to_act == "B"


def test_foster_nobody_opens_each_puts_up_the_levy_and_the_pool_is_carried() -> None:
    """Foster's profile: when nobody opens the pool is carried and each player pays a levy
    of 5 into it (``void_deals.void_levy``): D's blind 5 and 4 x 5 = 25 carried."""
    d = checked(deal(actions=("A decline", "A pass", "B pass", "C pass", "D pass")))
    assert [(e.player, e.amount) for e in d.events if isinstance(e, Levy)] == [
        ("A", 5),
        ("B", 5),
        ("C", 5),
        ("D", 5),
    ]
    assert (d.outcome.status, d.outcome.carry, d.outcome.pots) == (Status.VOID, 25, ())
    assert nets(d.outcome) == {"A": -5, "B": -5, "C": -5, "D": -10}


def test_where_the_last_to_stake_takes_an_unopened_pool_without_straddles_the_dealer_does() -> None:
    """With no straddle the dealer's blind is the last stake: he takes his own 5 back."""
    variant = FOSTER.with_values({"void_deals.nobody_opens": "last-straddler-takes"})
    d = checked(deal(variant, ("A decline", "A pass", "B pass", "C pass", "D pass")))
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(5, "D")]
    assert d.outcome.status is Status.UNCONTESTED
    assert nets(d.outcome) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_the_card_under_the_retourne_is_turned_and_recorded() -> None:
    """Foster: "If any player holds a brelan [...] of a higher denomination than the brelan
    carré, the player may turn up the card under the retourne": B's kings over A's carré of
    nines (with the 9C turned), and the KC under it makes B's a carré too."""
    hands = {"A": "9S 9H 9D", "B": "KS KH KD", "C": "AS QS 8S", "D": "AH QH 8H"}
    d = new_deal(
        FOSTER,
        PLAYERS,
        "D",
        hands={name: parse_cards(h.split()) for name, h in hands.items()},
        retourne=parse_card("9C"),
        under_retourne=parse_card("KC"),
    )
    for text in ["A bet 10", "B call", "C fold", "D fold"]:
        d.apply(parse_action(text))
    assert [e for e in d.events if isinstance(e, UnderRetourne)] == [
        UnderRetourne(
            parse_card("KC"), "the card under the retourne, KC, completes a higher brelan carré"
        )
    ]
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(25, "B")]
    assert isinstance(d.outcome.pots[0].decision, WonByBrelan)


def test_the_teaching_card_pays_brelans_at_a_showdown_on_the_ledger() -> None:
    """Teaching card 05: "ordinary brelan 1, including folded players [...] on a separate
    signed ledger". A's eights, called by B: B, C and D each owe him 1 on the ledger; the
    pool of 11 (D's ante 1, A's 5, B's 5) goes to A's brelan, in the cave."""
    d = checked(deal(LIBRARY.get("pagat"), ("A decline", "A bet 5", "B call", "C fold", "D fold")))
    assert [(b.payer, b.payee, b.amount, b.ledger) for b in d.outcome.bonuses] == [
        ("B", "A", 1, True),
        ("C", "A", 1, True),
        ("D", "A", 1, True),
    ]
    assert all(b.ledger is True for b in d.outcome.bonuses)
    assert d.outcome.players["A"] == PlayerResult(106, 3, 9)
    assert d.outcome.players["D"] == PlayerResult(99, -1, -2)


def test_a_pool_only_one_player_reached_is_his_uncontested() -> None:
    """Foster's sight, had D's superfluous 65 not been withdrawn: it is a pool D alone
    reached, and his without a contest."""
    sight = {"A": "AC KC 9C", "B": "KS 9D 8D", "C": "AS QS 9S", "D": "AH KH QC"}
    variant = FOSTER.with_values({"betting.return_uncalled_excess": False})
    d = new_deal(
        variant,
        PLAYERS,
        "D",
        {"A": 35, "B": 60, "C": 120, "D": 185},
        hands={name: parse_cards(h.split()) for name, h in sight.items()},
        retourne=parse_card("9H"),
    )
    for text in ["A all-in", "B fold", "C raise 85", "D all-in", "C call"]:
        d.apply(parse_action(text))
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(105, "A"), (170, "D"), (65, "D")]
    assert d.outcome.pots[2].decision == WonUncontested()
    assert d.outcome.pots[2].contenders == ("D",)


def test_a_bonus_a_cave_cannot_pay_is_recorded_as_unpaid() -> None:
    """D's blind of 5 is his whole cave; A's eights beat his point for the pool of 10 (A's
    5 over it returned), and D owes a brelan's 1 from an empty cave: paid 0, unpaid 1."""
    caves = {"A": 100, "B": 100, "C": 100, "D": 5}
    d = new_deal(
        FOSTER,
        PLAYERS,
        "D",
        caves,
        hands={name: parse_cards(h.split()) for name, h in HANDS.items()},
        retourne=parse_card("9H"),
    )
    for text in ("A decline", "A bet 10", "B fold", "C fold"):
        d.apply(parse_action(text))
    assert [(p.amount, p.winner) for p in d.outcome.pots] == [(10, "A")]
    assert [(b.payer, b.amount, b.unpaid) for b in d.outcome.bonuses] == [
        ("B", 1, 0),
        ("C", 1, 0),
        ("D", 0, 1),
    ]


def test_the_outcome_waits_for_the_end() -> None:
    d = deal()
    with pytest.raises(RuntimeError, match=r"^the deal is not over yet$"):
        _ = d.outcome
