"""``bouillotte golden``: the golden transcripts of the bundled scenario library.

One file per scenario and variant, ``<scenario>__<variant>.txt``, holds the transcript of
that run (see :mod:`bouillotte.study.transcript`). By default the command compares every
transcript with its file and prints a unified diff of each difference; it exits 1 if any
transcript differs or any file is missing or stale. After a deliberate change to the engine,
a profile or a scenario, regenerate the files from the repository root with::

    bouillotte golden --write

(``--dir`` picks another folder; the default is ``tests/golden``), then review the change
with ``git diff tests/golden``.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import InputError, shown
from ...rules.profiles import Library
from ...rules.reading import read_stored_text
from ...rules.writing import Output
from ...study.render import counted
from ...study.scenario import ScenarioLibrary, run_scenario
from ...study.transcript import transcript
from ..options import CsvFile, check_csv_target, command_app, write_csv

DEFAULT_DIR = Path("tests/golden")
SEPARATOR = "__"
TRANSCRIPT_LIMIT = 2**20
"""The largest transcript file compared, in bytes (the bundled ones are about 1 KB): a
larger one is refused at once, where it was read whole and diffed line by line."""


@dataclass(frozen=True)
class Golden:
    """The transcript one scenario gives under one variant, and the file that keeps it."""

    scenario: str
    variant: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.scenario}{SEPARATOR}{self.variant}.txt"


def goldens(
    scenarios: ScenarioLibrary | None = None, library: Library | None = None
) -> Iterator[Golden]:
    """Every scenario of the library under every variant it runs under, in file order."""
    scenarios = scenarios if scenarios is not None else ScenarioLibrary()
    library = library if library is not None else Library()
    for scenario in scenarios.all():
        for vid in scenario.variant_ids(library):
            result = run_scenario(scenario, library.get(vid))
            yield Golden(scenario.id, vid, transcript(result))


def golden_diff(golden: Golden, folder: Path) -> list[str]:
    """The unified diff from the kept file to the current transcript (empty if equal)."""
    path = folder / golden.name
    if not path.is_file():
        return [f"missing golden file {path}"]
    kept = _kept(path)
    if kept == golden.text:
        return []
    return list(
        difflib.unified_diff(
            kept.splitlines(),
            golden.text.splitlines(),
            fromfile=str(path),
            tofile=f"{golden.scenario} under {golden.variant} (now)",
            lineterm="",
        )
    )


def _kept(path: Path) -> str:
    """The transcript kept in ``path``, read as a stored file is (a regular file, not a
    link, of at most :data:`TRANSCRIPT_LIMIT` bytes, UTF-8) and noted as an input: no
    ``--csv`` of this run replaces it."""
    try:
        size = os.lstat(path).st_size
        if size > TRANSCRIPT_LIMIT:
            raise InputError(
                f"holds {size:,} bytes: no transcript (one is a few KB; at most "
                f"{TRANSCRIPT_LIMIT:,} bytes are compared); bouillotte golden --write "
                "replaces it",
                file=path,
            )
        return read_stored_text(path, TRANSCRIPT_LIMIT)
    except FileNotFoundError:  # removed since it was listed
        return ""


def stale_files(expected: set[str], folder: Path) -> list[Path]:
    """Golden files in ``folder`` that no scenario and variant produce any more: a file
    named like one that is not a transcript (``my__notes.txt``) is the user's, never
    reported nor removed."""
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.glob(f"*{SEPARATOR}*.txt")
        if p.is_file() and not p.is_symlink() and p.name not in expected and _is_transcript(p)
    )


def _is_transcript(path: Path) -> bool:
    """Whether ``path`` opens as a transcript does (``scenario: ...``, then ``variant:``)."""
    try:
        with path.open("rb") as file:
            head = file.read(4096)
    except OSError:
        return False
    lines = head.split(b"\n", 2)
    return (
        len(lines) > 2 and lines[0].startswith(b"scenario: ") and lines[1].startswith(b"variant: ")
    )


cli = command_app()


@cli.command("golden")
def golden_command(
    write: Annotated[
        bool,
        typer.Option("--write", help="Regenerate the golden files instead of comparing."),
    ] = False,
    folder: Annotated[
        Path,
        typer.Option("--dir", help="The folder of golden files.", file_okay=False),
    ] = DEFAULT_DIR,
    csv_file: CsvFile = None,
) -> None:
    """Compare (or with --write regenerate) the golden transcripts of every bundled
    scenario under every variant: one file <scenario>__<variant>.txt each.

    Exits 1 if a transcript differs from its file, or a file is missing or stale.

    Example:  bouillotte golden --write   (regenerate after a deliberate change)
    Example:  bouillotte golden --csv -   (a row per transcript: same, differs, missing)
    """
    from ...study.tidy_commands import golden_table

    if write and csv_file is not None:
        raise InputError(
            "--csv reports the comparison: run bouillotte golden --csv without --write"
        )
    check_csv_target(csv_file)
    if not write and not folder.is_dir():
        raise InputError("no such folder of golden transcripts", file=folder)
    found = list(goldens())
    stale = stale_files({g.name for g in found}, folder)
    if write:
        _write(found, stale, folder)
        return
    differing = 0
    rows: list[dict[str, object]] = []
    report = csv_file is None or str(csv_file) != "-"
    for golden in found:
        diff = golden_diff(golden, folder)
        rows.append(_golden_row(golden, diff, folder))
        if diff:
            differing += 1
            if report:
                typer.echo("\n".join(diff))
    for path in stale:
        rows.append({"file": str(path), "state": "stale"})
        if report:
            typer.echo(f"stale golden file {shown(path)} (no such scenario and variant)")
    if csv_file is not None:
        write_csv(csv_file, golden_table(rows))
    typer.echo(
        f"{counted(len(found), 'transcript')}: {differing} "
        f"{'differs or is' if differing == 1 else 'differ or are'} missing, "
        f"{counted(len(stale), 'stale file')}",
        err=True,
    )
    if differing or stale:
        typer.echo("to accept the changes: bouillotte golden --write", err=True)
        raise typer.Exit(1)


def _golden_row(golden: Golden, diff: list[str], folder: Path) -> dict[str, object]:
    """One transcript against its file, as a row of ``golden --csv``."""
    path = folder / golden.name
    row: dict[str, object] = {
        "scenario": golden.scenario,
        "variant": golden.variant,
        "file": str(path),
    }
    if not path.is_file():
        return row | {"state": "missing", "lines_added": len(golden.text.splitlines())}
    body = [line for line in diff if not line.startswith(("+++", "---"))]
    return row | {
        "state": "differs" if diff else "same",
        "lines_added": sum(line.startswith("+") for line in body),
        "lines_removed": sum(line.startswith("-") for line in body),
    }


def _write(found: list[Golden], stale: list[Path], folder: Path) -> None:
    """Write the changed transcripts and remove the stale ones, all together or not at
    all (``rules/writing.py``): a failure leaves every file as it was."""
    changed = 0
    with Output(folder, "own") as out:
        for golden in found:
            path = folder / golden.name
            if not _same(path, golden.text):
                out.add(golden.name, golden.text)
                changed += 1
        for path in stale:
            out.remove(path.name)
    typer.echo(
        f"{counted(len(found), 'transcript')} in {folder}: {changed} written, "
        f"{len(stale)} stale removed",
        err=True,
    )


def _same(path: Path, text: str) -> bool:
    """Whether ``path`` already holds ``text`` (a file too large to be a transcript does
    not: it is replaced)."""
    try:
        return path.is_file() and path.stat().st_size <= TRANSCRIPT_LIMIT and _kept(path) == text
    except InputError:
        return False
