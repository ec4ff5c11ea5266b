"""The one pass over a YAML document's events, made before any value is built: where each
list or mapping ends and each anchor (``&name``) stands, for the builder of ``yamlsource``
to find its way by, and how many values, levels and characters the document expands to
through its aliases (``*name``), refused past :data:`MAX_VALUES`, :data:`MAX_DEPTH` or
:data:`MAX_CHARACTERS`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

MAX_VALUES = 20_000
"""The most values (scalars, lists, mappings) a file may hold once its aliases
(``*name``) are expanded (the largest bundled file holds under 800): a few lines of nested
aliases can otherwise stand for billions of values."""
MAX_DEPTH = 64
"""The deepest nesting of lists and mappings, aliases expanded."""
MAX_CHARACTERS = 4 * 2**20
"""The most characters the values of a file (its scalars, keys included) may hold in all
once its aliases are expanded (4 MiB, four times what a file of at most 1 MiB holds
written out): one long value named by a few hundred aliases would otherwise stand for
gigabytes, in memory and in every output that writes each place it stands."""


@dataclass(frozen=True)
class Parsed:
    """A document's events, with what the builder needs to find its way among them."""

    events: list[Any]  # PyYAML's stubs know no C parser's marks: an event's fields are Any
    after: dict[int, int]
    """The index of the event after each node, by the index of the node's first event."""
    anchors: dict[str, int]
    """Each anchor (``&name``) of the document, with the index of its node's first event."""
    root: int | None
    """The index of the document's node; ``None`` for an empty stream."""


@dataclass(slots=True)
class _Open:
    """A list or mapping whose end event is still to come."""

    anchor: str | None
    first: int
    """The index of its first event."""
    values: int = 1
    """Values so far, itself included, aliases expanded."""
    characters: int = 0
    """The characters of its scalars so far, aliases expanded."""
    deepest: int = 0
    """The depth of its deepest child so far (0: no list or mapping inside)."""


