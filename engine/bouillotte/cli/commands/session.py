"""``bouillotte session FILE``: play a multi-deal session and print the standings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import InputError
from ...rules.nearest import did_you_mean
from ...rules.profiles import Library
from ...study.session import run_session
from ...study.session_file import bundled_sessions, load_session, session_file
from ...study.session_text import session_text
from ...study.tidy_lists import session_deals_table, standings_table
from ..options import CsvFile, JsonFlag, VariantsDirs, check_csv_targets, command_app, write_csvs

cli = command_app()


@cli.command("session")
def session_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A session file (YAML), or the name of a bundled one "
            f"({', '.join(bundled_sessions())})."
        ),
    ],
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Play under this variant (default: the file's)."),
    ] = None,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
    deals_csv: Annotated[
        Path | None,
        typer.Option(
            "--deals-csv",
            metavar="FILE",
            help="Also write each deal to FILE as tidy CSV, a row per deal and player "
            "(docs/data.md); '-' prints it on stdout instead of the report.",
        ),
    ] = None,
) -> None:
    """Play a session: deal after deal, the deal passing round, carried pools and
    rebuys; then the final standings, in exact fractions. --csv gives the standings (a
    row per player, each fraction as numerator, denominator and decimal), --deals-csv
    every deal.

    Example:  bouillotte session pagat-teaching
    Example:  bouillotte session pagat-teaching --csv -
    """
    check_csv_targets(as_json=as_json, csv_file=csv_file, deals_csv=deals_csv)
    file = session_file(file)  # a bundled session's name, whatever the folder holds
    session = load_session(file)
    chosen = variant or session.model.variant
    if chosen is None:
        raise InputError(
            "name a variant with --variant, or write 'variant:' in the file", file=file
        )
    library = Library(variants or [])
    if variant is None and chosen not in library.files:
        raise session.fail(
            f"unknown variant{did_you_mean(chosen, library.ids())}; "
            f"known variants: {', '.join(library.ids())}",
            ("variant",),
            chosen,
        )
    result = run_session(session, library.get(chosen))
    write_csvs(
        [
            (csv_file, lambda: standings_table(result)),
            (deals_csv, lambda: session_deals_table(result)),
        ]
    )
    if "-" in (str(csv_file), str(deals_csv)):
        return
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        typer.echo(session_text(result))
