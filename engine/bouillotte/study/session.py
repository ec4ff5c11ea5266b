"""Sessions: an evening of deals under one rule system.

The deal passes to the right (or left) from deal to deal; where the profile says so
(``stakes.skip_dealer_who_rebought``, Foster) a player who has just bought a new stake is
passed over when it is his turn to deal. A void deal's pool is carried into the next deal.
A cave that reaches zero is replaced by a new stake before the next deal; a player may buy
more counters while his cave is not empty only where ``stakes.cave_can_be_topped_up``; every
purchase is recorded. Where the profile fixes the
number of deals (``session.deals``, the teaching card's twelve), a session file must list
that many; a pool still carried after the last deal is shared equally in exact fractions or
left unclaimed (``session.carried_pot_at_end``). A player's final result is his cave plus
his bonus ledger and his share of the last pool, minus his first stake and his rebuys.

A session file (YAML) names the players, the first dealer and the deals; each deal is given
either by its cards and actions (as in a scenario) or by a shuffle seed and the betting
policies that play it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..play.actions import ActionSyntaxError, parse_action
from ..play.deal import Deal, IllegalAction, new_deal
from ..play.dealing import SetupError
from ..play.events import Redeal
from ..play.outcome import Outcome
from ..play.showdown import MissingCardError
from ..rules.cards import Card, CardError, card_str, cards_str, parse_card
from ..rules.errors import InputError
from ..rules.variant import Variant
from ..rules.yamlsource import LocatedFile, PathKey, read_mapping, validated
from .policies import Policy, get_policy, play


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class DealSpec(_Strict):
    """One deal of a session: explicit cards and actions, or a seed and policies."""

    hands: dict[str, list[str]] | None = None
    retourne: str | None = None
    under_retourne: str | None = None
    """The next card of the stock (Foster's carré rule)."""
    exposed: str | None = None
    """A card exposed during the deal (a misdeal where the profile says so)."""
    stifled: list[str] = []
    """Players who, winning without a showdown, keep a brelan hidden (Foster's "stifle")."""
    actions: list[str] = []
    seed: int | None = None
    """Shuffle seed; the deal is then played by policies."""
    count: int = Field(default=1, ge=1)
    """With ``seed``: this many deals, seeded ``seed``, ``seed + 1``, ..."""
    policy: str | None = None
    """With ``seed``: the policy every player follows (default: the session's)."""
    policies: dict[str, str] = {}
    """With ``seed``: a policy per player, overriding ``policy``."""
    dealer: str | None = None
    """Optional check: who must deal this deal (the rotation decides it)."""
    buy: dict[str, Annotated[int, Field(ge=1)]] = {}
    """Counters players buy just before this deal (before the first of a seeded block): a
    new stake when the cave is empty, or a top-up where ``stakes.cave_can_be_topped_up``."""
    note: str = ""

    @model_validator(mode="after")
    def _one_source(self) -> DealSpec:
        if (self.hands is None) == (self.seed is None):
            raise ValueError("give either hands (with retourne and actions) or a seed")
        if self.hands is not None and self.retourne is None:
            raise ValueError("hands need a 'retourne'")
        if self.seed is None and (self.count != 1 or self.policy or self.policies):
            raise ValueError("'count', 'policy' and 'policies' go with a 'seed'")
        if self.seed is not None and self.actions:
            raise ValueError("a seeded deal is played by policies: give no 'actions'")
        return self


class SessionModel(_Strict):
    id: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=100)
    title: str = ""
    notes: str = ""
    variant: str | None = None
    """The variant to play under when the command line names none."""
    players: list[str] = Field(min_length=2)
    dealer: str
    """Who deals the first deal."""
    caves: dict[str, int] | None = None
    """Each player's first stake; by default the variant's cave."""
    rebuy: int | None = Field(default=None, ge=1)
    """The new stake a broke player buys where the profile leaves it to his option
    (``stakes.rebuy_amount: players-option``); by default his first stake."""
    policy: str = "simple"
    """The policy of seeded deals that name none."""
    deals: list[DealSpec] = Field(min_length=1)

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        for name in players:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
                raise ValueError(f"player name {name!r} must be a word (letters, digits, _)")
        if len(set(players)) != len(players):
            raise ValueError("a player is named twice")
        return players


