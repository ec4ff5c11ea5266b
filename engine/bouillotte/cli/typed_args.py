"""What a command's arguments are read as, before Click reads them (``WordsCommand`` in
``options.py``): each whole number written as one (:data:`WHOLE_NUMBER`) and within its
option's bounds, an option that holds one value given once, no empty name for a path, a
file named ``-`` kept a file; and Click's own refusals with each long value cut."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from ..rules.errors import MAX_PATH_SHOWN, InputError, cut_within, ends
from ..rules.idtext import escaped

WHOLE_NUMBER = re.compile(r"0|-?[1-9][0-9]{0,19}")
"""How a whole number is typed on the command line: ASCII digits, a minus at most, at most
20 digits (any count, seed or port this tool takes has fewer), without a leading zero
(``00005``, ``-0``), as ``--vary`` and a policy's tendencies read one: each number has one
way of being written."""
WHOLE_NUMBER_WORDS = (
    "write it in the digits 0-9 (a minus before it at most, no sign, space, underscore or "
    "other digit, at most 20 digits), without a leading zero"
)
"""What :data:`WHOLE_NUMBER` takes, in the words of a message."""


def whole_number_refusal(value: str) -> str:
    """Why ``value`` is no whole number as :data:`WHOLE_NUMBER` reads one; one written with
    a leading zero (``00005``) or as ``-0`` is told how to write it (``write '5'``)."""
    if re.fullmatch(r"-?[0-9]{1,20}", value):
        without = "a minus" if value == "-0" else "a leading zero"
        return (
            f"{_shown_value(value)} is not a whole number as written: write "
            f"{str(int(value))!r}, without {without}"
        )
    return f"{_shown_value(value)} is not a whole number: {WHOLE_NUMBER_WORDS}"


def _options_given(params: Sequence[Any], args: list[str]) -> Iterator[tuple[Any, str, str | None]]:
    """Each option written in ``args``: its parameter, the name written and its value
    (``None`` for a flag), as Click will read them: ``--deals 5``, ``--deals=5``, ``-n5``,
    a cluster of short options (``-qn10``: ``-q``, then ``-n`` with ``10``); a value is never
    read as an option (``--csv -n5x`` names a file). Arguments are skipped; ``--`` ends."""
    return ((p, n, v) for p, n, v in _read(params, args) if p is not None)


def _arguments_given(params: Sequence[Any], args: list[str]) -> Iterator[str]:
    """Each argument written in ``args`` (a scenario, a folder), as Click will read them:
    what no option takes, and everything after ``--``."""
    return (v for p, _, v in _read(params, args) if p is None and v is not None)


def _read(params: Sequence[Any], args: list[str]) -> Iterator[tuple[Any, str, str | None]]:
    """Each option of ``args`` (:func:`_options_given`) and each argument, the latter with
    the parameter ``None``."""
    options = {
        name: param
        for param in params
        if getattr(param, "param_type_name", "") == "option"
        for name in (*param.opts, *param.secondary_opts)
    }
    position = 0
    while position < len(args):
        token = args[position]
        position += 1
        if token == "--":
            yield from ((None, "", rest) for rest in args[position:])
            return
        name, equals, value = token.partition("=")
        if name.startswith("--") and name in options:
            param = options[name]
            if _takes_a_value(param) and not equals and position < len(args):
                value = args[position]
                position += 1
            yield param, name, value if _takes_a_value(param) else None
        elif token.startswith("-") and not token.startswith("--") and len(token) > 1:
            for i, letter in enumerate(token[1:], start=1):  # -n 10, -n10, -qn10
                param = options.get(f"-{letter}")
                if param is None:
                    break
                if not _takes_a_value(param):
                    yield param, f"-{letter}", None
                    continue
                value = token[i + 1 :]
                if value == "" and position < len(args):
                    value = args[position]
                    position += 1
                yield param, f"-{letter}", value
                break
        elif not token.startswith("-") or token == "-":
            yield None, "", token


def _takes_a_value(param: Any) -> bool:
    return not getattr(param, "is_flag", False) and not getattr(param, "count", False)


def _check_whole_numbers(given: Sequence[tuple[Any, str, str | None]]) -> None:
    """Each value given to an option that takes a whole number (``--deals``, ``--seed``,
    ``--port``...), written as :data:`WHOLE_NUMBER` says: Python's ``int()``, under Typer,
    would read ``1_000``, ``+10``, `` 10`` and ``١٠`` as numbers, and a 4,000-digit seed.
    One :class:`typer.BadParameter` names the option and the value."""
    for param, _, value in given:
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        if annotation not in (int, int | None) or value is None:
            continue
        if not WHOLE_NUMBER.fullmatch(value):
            raise typer.BadParameter(whole_number_refusal(value), param=param)
        _check_range(param, int(value))


def _check_range(param: Any, value: int) -> None:
    """A whole number within its option's bounds (``min=``, ``max=`` where it is declared),
    refused in the words of every other bound (``--deals must be at least 1 (value: 0)``):
    the option, the bound and the value."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
    if low is not None and value < low:
        raise InputError(f"{name} must be at least {low:,}", value=value, has_value=True)
    if high is not None and value > high:
        raise InputError(f"{name} must be at most {high:,}", value=value, has_value=True)


