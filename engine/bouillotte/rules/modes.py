"""The permissions a written file or folder takes (``writing.py``, the site's build): those
of the file or folder it replaces (a file its owner made private stays private), or the
umask's for a new one.

Only the standard library.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def take_mode(path: Path | str, like: Path, default: int) -> None:
    """Give ``path`` the mode of ``like``, the file or folder it replaces (:func:`mode_of`),
    or ``default`` for a new one. A setgid or setuid bit is kept only with the group (or
    owner) it was set for: that of ``like`` is given too where the system allows it, else
    the bit is dropped (a folder ``2750 root:daemon`` never becomes ``2750 root:root``)."""
    mode = mode_of(like, default)
    special = mode & (stat.S_ISUID | stat.S_ISGID)
    if special:
        try:
            old = os.lstat(like)
            owner = old.st_uid if mode & stat.S_ISUID else -1
            group = old.st_gid if mode & stat.S_ISGID else -1
            os.chown(path, owner, group, follow_symlinks=False)
        except OSError:
            mode &= ~special
    os.chmod(path, mode)


def mode_of(path: Path, default: int) -> int:
    """The permissions of ``path`` as it is, to give the file or folder that replaces it
    (a file its owner made private, 0600, stays private), or ``default`` for a new one."""
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return default


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
