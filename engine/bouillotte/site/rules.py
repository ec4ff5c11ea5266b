"""Rules as the site shows them: labels, values in words, citations, differences."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

from markupsafe import Markup

from ..rules.citations import Status, Work
from ..rules.profile import GROUPS, rule_paths, rule_title, value_label
from ..rules.profile import rule_doc as rule_description
from ..rules.profiles import Library
from ..rules.texts import find_quote, paragraph_anchor
from ..rules.variant import Standing, Variant
from .ids import cite_id, href, rule_id, text_page, variant_page
from .prose import docstring

GROUP_TITLES: dict[str, str] = {
    "table": "Table, pack and deal",
    "stakes": "Stakes: the cave",
    "forced_bets": "Forced bets: blind and straddles",
    "betting": "Betting",
    "void_deals": "Void deals",
    "hands": "Hands",
    "point": "The point",
    "bonuses": "Bonuses for brelans",
    "misdeals": "Misdeals",
    "session": "The session",
}

OPEN_STATUSES = (Status.INFERRED, Status.RECONSTRUCTED)
"""Statuses that mean the source leaves the rule open and we had to read it."""


def group_title(group: str) -> str:
    return GROUP_TITLES.get(group, group.replace("_", " ").capitalize())


@cache
def rule_label(path: str) -> str:
    """A rule's name as readers see it: its title in the schema ("What a straddle adds",
    ``rules/profile.py``); the path itself (``forced_bets.straddle_amount``) is for the
    editors' detail."""
    return rule_title(path)


@cache
def part_label(path: str) -> str:
    """A rule's name, or a part of one (``bonuses.favori.amount``: "Payment for a brelan
    favori, from each payer"), as readers see it."""
    group, field, *parts = path.split(".")
    label = rule_label(f"{group}.{field}")
    model: Any = GROUPS[group].model_fields[field].annotation
    for part in parts:
        info = model.model_fields[part] if hasattr(model, "model_fields") else None
        if info is None:
            return f"{label}, {part}"
        label += f", {(info.title or part)[0].lower()}{(info.title or part)[1:]}"
        model = info.annotation
    return label


def _first_year(text: str) -> int:
    found = re.search(r"\d{4}", text)
    return int(found.group()) if found else 9999


def system_order(variants: Sequence[Variant]) -> list[Variant]:
    """The systems in the order every page shows them: the systems of Bouillotte first and
    then those of the older game, Brelan (``game: brelan``), each by the year of their
    source (an undated source last), a profile before the ones that extend it, then by
    players. Bouillotte's first system stays the matrix's first column, the one the others
    are compared with; the Brelan ancestors follow as a game of their own."""
    by_id = {v.id: v for v in variants}

    def depth(v: Variant) -> int:
        n, seen = 0, v
        while seen.extends and seen.extends in by_id and n < 64:
            seen, n = by_id[seen.extends], n + 1
        return n

    def key(v: Variant) -> tuple[bool, int, int, int, str]:
        work = v.bibliography.get(v.source)
        year = _first_year(work.year if work else "")
        return (v.game != "bouillotte", year, depth(v), v.players, v.id)

    return sorted(variants, key=key)


@cache
def group_doc(group: str) -> Markup:
    return docstring(GROUPS[group].__doc__ or "")


@cache
def rule_doc(path: str, sources: bool = True) -> Markup:
    """What a rule means, from its schema docstring, with (``sources``) or without the
    ``Sources:`` paragraphs that name the works its values come from: a site of an
    editor's own systems alone shows the meaning alone. Rendered once for the whole build,
    not once on every system's page that shows it."""
    return docstring(in_words(path, rule_description(path, sources)))


_CODE = re.compile(r"``([a-z0-9_-]+)``")


def in_words(path: str, text: str) -> str:
    """A rule's docstring as readers read it: each value written as code (``exactly-the-pot``)
    in its words, in italics, and each rule it names (``minimum_raise``) by its name, in
    quotation marks; other code stays as it is."""
    group = path.split(".")[0]

    def words(found: re.Match[str]) -> str:
        code = found.group(1)
        for where in (path, *rule_paths()):
            label = value_label(where, code)
            if label != code:
                return f"*{label}*"
        named = [p for p in rule_paths() if p.split(".")[1] == code]
        named.sort(key=lambda p: p.split(".")[0] != group)
        return f"“{rule_label(named[0])}”" if named else found.group(0)

    # A docstring glosses a value with words that begin as its label does ("``none``, not
    # recognised"; "``folds`` gives up the hand"): once the value is in its words, the
    # gloss would say them twice, so it keeps only what it adds.
    return _SAID_TWICE.sub(r"\1", _CODE.sub(words, text))


