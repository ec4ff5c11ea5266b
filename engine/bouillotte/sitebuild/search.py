"""The client-side search index, taken from the rendered pages themselves.

Each page gives one entry, and each heading (or glossary term) with an id inside ``<main>``
gives another, so a search can land on the right section. The index is shipped as a
script (``window.SEARCH_INDEX = [...]``) so that it loads from ``file://`` too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote

SECTION_TAGS = {"h2", "h3", "dt"}
SKIP_TAGS = {"script", "style", "svg", "nav", "template"}
PAGE_TEXT = 4000
SECTION_TEXT = 500


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

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main += 1
        if tag in SKIP_TAGS:
            self.skip += 1
        anchor = dict(attrs).get("id")
        if self.in_main and tag in SECTION_TAGS and anchor:
            self.sections.append(_Section(anchor))
            self.heading = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main -= 1
        if tag in SKIP_TAGS:
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


def page_entries(url: str, title: str, html: str) -> list[dict[str, str]]:
    parser = _Extractor()
    parser.feed(html)
    parser.close()
    everything = " ".join(_squash(s.title) + " " + _squash(s.text) for s in parser.sections).strip()
    # The page's path is a link: a file name may hold "#", "?" or "%".
    url = quote(url)
    entries = [{"t": title, "u": url, "x": everything[:PAGE_TEXT]}]
    for section in parser.sections[1:]:
        heading = _squash(section.title)
        if not heading:
            continue
        entries.append(
            {
                "t": f"{heading} — {title}",
                "u": f"{url}#{quote(section.anchor or '', safe='')}",
                "x": _squash(section.text)[:SECTION_TEXT],
            }
        )
    return entries


def index_script(entries: list[dict[str, str]]) -> str:
    data = json.dumps(entries, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # "</" cannot close a script element when the file is inlined or sniffed as HTML.
    return "window.SEARCH_INDEX = " + data.replace("</", "<\\/") + ";\n"
