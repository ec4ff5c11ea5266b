"""The one base of the command line's two stream wrappers: the guarded standard streams
(``cli/__init__.py``: a failed write ends the command in one line) and the printable ones
(``cli/options.py``: control characters shown as escapes). Both stand in for
``sys.stdout``/``sys.stderr``, so both answer what Click and Python ask of a text stream."""

from __future__ import annotations

import errno
import io
import os
import select
from typing import Any, TextIO


class WrappedStream:
    """A text stream that wraps ``stream`` (``None`` for one closed before the command
    started, ``>&-``): its encoding and error handler are the wrapped stream's, UTF-8 and
    none where it has none."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    @property
    def encoding(self) -> str:
        return str(getattr(self._stream, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str | None:
        return getattr(self._stream, "errors", None)


class WholeWrites(io.RawIOBase):
    """The file descriptor ``fd`` for a standard stream's buffer, written whole: what a
    short write leaves is written again (under a file-size limit the rest then fails, "File
    too large"), and a descriptor left non-blocking by whoever started the command is
    waited for rather than given up. Python's own buffered writer took a short write of a
    large text (a JSON report) for a whole one: the rest was dropped, and the command ended
    with status 0."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        total = len(view)
        while view:
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:  # O_NONBLOCK, and the reader is behind: wait for it
                select.select([], [self._fd], [])
                continue
            if written <= 0:
                raise OSError(errno.EIO, "nothing could be written")
            view = view[written:]
        return total


def written_whole(stream: TextIO) -> TextIO:
    """``stream`` (a standard stream) on :class:`WholeWrites`, with its encoding, error
    handler and buffering (none under ``PYTHONUNBUFFERED``, as Python's own); as it is
    when it is no text stream on a file descriptor."""
    if not isinstance(stream, io.TextIOWrapper):
        return stream
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return stream
    stream.flush()
    raw = WholeWrites(fd)
    # Unbuffered as Python makes it under PYTHONUNBUFFERED (or -u): the text layer writes
    # through to the descriptor, with no buffer between them to hold a note back (a raw
    # stream under a text one, as Python's own; typeshed's TextIOWrapper wants a buffer).
    layer: Any = raw if stream.write_through else io.BufferedWriter(raw)
    return io.TextIOWrapper(
        layer,
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )
