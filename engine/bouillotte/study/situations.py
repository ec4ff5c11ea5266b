"""What one simulated deal is counted as: the class that decided its main pool
(:data:`CLASSES`, :func:`decided_by`) and the situations it reached that some rule governs
(:data:`SITUATIONS`, :data:`RULE_SITUATIONS`, :func:`situations_met`), read from the
deal's outcome and log."""

from __future__ import annotations

from typing import Final

from ..play.deal import Deal
from ..play.events import (
    Act,
    Bonus,
    CarriedIn,
    Dealt,
    Decline,
    DrawBegins,
    NobodyOpens,
    Privilege,
    Showdown,
    Straddle,
    WonByPoint,
    WonUncontested,
)
from ..play.hands import Kind

CLASSES: Final = ("carré", "brelan", "favori", "mistigri", "point", "uncontested", "void")
"""What decides a deal's main pool: a kind of brelan at the showdown, the point, no
showdown at all (one player left), or nobody opening."""


_KIND_CLASS: Final = {
    Kind.CARRE: "carré",
    Kind.BRELAN: "brelan",
    Kind.FAVORI: "favori",
    Kind.MISTIGRI: "mistigri",
    Kind.POINT: "point",
}


def decided_by(deal: Deal) -> tuple[str, bool | None]:
    """The class that decided the main pool, and (for the point won by a suit) whether the
    winning suit is the retourne's (``None`` where no suit won it: a whole hand's pips):
    read from the outcome, which records why each pool was won."""
    outcome = deal.outcome
    if outcome.status != "settled":
        return str(outcome.status), None
    main = outcome.pots[0]
    value = main.winner_value
    assert value is not None  # a showdown valued every hand shown
    decision = main.decision
    if value.kind is not Kind.POINT or not isinstance(decision, WonByPoint):
        return _KIND_CLASS[value.kind], None
    if decision.suit < 0:  # NO_SUIT: the whole hand's pips counted
        return "point", None
    return "point", decision.suit == deal.retourne & 3


SITUATIONS: Final[dict[str, str]] = {
    "straddle-offered": "a straddle was offered",
    "straddled": "somebody straddled",
    "straddle-refused": "a straddle was refused after another",
    "straddle-seen": "a straddle was seen or refused before the deal",
    "passed": "somebody passed before the opening",
    "raised": "somebody raised",
    "re-raised": "a raise was raised again",
    "all-in": "somebody went all in (a sight)",
    "closing": "the betting reached its closing round",
    "draw": "the players drew cards",
    "void": "nobody opened (a void deal)",
    "carried-in": "a carried pool was played for",
    "uncontested": "one player was left (no showdown)",
    "showdown": "hands were shown",
    "brelan-shown": "a brelan was shown",
    "point": "the point decided a pool",
    "side-pools": "a side pool was formed",
    "bonus": "a bonus was paid",
}
"""The situations a deal can reach, each governed by some rules (:data:`RULE_SITUATIONS`)."""


RULE_SITUATIONS: Final[dict[str, str]] = {
    "forced_bets.straddles": "straddle-offered",
    "forced_bets.straddle_amount": "straddled",
    "forced_bets.straddle_limit": "straddled",
    "forced_bets.straddling_ends_at_first_refusal": "straddle-refused",
    "forced_bets.straddle_must_be_seen": "straddled",
    "betting.pass_before_opening": "passed",
    "betting.minimum_raise": "raised",
    "betting.raises": "raised",
    "betting.all_in_may_open_or_raise": "all-in",
    "betting.return_uncalled_excess": "all-in",
    "betting.closing": "closing",
    "betting.two_players_call_ends": "closing",
    "betting.two_players_betting": "all-in",
    "betting.privilege_after_the_word": "closing",
    "table.draw": "draw",
    "void_deals.nobody_opens": "void",
    "void_deals.nobody_opens_after_straddles": "straddled",
    "void_deals.void_levy": "void",
    "void_deals.levy_and_next_blind": "carried-in",
    "void_deals.carried_pool_stake": "carried-in",
    "point.folded_hands_in_side_pools": "side-pools",
    "point.side_pots_by_winning_suit": "side-pools",
    "bonuses.folded_players_pay": "bonus",
    "bonuses.claimed_without_showdown": "brelan-shown",
    "bonuses.paid_from": "bonus",
}
"""For each rule that acts only in some situation, that situation: ``simulate`` reports in
how many deals each was met (a rule whose situation never arises cannot act)."""


def situations_met(deal: Deal) -> set[str]:
    """The situations (:data:`SITUATIONS`) deal ``deal`` reached, read from its log."""
    met: set[str] = set()
    dealt = False
    raises = 0
    straddled = False
    for event in deal.events:
        if isinstance(event, Dealt):
            dealt = True
        elif isinstance(event, Straddle):
            met.add("straddle-offered")
            met.add("straddled")
            straddled = True
        elif isinstance(event, Decline):
            met.add("straddle-offered")
            if straddled:
                met.add("straddle-refused")
        elif isinstance(event, Act):
            word = event.action
            if not dealt:
                met.add("straddle-seen")
            elif word == "pass":
                met.add("passed")
            elif word == "raise":
                raises += 1
                met.add("raised")
                if raises > 1:
                    met.add("re-raised")
            elif word == "no-more":
                met.add("closing")
            if event.all_in or event.sight or word == "all-in":
                met.add("all-in")
        elif isinstance(event, Privilege):
            met.add("closing")
        elif isinstance(event, DrawBegins):
            met.add("draw")
        elif isinstance(event, NobodyOpens):
            met.add("void")
        elif isinstance(event, CarriedIn):
            met.add("carried-in")
        elif isinstance(event, Showdown):
            met.add("showdown")
            if any(value.kind is not Kind.POINT for _, value in event.hands):
                met.add("brelan-shown")
        elif isinstance(event, Bonus):
            met.add("bonus")
    pots = deal.outcome.pots
    for pot in pots:
        decision = pot.decision
        if isinstance(decision, WonUncontested) and decision.why != "":
            met.add("uncontested")
        elif isinstance(decision, WonByPoint):
            met.add("point")
    if len(pots) > 1:
        met.add("side-pools")
    return met
