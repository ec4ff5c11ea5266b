"""The client-side search index, taken from the rendered pages themselves.

Each page gives one entry, and each heading (or glossary term) with an id inside ``<main>``
gives another, so a search can land on the right section; each rule gives one entry for all
the systems, which leads to its row of the matrix (a system page's own rule headings are not
indexed one by one: the rule's entry stands for them). Every entry has a kind (``k``), which
the search ranks by: a glossary term, a rule, a scenario, a page, a section. Code (dotted
rule paths, profile ids) is left out of the text, so snippets hold only words. The index is
shipped as a script (``window.SEARCH_INDEX = [...]``) so that it loads from ``file://`` too;
``assets/search.js`` holds the English words that lead to the French terms.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote

SECTION_TAGS = {"h2", "h3", "dt"}
SKIP_TAGS = {"script", "style", "svg", "nav", "template", "code", "pre", "sup"}
SKIP_CLASSES = {"permalink", "gloss", "visually-hidden", "term-links"}
"""Elements (without nested elements of their own tag) whose text is not indexed."""
PAGE_TEXT = 1500
"""Enough of a page's text to find it by; its sections are entries of their own."""
TEXT_PAGE_TEXT = 12000
"""A shipped source text is searched for its exact phrases, so more of it is kept."""
SECTION_TEXT = 300


@dataclass
class _Section:
    anchor: str | None
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_main = 0
        self.skip = 0
        self.heading: str | None = None
        self.sections: list[_Section] = [_Section(None)]
        self.skipped: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main += 1
        if tag in SKIP_TAGS:
            self.skip += 1
        classes = set((dict(attrs).get("class") or "").split())
        if classes & SKIP_CLASSES:
            self.skip += 1
            self.skipped.append(tag)
        anchor = dict(attrs).get("id")
        if self.in_main and tag in SECTION_TAGS and anchor:
            self.sections.append(_Section(anchor))
            self.heading = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main -= 1
        if tag in SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
        if self.skipped and tag == self.skipped[-1]:
            self.skipped.pop()
            self.skip = max(0, self.skip - 1)
        if tag == self.heading:
            self.heading = None

    def handle_data(self, data: str) -> None:
        if not self.in_main or self.skip:
            return
        section = self.sections[-1]
        (section.title if self.heading else section.text).append(data)


def _squash(parts: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(parts)).strip()


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


def page_entries(url: str, title: str, html: str) -> list[dict[str, str]]:
    parser = _Extractor()
    parser.feed(html)
    parser.close()
    everything = " ".join(_squash(s.title) + " " + _squash(s.text) for s in parser.sections).strip()
    kind = page_kind(url)
    # The page's path is a link: a file name may hold "#", "?" or "%".
    url = quote(url)
    # A pair of systems or a rule sheet repeats what the rules' own entries hold.
    pair = (url.startswith("compare/") and url != "compare/index.html") or url.startswith("sheets/")
    limit = TEXT_PAGE_TEXT if url.startswith("texts/") else SECTION_TEXT if pair else PAGE_TEXT
    entries = [{"t": title, "u": url, "x": _cut(everything, limit), "k": kind}]
    # A scenario is one entry: its sections (the deal, each pair's attribution) repeat the
    # same words and only crowded the results.
    # A pair of systems, likewise: its rules are found through their own entries.
    for section in parser.sections[1:] if kind != "scenario" and not pair else []:
        heading = _squash(section.title)
        anchor = section.anchor or ""
        if not heading or anchor.startswith("rule-"):
            continue  # a rule is found through its own entry (rule_entries)
        entries.append(
            {
                "t": heading if url == "glossary.html" else f"{heading} — {title}",
                "u": f"{url}#{quote(anchor, safe='')}",
                "x": _cut(_squash(section.text), SECTION_TEXT),
                "k": "glossary" if url == "glossary.html" else "section",
            }
        )
    return entries


def rule_entry(
    label: str, anchor: str, doc: str, values: list[tuple[str, list[str]]]
) -> dict[str, str]:
    """One entry for a rule under every system: what it means and each value with the
    systems that take it; it leads to the rule's row of the matrix."""
    systems = sum(len(names) for _, names in values)
    said = "; ".join(f"{value}: {', '.join(names)}" for value, names in values)
    text = re.sub(r"<[^>]+>", "", doc)
    return {
        "t": f"{label} — rule, in {systems} system{'s' if systems != 1 else ''}",
        "u": f"matrix.html#{quote(anchor, safe='')}",
        "x": _cut(f"{text} {said}".strip(), SECTION_TEXT + 200),
        "k": "rule",
    }


def index_script(entries: list[dict[str, str]]) -> str:
    data = json.dumps(entries, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # "</" cannot close a script element when the file is inlined or sniffed as HTML.
    return "window.SEARCH_INDEX = " + data.replace("</", "<\\/") + ";\n"