@dataclass(frozen=True)
class SessionFile(LocatedFile):
    model: SessionModel


def load_session(file: Path) -> SessionFile:
    doc = read_mapping(file, "a session: players, dealer, deals, ...")
    session = SessionFile(doc, validated(SessionModel, doc))
    _check_names(session)
    return session


def _check_names(session: SessionFile) -> None:
    m = session.model
    session.check_player(m.dealer, m.players, ("dealer",))
    for name in m.caves or {}:
        session.check_player(name, m.players, ("caves", name))
    for i, spec in enumerate(m.deals):
        for key in ("hands", "policies", "buy"):
            for name in getattr(spec, key) or {}:
                session.check_player(name, m.players, ("deals", i, key, name))
        for k, name in enumerate(spec.stifled):
            session.check_player(name, m.players, ("deals", i, "stifled", k))
        if spec.dealer is not None:
            session.check_player(spec.dealer, m.players, ("deals", i, "dealer"))
        named = [spec.policy, *spec.policies.values()]
        for policy_name in (n for n in named if n is not None):
            try:
                get_policy(policy_name)
            except InputError as exc:
                raise session.fail(exc.message, ("deals", i), policy_name) from None
    try:
        get_policy(m.policy)
    except InputError as exc:
        raise session.fail(exc.message, ("policy",), m.policy) from None


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rebuy:
    player: str
    amount: int
    before_deal: int


@dataclass(frozen=True)
class DealRecord:
    number: int
    dealer: str
    carried_in: int
    rebuys: list[Rebuy]
    """Stakes bought just before this deal."""
    outcome: Outcome
    hands: dict[str, str]
    retourne: str
    actions: list[str]
    skipped_dealer: str | None = None
    """Who was passed over as dealer, having just bought a new stake."""

    def summary(self) -> str:
        if self.outcome.status == "void":
            return f"void, {self.outcome.carry} carried"
        return "; ".join(f"{p.amount} to {p.winner}" for p in self.outcome.pots)


@dataclass(frozen=True)
class Standing:
    player: str
    place: int
    cave: int
    ledger: int
    share: Fraction
    stake: int
    rebuys: int
    result: Fraction


@dataclass(frozen=True)
class SessionResult:
    variant: str
    players: list[str]
    deals: list[DealRecord]
    standings: list[Standing]
    """In seating order (``place`` gives the ranking)."""
    carried_at_end: int
    carried_pot_at_end: str
    notes: list[str] = field(default_factory=list)

    def ranking(self) -> list[Standing]:
        return sorted(self.standings, key=lambda s: (s.place, self.players.index(s.player)))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "deals": [
                {
                    "deal": d.number,
                    "dealer": d.dealer,
                    "skipped_dealer": d.skipped_dealer,
                    "carried_in": d.carried_in,
                    "rebuys": [{"player": r.player, "amount": r.amount} for r in d.rebuys],
                    "hands": d.hands,
                    "retourne": d.retourne,
                    "actions": d.actions,
                    "status": str(d.outcome.status),
                    "pots": [p.to_json() for p in d.outcome.pots],
                    "bonuses": [b.to_json() for b in d.outcome.bonuses],
                    "carry": d.outcome.carry,
                    "players": {
                        n: {"cave": r.cave, "ledger": r.ledger, "net": r.net}
                        for n, r in d.outcome.players.items()
                    },
                }
                for d in self.deals
            ],
            "carried_at_end": self.carried_at_end,
            "carried_pot_at_end": self.carried_pot_at_end,
            "standings": [
                {
                    "player": s.player,
                    "place": s.place,
                    "cave": s.cave,
                    "ledger": s.ledger,
                    "share": fraction_text(s.share),
                    "stake": s.stake,
                    "rebuys": s.rebuys,
                    "result": fraction_text(s.result),
                }
                for s in self.ranking()
            ],
            "notes": self.notes,
        }