_SAID_TWICE = re.compile(r"(\*([^*]+)\*)[,:]? \2(?![\w'’-])")


def plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def value_words(value: Any, path: str | None = None) -> str:
    """A rule's value in a few words (the same text in the matrix and on variant pages):
    with the rule's ``path``, each value that is a word of code in the words the schema
    gives it (``value_label``); without, the value as written in a profile (the data
    downloads)."""
    value = plain(value)

    def word(text: object, where: str | None = path) -> str:
        return value_label(where, str(text)) if where is not None else str(text)

    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict) and {"amount", "amount_if_wins_pool", "paid_by"} <= set(value):
        text = f"{value['amount']} from each"
        if value["amount_if_wins_pool"] != value["amount"]:
            text += f" ({value['amount_if_wins_pool']} if it wins the pool)"
        payers = (
            word(value["paid_by"], f"{path}.paid_by")
            if path is not None
            else str(value["paid_by"]).replace("-", " ")
        )
        return text + f", paid by {payers}"
    if isinstance(value, dict):
        if all(isinstance(v, list) for v in value.values()):
            return "; ".join(
                f"{k} players: {' '.join(str(r) for r in v)}" for k, v in sorted(value.items())
            )
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return word(value)


@lru_cache(maxsize=4096)
def _paragraph_of(paragraphs: tuple[str, ...], quote: str) -> int | None:
    """``ShippedText.find``, once per quote: pages and pairs show the same quote many times."""
    return find_quote(paragraphs, quote)


def translation_note(work: Work | None, translation: str | None) -> str | None:
    """What a quote is taken from when it is not its work's own words: a quote that needs
    an English rendering (``translation``) though the work is English was taken from a
    translation of it, which the work's ``translation_note`` names."""
    if work is None or not translation or work.language != "en":
        return None
    return work.translation_note


def context_href(
    library: Library | None, root: str, work_id: str | None, quote: str | None
) -> str | None:
    """A link to the place of ``quote`` in the published text of its work: the paragraph
    that holds it, or the text's page when the quote is a rendering not found word for word;
    ``None`` when the work ships no text."""
    if library is None or work_id is None or library.text_file(work_id) is None:
        return None
    text = library.text(work_id)
    where = _paragraph_of(text.paragraphs, quote) if text is not None and quote else None
    return href(root, text_page(work_id), None if where is None else paragraph_anchor(where))


@dataclass(frozen=True)
class CitationView:
    path: str
    anchor: str
    number: int
    work_id: str | None
    work_title: str | None
    locator: str | None
    quote: str | None
    status: str
    reason: str | None
    translation: str | None = None
    context_href: str | None = None
    """Where the quote stands in the published text of its work."""
    provenance: str | None = None
    """The variant's badge for this rule (e.g. ``inherited from foster — … is silent``),
    when it is not the citation's own status."""
    from_translation: str | None = None
    """Where the quote is taken from a translation of its work, not the work's own words:
    the work's ``translation_note``."""

    @property
    def verbatim(self) -> bool:
        """Whether the quote is shown in quotation marks as the source's own words."""
        return self.status != Status.PARAPHRASED.value


@dataclass(frozen=True)
class RuleView:
    path: str
    anchor: str
    label: str
    value: str
    doc: Markup
    inherited_from: str | None
    """The id of the profile that states the rule, when it is not this variant."""
    inherited_href: str | None
    citation: CitationView
    standing: str
    """``stated``, ``inferred``, ``inherited`` (the source is silent) or ``uncited``."""
    badge: str
    """The status badge: the citation's status, or ``inherited`` when the source is silent."""
    badge_label: str
    """The badge in words (``inherited from foster — britannica-1911 is silent``)."""


@dataclass(frozen=True)
class GroupView:
    name: str
    title: str
    doc: Markup
    rules: list[RuleView]


