"""The variant profile schema: every rule on which the historical systems differ.

A profile is a bundle of rules in groups (``table``, ``stakes``, ``forced_bets``,
``betting``, ``void_deals``, ``hands``, ``point``, ``bonuses``, ``misdeals``,
``session``), each a model of its own module: ``profile_table.py`` (the table, stakes,
forced bets, misdeals, the session), ``profile_betting.py`` (the betting, void deals) and
``profile_hands.py`` (hands, the point, bonuses); :class:`Rules` here gathers them, with
the checks of a whole system and what reads a rule by its path (``group.field``). Each
field of a group is one rule; its docstring says what the rule means in
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
from typing import cast

from pydantic import BaseModel, model_validator
from pydantic.fields import FieldInfo

from .cards import RANKS, parse_card
from .descriptions import split_description
from .docstrings import describe_fields
from .profile_base import VALUE_LABELS, _Group
from .profile_betting import Betting, VoidDeals
from .profile_hands import Bonuses, BonusRule, Hands, Point
from .profile_table import ForcedBets, Misdeals, Session, Stakes, Table

__all__ = [
    "GROUPS",
    "Betting",
    "BonusRule",
    "Bonuses",
    "ForcedBets",
    "Hands",
    "Misdeals",
    "Point",
    "Rules",
    "Session",
    "Stakes",
    "Table",
    "VoidDeals",
    "check_system",
    "rule_doc",
    "rule_paths",
    "rule_title",
    "value_label",
]
"""The schema: :class:`Rules` and each of its groups (importable from here, where the
profile format is defined), and what reads a rule by its path."""


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
            raise ValueError(  # at the rule stated last, players (where a file states it)
                f"table.players: table.packs has no pack for {table.players} players "
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
