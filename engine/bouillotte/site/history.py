"""The History page: every source on a time axis, the sources of each rule, and the word
*favori* through time, drawn as SVG at build time (readable without script and in print).

Each mark is a link: a source's mark to its entry on the Sources page, a rule's mark to the
citation of that rule on the page of the system that cites the source for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from markupsafe import Markup

from ..rules.bibliography import LANGUAGE_NAMES
from ..rules.history import History, Source, Statement
from .ids import cite_id, href, rule_id, slug, variant_page
from .names import Names
from .rules import rule_label, value_words

FIRST_YEAR = 1730
LAST_YEAR = 2030
LABEL = 310
"""Width of the row labels."""
PLOT = 600
"""Width of the dated part of the axis."""
UNDATED = 50
"""Width of the column for undated modern works, right of the axis."""
ROW = 18
TOP = 30

KIND_MARKS: dict[str, str] = {
    "dictionary": "circle",
    "encyclopaedia": "square",
    "rulebook": "diamond",
    "website": "triangle",
    "teaching-card": "cross",
    "reconstruction": "ring",
}
"""Each kind of work has its own shape, so the kind never rests on colour alone."""

KIND_NAMES: dict[str, str] = {
    "dictionary": "dictionary",
    "encyclopaedia": "encyclopaedia",
    "rulebook": "rulebook",
    "website": "website",
    "teaching-card": "modern teaching card",
    "reconstruction": "our reconstruction",
}


def _x(year: int | None) -> float:
    if year is None:
        return LABEL + PLOT + UNDATED / 2
    return LABEL + PLOT * (year - FIRST_YEAR) / (LAST_YEAR - FIRST_YEAR)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _shape(kind: str, x: float, y: float) -> str:
    shape = KIND_MARKS.get(kind, "circle")
    if shape == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="5" fill="currentColor"/>'
    if shape == "ring":
        return (
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="4.5" fill="none" '
            'stroke="currentColor" stroke-width="2"/>'
        )
    if shape == "square":
        return (
            f'<rect x="{_num(x - 4.5)}" y="{_num(y - 4.5)}" width="9" height="9" '
            'fill="currentColor"/>'
        )
    if shape == "diamond":
        points = (
            f"{_num(x)},{_num(y - 6)} {_num(x + 6)},{_num(y)} "
            f"{_num(x)},{_num(y + 6)} {_num(x - 6)},{_num(y)}"
        )
        return f'<polygon points="{points}" fill="currentColor"/>'
    if shape == "triangle":
        points = f"{_num(x)},{_num(y - 6)} {_num(x + 6)},{_num(y + 5)} {_num(x - 6)},{_num(y + 5)}"
        return f'<polygon points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
    return (
        f'<path d="M{_num(x - 5)},{_num(y - 5)}L{_num(x + 5)},{_num(y + 5)}'
        f'M{_num(x - 5)},{_num(y + 5)}L{_num(x + 5)},{_num(y - 5)}" '
        'stroke="currentColor" stroke-width="2"/>'
    )


def _axis(height: float) -> list[str]:
    parts = []
    for year in range(1750, LAST_YEAR + 1, 50):
        x = _x(year)
        parts.append(
            f'<line x1="{_num(x)}" y1="{TOP - 8}" x2="{_num(x)}" y2="{_num(height - 4)}" '
            'stroke="currentColor" stroke-opacity="0.25"/>'
        )
        parts.append(
            f'<text x="{_num(x)}" y="{TOP - 12}" text-anchor="middle" font-size="11" '
            f'fill="currentColor">{year}</text>'
        )
    parts.append(
        f'<text x="{_num(_x(None))}" y="{TOP - 12}" text-anchor="middle" font-size="11" '
        'fill="currentColor">undated</text>'
    )
    return parts


def _open(chart_id: str, title: str, desc: str, rows: int) -> tuple[list[str], float]:
    height = TOP + ROW * rows + 8
    width = LABEL + PLOT + UNDATED + 10
    return [
        # A group, not an image: an image's children are hidden from assistive technology,
        # and these charts' marks are links.
        f'<svg class="chart timeline" id="{chart_id}" role="group" '
        f'aria-labelledby="{chart_id}-title" aria-describedby="{chart_id}-desc" '
        f'viewBox="0 0 {width} {_num(height)}" width="{width}" height="{_num(height)}" '
        'xmlns="http://www.w3.org/2000/svg" font-family="inherit">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
    ], height


def _label(y: float, text: str) -> str:
    return (
        f'<text x="{LABEL - 8}" y="{_num(y + 4)}" text-anchor="end" font-size="12" '
        f'fill="currentColor">{escape(text)}</text>'
    )


def _link(target: str, tooltip: str, body: str) -> str:
    return f'<a href="{escape(target)}"><title>{escape(tooltip)}</title>{body}</a>'


def _span(source: Source, y: float) -> str:
    """A line from the first to the last year of an edition spanning several."""
    if source.start is None or source.end is None or source.end == source.start:
        return ""
    return (
        f'<line x1="{_num(_x(source.start))}" y1="{_num(y)}" x2="{_num(_x(source.end))}" '
        f'y2="{_num(y)}" stroke="currentColor" stroke-width="3"/>'
    )


def sources_chart(history: History, root: str) -> Markup:
    """Every source on the axis, one row each, oldest first."""
    desc = "; ".join(
        f"{s.work.name}: {s.work.year}, {LANGUAGE_NAMES.get(s.work.language, s.work.language)}, "
        f"{s.work.place or 'no place'}, {KIND_NAMES.get(s.work.kind, s.work.kind)}"
        for s in history.sources
    )
    parts, height = _open(
        "timeline-sources", "Every source on a time axis", desc, len(history.sources)
    )
    parts += _axis(height)
    for i, source in enumerate(history.sources):
        y = TOP + ROW * i + ROW / 2
        kind = KIND_NAMES.get(source.work.kind, source.work.kind)
        parts.append(_label(y, f"{source.work.name} ({kind})"))
        tooltip = f"{source.work.author}, {source.work.title} ({source.work.year})"
        body = _span(source, y) + _shape(source.work.kind, _x(source.start), y)
        parts.append(_link(href(root, "sources.html", "work-" + slug(source.id)), tooltip, body))
    parts.append("</svg>")
    return Markup("".join(parts))


def rules_chart(history: History, root: str, names: Names | None = None) -> Markup:
    """For each rule, a mark at the date of every source that states it."""
    names = names or Names()
    paths = list(history.rules)
    desc = "; ".join(
        f"{rule_label(path)}: "
        + ", ".join(f"{s.source.work.name} ({s.source.work.year})" for s in found)
        for path, found in history.rules.items()
    )
    parts, height = _open(
        "timeline-rules", "Each rule and the sources that state it", desc, len(paths)
    )
    parts += _axis(height)
    for i, path in enumerate(paths):
        y = TOP + ROW * i + ROW / 2
        parts.append(_label(y, rule_label(path)))
        for st in history.rules[path]:
            parts.append(_statement_mark(st, y, root, names))
    parts.append("</svg>")
    return Markup("".join(parts))


def _statement_mark(st: Statement, y: float, root: str, names: Names) -> str:
    target = href(root, variant_page(st.variant), cite_id(st.rule))
    tooltip = (
        f"{st.source.work.name} ({st.source.work.year}): {value_words(st.value, st.rule)} "
        f"— cited in {names.system(st.variant)}"
    )
    return _link(target, tooltip, _shape(st.source.work.kind, _x(st.source.start), y))


def words_chart(history: History, root: str) -> list[dict[str, Any]]:
    """One chart per word: each meaning at its source's date, linked to the source."""
    charts = []
    for word in history.words:
        desc = "; ".join(
            f"{history.source(m.source).work.year} {history.source(m.source).work.name}: "
            f"{m.meaning}"
            for m in word.meanings
        )
        chart_id = "timeline-word-" + slug(word.word)
        parts, height = _open(
            chart_id, f"The word “{word.word}” through time", desc, len(word.meanings)
        )
        parts += _axis(height)
        for i, meaning in enumerate(word.meanings):
            source = history.source(meaning.source)
            y = TOP + ROW * i + ROW / 2
            shown = (
                "no rule value" if meaning.value is None else value_words(meaning.value, word.rule)
            )
            parts.append(_label(y, f"{source.work.year} {shown}"))
            body = _shape(source.work.kind, _x(source.start), y)
            target = href(root, "sources.html", "work-" + slug(source.id))
            parts.append(_link(target, f"{source.work.name}: {meaning.meaning}", body))
        parts.append("</svg>")
        charts.append({"word": word, "svg": Markup("".join(parts)), "id": chart_id})
    return charts


@dataclass(frozen=True)
class RuleRow:
    path: str
    first: Statement
    statements: Sequence[Statement]


def history_context(history: History, root: str, names: Names | None = None) -> dict[str, Any]:
    rows = [RuleRow(path, found[0], found) for path, found in history.rules.items()]
    return {
        "history": history,
        "sources_svg": sources_chart(history, root),
        "rules_svg": rules_chart(history, root, names),
        "words": words_chart(history, root),
        "rows": rows,
        "kinds": [(KIND_NAMES[k], KIND_MARKS[k]) for k in KIND_MARKS],
        "language_names": LANGUAGE_NAMES,
        "show_value": value_words,
        "rule_anchor": rule_id,
    }