def fraction_text(value: Fraction) -> str:
    """An exact amount as a mixed number: ``12``, ``12 1/4``, ``-3/4``, ``-12 1/4``."""
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value.numerator), value.denominator)
    if part == 0:
        return f"{sign}{whole}"
    frac = f"{part}/{value.denominator}"
    return f"{sign}{whole} {frac}" if whole else f"{sign}{frac}"


def places(results: Sequence[Fraction]) -> list[int]:
    """Competition ranking: equal results share a place (1, 1, 3, ...)."""
    return [1 + sum(other > mine for other in results) for mine in results]


# -- playing a session ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Planned:
    spec: DealSpec
    index: int
    """The index of the spec in the file (for error lines)."""
    seed: int | None


def _plan(model: SessionModel) -> list[_Planned]:
    planned: list[_Planned] = []
    for i, spec in enumerate(model.deals):
        if spec.seed is None:
            planned.append(_Planned(spec, i, None))
        else:
            planned.extend(_Planned(spec, i, spec.seed + k) for k in range(spec.count))
    return planned


class _Table:
    """Caves, ledgers, stakes bought and the turn to deal, between deals."""

    def __init__(self, session: SessionFile, variant: Variant) -> None:
        m = session.model
        self.variant = variant
        self.players = list(m.players)
        default = variant.rules.stakes.cave
        self.stake = {p: (m.caves or {}).get(p, default) for p in self.players}
        self.cave = dict(self.stake)
        self.ledger = dict.fromkeys(self.players, 0)
        self.bought = dict.fromkeys(self.players, 0)
        self.rebuy_option = m.rebuy
        self.dealer = m.dealer
        self.carry = 0

    def rebuy_amount(self, player: str) -> int:
        amount = self.variant.rules.stakes.rebuy_amount
        if amount == "players-option":
            return self.rebuy_option if self.rebuy_option is not None else self.stake[player]
        return amount

    def rebuy_broke(self, number: int) -> list[Rebuy]:
        """A cave at zero is replaced before the next deal (and only a cave at zero)."""
        bought = []
        for player in self.players:
            if self.cave[player] == 0:
                amount = self.rebuy_amount(player)
                self.cave[player] += amount
                self.bought[player] += amount
                bought.append(Rebuy(player, amount, number))
        return bought

    def buy(self, session: SessionFile, plan: _Planned, number: int) -> list[Rebuy]:
        """The counters the file says players buy before this deal, where the rules allow."""
        spec = plan.spec
        if spec.seed is not None and plan.seed != spec.seed:
            return []  # a seeded block buys before its first deal only
        bought = []
        stakes = self.variant.rules.stakes
        for player, amount in spec.buy.items():
            path = ("deals", plan.index, "buy", player)
            if self.cave[player] > 0 and not stakes.cave_can_be_topped_up:
                raise session.fail(
                    f"{player} still has {self.cave[player]} counters, and under "
                    f"{self.variant.id} a cave cannot be added to before it is empty "
                    f"(stakes.cave_can_be_topped_up: "
                    f"{self.variant.cite('stakes.cave_can_be_topped_up')})",
                    path,
                    amount,
                )
            self.cave[player] += amount
            self.bought[player] += amount
            bought.append(Rebuy(player, amount, number))
        return bought

    def next_dealer(self, after: str, rebought: set[str]) -> tuple[str, str | None]:
        step = 1 if self.variant.rules.table.direction == "right" else -1
        n = len(self.players)
        seat = (self.players.index(after) + step) % n
        candidate = self.players[seat]
        if candidate in rebought and self.variant.rules.stakes.skip_dealer_who_rebought:
            # "the deal passes to the player beyond him" (Foster, Misdeals).
            return self.players[(seat + step) % n], candidate
        return candidate, None


