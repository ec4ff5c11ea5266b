"""Ctrl-C, SIGTERM and SIGHUP held back while a writer puts its files in place
(:func:`interrupt_deferred`), so that no half-renamed set of files is left behind, and
heard when it can still stop something: a signal that came as the files were put in place
was too late to stop them, and the command finishes.

Only the standard library: any layer may use it (``rules/writing.py`` does, and the site
build's swap of its folder).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar

_FINISHES: ContextVar[bool] = ContextVar("a_command_finishes", default=False)
"""Set while a command of the command line runs (:func:`a_command_finishes`): a signal
that came too late to stop a write lets the command finish. Elsewhere (the Python API, a
server's rebuild) it is heard once the files are in place."""


@contextmanager
def a_command_finishes() -> Iterator[None]:
    """Inside it (the command line's ``main``), a signal that came as files were put in
    place is said to have come too late, and the command goes on to its end: its exit
    status is a script's word that nothing was written when it says "interrupted"."""
    token = _FINISHES.set(True)
    try:
        yield
    finally:
        _FINISHES.reset(token)


@contextmanager
def heard_after_writing() -> Iterator[None]:
    """Inside it, a signal that came as files were put in place stops the command once
    they are (whole): a server's rebuild (``site serve --watch``), where Ctrl-C is meant
    for the server, not the rebuild, which has nothing left to do."""
    token = _FINISHES.set(False)
    try:
        yield
    finally:
        _FINISHES.reset(token)


@contextmanager
def interrupt_deferred(*, too_late: bool = True) -> Iterator[None]:
    """Ctrl-C (or SIGTERM, or SIGHUP: a terminal closed) waits for the block to end, so that
    no half-renamed set of files is left behind.

    A block that puts the output in place (``too_late``, the default) and ends without an
    error has written it all: in a command (:func:`a_command_finishes`) the signal came too
    late to stop anything, and is said on stderr as such; the command goes on to its end as
    if it had not come (its report, exit 0), for "interrupted" means that nothing was
    written, and a script retrying on it would redo the work, or be refused by the files
    now there (``variants export``, ``new``). A signal that comes after the block, as the
    command says what it wrote, stops it at once (a report to a stalled pipe would hold it)
    as :class:`StoppedAfterWriting`, which the command line ends with exit 0: its files are
    written. Called from Python (the API), where no command ends soon after, the signal is
    heard once the files are in place, never lost. A block that leaves nothing behind (a
    file made and removed) is interrupted once it ends, the signal handled as it would have
    been (``too_late=False``). A block within another (a command's outputs put in place
    together) hands its signal to the one around it, which alone decides. A signal the
    process ignores, as under ``nohup``, stays ignored; one that came while the block failed
    goes with the failure, which removes what the block made (exit 2)."""
    caught: list[int] = []
    signals = [getattr(signal, n) for n in _DEFERRED if hasattr(signal, n)]
    try:
        previous = {
            n: signal.signal(n, lambda signum, frame: caught.append(signum))
            for n in signals
            if signal.getsignal(n) is not signal.SIG_IGN
        }
    except ValueError:  # not the main thread: signals go elsewhere anyway
        yield
        return
    _HOLDING[0] += 1
    try:
        yield
    finally:
        _HOLDING[0] -= 1
        for number, handler in previous.items():
            signal.signal(number, handler)
    if _HOLDING[0]:  # within another block: its own to decide, once it ends
        for caught_number in caught[:1]:
            handler = previous[signal.Signals(caught_number)]
            if callable(handler):
                handler(caught_number, None)
        return
    if too_late and _FINISHES.get():
        for number in previous:  # the files are in place: from now on, a signal stops
            signal.signal(number, _stopped_after_writing)  # the command as written
        if caught:
            _say_too_late(caught[0])
        return
    for caught_number in caught[:1]:
        handler = previous[signal.Signals(caught_number)]
        if callable(handler):
            handler(caught_number, None)
        elif handler == signal.SIG_DFL and caught_number != signal.SIGINT:
            os.kill(os.getpid(), caught_number)
        else:
            raise KeyboardInterrupt


_HOLDING = [0]
"""How many :func:`interrupt_deferred` blocks hold the signals back now (one within
another: a writer's within a command's outputs put in place together)."""


class StoppedAfterWriting(KeyboardInterrupt):
    """A signal that came once a command's files were in place, as it said what it wrote:
    the command stops at once, and ends as written (exit 0), not as interrupted."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number

    def said(self) -> str:
        """The line that says it on stderr."""
        name = "Ctrl-C" if self.number == signal.SIGINT else signal.Signals(self.number).name
        return (
            f"{name} came once the files were in place: they are all written, and the "
            "command stops (what it had left to print is not printed)"
        )


STOPPED: list[int] = []
"""The signal that stopped the command once its files were written, if one did: what it
had left to print is then dropped, not waited on (``cli/__init__.py``)."""


def _stopped_after_writing(number: int, frame: object) -> None:
    del frame
    STOPPED.append(number)
    raise StoppedAfterWriting(number)


def _say_too_late(number: int) -> None:
    """Say on stderr that a signal came as the output was put in place (it did not stop
    it); a stderr that cannot be written changes nothing."""
    name = "Ctrl-C" if number == signal.SIGINT else signal.Signals(number).name
    with suppress(Exception):  # the command line's stderr raises its own error when closed
        sys.stderr.write(
            f"{name} came as the files were put in place, too late to stop them: they are "
            "all written, and the command finishes\n"
        )
        sys.stderr.flush()


_DEFERRED = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals :func:`interrupt_deferred` holds back (SIGHUP: Windows has none)."""
