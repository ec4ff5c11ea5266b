"""Command-line options and error handling shared by every command."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

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


def friendly(fn: F) -> F:
    """Bad input ends with one clear message and exit status 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            typer.echo(f"error: {exc.describe()}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]
