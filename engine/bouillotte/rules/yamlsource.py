"""YAML reading that remembers where every value stands, for error messages."""

from __future__ import annotations

import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .writing import note_input
from .yamlscan import MAX_CHARACTERS as MAX_CHARACTERS
from .yamlscan import MAX_DEPTH as MAX_DEPTH
from .yamlscan import MAX_VALUES as MAX_VALUES
from .yamlscan import Parsed, parse_events

PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Located:
    """A parsed YAML document with the line (1-based) of every key and item."""

    data: Any
    file: Path
    lines: dict[PathKey, int] = field(default_factory=dict)
    words: dict[PathKey, str] = field(default_factory=dict)
    """The text of each value YAML 1.1 reads as a boolean from a word that YAML 1.2 reads as
    text (``no``, ``yes``, ``on``, ``off``, any case), and of each whole number, as it is
    written: given back where a model wants text (:func:`as_written`), or one of its words
    (a rank written ``10``). A key read as a boolean or a number is at ``(*path, key,
    "[key]")``; a mapping may not hold it beside the same word as text (``9`` and ``"9"``)."""

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
MAX_INT_DIGITS = 30
"""The longest integer read: no count, cave or seed needs more digits."""

_YAML_TAG = "tag:yaml.org,2002:"
_INT = _YAML_TAG + "int"
_FLOAT = _YAML_TAG + "float"
_STR = _YAML_TAG + "str"
_MERGE = _YAML_TAG + "merge"
_VALUE_TAGS = frozenset(
    _YAML_TAG + kind for kind in ("str", "int", "float", "bool", "null", "timestamp", "binary")
)
"""The tags a single value may be given (``!!int 5``): those of YAML's own kinds of value."""
_OWN_TAGS = {yaml.SequenceStartEvent: _YAML_TAG + "seq", yaml.MappingStartEvent: _YAML_TAG + "map"}
"""The one tag a list (``!!seq``) or a mapping (``!!map``) may be given: its own kind's.
PyYAML would make a set of ``!!set {a, b}``, ``[]`` of ``!!seq D``, and a mapping tagged
``!!str`` or ``!!python/...`` is read here as a mapping: each is refused, never ignored."""


class _Loader(yaml.SafeLoader):
    """The safe loader without YAML 1.1's surprises: ``1:40`` (base 60, read as 100),
    ``0100`` (octal, read as 64), ``0x10``, ``0b111``, ``1_000`` and ``+100`` are text, so
    a field that wants a number refuses them (a number is written in the digits 0-9, a
    minus before it at most, as on the command line). ``<<`` is text too: a merge key
    (``<<: *name``) is refused where it stands (:meth:`_Builder.walk`)."""


_FAST: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML has it (several times faster), else PyYAML's own."""


class _Composer(_FAST):  # type: ignore[misc]
    """Parses and composes with :data:`_FAST`, resolving scalars as :class:`_Loader`."""


_BYTE_POSITIONS = _FAST is not yaml.SafeLoader
"""libyaml reports the position of a bad character in bytes, PyYAML in characters."""

_WRITTEN = {
    _INT: re.compile(r"^(?:-?0|-?[1-9][0-9]*)$"),  # digits only: 0x10, 1_000, +100 are text
    _FLOAT: re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
        |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
}
"""How a number is written to be read as one, whether plain (``100``) or tagged (``!!int
100``): a tag does not let in what a plain value may not be (``!!int "0x10"``, read as 16,
``!!int "1:40"``, read as 100)."""

for _cls in (_Loader, _Composer):
    _cls.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in (_INT, _FLOAT, _MERGE)]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _cls.add_implicit_resolver(_INT, _WRITTEN[_INT], list("-0123456789"))
    _cls.add_implicit_resolver(_FLOAT, _WRITTEN[_FLOAT], list("-+0123456789."))


def _field(path: PathKey) -> str | None:
    return ".".join(str(p) for p in path) or None


def _tag_name(tag: str) -> str:
    """A tag as a file writes it: ``!!int`` for YAML's own, ``!mine`` for others."""
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


def _shortened(value: str) -> str:
    """A value as a message shows it: its first 20 characters, where it has more than 40."""
    return value if len(value) <= 40 else value[:20] + "..."


_YAML12_BOOLS = ("true", "false")
"""The booleans of YAML 1.2 too: ``true`` stays a boolean (and is refused as one)."""

