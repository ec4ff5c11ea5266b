"""The folder ``new DIR`` builds aside (``.DIR.<token>.tmp``, ``rules/writing.py``), claimed
while it is built, so that one left by a ``new`` killed outright (SIGKILL, the OOM killer)
is removed by the next ``new`` into the same parent, as a site build removes its own
(``site/output.py``), and a folder of the user's that merely looks like one never is.

The claim is :data:`CLAIM`, a file in the folder naming that very folder, locked
(``flock``) for as long as its ``new`` runs: the lock ends with the process, however it
ends, so a claim nobody holds is an abandoned folder's. A ``new`` that finishes removes its
claim before it lets go of the lock, so a claim found unlocked but no longer in its folder
is a finished ``new``'s, whose folder is being renamed into place: it is kept. An empty
folder of that name is removed only once it is :data:`UNCLAIMED_GRACE` seconds old: a live
``new`` claims its folder within microseconds of making it.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ..rules.errors import InputError
from ..rules.idtext import escaped
from ..rules.writing import Output, absolute, reason

CLAIM = ".bouillotte-partial"
"""The file claiming a folder being built aside, named as a site build's claim is."""

UNCLAIMED_GRACE = 60.0
"""How old, in seconds, an empty folder named as ``new`` names them must be to be taken for
the leftover of a ``new`` killed before it claimed it."""

_ASIDE = re.compile(r"\..+\.[0-9a-f]{8}[0-9]+\.tmp", re.DOTALL)
"""The name ``writing.Output`` gives a folder built aside: ``.<name>.<8 hex digits><pid>.tmp``."""


def claim_of(folder: Path) -> str:
    """What :data:`CLAIM` holds in the folder ``folder`` built aside."""
    return f"a folder being made by `bouillotte new`, or killed: {escaped(folder.name)}\n"


def _aside(out: Output) -> Path:
    """The folder ``out`` (a fresh one) builds aside, as ``writing.Output`` names it."""
    short = os.fsdecode(os.fsencode(out.real.name)[:64])
    return out.real.parent / f".{short}.{out.token}.tmp"


@contextmanager
def claimed(out: Output) -> Iterator[None]:
    """Claim the folder ``out`` (fresh, entered) builds aside while the block runs; the
    claim is removed as the block ends without an error, before the folder is renamed into
    place (after one, the folder is removed whole, claim and all)."""
    aside = _aside(out)
    claim = aside / CLAIM
    try:
        fd = os.open(
            claim, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
        )
    except OSError as exc:
        raise InputError(f"cannot write there: {reason(exc)}", file=out.folder) from None
    try:
        try:  # locked before it is written: a claim read whole is a live or a dead one's
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, claim_of(aside).encode("utf-8"))
        except OSError as exc:
            raise InputError(f"cannot write there: {reason(exc)}", file=out.folder) from None
        yield
        try:
            os.unlink(claim)
        except OSError as exc:
            raise InputError(f"cannot write there: {reason(exc)}", file=out.folder) from None
    finally:
        os.close(fd)


def remove_abandoned_asides(folder: Path) -> None:
    """Remove, beside ``folder``, the folders built aside by a ``new`` that was killed: only
    a folder of this user, named as ``new`` names them, holding a claim of its own name
    that no running ``new`` holds; or such a folder left empty (killed before it was
    claimed: removing it loses nothing). Nothing else, whatever its name."""
    try:
        entries = list(os.scandir(absolute(folder).parent))
    except OSError:
        return
    for entry in entries:
        if _ASIDE.fullmatch(entry.name) is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
            _remove_if_abandoned(Path(entry.path))


def _remove_if_abandoned(aside: Path) -> None:
    try:
        fd = os.open(aside / CLAIM, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        with suppress(OSError):
            if time.time() - aside.stat().st_mtime > UNCLAIMED_GRACE:  # not a live one's
                aside.rmdir()  # only if empty
        return
    except OSError:
        return
    try:
        if _abandoned(fd, aside):
            shutil.rmtree(aside, ignore_errors=True)
    finally:
        os.close(fd)


def _abandoned(fd: int, aside: Path) -> bool:
    """Whether the file open as ``fd`` is ``aside``'s own claim, and no running ``new``
    holds it."""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        if os.read(fd, 4096) != claim_of(aside).encode("utf-8"):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        # Unlocked, but removed from its folder: its new finished and renames it now.
        return os.fstat(fd).st_nlink > 0
    except OSError:  # locked (BlockingIOError): its new still runs
        return False
