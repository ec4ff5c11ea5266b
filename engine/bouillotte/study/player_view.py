"""What a simulated player may see when it is his turn (:class:`View`, made by
:func:`view_of`), and what a betting policy is (:class:`Policy`): one that chooses one
legal action from that view, never seeing the other hands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..play.actions import Action, LegalAction
from ..play.deal import Deal, Phase
from ..play.events import Act, Event
from ..play.stream import Stream
from ..rules.cards import Card
from ..rules.profile import Rules


class View:
    """What one player may see when it is his turn (one is made every step).

    Everything in it is read from what the deal keeps up to date as it goes, so making a
    view costs the same at the first step as at the fiftieth. A plain class with slots
    rather than a named tuple: compiled (``hatch_build.py``), its fields are read directly."""

    __slots__ = (
        "bet",
        "cave",
        "hand",
        "legal",
        "opened",
        "others",
        "phase",
        "player",
        "pot",
        "public",
        "raised",
        "retourne",
        "rules",
        "seen",
        "spoke",
        "stake",
    )

    player: str
    hand: tuple[Card, ...]
    retourne: Card
    rules: Rules
    legal: tuple[LegalAction, ...]
    phase: Phase
    """``straddle``, ``seeing`` (a straddle to be seen before the deal), ``betting``,
    ``privilege`` (Foster's word) or ``no-more``."""
    opened: bool
    bet: int
    """The largest stake on the table."""
    stake: int
    """This player's own stake so far."""
    cave: int
    """What is left in this player's cave."""
    pot: int
    others: int
    """How many other players have come in voluntarily (bet, called or raised) and are
    still in."""
    raised: int
    """How often this player has bet or raised (or gone all in) in this deal."""
    spoke: bool
    """Whether anybody has spoken in the betting yet (forced bets do not count)."""
    public: Sequence[Event]
    """The deal's public log (read through :attr:`history`)."""
    seen: int
    """How much of ``public`` had happened when the view was made."""

    def __init__(
        self,
        player: str,
        hand: tuple[Card, ...],
        retourne: Card,
        rules: Rules,
        legal: tuple[LegalAction, ...],
        phase: Phase,
        opened: bool,
        bet: int,
        stake: int,
        cave: int,
        pot: int,
        others: int,
        raised: int,
        spoke: bool,
        public: Sequence[Event],
        seen: int,
    ) -> None:
        self.player = player
        self.hand = hand
        self.retourne = retourne
        self.rules = rules
        self.legal = legal
        self.phase = phase
        self.opened = opened
        self.bet = bet
        self.stake = stake
        self.cave = cave
        self.pot = pot
        self.others = others
        self.raised = raised
        self.spoke = spoke
        self.public = public
        self.seen = seen

    @property
    def history(self) -> tuple[Event, ...]:
        """The public events so far: forced bets, straddles and every betting word."""
        return tuple(self.public[: self.seen])

    def others_in(self) -> int:
        """How many other players have come in voluntarily (bet, called or raised)."""
        return self.others

    def folded(self) -> set[str]:
        return {e.player for e in self.history if isinstance(e, Act) and e.action == "fold"}

    def my_raises(self) -> int:
        return self.raised

    def anybody_spoke(self) -> bool:
        """Whether anybody has spoken in the betting yet (forced bets do not count)."""
        return self.spoke

    def find(self, kind: str) -> LegalAction | None:
        for legal in self.legal:
            if legal.kind == kind:
                return legal
        return None


def view_of(deal: Deal) -> View:
    """The view of the player whose turn it is."""
    seat = deal.to_act_seat
    if seat is None:
        raise ValueError("nobody is to act: the deal is over")
    others = deal.in_by_choice
    if deal.came_in[seat]:  # the player to act has not folded
        others -= 1
    return View(
        deal.names[seat],
        tuple(deal.hands[seat]),
        deal.retourne,
        deal.rules,
        deal.offered(),
        deal.phase,
        deal.opened,
        deal.bet,
        deal.contrib[seat],
        deal.cave[seat],
        deal.pot_total(),
        others,
        deal.raises[seat],
        deal.spoken > 0,
        deal.public,
        len(deal.public),
    )


class Policy(Protocol):
    name: str

    def choose(self, view: View, rng: Stream) -> Action: ...
