"""A validated rule system: its rules, and where each rule comes from."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .citations import STATED_STATUSES, Citation, Work
from .profile import GROUPS, Rules, rule_paths


class Standing(StrEnum):
    """How a variant's own source stands behind one of its rules."""

    STATED = "stated"
    """The variant's source states it (status documented, agreement or paraphrased)."""
    INFERRED = "inferred"
    """The variant's source is read by us (status inferred or reconstructed)."""
    INHERITED = "inherited"
    """The variant's source is silent: the value of a profile resting on another work
    stands in for it."""
    UNCITED = "uncited"
    """The profile gives no citation."""


@dataclass(frozen=True)
class Provenance:
    """Where one rule of a variant stands: what every view (the matrix, the variant pages,
    ``variants show/diff``, ``compare``) shows as its badge."""

    rule: str
    standing: Standing
    status: str
    """The citation's status, or ``inherited`` when the source is silent, or ``uncited``."""
    inherited_from: str | None
    """The profile that states the value, when it is not this variant."""
    source_silent: bool
    label: str
    """The badge in words, e.g. ``inherited from foster — britannica-1911 is silent``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "standing": self.standing.value,
            "status": self.status,
            "inherited_from": self.inherited_from,
            "source_silent": self.source_silent,
            "label": self.label,
        }


@dataclass(frozen=True)
class RuleInfo:
    """One rule of a variant as the profiles state it."""

    path: str
    """``group.field``, as in ``betting.closing``."""
    value: Any
    citation: Citation | None
    defined_in: str
    """The id of the profile that states this value (the variant itself or an ancestor)."""
    file: str
    line: int | None
    silent: bool = False
    """Inherited from a profile resting on another work: the variant's own source says
    nothing of this rule, so the parent's value stands in for it."""

    def is_inherited(self, variant_id: str) -> bool:
        return self.defined_in != variant_id


