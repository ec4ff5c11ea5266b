"""The variant profile schema: every rule on which the historical systems differ.

A profile is a bundle of rules in groups (``table``, ``stakes``, ``forced_bets``,
``betting``, ``void_deals``, ``hands``, ``point``, ``bonuses``, ``misdeals``,
``session``). Each field below is one rule; its docstring says what the rule means in
words a historian of games can check against the sources: first what the rule and each
value mean, naming no source or system, then, from a paragraph that begins with
``Sources:``, where the values come from (``rules/descriptions.py``). In a YAML profile
each rule may be written bare (``cave: 100``) or with its citation::

    cave:
      value: 100
      source: foster
      locator: "Stakes"
      quote: "Each player purchases an equal number of counters from the banker, usually 100."
      status: documented

The engine reads only these values: it never asks which system it is playing.

Each rule also has its name in plain English, the ``title`` of its field, and each value of
a rule that is a word of code (``player-on-dealers-left``) its words,
``json_schema_extra=value_labels({...})`` beside the field: what the site shows readers
(:func:`rule_title`, :func:`value_label`), the code itself kept for editors.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator
from pydantic.fields import FieldInfo

from .cards import RANKS, parse_card
from .descriptions import split_description
from .docstrings import describe_fields

VALUE_LABELS = "value_labels"
"""The key of a field's ``json_schema_extra`` that holds the words of its values."""


def value_labels(labels: dict[str, str]) -> dict[str, JsonValue]:
    """A rule's values in words, for its field's ``json_schema_extra``: every value the
    field's ``Literal`` allows, each with the few words a reader sees instead of it
    (``tests/test_profiles.py`` checks that none is missing and none is extra)."""
    return {VALUE_LABELS: dict(labels)}


Rank = Literal["A", "K", "Q", "J", "10", "9", "8", "7"]


class _Group(BaseModel):
    # Each field's docstring is its description (describe_fields at the end of the module),
    # so no model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Table(_Group):
    """Players, the pack and the deal."""

    players: int = Field(ge=2, le=6, title="Players")
    """How many players this system seats (a profile is for one table size)."""

    packs: dict[int, list[Rank]] = Field(title="Cards in the pack")
    """The ranks kept in the pack for each number of players, highest first; every rank is
    kept in all four suits. The order is also the order of the brelans (three aces best)."""

    point_values: dict[Rank, int] = Field(title="Point values")
    """What each rank counts when the point (the pips of a suit) is reckoned."""

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


class Stakes(_Group):
    """The cave (a player's stake) and buying a new one."""

    cave: int = Field(ge=1, title="Cave (each player's stake)")
    """Counters each player buys at the start: the cave, the most a player can lose in
    one deal (table stakes)."""

    cave_can_be_topped_up: bool = Field(title="A cave may be topped up")
    """Whether a player may add counters to a cave that is not yet empty. Where not, a new
    stake is bought only once the cave is empty (décavé): "rebuy only when broke" is the
    same rule seen from the other side, so it is not a second parameter."""

    rebuy_amount: int | Literal["players-option"] = Field(
        title="Size of a new cave",
        json_schema_extra=value_labels({"players-option": "as the player chooses"}),
    )
    """The size of a new stake: a fixed number, or ``players-option``."""

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

    carried_pool_stake: int | Literal["blind-and-antes"] = Field(
        title="The stake on a carried pool",
        json_schema_extra=value_labels({"blind-and-antes": "the usual blind and antes"}),
    )
    """What is staked before a deal that receives a pool carried from a void deal.
    ``blind-and-antes``: the usual blind and antes (``levy_and_next_blind`` says how a levy
    stands to them). A number: the dealer alone adds that many counters to the carried
    pool, and nobody antes; the opening is reckoned from the dealer's stake.

    Sources: the teaching card: "All-pass without carre carries the pot and next dealer adds
    1"; pagat.com, of the deal after an all-pass: "les jetons du pot restent et le donneur
    ajoute un autre jeton" (the chips stay in the pot and the dealer adds another chip),
    said also of the version in which every player antes. Foster names only the levy of a
    void deal, so the next deal's blind stands as usual."""


