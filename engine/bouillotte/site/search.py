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

import html
import json
import re
from dataclasses import dataclass, field
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


_TOKEN = re.compile(
    r"<(script|style)\b[^>]*>.*?</\1\s*>"  # an element whose content is not markup
    r"|<!--.*?-->"  # a comment
    r"|<(/?)([a-zA-Z][^\s/>]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>"  # a tag and its attributes
    r"|<![^>]*>"  # the doctype
    r"|([^<]+|<)",  # text (or a "<" that opens no tag)
    re.S | re.I,
)
_CLASS = re.compile(r"""\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_ID = re.compile(r"""\sid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)


_SPACE = re.compile(r"\s")
_NEXT_SECTION = re.compile(r"<(?:h2|h3|dt)\b[^>]*\sid\s*=", re.I)


def _attribute(pattern: re.Pattern[str], rest: str) -> str | None:
    found = pattern.search(rest)
    if found is None:
        return None
    return html.unescape(next(v for v in found.groups() if v is not None))


def _sections(
    page: str, enough: int | None = None, unread: tuple[str, int] | None = None
) -> list[_Section]:
    """The text of ``<main>`` in sections, each opened by a heading (or glossary term) with
    an id; skipped elements (``SKIP_TAGS``, ``SKIP_CLASSES``) give no text.

    The site's own well-formed HTML is read with one regular expression, which is several
    times faster than ``html.parser`` and reads it the same way. Two shortcuts leave out
    only text that no entry shows (``tests/test_site.py`` checks it on every page):

    - ``enough``: reading stops once the text holds more than ``enough`` characters that
      are not spaces (the squashed text then begins as the whole page's does);
    - ``unread=(prefix, limit)``: once the page's text holds more than ``limit`` such
      characters, a section whose anchor starts with ``prefix`` (a rule: found through its
      own entry) is passed over, to the next heading with an id.
    """
    start, end = page.find("<main"), page.rfind("</main>")
    skip = 0
    seen = 0
    counted = enough if enough is not None else unread[1] if unread is not None else -2
    heading: str | None = None
    sections = [_Section(None)]
    skipped: list[str] = []
    if start < 0 or end < 0:
        return sections
    tokens = _TOKEN.finditer(page, start, end)
    while (match := next(tokens, None)) is not None:
        _, closing, tag, rest, data = match.groups()
        if data is not None:
            if not skip:
                section = sections[-1]
                text = html.unescape(data)
                (section.title if heading else section.text).append(text)
                if seen <= counted + 1:
                    seen += len(text) - len(_SPACE.findall(text))
                    if enough is not None and seen > enough + 1:
                        break
            continue
        if tag is None:
            continue  # a comment, the doctype, a script or a style sheet (never indexed)
        tag = tag.lower()
        opens = not closing
        if opens:
            if tag in SKIP_TAGS:
                skip += 1
            classes = _attribute(_CLASS, rest) if "class" in rest else None
            if classes and not SKIP_CLASSES.isdisjoint(classes.split()):
                skip += 1
                skipped.append(tag)
            if tag in SECTION_TAGS and (anchor := _attribute(_ID, rest)):
                sections.append(_Section(anchor))
                heading = tag
                if unread and anchor.startswith(unread[0]) and seen > unread[1] + 1:
                    following = _NEXT_SECTION.search(page, match.end(), end)
                    tokens = _TOKEN.finditer(page, following.start() if following else end, end)
                    heading = None
                    continue
        if closing or rest.endswith("/"):  # <br/> opens and closes at once
            if tag in SKIP_TAGS:
                skip = max(0, skip - 1)
            if skipped and tag == skipped[-1]:
                skipped.pop()
                skip = max(0, skip - 1)
            if tag == heading:
                heading = None
    return sections


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


def page_entries(
    url: str, title: str, page: str, *, shortcuts: bool = True
) -> list[dict[str, str]]:
    """The entries of one rendered page (``shortcuts=False``: read every word of it, which
    gives the same entries, more slowly)."""
    kind = page_kind(url)
    # The page's path is a link: a file name may hold "#", "?" or "%".
    url = quote(url)
    # A pair of systems or a rule sheet repeats what the rules' own entries hold.
    pair = (url.startswith("compare/") and url != "compare/index.html") or url.startswith("sheets/")
    limit = TEXT_PAGE_TEXT if url.startswith("texts/") else SECTION_TEXT if pair else PAGE_TEXT
    # A scenario or a pair gives one entry, the start of its text: the rest is not read;
    # nor is the text of a rule's section once the page's own text is long enough.
    sections = (
        _sections(page, limit if kind == "scenario" or pair else None, ("rule-", limit))
        if shortcuts
        else _sections(page)
    )
    everything = " ".join(_squash(s.title) + " " + _squash(s.text) for s in sections).strip()
    entries = [{"t": title, "u": url, "x": _cut(everything, limit), "k": kind}]
    # A scenario is one entry: its sections (the deal, each pair's attribution) repeat the
    # same words and only crowded the results.
    # A pair of systems, likewise: its rules are found through their own entries.
    for section in sections[1:] if kind != "scenario" and not pair else []:
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
