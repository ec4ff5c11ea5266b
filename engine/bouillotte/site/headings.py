"""Ways to move around a rendered page: a link to every section heading, and a contents list
on a long page.

Applied to each page's HTML once its template has rendered it (``builder._render``), so
that every heading of every page kind (and of a theme's templates) is treated alike:

- Each ``<h2>`` and ``<h3>`` gets a permalink: a link to its own id, placed just after the
  heading (not inside it, so that the heading's name is read once: a screen reader says
  the heading's words, then "Permalink: …, link"), in a ``<div class="heading-wrap">``
  that the stylesheet uses to show the link on hover and focus. A heading without an id
  gets one (``sec-`` and its words), unique on its page. A ``¶`` link a template wrote
  inside a heading (``class="permalink"``) is replaced by this one, which leads where it
  led (the id of the heading's section) when the heading has no id. A heading that is
  wholly a link to another page (a system's card on the home page) is left as it is: it
  leads to the page it names.
- A page whose ``<main>`` holds at least ``CONTENTS_AT_LEAST`` section headings (``<h2>``
  with an id, or the terms of a glossary, ``<dt>`` with an id, where it has no ``<h2>``)
  and at least ``LONG_PAGE`` characters gets a contents list built from them: a
  ``<nav class="contents">`` holding a ``<details>`` (collapsible with no script), put in
  place of the template's own ``<nav class="toc">`` where it writes one, or else just
  after the ``<h1>``. The stylesheet makes it a sticky column beside the page at desktop
  width; ``assets/contents.js`` folds it on a phone. A rule sheet (made to be printed) gets
  none.

The HTML is our templates' own (well-formed, one heading per element, never nested), so a
regular expression finds the headings; anything it does not recognise is left as it is.
"""

from __future__ import annotations

import html
import re

from .ids import slug

CONTENTS_AT_LEAST = 3
"""The fewest sections a page's contents list would name."""
LONG_PAGE = 12_000
"""The fewest characters of ``<main>`` that make a page long (a scenario's page is about
25,000; the home page, with five sections, about 9,000)."""
MADE_ID_PREFIX = "sec-"
"""The start of an id given to a heading that had none."""
NO_CONTENTS = ("sheets/",)
"""The pages that never get a contents list (printed sheets)."""

_HEADING = re.compile(r"<(h[23])((?:\s[^>]*)?)>(.*?)</\1>", re.S)
_DT = re.compile(r'<dt id="([^"]+)"[^>]*>(.*?)</dt>', re.S)
_ID = re.compile(r'\sid="([^"]*)"')
_INNER_PERMALINK = re.compile(r'\s*<a class="permalink"[^>]*>[^<]*</a>')
_ASIDE_SPANS = re.compile(
    r'<span class="(?:gloss|also|visually-hidden)"[^>]*>.*?</span>'
    r'|<code class="[^"]*\bfor-editors\b[^"]*">.*?</code>',  # the editors' detail
    re.S,
)
_TAG = re.compile(r"<[^>]+>")
_HREF = re.compile(r'\shref="#([^"]+)"')
_LINK = re.compile(r"<a\s[^>]*>.*?</a>", re.S)
_WHOLLY_A_LINK = re.compile(r"\s*<a\s[^>]*>(?:(?!<a\s).)*</a>\s*", re.S)
_MAIN = re.compile(r"(<main\b[^>]*>)(.*)(</main>)", re.S)
_TOC = re.compile(r'<nav class="toc"[^>]*>.*?</nav>\n?', re.S)
_H1_END = re.compile(r"</h1>\n?")


