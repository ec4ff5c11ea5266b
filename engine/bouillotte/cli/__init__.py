"""The command line: ``bouillotte`` and its sub-commands (Typer).

``app.py`` holds the application, ``commands/`` one module per group of sub-commands,
``options.py`` the shared options and ``compare_text.py`` the terminal rendering of a
comparison; :func:`main`, here, is what the ``bouillotte`` script runs: the application
within the handling of what no single command can handle, the streams and the signals.

Exit statuses (docs/contracts.md): 0 success; 1 ``check`` or ``golden`` found a
mismatch; 2 bad input, a bad option value, or output that cannot be written (a closed
stdout, a full device), each with one line on stderr (a stderr that cannot be written is
only silenced); 130 Ctrl-C (SIGINT); 141 the reader
of the output went away (a pipe into ``head``), silently, as a shell reports SIGPIPE;
143 SIGTERM (what ``timeout`` and schedulers send) and 129 SIGHUP (the terminal closed),
each handled as Ctrl-C: workers are stopped, the temporary files of a write and a site
build's half-written folder removed (a signal the command was started ignoring, as
``nohup`` leaves SIGHUP, stays ignored).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import signal
import sys
from types import FrameType
from typing import Any, TextIO

from ..rules.interrupts import STOPPED, StoppedAfterWriting, a_command_finishes
from .streams import WrappedStream, written_whole

OK = 0
BAD_INPUT = 2
INTERRUPTED = 130
BROKEN_PIPE = 141
"""128 + SIGPIPE: the status of a command whose reader went away, as shells report it."""
STAYS_WRITTEN = "its report is lost; any file it wrote before its report stays written"
"""Said after a stdout that cannot be written."""
STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals handled as Ctrl-C (SIGHUP: a terminal closed; Windows has neither)."""

ESCAPE = "bouillotte-escape"
"""The codec error handler of a stream whose encoding cannot write every character: each
such character is written as its JSON escape (``\\u2026``), so a JSON document stays valid
and means the same, and a text stays readable."""


def _escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:  # as JSON writes it: a surrogate pair
            code -= 0x10000
            shown.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            shown.append(f"\\u{code:04x}")
    return "".join(shown), error.end


class OutputFailed(Exception):
    """Writing to stdout or stderr failed. Not an :class:`OSError`, which Click would turn
    into exit status 1 (a broken pipe) or let through as a traceback."""

    def __init__(self, name: str, error: OSError) -> None:
        super().__init__(f"cannot write to {name}: {error.strerror or error}")
        self.name = name
        self.errno = error.errno


class _Guarded(WrappedStream):
    """A standard stream whose failures raise :class:`OutputFailed`; ``None`` for a stream
    that was closed before the command started (``>&-``): any write fails with EBADF."""

    def __init__(self, stream: TextIO | None, name: str) -> None:
        super().__init__(stream)
        self._name = name

    def _fail(self, error: OSError) -> OutputFailed | None:
        """stdout's failure ends the command; stderr's only silences it (progress and
        messages are lost, the work and its exit status are not)."""
        if self._name != "stderr":
            return OutputFailed(self._name, error)
        _to_devnull(2)
        self._stream = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
        return None

    def write(self, text: str) -> int:
        if self._stream is None:
            if not text:
                return 0
            raise OutputFailed(self._name, OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            return self._stream.write(text)
        except OSError as exc:
            failed = self._fail(exc)
            if failed is not None:
                raise failed from None
            return len(text)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            failed = self._fail(exc)
            if failed is not None:
                raise failed from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "the stream is closed")
        return self._stream.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _to_devnull(fd: int) -> None:
    """Point ``fd`` at /dev/null: a closed one, so that no file the command opens takes its
    number (and receives its output); a failed one, so that nothing more is tried on it."""
    null = os.open(os.devnull, os.O_RDWR)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


def _prepare_streams() -> None:
    codecs.register_error(ESCAPE, _escape)
    closed = {fd: not _is_open(fd) for fd in (0, 1, 2)}
    for fd, was_closed in closed.items():
        if was_closed:
            _to_devnull(fd)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and hasattr(stream, "reconfigure"):
            try:
                if codecs.lookup(stream.encoding).name not in ("utf-8", "utf-16", "utf-32"):
                    stream.reconfigure(errors=ESCAPE)
            except (LookupError, ValueError, OSError):
                pass
    out = None if closed[1] or sys.stdout is None else written_whole(sys.stdout)
    err = open(os.devnull, "w") if closed[2] or sys.stderr is None else written_whole(sys.stderr)  # noqa: SIM115
    sys.stdout = _Guarded(out, "stdout")
    sys.stderr = _Guarded(err, "stderr")


_terminated: list[int] = []


def _on_stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP as Ctrl-C: every command's own handling of an interruption (its
    workers stopped, its temporary files removed) runs; the status is then 128 + the
    signal's number. A worker process that inherited this handler ends as the signal ends
    a process by default."""
    del frame
    if os.getpid() != _MAIN_PID[0]:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _terminated.append(signum)
    raise KeyboardInterrupt


_MAIN_PID = [os.getpid()]
_interrupted: list[int] = []
"""Ctrl-C came (:func:`_on_interrupt`): whatever error it ends the command with is an
interruption."""


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C, as Python's own handler takes it (``KeyboardInterrupt``), noted first: a
    library that catches it and raises an error of its own still ends the command as
    interrupted (exit 130), not with a traceback."""
    del frame
    if os.getpid() == _MAIN_PID[0]:
        _interrupted.append(signum)
    raise KeyboardInterrupt


