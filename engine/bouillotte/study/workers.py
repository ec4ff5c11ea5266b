"""Worker processes for a run split over several cores (``--jobs``): a pool that no Ctrl-C
leaves behind, each worker receiving once, when it starts, what every task shares."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import Any

from ..rules.errors import InputError

MAX_DEALS = 100_000_000
"""The most deals one run may ask for (``simulate``, ``sweep``, ``differences``, the Python
API): some hours of one processor's work (about 6,000 deals a second); a larger number is
refused at once rather than run until killed."""


def max_jobs() -> int:
    """The most worker processes a run may ask for: one per processor."""
    return os.cpu_count() or 1


def whole_number(value: object, name: str) -> int:
    """``value`` if it is an ``int`` (not a bool, a float or a text: the Python API takes
    what a notebook passes), else one line naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be a whole number", value=value, has_value=True)
    return value


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


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` a whole number of at most 20 digits (a minus allowed)."""
    value = whole_number(seed, name)
    if abs(value) >= MAX_SEED:
        raise InputError(f"{name} must have at most 20 digits, not {value.bit_length():,} bits")
    return value


def check_run(deals: object, seed: object, jobs: object) -> None:
    """A run's sizes, strictly: whatever calls :func:`~.simulate.simulate` or
    :func:`~.sweep.run_sweep` (a command, the Python API, the site) is bounded the same."""
    check_deals(deals)
    check_seed(seed)
    check_jobs(jobs)


@contextmanager
def worker_pool(
    jobs: int,
    setup: Callable[..., None] | None = None,
    setup_args: tuple[Any, ...] = (),
) -> Iterator[Pool]:
    """``jobs`` worker processes that no Ctrl-C leaves behind, each first running
    ``setup(*setup_args)`` where given (to receive once what every task shares).

    Workers ignore Ctrl-C: this process catches it and ends them at once (terminate),
    rather than waiting for every chunk already queued.
    """
    pool = multiprocessing.Pool(jobs, initializer=_start_worker, initargs=(setup, setup_args))
    try:
        yield pool
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


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
