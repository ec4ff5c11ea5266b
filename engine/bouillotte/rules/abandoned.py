"""What a writer killed outright leaves behind (SIGKILL, the OOM killer): its temporary
files, removed by a later writer into the same folder once they are surely abandoned
(``rules/writing.py`` calls :func:`remove_abandoned` for each folder it writes in)."""

from __future__ import annotations

import os
import re
import stat
import time
from contextlib import suppress
from pathlib import Path

ABANDONED_AFTER = 3600.0
"""Seconds after which a temporary file of a process that is gone is taken as abandoned."""
_ABANDONED = re.compile(r"\.bouillotte-[0-9a-f]{8}([0-9]+)-(?:[0-9]+|probe|kept[0-9]+)\.tmp")
"""The name of a writer's temporary file: ``.bouillotte-<8 hex digits><pid>-<n>.tmp``, or
``-kept<n>.tmp`` for a file it replaced, kept until all its files were in place
(``together.py``)."""
_SWEPT: set[Path] = set()


def remove_abandoned(folder: Path) -> None:
    """Remove from ``folder`` (not its subfolders) the temporary files a writer killed
    outright left (SIGKILL, the OOM killer, SIGHUP): only a regular file of this user,
    named as this module names them, made more than :data:`ABANDONED_AFTER` seconds ago by
    a process that no longer runs here. A recent one may be a live writer's on another
    machine (a shared folder), so it is left for a later run. Each folder once a process."""
    if folder in _SWEPT:
        return
    _SWEPT.add(folder)
    now = time.time()
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            match = _ABANDONED.fullmatch(entry.name)
            if match is None:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if (
                stat.S_ISREG(info.st_mode)
                and info.st_uid == os.geteuid()
                and now - info.st_mtime > ABANDONED_AFTER
                and not _running(int(match.group(1)))
            ):
                with suppress(OSError):
                    os.unlink(entry.path)


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (when unsure: yes)."""
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except OSError:  # it runs, as another user
        return True
    return True
