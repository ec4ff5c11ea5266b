"""The profile schema's groups of rules about the betting and void deals (:mod:`profile`
gathers every group into :class:`Rules`). Each field is one rule, its docstring what the
rule means (``rules/descriptions.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .docstrings import describe_fields
from .profile_base import _Group, value_labels


class Betting(_Group):
    """Passing, opening, raising and how the betting closes."""

    pass_before_opening: Literal["keeps-cards", "folds"] = Field(
        title="Passing before anyone opens",
        json_schema_extra=value_labels(
            {"keeps-cards": "keeps the cards", "folds": "gives up the hand"}
        ),
    )
    """What ``pass`` means before anyone has opened: ``keeps-cards`` bets nothing and keeps
    the right to come in later; ``folds`` gives up the hand."""

    opening_minimum: Literal[
        "equal-the-blind",
        "equal-the-largest",
        "match-the-largest-plus-one",
        "as-much-as-the-pot",
        "exactly-the-pot",
    ] = Field(
        title="The least opening bet",
        json_schema_extra=value_labels(
            {
                "equal-the-blind": "equal the blind in fresh counters",
                "equal-the-largest": "equal the largest stake",
                "match-the-largest-plus-one": "the largest stake and one more",
                "as-much-as-the-pot": "at least as much as the pot",
                "exactly-the-pot": "exactly as much as the pot",
            }
        ),
    )
    """The least an opening bet may be (or, for ``exactly-the-pot``, what it must be).
    ``equal-the-blind``: the opener's stake reaches the largest stake on the table and he
    puts up at least the blind's amount in fresh counters. ``equal-the-largest``: his stake
    reaches the largest one, so the blind (or the last straddler), whose stake already is
    the largest, may open without adding a counter. ``match-the-largest-plus-one``: his
    stake reaches the largest one and he adds at least 1. ``exactly-the-pot``: whoever
    opens adds exactly as much as the pot holds, no more and no less; a larger stake comes
    only with a raise (``raises``), once another player has held him.
    ``as-much-as-the-pot``: the opener adds at least as much as the pot holds and may add
    more (an older value, kept so that a profile written with it plays as before).

    Sources: ``exactly-the-pot`` is Pierer's: "Wenn ein Spieler gesagt hat: Ich spiele! so
    muß er so viel Geld zusetzen, als im Stamm steht" (whoever says "I play!" must add as
    much money as stands in the pot); "wenn z.B. 4 Franken Einsatz ist: Ich spiele! wo er
    Gleiches setzt" (he stakes the same). No bundled system opens with
    ``as-much-as-the-pot``: it is the value the profile of Pierer's Brelan took before
    ``exactly-the-pot``.

    Foster's "Equal the amount of the ante; increase it as much as he pleases" has two
    readings for the player whose blind or straddle already stands in the pool: he must
    equal the ante again with fresh counters (``equal-the-blind``), or his stake already
    equals it and he opens as it stands (``equal-the-largest``)."""

    opening_short_of_the_pot: Literal["cannot-open", "all-he-has"] = Field(
        title="Opening with less than the pot",
        json_schema_extra=value_labels(
            {
                "cannot-open": "a player who holds less than the pot cannot open",
                "all-he-has": "he may open for all he has",
            }
        ),
    )
    """What a player may do whose whole cave (with his stake) holds less than an opening
    at the pot asks (``opening_minimum`` ``as-much-as-the-pot`` or ``exactly-the-pot``;
    under any other opening the rule is not consulted). ``cannot-open``: he cannot open;
    where nobody can, the deal is void and the pool is carried on, growing with each void
    deal, so that a pool larger than every cave can never be played for: the table stalls
    (a simulation cuts such a chain and reports it apart). ``all-he-has``: he may open
    for all he has, more than the largest stake on the table (the others meet that bet
    as any other); the pool, carried counters included, goes to the winner.

    Sources: Pierer: "Wenn ein Spieler gesagt hat: Ich spiele! so muß er so viel Geld
    zusetzen, als im Stamm steht" (whoever says "I play!" must add as much money as
    stands in the pot) says nothing of the player who has less; neither he nor Foster,
    whose void deal Pierer's profile borrows, says what a table does when nobody can
    open. The two values are the sentence's two readings: "muß" as a condition of
    opening (``cannot-open``), or as what opening costs, paid as far as the cave goes,
    as Foster's player "may call for a sight for the amount in front of him"
    (``all-he-has``). The teaching card's "A player short of chips may call all-in with
    the remainder, but cannot open or raise" is ``cannot-open``."""

    minimum_raise: int = Field(ge=1, title="The least raise")
    """The least by which a raise must exceed the bet it raises."""

    raises: Literal[
        "by-any-amount",
        "multiples-of-the-bet",
        "multiples-of-the-first-stake",
        "adds-multiples-of-the-first-stake",
        "adds-multiples-of-the-bet",
    ] = Field(
        title="How a raise is sized",
        json_schema_extra=value_labels(
            {
                "by-any-amount": "by any amount",
                "multiples-of-the-bet": "to a multiple of the bet",
                "multiples-of-the-first-stake": "to a multiple of the first stake",
                "adds-multiples-of-the-first-stake": "adding a multiple of the first stake",
                "adds-multiples-of-the-bet": "adding a multiple of the bet",
            }
        ),
    )
    """How a raise is sized. ``by-any-amount``: any total from the bet plus
    ``minimum_raise`` up. The other four size it by the first stake (what the opener added
    to open the game) or by the bet it raises, naming either the new total ("make it 8")
    or what is added ("add 8"); the examples take a first stake of 4:

    - ``multiples-of-the-bet``: the new total is a whole multiple, two or more times, of
      the bet it raises (make it 8, then 16, 24, ... after a raise to 8);
    - ``multiples-of-the-first-stake``: the new total is a whole multiple, two or more
      times, of the first stake, above the bet (make it 8, then 12, 16, ... after 8);
    - ``adds-multiples-of-the-first-stake``: the raise adds to the bet two or more times
      the first stake (add 8 to 4: 12, then 20, 24, ... after 12);
    - ``adds-multiples-of-the-bet``: the raise adds to the bet two or more times that bet
      (add 8 to 4: 12, then 36, 48, ... after 12).

    In every case each raise must also exceed the bet by ``minimum_raise``; a raise with a
    player's whole cave (where he may go all in) need not be one of the allowed totals,
    only at least the least.

    Sources: the four are the readings of Pierer's "so kann er den Einsatz verdoppeln,
    vervierfachen, verzehnfachen etc., indem er sagt: Ich setze 8, 16, 40 etc. Frcs. zu"
    (he may double, quadruple, multiply the stake tenfold, saying: I add 8, 16, 40 francs),
    said when the stake is 4. Its numbers are multiples of the first stake (the 4 the
    opener put up with "Ich spiele!"), and *zusetzen* may name the new stake ("make it 8")
    or what is added ("add 8")."""

    all_in_may_open_or_raise: bool = Field(title="A player all in may open or raise")
    """Whether a player may open or raise with the last counters of his cave. Where not,
    going all in is only a short call (a "sight")."""

    return_uncalled_excess: bool = Field(title="The uncalled part of a bet goes back")
    """Whether the part of a bet that no one has met goes back to its owner."""

    closing: Literal["calling-privilege", "no-more-round", "single-round"] = Field(
        title="How the betting closes",
        json_schema_extra=value_labels(
            {
                "calling-privilege": "by the calling privilege",
                "no-more-round": "by a round of “no more”",
                "single-round": "once all have met the bet",
            }
        ),
    )
    """How the betting ends with three or more still in. ``calling-privilege``: when all
    have met the bet, one player in turn (the opener first, then each next player to the
    right round by round) may raise or pass the word to his right; the player who
    receives the word raises or declines, and a decline is the call. ``no-more-round``:
    after all have called, everyone but the last raiser may raise or say "no more"; a
    raise starts the round again. ``single-round``: the betting ends as soon as all have
    met the bet.

    Sources: ``calling-privilege`` is Foster's, ``no-more-round`` the teaching card's."""

    two_players_call_ends: bool = Field(title="With two left, meeting the bet is a call")
    """Whether, with only two players left in, meeting the bet is a call that ends the
    betting at once."""

    two_players_betting: Literal["two-still-in", "two-who-can-still-bet"] = Field(
        title="Who counts as the last two",
        json_schema_extra=value_labels(
            {
                "two-still-in": "every player still in",
                "two-who-can-still-bet": "the players who can still bet",
            }
        ),
    )
    """Who counts among the two players who bet against each other, either of whom may
    call the other. ``two-still-in``: every player still in the pool counts, a player all
    in for a sight too, so with three still in, one of them all in, the closing round
    (privilege or "no more") is still played. ``two-who-can-still-bet``: a player all in
    can bet no more, so when only two can still bet, meeting the bet is the call and the
    betting ends.

    Sources: the "two players [who] bet against each other" are Foster's: "If only two
    players bet against each other, either may call the other"."""

    privilege_after_the_word: Literal["from-the-raiser", "from-the-holder"] = Field(
        title="The privilege after a raise on the word",
        json_schema_extra=value_labels(
            {
                "from-the-raiser": "passes on from the raiser",
                "from-the-holder": "passes on from its holder",
            }
        ),
    )
    """The calling privilege when the player who receives the word raises, and the
    betting goes on until every player has refused: on the next round the privilege
    passes to the player on the right of the one who raised (``from-the-raiser``: the
    raiser took the privilege over), or it passes on from the player who held it, to his
    right, which is the raiser himself (``from-the-holder``: the privilege keeps its own
    turn round the table, from right to left). Matters only with the calling privilege.

    Sources: Foster's calling privilege: "if he raises, it goes on until every player has
    refused"; the privilege goes "from right to left"."""