class _Scan:
    """The one pass over a document's events that :func:`parse_events` makes: each kind of event
    its own step, which notes where the builder will find its way (``after``, ``anchors``)
    and counts what the document expands to."""

    def __init__(self, file: Path, loader: type[Any], byte_positions: bool) -> None:
        self.file = file
        self.loader = loader
        """The loader whose parser reads the text."""
        self.byte_positions = byte_positions
        """Whether that parser reports the position of a bad character in bytes."""
        self.events: list[Any] = []
        self.after: dict[int, int] = {}
        self.anchors: dict[str, int] = {}
        """Each anchor of the first document, with the index of its node's first event."""
        self.anchored: dict[str, tuple[int, int, int]] = {}
        """Each anchor whose node is closed, with its values, depth and characters (aliases
        expanded)."""
        self.stack: list[_Open] = []
        self.total = 0
        """Values so far in the stream, aliases expanded."""
        self.characters = 0
        """The characters of the stream's scalars so far, aliases expanded."""
        self.aliases = 0
        """The aliases (``*name``) met so far, each expanded where it stands."""
        self.documents = 0
        self.root: int | None = None
        self.refused: yaml.composer.ComposerError | None = None
        """The first error PyYAML's composer would raise, raised once the stream is read."""
        self.steps: dict[type[Any], Any] = {
            yaml.ScalarEvent: self.scalar,
            yaml.SequenceStartEvent: self.start,
            yaml.MappingStartEvent: self.start,
            yaml.SequenceEndEvent: self.end,
            yaml.MappingEndEvent: self.end,
            yaml.AliasEvent: self.alias,
            yaml.DocumentStartEvent: self.document,
        }

    def run(self, text: str) -> Parsed:
        parser: Iterator[Any] = yaml.parse(text, Loader=self.loader)
        steps, events = self.steps, self.events
        for index, event in enumerate(parser):
            events.append(event)
            step = steps.get(type(event))
            if step is not None:
                step(index, event)
        if self.refused is not None:
            raise self.refused
        return Parsed(self.events, self.after, self.anchors, self.root)

    def fail(self, message: str, event: Any) -> InputError:
        mark = event.start_mark
        return InputError(message, file=self.file, line=mark.line + 1 if mark else None)

    def too_many(self, event: Any) -> InputError:
        """The check that follows every step that adds values (a scalar, the start of a list
        or mapping, an alias): aliases are blamed only in a document that has some."""
        if not self.aliases:
            return self.fail(
                f"the document holds more than {MAX_VALUES:,} values (lists, mappings and "
                "scalars, keys included), the most a file may hold",
                event,
            )
        return self.fail(
            f"the document expands to more than {MAX_VALUES:,} values (through its "
            "aliases *name); write the values out, or fewer aliases",
            event,
        )

    def too_long(self, event: Any) -> InputError:
        """The check that follows every step that adds characters (a scalar, an alias)."""
        if not self.aliases:
            return self.fail(
                f"the document's values hold more than {MAX_CHARACTERS:,} characters "
                "(4 MiB), the most a file may hold",
                event,
            )
        return self.fail(
            f"the document's values expand to more than {MAX_CHARACTERS:,} characters "
            "(4 MiB, through its aliases *name); write the values out, or fewer aliases",
            event,
        )

    def refuse(self, error: yaml.composer.ComposerError) -> None:
        """Keep the composer's error, if it is the first."""
        if self.refused is None:
            self.refused = error

    def count(self, values: int, depth: int, characters: int) -> None:
        """A node of ``values`` values, ``depth`` deep, holding ``characters``, in the list
        or mapping open last."""
        if self.stack:
            top = self.stack[-1]
            top.values += values
            top.characters += characters
            if depth > top.deepest:
                top.deepest = depth

    def name(self, index: int, event: Any) -> None:
        """The anchor of the node that starts at ``index``, in the first document."""
        anchor = event.anchor
        if anchor is None or self.documents != 1:
            return
        if anchor in self.anchors:
            self.refuse(
                yaml.composer.ComposerError(
                    "found duplicate anchor; first occurrence",
                    self.events[self.anchors[anchor]].start_mark,
                    "second occurrence",
                    event.start_mark,
                )
            )
        self.anchors.setdefault(anchor, index)

    def scalar(self, index: int, event: Any) -> None:
        self.total += 1
        length = len(event.value)
        self.characters += length
        self.after[index] = index + 1
        if event.anchor is not None:
            self.anchored[event.anchor] = (1, 0, length)
            self.name(index, event)
        if self.stack:
            top = self.stack[-1]
            top.values += 1
            top.characters += length
        if self.total > MAX_VALUES:
            raise self.too_many(event)
        if self.characters > MAX_CHARACTERS:
            raise self.too_long(event)

    def start(self, index: int, event: Any) -> None:
        """A list or mapping opens."""
        if len(self.stack) >= MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} levels deep", event)
        self.name(index, event)
        self.stack.append(_Open(event.anchor, index))
        self.total += 1
        if self.total > MAX_VALUES:
            raise self.too_many(event)

    def end(self, index: int, event: Any) -> None:
        """A list or mapping closes: its size and depth count in its parent's."""
        closed = self.stack.pop()
        self.after[closed.first] = index + 1
        if closed.anchor is not None:
            self.anchored[closed.anchor] = (closed.values, closed.deepest + 1, closed.characters)
        self.count(closed.values, closed.deepest + 1, closed.characters)

    def alias(self, index: int, event: Any) -> None:
        """``*name`` stands for the whole node it names: its values, its depth and its
        characters."""
        anchor = event.anchor
        self.aliases += 1
        if any(open_.anchor == anchor for open_ in self.stack):
            raise self.fail(f"the alias *{anchor} stands inside the node it names", event)
        unknown = (1, 0, 0)  # an alias to no anchor: refused below
        values, depth, characters = self.anchored.get(anchor or "", unknown)
        if len(self.stack) + depth > MAX_DEPTH:
            raise self.fail(
                f"the alias *{anchor} nests values more than {MAX_DEPTH} levels deep", event
            )
        self.total += values
        self.characters += characters
        self.count(values, depth, characters)
        self.after[index] = index + 1
        if self.documents == 1 and anchor not in self.anchors:
            problem = "found undefined alias" + ("" if self.byte_positions else f" {anchor!r}")
            self.refuse(yaml.composer.ComposerError(None, None, problem, event.start_mark))
        if self.total > MAX_VALUES:
            raise self.too_many(event)
        if self.characters > MAX_CHARACTERS:
            raise self.too_long(event)

    def document(self, index: int, event: Any) -> None:
        """A document starts: the first is the one read, a second is refused."""
        self.documents += 1
        if self.documents == 1:
            self.root = index + 1
        elif self.documents == 2:
            assert self.root is not None
            self.refuse(
                yaml.composer.ComposerError(
                    "expected a single document in the stream",
                    self.events[self.root].start_mark,
                    "but found another document",
                    event.start_mark,
                )
            )


def parse_events(text: str, file: Path, loader: type[Any], byte_positions: bool) -> Parsed:
    """Parse ``text`` once, into its events, with the parser of ``loader`` (which reports
    the position of a bad character in bytes if ``byte_positions``, else in characters).

    Refuse from the events alone a document that would expand (through its aliases) beyond
    :data:`MAX_VALUES` values, :data:`MAX_DEPTH` levels or :data:`MAX_CHARACTERS`
    characters, or whose alias stands inside the
    very node it names: building its values would otherwise run for ages, or recurse until
    Python gives up. Then refuse what PyYAML's composer refuses, with its words and marks
    (a second document, an alias to no anchor, an anchor named twice; the first in the
    document, as the composer meets them)."""
    return _Scan(file, loader, byte_positions).run(text)
