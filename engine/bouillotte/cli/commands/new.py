"""``bouillotte new DIR``: a working folder for an editor's own systems and site."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import shown
from ..options import command_app
from ..scaffold import scaffold

cli = command_app()


@cli.command("new")
def new_command(
    folder: Annotated[
        Path,
        typer.Argument(help="The folder to make (new, or empty).", metavar="DIR", file_okay=False),
    ],
) -> None:
    """Make a working folder for your own systems and site: a profile, its source and text,
    a scenario, a site configuration and a theme, with a README of what to run.

    Example:  bouillotte new my-bouillotte && cd my-bouillotte && cat README.md
    """
    written = scaffold(folder)  # whole or not at all; every refusal is one line
    for path in written:
        typer.echo(f"wrote {shown(path)}", err=True)
    # Quoted for the shell, as a reader copies it ('my site', 'x;rm -rf ~'); './' before a
    # name that starts with '-', which cd would read as an option ('cd -' goes back).
    folder_name = f"./{folder}" if str(folder).startswith("-") else str(folder)
    typer.echo(
        f"next: cd {shown(shlex.quote(folder_name))} and follow README.md "
        "(bouillotte check --variants variants scenarios)",
        err=True,
    )
