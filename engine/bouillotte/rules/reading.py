"""Reading a file the tool keeps for itself (a stored result, a stored strategy or band):
only a regular file, never through a link, without waiting, and of a bounded size.

A named pipe where a stored result should be would block ``read()`` for ever (nothing
writes to it); a link could lead anywhere; a huge file would fill the memory. Each is one
:class:`InputError` naming the file, at once. Only the standard library, ``errors.py`` and
``writing.py``: any layer may use it. A file read here is an input of the command
(``writing.note_input``): no output of the command replaces it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import InputError
from .writing import note_input

STORED_LIMIT = 256 * 2**20
"""The largest stored file read, in bytes (the largest stored strategy is about 2 MB)."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes;
    :class:`FileNotFoundError` if there is none, :class:`InputError` for anything else that
    is not a readable regular file."""
    info = os.lstat(path)  # FileNotFoundError: the caller says what a missing file means
    if stat.S_ISLNK(info.st_mode):
        raise InputError(
            "is a link: refusing to read what it leads to (it could lead anywhere); put the "
            "file itself there",
            file=path,
        )
    if not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file (a named pipe, a device or a folder)", file=path)
    if info.st_size > limit:
        raise InputError(f"holds {info.st_size:,} bytes; at most {limit:,} are read", file=path)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", file=path) from None
    with os.fdopen(fd, "rb") as file:
        note_input(os.fstat(file.fileno()))  # read as input: no output of this run replaces it
        raw = file.read(limit + 1)
    if len(raw) > limit:
        raise InputError(f"holds more than {limit:,} bytes", file=path)
    return raw


def read_stored_text(path: Path, limit: int = STORED_LIMIT) -> str:
    """The UTF-8 text of the stored file ``path`` (:func:`read_regular`)."""
    raw = read_regular(path, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", file=path) from None
