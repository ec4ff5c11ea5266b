"""Payments for brelans and for triplets on a misdeal, pinned on the sources' own cases.

Foster: the carré's holder "receives from each player four white counters"; the simple
brelan "receives one counter from each of the other players at the table. If two are
shown, neither pays the other." The favori's holder "receives an extra counter from every
player at the table, whether he wins the pool or not. For instance: The retourne is an
eight; a brelan of Queens is shown, and wins the pool. Another player holds a pair of
eights, and claims brelan favori. He does not pay the winning brelan, but receives one
counter from its holder, and also from each of the other players. If the brelan favori
wins the pool, it is paid two counters by each player." Misdeals: a player showing
triplets "receives one white counter from each of the other players [...] If more than
one triplet is shown, the inferior does not pay the higher." The teaching card: "every
carré holder receives 2 from each opponent, ordinary brelan 1, including folded players".
"""

from __future__ import annotations

from bouillotte.play.bonuses import Transfer, brelan_claims, triplet_claims
from bouillotte.play.hands import classify
from bouillotte.rules.cards import RANKS, parse_card, parse_cards
from bouillotte.rules.profile import Rules
from bouillotte.rules.profiles import Library

LIBRARY = Library()
FOSTER = LIBRARY.get("foster").rules
PAGAT = LIBRARY.get("pagat").rules
A, B, C, D = range(4)
ORDER = [A, B, C, D]


def changed(rules: Rules, group: str, **changes: object) -> Rules:
    part = getattr(rules, group).model_copy(update=changes)
    updated = rules.model_copy(update={group: part})
    assert isinstance(updated, Rules)
    return updated


def claims(
    texts: list[str],
    retourne: str,
    rules: Rules,
    winners: set[int],
    claimants: list[int] = ORDER,
    folded: tuple[bool, ...] = (False, False, False, False),
) -> list[tuple[int, int, int, str]]:
    values = [classify(parse_cards(t.split()), parse_card(retourne), rules.hands) for t in texts]
    got = brelan_claims(claimants, values, winners, folded, ORDER, rules)
    return [(t.payer, t.payee, t.amount, t.reason) for t in got]


def test_foster_the_favori_is_not_paid_by_the_queens_but_paid_by_everyone_else() -> None:
    """B's brelan of queens wins; C's pair of eights with the eight turned is the favori.
    The queens are paid by A and D (not by C, who shows a brelan); the favori is paid one
    by A, B (the queens) and D."""
    got = claims(["AS KH 9D", "QS QH QD", "8S 8H AD", "KS 9S AH"], "8C", FOSTER, {B})
    assert got == [
        (A, B, 1, "brelan"),
        (D, B, 1, "brelan"),
        (A, C, 1, "brelan favori"),
        (B, C, 1, "brelan favori"),
        (D, C, 1, "brelan favori"),
    ]


def test_foster_the_favori_winning_the_pool_is_paid_two_by_each_player() -> None:
    got = claims(["AS KH 9D", "QS KS 9H", "8S 8H AD", "KD 9S AH"], "8C", FOSTER, {C})
    assert got == [(p, C, 2, "brelan favori winning the pool") for p in (A, B, D)]


def test_foster_two_simple_brelans_are_both_paid_by_the_other_two() -> None:
    got = claims(["AS AH AD", "QS QH QD", "9S KH 8D", "KS 9H 8H"], "KC", FOSTER, {A})
    assert got == [
        (C, A, 1, "brelan"),
        (D, A, 1, "brelan"),
        (C, B, 1, "brelan"),
        (D, B, 1, "brelan"),
    ]


def test_foster_the_carre_receives_four_from_each_player() -> None:
    got = claims(["9S 9H 9D", "QS QH QD", "AS KH 8D", "KS AH 8H"], "9C", FOSTER, {A})
    assert got[:3] == [(p, A, 4, "brelan carré") for p in (B, C, D)]
    # the queens are paid by C and D only (A shows a brelan of a kind too)
    assert got[3:] == [(C, B, 1, "brelan"), (D, B, 1, "brelan")]


def test_teaching_card_carre_and_brelan_claims_offset() -> None:
    """The card's example: retourne 9S; A 9H 9D 9C, B KH KD KC, A's carré wins. A claims 2
    from B, C, D; B claims 1 from A, C, D."""
    got = claims(["9H 9D 9C", "KH KD KC", "AS QH 8D", "AH QS 8H"], "9S", PAGAT, {A})
    assert got == [
        (B, A, 2, "brelan carré"),
        (C, A, 2, "brelan carré"),
        (D, A, 2, "brelan carré"),
        (A, B, 1, "brelan"),
        (C, B, 1, "brelan"),
        (D, B, 1, "brelan"),
    ]
    net = dict.fromkeys(ORDER, 0)
    for payer, payee, amount, _ in got:
        net[payer] -= amount
        net[payee] += amount
    assert net == {A: 5, B: 1, C: -3, D: -3}


def test_folded_players_pay_unless_the_profile_says_not() -> None:
    folded = (False, False, True, False)
    got = claims(["AS AH AD", "9S KH 8D", "KS 9H 8H", "QS QH 9D"], "KC", PAGAT, {A}, folded=folded)
    assert [(p, q) for p, q, _, _ in got] == [(B, A), (C, A), (D, A)]
    spared = changed(PAGAT, "bonuses", folded_players_pay=False)
    got = claims(["AS AH AD", "9S KH 8D", "KS 9H 8H", "QS QH 9D"], "KC", spared, {A}, folded=folded)
    assert [(p, q) for p, q, _, _ in got] == [(B, A), (D, A)]


