"""How the preview server (``serve.py``) reaches a file: each one opened once, by
descriptors, from the served folder down, never through a link, and from a folder that
stays in place while a rebuild swaps a new one in.

A request's path is turned into names (:func:`names_of`), then opened one folder at a
time from a descriptor of the served folder, each name without following a link
(:func:`open_beneath`): what is opened is what is served, so a file swapped for a link
between a check and an open (the race of a check by path, then an open by path) is never
followed out of the folder. The served folder itself is opened by its path at each request
and kept open (:class:`ServedRoot`): while a build renames the old folder aside and the new
one in (``output.swap``), a request finds no folder at the path and is served from the one
held, which the build has not yet removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import stat
import threading
from pathlib import Path
from urllib.parse import unquote_to_bytes

FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""How each folder on a path is opened: a link is refused (``ELOOP``), a file too."""

FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""How the file itself is opened: a link is refused; a named pipe does not block."""


class BadPath(ValueError):
    """A request's path that names no file: a NUL byte, bytes that are not UTF-8."""


class NotServed(Exception):
    """No file to serve at the path: absent, a link, or neither a file nor a folder."""


def names_of(target: str) -> tuple[list[str], bool]:
    """The names of ``target`` (a request's path, its query and fragment cut off) below the
    served folder, as ``http.server`` reads them (``..`` and ``.`` taken away, so nothing
    climbs above the folder), and whether it ended with a slash. :class:`BadPath` for a
    path that cannot name a file: a NUL byte, or percent-escapes that are not UTF-8
    (``/%ff`` and ``/%ED%A0%80`` alike)."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    try:
        text = unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise BadPath("the path is not UTF-8") from None
    if "\x00" in text:
        raise BadPath("a NUL byte in the path")
    slash = text.endswith("/")
    names = [n for n in posixpath.normpath("/" + text).split("/") if n not in ("", ".", "..")]
    return names, slash


def _step(folder: int, name: str) -> int:
    """``name`` in the folder ``folder``, opened as a folder without following a link."""
    try:
        return os.open(name, FOLDER, dir_fd=folder)
    except OSError as exc:
        raise NotServed(name) from exc


def open_beneath(root: int, names: list[str]) -> tuple[int, os.stat_result]:
    """The file or folder ``names`` below the folder open as ``root``, opened once, and its
    status (of the descriptor: what is served). Every folder on the way and the last name
    are opened without following a link: a link anywhere on the path, even one leading
    within the folder (a build writes none), is :class:`NotServed`, and so is anything
    that is neither a regular file nor a folder (a named pipe would hold the request for
    ever, a device would answer without end)."""
    fd = os.dup(root)
    try:
        for name in names[:-1]:
            inner = _step(fd, name)
            os.close(fd)
            fd = inner
        if names:
            last = names[-1]
            try:
                found = os.stat(last, dir_fd=fd, follow_symlinks=False)
            except OSError as exc:
                raise NotServed(last) from exc
            if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
                raise NotServed(last)  # a pipe or a device is not even opened
            try:
                inner = os.open(last, FILE, dir_fd=fd)
            except OSError as exc:
                raise NotServed(last) from exc
            os.close(fd)
            fd = inner
        status = os.fstat(fd)
        if not (stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode)):
            raise NotServed(names[-1] if names else ".")
    except BaseException:
        os.close(fd)
        raise
    return fd, status


def index_of(folder: int) -> tuple[int, os.stat_result, str] | None:
    """The ``index.html`` (else ``index.htm``) of the folder open as ``folder``, opened
    as :func:`open_beneath` opens a file, with its name; ``None`` when it has neither.
    :class:`NotServed` when the first one present is not a regular file (a link, even
    to a file of the site, a folder, a pipe): the folder is then not served at all, and
    never listed in its place."""
    for name in ("index.html", "index.htm"):
        try:
            found = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise NotServed(name) from exc
        if not stat.S_ISREG(found.st_mode):
            raise NotServed(name)
        fd, status = open_beneath(folder, [name])
        if not stat.S_ISREG(status.st_mode):
            os.close(fd)
            raise NotServed(name)
        return fd, status, name
    return None


class ServedRoot:
    """The served folder, held open: each request opens it again by its path (a new build
    swapped in is served at once) and, when there is no folder at the path (a build
    between renaming the old one aside and the new one in), is served from the one last
    held, which the build removes only once the new one is in place."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._fd: int | None = None
        self.refresh()

    def refresh(self) -> None:
        """Hold the folder now at the path (following a link: ``--dir`` may be one); keep
        the one held if there is none."""
        try:
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return
        with self._lock:
            old, self._fd = self._fd, fd
        if old is not None:
            os.close(old)  # each request works on its own copy (:meth:`opened`)

    def opened(self) -> int:
        """A descriptor of the folder to serve this request from, the caller's to close."""
        self.refresh()
        with self._lock:
            if self._fd is None:
                raise NotServed(str(self.folder))
            return os.dup(self._fd)

    def stale(self, fd: int) -> bool:
        """Whether the folder open as ``fd`` is no longer the one to serve: another folder
        is at the path (a build swapped a new one in, and may be removing this one), or
        none is and this one was removed (a request between two renames, holding a build
        older than the one being renamed aside). A file not found in it is looked for
        again (:meth:`opened`)."""
        try:
            held = os.fstat(fd)
        except OSError:
            return True
        try:
            now = os.stat(self.folder)
        except OSError:
            return held.st_nlink == 0
        return (held.st_dev, held.st_ino) != (now.st_dev, now.st_ino)

    def close(self) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def listing(folder: int) -> list[tuple[str, bool, bool]]:
    """The entries of the folder open as ``folder``: each name, whether it is a folder and
    whether it is a link (neither is followed)."""
    entries = []
    for name in sorted(os.listdir(folder), key=str.lower):
        try:
            mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                continue
            mode = 0
        entries.append((name, stat.S_ISDIR(mode), stat.S_ISLNK(mode)))
    return entries