_NONE = object()
_IMMUTABLE = (int, float, str, bytes, date)  # bool is an int, datetime a date


class _Builder:
    """Turns the parser's events into Python values, noting the line of every key and item:
    the values, lines and errors of PyYAML's composer followed by a walk over its nodes,
    from the one parse :func:`~.yamlscan.parse_events` made (composing again cost more than
    parsing)."""

    def __init__(self, file: Path, parsed: Parsed) -> None:
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

    def fail(self, message: str, event: Any, path: PathKey, value: str | None = None) -> InputError:
        """Bad input at ``event``'s line, the field ``path`` (with the value written)."""
        return InputError(
            message,
            file=self.file,
            line=event.start_mark.line + 1,
            field=_field(path),
            value=None if value is None else _shortened(value),
            has_value=value is not None,
        )

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
        elif tag not in _VALUE_TAGS:
            raise self.fail(
                f"the YAML tag {_tag_name(tag)} does not fit a single value (a value may be "
                "tagged !!str, !!int, !!float, !!bool, !!null, !!timestamp or !!binary); "
                "remove the tag",
                event,
                path,
                value,
            )
        if tag == _STR:  # most values: the text itself, as the constructor gives it
            return value
        if tag == _INT and sum(c.isdigit() for c in value) > MAX_INT_DIGITS:
            raise self.fail(
                f"a number of {sum(c.isdigit() for c in value):,} digits is too large "
                f"(at most {MAX_INT_DIGITS})",
                event,
                path,
                value,
            )
        found = self.constructed.get((tag, value), _NONE)
        if found is _NONE:
            node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
            try:
                found = self.constructor.construct_object(node)
            except Exception as exc:
                # A date that does not exist (2025-02-30), a time past the year 9999, a bad
                # !!binary; and a value its explicit tag cannot make, on which PyYAML's
                # constructors fail in their own ways (!!bool 1: KeyError, !!timestamp foo:
                # AttributeError, !!int "": IndexError).
                raise self.unmade(tag, exc, event, path) from None
            if found is None or isinstance(found, _IMMUTABLE):
                self.constructed[tag, value] = found
        written = _WRITTEN.get(tag)  # read by YAML 1.1's rules, but no number here
        if written is not None and event.tag == tag and not written.match(value):
            how = (
                "in the digits 0-9, a minus before it at most"
                if tag == _INT
                else "with a decimal point (2.5, -0.25, 1.0e+3)"
            )
            raise self.fail(
                f"{_tag_name(tag)} {value!r} is not a number as this tool reads one: write it "
                f"{how} (YAML 1.1's 0x10, 0100, 1:40, 1_000 and +100 are not read as numbers)",
                event,
                path,
                value,
            )
        return found

    def unmade(self, tag: str, exc: Exception, event: Any, path: PathKey) -> InputError:
        """The value at ``event`` that the constructor of ``tag`` could not make."""
        kind = tag.rsplit(":", 1)[-1]
        said = isinstance(exc, ValueError | OverflowError | yaml.YAMLError) and str(exc)
        reason = f" ({str(exc).splitlines()[0]})" if said else ""
        if kind != "timestamp":
            message = f"not a valid {kind}{reason}; quote the value to keep it as text"
        elif said:  # the constructor read a day, which does not exist
            message = (
                f"not a date that exists{reason}; write a day as YYYY-MM-DD, or quote the "
                "value to keep it as text"
            )
        else:
            message = "not a date; write a day as YYYY-MM-DD, or quote the value to keep it as text"
        return self.fail(message, event, path, event.value)

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
            if value is True or value is False:
                if event.value.lower() not in _YAML12_BOOLS:
                    self.words[path] = event.value
            elif type(value) is int:  # a rank written 10 is the rank "10" (a Literal's text)
                self.words[path] = event.value
            return value
        tag = event.tag
        if tag is not None and tag != "!" and tag != _OWN_TAGS[kind]:
            what = "a list" if kind is yaml.SequenceStartEvent else "a mapping"
            raise self.fail(
                f"the YAML tag {_tag_name(tag)} does not fit {what} (a list may be tagged "
                "!!seq, a mapping !!map, and nothing else); remove the tag",
                event,
                path,
            )
        after = self.after
        item = index + 1
        if kind is yaml.SequenceStartEvent:
            items: list[Any] = []
            while type(events[item]) is not yaml.SequenceEndEvent:
                items.append(self.walk(item, (*path, len(items))))
                item = after[item]
            return items
        result: dict[Any, Any] = {}
        others: dict[Any, str] | None = None  # keys read as other than text, as written
        numbers: set[str] | None = None  # the words of those read as numbers or booleans
        while type(events[item]) is not yaml.MappingEndEvent:
            key_event: Any = events[item]
            if type(key_event) is yaml.AliasEvent:
                key_event = events[self.anchors[key_event.anchor or ""]]
            line = key_event.start_mark.line + 1
            if type(key_event) is not yaml.ScalarEvent:
                raise InputError("a mapping key must be a plain value", file=self.file, line=line)
            written: str = key_event.value
            if written == "<<" and key_event.tag is None and key_event.implicit[0]:
                raise self.fail(
                    "merge keys (<<: *name) are not read; write the keys out",
                    key_event,
                    (*path, "<<"),
                )
            key = self.scalar(key_event, path)
            if not isinstance(key, str | int):  # pydantic named it 'None', at line 1
                raise self.fail(
                    f"the key {written or '(empty)'} is read as {_key_kind(key)}, which no key "
                    f"can be: give the key a name (in quotes, '{written}', to keep it as text)",
                    key_event,
                    path,
                )
            if (key is True or key is False) and written.lower() not in _YAML12_BOOLS:
                key = written  # yes, no, on, off: the word (players "yes" and "on" are two)
            if type(key) is str:
                if key in result or (numbers is not None and key in numbers):  # "9" beside 9
                    raise InputError(f"the key {key!r} appears twice", file=self.file, line=line)
            else:
                others = {} if others is None else others
                if key in others:  # the same value: 9 twice, or true and 1, 1.0 and 1.00
                    first = others[key]
                    raise (
                        InputError(f"the key {written} appears twice", file=self.file, line=line)
                        if first == written
                        else self.fail(
                            f"the keys {first!r} and {written!r} are read as one key; quote "
                            "them to keep them apart",
                            key_event,
                            path,
                        )
                    )
                others[key] = written
                if isinstance(key, bool | int):
                    # a key YAML read as a boolean or a number (a cave "200", a reading
                    # "false"), kept as written: a model that wants text is given it again
                    if written in result:  # 9 beside "9"
                        raise InputError(
                            f"the key {written} appears twice", file=self.file, line=line
                        )
                    self.words[(*path, key, "[key]")] = written
                    numbers = set() if numbers is None else numbers
                    numbers.add(written)
                    self.lines[(*path, written)] = line  # its line once it is the word
            self.lines[(*path, key)] = line
            value = after[item]
            result[key] = self.walk(value, (*path, key))
            item = after[value]
        return result