def citation_view(
    variant: Variant,
    path: str,
    number: int,
    root: str = "",
    library: Library | None = None,
) -> CitationView:
    citation = variant.citation(path)
    anchor = cite_id(path)
    provenance = variant.provenance(path)
    label = provenance.label if provenance.standing == Standing.INHERITED else None
    if citation is None:
        return CitationView(path, anchor, number, None, None, None, None, "uncited", None)
    work = variant.bibliography.get(citation.source or "")
    return CitationView(
        path,
        anchor,
        number,
        citation.source,
        work.title if work else None,
        citation.locator,
        citation.quote,
        citation.status.value,
        citation.reason,
        citation.translation,
        context_href(library, root, citation.source, citation.quote),
        label,
        translation_note(work, citation.translation),
    )


def rule_groups(
    variant: Variant, root: str, library: Library | None = None, sources: bool = True
) -> list[GroupView]:
    """A system's rules by group; ``sources``: whether each rule's description keeps its
    ``Sources:`` part (not in a site without the bundled library)."""
    groups: dict[str, list[RuleView]] = {}
    for number, path in enumerate(rule_paths(), start=1):
        info = variant.info.get(path)
        owner = info.defined_in if info else variant.id
        inherited = owner if owner != variant.id else None
        provenance = variant.provenance(path)
        groups.setdefault(path.split(".")[0], []).append(
            RuleView(
                path=path,
                anchor=rule_id(path),
                label=rule_label(path),
                value=value_words(variant.value(path), path),
                doc=rule_doc(path, sources),
                inherited_from=inherited,
                inherited_href=href(root, variant_page(inherited), rule_id(path))
                if inherited and (library is None or inherited in library.files)
                else None,  # a flattened profile's system may have no page of its own
                citation=citation_view(variant, path, number, root, library),
                standing=provenance.standing.value,
                badge=provenance.status,
                badge_label=provenance.label,
            )
        )
    return [GroupView(g, group_title(g), group_doc(g), rules) for g, rules in groups.items()]


def open_questions(variant: Variant) -> list[CitationView]:
    """The rules this variant's sources leave open: read by inference or reconstruction,
    or not addressed at all (inherited from a profile resting on another work)."""
    found = []
    for number, path in enumerate(rule_paths(), start=1):
        citation = variant.citation(path)
        info = variant.info[path]
        if info.silent:
            view = citation_view(variant, path, number)
            reason = f"{variant.source} says nothing of it; {info.defined_in}'s rule is inherited"
            found.append(replace(view, status="inherited", reason=reason))
        elif citation is not None and citation.status in OPEN_STATUSES:
            found.append(citation_view(variant, path, number))
    return found


@dataclass(frozen=True)
class MatrixCell:
    variant_id: str
    value: str
    href: str
    status: str
    differs: bool
    """Whether the value differs from the first variant's."""
    standing: str = Standing.STATED.value
    """``stated``, ``inferred``, ``inherited`` or ``uncited`` (see :class:`Standing`)."""
    inherited_from: str | None = None
    """For an inherited value: the profile it comes from."""
    label: str = ""
    """The badge in words."""
    short: str = ""
    """The system's short name ("Foster 1897"), which labels the cell on a phone."""


@dataclass(frozen=True)
class MatrixRow:
    path: str
    anchor: str
    label: str
    group: str
    cells: list[MatrixCell]

    @property
    def differs(self) -> bool:
        return any(c.differs for c in self.cells)


def matrix_rows(variants: list[Variant], root: str) -> list[MatrixRow]:
    rows = []
    for path in rule_paths():
        first = plain(variants[0].value(path)) if variants else None
        cells = []
        for variant in variants:
            provenance = variant.provenance(path)
            cells.append(
                MatrixCell(
                    variant_id=variant.id,
                    value=value_words(variant.value(path), path),
                    href=href(root, variant_page(variant.id), cite_id(path)),
                    status=provenance.status,
                    differs=plain(variant.value(path)) != first,
                    standing=provenance.standing.value,
                    inherited_from=provenance.inherited_from if provenance.source_silent else None,
                    label=provenance.label,
                    short=variant.short or variant.id,
                )
            )
        rows.append(MatrixRow(path, rule_id(path), rule_label(path), path.split(".")[0], cells))
    return rows
