"""``bouillotte schema``: the JSON Schema of profile and scenario files."""

from __future__ import annotations

from typing import Annotated

import typer

from ...rules.errors import InputError
from ..options import command_app, print_json

cli = command_app()


@cli.command("schema")
def schema_command(
    kind: Annotated[
        str, typer.Argument(help="'profile' or 'scenario'.", show_default=True)
    ] = "profile",
) -> None:
    """Print the JSON Schema of profile or scenario files, for editors.

    Example:  bouillotte schema profile > profile.schema.json
    """
    from ...study.schema import profile_schema, scenario_schema

    if kind not in ("profile", "scenario"):
        raise InputError("the schema is 'profile' or 'scenario'", value=kind, has_value=True)
    print_json(profile_schema() if kind == "profile" else scenario_schema())