def test_only_a_brelan_shown_is_paid_and_a_hidden_one_pays() -> None:
    """C holds three kings but does not show them (he is not a claimant): he is not paid,
    and he pays A's brelan as a player without one shown."""
    got = claims(["AS AH AD", "9S KH 8D", "KS KD KC", "QS QH 9D"], "8C", FOSTER, {A}, [A, B, D])
    assert got == [(B, A, 1, "brelan"), (C, A, 1, "brelan"), (D, A, 1, "brelan")]


def test_a_beaten_carre_is_paid_or_not_as_the_profile_says() -> None:
    """B's carré of eights loses the pool to A (say, a higher carré by the card under the
    retourne, or any other winner): still-paid, B collects 4 from each; not-paid, nothing."""
    texts = ["AS KH 9D", "8S 8H 8D", "QS KS 9H", "AH KD 9S"]
    got = claims(texts, "8C", FOSTER, {A})
    assert got == [(p, B, 4, "brelan carré") for p in (A, C, D)]
    not_paid = changed(FOSTER, "bonuses", beaten_carre="not-paid")
    assert claims(texts, "8C", not_paid, {A}) == []
    assert claims(texts, "8C", not_paid, {B}) == [(p, B, 4, "brelan carré") for p in (A, C, D)]


def test_no_payment_where_the_amount_is_nothing() -> None:
    pierer = LIBRARY.get("brelan-pierer").rules  # Pierer names no payment for a brelan
    assert claims(["AS AH AD", "9S KH 8D", "KS 9H 8H", "QS QD 9D"], "KC", pierer, {A}) == []
    # a brelan that pays 1 but 0 when it wins the pool
    brelan = FOSTER.bonuses.brelan.model_copy(update={"amount_if_wins_pool": 0})
    odd = changed(FOSTER, "bonuses", brelan=brelan)
    assert claims(["AS AH AD", "9S KH 8D", "KS 9H 8H", "QS QD 9D"], "KC", odd, {A}) == []
    assert len(claims(["AS AH AD", "9S KH 8D", "KS 9H 8H", "QS QD 9D"], "KC", odd, {B})) == 3


# --- triplets shown on a misdeal ------------------------------------------------------

K, NINE = RANKS.index("K"), RANKS.index("9")


def misdeal(ranks: list[int | None], rules: Rules = FOSTER) -> list[tuple[int, int, int]]:
    return [(t.payer, t.payee, t.amount) for t in triplet_claims(ranks, ORDER, rules)]


def test_foster_triplets_receive_one_white_counter_from_each_other_player() -> None:
    assert misdeal([None, K, None, None]) == [(A, B, 1), (C, B, 1), (D, B, 1)]
    assert all(
        t.reason == "triplets shown on a misdeal"
        for t in triplet_claims([None, K, None, None], ORDER, FOSTER)
    )


def test_foster_the_inferior_triplet_does_not_pay_the_higher() -> None:
    """A shows kings, C nines. C (inferior) does not pay A; and, under Foster's reading,
    neither does A pay C: each is paid by B and D."""
    assert misdeal([K, None, NINE, None]) == [(B, A, 1), (D, A, 1), (B, C, 1), (D, C, 1)]


def test_the_higher_triplet_pays_the_inferior_under_the_other_reading() -> None:
    pays = changed(FOSTER, "misdeals", higher_triplet="pays-the-inferior")
    assert misdeal([K, None, NINE, None], pays) == [
        (B, A, 1),
        (D, A, 1),
        (A, C, 1),
        (B, C, 1),
        (D, C, 1),
    ]


def test_where_the_inferior_pays_the_higher() -> None:
    inferior = changed(FOSTER, "misdeals", inferior_triplet_pays=True)
    assert misdeal([K, None, NINE, None], inferior) == [
        (B, A, 1),
        (C, A, 1),
        (D, A, 1),
        (B, C, 1),
        (D, C, 1),
    ]


def test_no_triplet_payment_where_the_profile_names_none() -> None:
    assert misdeal([K, None, NINE, None], PAGAT) == []
    assert misdeal([None, None, None, None]) == []


def test_a_transfer_is_a_plain_record() -> None:
    assert Transfer(A, B, 1, "brelan") == Transfer(A, B, 1, "brelan")


def test_a_brelan_paid_nothing_does_not_stop_the_next_from_being_paid() -> None:
    """A's brelan of aces wins the pool and is owed nothing (amount if it wins: 0); B's
    brelan of queens, which loses, is still paid 1 by C and D (Foster: "both must be paid by
    each of the other two players, who did not hold brelans")."""
    brelan = FOSTER.bonuses.brelan.model_copy(update={"amount_if_wins_pool": 0})
    odd = changed(FOSTER, "bonuses", brelan=brelan)
    got = claims(["AS AH AD", "QS QH QD", "9S KH 8D", "KS 9H 8H"], "KC", odd, {A})
    assert got == [(C, B, 1, "brelan"), (D, B, 1, "brelan")]


def test_a_beaten_carre_not_paid_does_not_stop_a_later_brelan_being_paid() -> None:
    """A wins; B's carré of eights (the eight turned) is beaten and, not-paid, collects
    nothing; D's brelan of kings is still paid by C, the one player without a brelan."""
    not_paid = changed(FOSTER, "bonuses", beaten_carre="not-paid")
    got = claims(["AS AH AD", "8S 8H 8D", "QS 9S QH", "KS KH KD"], "8C", not_paid, {A})
    assert got == [(C, A, 1, "brelan"), (C, D, 1, "brelan")]
