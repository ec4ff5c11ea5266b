"""A YAML document read with its lines (:mod:`.yamlsource`), validated as a pydantic model:
strictly, each fault at its file and line, a key the model lacks named with the keys it
has, and a YAML 1.1 boolean word given back as the text it was written as."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from enum import Enum
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from .errors import InputError
from .nearest import did_you_mean
from .yamlsource import Located, PathKey

M = TypeVar("M", bound=BaseModel)


_MAPPING = "Input should be a mapping"
_IN_WORDS = {
    "dict_type": _MAPPING,
    "model_type": _MAPPING,
    "model_attributes_type": _MAPPING,
    "dataclass_type": _MAPPING,
    "tuple_type": "Input should be a list",
    "is_instance_of": "Input should be a value of another kind",
    "is_subclass_of": "Input should be a value of another kind",
}
"""Pydantic's messages that name a Python class or type ("a valid dictionary or instance of
SourceRef"), in the words of a YAML file."""
_BOOL_WORDS = frozenset(("true", "false", "yes", "no", "on", "off"))


def pydantic_message(error: Any) -> str:
    """Pydantic's message for one error, without its "Value error, " prefix, and in the
    words of a YAML file where pydantic's would name a Python class (:data:`_IN_WORDS`)."""
    kind = error["type"]
    if kind in _IN_WORDS:
        return _IN_WORDS[kind]
    value = error.get("input")
    if kind == "bool_type" and isinstance(value, str) and value.lower() in _BOOL_WORDS:
        return f'Input should be true or false, unquoted ("{value}" in quotes is text)'
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        return f'Input should be text: write it in quotes ("{value}") to keep it as written'
    if kind == "string_type" and isinstance(value, dict | list):
        what = "a mapping" if isinstance(value, dict) else "a list"
        return f"Input should be one text (a word, or words in quotes), not {what}"
    message = str(error["msg"])
    return message[len("Value error, ") :] if message.startswith("Value error, ") else message


@dataclass(frozen=True)
class Refusal:
    """A model's first error, as a message shows it: the place (a union's own field, never one
    of its forms), the words, and the value where there is one to show."""

    loc: tuple[str | int, ...]
    message: str
    value: Any
    has_value: bool


def refusal(model: type[BaseModel], exc: ValidationError) -> Refusal:
    """The first error of validating ``model``, in words: a value of none of a union's forms
    (``int | Literal["players-option"]``) is refused at the union's field with every form it
    takes, where pydantic gives one error per form at ``field.int``, ``field.literal[...]``;
    a value where a model wants a mapping is shown the keys of the mapping wanted."""
    errors = exc.errors()
    error = errors[0]
    loc = tuple(error["loc"])
    if loc and loc[-1] == "[key]":  # the key itself is at fault: the field names it
        loc = loc[:-1]
    union = _union_at(model, loc)
    if union is not None:
        at, forms = union
        # the value is the input of an error at a form itself (deeper ones hold a part of it)
        at_form = [e for e in errors if len(e["loc"]) == at + 1 and e["loc"][:at] == loc[:at]]
        value = at_form[0].get("input") if at_form else None
        choices = [w for f in forms for w in _choices(f)]
        return Refusal(
            loc[:at],
            f"takes {in_words(forms)}" + did_you_mean(value, choices),
            value,
            value is not None and not isinstance(value, dict | list),
        )
    message = pydantic_message(error)
    if message == _MAPPING:
        message += _mapping_example(model_at(model, loc))
    missing = error["type"] == "missing"
    value = None if missing else error.get("input")
    return Refusal(
        loc, message, value, not missing and "input" in error and not isinstance(value, dict)
    )


def _mapping_example(model: type[BaseModel] | None) -> str:
    """The mapping ``model`` wants, as its file writes it: ``, as in {work: ..., locator: ...}``
    (every key of a small model, else those required), or ``(its keys: ...)``."""
    if model is None:
        return ""
    fields = [(f.alias or name, f.is_required()) for name, f in model.model_fields.items()]
    shown = [k for k, _ in fields] if len(fields) <= 4 else [k for k, req in fields if req]
    if not shown:
        return f" (its keys: {', '.join(k for k, _ in fields)})"
    more = ", ..." if len(shown) < len(fields) else ""
    return ", as in {" + ", ".join(f"{k}: ..." for k in shown) + more + "}"


