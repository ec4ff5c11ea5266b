"""What readers call systems and works: the names the site shows instead of their ids.

A system is called by its profile's ``short`` name ("Foster 1897, 5 players"), a work by its
bibliography's ``short`` name ("Académie 1740", ``Work.name``). The ids (``foster-five``,
``academie-1740``) stay in addresses, anchors and the editors' detail. Texts made below the
site (a badge's words, an attribution, a chart's legend) name ids, as the terminal does;
:meth:`Names.words` writes them with names for a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property

from ..rules.citations import Work
from ..rules.profile import rule_paths, value_label
from ..rules.variant import Variant
from .rules import part_label


def _pattern(ids: Iterable[str]) -> re.Pattern[str] | None:
    tokens = sorted(set(ids), key=len, reverse=True)
    if not tokens:
        return None
    # An id stands alone: not part of a longer id, a path or an address (pagat.com).
    alternatives = "|".join(re.escape(t) for t in tokens)
    return re.compile(rf"(?<![\w./-])(?:{alternatives})(?![\w-]|\.\w)")


@dataclass(frozen=True)
class Names:
    systems: Mapping[str, str] = field(default_factory=dict)
    """Each system's id with its short name."""
    works: Mapping[str, str] = field(default_factory=dict)
    """Each work's id with its short name."""

    @classmethod
    def of(cls, variants: Iterable[Variant], works: Mapping[str, Work]) -> Names:
        systems = {v.id: v.short or v.title or v.id for v in variants}
        known = dict(works)
        for variant in variants:
            for work_id, work in variant.bibliography.items():
                known.setdefault(work_id, work)
        return cls(systems, {work_id: work.name for work_id, work in known.items()})

    def system(self, system_id: str | None) -> str:
        if system_id is None:
            return ""
        return self.systems.get(system_id) or self.works.get(system_id) or system_id

    def work(self, work_id: str | None) -> str:
        if work_id is None:
            return ""
        return self.works.get(work_id) or self.systems.get(work_id) or work_id

    @cached_property
    def _ids(self) -> re.Pattern[str] | None:
        return _pattern([*self.systems, *self.works])

    def words(self, text: str | None) -> str:
        """``text`` as readers read it: each id of a system or a work written as its name
        (a system's first, where a work and a system share an id, as ``foster`` does), and
        each rule path (``forced_bets.dealer_blind``, ``bonuses.favori.amount=0``) as the
        rule's name in quotation marks, with its value in words."""
        if not text:
            return ""
        if text not in self._said:
            said = _PATHS.sub(_rule_words, text)
            if self._ids is not None:
                said = self._ids.sub(lambda m: self.system(m.group()), said)
            self._said[text] = said
        return self._said[text]

    @cached_property
    def _said(self) -> dict[str, str]:
        """Each text already written in words (pages repeat the same badges)."""
        return {}

    def prose(self, text: str | None) -> str:
        """Prose written by editors (a scenario's notes, a reason) as readers read it: a
        code span that is an id, a rule path or a value (`` `foster` ``,
        `` `point.suit_tie` ``, `` `eldest-first` ``) in words, then :meth:`words`."""
        if not text:
            return ""

        def span(found: re.Match[str]) -> str:
            code = found.group(1)
            path, _, value = code.partition(": ")
            if value and _PATHS.fullmatch(path):
                return f"“{part_label(path)}”: *{value_label(path, value)}*"
            if code in self.systems or code in self.works:
                return self.system(code)
            if _PATHS.fullmatch(code):
                return _rule_words(_PATHS.fullmatch(code))  # type: ignore[arg-type]
            label = slug_words(code)
            return f"*{label}*" if label != code else found.group(0)

        return self.words(_SPAN.sub(span, text))


_SPAN = re.compile(r"``?([A-Za-z0-9_.=-]+(?:: [a-z0-9-]+)?)``?")


@cache
def slug_words(code: str) -> str:
    """The words of a value written as code, from the first rule that has it."""
    for path in rule_paths():
        for where in (path, f"{path}.paid_by"):
            label = value_label(where, code)
            if label != code:
                return label
    return code


_PATHS = re.compile(
    r"(?<![\w.])(?:"
    + "|".join(re.escape(p) for p in sorted(rule_paths(), key=len, reverse=True))
    + r")(?:\.[a-z_]+)?(?:=[\w-]+)?(?![\w])"
)


def _rule_words(found: re.Match[str]) -> str:
    path, _, value = found.group().partition("=")
    label = f"“{part_label(path)}”"
    rule = ".".join(path.split(".")[:2])
    return f"{label} = {value_label(path if path != rule else rule, value)}" if value else label
