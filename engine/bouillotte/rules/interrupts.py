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
    now there (``variants export``, ``new``); so does a signal that comes after the block,
    while the command says what it wrote. Called from Python (the API), where no command
    ends soon after, the signal is heard once the files are in place, never lost. A
    block that leaves nothing behind (a file made and removed) is interrupted once it ends,
    the signal handled as it would have been (``too_late=False``). A signal the process
    ignores, as under ``nohup``, stays ignored; one that came while the block failed goes
    with the failure, which removes what the block made (exit 2)."""
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
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if too_late and _FINISHES.get():
        # The files are in place: a signal from now on, as the command says what it wrote,
        # is as late as one that came while they were renamed ("interrupted", exit 130,
        # had a script retry a `new` whose folder was there, and be refused).
        said: list[int] = caught[:1]
        for number in previous:
            signal.signal(number, lambda signum, frame: _say_too_late_once(signum, said))
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


def _say_too_late_once(number: int, said: list[int]) -> None:
    if not said:
        said.append(number)
        _say_too_late(number)


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
