"""Command-line options shared by the commands, and the one handler of user errors."""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from typer.core import TyperCommand, TyperGroup

from ..rules.errors import InputError, UserError, cut, cut_within
from ..rules.idtext import HIDDEN_MARKS, REORDERING_MARKS, as_escape
from ..rules.interrupts import StoppedAfterWriting
from ..rules.together import Together
from ..rules.writing import check_target_file, is_null_device, reason, stage_file, write_file
from ..study.tidy import TidyTable
from .streams import WrappedStream
from .typed_args import WHOLE_NUMBER as WHOLE_NUMBER  # read from here by strong_bands.py
from .typed_args import (
    _arguments_given,
    _check_given_once,
    _check_no_empty_path,
    _check_whole_numbers,
    _dash_named_as_a_path,
    _messages_cut,
    _options_given,
)

_IDS = re.compile(r"[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*)*")
"""A value of ``--variants`` that reads as variant ids rather than a path."""


def _profile_folders(ctx: typer.Context, folders: list[Path] | None) -> list[Path] | None:
    """``--variants`` is always a folder: a value that is none is refused in one line, and
    one written like ids (``foster,pagat``, as ``compare --variants`` once took them) is
    told how to choose systems instead, where the command can; a folder with no ``.yaml``
    file in it is named in a note, since it changes nothing."""
    for folder in folders or []:
        if not folder.exists():
            choose = any("-v" in getattr(p, "opts", ()) for p in ctx.command.params)
            like_ids = _IDS.fullmatch(str(folder)) is not None
            ids = str(folder).split(",")
            hint = f"; to choose systems use {' '.join(f'-v {i}' for i in ids)}"
            hint = hint if choose and like_ids else ""
            raise InputError(
                f"no such folder: --variants takes a folder of profiles{hint}", file=folder
            )
        if folder.is_dir() and not any(folder.glob("*.yaml")):
            typer.echo(
                f"note: --variants {folder}: the folder holds no .yaml file, so it adds no "
                "profile (a profile is a file <id>.yaml)",
                err=True,
            )
    return folders


VariantsDirs = Annotated[
    list[Path] | None,
    typer.Option(
        "--variants",
        help="A folder of your own profiles, used beside the bundled ones (repeatable).",
        file_okay=False,
        metavar="DIR",
        callback=_profile_folders,
    ),
]
ScenarioDirs = Annotated[
    list[Path] | None,
    typer.Option(
        "--scenarios",
        help="A folder or file of your own scenarios, used beside the bundled ones (repeatable).",
        metavar="PATH",
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON data on stdout.")]
CsvFile = Annotated[
    Path | None,
    typer.Option(
        "--csv",
        metavar="FILE",
        help="Also write the figures to FILE as tidy CSV (one observation per row, typed "
        "columns; docs/data.md); '-' prints the CSV on stdout instead of the report.",
    ),
]
ReadingOption = Annotated[
    list[str] | None,
    typer.Option(
        "--reading",
        metavar="RULE=VALUE",
        help="Play an ambiguous sentence another way, RULE=VALUE, e.g. "
        "point.suit_tie=eldest-first (repeatable; see `bouillotte readings`): every system "
        "whose rule rests on that sentence plays it.",
    ),
]


_UNPRINTABLE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{REORDERING_MARKS}{HIDDEN_MARKS}]")
"""Control characters (all but newline and tab), the invisible marks that reorder text and
those that show nothing (``idtext.HIDDEN_MARKS``): written raw, a title could move the
cursor, recolour or rewrite what the terminal shows, or read as another."""


def printable(text: str) -> str:
    """``text`` with every control character shown as its escape (``\\u001b``), which is
    also how JSON writes it: a JSON document stays valid and means the same."""
    return _UNPRINTABLE.sub(as_escape, text)


class _PrintableStream(WrappedStream):
    """A text stream that shows control characters as escapes instead of obeying them."""

    _stream: TextIO

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)

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


def check_deals(deals: int) -> None:
    """``--deals`` between 1 and :data:`MAX_DEALS` (``study/workers.py``: the one bound of
    every run, the Python API's too)."""
    from ..study.workers import check_deals as checked

    checked(deals, "--deals")


_TYPE_LABEL = re.compile(r" <[^>]*>")
"""The type Typer shows beside an argument's name (``SCENARIO <str>``)."""
_REQUIRED = re.compile(r"^\{(.*)\}")
"""The braces Typer puts round a required argument in the usage line."""

