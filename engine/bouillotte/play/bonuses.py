"""Payments for brelans (and for triplets shown on a misdeal), apart from the pool."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..rules.profile import BonusRule, Rules
from .hands import BONUS_KEY, HandValue, Kind


class Transfer:
    """A bonus paid: by which seat, to which, how much and why.

    Immutable and equal by value, as a frozen dataclass; a plain class, so that the
    compiled engine builds it natively (one or more every deal)."""

    __slots__ = ("amount", "payee", "payer", "reason")

    def __init__(self, payer: int, payee: int, amount: int, reason: str) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.amount: Final = amount
        self.reason: Final = reason

    def _fields(self) -> tuple[int, int, int, str]:
        return (self.payer, self.payee, self.amount, self.reason)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Transfer) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Transfer(payer={self.payer!r}, payee={self.payee!r}, "
            f"amount={self.amount!r}, reason={self.reason!r})"
        )


def brelan_claims(
    claimants: Sequence[int],
    values: Sequence[HandValue],
    pool_winners: set[int],
    folded: Sequence[bool],
    order: Sequence[int],
    rules: Rules,
) -> list[Transfer]:
    """What every shown brelan collects, claimant by claimant in speaking order.

    ``claimants`` are the seats that show their hands; each pays or is paid according to
    the profile's bonus rules for its kind of brelan.
    """
    bonuses = rules.bonuses
    showing_brelans = {s for s in claimants if values[s].is_brelan}
    transfers: list[Transfer] = []
    for payee in order:
        if payee not in showing_brelans:
            continue
        value = values[payee]
        rule: BonusRule = getattr(bonuses, BONUS_KEY[value.kind])
        amount = rule.amount_if_wins_pool if payee in pool_winners else rule.amount
        if (
            value.kind is Kind.CARRE
            and payee not in pool_winners
            and bonuses.beaten_carre == "not-paid"
        ):
            continue  # its counters come "in addition to winning the pool"
        if amount <= 0:
            continue
        for payer in order:
            if payer == payee:
                continue
            if folded[payer] and not bonuses.folded_players_pay:
                continue
            if rule.paid_by == "players-without-a-brelan" and payer in showing_brelans:
                continue
            transfers.append(Transfer(payer, payee, amount, _reason(value, payee in pool_winners)))
    return transfers


def _reason(value: HandValue, won: bool) -> str:
    text = value.kind.value
    if value.kind is Kind.FAVORI and won:
        text += " winning the pool"
    return text


def triplet_claims(
    ranks: Sequence[int | None], order: Sequence[int], rules: Rules
) -> list[Transfer]:
    """After a misdeal: what each player showing triplets receives from the others."""
    amount = rules.misdeals.triplet_payment
    if amount <= 0:
        return []
    transfers: list[Transfer] = []
    for payee in order:
        mine = ranks[payee]
        if mine is None:
            continue
        for payer in order:
            theirs = ranks[payer]
            if payer == payee:
                continue
            if theirs is not None and not _triplet_pays(theirs, mine, rules):
                continue
            transfers.append(Transfer(payer, payee, amount, "triplets shown on a misdeal"))
    return transfers


def _triplet_pays(payer_rank: int, payee_rank: int, rules: Rules) -> bool:
    """Whether one triplet pays another after a misdeal (a larger rank index is lower)."""
    if payer_rank > payee_rank:
        return rules.misdeals.inferior_triplet_pays
    return rules.misdeals.higher_triplet == "pays-the-inferior"
