"""One way to play a deal written in a file: a scenario, or one deal of a session.

Reads the cards and the actions at their places in the file, sets the deal up under a
variant and replays the actions. Every fault the user caused (a card or an action written
wrong, cards that cannot be dealt, a card the rules need and the file does not give, more
or fewer actions than the deal takes) comes back as bad input at the file, line and field
where it stands. An action the rules refuse is returned, not raised: a scenario shows it as
its result, a session refuses the file.

How the faults of the deal are worded (a scenario names the variant, a session the deal's
number) is the caller's :class:`Wording`; everything else is shared.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from ..play.actions import Action, ActionSyntaxError, parse_action
from ..play.deal import Deal, IllegalAction, new_deal
from ..play.dealing import SetupError
from ..play.showdown import MissingCardError
from ..rules.cards import Card, CardError, parse_card
from ..rules.errors import InputError, UserError
from ..rules.variant import Variant
from ..rules.yamlsource import LocatedFile, PathKey


@dataclass(frozen=True)
class DealPlace:
    """Where a deal stands in a file: the file, and the path of the deal within it (``()``
    for a scenario, ``("deals", 3)`` for the fourth deal of a session)."""

    file: LocatedFile
    base: PathKey = ()

    def fail(self, message: str, key: PathKey, value: Any = None) -> InputError:
        """Bad input at ``key`` within the deal."""
        return self.file.fail(message, (*self.base, *key), value)

    def fault(
        self, error: UserError, key: PathKey = (), value: Any = None, *, message: str = ""
    ) -> InputError:
        """An error the user caused, as bad input at its place: ``key`` within the deal, then
        the error's own path (the card of a hand that cannot be dealt). ``message`` words it
        (by default, the error's own message)."""
        return self.fail(message or error.message, (*key, *error.path), value)

    def card(self, text: str, key: PathKey) -> Card:
        try:
            return _read_card(str(text))
        except CardError as exc:
            raise self.fault(exc, key, text) from None

    def cards(self, texts: Sequence[str], key: PathKey) -> list[Card]:
        return [self.card(text, (*key, i)) for i, text in enumerate(texts)]


@lru_cache(maxsize=1024)
def _read_card(text: str) -> Card:
    """:func:`parse_card`, once per text: a scenario's cards are read again under every
    variant it is played under (``bouillotte check`` reads 3,781 cards written 31 ways)."""
    return parse_card(text)


@lru_cache(maxsize=1024)
def _read_action(text: str) -> Action:
    """:func:`parse_action`, once per text, as the cards (an action is a tuple)."""
    return parse_action(text)


class Wording(Protocol):
    """How a kind of file words the faults of a deal it plays."""

    def over(self, deal: Deal, played: int, left: int) -> str:
        """The deal ended after ``played`` actions, and ``left`` more are written."""
        ...

    def unfinished(self, deal: Deal, legal: str) -> str:
        """The actions end before the deal does; ``legal`` lists what may be done now."""
        ...

    def missing(self, error: MissingCardError) -> str:
        """The rules need a card the file does not give."""
        ...


@dataclass(frozen=True)
class WrittenCards:
    """The cards a file gives for a deal, as written: the hands with the retourne (and the
    card under it), or a whole pack from the top (``deck``), or neither (a shuffle seed);
    a card exposed during the deal; the stock to buy from."""

    hands: Mapping[str, Sequence[str]] | None = None
    retourne: str | None = None
    under_retourne: str | None = None
    exposed: str | None = None
    deck: Sequence[str] | None = None
    stock: Sequence[str] | None = None


def set_up(
    place: DealPlace,
    variant: Variant,
    written: WrittenCards,
    *,
    players: Sequence[str],
    dealer: str,
    caves: Mapping[str, int] | None,
    seed: int | None = None,
    carried_in: int = 0,
    stifled: Collection[str] = (),
    favori_rank: int | None = None,
) -> Deal:
    """Read the cards at their places and set the deal up under ``variant`` (the cards
    checked against its pack, the caves against its stakes)."""
    hands = retourne = under = None
    if written.hands is not None:
        hands = {name: place.cards(cards, ("hands", name)) for name, cards in written.hands.items()}
        retourne = place.card(written.retourne or "", ("retourne",))
        if written.under_retourne:
            under = place.card(written.under_retourne, ("under_retourne",))
    exposed = place.card(written.exposed, ("exposed",)) if written.exposed else None
    deck = place.cards(written.deck, ("deck",)) if written.deck is not None else None
    stock = place.cards(written.stock, ("stock",)) if written.stock is not None else None
    try:
        return new_deal(
            variant,
            players,
            dealer,
            caves,
            hands=hands,
            retourne=retourne,
            under_retourne=under,
            deck=deck,
            seed=seed,
            carried_in=carried_in,
            exposed=exposed,
            stifled=stifled,
            favori_rank=favori_rank,
            stock=stock,
        )
    except SetupError as exc:
        raise place.fault(exc, message=f"{exc.message} (variant {variant.id})") from None


@dataclass(frozen=True)
class Written:
    """An action as the file writes it, read, with its place within the deal."""

    action: Action
    text: str
    key: PathKey


def read_actions(
    place: DealPlace, texts: Sequence[str], key: PathKey, players: Sequence[str] | None = None
) -> list[Written]:
    """Read every action of the list at ``key``. Given ``players``, an action by anyone
    else is bad input here; otherwise the deal refuses it by its rules when it comes."""
    actions = []
    for i, text in enumerate(texts):
        try:
            action = _read_action(str(text))
        except ActionSyntaxError as exc:
            raise place.fault(exc, (*key, i), text) from None
        if players is not None and action.player not in players:
            raise place.fail(
                f"{action.player!r} is not one of the players ({', '.join(players)})",
                (*key, i),
                text,
            )
        actions.append(Written(action, text, (*key, i)))
    return actions


@dataclass(frozen=True)
class Step:
    """One action as it was played, for transcripts."""

    number: int
    player: str
    legal: list[str]
    action: str
    pot: int
    event: int = -1
    """The place in the deal's events of the first event this action made (-1: none, as
    for the refused action)."""
    made: int = 0
    """How many events it made (a first action may decline the straddle and bring the
    deal before the action itself; a last call, the showdown after it)."""


@dataclass(frozen=True)
class Replayed:
    steps: list[Step]
    """Every action played, the refused one last."""
    refused: IllegalAction | None = None
    """The action the rules refused, which ended the replay."""


def replay(
    place: DealPlace,
    deal: Deal,
    actions: Sequence[Written],
    key: PathKey,
    wording: Wording,
) -> Replayed:
    """Play ``actions`` (the list at ``key``) in ``deal`` until the rules refuse one; bad
    input if the deal ends before they do, or they end before the deal."""
    steps: list[Step] = []
    for number, written in enumerate(actions, start=1):
        if deal.is_over:
            message = wording.over(deal, number - 1, len(actions) - number + 1)
            raise place.fail(message, written.key, written.text)
        legal = [str(a) for a in deal.legal_actions()]
        to_act = deal.to_act or ""
        before = len(deal.events)
        try:
            deal.apply(written.action)
        except IllegalAction as exc:
            steps.append(Step(number, to_act, legal, str(written.action), deal.pot_total()))
            return Replayed(steps, exc)
        except MissingCardError as exc:
            raise place.fault(exc, message=wording.missing(exc)) from None
        made = len(deal.events) - before
        first = before if made else -1
        steps.append(
            Step(number, to_act, legal, str(written.action), deal.pot_total(), first, made)
        )
    if not deal.is_over:
        legal_now = ", ".join(str(a) for a in deal.legal_actions())
        raise place.fail(wording.unfinished(deal, legal_now), key)
    return Replayed(steps)
