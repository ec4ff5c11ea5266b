"""The checks of what a caller passes to the Python API (``bouillotte.api``): texts and
ids, folders, flags, lists of words and a policy's name, each given back as the API reads
it, or refused with an :class:`~bouillotte.rules.errors.InputError` (a ``UserError``)
that names what was wrong."""

from __future__ import annotations

import functools
import os
import reprlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ParamSpec, TypeVar

from .rules.errors import InputError
from .rules.variant import Variant
from .rules.writing import reason

P = ParamSpec("P")
R = TypeVar("R")

PathLike = str | os.PathLike[str]
Folders = PathLike | Sequence[PathLike] | None
"""A user's folder (or file), several of them, or none (the bundled library alone)."""


def as_text(value: str) -> str:
    """A text given from Python as a plain ``str``: a ``str`` subclass (a ``(str, Enum)``
    member) is its characters, never its ``str()`` ("Sys.FOSTER") nor its own ``__eq__``."""
    return str.__str__(value)


def as_path_text(value: object) -> str | None:
    """The path ``value`` names as a text, or ``None`` for anything but a str or an
    ``os.PathLike`` of one (bytes, a number, ``None``); a text holding NUL, which no path
    holds, is refused (Python's own ``ValueError: embedded null byte`` otherwise)."""
    text = os.fspath(value) if isinstance(value, str | os.PathLike) else None
    if isinstance(text, str) and "\0" in text:
        raise InputError("a path holds no NUL character (\\x00)", value=text[:40], has_value=True)
    return as_text(text) if isinstance(text, str) else None


def refused_in_a_line(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` (one of the API's) with an OS error it meets (a name too long for the
    file system, a folder it may not read) raised as the :class:`InputError` the command
    line would print, naming the file and the reason, never a bare ``OSError``."""

    @functools.wraps(function)
    def refusing(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except OSError as exc:
            name = exc.filename if isinstance(exc.filename, str) else ""
            if len(name) > 80:
                name = f"{name[:40]}... ({len(name):,} characters)"
            raise InputError(f"{name}: {reason(exc)}" if name else reason(exc)) from None

    return refusing


def empty_path(name: str, what: str) -> InputError:
    """``""`` given as a path: it names nothing (``Path("")`` would be the current folder)."""
    return InputError(f"the empty text names no {what}", field=name, value="", has_value=True)


def as_paths(folders: Folders, name: str = "folder") -> list[Path]:
    """The folders (or files) given as ``name``: none, one path or a list of paths."""
    if folders is None:
        return []
    listed: Sequence[object] = folders if isinstance(folders, list | tuple) else [folders]
    texts = [as_path_text(f) for f in listed]
    if None in texts:
        odd = listed[texts.index(None)]
        raise InputError(
            f"a folder is a path (a str or a Path), or a list of them, not {type(odd).__name__}",
            field=name,
        )
    if "" in texts:
        raise empty_path(name, "folder")
    return [Path(t) for t in texts if t is not None]


def as_flag(value: object, name: str) -> bool:
    """A flag given as ``True`` or ``False``, never another value read by its truth
    (``"no"`` is true, ``None`` false)."""
    if not isinstance(value, bool):
        raise InputError(f"{name} must be True or False, not {reprlib.repr(value)}")
    return value


def as_words(values: Sequence[str], name: str) -> list[str]:
    """A list of words given as one (``vary="hands.favori"``): refused, rather than read as
    its letters; and anything but a list or tuple of texts (bytes, a dict, a number)."""
    if isinstance(values, str):
        raise InputError(
            f"{name} must be a list, as [{values!r}], not a word",
            value=values,
            has_value=True,
        )
    if not isinstance(values, list | tuple):
        raise InputError(f"{name} must be a list of texts, not {type(values).__name__}")
    odd = [v for v in values if not isinstance(v, str)][:1]  # None too: [None] is no text
    if odd:
        raise InputError(
            f"{name} must be a list of texts; it holds {type(odd[0]).__name__} {odd[0]!r}"
        )
    return [as_text(v) for v in values]


def as_policy(policy: object) -> str:
    """A policy given by its name (``"simple"``), as a plain ``str`` (:func:`as_text`)."""
    if not isinstance(policy, str):
        raise InputError(f"policy must be a policy's name, as 'simple', not {policy!r}")
    return as_text(policy)


def same_system(system_id: str, one: Variant, other: Variant) -> None:
    """Two systems given under one id must be the same system: never one under the
    other's name."""
    if one != other:
        raise InputError(
            f"two different systems have the id {system_id!r} (from {one.file} and "
            f"{other.file}): give one of them, or rename one"
        )
