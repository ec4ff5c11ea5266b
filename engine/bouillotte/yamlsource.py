"""YAML reading that remembers where every value stands, for error messages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from .errors import InputError

PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Located:
    """A parsed YAML document with the line (1-based) of every key and item."""

    data: Any
    file: Path
    lines: dict[PathKey, int] = field(default_factory=dict)

    def line(self, path: PathKey) -> int | None:
        """The line of ``path`` or, failing that, of its nearest ancestor."""
        for end in range(len(path), -1, -1):
            found = self.lines.get(path[:end])
            if found is not None:
                return found
        return None


class _Loader(yaml.SafeLoader):
    pass


def _walk(node: yaml.Node, path: PathKey, lines: dict[PathKey, int], file: Path) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _Loader("").construct_object(key_node)
            if isinstance(key, list | dict):
                raise InputError(
                    "a mapping key must be a plain value",
                    file=file,
                    line=key_node.start_mark.line + 1,
                )
            if key in result:
                raise InputError(
                    f"the key {key!r} appears twice",
                    file=file,
                    line=key_node.start_mark.line + 1,
                )
            lines[(*path, key)] = key_node.start_mark.line + 1
            result[key] = _walk(value_node, (*path, key), lines, file)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_walk(item, (*path, i), lines, file) for i, item in enumerate(node.value)]
    return _Loader("").construct_object(node)


def read_mapping(file: Path, what: str) -> Located:
    """Parse ``file``, which must hold a mapping (``what`` names its keys for the message)."""
    doc = read_yaml(file)
    if not isinstance(doc.data, dict):
        raise InputError(f"must be a mapping ({what})", file=file, line=1)
    return doc


def read_yaml(file: Path) -> Located:
    """Parse ``file``; a syntax error becomes an :class:`InputError` with its line."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", file=file) from None
    except UnicodeDecodeError:
        raise InputError("the file is not UTF-8 text", file=file) from None
    return parse_yaml(text, file)


def parse_yaml(text: str, file: Path) -> Located:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        raise InputError(
            f"not valid YAML: {problem}", file=file, line=mark.line + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=file) from None
    if node is None:
        return Located({}, file, {(): 1})
    lines: dict[PathKey, int] = {}
    try:
        data = _walk(node, (), lines, file)
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise InputError(
            f"not valid YAML: {exc.problem}", file=file, line=mark.line + 1 if mark else None
        ) from None
    return Located(data, file, lines)


M = TypeVar("M", bound=BaseModel)


def pydantic_message(error: Any) -> str:
    """Pydantic's message for one error, without its "Value error, " prefix."""
    message = str(error["msg"])
    return message[len("Value error, ") :] if message.startswith("Value error, ") else message


def validated(model: type[M], doc: Located) -> M:
    """Validate a whole document; the first error is reported at its file and line."""
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error["loc"])
        missing = error["type"] == "missing"
        raise InputError(
            pydantic_message(error),
            file=doc.file,
            line=doc.line(loc),
            field=".".join(str(p) for p in loc) or None,
            value=None if missing else error.get("input"),
            has_value=not missing and not isinstance(error.get("input"), dict),
        ) from None


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
