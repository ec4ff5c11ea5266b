"""What each page family gives the search index, taken from the data the page renders.

A page is indexed from the same context its template is rendered with: its title, the
headings that carry an id (each a section a search can land on) and the words the index
keeps (names, summaries, definitions, quotations, reasons), never by reading the rendered
HTML back. Words only a template writes (a lede, a table's column heads, "Download: CSV")
are left out: they are the same on every page of a family and only crowd the snippets.
A heading a template writes is named here once more (``HEADINGS``); a test reads every
built page with an HTML parser and checks that each section entry names a heading with
that id and that title, and that every word of an entry's text is on its page.

Markdown (a profile's summary, a scenario's notes) is read for its words with markdown-it's
own tokens; code (``rule.paths``, ids) is left out, as on the page's search snippets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..rules.profile import GROUPS
from .ids import slug
from .prose import docstring_markdown, tokens
from .rules import rule_label
from .scenes import cards_as_text
from .search import PageText, Section

HEADINGS = {
    "systems": "The systems covered",
    "start": "Where to start",
    "differences": "Only the rules that differ",
    "open": "What this source leaves open",
    "notes": "Citations",
    "examples": "Scenarios played under this system",
    "all-pairs": "Every pair",
    "downloads": "Data to download",
    "h-sources": "The sources on a time axis",
    "h-rules": "Each rule and the sources that state it",
    "unread": "Known but not yet read",
}
"""The headings with an id that a template writes as it stands (the rest come from data)."""


@lru_cache(maxsize=1024)
def words(markdown: str | None, code: bool = False) -> str:
    """The words of a piece of markdown, without its markup; its code (rule paths, ids)
    too unless ``code``."""
    if not markdown:
        return ""
    parts: list[str] = []
    for token in tokens(markdown):
        if token.type == "inline":
            for child in token.children or ():
                if child.type == "text" or (code and child.type == "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append(" ")
        elif token.type.endswith("_close") and token.block:
            parts.append(" ")
    return " ".join("".join(parts).split())


def _join(parts: Iterable[str | None]) -> str:
    return " ".join(p for p in parts if p)


@dataclass
class _Text:
    """A page's text as it is gathered: its own words, then its sections."""

    own: list[str | None] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    paragraphs: list[Section] = field(default_factory=list)

    def section(self, anchor: str, heading: str, *text: str | None) -> None:
        self.sections.append(Section(anchor, heading, _join(text)))

    def done(self) -> PageText:
        return PageText(_join(self.own), self.sections, self.paragraphs)


def _home(c: Mapping[str, Any]) -> _Text:
    t = _Text()  # the page's title is the entry's own
    site = c["site"]
    if site.intro:
        t.own.append(words(site.intro))
    systems = [
        _join([s["variant"].title, s["variant"].short, words(s["variant"].summary)])
        for s in c["systems"]
    ]
    t.section("systems", HEADINGS["systems"], *systems)
    first = c["first_scenario"]
    t.section("start", HEADINGS["start"], first.model.title if first else None)
    return t


def _glossary(c: Mapping[str, Any]) -> _Text:
    t = _Text(["Glossary"])
    works = c["works"]
    for term in c["terms"]:
        work = works.get(term.work)
        heading = _join([term.term, f"(also {', '.join(term.also)})" if term.also else None])
        t.section(
            term.id,
            heading,
            words(term.definition),
            f"“{term.quote}”",
            term.translation,
            work.title if work else term.work,
            term.locator,
        )
    return t


def _matrix(c: Mapping[str, Any]) -> _Text:
    t = _Text(["The rule matrix"])
    for group in c["groups"]:
        t.own.append(group["title"])
        t.own.extend(row.label for row in group["rows"])
    t.section("differences", HEADINGS["differences"], *(row.label for row in c["differing"]))
    return t


def _variant(c: Mapping[str, Any]) -> _Text:
    v = c["variant"]
    work = c["work"]
    t = _Text([v.title, work.title if work else None, words(v.summary)])
    for group in c["groups"]:
        t.section(
            f"group-{slug(group.name)}",
            group.title,
            words(docstring_markdown(GROUPS[group.name].__doc__ or "")),
        )
    t.section(
        "open",
        HEADINGS["open"],
        *(_join([rule_label(q.path), q.reason]) for q in c["open"]),
    )
    t.section(
        "notes",
        HEADINGS["notes"],
        *(
            _join([rule_label(n.path), n.quote and f"“{n.quote}”", n.reason])
            for n in c["citations"]
        ),
    )
    if c["scenarios"]:
        t.section("examples", HEADINGS["examples"], *(s.model.title for s in c["scenarios"]))
    return t


