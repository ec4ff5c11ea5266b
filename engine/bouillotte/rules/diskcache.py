"""The user's cache folder, and a result stored in it whole or not at all.

The folder is ``$BOUILLOTTE_CACHE``, else the platform's cache folder for ``bouillotte``
(platformdirs: ``$XDG_CACHE_HOME/bouillotte`` or ``~/.cache/bouillotte`` on Linux,
``~/Library/Caches/bouillotte`` on macOS, ``%LOCALAPPDATA%\\bouillotte\\Cache`` on Windows);
deleting it is always safe, and ``bouillotte cache clear`` deletes what it holds
(:func:`cache_files`). Whoever stores a result there keys it
by a hash of everything the result depends on (:func:`content_digest`), so that reading it
back can never change what a command prints; a folder that is missing, unreadable or
read-only only costs the time. (The site build's cache, ``site/cache.py``, keeps its results
in the same folder.)

A cache folder is a place other processes can write (``$BOUILLOTTE_CACHE`` may be under
``/tmp``), so a cache file can be wrong but never harmful: nothing is ever unpickled or
executed from it, and a file is used only if :func:`load` finds it a regular file of the
user's own, within its size bound, sealed by the digest of its own content; its reader then
checks its shape (``rules/listing.py``, ``site/cache.py``). Anything else is ignored and
computed again.

This module imports nothing beyond the standard library, platformdirs and ``errors`` (a few
milliseconds): ``bouillotte variants list`` reads its cached rows through it before anything
else is loaded.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import suppress
from importlib.util import find_spec
from pathlib import Path

from platformdirs import user_cache_path

from .errors import InputError


def cache_dir() -> Path:
    """``$BOUILLOTTE_CACHE``, else the platform's cache folder for ``bouillotte`` (on Linux
    ``$XDG_CACHE_HOME/bouillotte``, else ``~/.cache/bouillotte``). Set but empty, it counts
    as unset, as an empty ``XDG_CACHE_HOME`` does (the XDG rule): ``BOUILLOTTE_CACHE= cmd``
    is how a shell unsets it for one command."""
    given = os.environ.get("BOUILLOTTE_CACHE", "")
    if not given:
        return user_cache_path("bouillotte", appauthor=False)
    if not os.path.isabs(given) or given != given.strip():
        # a relative one (the XDG rule ignores it) would put a cache in every folder a
        # command runs from; " " named a folder of one space
        raise InputError(
            "BOUILLOTTE_CACHE must be the absolute path of a folder, with no space around "
            "it (BOUILLOTTE_CACHE=$HOME/.cache/bouillotte), or unset",
            value=given,
            has_value=True,
        )
    return Path(given)


def cache_files(folder: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """Every file of ours in ``folder``, with its status: a regular file of the user's own
    whose first bytes are :data:`HEADER` (a sealed result, or one cut short while it was
    written). Nothing else is ours to delete: ``$BOUILLOTTE_CACHE`` may name a folder the
    user shares with other programs, such as ``/tmp``."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    for path in entries:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, ValueError):
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
                continue
            if os.read(fd, len(HEADER)) == HEADER.encode():
                yield path, info
        except OSError:
            continue
        finally:
            os.close(fd)


HEADER = "bouillotte-cache 1 sha256="
"""The first line of every cache file, followed by the digest of what comes after it."""


def content_digest(*parts: str | bytes) -> str:
    """The SHA-256 of ``parts``, each taken whole (a NUL between them, so that no two
    different lists give the same bytes): the one content hash of every cache, used both to
    name a result's file from its inputs and to seal the file's content."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


def seal(path: Path, payload: str) -> str:
    """``payload`` as a cache file at ``path`` holds it: a header line with the digest of
    the file's name and of the payload, then the payload."""
    return f"{HEADER}{content_digest(path.name, payload)}\n{payload}"


def load(path: Path, limit: int) -> str | None:
    """The payload stored at ``path`` by :func:`store`, or ``None`` where there is none or it
    cannot be trusted: missing or unreadable; not a regular file (a link, a folder, a pipe,
    a device); larger than ``limit`` bytes (its size is read before a byte of it); owned by
    another user or writable by others (another user may have put it there); not UTF-8; or
    not the content its digest seals (damaged, edited, or copied from another file's name).
    A result that is ``None`` is computed again: a cache can be wrong, never harmful."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_size > limit + len(HEADER) + 65
            or info.st_uid != os.geteuid()
            or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        ):
            return None
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + len(HEADER) + 66)
        text = data.decode("utf-8")
    except (OSError, ValueError):  # unreadable, not UTF-8
        return None
    finally:
        os.close(fd)
    header, newline, payload = text.partition("\n")
    if not newline or len(payload.encode()) > limit:
        return None
    if header != f"{HEADER}{content_digest(path.name, payload)}":
        return None
    return payload


def store(path: Path, payload: str) -> None:
    """Write ``payload``, sealed (:func:`seal`), to ``path`` whole or not at all (a file
    written beside it, then renamed), in a folder only its owner may enter; where the
    folder cannot be written, store nothing: the result is the same, only computed again
    next time. The file beside it has a name no other process can guess and is made new
    (``O_EXCL``): whatever is already there (a named pipe planted in a shared folder such
    as ``/tmp``, a link) is never opened, and the result is then just not stored."""
    partial = path.parent / f".{path.name}.{os.urandom(8).hex()}.tmp"
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(partial, flags, 0o600)
    except (OSError, ValueError):
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            stream.write(seal(path, payload))
        partial.replace(path)
    except (OSError, ValueError):
        with suppress(OSError):
            partial.unlink()  # ours: made new above


LIBRARIES = ("pydantic", "yaml")
"""The libraries whose code reads and validates the files (their version is part of a key)."""
VERSION_FILES = {"pydantic": "version.py", "yaml": "__init__.py"}
"""The file of each library that states its version (read as bytes, without importing it)."""


def code_digest(*layers: str) -> str:
    """A hash of the code that computes a result: every file of the named layers of the
    package (``rules``, ...; the source, or whatever a compiled install holds), the Python
    that runs it and the version files of :data:`LIBRARIES`, found without importing them."""
    parts: list[str | bytes] = [sys.version]
    package = Path(__file__).resolve().parent.parent
    for layer in layers:
        for path in sorted((package / layer).rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            parts.extend((path.relative_to(package).as_posix(), path.read_bytes()))
    for library in LIBRARIES:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        parts.append(library)
        if origin is not None:
            parts.append((Path(origin).parent / VERSION_FILES[library]).read_bytes())
    return content_digest(*parts)
