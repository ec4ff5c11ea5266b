"""The client-side search index, built from the data each page renders.

Each page gives one entry, and each heading (or glossary term) with an id gives another, so
a search can land on the right section; each rule gives one entry for all the systems,
which leads to its row of the matrix (a system page's own rule headings are not indexed one
by one: the rule's entry stands for them). What a page family gives is gathered from the
context its template is rendered with (``pagetext.py``), as the pages are rendered: the
built HTML is never read back. Every entry has a kind (``k``), which the search ranks by:
a glossary term, a rule, a scenario, a page, a paragraph, a section. A shipped text is
indexed whole, one entry per paragraph (``texts/foster.html#p26``), so that a hit lands on
the paragraph that holds the words; its page's own entry keeps only its opening words.
Code (dotted rule paths, profile ids) is left out of the text, so snippets hold only
words. The index is shipped as a script (``window.SEARCH_INDEX = [...]``) so that it loads
from ``file://`` too;
``assets/search.js`` holds the English words that lead to the French terms.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from urllib.parse import quote

from ..rules.escaping import visible_controls

PAGE_TEXT = 1500
"""Enough of a page's text to find it by; its sections (a text's paragraphs) are entries of
their own."""
SECTION_TEXT = 300


@dataclass(frozen=True)
class Section:
    """A part of a page that a search can land on: the id of its heading, the heading's
    words as the page shows them, and the words of the part."""

    anchor: str
    heading: str
    text: str


@dataclass(frozen=True)
class PageText:
    """What a page gives the index: its own words, then its sections."""

    text: str
    sections: list[Section] = field(default_factory=list)
    paragraphs: list[Section] = field(default_factory=list)
    """A shipped text's paragraphs, each kept whole (its heading is the ``¶`` number)."""


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _cut(text: str, limit: int) -> str:
    """At most ``limit`` characters, ending at a word boundary."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]


def page_kind(url: str) -> str:
    if url.startswith("scenarios/") and url != "scenarios/index.html":
        return "scenario"
    if url.startswith("variants/"):
        return "system"
    return "page"


def page_entries(url: str, title: str, found: PageText) -> list[dict[str, str]]:
    """The entries of one page, from what its family gives (``pagetext.page_text``)."""
    kind = page_kind(url)
    # The page's path is a link: a file name may hold "#", "?" or "%".
    url = quote(url)
    sections = [(s, _squash(s.heading), _squash(s.text)) for s in found.sections]
    everything = _squash(" ".join([found.text, *(f"{h} {x}" for _, h, x in sections)]))
    entries = [{"t": title, "u": url, "x": _cut(everything, PAGE_TEXT), "k": kind}]
    for paragraph in found.paragraphs:
        entries.append(
            {
                "t": paragraph.heading,
                "u": f"{url}#{quote(paragraph.anchor, safe='')}",
                "x": _squash(paragraph.text),
                "k": "paragraph",
            }
        )
    # A scenario is one entry: its sections (the deal, each pair's attribution) repeat the
    # same words and only crowded the results.
    for section, heading, text in sections if kind != "scenario" else []:
        if not heading:
            continue
        entries.append(
            {
                "t": heading if url == "glossary.html" else f"{heading} — {title}",
                "u": f"{url}#{quote(section.anchor, safe='')}",
                "x": _cut(text, SECTION_TEXT),
                "k": "glossary" if url == "glossary.html" else "section",
            }
        )
    return entries


def rule_entry(
    label: str, anchor: str, meaning: str, values: list[tuple[str, list[str]]]
) -> dict[str, str]:
    """One entry for a rule under every system: what it means (in words) and each value
    with the systems that take it; it leads to the rule's row of the matrix."""
    systems = sum(len(names) for _, names in values)
    # A system's name may hold a comma ("Teaching card, all ante"): names are kept apart
    # by semicolons, and the values by full stops.
    said = ". ".join(f"{value}: {'; '.join(names)}" for value, names in values)
    return {
        "t": f"{label} — rule, in {systems} system{'s' if systems != 1 else ''}",
        "u": f"matrix.html#{quote(anchor, safe='')}",
        "x": _cut(f"{meaning} {said}".strip(), SECTION_TEXT + 200),
        "k": "rule",
    }


SEARCH_INDEX = "assets/search-index.js"
"""The index, as the site holds it (written by the build, never copied from a theme)."""


def index_script(entries: list[dict[str, str]]) -> str:
    """The index as a script. Its titles and texts show each control character the pages
    show as an escape the same way (``\\u202e`` as six characters: the search page writes
    them as text, and must not obey a bidirectional override the pages refuse)."""
    shown = [{k: visible_controls(v) for k, v in entry.items()} for entry in entries]
    data = json.dumps(shown, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # "</" cannot close a script element when the file is inlined or sniffed as HTML.
    return "window.SEARCH_INDEX = " + data.replace("</", "<\\/") + ";\n"
