"""The one base of the command line's two stream wrappers: the guarded standard streams
(``cli/__init__.py``: a failed write ends the command in one line) and the printable ones
(``cli/options.py``: control characters shown as escapes). Both stand in for
``sys.stdout``/``sys.stderr``, so both answer what Click and Python ask of a text stream."""

from __future__ import annotations

from typing import TextIO


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