def _key_kind(key: object) -> str:
    """What YAML read a key as that no file's key can be (``~``, ``1.5``, ``2024-01-01``)."""
    if key is None:
        return "null, no name at all"
    if isinstance(key, float):
        return "a number with a point"
    return "a date" if isinstance(key, date) else "a value of another kind"


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


def _line_of(text: str, position: int) -> int:
    if _BYTE_POSITIONS:
        return text.encode("utf-8", "surrogatepass")[:position].count(b"\n") + 1
    return text.count("\n", 0, position) + 1


_HINTS = (
    ("tab", "YAML indents with spaces, never tabs: replace the tab by spaces"),
    (
        "cannot start any token",
        "a tab, where YAML indents with spaces only; or a value starting with @ or ` that "
        "needs quotes",
    ),
    (
        "mapping values are not allowed",
        "a key is indented more or less than the keys beside it, here or on the line above; "
        "or a value holds ': ' and needs quotes",
    ),
    ("expected key", "a line is indented more or less than the keys beside it, here or above"),
    ("expected ':'", "a key is missing its ':', or a line is indented as if it were one"),
)
"""What a newcomer's file most often holds where PyYAML's words say only what it met."""


def _hint(problem: str) -> str:
    """Where PyYAML's ``problem`` comes from, in a newcomer's words (`` (...)``), or ""."""
    return next((f" ({hint})" for words, hint in _HINTS if words in problem), "")


def parse_yaml(text: str, file: Path) -> Located:
    try:
        parsed = parse_events(text, file, _Composer, _BYTE_POSITIONS)
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
            f"not valid YAML: {problem}{_hint(problem)}",
            file=file,
            line=mark.line + 1 if mark else None,
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
