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
CHUNK = 2**20
"""The most bytes set aside at once beyond a file's own size, if it grows as it is read."""


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
    try:
        note_input(os.fstat(fd))  # read as input: no output of this run replaces it
        raw = _read_bounded(fd, info.st_size, limit)
    except MemoryError:
        raise InputError(
            f"out of memory reading it ({info.st_size:,} bytes): free some memory, or raise "
            "the limit (ulimit -v), and run the command again",
            file=path,
        ) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", file=path) from None
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise InputError(f"holds more than {limit:,} bytes; at most {limit:,} are read", file=path)
    return raw


def _read_bounded(fd: int, size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``fd``, in pieces no larger than the file's size (as
    ``lstat`` saw it) or :data:`CHUNK`: a buffered ``read(limit + 1)`` sets aside ``limit``
    bytes first, whatever the file holds (256 MiB for each stored result)."""
    pieces: list[bytes] = []
    left = limit + 1
    want = min(size + 1, left)
    while left > 0:
        piece = os.read(fd, min(want, left))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
        want = CHUNK  # the file grew since lstat: on, a bounded piece at a time
    return b"".join(pieces)


def read_stored_text(path: Path, limit: int = STORED_LIMIT) -> str:
    """The UTF-8 text of the stored file ``path`` (:func:`read_regular`)."""
    raw = read_regular(path, limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", file=path) from None
    except MemoryError:
        raise InputError(f"out of memory reading it ({len(raw):,} bytes)", file=path) from None