class Hands(_Group):
    """Which hands are recognised and how they rank."""

    brelans_recognised: bool = Field(title="Brelans count")
    """Whether brelans count at all (some high-stakes tables played the point alone)."""

    carre: bool = Field(title="Brelan carré")
    """Whether three of a kind in hand with the fourth turned up as the retourne is a brelan
    carré, the best hand."""

    card_under_retourne: bool = Field(title="Turning the card under the retourne")
    """Whether, against a brelan carré, a player holding a higher brelan may turn the
    card under the retourne; if it completes his four, he holds a higher carré.

    Sources: Foster's rule."""

    favori: Literal["none", "below-simple", "by-rank", "above-simple"] = Field(
        title="Rank of the brelan favori",
        json_schema_extra=value_labels(
            {
                "none": "not recognised",
                "below-simple": "below every simple brelan",
                "by-rank": "by its rank among the brelans",
                "above-simple": "above every simple brelan",
            }
        ),
    )
    """Where the brelan favori ranks: ``none``, not recognised; ``below-simple``, it loses
    to every simple brelan; ``by-rank``, it ranks with the simple brelans by its rank;
    ``above-simple``, it beats every simple brelan. What a favori *is* depends on
    ``favori_meaning``."""

    favori_meaning: Literal["pair-with-the-retourne", "declared-rank", "held-from-the-deal"] = (
        Field(
            title="What a favori is",
            json_schema_extra=value_labels(
                {
                    "pair-with-the-retourne": "a pair in hand with the retourne",
                    "declared-rank": "a brelan of the rank declared",
                    "held-from-the-deal": "a brelan held from the deal",
                }
            ),
        )
    )
    """What the word *favori* means; it changed meaning three times.
    ``pair-with-the-retourne``: two cards of a rank in hand with the retourne of that rank.
    ``declared-rank``: a brelan of the rank declared at the start of play for the deal (a
    scenario declares it for its deal); with no rank declared there is no favori.
    ``held-from-the-deal``: three equal cards dealt (the "born" brelan), as against a
    brelan completed by the draw.

    Sources: ``pair-with-the-retourne`` is Foster's (1897). ``declared-rank``: Académie
    1740, Trévoux 1771: "le Brelan qu'on a déclaré au commencement du jeu qui se payeroit
    double", the brelan declared at the start of play, to be paid double.
    ``held-from-the-deal``: Pierer 1857–65: "ein B. gleich von Haus aus, B. favori
    (gebornes B.)", a brelan straight from the deal, the 'born' brelan."""

    carre_made_with: Literal["the-retourne", "a-bought-fourth"] = Field(
        title="How a carré is made",
        json_schema_extra=value_labels(
            {
                "the-retourne": "three in hand and the retourne",
                "a-bought-fourth": "three in hand and a bought fourth",
            }
        ),
    )
    """How the brelan carré (four of a kind) is made, where ``carre`` recognises it.
    ``the-retourne``: three in hand and the fourth turned up. ``a-bought-fourth``: four of
    a kind in hand after the draw, three equal cards with the fourth bought.

    Sources: ``the-retourne`` is the Académie's *brelan quatrième*, Foster's carré.
    ``a-bought-fourth`` is Pierer's: "Zu 3 gleichen Karten (z.B. 3 Zehnen), die 4.
    zugekauft, heißt; B carré", three equal cards with the fourth bought."""

    mignon: bool = Field(title="Brelan mignon")
    """Whether the *brelan mignon* is recognised and named: two aces and a king in hand,
    the ace turned up of the king's suit. It has no rank or payment of its own: where
    recognised it counts as the brelan of aces it contains with the retourne, in the
    favori's place and payment where the favori (pair with the retourne) is recognised,
    else as a simple brelan of aces.

    Sources: Littré's *brelan mignon*: "quand, un joueur ayant deux as et un roi dans la
    main, l'as de retourne est de la couleur de son roi" (two aces and a king in hand, the
    ace turned up of the king's suit). Littré gives it no rank and no payment: where it
    ranks and what it is paid is an inference."""

    mistigri: bool = Field(title="Brelan de Mistigri")
    """Whether the mistigri (the named card) with a pair in hand makes a brelan de Mistigri,
    ranking below every ordinary brelan and above the point."""

    mistigri_card: str = Field(title="The Mistigri card")
    """The wild card of the brelan de Mistigri, traditionally the queen of clubs (QC)."""