def run_session(session: SessionFile, variant: Variant) -> SessionResult:
    """Play every deal of the session under ``variant`` and settle the final result."""
    m = session.model
    if len(m.players) != variant.players:
        raise session.fail(
            f"{len(m.players)} players, but {variant.id} is a game for {variant.players}",
            ("players",),
        )
    planned = _plan(m)
    fixed = variant.rules.session.deals
    if fixed is not None and len(planned) != fixed:
        raise session.fail(
            f"{variant.id} plays sessions of {fixed} deals (session.deals: "
            f"{variant.cite('session.deals')}); this file has {len(planned)}",
            ("deals",),
        )
    table = _Table(session, variant)
    records: list[DealRecord] = []
    dealer, skipped = m.dealer, None
    for number, plan in enumerate(planned, start=1):
        rebuys = table.rebuy_broke(number) if number > 1 else []
        if number > 1:
            previous = records[-1]
            if _dealer_keeps_deal(previous.outcome):
                dealer, skipped = previous.dealer, None
            else:
                dealer, skipped = table.next_dealer(previous.dealer, {r.player for r in rebuys})
        if plan.spec.dealer is not None and plan.spec.dealer != dealer:
            raise session.fail(
                f"by the rotation of the deal, {dealer} deals deal {number}",
                ("deals", plan.index, "dealer"),
                plan.spec.dealer,
            )
        bought = table.buy(session, plan, number)
        record = _play_one(session, table, plan, number, dealer, rebuys + bought, skipped)
        records.append(record)
        for player, result in record.outcome.players.items():
            table.cave[player] = result.cave
            table.ledger[player] += result.ledger
        table.carry = record.outcome.carry
    return _settle(m, variant, table, records)


def _dealer_keeps_deal(outcome: Outcome) -> bool:
    return any(isinstance(e, Redeal) and e.dealer for e in outcome.events)


def _card(session: SessionFile, text: str, path: PathKey) -> Card:
    try:
        return parse_card(str(text))
    except CardError as exc:
        raise session.fail(str(exc), path, text) from None


def _start(session: SessionFile, table: _Table, plan: _Planned, dealer: str) -> Deal:
    spec, base = plan.spec, ("deals", plan.index)
    exposed = _card(session, spec.exposed, (*base, "exposed")) if spec.exposed else None
    common: dict[str, Any] = {
        "caves": dict(table.cave),
        "carried_in": table.carry,
        "exposed": exposed,
        "stifled": spec.stifled,
    }
    try:
        if spec.hands is not None:
            hands = {
                name: [_card(session, c, (*base, "hands", name, k)) for k, c in enumerate(cards)]
                for name, cards in spec.hands.items()
            }
            under = (
                _card(session, spec.under_retourne, (*base, "under_retourne"))
                if spec.under_retourne
                else None
            )
            retourne = _card(session, spec.retourne or "", (*base, "retourne"))
            return new_deal(
                table.variant,
                table.players,
                dealer,
                hands=hands,
                retourne=retourne,
                under_retourne=under,
                **common,
            )
        return new_deal(table.variant, table.players, dealer, seed=plan.seed, **common)
    except SetupError as exc:
        raise session.fail(f"{exc} (variant {table.variant.id})", (*base, *exc.path)) from None


def _play_one(
    session: SessionFile,
    table: _Table,
    plan: _Planned,
    number: int,
    dealer: str,
    rebuys: list[Rebuy],
    skipped: str | None,
) -> DealRecord:
    spec, base = plan.spec, ("deals", plan.index)
    carried_in = table.carry
    deal = _start(session, table, plan, dealer)
    try:
        if plan.seed is None:
            taken = _replay(session, deal, spec.actions, (*base, "actions"), number)
        else:
            chosen = spec.policies
            fallback = spec.policy or session.model.policy
            policies: dict[str, Policy] = {
                p: get_policy(chosen.get(p, fallback)) for p in table.players
            }
            taken = [str(a) for a in play(deal, policies, random.Random(plan.seed))]
    except MissingCardError as exc:
        raise session.fail(f"deal {number}: {exc}", (*base, "under_retourne")) from None
    return DealRecord(
        number=number,
        dealer=dealer,
        carried_in=carried_in,
        rebuys=rebuys,
        outcome=deal.outcome,
        hands={n: cards_str(deal.hands[deal.seat_of[n]]) for n in table.players},
        retourne=card_str(deal.retourne),
        actions=taken,
        skipped_dealer=skipped,
    )