def _bare(annotation: Any) -> Any:
    """``annotation`` without ``Annotated[...]``'s constraints."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _forms(annotation: Any) -> list[Any]:
    """The forms of a union (``None`` among them, as ``NoneType``), else ``[annotation]``."""
    annotation = _bare(annotation)
    if get_origin(annotation) in (Union, UnionType):
        return [_bare(a) for a in get_args(annotation)]
    return [annotation]


def _union_at(model: type[BaseModel], loc: Sequence[str | int]) -> tuple[int, list[Any]] | None:
    """Where ``loc`` (an error's place in a document of ``model``) passes a union of two or
    more forms besides ``None``: the index in ``loc`` of the form pydantic names there, and
    the union's forms; ``None`` if it passes none."""
    annotation: Any = model
    for index, part in enumerate(loc):
        forms = _forms(annotation)
        real = [f for f in forms if f is not NoneType]
        if len(real) >= 2:
            return index, forms
        annotation = real[0] if real else None
        origin = get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            fields = {f.alias or name: f for name, f in annotation.model_fields.items()}
            if part not in fields:
                return None
            annotation = fields[str(part)].annotation
        elif origin in (list, tuple, set, frozenset) and get_args(annotation):
            annotation = get_args(annotation)[0]
        elif origin is dict and loc[index + 1 : index + 2] != ("[key]",):
            annotation = get_args(annotation)[-1]
        else:
            return None
    return None


def _value_text(value: Any) -> str:
    """A value of a ``Literal`` as a YAML file writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value.value if isinstance(value, Enum) else value)


def _choices(form: Any) -> list[str]:
    """The words a form allows (a ``Literal``'s, a ``StrEnum``'s), for "did you mean"."""
    if get_origin(form) is Literal:
        return [v for v in get_args(form) if isinstance(v, str)]
    if isinstance(form, type) and issubclass(form, Enum):
        return [str(m.value) for m in form]
    return []


def _form_words(form: Any) -> list[str]:
    """What a form of a union takes, in words (never a Python type)."""
    kinds: list[tuple[Any, str]] = [
        (NoneType, "nothing (null)"),
        (bool, "true or false"),
        (int, "a whole number"),
        (float, "a number"),
        (str, "text"),
        (date, "a day (YYYY-MM-DD)"),
    ]
    for kind, words in kinds:
        if form is kind:
            return [words]
    if get_origin(form) is Literal:
        return [_value_text(v) for v in get_args(form)]
    if isinstance(form, type) and issubclass(form, Enum):
        return [_value_text(m) for m in form]
    if (isinstance(form, type) and issubclass(form, BaseModel)) or get_origin(form) is dict:
        return ["a mapping"]
    if get_origin(form) in (list, tuple, set, frozenset):
        return ["a list"]
    return ["a value of another kind"]


def in_words(annotation: Any) -> str:
    """What a type takes, in a file's words, never Python's: ``a whole number or
    players-option`` for ``int | Literal["players-option"]`` (a list of forms: each of
    them)."""
    forms = annotation if isinstance(annotation, list) else _forms(annotation)
    words = [w for f in forms for w in _form_words(f)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def model_at(model: type[BaseModel], loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The model of the mapping at ``loc`` within a document of ``model``, or ``None`` if no
    model stands there."""
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
    return found if isinstance(found, type) and issubclass(found, BaseModel) else None


def keys_at(model: type[BaseModel], loc: Sequence[str | int]) -> list[str] | None:
    """The keys a mapping at ``loc`` within a document of ``model`` may have (each field's
    alias or name), or ``None`` if no model stands there."""
    found = model_at(model, loc)
    return None if found is None else [f.alias or name for name, f in found.model_fields.items()]


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
    false; ``yes``, ``on``, ``off``...), or a number where it wants one of its words (a rank
    written ``10``, a key ``9:``), the word is given to it again as the text it was written
    as. A field that wants text then has it; any other is refused with the word as the value,
    never ``False``. A :class:`ValidationError` left is raised as it is."""
    tried: set[PathKey] = set()
    while True:
        try:
            return model.model_validate(data, strict=strict)
        except ValidationError as exc:
            found = [word_refused(e, tuple(e["loc"]), doc, at, tried) for e in exc.errors()]
            again = dict(f for f in found if f is not None)
            if not again:
                raise
            for loc, word in again.items():
                data = replaced(data, loc, word)
                tried.add((*at, *loc))


_CHOICES = ("literal_error", "enum")
"""The errors of a value that is not one of a field's words (``Literal``, ``StrEnum``)."""


def word_refused(
    error: Any, loc: PathKey, doc: Located, at: PathKey, tried: set[PathKey]
) -> tuple[PathKey, str] | None:
    """Where a model refused a value YAML read from a word that the model may take as
    written (a boolean from ``no``; a number where the model wants one of its words; a key
    read as a boolean or a number), the place within the data (``loc``, the error's place
    from ``at``, which may go on past the value, into the members of a union it tried) and
    the word; ``None`` for any other error, or one whose word was ``tried`` already."""
    value = error.get("input")
    if not isinstance(value, int):
        return None
    keyed = bool(loc) and loc[-1] == "[key]"
    if not (isinstance(value, bool) or keyed or error["type"] in _CHOICES):
        return None
    for end in range(len(loc), -1, -1):
        whole = (*at, *loc[:end])
        if whole in doc.words and whole not in tried:
            return loc[:end], doc.words[whole]
    return None


def replaced(data: Any, loc: PathKey, value: Any) -> Any:
    """``data`` with the value at ``loc`` replaced (the lists and mappings on the way copied,
    the document itself left as it was read)."""
    if not loc:
        return value
    if len(loc) == 2 and loc[1] == "[key]" and isinstance(data, dict) and loc[0] in data:
        # a key read as a boolean or a number, written again as the word it was (the
        # reader refuses a mapping that holds it beside the same word as text: 9 and "9")
        return {(value if k == loc[0] else k): v for k, v in data.items()}
    head, rest = loc[0], loc[1:]
    if isinstance(data, dict) and head in data:
        return {**data, head: replaced(data[head], rest, value)}
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data):
        return [*data[:head], replaced(data[head], rest, value), *data[head + 1 :]]
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
        raise refused(model, exc, doc) from None


def refused(
    model: type[BaseModel], exc: ValidationError, doc: Located, at: PathKey = ()
) -> InputError:
    """The first error of validating ``model`` (the value at ``at`` in ``doc``) as bad input
    at its file and line (:func:`refusal`); a key the model does not have is named with the
    keys it does have."""
    found = refusal(model, exc)
    loc = (*at, *found.loc)
    message = found.message
    keys = keys_at(model, found.loc[:-1]) if exc.errors()[0]["type"] == "extra_forbidden" else None
    if keys is not None and found.loc:
        message = (
            f"unknown key {loc[-1]!r}{did_you_mean(loc[-1], keys)}; "
            f"the keys here are {', '.join(keys)}"
        )
    return InputError(
        message,
        file=doc.file,
        line=doc.line(loc),
        field=".".join(str(p) for p in loc) or None,
        value=found.value,
        has_value=found.has_value,
    )
