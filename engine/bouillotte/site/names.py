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
from ..rules.escaping import markdown_text
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


def name_list(names: Iterable[str]) -> str:
    """Names in a list: a name may hold a comma ("Teaching card, mistigri"), and then
    semicolons keep the names apart, where commas would run them together."""
    names = list(names)
    return ("; " if any("," in n for n in names) else ", ").join(names)


def and_joined(words: list[str]) -> str:
    """Words as a sentence lists them: ``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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

    def _named(self, system_id: str, markdown: bool) -> str:
        """The name of ``system_id`` put into a text; into markdown (:meth:`prose`) as
        words, never markup (``markdown_text``): a name is an editor's plain one-line
        text, and ``![x](https://…)`` in it must not become an image on every page that
        names the system."""
        name = self.system(system_id)
        return markdown_text(name) if markdown else name

    def work(self, work_id: str | None) -> str:
        if work_id is None:
            return ""
        return self.works.get(work_id) or self.systems.get(work_id) or work_id

    @cached_property
    def works_first(self) -> Names:
        """The same names for a text whose ids are works (a work's notes on the sources
        page, a rule's sentence ``pagat, Variations: "…"``): an id that is both a work and a
        system is the work's. ``pagat`` is John McLeod's pagat.com page as a work, and the
        system of an anonymous teaching card based on it: reading the one for the other
        reverses what a note says."""
        systems = {k: self.works.get(k, v) for k, v in self.systems.items()}
        return Names(systems, self.works)

    @cached_property
    def _ids(self) -> re.Pattern[str] | None:
        return _pattern([*self.systems, *self.works])

    def words(self, text: str | None) -> str:
        """``text`` as readers read it: each id of a system or a work written as its name
        (a system's first, where a work and a system share an id, as ``foster`` does), and
        each rule path (``forced_bets.dealer_blind``, ``bonuses.favori.amount=0``) as the
        rule's name in quotation marks, with its value in words."""
        return self._spoken(text, markdown=False)

    def _spoken(self, text: str | None, markdown: bool) -> str:
        """:meth:`words`, each name put in as :meth:`_named` puts it."""
        if not text:
            return ""
        if (text, markdown) not in self._said:
            said = _PATHS.sub(_rule_words, text)
            if self._ids is not None:
                said = self._runs.sub(lambda m: self._run(m, markdown), said)
                said = self._ids.sub(lambda m: self._named(m.group(), markdown), said)
            self._said[text, markdown] = said
        return self._said[text, markdown]

    @cached_property
    def _runs(self) -> re.Pattern[str]:
        """A list of ids, ``pagat, pagat-mistigri, pagat-no-brelans``."""
        one = _pattern([*self.systems, *self.works])
        assert one is not None
        return re.compile(rf"{one.pattern}(?:, {one.pattern})+")

    def _run(self, found: re.Match[str], markdown: bool) -> str:
        return name_list(self._named(i, markdown) for i in found.group().split(", "))

    def listed(self, system_ids: Iterable[str]) -> str:
        """The systems' names as a list (:func:`name_list`)."""
        return name_list(self.system(i) for i in system_ids)

    @cached_property
    def _said(self) -> dict[tuple[str, bool], str]:
        """Each text already written in words (pages repeat the same badges)."""
        return {}

    def prose(self, text: str | None) -> str:
        """Prose written by editors (a scenario's notes, a reason) as readers read it: a
        code span that is an id, a rule path or a value (`` `foster` ``,
        `` `point.suit_tie` ``, `` `eldest-first` ``) in words, then :meth:`words`. The
        result is markdown: each name is put in as words (:meth:`_named`)."""
        if not text:
            return ""

        def span(found: re.Match[str]) -> str:
            code = found.group(1)
            path, _, value = code.partition(": ")
            if value and _PATHS.fullmatch(path):
                return f"“{part_label(path)}”: *{value_label(path, value)}*"
            if code in self.systems or code in self.works:
                return self._named(code, markdown=True)
            if _PATHS.fullmatch(code):
                return _rule_words(_PATHS.fullmatch(code))  # type: ignore[arg-type]
            label = slug_words(code)
            return f"*{label}*" if label != code else found.group(0)

        if self._ids is not None:  # a list of ids in code spans is a list of ids (words)
            text = self._span_runs.sub(lambda m: m.group().replace("`", ""), text)
        return self._spoken(_SPAN.sub(span, text), markdown=True)

    @cached_property
    def _span_runs(self) -> re.Pattern[str]:
        """A list of ids each in a code span: `` `pagat`, `pagat-mistigri` ``."""
        alternatives = "|".join(
            re.escape(t) for t in sorted({*self.systems, *self.works}, key=len, reverse=True)
        )
        one = rf"``?(?:{alternatives})``?"
        return re.compile(rf"{one}(?:, {one})+")


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
