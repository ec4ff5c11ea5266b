"""The table between the deals of a session: caves, ledgers, stakes bought, the turn to deal.

The deal passes to the right (or left) from deal to deal, but stays with a dealer whose
misdeal does not lose him the deal; where the profile says so
(``stakes.skip_dealer_who_rebought``, Foster) a player who has just bought a new stake is
passed over when it is his turn to deal. A void deal's pool is carried into the next deal.
A cave that reaches zero is replaced by a new stake before the next deal; a player may buy
more counters while his cave is not empty only where ``stakes.cave_can_be_topped_up``; every
purchase is recorded. After the last deal, a pool still carried is shared equally in exact
fractions or left unclaimed (``session.carried_pot_at_end``), and the table settles.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction

from ..play.events import Redeal
from ..play.outcome import Outcome
from ..rules.variant import Variant
from .render import counted
from .replay import DealPlace
from .session_file import SessionModel
from .session_result import DealRecord, Rebuy, SessionResult, Standing, fraction_text, places


class SessionTable:
    """Caves, ledgers, stakes bought and the turn to deal, between deals."""

    def __init__(self, model: SessionModel, variant: Variant) -> None:
        self.variant = variant
        self.players = list(model.players)
        default = variant.rules.stakes.cave
        self.stake = {p: (model.caves or {}).get(p, default) for p in self.players}
        self.cave = dict(self.stake)
        self.ledger = dict.fromkeys(self.players, 0)
        self.bought = dict.fromkeys(self.players, 0)
        self.rebuy_option = model.rebuy
        self.carry = 0

    def rebuy_amount(self, player: str) -> int:
        amount = self.variant.rules.stakes.rebuy_amount
        if amount == "players-option":
            return self.rebuy_option if self.rebuy_option is not None else self.stake[player]
        return amount

    def rebuy_broke(self, number: int, chosen: Collection[str] = ()) -> list[Rebuy]:
        """A cave at zero is replaced before the next deal (and only a cave at zero), except
        the caves of the players in ``chosen``, who buy what the file says (:meth:`buy`)."""
        bought = []
        for player in self.players:
            if self.cave[player] == 0 and player not in chosen:
                amount = self.rebuy_amount(player)
                self.cave[player] += amount
                self.bought[player] += amount
                bought.append(Rebuy(player, amount, number))
        return bought

    def buy(self, place: DealPlace, wanted: Mapping[str, int], number: int) -> list[Rebuy]:
        """The counters the file says players buy before this deal, where the rules allow."""
        bought = []
        stakes = self.variant.rules.stakes
        for player, amount in wanted.items():
            fixed = stakes.rebuy_amount
            if self.cave[player] == 0 and fixed != "players-option" and amount != fixed:
                # A new stake is the profile's own amount where it fixes one.
                raise place.fail(
                    f"{player} has lost everything and buys a new stake, which under "
                    f"{self.variant.id} is {fixed} counters (stakes.rebuy_amount: "
                    f"{cited(self.variant, 'stakes.rebuy_amount')})",
                    ("buy", player),
                    amount,
                )
            if self.cave[player] > 0 and not stakes.cave_can_be_topped_up:
                raise place.fail(
                    f"{player} still has {self.cave[player]} counters, and under "
                    f"{self.variant.id} a cave cannot be added to before it is empty "
                    f"(stakes.cave_can_be_topped_up: "
                    f"{cited(self.variant, 'stakes.cave_can_be_topped_up')})",
                    ("buy", player),
                    amount,
                )
            self.cave[player] += amount
            self.bought[player] += amount
            bought.append(Rebuy(player, amount, number))
        return bought

    def next_dealer(
        self, previous: DealRecord, rebought: Collection[str]
    ) -> tuple[str, tuple[str, ...]]:
        """Who deals after ``previous``, and who was passed over, having just rebought."""
        if _dealer_keeps_deal(previous.outcome):
            return previous.dealer, ()
        step = 1 if self.variant.rules.table.direction == "right" else -1
        n = len(self.players)
        seat = (self.players.index(previous.dealer) + step) % n
        passed: list[str] = []
        if self.variant.rules.stakes.skip_dealer_who_rebought:
            # "the deal passes to the player beyond him" (Foster): it is then his turn to
            # deal, and the sentence passes it over him too if he has just bought.
            while self.players[seat] in rebought and len(passed) < n - 1:
                passed.append(self.players[seat])
                seat = (seat + step) % n
        return self.players[seat], tuple(passed)

    def record(self, outcome: Outcome) -> None:
        """A deal's outcome: the caves it leaves, the bonuses it writes, the pool it carries."""
        for player, result in outcome.players.items():
            self.cave[player] = result.cave
            self.ledger[player] += result.ledger
        self.carry = outcome.carry

    def settle(self, records: list[DealRecord]) -> SessionResult:
        """The final standings after the last deal."""
        rule = self.variant.rules.session.carried_pot_at_end
        n = len(self.players)
        share = Fraction(self.carry, n) if rule == "split-equally" else Fraction(0)
        results = [
            self.cave[p] + self.ledger[p] + share - self.stake[p] - self.bought[p]
            for p in self.players
        ]
        ranked = places(results)
        standings = [
            Standing(
                player=p,
                place=ranked[i],
                cave=self.cave[p],
                ledger=self.ledger[p],
                share=share,
                stake=self.stake[p],
                rebuys=self.bought[p],
                result=results[i],
            )
            for i, p in enumerate(self.players)
        ]
        notes = []
        counters = counted(self.carry, "counter")
        if self.carry and rule == "unclaimed":
            are, stay = ("is", "stays") if self.carry == 1 else ("are", "stay")
            notes.append(
                f"{counters} {are} still carried after the last deal and {stay} "
                f"unclaimed (session.carried_pot_at_end: unclaimed; "
                f"{cited(self.variant, 'session.carried_pot_at_end')})"
            )
        elif self.carry:
            notes.append(
                f"the {counters} still carried {'is' if self.carry == 1 else 'are'} shared "
                "equally: "
                f"{fraction_text(share)} each"
            )
        return SessionResult(
            variant=self.variant.id,
            players=list(self.players),
            deals=records,
            standings=standings,
            carried_at_end=self.carry,
            carried_pot_at_end=rule,
            notes=notes,
        )


def cited(variant: Variant, path: str) -> str:
    """A rule's citation for a message in brackets: :meth:`Variant.cite`, without the
    brackets it puts around a citation with no source (``(inferred: ...)``), which the
    message's own would double."""
    text = variant.cite(path).strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text


def _dealer_keeps_deal(outcome: Outcome) -> bool:
    """A misdeal that does not lose the deal: the same dealer deals again."""
    return any(isinstance(e, Redeal) and e.dealer for e in outcome.events)
