"""Worker processes for a run split over several cores (``--jobs``): a pool that no Ctrl-C
leaves behind, each worker receiving once, when it starts, what every task shares, and
whose worker killed outright (``kill -9``, the OOM killer) ends the run at once in one line,
where ``multiprocessing.Pool`` started another and waited for the lost task for ever."""

from __future__ import annotations

import multiprocessing
import operator
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

from ..rules.errors import InputError, UserError

Item = TypeVar("Item")
Result = TypeVar("Result")

MAX_DEALS = 100_000_000
"""The most deals one run may ask for (``simulate``, ``sweep``, ``differences``, the Python
API): some hours of one processor's work (about 6,000 deals a second); a larger number is
refused at once rather than run until killed."""


def max_jobs() -> int:
    """The most worker processes a run may ask for: one per processor."""
    return os.cpu_count() or 1


def whole_number(value: object, name: str) -> int:
    """``value`` as a plain ``int`` if it is a whole number (an ``int``, or what says it is
    one, as numpy's integers do; not a bool, a float or a text: the Python API takes what a
    notebook passes), else one line naming ``name``. Plain, so that the bounds are checked
    on its value: an ``int`` subclass with comparisons of its own passed every bound."""
    if isinstance(value, bool):
        raise InputError(f"{name} must be a whole number", value=value, has_value=True)
    try:
        return int(operator.index(value))  # type: ignore[arg-type]
    except TypeError:
        raise InputError(f"{name} must be a whole number", value=value, has_value=True) from None


def check_deals(deals: object, name: str = "deals") -> int:
    """``deals`` between 1 and :data:`MAX_DEALS` (the one bound every run goes through)."""
    count = whole_number(deals, name)
    if count < 1:
        raise InputError(f"{name} must be at least 1", value=count, has_value=True)
    if count > MAX_DEALS:
        raise InputError(
            f"{name} must be at most {MAX_DEALS:,} (hours of work already)",
            value=count,
            has_value=True,
        )
    return count


def check_jobs(jobs: object, name: str = "jobs") -> int:
    """``jobs`` between one worker and one per processor (:func:`max_jobs`)."""
    count = whole_number(jobs, name)
    if count < 1:
        raise InputError(f"{name} must be at least 1", value=count, has_value=True)
    if count > max_jobs():
        raise InputError(
            f"{name} must be at most {max_jobs()}, the number of processors of this machine",
            value=count,
            has_value=True,
        )
    return count


MAX_SEED = 10**20
"""A seed has fewer than 21 digits (the command line's ``--seed`` reads no more)."""


def digits(value: int) -> int:
    """How many decimal digits ``value`` is written with (its minus aside), counted without
    writing it out (Python refuses to write an ``int`` of more than 4,300 digits)."""
    size = abs(value)
    count = max(1, size.bit_length() * 30103 // 100000)  # log10(2): at most one short
    while 10**count <= size:
        count += 1
    return count


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` a whole number of at most 20 digits (a minus allowed)."""
    value = whole_number(seed, name)
    if abs(value) >= MAX_SEED:
        raise InputError(f"{name} must have at most 20 digits, not {digits(value):,}")
    return value


def check_run(deals: object, seed: object, jobs: object) -> tuple[int, int, int]:
    """A run's sizes, strictly: whatever calls :func:`~.simulate.simulate` or
    :func:`~.sweep.run_sweep` (a command, the Python API, the site) is bounded the same.
    Each is given back as a plain ``int`` of its value (:func:`whole_number`): a numpy
    integer or an ``int`` subclass whose ``str()`` says another number is never played,
    nor written in a label or the JSON, as itself."""
    return check_deals(deals), check_seed(seed), check_jobs(jobs)


class WorkerLost(UserError):
    """A worker process ended before its task was done: killed (``kill -9``, the system's
    out-of-memory killer) or crashed. The run cannot be completed: its tally would lack
    the lost task."""


class Workers:
    """The worker processes of a run (:func:`worker_pool`)."""

    def __init__(self, executor: ProcessPoolExecutor) -> None:
        self._executor = executor

    def imap(self, function: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        """``function`` of each item, run by the workers, in the order of ``items`` (as
        ``multiprocessing.Pool.imap``); :class:`WorkerLost` at once if a worker dies."""
        try:
            futures: list[Future[Result]] = [
                self._executor.submit(function, item) for item in items
            ]
            for future in futures:
                yield future.result()
        except BrokenProcessPool:
            raise worker_lost(self._executor) from None


@contextmanager
def worker_pool(
    jobs: int,
    setup: Callable[..., None] | None = None,
    setup_args: tuple[Any, ...] = (),
) -> Iterator[Workers]:
    """``jobs`` worker processes that no Ctrl-C leaves behind, each first running
    ``setup(*setup_args)`` where given (to receive once what every task shares).

    Workers ignore Ctrl-C: this process catches it and ends them at once (terminate),
    rather than waiting for every task already queued. A worker that dies ends the run
    with :class:`WorkerLost` (one line, exit 2).
    """
    earlier = set(multiprocessing.active_children())
    executor = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(setup, setup_args))
    try:
        yield Workers(executor)
    except BaseException:
        # Ended at once: the workers terminated and reaped here, the executor not waited
        # for (its own shutdown could wait on a worker stopped mid-start, for ever). A
        # worker forked as the interruption came may not be the executor's yet: every
        # child started since the pool was made is ended, or the exit would wait on it.
        processes = {*_processes(executor), *(set(multiprocessing.active_children()) - earlier)}
        for process in processes:
            process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(5.0)
        # Its managing thread closes its wake-up pipe as it ends; at exit Python writes to
        # that pipe unless it is closed, and the two raced: a traceback under
        # ``interrupted`` (EBADF). Ended first, the pipe is closed before exit.
        manager = getattr(executor, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(5.0)
        raise
    executor.shutdown(wait=True)


def _processes(executor: ProcessPoolExecutor) -> list[Any]:
    """The executor's worker processes (``concurrent.futures`` names no public way)."""
    return list((getattr(executor, "_processes", None) or {}).values())


def worker_lost(executor: ProcessPoolExecutor) -> WorkerLost:
    """The error for ``executor``'s ``BrokenProcessPool`` (any pool of this program: the
    site build's second process too): the signal that killed its worker, in one line."""
    return WorkerLost(_lost(executor))


def _lost(executor: ProcessPoolExecutor) -> str:
    """What became of the worker that died, in words: the signal that killed it."""
    processes = _processes(executor)
    for process in processes:  # ended, or being ended by the broken pool: soon reaped
        process.join(1.0)
    codes = {-p.exitcode for p in processes if p.exitcode and p.exitcode < 0}
    # the others were ended with SIGTERM once the pool broke: the cause is another signal
    for number in sorted(codes, key=lambda n: n == signal.SIGTERM):
        try:
            name = f", {signal.Signals(number).name}"
        except ValueError:
            name = ""
        hint = "; out of memory?" if number == signal.SIGKILL else ""
        return (
            f"a worker process was killed (signal {number}{name}{hint}): the run is "
            "stopped, as its tally would lack that worker's deals; run it again"
        )
    return (
        "a worker process ended abruptly: the run is stopped, as its tally would lack that "
        "worker's deals; run it again"
    )


def end_with_parent(parent: int, every: float = 1.0) -> None:
    """In a worker process: end it as soon as ``parent`` (the process that started it) is
    gone, as after ``kill -9``, where nothing would tell it and it would wait on its queue
    for ever, holding what it inherited (a site build's lock)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _start_worker(setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    end_with_parent(os.getppid())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*setup_args)