def _replay(
    session: SessionFile, deal: Deal, texts: Sequence[str], path: PathKey, number: int
) -> list[str]:
    for i, text in enumerate(texts):
        if deal.is_over:
            raise session.fail(
                f"deal {number} is over ({deal.outcome.status}) after {i} actions, but more "
                "are written",
                (*path, i),
                text,
            )
        try:
            deal.apply(parse_action(str(text)))
        except ActionSyntaxError as exc:
            raise session.fail(str(exc), (*path, i), text) from None
        except IllegalAction as exc:
            raise session.fail(f"deal {number}: {exc.describe()}", (*path, i), text) from None
    if not deal.is_over:
        legal = ", ".join(str(a) for a in deal.legal_actions())
        raise session.fail(
            f"deal {number}: the actions end before the deal does: it is {deal.to_act}'s "
            f"turn (dealer {deal.names[deal.dealer]}; legal: {legal})",
            path,
        )
    return [str(t) for t in texts]


def _settle(
    m: SessionModel, variant: Variant, table: _Table, records: list[DealRecord]
) -> SessionResult:
    rule = variant.rules.session.carried_pot_at_end
    n = len(table.players)
    share = Fraction(table.carry, n) if rule == "split-equally" else Fraction(0)
    results = [
        table.cave[p] + table.ledger[p] + share - table.stake[p] - table.bought[p]
        for p in table.players
    ]
    ranked = places(results)
    standings = [
        Standing(
            player=p,
            place=ranked[i],
            cave=table.cave[p],
            ledger=table.ledger[p],
            share=share,
            stake=table.stake[p],
            rebuys=table.bought[p],
            result=results[i],
        )
        for i, p in enumerate(table.players)
    ]
    notes = []
    if table.carry and rule == "unclaimed":
        notes.append(
            f"{table.carry} counters are still carried after the last deal and stay unclaimed "
            f"(session.carried_pot_at_end is unclaimed; "
            f"{variant.cite('session.carried_pot_at_end').strip()})"
        )
    elif table.carry:
        notes.append(
            f"the {table.carry} counters still carried are shared equally: "
            f"{fraction_text(share)} each"
        )
    return SessionResult(
        variant=variant.id,
        players=list(table.players),
        deals=records,
        standings=standings,
        carried_at_end=table.carry,
        carried_pot_at_end=rule,
        notes=notes,
    )


def session_text(result: SessionResult) -> str:
    """The deal-by-deal table and the final standings."""
    from .render import table as render_table

    players = result.players
    rows = []
    for d in result.deals:
        dealer = d.dealer + (f" (not {d.skipped_dealer})" if d.skipped_dealer else "")
        rows.append(
            [
                d.number,
                dealer,
                d.carried_in or "",
                d.outcome.status,
                d.summary(),
                *[f"{d.outcome.players[p].net:+d}" for p in players],
                ", ".join(f"{r.player} {r.amount}" for r in d.rebuys),
            ]
        )
    lines = [f"Session under {result.variant}: {len(result.deals)} deals", ""]
    lines.append(render_table(["deal", "dealer", "in", "status", "pots", *players, "rebuys"], rows))
    lines.append("")
    lines.append("Final standings (cave + ledger + share - stake - rebuys):")
    lines.append(
        render_table(
            ["place", "player", "cave", "ledger", "share", "stake", "rebuys", "result"],
            [
                [
                    s.place,
                    s.player,
                    s.cave,
                    s.ledger,
                    fraction_text(s.share),
                    s.stake,
                    s.rebuys,
                    fraction_text(s.result),
                ]
                for s in result.ranking()
            ],
        )
    )
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines)
