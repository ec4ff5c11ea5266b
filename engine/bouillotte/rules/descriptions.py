"""A rule's description in two parts: what it means, and where its values come from.

Each field docstring of the profile schema (``rules/profile.py``) first says what the rule
and each of its values mean, in words that name no work, author or system: that part is
true of any system, an editor's own as much as a bundled one. Where the values come from in
the sources (the sentence of a work a value renders, the system that takes it, what a work
leaves open) follows, from the first paragraph that begins with :data:`SOURCES_MARK`
(``Sources:``) to the end::

    packets: Literal["as-deal-singly", "one-then-two", "two-then-one"]
    \"\"\"How the three cards are given ... ``two-then-one`` the other way round.

    Sources: Pierer (1857–65): "Man gibt 1 u. 2 od. 2 u. 1 Karte, nie 3 zugleich" ...\"\"\"

``variants diff`` shows the first paragraph (the meaning's), ``variants show --json`` and
``schema profile`` the whole, and so does a site built with the bundled library; a site of
an editor's own systems alone (``site build --no-bundled``) shows the meaning alone, so
that it names nothing of the bundled library (``tests/test_editor.py`` checks both).
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCES_MARK = "Sources:"
"""How the first paragraph of a description's provenance begins."""


@dataclass(frozen=True)
class Description:
    """A description split at its first ``Sources:`` paragraph."""

    meaning: str
    """What the rule and each value mean (the paragraphs before ``Sources:``)."""
    sources: str = ""
    """Where the values come from: the ``Sources:`` paragraph and every one after it
    (empty when the description has none)."""

    def text(self, sources: bool = True) -> str:
        """The whole description, or (``sources=False``) its meaning alone."""
        if sources and self.sources:
            return f"{self.meaning}\n\n{self.sources}" if self.meaning else self.sources
        return self.meaning


def split_description(text: str) -> Description:
    """``text`` (a cleaned docstring, paragraphs apart by one blank line) as its meaning
    and its sources; ``Description(m, s).text()`` gives ``text`` back."""
    paragraphs = text.split("\n\n")
    for number, paragraph in enumerate(paragraphs):
        if paragraph.startswith(SOURCES_MARK):
            return Description("\n\n".join(paragraphs[:number]), "\n\n".join(paragraphs[number:]))
    return Description(text)