METAVARS = {
    "scenario": "SCENARIO",
    "paths": "PATH",
    "variant": "SYSTEM",
    "variant_id": "SYSTEM",
    "first": "FIRST",
    "second": "SECOND",
    "base": "BASE",
    "towards": "SYSTEM",
    "kind": "KIND",
    "file": "FILE",
    "seed": "N",
    "deals": "N",
    "jobs": "N",
    "port": "N",
    "save": "DIR",
    "dir": "DIR",
    "out": "DIR",
    "config": "FILE",
    "csv_file": "FILE",
    "folder": "DIR",
    "policy": "POLICY",
    "vary": "RULE",
    "cluster": "ADDRESS",
}
"""The word for a parameter's value in ``--help``, by the parameter's name, where its
declaration gives none (tests/test_cli.py checks that every parameter has one)."""


def _examples_unwrapped(text: str | None) -> str | None:
    """``text`` with each paragraph of examples marked for Click not to rewrap it (its
    ``\b`` marker), so that each example stays on its own line."""
    if not text:
        return text
    paragraphs = text.split("\n\n")
    return "\n\n".join(
        f"\b\n{p}" if p.lstrip().startswith(("Example", "Start with")) else p for p in paragraphs
    )


class WordsCommand(TyperCommand):
    """A command whose help speaks in words: each parameter by its metavar (``SCENARIO``,
    ``SYSTEM``, ``N``, ``DIR``: given where it is declared, else :data:`METAVARS`'s word
    for its name), never a Python type
    (``<int>``, ``<list[str]>``) nor a required argument in braces (``{scenario}``); its
    examples each on its own line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["help"] = _examples_unwrapped(kwargs.get("help"))
        for param in kwargs.get("params") or ():
            if param.metavar is None and not getattr(param, "is_flag", False):
                param.metavar = METAVARS.get(param.name or "")
        super().__init__(*args, **kwargs)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [_REQUIRED.sub(r"\1", piece) for piece in super().collect_usage_pieces(ctx)]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with _messages_cut():
            return self._parse_args(ctx, args)

    def _parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        given = list(_options_given(self.params, args))
        _check_whole_numbers(given)
        _check_given_once(given)
        _check_no_empty_path(given)
        if "" in _arguments_given(self.params, args):  # pathlib reads '' as '.'
            named = [
                str(a.metavar or a.name).upper()
                for a in self.params
                if getattr(a, "param_type_name", "") == "argument"
            ]
            raise typer.BadParameter(
                "it is empty: an empty name is no file, folder, scenario or system; give one",
                ctx=ctx,
                param_hint=" or ".join(named) or "an argument",
            )
        return super().parse_args(ctx, _dash_named_as_a_path(self.params, args))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                name, text = record
                kind = "Arguments" if param.param_type_name == "argument" else "Options"
                sections[kind].append((_TYPE_LABEL.sub("", name), text))
        for title, rows in sections.items():
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class WordsGroup(TyperGroup):
    """A group of commands (``strong``, ``site``...) whose refusal of what was typed (``No
    such command 'xxx...'``) shows a long value cut, as every message does."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with _messages_cut():
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        with _messages_cut():
            return super().resolve_command(ctx, args)


