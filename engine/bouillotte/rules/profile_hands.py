"""The profile schema's groups of rules about the hands, the point and the bonuses
(:mod:`profile` gathers every group into :class:`Rules`). Each field is one rule, its
docstring what the rule means (``rules/descriptions.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .docstrings import describe_fields
from .profile_base import _Group, value_labels


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
    """Whether players who passed out of the pool pay the bonuses too.

    A player who passed out is never paid a bonus, in any system: his hand may be shown
    (when the contenders go to the point every hand is shown), but a brelan, carré or
    favori is paid to a contender only.

    Sources: Foster's favori is paid "whether he wins the pool or not", which is read as
    speaking of a holder still in the pool; the teaching card's "including folded
    players" is read as naming who pays, as this rule does. Neither text names a folded
    holder as paid."""

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


describe_fields(__name__)
