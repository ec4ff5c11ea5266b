"""Rules as the site shows them: labels, values in words, citations, differences."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from markupsafe import Markup

from ..citations import Status
from ..profile import GROUPS, rule_paths
from ..variant import Variant
from .ids import cite_id, href, rule_id, variant_page
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


def rule_label(path: str) -> str:
    field = path.split(".")[1]
    return field.replace("_", " ").capitalize()


def group_doc(group: str) -> Markup:
    return docstring(GROUPS[group].__doc__ or "")


def plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def value_words(value: Any) -> str:
    """A rule's value in a few words (the same text in the matrix and on variant pages)."""
    value = plain(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, dict) and {"amount", "amount_if_wins_pool", "paid_by"} <= set(value):
        text = f"{value['amount']} from each"
        if value["amount_if_wins_pool"] != value["amount"]:
            text += f" ({value['amount_if_wins_pool']} if it wins the pool)"
        return text + f", paid by {str(value['paid_by']).replace('-', ' ')}"
    if isinstance(value, dict):
        if all(isinstance(v, list) for v in value.values()):
            return "; ".join(
                f"{k} players: {' '.join(str(r) for r in v)}" for k, v in sorted(value.items())
            )
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


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


@dataclass(frozen=True)
class GroupView:
    name: str
    title: str
    doc: Markup
    rules: list[RuleView]


def citation_view(variant: Variant, path: str, number: int) -> CitationView:
    citation = variant.citation(path)
    anchor = cite_id(path)
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
    )


def rule_groups(variant: Variant, root: str) -> list[GroupView]:
    groups: dict[str, list[RuleView]] = {}
    for number, path in enumerate(rule_paths(), start=1):
        info = variant.info.get(path)
        owner = info.defined_in if info else variant.id
        inherited = owner if owner != variant.id else None
        groups.setdefault(path.split(".")[0], []).append(
            RuleView(
                path=path,
                anchor=rule_id(path),
                label=rule_label(path),
                value=value_words(variant.value(path)),
                doc=docstring(
                    GROUPS[path.split(".")[0]].model_fields[path.split(".")[1]].description or ""
                ),
                inherited_from=inherited,
                inherited_href=href(root, variant_page(inherited), rule_id(path))
                if inherited
                else None,
                citation=citation_view(variant, path, number),
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
            found.append(replace(view, status="silent", reason=reason))
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
            citation = variant.citation(path)
            cells.append(
                MatrixCell(
                    variant_id=variant.id,
                    value=value_words(variant.value(path)),
                    href=href(root, variant_page(variant.id), cite_id(path)),
                    status=citation.status.value if citation else "uncited",
                    differs=plain(variant.value(path)) != first,
                )
            )
        rows.append(MatrixRow(path, rule_id(path), rule_label(path), path.split(".")[0], cells))
    return rows