@dataclass(frozen=True)
class Variant:
    """A rule system ready to play: built from a profile and everything it extends.

    Load a bundled one by its id, read its rules and where each comes from, and play one
    deal under it and under a system that differs from it by a single rule (paste it into
    ``python``; the tests run it):

    >>> from bouillotte.play.actions import parse_action
    >>> from bouillotte.play.deal import new_deal
    >>> from bouillotte.rules.cards import parse_card, parse_cards
    >>> from bouillotte.rules.profiles import Library
    >>> from bouillotte.rules.variant import differing_rules
    >>> library = Library()
    >>> pagat, no_brelans = library.get("pagat"), library.get("pagat-no-brelans")
    >>> pagat.players, pagat.value("stakes.cave"), pagat.value("forced_bets.dealer_blind")
    (4, 100, 1)
    >>> no_brelans.extends, differing_rules(pagat, no_brelans)
    ('pagat', ['hands.brelans_recognised'])
    >>> pagat.value("hands.brelans_recognised"), no_brelans.value("hands.brelans_recognised")
    (True, False)
    >>> no_brelans.provenance("hands.brelans_recognised").label
    'paraphrased'
    >>> cited = no_brelans.citation("hands.brelans_recognised")
    >>> cited.source, cited.locator
    ('pagat', 'Variations (2019 page, French machine translation)')

    The same cards and the same words under each: C's three eights win under Pagat's
    rules; without brelans the point decides, and A wins it:

    >>> hands = {"A": "AS KS 8H", "B": "QS 9S 9H", "C": "8S 8D 8C", "D": "AH KH QH"}
    >>> def play(variant):
    ...     deal = new_deal(
    ...         variant,
    ...         ["A", "B", "C", "D"],
    ...         "D",
    ...         hands={name: parse_cards(cards.split()) for name, cards in hands.items()},
    ...         retourne=parse_card("AD"),
    ...     )
    ...     for word in ["A bet 10", "B fold", "C raise 20", "D fold", "A call"]:
    ...         deal.apply(parse_action(word))
    ...     return [(pot.amount, pot.winner, pot.reason) for pot in deal.outcome.pots]
    >>> play(pagat)
    [(41, 'C', 'brelan of eights (C)')]
    >>> play(no_brelans)
    [(41, 'A', "point: spades 48 ties hearts 48; A is nearest the dealer's right")]
    """

    id: str
    title: str
    source: str
    summary: str
    extends: str | None
    file: str
    rules: Rules
    info: dict[str, RuleInfo]
    bibliography: dict[str, Work] = field(default_factory=dict, compare=False)
    game: str = "bouillotte"
    """``bouillotte``, or ``brelan`` for the older game (it plays only the scenarios that
    name it in ``variants:``)."""
    short: str = ""
    """A short name with the source's year for table headers ("Foster 1897"); the id when
    the profile gives none."""

    @property
    def players(self) -> int:
        return self.rules.table.players

    def value(self, path: str) -> Any:
        group, name = path.split(".")
        return getattr(getattr(self.rules, group), name)

    def citation(self, path: str) -> Citation | None:
        info = self.info.get(path)
        return info.citation if info else None

    def cite_source(self, path: str) -> str | None:
        """The work a rule's citation quotes (``None`` for an uncited rule)."""
        citation = self.citation(path)
        return citation.source if citation else None

    def provenance(self, path: str) -> Provenance:
        """Whether this variant's source states, infers or is silent on a rule."""
        info = self.info[path]
        inherited = info.defined_in if info.is_inherited(self.id) else None
        citation = info.citation
        if info.silent:
            standing, status = Standing.INHERITED, "inherited"
            label = f"inherited from {info.defined_in} — {self.source} is silent"
        elif citation is None:
            standing, status, label = Standing.UNCITED, "uncited", "uncited"
        else:
            status = citation.status.value
            standing = Standing.STATED if citation.status in STATED_STATUSES else Standing.INFERRED
            label = status
        return Provenance(path, standing, status, inherited, info.silent, label)

    def cite(self, path: str) -> str:
        """A one-line citation for messages: ``foster, Betting: "…"``."""
        citation = self.citation(path)
        if citation is None:
            return f"{path} (uncited)"
        parts = [p for p in (citation.source, citation.locator) if p]
        text = ", ".join(parts)
        if citation.quote and citation.status.value == "paraphrased":
            text += f" (paraphrased): {citation.quote}"
        elif citation.quote:
            text += f': "{citation.quote}"'
        if citation.translation:
            text += f" [in English: {citation.translation}]"
        if not citation.quote and citation.reason:
            text += f" ({citation.status.value}: {citation.reason})"
        return text or citation.status.value

    def with_values(self, changes: dict[str, Any], *, label: str | None = None) -> Variant:
        """This variant with some rules replaced (for rule attribution)."""
        data = self.rules.model_dump()
        for path, value in changes.items():
            group, name = path.split(".")
            data[group][name] = value.model_dump() if hasattr(value, "model_dump") else value
        rules = Rules.model_validate(data)
        return Variant(
            id=label or self.id,
            title=self.title,
            source=self.source,
            summary=self.summary,
            extends=self.extends,
            file=self.file,
            rules=rules,
            info=self.info,
            bibliography=self.bibliography,
            game=self.game,
            short=self.short,
        )


def differing_rules(a: Variant, b: Variant) -> list[str]:
    """The rule paths whose values differ between two variants, in schema order."""
    return [p for p in rule_paths() if _plain(a.value(p)) != _plain(b.value(p))]


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def value_text(value: Any) -> str:
    """A rule's value for people: yes or no for a flag, ``none`` for no value."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    if isinstance(value, dict):
        return ", ".join(f"{k}: {value_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(value_text(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


__all__ = [
    "GROUPS",
    "Provenance",
    "RuleInfo",
    "Standing",
    "Variant",
    "differing_rules",
    "value_text",
]