def _text(fragment: str) -> str:
    """The words of an HTML fragment, unescaped and squashed."""
    return " ".join(html.unescape(_TAG.sub("", _ASIDE_SPANS.sub("", fragment))).split())


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def link_headings(page: str) -> str:
    """``page`` with a permalink after each ``<h2>`` and ``<h3>`` (an id given where none)."""
    taken: set[str] = set()

    def made_id(words: str) -> str:
        if not taken:  # the page's ids, read only where a heading needs one made
            taken.update(_ID.findall(page), [""])
        base = MADE_ID_PREFIX + slug(words.lower())[:60].rstrip("-")
        anchor, n = base, 2
        while anchor in taken:
            anchor, n = f"{base}-{n}", n + 1
        taken.add(anchor)
        return anchor

    def one(match: re.Match[str]) -> str:
        level, attrs, inner = match.group(1), match.group(2), match.group(3)
        written = _INNER_PERMALINK.search(inner)
        inner = _INNER_PERMALINK.sub("", inner)
        words = _text(inner)
        if not words or _WHOLLY_A_LINK.fullmatch(inner):
            return match.group(0)
        found = _ID.search(attrs)
        target = written and _HREF.search(written.group(0))
        if found is None and target:  # the template's own ¶ led to the section's id
            anchor = html.unescape(target.group(1))
        elif found is None:
            anchor = made_id(words)
            attrs = f' id="{anchor}"{attrs}'
        else:
            anchor = html.unescape(found.group(1))
        return (
            f'<div class="heading-wrap heading-wrap-{level}">'
            f"<{level}{attrs}>{inner}</{level}>"
            f'<a class="heading-link" href="#{_attr(anchor)}"'
            f' aria-label="Permalink: {_attr(_text(_LINK.sub("", inner)) or words)}">'
            '<span aria-hidden="true">#</span></a></div>'
        )

    return _HEADING.sub(one, page)


def sections(main: str) -> list[tuple[str, str]]:
    """The (id, words) of the sections a contents list of ``main`` names: its ``<h2>`` with an
    id, or where it has none, its ``<dt>`` with an id (a glossary's terms)."""
    found = []
    for match in _HEADING.finditer(main):
        anchor = _ID.search(match.group(2))
        words = _text(_INNER_PERMALINK.sub("", match.group(3)))
        if match.group(1) == "h2" and anchor and words:
            found.append((html.unescape(anchor.group(1)), words))
    if not found:
        for match in _DT.finditer(main):
            words = _text(_INNER_PERMALINK.sub("", match.group(2)))
            if words:
                found.append((html.unescape(match.group(1)), words))
    return found


def contents_list(entries: list[tuple[str, str]]) -> str:
    items = "".join(
        f'<li><a href="#{_attr(anchor)}">{html.escape(words, quote=False)}</a></li>\n'
        for anchor, words in entries
    )
    return (
        '<nav class="contents" aria-labelledby="contents-label">\n'
        '<details class="contents-details">\n'
        '<summary><span id="contents-label">On this page</span></summary>\n'
        f'<ol class="contents-list">\n{items}</ol>\n'
        "</details>\n"
        "</nav>\n"
    )


def add_contents(path: str, page: str) -> str:
    """``page`` with a contents list when it is long (see the module's docstring)."""
    if path.startswith(NO_CONTENTS):
        return page
    main = _MAIN.search(page)
    if main is None:
        return page
    opening, body, closing = main.groups()
    entries = sections(body)
    if len(entries) < CONTENTS_AT_LEAST or len(body) < LONG_PAGE:
        return page
    nav = contents_list(entries)
    if _TOC.search(body):
        body = _TOC.sub(lambda _: nav, body, count=1)
    elif _H1_END.search(body):
        body = _H1_END.sub(lambda m: m.group(0) + nav, body, count=1)
    else:
        body = "\n" + nav + body
    if 'class="' in opening:
        opening = opening.replace('class="', 'class="has-contents ', 1)
    else:
        opening = opening.replace("<main", '<main class="has-contents"', 1)
    return page[: main.start()] + opening + body + closing + page[main.end() :]


def navigable(path: str, page: str) -> str:
    """A rendered page with its heading links and, when it is long, its contents list."""
    return add_contents(path, link_headings(page))
