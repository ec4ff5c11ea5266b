"""The pages of the sources: the bibliography, the history, each shipped text and the
glossary."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ...rules.bibliography import citation_pieces, plain
from ...rules.glossary import Term
from ...rules.history import build_history
from ...rules.profile import rule_paths
from ...rules.texts import paragraph_anchor
from ...study.compare import Comparison
from .. import rules as rule_views
from ..citation import pieces_html
from ..history import history_context
from ..ids import (
    cite_id,
    href,
    root_of,
    rule_id,
    slug,
    text_page,
    variant_page,
)
from ..inputs import Inputs
from ..metadata import coins
from ..page import Page


def sources_page(inputs: Inputs) -> Page:
    works = []
    for work_id, work in sorted(inputs.library.works.items()):
        used = []
        for v in inputs.variants:
            count = sum(
                1 for p in rule_paths() if (c := v.citation(p)) is not None and c.source == work_id
            )
            if count or v.source == work_id:
                used.append({"variant": v, "rules": count})
        examples = [
            c.scenario.model for c in inputs.comparisons if c.scenario.model.source.work == work_id
        ]
        works.append(
            {
                "id": work_id,
                "anchor": "work-" + slug(work_id),
                "work": work,
                "used": used,
                "examples": examples,
                "text_href": text_page(work_id) if work.file else None,
                "citation": plain(citation_pieces(work)),
                "citation_html": pieces_html(citation_pieces(work)),
                "coins": coins(work),
            }
        )
    return Page(
        "sources.html",
        "sources.html",
        "Sources",
        {
            "works": works,
            "unread": inputs.library.unread,
            "variants": inputs.variants,
            "has_odds": True,
        },
    )


def history_page(inputs: Inputs) -> Page:
    return Page(
        "history.html",
        "history.html",
        "History",
        history_context(build_history(inputs.library), root_of("history.html"), inputs.names),
        "Every source on a time axis, the sources of each rule, and the word favori through time.",
    )


@dataclass(frozen=True)
class _QuotedBy:
    """A quotation that points to a paragraph of a shipped text."""

    label: str
    href: str


def text_pages(inputs: Inputs) -> list[Page]:
    """One page per shipped text, its paragraphs anchored, each with the quotes that cite it."""
    quoted: dict[tuple[str, int], list[_QuotedBy]] = {}

    def note(work_id: str | None, quote: str | None, label: str, page: str, anchor: str) -> None:
        text = inputs.library.text(work_id) if work_id else None
        where = text.find(quote) if text is not None and quote else None
        if work_id is not None and where is not None:
            quoted.setdefault((work_id, where), []).append(
                _QuotedBy(label, href("../", page, anchor))
            )

    for v in inputs.variants:
        for path in rule_paths():
            citation = v.citation(path)
            if citation is not None and v.info[path].defined_in == v.id:
                note(
                    citation.source,
                    citation.quote,
                    f"{inputs.names.system(v.id)}: {rule_views.rule_label(path)}",
                    variant_page(v.id),
                    cite_id(path),
                )
    for term in inputs.library.glossary:  # the bundled terms, or an editor's own alone
        note(term.work, term.quote, f"Glossary: {term.term}", "glossary.html", term.id)
    pages = []
    for work_id, work in sorted(inputs.library.works.items()):
        text = inputs.library.text(work_id)
        if text is None:
            continue
        paragraphs = [
            {
                "anchor": paragraph_anchor(i),
                "number": i + 1,
                "text": paragraph,
                "quoted_by": quoted.get((work_id, i), []),
            }
            for i, paragraph in enumerate(text.paragraphs)
        ]
        header = {k: v for k, v in text.header.items() if k not in ("Work", "Title")}
        pages.append(
            Page(
                text_page(work_id),
                "text.html",
                text.header.get("Title", work.title),
                {
                    "work_id": work_id,
                    "w": work,
                    "described_work": work,
                    "header": header,
                    "paragraphs": paragraphs,
                    "lang": text.header.get("Text language", work.language).split()[0],
                },
            )
        )
    return pages


def _term_scenarios(term: Term, comparisons: list[Comparison], limit: int = 4) -> list[Any]:
    """The scenarios whose title names the term (or one of its other spellings)."""
    names = [
        unicodedata.normalize("NFD", n).encode("ascii", "ignore").decode().lower()
        for n in (term.term.split(" (")[0], *term.also)
    ]
    found = []
    for c in comparisons:
        title = c.scenario.model.title
        plain = unicodedata.normalize("NFD", title).encode("ascii", "ignore").decode().lower()
        if any(re.search(rf"\b{re.escape(n)}\b", plain) for n in names):
            found.append(c.scenario.model)
    return found[:limit]


def glossary_page(inputs: Inputs) -> Page:
    terms = sorted(inputs.library.glossary, key=lambda t: t.term.lower())
    contexts = {t.id: rule_views.context_href(inputs.library, "", t.work, t.quote) for t in terms}
    rules = {t.id: [(rule_views.rule_label(p), rule_id(p)) for p in t.rules] for t in terms}
    scenarios = {t.id: _term_scenarios(t, inputs.comparisons) for t in terms}
    return Page(
        "glossary.html",
        "glossary.html",
        "Glossary",
        {
            "terms": terms,
            "works": inputs.library.works,
            "contexts": contexts,
            "translated": {
                t.id: rule_views.translation_note(
                    inputs.library.works.get(t.work or ""), t.translation
                )
                for t in terms
            },
            "french": {t.id: t.french for t in terms if t.french},
            "rules": rules,
            "scenarios": scenarios,
        },
    )
