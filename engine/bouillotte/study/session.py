"""Playing a session: the deals of a session file, one after another, under one rule system.

Each deal is set up and replayed as a scenario's is (:mod:`.replay`), or, given by a seed,
played by the betting policies; between deals the table (:mod:`.session_table`) carries
the caves, the ledgers, the stakes bought and the turn to deal. Where the profile fixes the
number of deals (``session.deals``, the teaching card's twelve), a session file must list
that many.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..play.deal import Deal
from ..play.showdown import MissingCardError
from ..rules.cards import card_str, cards_str
from ..rules.variant import Variant
from .autoplay import play
from .deal_streams import policy_stream
from .player_view import Policy
from .policies import get_policy
from .replay import DealPlace, WrittenCards, read_actions, replay, set_up
from .session_file import DealSpec, SessionFile
from .session_result import DealRecord, Rebuy, SessionResult
from .session_table import SessionTable, cited


@dataclass(frozen=True)
class _Planned:
    spec: DealSpec
    index: int
    """The index of the spec in the file (for error lines)."""
    seed: int | None

    @property
    def first(self) -> bool:
        """The first deal of its spec (a seeded spec may stand for several deals)."""
        return self.seed is None or self.seed == self.spec.seed


def _plan(session: SessionFile) -> list[_Planned]:
    planned: list[_Planned] = []
    for i, spec in enumerate(session.model.deals):
        if spec.seed is None:
            planned.append(_Planned(spec, i, None))
        else:
            planned.extend(_Planned(spec, i, spec.seed + k) for k in range(spec.count))
    return planned


def run_session(session: SessionFile, variant: Variant) -> SessionResult:
    """Play every deal of the session under ``variant`` and settle the final result."""
    m = session.model
    if len(m.players) != variant.players:
        raise session.fail(
            f"{len(m.players)} players, but {variant.id} is a game for {variant.players}",
            ("players",),
        )
    fixed = variant.rules.session.deals
    if fixed is not None and m.deal_count != fixed:  # said before a deal is planned or played
        raise session.fail(
            f"{variant.id} plays sessions of {fixed} deals (session.deals: "
            f"{cited(variant, 'session.deals')}); this file has {m.deal_count:,}",
            ("deals",),
        )
    planned = _plan(session)
    table = SessionTable(m, variant)
    records: list[DealRecord] = []
    dealer: str = m.dealer
    skipped: tuple[str, ...] = ()
    for number, plan in enumerate(planned, start=1):
        place = DealPlace(session, ("deals", plan.index))
        # A player who has lost everything and whose new stake the file writes ("the amount
        # of which is usually at his own option", Foster) buys that stake, not the default.
        chosen = plan.spec.buy if plan.first else {}
        broke = {p for p in table.players if table.cave[p] == 0} if number > 1 else set()
        rebuys = table.rebuy_broke(number, chosen) if number > 1 else []
        rebuys += table.buy(place, chosen, number)
        if number > 1:
            dealer, skipped = table.next_dealer(records[-1], broke)
        if plan.spec.dealer is not None and plan.spec.dealer != dealer:
            raise place.fail(
                f"by the rotation of the deal, {dealer} deals deal {number}",
                ("dealer",),
                plan.spec.dealer,
            )
        record = _play_one(session, table, plan, number, dealer, rebuys, skipped)
        records.append(record)
        table.record(record.outcome)
    return table.settle(records)


@dataclass(frozen=True)
class _DealNumber:
    """A session words the faults of a deal by its number."""

    number: int

    def over(self, deal: Deal, played: int, left: int) -> str:
        return (
            f"deal {self.number} is over ({deal.outcome.status}) after {played} actions, "
            "but more are written"
        )

    def unfinished(self, deal: Deal, legal: str) -> str:
        return (
            f"deal {self.number}: the actions end before the deal does: it is "
            f"{deal.to_act}'s turn (dealer {deal.names[deal.dealer]}; legal: {legal})"
        )

    def missing(self, error: MissingCardError) -> str:
        return f"deal {self.number}: {error.message}"


def _play_one(
    session: SessionFile,
    table: SessionTable,
    plan: _Planned,
    number: int,
    dealer: str,
    rebuys: list[Rebuy],
    skipped: tuple[str, ...],
) -> DealRecord:
    spec, wording = plan.spec, _DealNumber(number)
    place = DealPlace(session, ("deals", plan.index))
    carried_in = table.carry
    actions = read_actions(place, spec.actions, ("actions",))
    written = WrittenCards(
        hands=spec.hands,
        retourne=spec.retourne,
        under_retourne=spec.under_retourne,
        exposed=spec.exposed,
    )
    deal = set_up(
        place,
        table.variant,
        written,
        players=table.players,
        dealer=dealer,
        caves=dict(table.cave),
        seed=plan.seed,
        carried_in=carried_in,
        stifled=spec.stifled,
    )
    if plan.seed is None:
        played = replay(place, deal, actions, ("actions",), wording)
        if played.refused is not None:
            refused = actions[len(played.steps) - 1]
            message = f"deal {number}: {played.refused.describe()}"
            raise place.fault(played.refused, refused.key, refused.text, message=message)
        taken = [str(a.text) for a in actions]
        fallback, named = None, {}
    else:
        fallback = spec.policy or session.model.policy
        named = {p: spec.policies.get(p, fallback) for p in table.players}
        policies: dict[str, Policy] = {p: get_policy(named[p]) for p in table.players}
        try:
            taken = [str(a) for a in play(deal, policies, policy_stream(plan.seed))]
        except MissingCardError as exc:
            raise place.fault(exc, message=wording.missing(exc)) from None
    return DealRecord(
        number=number,
        dealer=dealer,
        carried_in=carried_in,
        rebuys=rebuys,
        outcome=deal.outcome,
        hands={n: cards_str(deal.hands[deal.seat_of[n]]) for n in table.players},
        retourne=card_str(deal.retourne),
        actions=taken,
        skipped_dealers=skipped,
        seed=plan.seed,
        policy=fallback,
        policies=named,
    )
