"""``bouillotte differences A B``: a reproducible example deal for every differing rule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import InputError, shown
from ...rules.profiles import Library
from ...study.differences import differences_text, find_differences, save_scenarios
from ..options import (
    CsvFile,
    JsonFlag,
    VariantsDirs,
    check_deals,
    check_tidy_targets,
    command_app,
    print_json,
    write_csv,
)

cli = command_app()


@cli.command("differences")
def differences_command(
    first: Annotated[str, typer.Argument(help="The base variant.")],
    second: Annotated[str, typer.Argument(help="The variant whose rules are tried.")],
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help="Deal i is simulate's deal i of this seed (a misdeal rule's example is that "
            "deal with its first card exposed, and says which).",
        ),
    ] = 0,
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Deals to search (1 to 100,000,000).")
    ] = 2000,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Write each example as a scenario file in this folder."),
    ] = None,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """For each rule on which SECOND differs from FIRST, find the first seeded deal
    whose outcome changes when only that rule is changed in FIRST.

    The deals are played by the simple policy first, then by the seeded random policy for
    a rule the simple policy never reaches (it never straddles); each deal found names the
    policy that played it.

    Example:  bouillotte differences foster pagat --seed 0 --save found/
    Example:  bouillotte differences foster pagat --csv -   (a row per rule and player)
    """
    from ...study.tidy_commands import differences_table

    check_deals(deals)
    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    a, b = library.get(first), library.get(second)
    if a.id == b.id:  # an empty table, read as "no rule differs"
        raise InputError(f"nothing to compare: FIRST and SECOND are both {a.id}; name two systems")
    if a.players != b.players:
        raise InputError(
            f"{a.id} seats {a.players} players and {b.id} {b.players}: "
            "compare variants for the same table"
        )
    if save is not None and save.exists() and not save.is_dir():
        raise InputError("--save must name a folder, not a file", file=save)
    if save is not None and any(
        os.path.realpath(save) == os.path.realpath(f) for f in library.folders
    ):
        raise InputError(  # every *.yaml there is read as a profile, a scenario among them
            "--save is a folder of profiles this command reads: the scenarios saved there "
            "would be read as profiles by every later command; name another folder",
            file=save,
        )
    findings = find_differences(a, b, seed, deals)
    # With --save, a --csv file is written with the scenarios: all of them or none.
    also = (
        [(csv_file, differences_table(findings, a.id, b.id).csv_text())]
        if save is not None and csv_file is not None and str(csv_file) != "-"
        else []
    )
    try:
        written = save_scenarios(findings, a, b, save, also) if save else []
    except OSError as exc:
        raise InputError(f"cannot save there: {exc.strerror or exc}", file=save) from None
    if csv_file is not None:
        if not also:  # else written above, with the scenarios
            write_csv(csv_file, differences_table(findings, a.id, b.id))
        if str(csv_file) == "-":
            for path in written:
                typer.echo(f"saved {shown(path)}", err=True)
            return
    if as_json:
        data = {
            "base": a.id,
            "other": b.id,
            "seed": seed,
            "deals": deals,
            "rules": [f.to_json() for f in findings],
            "saved": [str(p) for p in written],
        }
        print_json(data)
        return
    typer.echo(differences_text(findings, a, b))
    for path in written:
        typer.echo(f"saved {shown(path)}", err=True)
