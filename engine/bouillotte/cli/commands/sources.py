"""``bouillotte sources``: every source on a time axis, and the sources of each rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ...rules.bibliography import LANGUAGE_NAMES, citation_text
from ...rules.history import build_history
from ...rules.profiles import Library
from ...rules.variant import value_text
from ...study.render import table
from ..options import CsvFile, JsonFlag, VariantsDirs, check_csv_targets, command_app, write_csvs

cli = command_app()


@cli.command("sources")
def sources_command(
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
    statements_csv: Annotated[
        Path | None,
        typer.Option(
            "--statements-csv",
            metavar="FILE",
            help="Also write each rule's sources to FILE as tidy CSV, a row per rule and "
            "work stating it (docs/data.md); '-' prints it on stdout instead of the report.",
        ),
    ] = None,
) -> None:
    """Every source by date (language, place, kind) with its citation; then, for each
    rule, the sources that state it, oldest first, with the value each gives; then the
    meanings of the word "favori" through time. The same as the site's History page.
    --csv gives the sources (a row per work), --statements-csv the rules' sources.

    Example:  bouillotte sources --json
    Example:  bouillotte sources --csv sources.csv --statements-csv statements.csv
    """
    from ...site.tidydata import history_json
    from ...study.tidy_lists import sources_table, statements_table

    check_csv_targets(as_json=as_json, csv_file=csv_file, statements_csv=statements_csv)
    library = Library(variants or [])
    history = build_history(library)
    data = history_json(library)
    write_csvs(
        [(csv_file, lambda: sources_table(data)), (statements_csv, lambda: statements_table(data))]
    )
    if "-" in (str(csv_file), str(statements_csv)):
        return
    if as_json:
        typer.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return
    rows = [
        [
            s.work.year,
            LANGUAGE_NAMES.get(s.work.language, s.work.language),
            s.work.place or "-",
            s.work.kind,
            s.id,
        ]
        for s in history.sources
    ]
    typer.echo("Sources, oldest first (undated modern works last)")
    typer.echo(table(["date", "language", "place", "kind", "work"], rows))
    typer.echo("")
    for s in history.sources:
        typer.echo(f"  {s.id}: {citation_text(s.work)}")
    typer.echo("")
    typer.echo("Each rule and the sources that state it, oldest first")
    for path, statements in history.rules.items():
        typer.echo(path)
        for st in statements:
            where = f"{st.source.id} ({st.source.work.year})"
            typer.echo(f"  {where}: {value_text(st.value)}  [{st.status}; cited in {st.variant}]")
    for word in history.words:
        typer.echo("")
        typer.echo(f"The word {word.word!r} through time ({word.rule})")
        for m in word.meanings:
            date = history.source(m.source).work.year
            value = "no rule value" if m.value is None else value_text(m.value)
            typer.echo(f"  {date} {m.source}: {m.meaning} [{value}]")
            typer.echo(f'    "{m.quote}"' + (f" [{m.translation}]" if m.translation else ""))