def _pairs(c: Mapping[str, Any]) -> _Text:
    t = _Text(["Two systems side by side"])
    t.own.extend(v.short for v in c["variants"])
    t.section(
        "all-pairs", HEADINGS["all-pairs"], *(f"{a.short} and {b.short}" for a, b in c["pairs"])
    )
    return t


def _scenarios(c: Mapping[str, Any]) -> _Text:
    return _Text(["Scenarios", *(item["scenario"].title for item in c["items"])])


def _scenario(c: Mapping[str, Any]) -> _Text:
    s = c["scenario"]
    work = c["work"]
    notes = words(cards_as_text(s.notes))  # the cards as the page writes them
    return _Text([s.title, work.title if work else s.source.work, s.source.locator, notes])


def _readings(c: Mapping[str, Any]) -> _Text:
    t = _Text(["Readings"])
    for view in c["views"]:
        r = view.reading
        t.own.extend([r.question, f"“{r.quote}”"])
        t.own.extend(col.meaning for col in view.columns)
    return t


def _statistics(c: Mapping[str, Any]) -> _Text:
    t = _Text(["Statistics"])
    for s in c["sections"]:
        t.own.append(s.title)
        t.section(s.id, s.title, words(s.intro), s.missing)
    return t


def _sources(c: Mapping[str, Any]) -> _Text:
    t = _Text(["Sources"])
    t.own.extend(f"{item['work'].author}, {item['work'].title}" for item in c["works"])
    t.section("downloads", HEADINGS["downloads"], *(v.short for v in c["variants"]))
    for item in c["works"]:
        w = item["work"]
        cited = item["citation"]
        t.section(
            item["anchor"],
            f"{w.author}, {w.title} ({w.year})",
            cited,
            words(w.notes),
        )
    if c.get("unread"):
        t.section(
            "unread",
            HEADINGS["unread"],
            *(
                _join([u.author, u.title, u.year, u.imprint, words(u.known), u.next_step])
                for u in c["unread"]
            ),
        )
    return t


def _history(c: Mapping[str, Any]) -> _Text:
    t = _Text(["History"])
    history = c["history"]
    t.section(
        "h-sources",
        HEADINGS["h-sources"],
        *(f"{s.work.author}, {s.work.title}" for s in history.sources),
    )
    t.section("h-rules", HEADINGS["h-rules"])  # its rows name rules by their paths (code)
    for w in c["words"]:
        word = w["word"]
        t.section(
            f"h-word-{slug(word.word)}",
            f"The word “{word.word}” through time",
            *(_join([m.meaning, f"“{m.quote}”", m.translation]) for m in word.meanings),
        )
    return t


def _text(c: Mapping[str, Any]) -> _Text:
    t = _Text([c["page"].title, *(words(str(v)) for v in c["header"].values())])
    t.own.extend(p["text"] for p in c["paragraphs"])  # the page's entry keeps the opening
    # A paragraph's entry is titled with the work's (short) title: the text's own title
    # (its page's) is long, and repeated on each paragraph it made a tenth of the index.
    t.paragraphs = [
        Section(p["anchor"], f"¶{p['number']}, {c['w'].title}", p["text"]) for p in c["paragraphs"]
    ]
    return t


def _search(c: Mapping[str, Any]) -> _Text:
    return _Text(["Search"])


FAMILIES: dict[str, Callable[[Mapping[str, Any]], _Text]] = {
    "home.html": _home,
    "glossary.html": _glossary,
    "matrix.html": _matrix,
    "variant.html": _variant,
    "pairs.html": _pairs,
    "scenarios.html": _scenarios,
    "scenario.html": _scenario,
    "readings.html": _readings,
    "statistics.html": _statistics,
    "sources.html": _sources,
    "history.html": _history,
    "text.html": _text,
    "search.html": _search,
}
"""Each page family (by its template) and what it gives the index."""


def page_text(template: str, context: Mapping[str, Any]) -> PageText | None:
    """The index's text of a page rendered by ``template`` with ``context`` (``None``: a
    family indexed by its title and description alone, a pair or a rule sheet)."""
    family = FAMILIES.get(template)
    return family(context).done() if family is not None else None