@contextmanager
def _messages_cut() -> Iterator[None]:
    """Click's own refusal of what was typed (``No such option: --xxx...``, ``Got unexpected
    extra argument(s) (...)``) with each long value cut as every message cuts one
    (:func:`~bouillotte.rules.errors.cut_within`): a 100,000-character word was echoed
    whole."""
    try:
        yield
    except typer.TyperException as exc:
        if type(exc).__name__ != "NoArgsIsHelpError":  # its message is the help, shown whole
            exc.message = cut_within(exc.message)
        raise


def _shown_value(value: str) -> str:
    """``value`` quoted and escaped, whole up to ``errors.MAX_PATH_SHOWN`` characters (a
    path's end is the point: two --csv files told apart, the '/' that ends one), else its
    beginning and end."""
    if len(value) <= MAX_PATH_SHOWN:
        return f"'{escaped(value)}'"
    return f"'{escaped(ends(value))}' ({len(value):,} characters)"


def _check_no_empty_path(given: Sequence[tuple[Any, str, str | None]]) -> None:
    """A file or folder option is not given an empty name: ``pathlib`` reads ``''`` as
    ``.``, so ``--out ''`` wrote into the current folder and ``--variants ''`` read it;
    nor a file option a folder's name (``--csv out/``)."""
    for param, _, value in given:
        if value is not None and value == "" and _names_a_path(param):
            raise typer.BadParameter(
                "an empty name is no file or folder: give one (or leave the option out)",
                param=param,
            )
        if value and value.endswith("/") and getattr(param, "metavar", None) == "FILE":
            raise typer.BadParameter(  # pathlib drops the '/': --csv out/ wrote a file 'out'
                f"{_shown_value(value)} ends with '/', as a folder's name does: give a file",
                param=param,
            )


def _names_a_path(param: Any) -> bool:
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    return annotation is Path or Path in getattr(annotation, "__args__", ())


def _check_given_once(given: Sequence[tuple[Any, str, str | None]]) -> None:
    """An option that holds one value is given once: Click keeps the last and drops the
    others without a word (``--seed 1 --seed 2`` ran seed 2, ``-v foster -v pagat`` of a
    one-system command played pagat), so a second is refused, naming both."""
    first: dict[int, tuple[str, str | None]] = {}
    for param, name, value in given:
        if getattr(param, "multiple", False) or getattr(param, "count", False):
            continue
        if id(param) not in first:
            first[id(param)] = (name, value)
            continue
        before, earlier = first[id(param)]
        what = (
            ""
            if value is None or earlier is None
            else (f" ({_shown_value(earlier)} and {_shown_value(value)})")
        )
        names = "" if before == name else f" (as {before}, then as {name})"
        raise typer.BadParameter(
            f"given twice{names}{what}; it holds one value: give it once", param=param
        )


def _dash_named_as_a_path(params: Sequence[Any], args: list[str]) -> list[str]:
    """``args`` with a file named ``-`` written as a path (``./-``, ``x/../-``) made
    absolute: Click reads it as a path, which ``pathlib`` shortens to ``-``, the word for
    stdout, so ``--csv ./-`` printed the table instead of writing the file."""
    paths = {
        name
        for param in params
        if getattr(param, "param_type_name", "") == "option" and _names_a_path(param)
        for name in param.opts
    }
    out = list(args)
    for i, token in enumerate(out):
        if token == "--":
            break
        name, equals, value = token.partition("=")
        if equals and name in paths and _a_dash_path(value):
            out[i] = f"{name}={os.path.abspath(value)}"
        elif i > 0 and out[i - 1] in paths and _a_dash_path(token) and args[i - 1] == out[i - 1]:
            out[i] = os.path.abspath(token)
    return out


def _a_dash_path(value: str) -> bool:
    return value != "-" and str(Path(value)) == "-"