class Point(_Group):
    """Deciding the pool when no brelan is shown."""

    counted_cards: Literal[
        "all-exposed", "own-hand-and-retourne", "own-hand", "whole-hand", "own-hand-with-capture"
    ] = Field(
        title="Cards counted for the point",
        json_schema_extra=value_labels(
            {
                "all-exposed": "every hand, folded ones too",
                "own-hand-and-retourne": "own hand and the retourne",
                "own-hand": "own hand alone",
                "whole-hand": "the whole hand, every suit",
                "own-hand-with-capture": "own hand, capturing lower cards",
            }
        ),
    )
    """``all-exposed``: every hand is shown, folded ones too, and each suit's pips are
    counted over all of them and the retourne. ``own-hand-and-retourne``: each player
    counts his own best suit, with the retourne if it is of that suit. ``own-hand``: each
    player counts his own best suit alone. ``whole-hand``: each player counts the pips of
    his whole hand, whatever their suits; no suit wins, so a side pool is decided on its
    own, and equal hands go by the tie rule's order of seats. ``own-hand-with-capture``:
    the cards in a player's hand carry off every lower card of their suit in play: each
    player counts his best suit, his own cards of it and every lower card of that suit in
    the hands of the other players still in, except cards that make up a brelan.

    Sources: ``whole-hand`` is the literal reading of Britannica's "the hand holding the
    greatest number of pips". ``own-hand-with-capture``: Encyclopédie 1752: "les cartes qui
    se trouvent dans la main des joüeurs, emportent toutes les cartes inférieures de la
    même couleur qui se trouvent aussi sur le jeu", the cards in the players' hands carry
    off every lower card of the same suit in play."""

    suit_owner: Literal[
        "best-card-among-contenders", "best-card-of-all-hands", "best-card-else-own-pips"
    ] = Field(
        title="Who owns a suit",
        json_schema_extra=value_labels(
            {
                "best-card-among-contenders": "best card among those still in",
                "best-card-of-all-hands": "best card of all the hands",
                "best-card-else-own-pips": "best card, else the richest other suit",
            }
        ),
    )
    """Who owns a suit. ``best-card-among-contenders``: the player still in who holds its
    best card (a folded hand's cards count for him). ``best-card-of-all-hands``: the holder
    of its best card, so a suit whose best card lies in a folded hand cannot win (where
    every suit's best card lies in a folded hand, which no source considers, each suit goes
    to the best card among the players still in, as under ``best-card-among-contenders``,
    and the explanation says so).
    ``best-card-else-own-pips``: the holder of the richest suit's best card wins if still
    in; if he has dropped, the player still in who counts the greatest face value of cards
    in any other suit.

    Sources: ``best-card-else-own-pips`` is an older English Wikipedia's: "the player
    counting the greatest face value of cards in any other suit" among those still in."""

    suit_tie: Literal["dealer-first", "eldest-first", "retourne-suit"] = Field(
        title="Suits of equal points",
        json_schema_extra=value_labels(
            {
                "dealer-first": "the dealer first",
                "eldest-first": "the eldest first, the dealer last",
                "retourne-suit": "the retourne's suit",
            }
        ),
    )
    """Between suits of equal pips: ``dealer-first``, the dealer, or else the owner nearest
    his right; ``eldest-first``, the owner nearest the dealer's right, the dealer last;
    ``retourne-suit``, the retourne's suit, and otherwise eldest first.

    Sources: Foster's "In case of ties, the dealer, or the player nearest him on the right
    wins" read literally puts the dealer first (``dealer-first``); but Foster calls the
    player on the dealer's right "the elder hand" when he wins the tie of his example, and
    the teaching card and the Encyclopédie put the dealer last (``eldest-first``)."""

    folded_hands_in_side_pools: Literal["shown-and-counted", "not-shown"] = Field(
        title="Folded hands in a side pool",
        json_schema_extra=value_labels(
            {"shown-and-counted": "shown and counted", "not-shown": "not shown"}
        ),
    )
    """When a brelan took the main pool and a side pool among players without a brelan goes
    to the point: whether the hands of those who passed out are shown for it, as all hands
    are when no brelan is shown. ``shown-and-counted``: the side pool is a pool in which no
    brelan is shown, so the hands of those who passed out are shown and their cards
    counted in the suits (and owned by the best card among the side pool's players).
    ``not-shown``: a brelan was shown, so the hands of those who passed out stay hidden,
    and the side pool's point counts only the hands shown and the retourne.

    Sources: the rule read for a side pool is Foster's: "If no brelan is shown, the hands
    of all the players are shown, including those who passed out"."""

    side_pots_by_winning_suit: bool = Field(title="Side pools follow the winning suit")
    """"The suit that wins cannot lose": a side pool goes to the best holder of the main
    pool's winning suit among its contenders; only if none holds it is it decided on its
    own. Otherwise every pool is decided on its own."""