class VoidDeals(_Group):
    """What happens when nobody opens."""

    nobody_opens: Literal["pot-carried", "last-straddler-takes"] = Field(
        title="When nobody opens",
        json_schema_extra=value_labels(
            {
                "pot-carried": "the pool is carried to the next deal",
                "last-straddler-takes": "the last straddler takes the pool",
            }
        ),
    )
    """With no straddle: ``pot-carried`` voids the deal and the stakes stay in the pool for
    the next deal."""

    nobody_opens_after_straddles: Literal["pot-carried", "last-straddler-takes"] = Field(
        title="When nobody opens after straddles",
        json_schema_extra=value_labels(
            {
                "pot-carried": "the pool is carried to the next deal",
                "last-straddler-takes": "the last straddler takes the pool",
            }
        ),
    )
    """After one or more straddles: the pool is carried, or the last straddler takes it
    (if he has thrown his cards in, it is carried)."""

    void_levy: int = Field(ge=0, title="Levy on a void deal")
    """Counters each player adds to the carried pool when a deal is void."""

    levy_and_next_blind: Literal["levy-and-blind", "levy-instead-of-blind"] = Field(
        title="The levy and the next blind",
        json_schema_extra=value_labels(
            {
                "levy-and-blind": "the levy, and the blind as well",
                "levy-instead-of-blind": "the levy instead of the blind",
            }
        ),
    )
    """How the levy added to the pool of a void deal (``void_levy``) stands to the next
    deal's stakes. ``levy-and-blind``: the levy joins the carried pool and the next dealer
    still puts up his blind (the others their antes) on top of it.
    ``levy-instead-of-blind``: the levy is the next deal's stake: a deal that receives a
    carried pool has no blind or ante; straddles and the opening are reckoned as if the
    blind stood at its usual amount.

    Sources: Foster: "If no one will open, the deal is void, and each player puts five
    counters in the pool for the next deal" (the two values are its two readings)."""

    carried_pool_stake: Annotated[int, Field(ge=0)] | Literal["blind-and-antes"] = Field(
        title="The stake on a carried pool",
        json_schema_extra=value_labels({"blind-and-antes": "the usual blind and antes"}),
    )
    """What is staked before a deal that receives a pool carried from a void deal.
    ``blind-and-antes``: the usual blind and antes (``levy_and_next_blind`` says how a levy
    stands to them). A number (0 or more): the dealer alone adds that many counters to the
    carried pool, and nobody antes; the opening is reckoned from the dealer's stake.

    Sources: the teaching card: "All-pass without carre carries the pot and next dealer adds
    1"; pagat.com, of the deal after an all-pass: "les jetons du pot restent et le donneur
    ajoute un autre jeton" (the chips stay in the pot and the dealer adds another chip),
    said also of the version in which every player antes. Foster names only the levy of a
    void deal, so the next deal's blind stands as usual."""


describe_fields(__name__)
