"""YAML reading that remembers where every value stands, for error messages."""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .writing import note_input

PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Located:
    """A parsed YAML document with the line (1-based) of every key and item."""

    data: Any
    file: Path
    lines: dict[PathKey, int] = field(default_factory=dict)
    words: dict[PathKey, str] = field(default_factory=dict)
    """The text of each value YAML 1.1 reads as a boolean from a word that YAML 1.2 reads as
    text (``no``, ``yes``, ``on``, ``off``, any case), as it is written: given back where a
    model wants text (:func:`as_written`)."""

    def line(self, path: PathKey) -> int | None:
        """The line of ``path`` or, failing that, of its nearest ancestor."""
        for end in range(len(path), -1, -1):
            found = self.lines.get(path[:end])
            if found is not None:
                return found
        return None

    def fault(self, path: PathKey, message: str, value: Any = None) -> InputError:
        """Bad input at ``path``: the message with this file, the line, the field and the
        value (where one is given)."""
        return InputError(
            message,
            file=self.file,
            line=self.line(path),
            field=".".join(str(p) for p in path),
            value=value,
            has_value=value is not None,
        )


MAX_FILE_BYTES = 1_048_576
"""The largest YAML file read (1 MiB); the bundled files are a few kilobytes."""
MAX_VALUES = 20_000
"""The most values (scalars, lists, mappings) a file may hold once its aliases
(``*name``) are expanded (the largest bundled file holds under 800): a few lines of nested
aliases can otherwise stand for billions of values."""
MAX_DEPTH = 64
"""The deepest nesting of lists and mappings, aliases expanded."""
MAX_INT_DIGITS = 30
"""The longest integer read: no count, cave or seed needs more digits."""

_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_STR = "tag:yaml.org,2002:str"


class _Loader(yaml.SafeLoader):
    """The safe loader without YAML 1.1's surprises: ``1:40`` (base 60, read as 100),
    ``0100`` (octal, read as 64), ``0x10``, ``0b111``, ``1_000`` and ``+100`` are text, so
    a field that wants a number refuses them (a number is written in the digits 0-9, a
    minus before it at most, as on the command line)."""


_FAST: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML has it (several times faster), else PyYAML's own."""


class _Composer(_FAST):  # type: ignore[misc]
    """Parses and composes with :data:`_FAST`, resolving scalars as :class:`_Loader`."""


_BYTE_POSITIONS = _FAST is not yaml.SafeLoader
"""libyaml reports the position of a bad character in bytes, PyYAML in characters."""

