"""The checks of a scenario's own words that its model cannot make alone: the players
it names, the one source of its cards, each ``expect`` block's values (a player listed
twice, a bonus to oneself, a negative amount are mistakes in the file, exit 2 at their
line), and, once the deal is played, a ``stifled`` player who could not stifle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..play.actions import ActionSyntaxError, parse_action
from ..play.deal import Deal
from ..play.events import Dealt
from ..play.hands import classify, triplets
from ..play.outcome import Status as DealStatus
from ..rules.cards import cards_str
from ..rules.nearest import did_you_mean
from ..rules.profile import rule_paths
from ..rules.readings import rule_value
from ..rules.yamlmodels import pydantic_message
from ..rules.yamlsource import PathKey

if TYPE_CHECKING:
    from .scenario import Expect, ExpectBonus, ExpectPot, Scenario


def check_names(scenario: Scenario) -> None:
    """The players the file names sit at the table, its cards come from one source, and
    each ``expect`` and ``expect_readings`` block names what the scenario has
    (:func:`check_expect`)."""
    m = scenario.model
    scenario.check_player(m.dealer, m.players, ("dealer",))
    for i, name in enumerate(m.stifled):
        scenario.check_player(name, m.players, ("stifled", i))
    for key in ("caves", "hands"):
        for name in getattr(m, key) or {}:
            scenario.check_player(name, m.players, (key, name))
    given = [k for k in ("hands", "deck", "seed") if getattr(m, k) is not None]
    if len(given) != 1:
        # at the second source given (the one too many), else where the deal would go
        raise scenario.fail(
            "give exactly one of: hands (with retourne), deck, or seed"
            + (f"; this file gives {' and '.join(given)}" if given else ""),
            (given[1],) if len(given) > 1 else ("players",),
        )
    if m.hands is not None and m.retourne is None:
        raise scenario.fail("hands need a 'retourne'", ("hands",))
    for vid, expect in m.expect.items():
        if expect.status == "illegal" and expect.rule is None:
            raise scenario.fail("an illegal outcome must name its 'rule'", ("expect", vid))
        check_expect(scenario, expect, ("expect", vid), len(scenario.actions_for(vid)[0]))
    for vid, by_rule in m.expect_readings.items():
        for path, by_value in by_rule.items():
            where: PathKey = ("expect_readings", vid, path)
            if path not in rule_paths():
                raise scenario.fail(
                    f"unknown rule{did_you_mean(path, rule_paths())}; a rule is written "
                    "group.field",
                    where,
                    path,
                )
            for value, expect in by_value.items():
                try:
                    rule_value(path, value)
                except ValidationError as exc:
                    reason = pydantic_message(exc.errors()[0])
                    raise scenario.fail(
                        f"not a value of the rule {path} ({reason[:1].lower()}{reason[1:]})",
                        (*where, value),
                        value,
                    ) from None
                if expect.status == "illegal" and expect.rule is None:
                    raise scenario.fail("an illegal outcome must name its 'rule'", (*where, value))
                actions = expect.actions or scenario.actions_for(vid)[0]
                for i, action in enumerate(expect.actions or []):
                    # read as the scenario's own actions are, and whoever acts sits at the
                    # table, whatever command reads the file
                    at = (*where, value, "actions", i)
                    try:
                        actor = parse_action(action).player
                    except ActionSyntaxError as exc:
                        raise scenario.fail(exc.message, at, action) from None
                    _check_expected_player(scenario, actor, at)
                check_expect(scenario, expect, (*where, value), len(actions))


def check_expect(scenario: Scenario, expect: Expect, where: PathKey, actions: int) -> None:
    """Refuse what an ``expect`` block names that the scenario does not have: a player
    who does not sit at the table, a rule that does not exist, a step that is not one of
    the ``actions`` numbers of the variant it is for (counted from 1), a ``rule`` or a
    ``step`` with an outcome that is not illegal (they say which action was refused); and
    what no deal can give: a contender listed twice, a pool's winner who does not contend
    for it, a bonus to the payer himself or of a negative amount, a negative pool, cave or
    carry. A value a deal could give is checked by ``check`` (a mismatch, not bad input)."""
    if (expect.rule is not None or expect.step is not None) and expect.status != "illegal":
        key = "rule" if expect.rule is not None else "step"
        raise scenario.fail(
            f"'{key}' says which action the rules refuse: it goes with 'status: illegal'",
            (*where, key),
        )
    for key in ("net", "cave", "ledger"):
        for name in getattr(expect, key) or {}:
            _check_expected_player(scenario, name, (*where, key, name))
    for i, pot in enumerate(expect.pots or []):
        if pot.winner is not None:
            _check_expected_player(scenario, pot.winner, (*where, "pots", i, "winner"))
        for j, name in enumerate(pot.contenders or []):
            _check_expected_player(scenario, name, (*where, "pots", i, "contenders", j))
        _check_expected_pot(scenario, pot, (*where, "pots", i))
    for i, bonus in enumerate(expect.bonuses or []):
        _check_expected_player(scenario, bonus.from_, (*where, "bonuses", i, "from"))
        _check_expected_player(scenario, bonus.to, (*where, "bonuses", i, "to"))
        _check_expected_bonus(scenario, bonus, (*where, "bonuses", i))
    for name, cave in (expect.cave or {}).items():
        if cave < 0:
            raise scenario.fail(
                "a cave is never below 0 (a player pays what he has left)",
                (*where, "cave", name),
                cave,
            )
    if expect.carry is not None and expect.carry < 0:
        raise scenario.fail(
            "the pool carried to the next deal is 0 or more", (*where, "carry"), expect.carry
        )
    if expect.rule is not None and expect.rule not in rule_paths():
        raise scenario.fail(
            f"unknown rule{did_you_mean(expect.rule, rule_paths())}; a rule is written "
            "group.field (bouillotte variants show VARIANT lists them)",
            (*where, "rule"),
            expect.rule,
        )
    if expect.step is not None and not 1 <= expect.step <= actions:
        steps = f"1 to {actions}" if actions > 1 else "1" if actions else "none: no actions"
        raise scenario.fail(
            f"no such step: the steps are the actions, counted from 1 ({steps})",
            (*where, "step"),
            expect.step,
        )


def _check_expected_pot(scenario: Scenario, pot: ExpectPot, where: PathKey) -> None:
    """Refuse a pool no deal can give: a contender listed twice, a negative amount, a
    winner who does not contend for it."""
    contenders = pot.contenders or []
    for j, name in enumerate(contenders):
        if name in contenders[:j]:
            raise scenario.fail(
                f"{name!r} is listed twice (items {contenders.index(name)} and {j}): "
                "each contender of a pool is named once",
                (*where, "contenders", j),
                name,
            )
    if pot.amount is not None and pot.amount < 0:
        raise scenario.fail("a pool holds 0 counters or more", (*where, "amount"), pot.amount)
    if pot.winner is not None and pot.contenders is not None and pot.winner not in contenders:
        raise scenario.fail(
            f"the winner {pot.winner!r} is not one of the pool's contenders "
            f"({', '.join(contenders) or 'none'}): a pool goes to one who contends for it",
            (*where, "winner"),
            pot.winner,
        )


def _check_expected_bonus(scenario: Scenario, bonus: ExpectBonus, where: PathKey) -> None:
    """Refuse a payment no deal can make: to the payer himself, or of a negative amount."""
    if bonus.from_ == bonus.to:
        raise scenario.fail(
            f"{bonus.to!r} pays {bonus.to!r}: a bonus goes from one player to another",
            (*where, "to"),
            bonus.to,
        )
    if bonus.amount < 0:
        raise scenario.fail(
            "a bonus pays 0 counters or more (it goes from 'from' to 'to')",
            (*where, "amount"),
            bonus.amount,
        )


def _check_expected_player(scenario: Scenario, name: str, path: PathKey) -> None:
    players = scenario.model.players
    if name not in players:
        raise scenario.fail(
            f"{name!r} is not one of the players{did_you_mean(name, players)} "
            f"({', '.join(players)})",
            path,
            name,
        )


def check_stifled(scenario: Scenario, deal: Deal, variant_id: str) -> None:
    """Refuse a ``stifled`` player who, in the deal as played under the variant, cannot
    stifle a brelan: he must win without a showdown holding one (whether the rules would
    have paid it or not). That is known only once the deal is played."""
    outcome = deal.outcome
    winner = outcome.pots[0].winner if outcome.pots else None
    dealt = any(isinstance(event, Dealt) for event in deal.events)
    for i, name in enumerate(scenario.model.stifled):
        seat = deal.seat_of[name]
        folded = f", {name} having folded" if deal.folded[seat] else ""
        if outcome.status is DealStatus.SETTLED:
            why = f"the deal goes to a showdown{folded or f', where {name} shows his hand'}"
        elif outcome.status is not DealStatus.UNCONTESTED:
            why = f"the deal is {outcome.status}: nobody wins it"
        elif winner != name:
            why = f"{winner} wins the pool{folded}"
        elif not dealt:
            why = f"{name} wins it before the cards are dealt"
        elif not _holds_brelan(deal, seat):
            why = f"{name} holds no brelan ({cards_str(deal.hands[seat])})"
        else:
            continue
        raise scenario.fail(
            f"under {variant_id} {name} cannot stifle a brelan: {why}; a stifled player wins "
            "without a showdown holding a brelan, which the deal shows once it is played",
            ("stifled", i),
            name,
        )


def _holds_brelan(deal: Deal, seat: int) -> bool:
    """Three cards of a rank in hand, or what the rules count as a brelan."""
    hand = deal.hands[seat]
    value = classify(
        hand, deal.retourne, deal.rules.hands, declared=deal.favori_rank, dealt=deal.dealt[seat]
    )
    return value.is_brelan or triplets(hand) is not None
