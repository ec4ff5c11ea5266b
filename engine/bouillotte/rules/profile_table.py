"""The profile schema's groups of rules about the table, the stakes and the forced bets,
misdeals and the session (:mod:`profile` gathers every group into :class:`Rules`). Each
field is one rule, its docstring what the rule means (``rules/descriptions.py``)."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, model_validator

from .docstrings import describe_fields
from .profile_base import Rank, _Group, value_labels

MIN_PLAYERS, MAX_PLAYERS = 2, 6
"""The sizes of a table a system may seat (and have a pack for)."""
MAX_POINT_VALUE = 100
"""The most a card may count in the point. The sources count 7 to 11 (an ace 11, a court
card 10, or every card 10); none counts less than nothing, and a card of more than 100
would make a suit's total a figure no player reckons."""


class Table(_Group):
    """Players, the pack and the deal."""

    players: int = Field(ge=MIN_PLAYERS, le=MAX_PLAYERS, title="Players")
    """How many players this system seats (a profile is for one table size)."""

    packs: dict[int, list[Rank]] = Field(title="Cards in the pack")
    """The ranks kept in the pack for each number of players (2 to 6), highest first; every
    rank is kept in all four suits. The order is also the order of the brelans (three aces
    best)."""

    point_values: dict[Rank, Annotated[int, Field(ge=0, le=MAX_POINT_VALUE)]] = Field(
        title="Point values"
    )
    """What each rank counts when the point (the pips of a suit) is reckoned: 0 to 100, and
    a value for every rank of every pack."""

    hand_size: int = Field(ge=1, le=5, title="Cards in a hand")
    """Cards dealt to each player."""

    direction: Literal["right", "left"] = Field(
        title="Direction of play",
        json_schema_extra=value_labels(
            {"right": "to the right (anticlockwise)", "left": "to the left (clockwise)"}
        ),
    )
    """Which way the deal, the betting and the turn to deal pass: ``right`` is
    anticlockwise (the French way), ``left`` clockwise."""

    cut_by: Literal["player-on-dealers-left", "player-on-dealers-right"] = Field(
        title="Who cuts",
        json_schema_extra=value_labels(
            {
                "player-on-dealers-left": "the player on the dealer's left",
                "player-on-dealers-right": "the player on the dealer's right",
            }
        ),
    )
    """Who cuts the pack before the deal (it does not change a given card order)."""

    deal_singly: bool = Field(title="Cards dealt one at a time")
    """Whether the cards are given one at a time round the table (otherwise a whole hand
    at a time). Decides who receives which card of a pack given top first."""

    packets: Literal["as-deal-singly", "one-then-two", "two-then-one"] = Field(
        title="Dealing in packets",
        json_schema_extra=value_labels(
            {
                "as-deal-singly": "no packets",
                "one-then-two": "one card, then two",
                "two-then-one": "two cards, then one",
            }
        ),
    )
    """How the three cards are given where the deal goes in packets. ``as-deal-singly``:
    as ``deal_singly`` says (one at a time, or a whole hand at a time). ``one-then-two``:
    one card to each player round the table, then two to each; ``two-then-one`` the other
    way round.

    Sources: Pierer (1857–65): "Man gibt 1 u. 2 od. 2 u. 1 Karte, nie 3 zugleich" (one
    and two or two and one cards are given, never three at once)."""

    draw: Literal["none", "discard-and-buy"] = Field(
        title="Draw after the betting",
        json_schema_extra=value_labels(
            {"none": "no draw", "discard-and-buy": "discard and buy from the stock"}
        ),
    )
    """Whether the players change cards after the betting. ``none``: the hands dealt are
    the hands shown. ``discard-and-buy``: each player still in, in turn to the right from
    the eldest, throws away the cards that do not fit the hand he hopes for (his whole hand
    if he likes) and buys as many from the stock, the turned card first, at no price; a
    player holding three equal cards may instead buy one card more, hoping for the fourth
    (the *brelan carré*).

    Sources: ``discard-and-buy`` is Pierer's German Brelan, the turned card first ("die
    aufgeworfene Karte ist unter der zu Kaufenden": the turned card is among those to be
    bought). Pierer does not say how many cards may be bought, in what order, or at what
    price: the engine lets a player throw away his whole hand, takes the buyers in turn to
    the right from the eldest, and charges nothing (each an inference, cited so in the
    profile)."""

    def pack_ranks(self) -> list[Rank]:
        return self.packs[self.players]

    @model_validator(mode="after")
    def _packs_are_counted(self) -> Table:
        """Every pack is for a table this schema seats, and every rank of it counts in the
        point (the message names the rule at fault first, as a check across rules does)."""
        for count in self.packs:
            if not MIN_PLAYERS <= count <= MAX_PLAYERS:
                raise ValueError(
                    f"table.packs: a pack for {count} players; a table seats "
                    f"{MIN_PLAYERS} to {MAX_PLAYERS}"
                )
        held = {rank for ranks in self.packs.values() for rank in ranks}
        missing = [
            rank for rank in get_args(Rank) if rank in held and rank not in self.point_values
        ]
        if missing:
            raise ValueError(f"table.point_values: gives no value for {' '.join(missing)}")
        return self


