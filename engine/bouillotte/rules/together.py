"""A command's outputs put in place all together, or none (issue 47): a writer
(``writing.Output``) replacing files keeps what each one held until every file of the
command is in place, so that a failure half-way (a rename refused, a file busy, a full
disk) puts back what was replaced.

- :func:`keep` keeps a file about to be replaced, under a name of the writer's own beside
  it: a second name for the same file (a hard link: no copy, its owner and mode as they
  were), or, where the file system has none, a copy.
- :func:`put_back` puts a kept file back in place, or removes a new file that replaced
  nothing.
- :class:`Together` is an ``ExitStack`` whose writers are put in place as one: each commits
  as the stack closes, keeping what it replaced; the last to finish drops the kept copies,
  and a failure anywhere (a writer's own, or the block's after the first is in place)
  undoes every writer already in place. ``golden --write``'s 284 transcripts, or
  ``session --csv --deals-csv``'s two tables, are all new or all as they were.

Only the standard library and ``interrupts.py``: ``writing.py`` builds on it.
"""

from __future__ import annotations

import os
import stat
from contextlib import AbstractContextManager, ExitStack, suppress
from pathlib import Path
from types import TracebackType
from typing import Protocol, TypeVar

from .interrupts import interrupt_deferred

_T = TypeVar("_T")


def keep(target: Path, kept: Path) -> Path:
    """Keep ``target`` (a regular file about to be replaced) as ``kept``, beside it: a hard
    link where the file system allows one, else a copy with its mode (an ``OSError`` if
    neither can be made: nothing is replaced then)."""
    try:
        os.link(target, kept, follow_symlinks=False)
        return kept
    except OSError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    source = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fd = os.open(kept, flags, 0o600)
        try:
            while chunk := os.read(source, 1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]
            os.chmod(fd, stat.S_IMODE(os.fstat(source).st_mode))
        except BaseException:
            os.close(fd)
            with suppress(OSError):
                os.unlink(kept)
            raise
        os.close(fd)
    finally:
        os.close(source)
    return kept


def put_back(target: Path, kept: Path | None) -> None:
    """Undo the replacing of ``target``: its kept file renamed back into place, or, where
    it replaced nothing, the new file removed (best effort: what cannot be undone stays)."""
    with suppress(OSError):
        if kept is None:
            os.unlink(target)
        elif _same_file(kept, target):  # never replaced: rename() of one file onto itself
            os.unlink(kept)  # does nothing, and would leave its second name behind
        else:
            os.replace(kept, target)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samestat(os.lstat(one), os.lstat(other))
    except OSError:
        return False


def drop(kept: Path | None) -> None:
    """Remove a kept file once every output is in place."""
    if kept is not None:
        with suppress(OSError):
            os.unlink(kept)


class Joins(Protocol):
    """What :class:`Together` asks of a writer (``writing.Output``)."""

    def join(self, together: Together) -> None:
        """Commit as part of ``together``: keep what is replaced, and report once placed."""

    def finish(self) -> None:
        """Every output is in place: drop what was kept."""

    def undo(self) -> None:
        """Another output failed: put back what this one replaced."""


class Together(ExitStack):
    """An ``ExitStack`` whose writers (``writing.Output``) are put in place all together,
    or none: entered on it, a writer commits as the stack closes (last first), keeping what
    it replaced; once the stack is closed without an error, the kept files are removed; if
    any writer fails, or the block does, those already in place are undone."""

    def __init__(self) -> None:
        super().__init__()
        self._placed: list[Joins] = []
        self._writers = 0
        self.push(self._settle)  # pushed first: runs last, once every writer is through

    def enter_context(self, cm: AbstractContextManager[_T]) -> _T:
        join = getattr(cm, "join", None)
        if callable(join):
            join(self)
            self._writers += 1
        return super().enter_context(cm)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if not self._writers:
            return bool(super().__exit__(kind, exc, tb))
        # Ctrl-C held back from the first writer put in place to the last (each writer's own
        # hold hands its signal to this one): all are in place, or none (interrupts.py).
        with interrupt_deferred():
            suppressed = bool(super().__exit__(kind, exc, tb))
        return suppressed

    def placed(self, writer: Joins) -> None:
        """``writer`` is in place (kept files and all)."""
        self._placed.append(writer)

    def _settle(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        placed, self._placed = self._placed, []
        if kind is None:
            for writer in placed:
                writer.finish()
        else:
            with interrupt_deferred(too_late=False):
                for writer in reversed(placed):
                    writer.undo()
        return False