class BonusRule(_Group):
    """What one kind of brelan collects from the other players."""

    amount: int = Field(ge=0, title="From each payer")
    """Counters from each payer."""

    amount_if_wins_pool: int = Field(ge=0, title="If it also wins the pool")
    """Counters from each payer when this hand also wins the pool."""

    paid_by: Literal["every-other-player", "players-without-a-brelan"] = Field(
        title="Who pays",
        json_schema_extra=value_labels(
            {
                "every-other-player": "every other player",
                "players-without-a-brelan": "the players without a brelan",
            }
        ),
    )
    """Who pays: everybody else, or only those who show no brelan of any kind."""


class Bonuses(_Group):
    """Payments for brelans, apart from the pool."""

    carre: BonusRule = Field(title="Payment for a brelan carré")
    """The brelan carré's payment."""

    brelan: BonusRule = Field(title="Payment for a simple brelan")
    """The simple brelan's payment."""

    favori: BonusRule = Field(title="Payment for a brelan favori")
    """The brelan favori's payment (ignored where the favori is not recognised)."""

    mistigri: BonusRule = Field(title="Payment for a brelan de Mistigri")
    """The brelan de Mistigri's payment (ignored where it is not recognised)."""

    beaten_carre: Literal["still-paid", "not-paid"] = Field(
        title="A beaten carré",
        json_schema_extra=value_labels({"still-paid": "still paid", "not-paid": "not paid"}),
    )
    """A brelan carré beaten by a higher one (``card_under_retourne``), whose holder is
    owed a carré's payment for it. ``still-paid``: every carré shown is paid, as the simple
    brelan is paid whether or not it wins. ``not-paid``: the carré's counters come in
    addition to winning the pool, so a carré that loses the pool collects nothing (it
    still pays the higher carré).

    Sources: Foster: "In addition to winning the pool, the holder of a brelan carré
    receives from each player four white counters." ``still-paid`` pays it as his simple
    brelan is paid ("both must be paid"); ``not-paid`` reads "in addition to winning the
    pool". The higher carré is Foster's card under the retourne."""

    folded_players_pay: bool = Field(title="Players who passed out pay the bonuses")
    """Whether players who passed out of the pool pay the bonuses too."""

    claimed_without_showdown: bool = Field(title="A bonus claimed without a showdown")
    """Whether a player who wins uncontested may show a brelan and collect its payment, or
    "stifle" it, keeping it hidden (a deal's ``stifled`` players do); otherwise payments
    are due only at a showdown."""

    paid_from: Literal["cave", "ledger"] = Field(
        title="Bonuses paid from",
        json_schema_extra=value_labels({"cave": "the caves", "ledger": "a separate ledger"}),
    )
    """``cave``: payments move counters between caves (a payer gives what he has left);
    ``ledger``: they are written on a separate signed ledger, the caves untouched."""


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


