"""``bouillotte cache info|clear``: the cache folder, what it holds, and emptying it.

Every command that keeps a result (``variants list``'s rows, the site build's odds,
simulations and rule effects) keeps it in one folder (``rules/diskcache.py``), keyed by a
hash of everything the result depends on: a file is never wrong, but old ones are never
read again and nothing else removes them.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated

import typer

from ...rules.diskcache import cache_dir, cache_files
from ...rules.errors import InputError, UserError, shown
from ...rules.writing import absolute, refuse_links_below
from ..options import JsonFlag, command_app, print_json

cli = command_app(
    help="Show the cache folder and what it holds, or empty it.", no_args_is_help=True
)

DAY = 86_400
MAX_DAYS = 36_500
"""The largest ``--older-than`` (a hundred years): a larger number of days cannot be a date."""


def _size(count: int, total: int) -> str:
    amount = f"{total / 1024:,.0f} KiB" if total < 1_048_576 else f"{total / 1_048_576:,.1f} MiB"
    return f"{count:,} file{'' if count == 1 else 's'}, {amount}"


def _folder() -> Path:
    """The cache folder, refused in one line where it names a file (the cache is then
    never used: a command computes everything, and there is nothing to show or clear)."""
    folder = cache_dir()
    first = next((f for f in (folder, *folder.parents) if os.path.lexists(f)), None)
    if first is not None and not first.is_dir():  # the folder, or one it would be made in
        where = "is not a folder" if first == folder else f"cannot be made: {first} is a file"
        raise InputError(
            f"the cache folder {where}: set BOUILLOTTE_CACHE to a folder (or unset "
            "it for the platform's cache folder)",
            file=folder,
        )
    return folder


@cli.command("info")
def cache_info(as_json: JsonFlag = False) -> None:
    """The cache folder ($BOUILLOTTE_CACHE, else the platform's cache folder), and the
    files and bytes it holds.

    Example:  bouillotte cache info
    """
    folder = _folder()
    files = list(cache_files(folder))
    total = sum(info.st_size for _, info in files)
    if as_json:
        print_json({"folder": str(folder), "files": len(files), "bytes": total})
        return
    typer.echo(f"{shown(folder)}: {_size(len(files), total)}")


@cli.command("clear")
def cache_clear(
    older_than: Annotated[
        int | None,
        typer.Option(
            "--older-than",
            metavar="DAYS",
            min=0,
            max=MAX_DAYS,
            help="Delete only the files stored more than DAYS days ago (0 to 36,500).",
        ),
    ] = None,
) -> None:
    """Delete the cached results (every file of bouillotte's in the cache folder, and only
    those): each is computed again when it is next needed, with the same result.

    Example:  bouillotte cache clear --older-than 30
    """
    folder = _folder()
    # Deleting follows no link: a linked cache folder could lead anywhere (one line, exit 2).
    refuse_links_below(absolute(folder), "", folder, doing="delete")
    before = time.time() - (older_than or 0) * DAY
    count = total = 0
    for path, info in cache_files(folder):
        if older_than is not None and info.st_mtime > before:
            continue
        try:
            os.remove(path)
        except FileNotFoundError:  # another process removed it
            continue
        except OSError as exc:
            raise UserError(f"cannot delete {path}: {exc.strerror or exc}") from None
        count += 1
        total += info.st_size
    typer.echo(f"{shown(folder)}: deleted {_size(count, total)}", err=True)
