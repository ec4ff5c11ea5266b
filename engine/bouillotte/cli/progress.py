"""Progress of long work on stderr: a bar with the rate and the time left, redrawn in place
on a terminal; a plain line every :data:`PLAIN_EVERY` seconds otherwise (a log file, CI)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

PLAIN_EVERY = 10.0
"""Seconds between two progress lines when stderr is not a terminal."""

BAR_WIDTH = 24


def clock(seconds: float) -> str:
    """``m:ss``."""
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}:{secs:02d}"


class Progress:
    """Call with the number of items just done.

    ``describe(done, total, rate, elapsed, left)`` gives the words of one line;
    ``bar`` draws ``[####....]`` before them on a terminal; ``closing_line`` also writes
    the last line where stderr is not a terminal even if the work took less than
    :data:`PLAIN_EVERY` seconds (otherwise only a run that already showed a line ends
    with one).
    """

    def __init__(
        self,
        total: int,
        describe: Callable[[int, int, float, float, float], str],
        *,
        bar: bool = False,
        closing_line: bool = False,
    ) -> None:
        self.total, self.describe, self.bar = total, describe, bar
        self.closing_line = closing_line
        self.done = 0
        self.start = self.last = time.monotonic()
        self.live = sys.stderr.isatty()
        self.shown = False

    def __call__(self, step: int) -> None:
        self.done += step
        now = time.monotonic()
        finished = self.done >= self.total
        if self.live:
            if not finished and now - self.last < 0.1:  # at most ten redraws a second
                return
        elif finished:
            if not (self.closing_line or self.shown):
                return
        elif now - self.last < PLAIN_EVERY:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate else 0.0
        line = self.describe(self.done, self.total, rate, elapsed, left)
        if self.live:
            if self.bar:
                filled = BAR_WIDTH * self.done // max(self.total, 1)
                line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {line}"
            getattr(sys.stderr, "write_raw", sys.stderr.write)("\r")  # past the terminal filter
            sys.stderr.write(line + ("\n" if finished else ""))
        else:
            sys.stderr.write(line + "\n")
        self.shown = True
        sys.stderr.flush()


def counted(what: str, unit: str, total: int, rate_digits: int = 1) -> Progress:
    """``what: done/total unit (n%), rate unit/s, elapsed, ETA``: a bar on a terminal, a
    line every :data:`PLAIN_EVERY` seconds otherwise (``simulate``'s deals, ``strong
    solve``'s CFR+ iterations); the rate with ``rate_digits`` decimals."""

    def describe(done: int, total: int, rate: float, elapsed: float, left: float) -> str:
        return (
            f"{what}: {done:,}/{total:,} {unit} ({100 * done // max(total, 1)}%), "
            f"{rate:,.{rate_digits}f} {unit}/s, {clock(elapsed)} elapsed, ETA {clock(left)}"
        )

    return Progress(total, describe, bar=True)