class Stakes(_Group):
    """The cave (a player's stake) and buying a new one."""

    cave: int = Field(ge=1, title="Cave (each player's stake)")
    """Counters each player buys at the start: the cave, the most a player can lose in
    one deal (table stakes)."""

    cave_can_be_topped_up: bool = Field(title="A cave may be topped up")
    """Whether a player may add counters to a cave that is not yet empty. Where not, a new
    stake is bought only once the cave is empty (décavé): "rebuy only when broke" is the
    same rule seen from the other side, so it is not a second parameter."""

    rebuy_amount: Annotated[int, Field(ge=1)] | Literal["players-option"] = Field(
        title="Size of a new cave",
        json_schema_extra=value_labels({"players-option": "as the player chooses"}),
    )
    """The size of a new stake: a fixed number (1 or more), or ``players-option``."""

    skip_dealer_who_rebought: bool = Field(title="A rebuyer is passed over as dealer")
    """Whether a player who has just bought a new stake after losing everything in the
    previous deal is passed over when it is his turn to deal. The deal then goes to the next
    player, and passes over him too if he has also just bought a new stake.

    Sources: Foster: "should the player whose turn it is to deal have lost everything on the
    previous deal, and have just purchased another stake, the deal passes to the player
    beyond him"; the player beyond him is then the one whose turn it is to deal, and the
    sentence applies to him in turn."""


class ForcedBets(_Group):
    """What is staked before the cards are seen: the blind or ante, and the straddles."""

    dealer_blind: int = Field(ge=0, title="Dealer's blind")
    """The dealer's blind (or ante) put up before the deal; it counts as part of his stake."""

    others_ante: int = Field(ge=0, title="Other players' ante")
    """The ante each other player puts up before the deal (0 where only the dealer stakes)."""

    straddles: bool = Field(title="Straddles (carre bets)")
    """Whether the player on the dealer's right, and then each next player, may straddle
    (make a *carre* bet) before the deal.

    Sources: to straddle is Foster's word, a *carre* bet pagat.com's."""

    straddle_amount: Literal["double-the-last", "the-whole-pot"] = Field(
        title="What a straddle adds",
        json_schema_extra=value_labels(
            {
                "double-the-last": "doubles the last stake",
                "the-whole-pot": "as much as the pot holds",
            }
        ),
    )
    """What a straddle adds: ``double-the-last`` brings the straddler's stake to twice the
    last blind or straddle; ``the-whole-pot`` adds as much as the pot holds, doubling it."""

    straddle_limit: Literal["to-the-dealer", "before-the-dealer"] = Field(
        title="How far straddles go",
        json_schema_extra=value_labels(
            {
                "to-the-dealer": "round to the dealer",
                "before-the-dealer": "stopping before the dealer",
            }
        ),
    )
    """How far round straddles may go: ``to-the-dealer`` lets them go once round until the
    dealer buys the age back himself, and then they stop."""

    straddling_ends_at_first_refusal: bool = Field(title="The first refusal ends the straddling")
    """Whether the first player who declines (or cannot afford) a straddle ends the
    straddling for this deal."""

    straddle_must_be_seen: bool = Field(title="A straddle must be seen before the deal")
    """Whether every other player must see a straddle before the deal, putting up as much
    as the highest stake, or drop out and lose what he has staked. Otherwise the straddle
    is a blind bet that the others answer only in the betting after the deal.

    Sources: seen before the deal in Britannica 1911: "those not 'seeing the raise' being
    obliged to drop out"; a blind bet answered after the deal in Foster and on pagat.com."""


class Misdeals(_Group):
    """An exposed card during the deal."""

    exposed_card_is_misdeal: bool = Field(title="An exposed card makes a misdeal")
    """Whether a card exposed during the deal makes it a misdeal (the deal is finished,
    the exposed card given in its order, then abandoned)."""

    triplet_payment: int = Field(ge=0, title="Payment for triplets after a misdeal")
    """After a misdeal, what a player who shows triplets receives from each other player."""

    inferior_triplet_pays: bool = Field(title="The inferior triplet pays the higher")
    """Whether, when more than one triplet is shown after a misdeal, the inferior pays the
    higher."""

    higher_triplet: Literal["pays-the-inferior-nothing", "pays-the-inferior"] = Field(
        title="What the higher triplet pays the inferior",
        json_schema_extra=value_labels(
            {"pays-the-inferior-nothing": "nothing", "pays-the-inferior": "his counter"}
        ),
    )
    """Between two triplets shown after a misdeal, where the inferior does not pay the
    higher. ``pays-the-inferior-nothing``: as between two simple brelans, neither pays the
    other. ``pays-the-inferior``: only the inferior is excused, so the higher still pays
    the inferior his counter like everyone else.

    Sources: Foster: "If more than one triplet is shown, the inferior does not pay the
    higher"; the two values are its two readings."""

    stakes_on_a_misdeal: Literal["returned", "stay-in-the-pool"] = Field(
        title="Stakes on a misdeal",
        json_schema_extra=value_labels(
            {"returned": "given back", "stay-in-the-pool": "left in the pool"}
        ),
    )
    """The blind and straddles already put up when a misdeal abandons the hands.
    ``returned``: each takes his stake back and the redeal starts afresh.
    ``stay-in-the-pool``: the stakes are not given back; they stay in the pool, which is
    carried to the redeal.

    Sources: for ``stay-in-the-pool``, Foster says only that "the hands are then
    abandoned" and "the cards are redealt", not that the stakes come back."""

    dealer_keeps_deal: bool = Field(title="The dealer deals again after a misdeal")
    """Whether the same dealer deals again after a misdeal."""


class Session(_Group):
    """An evening's play."""

    deals: int | None = Field(default=None, ge=1, title="Deals in a session")
    """How many deals make a session (none: play until the players stop)."""

    carried_pot_at_end: Literal["split-equally", "unclaimed"] = Field(
        title="A pool carried at the end",
        json_schema_extra=value_labels(
            {"split-equally": "shared equally", "unclaimed": "left unclaimed"}
        ),
    )
    """A pool still carried after the last deal: shared equally (exact fractions) or left
    unclaimed."""


describe_fields(__name__)