for _cls in (_Loader, _Composer):
    _cls.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in (_INT, _FLOAT)]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _cls.add_implicit_resolver(  # digits only: 0x10, 0b111, 1_000 and +100 are text
        _INT,
        re.compile(r"^(?:-?0|-?[1-9][0-9]*)$"),
        list("-0123456789"),
    )
    _cls.add_implicit_resolver(
        _FLOAT,
        re.compile(
            r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
            |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$""",
            re.X,
        ),
        list("-+0123456789."),
    )


def _field(path: PathKey) -> str | None:
    return ".".join(str(p) for p in path) or None


_YAML12_BOOLS = ("true", "false")
"""The booleans of YAML 1.2 too: ``true`` stays a boolean (and is refused as one)."""

_NONE = object()
_IMMUTABLE = (int, float, str, bytes, date)  # bool is an int, datetime a date


class _Builder:
    """Turns the parser's events into Python values, noting the line of every key and item:
    the values, lines and errors of PyYAML's composer followed by a walk over its nodes,
    from the one parse :func:`_parse` made (composing again cost more than parsing)."""

    def __init__(self, file: Path, parsed: _Parsed) -> None:
        self.file = file
        self.events = parsed.events
        self.after = parsed.after
        self.anchors = parsed.anchors
        self.lines: dict[PathKey, int] = {}
        self.words: dict[PathKey, str] = {}
        self.constructor: Any = _Loader("")  # one for the document: each is costly to make
        self.tags: dict[tuple[str, Any], str] = {}
        """The tag of each plain value met, as the resolver gives it (many repeat)."""
        self.constructed: dict[tuple[str, str], Any] = {}
        """Each value other than text, as the constructor made it, where it is immutable (a
        number, true, null, a date: one object serves every place it is written)."""

    def scalar(self, event: Any, path: PathKey) -> Any:
        tag = event.tag
        value: str = event.value
        if tag is None or tag == "!":
            key = (value, event.implicit)
            tag = self.tags.get(key)
            if tag is None:
                tag = self.tags[key] = self.constructor.resolve(
                    yaml.ScalarNode, value, event.implicit
                )
        if tag == _STR:  # most values: the text itself, as the constructor gives it
            return value
        if tag == _INT and sum(c.isdigit() for c in value) > MAX_INT_DIGITS:
            shown = value if len(value) <= 40 else value[:20] + "..."
            raise InputError(
                f"a number of {sum(c.isdigit() for c in value):,} digits is too large "
                f"(at most {MAX_INT_DIGITS})",
                file=self.file,
                line=event.start_mark.line + 1,
                field=_field(path),
                value=shown,
                has_value=True,
            )
        found = self.constructed.get((tag, value), _NONE)
        if found is _NONE:
            node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
            try:
                found = self.constructor.construct_object(node)
            except (ValueError, OverflowError, yaml.YAMLError) as exc:
                # A date that does not exist (2025-02-30), a time past the year 9999, a bad
                # !!binary: the constructor's own exception, never a traceback.
                kind = tag.rsplit(":", 1)[-1]
                shown = value if len(value) <= 40 else value[:20] + "..."
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                message = (
                    f"not a date that exists ({reason}); write a day as YYYY-MM-DD, or "
                    "quote the value to keep it as text"
                    if kind == "timestamp"
                    else f"not a valid {kind} ({reason}); quote the value to keep it as text"
                )
                raise InputError(
                    message,
                    file=self.file,
                    line=event.start_mark.line + 1,
                    field=_field(path),
                    value=shown,
                    has_value=True,
                ) from None
            if found is None or isinstance(found, _IMMUTABLE):
                self.constructed[tag, value] = found
        return found

    def walk(self, index: int, path: PathKey) -> Any:
        """The value of the node at ``index`` (an alias: of the node it names)."""
        events = self.events
        event = events[index]
        kind = type(event)
        if kind is yaml.AliasEvent:
            index = self.anchors[event.anchor]
            event = events[index]
            kind = type(event)
        self.lines.setdefault(path, event.start_mark.line + 1)
        if kind is yaml.ScalarEvent:
            value = self.scalar(event, path)
            if (value is True or value is False) and event.value.lower() not in _YAML12_BOOLS:
                self.words[path] = event.value
            return value
        after = self.after
        item = index + 1
        if kind is yaml.SequenceStartEvent:
            items: list[Any] = []
            while type(events[item]) is not yaml.SequenceEndEvent:
                items.append(self.walk(item, (*path, len(items))))
                item = after[item]
            return items
        result: dict[Any, Any] = {}
        while type(events[item]) is not yaml.MappingEndEvent:
            key_event: Any = events[item]
            if type(key_event) is yaml.AliasEvent:
                key_event = events[self.anchors[key_event.anchor or ""]]
            line = key_event.start_mark.line + 1
            if type(key_event) is not yaml.ScalarEvent:
                raise InputError("a mapping key must be a plain value", file=self.file, line=line)
            key = self.scalar(key_event, path)
            if isinstance(key, bool | int):
                # a key YAML read as a boolean or a number (a player "yes", a cave "200", a
                # reading "false"), kept as written: a model that wants text there is given
                # it again
                self.words[(*path, key, "[key]")] = key_event.value
            if key in result:
                raise InputError(f"the key {key!r} appears twice", file=self.file, line=line)
            self.lines[(*path, key)] = line
            value = after[item]
            result[key] = self.walk(value, (*path, key))
            item = after[value]
        return result


def read_mapping(file: Path, what: str) -> Located:
    """Parse ``file``, which must hold a mapping (``what`` names its keys for the message)."""
    doc = read_yaml(file)
    if not isinstance(doc.data, dict):
        raise InputError(f"must be a mapping ({what})", file=file, line=1)
    return doc


def _too_large(size: int, file: Path) -> InputError:
    return InputError(
        f"the file is {size:,} bytes; a YAML file may hold at most "
        f"{MAX_FILE_BYTES:,} bytes (1 MiB)",
        file=file,
    )


def read_yaml(file: Path) -> Located:
    """Parse ``file``; a syntax error becomes an :class:`InputError` with its line.

    Only a regular file of at most :data:`MAX_FILE_BYTES` is read: a device such as
    ``/dev/zero`` or a named pipe would never end.
    """
    try:
        info = file.stat()
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise InputError(f"not a regular file ({kind}); give a YAML file", file=file)
        if info.st_size > MAX_FILE_BYTES:
            raise _too_large(info.st_size, file)
        note_input(info)
        with file.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=file) from None
    if len(raw) > MAX_FILE_BYTES:  # it grew while we looked
        raise _too_large(len(raw), file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            "the file is not UTF-8 text", file=file, line=raw.count(b"\n", 0, exc.start) + 1
        ) from None
    return parse_yaml(text, file)


@dataclass(frozen=True)
class _Parsed:
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
    deepest: int = 0
    """The depth of its deepest child so far (0: no list or mapping inside)."""


class _Scan:
    """The one pass over a document's events that :func:`_parse` makes: each kind of event
    its own step, which notes where the builder will find its way (``after``, ``anchors``)
    and counts what the document expands to."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.events: list[Any] = []
        self.after: dict[int, int] = {}
        self.anchors: dict[str, int] = {}
        """Each anchor of the first document, with the index of its node's first event."""
        self.anchored: dict[str, tuple[int, int]] = {}
        """Each anchor whose node is closed, with its values and depth (aliases expanded)."""
        self.stack: list[_Open] = []
        self.total = 0
        """Values so far in the stream, aliases expanded."""
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

    def run(self, text: str) -> _Parsed:
        parser: Iterator[Any] = yaml.parse(text, Loader=_Composer)
        steps, events = self.steps, self.events
        for index, event in enumerate(parser):
            events.append(event)
            step = steps.get(type(event))
            if step is not None:
                step(index, event)
        if self.refused is not None:
            raise self.refused
        return _Parsed(self.events, self.after, self.anchors, self.root)

    def fail(self, message: str, event: Any) -> InputError:
        mark = event.start_mark
        return InputError(message, file=self.file, line=mark.line + 1 if mark else None)

    def too_many(self, event: Any) -> InputError:
        """The check that follows every step that adds values (a scalar, the start of a list
        or mapping, an alias)."""
        return self.fail(
            f"the document expands to more than {MAX_VALUES:,} values (through its "
            "aliases *name); write the values out, or fewer aliases",
            event,
        )

    def refuse(self, error: yaml.composer.ComposerError) -> None:
        """Keep the composer's error, if it is the first."""
        if self.refused is None:
            self.refused = error

    def count(self, values: int, depth: int) -> None:
        """A node of ``values`` values, ``depth`` deep, in the list or mapping open last."""
        if self.stack:
            top = self.stack[-1]
            top.values += values
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
        self.after[index] = index + 1
        if event.anchor is not None:
            self.anchored[event.anchor] = (1, 0)
            self.name(index, event)
        if self.stack:
            self.stack[-1].values += 1
        if self.total > MAX_VALUES:
            raise self.too_many(event)

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
            self.anchored[closed.anchor] = (closed.values, closed.deepest + 1)
        self.count(closed.values, closed.deepest + 1)

    def alias(self, index: int, event: Any) -> None:
        """``*name`` stands for the whole node it names: its values and its depth."""
        anchor = event.anchor
        if any(open_.anchor == anchor for open_ in self.stack):
            raise self.fail(f"the alias *{anchor} stands inside the node it names", event)
        values, depth = self.anchored.get(anchor or "", (1, 0))  # unknown: refused below
        if len(self.stack) + depth > MAX_DEPTH:
            raise self.fail(
                f"the alias *{anchor} nests values more than {MAX_DEPTH} levels deep", event
            )
        self.total += values
        self.count(values, depth)
        self.after[index] = index + 1
        if self.documents == 1 and anchor not in self.anchors:
            problem = "found undefined alias" + ("" if _BYTE_POSITIONS else f" {anchor!r}")
            self.refuse(yaml.composer.ComposerError(None, None, problem, event.start_mark))
        if self.total > MAX_VALUES:
            raise self.too_many(event)

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


def _parse(text: str, file: Path) -> _Parsed:
    """Parse ``text`` once, into its events.

    Refuse from the events alone a document that would expand (through its aliases) beyond
    :data:`MAX_VALUES` values or :data:`MAX_DEPTH` levels, or whose alias stands inside the
    very node it names: building its values would otherwise run for ages, or recurse until
    Python gives up. Then refuse what PyYAML's composer refuses, with its words and marks
    (a second document, an alias to no anchor, an anchor named twice; the first in the
    document, as the composer meets them)."""
    return _Scan(file).run(text)


def _line_of(text: str, position: int) -> int:
    if _BYTE_POSITIONS:
        return text.encode("utf-8", "surrogatepass")[:position].count(b"\n") + 1
    return text.count("\n", 0, position) + 1


def parse_yaml(text: str, file: Path) -> Located:
    try:
        parsed = _parse(text, file)
    except yaml.reader.ReaderError as exc:
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        what = "a NUL byte" if char == "\0" else f"the control character U+{ord(char):04X}"
        raise InputError(
            f"not valid YAML: the file holds {what}, which YAML does not allow",
            file=file,
            line=_line_of(text, exc.position),
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        raise InputError(
            f"not valid YAML: {problem}", file=file, line=mark.line + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=file) from None
    if parsed.root is None:
        return Located({}, file, {(): 1})
    builder = _Builder(file, parsed)
    try:
        data = builder.walk(parsed.root, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise InputError(
            f"not valid YAML: {exc.problem}", file=file, line=mark.line + 1 if mark else None
        ) from None
    return Located(data, file, builder.lines, builder.words)


@dataclass(frozen=True)
class LocatedFile:
    """A file read with its lines, able to report a fault at any of its fields."""

    doc: Located

    @property
    def file(self) -> Path:
        return self.doc.file

    def check_player(self, name: str, players: Sequence[str], path: PathKey) -> None:
        """Refuse a name that is not one of the players, at its place in the file."""
        if name not in players:
            raise self.fail(
                f"{name!r} is not one of the players ({', '.join(players)})", path, name
            )

    def fail(self, message: str, path: PathKey, value: Any = None) -> InputError:
        return InputError(
            message,
            file=self.doc.file,
            line=self.doc.line(path),
            field=".".join(str(p) for p in path) or None,
            value=value,
            has_value=value is not None,
        )