class Rules(_Group):
    """Every rule of a system, by group."""

    table: Table
    stakes: Stakes
    forced_bets: ForcedBets
    betting: Betting
    void_deals: VoidDeals
    hands: Hands
    point: Point
    bonuses: Bonuses
    misdeals: Misdeals
    session: Session

    @model_validator(mode="after")
    def _pack_can_deal(self) -> Rules:
        table = self.table
        if table.players not in table.packs:
            raise ValueError(
                f"table.packs has no pack for {table.players} players "
                f"(it has packs for {sorted(table.packs)})"
            )
        for count, ranks in table.packs.items():
            if len(set(ranks)) != len(ranks):
                raise ValueError(f"table.packs: the pack for {count} players repeats a rank")
            if [r for r in RANKS if r in ranks] != list(ranks):
                raise ValueError(
                    f"table.packs: the pack for {count} players must list its ranks "
                    f"highest first, as in {' '.join(RANKS)}"
                )
            needed = count * table.hand_size + 1 + int(self.hands.card_under_retourne)
            if len(ranks) * 4 < needed:
                raise ValueError(
                    f"table.packs: {len(ranks) * 4} cards cannot deal {table.hand_size} to "
                    f"each of {count} players plus the retourne"
                    + (" and the card under it" if self.hands.card_under_retourne else "")
                    + f" ({needed} cards)"
                )
            missing = [r for r in ranks if r not in table.point_values]
            if missing:
                raise ValueError(f"table.point_values gives no value for {' '.join(missing)}")
        try:
            mistigri = parse_card(self.hands.mistigri_card)
        except ValueError as exc:
            raise ValueError(f"hands.mistigri_card: {exc}") from None
        if self.hands.mistigri and RANKS[mistigri >> 2] not in table.pack_ranks():
            raise ValueError(
                f"hands.mistigri_card {self.hands.mistigri_card} is not in the "
                f"{table.players}-player pack"
            )
        return self

    @model_validator(mode="after")
    def _stakes_within_the_cave(self) -> Rules:
        cave = self.stakes.cave
        for name, what in (("dealer_blind", "the dealer's blind"), ("others_ante", "the ante")):
            amount = getattr(self.forced_bets, name)
            if amount > cave:
                raise ValueError(
                    f"forced_bets.{name}: {what}, {amount}, is larger than the cave "
                    f"(stakes.cave: {cave}); no player could put it up"
                )
        return self


def check_system(rules: Rules) -> None:
    """The checks of a whole system (each ``model_validator`` of :class:`Rules`, in order),
    on rules built without validation: rule attribution runs them on a copy that records
    which rules they read. ValueError if the system is not valid."""
    for check in (Rules._pack_can_deal, Rules._stakes_within_the_cave):
        cast(Callable[[Rules], Rules], check)(rules)


describe_fields(__name__)

GROUPS: dict[str, type[_Group]] = {
    name: info.annotation  # type: ignore[misc]
    for name, info in Rules.model_fields.items()
}
"""Each group name with its model, in the order the sources group the rules."""


def rule_paths() -> list[str]:
    """Every rule as ``group.field``, in schema order."""
    return [f"{group}.{field}" for group, model in GROUPS.items() for field in model.model_fields]


def rule_doc(path: str, sources: bool = True) -> str:
    """A rule's description (its field's docstring), or with ``sources=False`` what the
    rule and its values mean alone, without the ``Sources:`` paragraphs that say where the
    values come from (``rules/descriptions.py``)."""
    group, field = path.split(".")
    return split_description(GROUPS[group].model_fields[field].description or "").text(sources)


def rule_title(path: str) -> str:
    """A rule's name in plain English (its field's ``title``), e.g. "Who cuts"; ``path``
    may name a field of a group's part (``bonuses.carre.paid_by``, as a sweep varies it):
    the part's title, then the field's ("Carré: who pays")."""
    group, *fields = path.split(".")
    model: type[BaseModel] = GROUPS[group]
    words: list[str] = []
    for name in fields:
        info = model.model_fields.get(name)
        if info is None:
            return path
        words.append(info.title or name.replace("_", " "))
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            model = info.annotation
    return ": ".join(words) if words else path


@cache
def value_label(path: str, value: str) -> str:
    """The words of one of a rule's values (``the player on the dealer's left`` for
    ``table.cut_by`` = ``player-on-dealers-left``); ``path`` may name a field of a group's
    part (``bonuses.carre.paid_by``). A value without words is itself."""
    group, *fields = path.split(".")
    model: type[BaseModel] = GROUPS[group]
    info: FieldInfo | None = None
    for name in fields:
        info = model.model_fields.get(name)
        if info is None:
            return value
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            model = info.annotation
    extra = info.json_schema_extra if info is not None else None
    labels = extra.get(VALUE_LABELS) if isinstance(extra, dict) else None
    found = labels.get(value) if isinstance(labels, dict) else None
    return found if isinstance(found, str) else value