class _WordsApp(typer.Typer):
    """A Typer application whose commands are :class:`WordsCommand` unless told."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or WordsCommand, **kwargs)


def command_app(**settings: Any) -> typer.Typer:
    """The Typer application of one command module: plain Click help (no Rich, which
    would cost more start-up time than the rest of ``--help``) in words
    (:class:`WordsCommand`), no completion options and no pretty tracebacks (bad input
    never shows one)."""
    settings.setdefault("cls", WordsGroup)
    return _WordsApp(
        rich_markup_mode=None, add_completion=False, pretty_exceptions_enable=False, **settings
    )


def check_csv_target(path: Path | None) -> None:
    """Refuse a ``--csv`` file now rather than after a long run: no folder, a named pipe
    (the write would wait for a reader), a device, a link."""
    if path is not None and str(path) != "-":
        check_target_file(path, "the CSV file")


def check_csv_targets(*, as_json: bool = False, **targets: Path | None) -> None:
    """Refuse each CSV file now (:func:`check_csv_target`), and two options that name the
    same file (the second table would silently replace the first) or both ``-`` (two
    tables with different columns on stdout, which no CSV reader can read), or one ``-``
    with ``--json`` (``as_json``), which prints on stdout too. ``targets``: each option's
    name (``csv_file`` for ``--csv``) and its value."""
    seen: dict[str, str] = {}
    for name, path in targets.items():
        if path is None:
            continue
        check_csv_target(path)
        option = "--" + name.removesuffix("_file").replace("_", "-")
        if as_json and str(path) == "-":
            raise UserError(f"--json and {option} -: both print on stdout; give {option} a file")
        same = "-" if str(path) == "-" else os.path.realpath(path)
        if is_null_device(Path(same)):
            continue  # any number of tables may be discarded
        if same == "-" and same in seen:
            raise UserError(
                f"{seen[same]} and {option} are both '-': two tables with different columns "
                "on stdout, which no CSV reader can read; give one of them a file"
            )
        if same in seen:
            raise UserError(
                f"{seen[same]} and {option} name the same file, {path}: "
                "each table needs a file of its own"
            )
        seen[same] = option


def write_csvs(tables: Sequence[tuple[Path | None, Callable[[], TidyTable]]]) -> None:
    """A command's tables (each its ``--csv``-like option's value and how to make it), the
    files all written or none (``rules/writing.stage_file``): a failure on the second (a
    full disk, the file-size limit) leaves the first as it was. ``-`` prints on stdout."""
    with Together() as stack:
        for path, make in tables:
            if path is None:
                continue
            if str(path) == "-":
                typer.echo(make().csv_text(), nl=False)
            else:
                stage_file(stack, path, make().csv_text(), "the CSV file")


def write_csv(path: Path, table: TidyTable) -> None:
    """A tidy table to ``--csv FILE``, through the one writer (whole or not at all), or
    on stdout for ``-``."""
    if str(path) == "-":
        typer.echo(table.csv_text(), nl=False)
    else:
        write_file(path, table.csv_text(), "the CSV file")


TidyJsonFlag = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print the figures on stdout as JSON instead of the report: the rows --csv "
        "writes, an array of objects (docs/data.md).",
    ),
]
"""``--json`` of a command whose figures are one tidy table (``strong``'s)."""


def check_tidy_targets(csv_file: Path | None, as_json: bool) -> None:
    """Refuse ``--csv`` now (:func:`check_csv_target`), and ``--json`` with ``--csv -``:
    both would print on stdout."""
    check_csv_targets(as_json=as_json, csv_file=csv_file)


def report_wanted(csv_file: Path | None, as_json: bool) -> bool:
    """Whether the report's own lines go on stdout (not when JSON or ``--csv -`` do)."""
    return not as_json and (csv_file is None or str(csv_file) != "-")


def write_tidy(
    csv_file: Path | None, as_json: bool, table: TidyTable, stack: ExitStack | None = None
) -> None:
    """The figures as JSON on stdout (``--json``) and, to ``--csv FILE``, as tidy CSV; with
    ``stack``, the file is put in place when it closes, with the command's other outputs
    staged on it (a stored strategy): all or none."""
    if as_json:
        typer.echo(table.json_text(), nl=False)
    if csv_file is None:
        return
    if stack is None or str(csv_file) == "-":
        write_csv(csv_file, table)
    else:
        stage_file(stack, csv_file, table.csv_text(), "the CSV file")


def print_json(data: Any) -> None:
    """``data`` as indented JSON with sorted keys on stdout: standard JSON, so a number
    that is not finite fails here rather than print ``Infinity`` (every JSON reader but
    Python's refuses it)."""
    typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False))


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


def os_error_line(exc: OSError) -> str:
    """An OS error no command turned into a :class:`UserError`, as one line: the file it
    concerns, then the reason (``File too large``, ``No space left on device``); imports
    nothing (with no file descriptor left, an import would fail again)."""
    if exc.errno == errno.ENOENT:
        try:
            os.getcwd()
        except FileNotFoundError:
            return (
                "the current folder no longer exists (it was deleted or moved): cd to a "
                "folder that exists and run the command again"
            )
    if exc.filename is None:
        return cut_within(reason(exc))
    return f"{cut(str(exc.filename))}: {cut_within(reason(exc))}"


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
    except RuntimeError as exc:
        if not str(exc).startswith("Symlink loop"):
            raise
        # Path.resolve() on a loop of links (a folder linked to itself), wherever it is
        where = str(exc).partition(" from ")[2].strip("'")
        typer.echo(f"error: {where}: a link that leads back to itself (a loop of links)", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:  # what no command foresaw: a file, a folder, the system itself
        typer.echo(f"error: {os_error_line(exc)}", err=True)
        raise typer.Exit(2) from None
    except StoppedAfterWriting as exc:  # the files are written: the command's word, exit 0
        typer.echo(exc.said(), err=True)
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(INTERRUPTED) from None
    except MemoryError:  # a limit lower than the work (ulimit -v, a container's)
        typer.echo(
            "error: out of memory: free some memory, or raise the limit (ulimit -v), and run again",
            err=True,
        )
        raise typer.Exit(2) from None
    finally:
        sys.stdout, sys.stderr = out, err