def _say(line: str) -> None:
    """``line`` on stderr, each control character, reordering or hidden mark in it shown
    as its escape (a usage error quotes what was typed: ``--x\u200bz``), as every message
    of a command is shown; a help's lines stay lines (``bouillotte`` alone prints it)."""
    from ..rules.errors import shown

    try:
        sys.stderr.write("\n".join(map(shown, line.split("\n"))) + "\n")
        sys.stderr.flush()
    except (OutputFailed, OSError, ValueError):
        pass


def _usage_line(exc: Exception) -> str:
    from ..rules.errors import cut_within

    message = cut_within(" ".join(str(getattr(exc, "format_message", exc.__str__)()).split()))
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    return f"error: {message}" + (f" (see: {path} --help)" if path else "")


def _run() -> int:
    import typer

    from ..rules.errors import UserError
    from .app import app

    try:
        code = app(standalone_mode=False)
        sys.stdout.flush()
    except OutputFailed as exc:
        if exc.errno == errno.EPIPE:
            return BROKEN_PIPE
        # The files a command wrote (--csv, --save, --write) before its report are not
        # undone by a report that fails: a script seeing exit 2 is told they stay.
        _say(f"error: {exc}; {STAYS_WRITTEN}")
        return BAD_INPUT
    except StoppedAfterWriting as exc:  # outside a command's own handler: written, exit 0
        _say(exc.said())
        return OK
    except typer.Abort:
        _say("interrupted")
        return INTERRUPTED
    except typer.TyperException as exc:  # Click's usage errors: one line, as bad input
        if getattr(exc, "ctx", None) is not None and type(exc).__name__ == "NoArgsIsHelpError":
            _say(str(getattr(exc, "format_message", exc.__str__)()).rstrip())
            return BAD_INPUT
        _say(_usage_line(exc))
        return BAD_INPUT
    except UserError as exc:  # raised outside a command (completion, option parsing)
        _say(f"error: {exc.describe()}")
        return BAD_INPUT
    except KeyboardInterrupt:
        _say("interrupted")
        return INTERRUPTED
    except OSError as exc:  # outside a command's own handler (options.user_errors)
        from ..rules.errors import cut

        where = f"{cut(str(exc.filename))}: " if exc.filename is not None else ""
        _say(f"error: {where}{exc.strerror or exc}")
        return BAD_INPUT
    except Exception:
        # Ctrl-C raised inside a library, which wrapped it in an error of its own (pydantic,
        # as a model class was being made at start-up: a RuntimeError and a traceback).
        if not (_interrupted or _terminated):
            raise
        _say("interrupted")
        return INTERRUPTED
    return code if isinstance(code, int) else OK


def main() -> None:
    """The ``bouillotte`` console script (kept at this name since the first release)."""
    _MAIN_PID[0] = os.getpid()
    _prepare_streams()
    for number in STOPPING:
        if signal.getsignal(number) != signal.SIG_IGN:
            signal.signal(number, _on_stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_interrupt)
    try:
        with a_command_finishes():
            code = _run()
    except KeyboardInterrupt:
        code = INTERRUPTED
    _settled()
    if code == INTERRUPTED and _terminated:
        code = 128 + _terminated[0]
    if STOPPED:  # stopped once its files were written: its report is dropped, not waited on
        _to_devnull(1)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        try:
            getattr(sys, name).flush()
        except (OutputFailed, OSError, ValueError):
            _to_devnull(fd)  # what is left unwritten is dropped, without a second message
    if code == BROKEN_PIPE:
        _to_devnull(1)
    if code == INTERRUPTED or _terminated:
        sys.unraisablehook = _unheard
        _exit_within(EXIT_SECONDS, code)
    else:
        _exit_within(SETTLED_EXIT_SECONDS, code)
    sys.exit(code)


def _settled() -> None:
    """The command's status is decided: Ctrl-C, SIGTERM and SIGHUP are ignored from now
    on. One that came as the process ended (after ``golden --write`` had written and said
    so) killed it by the raw signal, a failure to a script for work done; ignored, it
    cannot, and :func:`_exit_within` still ends an exit that would not end."""
    for number in (signal.SIGINT, *STOPPING):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_IGN)


SETTLED_EXIT_SECONDS = 10.0
"""How long the exit of a command that was not interrupted may take (its libraries' exit
handlers; a fraction of a second here), Ctrl-C being ignored by then (:func:`_settled`)."""


EXIT_SECONDS = 2.0
"""How long an interrupted command's exit may take once it has said ``interrupted``: what
is left to run is the libraries' own exit handlers, and Dask's closing of a local cluster
whose worker Ctrl-C had reached first could wait half a minute."""


def _unheard(unraisable: Any) -> None:
    """After ``interrupted``, what a library's exit handlers fail at is not shown: the
    workers they would close were ended by the interruption (``concurrent.futures`` wrote,
    at exit, to a pipe its own thread was closing: a traceback under ``interrupted``)."""
    del unraisable


def _exit_within(seconds: float, code: int) -> None:
    """End the process with ``code`` after ``seconds`` if its exit has not ended it: every
    child it has not reaped is killed first, so that none outlives it. The command's own
    handling of the interruption (its temporary files removed) has run by then."""
    import threading
    import time

    def deadline() -> None:
        time.sleep(seconds)
        import multiprocessing

        for child in multiprocessing.active_children():
            child.kill()
        os._exit(code)

    threading.Thread(target=deadline, name="exit-deadline", daemon=True).start()
