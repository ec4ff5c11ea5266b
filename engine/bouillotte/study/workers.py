"""Worker processes for a run split over several cores (``--jobs``): a pool that no Ctrl-C
leaves behind, each worker receiving once, when it starts, what every task shares."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import Pool
from typing import Any


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


def _start_worker(setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*setup_args)
