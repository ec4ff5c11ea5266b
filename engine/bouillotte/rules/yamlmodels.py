"""A YAML document read with its lines (:mod:`.yamlsource`), validated as a pydantic model:
strictly, each fault at its file and line, a key the model lacks named with the keys it
has, and a YAML 1.1 boolean word given back as the text it was written as."""

from __future__ import annotations

from collections.abc import Sequence
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .errors import InputError
from .nearest import did_you_mean
from .yamlsource import Located, PathKey

M = TypeVar("M", bound=BaseModel)


def pydantic_message(error: Any) -> str:
    """Pydantic's message for one error, without its "Value error, " prefix."""
    message = str(error["msg"])
    return message[len("Value error, ") :] if message.startswith("Value error, ") else message


def keys_at(model: type[BaseModel], loc: Sequence[str | int]) -> list[str] | None:
    """The keys a mapping at ``loc`` within a document of ``model`` may have (each field's
    alias or name), or ``None`` if no model stands there."""
    annotation: Any = model
    for part in loc:
        annotation = _model_in(annotation)
        if annotation is None:
            return None
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = {f.alias or name: f for name, f in annotation.model_fields.items()}
            if part not in fields:
                return None
            annotation = fields[part].annotation
        else:  # a list or a mapping: the part is an index or a key
            annotation = get_args(annotation)[-1]
    found = _model_in(annotation)
    if isinstance(found, type) and issubclass(found, BaseModel):
        return [f.alias or name for name, f in found.model_fields.items()]
    return None


def _model_in(annotation: Any) -> Any:
    """A model, list or dict in ``annotation``, through ``X | None``."""
    if get_origin(annotation) in (Union, UnionType):
        inner = [a for a in get_args(annotation) if a is not type(None)]
        return _model_in(inner[0]) if len(inner) == 1 else None
    if get_origin(annotation) in (list, dict):
        return annotation
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def as_written(
    model: type[M], data: Any, doc: Located, at: PathKey = (), *, strict: bool = False
) -> M:
    """Validate ``data``, the value at ``at`` in ``doc``, as ``model``; where the model
    refuses a boolean that YAML 1.1 read from a word (``language: no`` is Norwegian, not
    false; ``yes``, ``on``, ``off``...), the word is given to it again as the text it was
    written as. A field that wants text then has it; any other is refused with the word as
    the value, never ``False``. A :class:`ValidationError` left is raised as it is."""
    tried: set[PathKey] = set()
    while True:
        try:
            return model.model_validate(data, strict=strict)
        except ValidationError as exc:
            again = _words_refused(exc, doc, at, tried)
            if not again:
                raise
            for loc, word in again.items():
                data = _replaced(data, loc, word)
                tried.add((*at, *loc))


def _words_refused(
    exc: ValidationError, doc: Located, at: PathKey, tried: set[PathKey]
) -> dict[PathKey, str]:
    """Each boolean refused by a model that was written as a word, by its place in the data
    (an error's place may go on past the value, into the members of a union it tried)."""
    found: dict[PathKey, str] = {}
    for error in exc.errors():
        loc = tuple(error["loc"])
        key = bool(loc) and loc[-1] == "[key]" and isinstance(error.get("input"), int)
        if not isinstance(error.get("input"), bool) and not key:
            continue
        for end in range(len(loc), -1, -1):
            whole = (*at, *loc[:end])
            if whole in doc.words and whole not in tried:
                found[loc[:end]] = doc.words[whole]
                break
    return found


def _replaced(data: Any, loc: PathKey, value: Any) -> Any:
    """``data`` with the value at ``loc`` replaced (the lists and mappings on the way copied,
    the document itself left as it was read)."""
    if not loc:
        return value
    if len(loc) == 2 and loc[1] == "[key]" and isinstance(data, dict) and loc[0] in data:
        # a key read as a boolean or a number, written again as the word it was
        # (a mapping holds no two keys equal: True and 1 cannot both be in it)
        return {(value if k == loc[0] else k): v for k, v in data.items()}
    head, rest = loc[0], loc[1:]
    if isinstance(data, dict) and head in data:
        return {**data, head: _replaced(data[head], rest, value)}
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data):
        return [*data[:head], _replaced(data[head], rest, value), *data[head + 1 :]]
    return data


def validated(model: type[M], doc: Located) -> M:
    """Validate a whole document; the first error is reported at its file and line.

    Validation is strict: ``true`` is not the number 1, nor ``"10"`` the number 10. A key
    that the model does not have is named with the keys it does have. A YAML 1.1 boolean
    word where the model wants text is the text (:func:`as_written`).
    """
    try:
        return as_written(model, doc.data, doc, strict=True)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error["loc"])
        missing = error["type"] == "missing"
        message = pydantic_message(error)
        keys = keys_at(model, loc[:-1]) if error["type"] == "extra_forbidden" else None
        if keys is not None:
            message = (
                f"unknown key {loc[-1]!r}{did_you_mean(loc[-1], keys)}; "
                f"the keys here are {', '.join(keys)}"
            )
        raise InputError(
            message,
            file=doc.file,
            line=doc.line(loc),
            field=".".join(str(p) for p in loc) or None,
            value=None if missing else error.get("input"),
            has_value=not missing and not isinstance(error.get("input"), dict),
        ) from None
