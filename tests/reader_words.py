"""What a reader of the site must not meet: the code of the profiles (rule paths, field
names, enum slugs) and the ids of works and systems, outside the editors' detail."""

from __future__ import annotations

import re
import typing
from html.parser import HTMLParser
from pathlib import Path

from bouillotte.rules.profile import GROUPS, rule_paths
from bouillotte.rules.profiles import Library

EDITORS_CLASS = "for-editors"
"""The class of the element that holds the code an editor needs (site/templates)."""

SPOKEN_ATTRIBUTES = ("aria-label", "title", "alt")
"""Attributes a reader meets (a screen reader reads them, a pointer shows them)."""

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _ReaderText(HTMLParser):
    """The text of a page as a reader meets it, less the editors' detail, scripts and
    styles; the spoken attributes included."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._stack: list[bool] = []  # whether each open element hides its content

    def _hidden(self) -> bool:
        return any(self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        hides = EDITORS_CLASS in classes or tag in ("script", "style", "template")
        if not self._hidden() and not hides:
            self.parts.extend(str(found[a]) for a in SPOKEN_ATTRIBUTES if found.get(a))
        if tag not in VOID:
            self._stack.append(hides)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._hidden():
            found = dict(attrs)
            self.parts.extend(str(found[a]) for a in SPOKEN_ATTRIBUTES if found.get(a))

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self.parts.append(data)


def reader_text(html: str) -> str:
    parser = _ReaderText()
    parser.feed(html)
    parser.close()
    return "\n".join(parser.parts)


def _slugs() -> set[str]:
    """Every value of a rule that is a word of code (``player-on-dealers-left``), from the
    schema: the Literal strings with a hyphen (one-word values such as ``none`` or
    ``right`` read as English)."""
    found: set[str] = set()

    def walk(annotation: object) -> None:
        if typing.get_origin(annotation) is typing.Literal:
            found.update(a for a in typing.get_args(annotation) if isinstance(a, str))
        for arg in typing.get_args(annotation):
            walk(arg)
        if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
            for info in annotation.model_fields.values():
                walk(info.annotation)

    for model in GROUPS.values():
        walk(model)
    return {s for s in found if "-" in s}


def _any_word(tokens: set[str]) -> re.Pattern[str]:
    """Any of ``tokens`` standing as a word of its own (the longest first): not inside a
    word, a path or an address (``pagat.com``, ``variants/foster.html``).

    The look-behind and the look-ahead stand once around the alternatives rather than in
    each: the same matches (where a token's look-ahead fails, the search goes back into the
    alternatives, to the next token in the same order), but a place inside a word is passed
    over at once instead of being tried against every token (a scan of the whole site took
    38 s of CPU so, 2 s now)."""
    alternatives = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w-]|\.(?:com|html|txt|yaml)\b)")


def _input_fields() -> set[str]:
    """The field names of the scenario and session files (``favori_rank``,
    ``actions_by_variant``): an editor's words, which docs/scenarios.md explains."""
    from pydantic import BaseModel

    from bouillotte.study import scenario, session_file

    found: set[str] = set()
    for module in (scenario, session_file):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel:
                found.update(value.model_fields)
    return found


def forbidden(library: Library | None = None) -> list[tuple[str, re.Pattern[str]]]:
    """Each kind of code word with its pattern: rule paths, snake_case field names, enum
    slugs, and the ids of works and systems (lower case, as written in the YAML; ``pagat``
    in ``pagat.com`` is the site's name, not an id)."""
    library = library or Library()
    fields = {p.split(".")[1] for p in rule_paths()} | {
        f for m in GROUPS.values() for f in m.model_fields
    }
    kinds: list[tuple[str, set[str]]] = [
        ("rule path", set(rule_paths())),
        ("field name", {f for f in fields if "_" in f}),
        ("scenario field", {f for f in _input_fields() if "_" in f}),
        ("enum slug", _slugs()),
        ("work id", set(library.works)),
        ("system id", set(library.files)),
    ]
    return [(kind, _any_word(tokens)) for kind, tokens in kinds]


def code_words(page: Path, patterns: list[tuple[str, re.Pattern[str]]]) -> list[str]:
    text = reader_text(page.read_text(encoding="utf-8"))
    return [f"{kind} {m.group(0)!r}" for kind, pattern in patterns for m in pattern.finditer(text)]


SAID_TWICE = re.compile(r"(?<![\w'’-])([A-Za-z][\w'’-]*(?: [\w'’-]+)*)([,;]?) \1(?![\w'’-])")
"""A phrase of readers' words said twice in a row ("not recognised, not recognised",
"Teaching card, Teaching card, all ante")."""

_LINKS = {"a", "an", "and", "by", "from", "in", "of", "or", "the", "to"}


def said_twice(text: str) -> list[str]:
    """Each phrase said twice in a row: of two words or more, or one word of five letters
    or more with nothing between ("that that" is English), and not ending on a small word
    ("from player to player to the right"). Where one title or name begins the next
    ("When nobody opens When nobody opens after straddles"; "Teaching card; Teaching card,
    all ante"), the second goes on: a list, not a repeat, unless a comma stands between."""
    found = []
    for m in SAID_TWICE.finditer(text):
        phrase, between = m.group(1), m.group(2)
        if " " not in phrase and (len(phrase) < 5 or between):  # "32 cards, cards dealt"
            continue
        if phrase.split()[-1].lower() in _LINKS:
            continue
        if between != "," and re.match(r"[,:]? \w", text[m.end() :]):
            continue
        found.append(m.group(0))
    return found
