"""Command-line options shared by the commands, and the one handler of user errors."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from ..rules.errors import InputError, UserError

VariantsDirs = Annotated[
    list[Path] | None,
    typer.Option(
        "--variants",
        help="A folder of your own profiles, used beside the bundled ones (repeatable).",
        file_okay=False,
    ),
]
ScenarioDirs = Annotated[
    list[Path] | None,
    typer.Option(
        "--scenarios",
        help="A folder or file of your own scenarios, used beside the bundled ones (repeatable).",
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON data on stdout.")]
ReadingOption = Annotated[
    list[str] | None,
    typer.Option(
        "--reading",
        help="Play an ambiguous sentence another way, RULE=VALUE, e.g. "
        "point.suit_tie=eldest-first (repeatable; see `bouillotte readings`): every system "
        "whose rule rests on that sentence plays it.",
    ),
]


_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
"""Control characters (all but newline and tab) and the invisible marks that reorder text:
written raw, a title could move the cursor, recolour or rewrite what the terminal shows."""


def printable(text: str) -> str:
    """``text`` with every control character shown as its escape (``\\u001b``), which is
    also how JSON writes it: a JSON document stays valid and means the same."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _PrintableStream:
    """A text stream that shows control characters as escapes instead of obeying them."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    @property
    def encoding(self) -> str:
        return str(getattr(self._stream, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str | None:
        return getattr(self._stream, "errors", None)

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError("a text stream")
        return self._stream.write(printable(text))

    def write_raw(self, text: str) -> int:
        """For the tool's own control characters (a progress bar's carriage return)."""
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def command_app(**settings: Any) -> typer.Typer:
    """The Typer application of one command module: plain Click help (no Rich, which
    would cost more start-up time than the rest of ``--help``), no completion options
    and no pretty tracebacks (bad input never shows one)."""
    return typer.Typer(
        rich_markup_mode=None, add_completion=False, pretty_exceptions_enable=False, **settings
    )


def print_json(data: Any) -> None:
    """``data`` as indented JSON with sorted keys on stdout."""
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def complete_variant(incomplete: str) -> list[str]:
    """Shell completion of a variant id."""
    from ..rules.profiles import Library

    try:
        return [v for v in Library().ids() if v.startswith(incomplete)]
    except InputError:
        return []


def complete_scenario(incomplete: str) -> list[str]:
    """Shell completion of a scenario id."""
    from ..study.scenario import ScenarioLibrary

    try:
        return [s.id for s in ScenarioLibrary().all() if s.id.startswith(incomplete)]
    except InputError:
        return []


@contextmanager
def user_errors() -> Iterator[None]:
    """The one handler of everything a user can cause, around every command: bad input
    (:class:`~bouillotte.rules.errors.UserError` and its kinds) ends with one clear line
    on stderr and exit status 2, never a traceback; Ctrl-C ends at once with status 130;
    what the command prints cannot drive the terminal."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = _PrintableStream(out)
    sys.stderr = _PrintableStream(err)
    try:
        yield
    except UserError as exc:
        typer.echo(f"error: {exc.describe()}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(INTERRUPTED) from None
    finally:
        sys.stdout, sys.stderr = out, err
