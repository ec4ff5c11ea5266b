"""The sweep on Dask: a client (a LocalCluster or a scheduler's address, probed first), the
seed ranges sent as futures and their tallies read as they finish, a task lost with its
worker sent again, and a scheduler that goes away ending the sweep with one line."""

from __future__ import annotations

import logging
import os
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

from ..rules.errors import InputError
from ..rules.idtext import escaped

Tally = TypeVar("Tally")
"""What a task returns (``sweep.SweepTally``; named here without importing the runner,
which imports this module)."""
Task = tuple[str, int, int, int]
"""One seed range of a sweep: the policy, the seed, the first deal and the deal after the
last (what every range shares, the variants first among it, is scattered once)."""

CLUSTER_HINT = 'pip install "bouillotte[cluster]"  (Dask distributed)'


def dask_client(address: str, workers: int, into: list[Any] | None = None) -> Any:
    """A Dask client: ``local`` starts a LocalCluster of ``workers`` processes, anything
    else is a scheduler's address (``tcp://host:8786``), tried before Dask is even
    imported. The client is also appended to ``into`` the moment it exists: a Ctrl-C that
    lands as this function returns, before the caller holds what it returned, still
    leaves the caller a client to close in haste (otherwise Dask's own closing at exit
    gave each local worker half a minute)."""
    if address != "local":
        _probe(address)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            f"--cluster needs Dask, which is not installed: {CLUSTER_HINT}",
            field="--cluster",
        ) from None
    except Exception as exc:  # Dask reads its settings (DASK_CONFIG, DASK_*) as it loads
        raise _refused(
            f"Dask could not load its settings ({type(exc).__name__}: {_reason(exc)}): "
            "see DASK_CONFIG and the DASK_* variables of the environment",
            address,
        ) from None
    if address == "local":
        try:
            with _dask_silenced(), _workers_mute():
                cluster = LocalCluster(  # type: ignore[no-untyped-call, unused-ignore]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL,
                )
                client = Client(cluster)  # type: ignore[no-untyped-call, unused-ignore]
                if into is not None:
                    into.append(client)
                return client
        except KeyboardInterrupt:  # mid-start: Dask's own closing at exit would fail loudly
            logging.disable(logging.CRITICAL)
            end_children()
            _forget_unstarted_clusters()
            raise
        except Exception as exc:  # a memory limit, a bad DASK_* setting: one line, exit 2
            raise _refused(
                f"Dask could not start its local workers ({type(exc).__name__}: "
                f"{_reason(exc)}); the sweep runs without --cluster too",
                address,
            ) from None
    try:
        with _dask_silenced():  # Dask logs an answer it cannot read, with its traceback
            client = Client(address, timeout="10s")  # type: ignore[no-untyped-call, unused-ignore]
            if into is not None:
                into.append(client)
            return client
    except Exception as exc:  # whatever Dask makes of an odd answer: one line, exit 2
        raise _refused(
            "cannot connect to the Dask scheduler: what answers there is not one, or not one "
            f"this Dask can speak to ({type(exc).__name__}: {_reason(exc)})",
            address,
        ) from None


PROBE_SECONDS = 3.0
"""How long a scheduler's port is given to accept a connection before Dask is asked to
connect."""
HANDSHAKE_SECONDS = 10.0
"""How long the scheduler is given to send its handshake (Dask's own connection timeout)."""
MAX_HANDSHAKE_BYTES = 1 << 20
"""The largest handshake read (a scheduler's is a few hundred bytes)."""
SCHEMES = ("tcp", "tls")
"""The transports of a scheduler's address (Dask's ``tcp://`` and ``tls://``)."""


def _refused(reason: str, address: str) -> InputError:
    return InputError(reason, field="--cluster", value=address, has_value=True)


def _probe(address: str) -> None:
    """Fail at once where nothing listens at a scheduler's address (a refused port, an
    unknown host), rather than after Dask's ten-second connection timeout; and, for
    ``tcp://``, where what answers is not a Dask scheduler (:func:`_check_handshake`)."""
    try:
        parsed = urlsplit(address if "://" in address else f"tcp://{address}")
    except ValueError:  # an unclosed IPv6 bracket: tcp://[::1
        raise _refused(
            "a scheduler's address is tcp://host:port (as tcp://127.0.0.1:8786, an IPv6 "
            "host in brackets: tcp://[::1]:8786), or 'local'",
            address,
        ) from None
    if address != address.strip() or any(c.isspace() or ord(c) < 32 for c in address):
        raise _refused("an address holds no space or line break", address)
    if parsed.username is not None or parsed.path or parsed.query or parsed.fragment:
        raise _refused(
            "a scheduler's address is tcp://host:port and nothing more: no user, path, "
            "query or fragment",
            address,
        )
    written = address.partition("://")[0] if "://" in address else "tcp"
    if written != written.lower() and written.lower() in SCHEMES:  # urlsplit lowers it, Dask not
        raise _refused(f"the scheme is written {written.lower()}://", address)
    if parsed.scheme not in SCHEMES:
        raise _refused(
            f"a scheduler's address is tcp://host:port or tls://host:port (as "
            f"tcp://127.0.0.1:8786), or 'local'; not {parsed.scheme}://",
            address,
        )
    try:
        host, port = parsed.hostname, parsed.port
    except ValueError:
        host, port = None, None
    if not host or port is None:
        raise _refused(
            "a scheduler's address is tcp://host:port (as tcp://127.0.0.1:8786), or 'local'",
            address,
        )
    try:
        connection = socket.create_connection((host, port), timeout=PROBE_SECONDS)
    except (OSError, UnicodeError) as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else _reason(exc)
        raise _refused(f"cannot reach the Dask scheduler: {reason}", address) from None
    with connection:
        if parsed.scheme == "tcp":
            _check_handshake(connection, address)


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


def _read(connection: socket.socket, count: int, deadline: float) -> bytes:
    """Up to ``count`` bytes, fewer where the other end closes or the deadline passes."""
    data = bytearray()
    while len(data) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        connection.settimeout(left)
        try:
            chunk = connection.recv(min(count - len(data), 65536))
        except TimeoutError:
            break
        except OSError:
            break
        if not chunk:
            break
        data.extend(chunk)
    return bytes(data)


def _check_handshake(connection: socket.socket, address: str) -> None:
    """A Dask scheduler speaks first: its handshake, a frame whose length comes in the
    first eight bytes, then the count of its parts. Anything else (an HTTP server, a
    banner, TLS, a frame empty or huge, silence) is not a scheduler: one line, at once,
    before Dask is given the address (where it would hang or end in a traceback)."""
    deadline = time.monotonic() + HANDSHAKE_SECONDS
    head = _read(connection, 8, deadline)
    not_dask = "is not a Dask scheduler"
    if not head:
        silent = time.monotonic() >= deadline
        raise _refused(
            f"{not_dask}: it sent nothing in {HANDSHAKE_SECONDS:.0f} s (a scheduler speaks "
            "first; a TLS scheduler's address is tls://)"
            if silent
            else f"{not_dask}: it closed the connection without a word",
            address,
        )
    if head[:1] in (b"\x15", b"\x16") and head[1:2] == b"\x03":
        raise _refused(
            f"{not_dask}: it answers with TLS (a TLS scheduler's address is tls://)", address
        )
    if head.startswith(b"HTTP/"):
        raise _refused(f"{not_dask}: it answers with HTTP", address)
    if len(head) < 8:
        raise _refused(f"{not_dask}: it sent {len(head)} bytes and stopped", address)
    (size,) = struct.unpack("<Q", head)
    if size == 0:
        raise _refused(f"{not_dask}: it sent an empty frame", address)
    if size > MAX_HANDSHAKE_BYTES:
        line = head.split(b"\n", 1)[0].decode("ascii", "replace")
        if all(" " <= c <= "~" or c == "\r" for c in line):
            shown = escaped(line.strip())
            raise _refused(f"{not_dask}: it answers with the line {shown!r}", address)
        raise _refused(
            f"{not_dask}: it announces a frame of {size:,} bytes (a handshake is at most "
            f"{MAX_HANDSHAKE_BYTES:,})",
            address,
        )
    body = _read(connection, min(size, 16), deadline)
    frames = struct.unpack("<Q", body[:8])[0] if len(body) >= 8 else 0
    if not 1 <= frames <= 64 or 8 * (1 + frames) > size:
        raise _refused(f"{not_dask}: its first frame is not a Dask message", address)


HURRIED_SECONDS = 2
"""How long closing a client and its local cluster may take after Ctrl-C: Dask's own
patience (its workers' nannies given 30 s each) made Ctrl-C take half a minute."""


def close_client(client: Any, hurried: bool = False) -> None:
    """Close the client (and its LocalCluster), without Dask's log: where the scheduler
    went away, closing ends the client's attempts to reach it, which Dask would log with
    their traceback after the one line that said it all. ``hurried`` (after Ctrl-C): in
    :data:`HURRIED_SECONDS`, whatever is left is ended with this process."""
    cluster = getattr(client, "cluster", None)
    with _dask_silenced():
        if not hurried:
            client.close()
            if cluster is not None:
                cluster.close()
            return

        def close_both() -> None:
            for closing in (client, cluster):
                try:
                    if closing is not None:
                        closing.close(timeout=HURRIED_SECONDS)
                except Exception:  # timed out: its processes are ended below
                    pass

        # On a thread of its own, waited for a bounded time: a client's close also stops
        # its event loop, which Dask gives ten seconds more.
        closer = threading.Thread(target=close_both, name="close-dask", daemon=True)
        closer.start()
        closer.join(HURRIED_SECONDS + 1)
        logging.disable(logging.CRITICAL)  # the process ends: nothing of Dask's after this
        if cluster is not None:
            end_children()  # a local worker Dask did not end in time
            _forget_unstarted_clusters()  # no second attempt, with its traceback, at exit


def end_children(seconds: float = 1.0) -> None:
    """End every child process this one started and has not reaped (a local cluster's
    workers): terminated, and killed where they are still there after ``seconds``."""
    import multiprocessing

    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + seconds
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join(seconds)


def _forget_unstarted_clusters() -> None:
    """Dask closes every cluster at exit; one stopped half-way through its start fails
    that with a traceback (``AssertionError: Status.init``) under ``interrupted``. Its
    worker processes end with this one all the same (multiprocessing's own exit)."""
    import atexit

    from distributed.deploy.spec import close_clusters

    atexit.unregister(close_clusters)


@contextmanager
def _workers_mute() -> Iterator[None]:
    """The local workers started with their standard error on the null device: Ctrl-C,
    which a terminal sends to them as to this process, made each print its own
    KeyboardInterrupt traceback (and Dask its log) under the one ``interrupted`` line.
    This process's own standard error is put back as soon as they are started; what a
    worker would say of a failure is said here, in one line, as for a remote scheduler."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


@contextmanager
def _dask_silenced() -> Iterator[None]:
    """Dask's log silenced for the block: what it would say (a traceback) is said once, as
    the one line of the :class:`InputError` that follows."""
    names = (
        "distributed",
        "distributed.client",
        "distributed.protocol.core",
        "distributed.core",
        "distributed.nanny",
    )
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def workers_of(client: Any) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:
        return 1


RETRIES = 3
"""How often a task whose input was lost with a worker is sent again before the sweep fails."""


SCATTER_SECONDS = 60
"""How long every worker is given to take the sweep's variants: a worker that is there
but does not answer (a machine switched off, a process stopped) made the sweep wait for
ever, without a word."""


def _scattered(client: Any, shared: Any) -> Any:
    """``shared`` on every worker, or one line where a worker does not take it in time."""
    # Dask's own timeout does not cover a worker that is there but silent: the scatter is
    # waited for on a thread of its own, which is left behind (a daemon) if it never ends.
    outcome: list[Any] = []
    thread = threading.Thread(
        target=lambda: outcome.append(_caught(client.scatter, [shared], broadcast=True)),
        daemon=True,
    )
    thread.start()
    thread.join(SCATTER_SECONDS)
    if not outcome:
        raise InputError(
            f"a worker of the Dask scheduler has not answered in {SCATTER_SECONDS} s: restart "
            "or remove it (dask worker), then run the sweep again",
            field="--cluster",
        )
    if isinstance(outcome[0], Exception) and "No valid workers" in str(outcome[0]):
        raise InputError(  # Dask's own words named neither --cluster nor what to do
            "the Dask scheduler has no worker: start one (dask worker ADDRESS), then run "
            "the sweep again",
            field="--cluster",
        )
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0][0]


def _caught(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What ``call`` returns, or the exception it raises (for another thread to raise)."""
    try:
        return call(*args, **kwargs)
    except BaseException as exc:
        return exc


def dask_results(
    client: Any, shared: Any, tasks: list[Task], sweep_range: Callable[..., Tally]
) -> Iterator[tuple[Task, Tally]]:
    """Each task's tally as the cluster finishes it (the progress moves with the futures).
    ``shared`` (what every task reads: the variants, the base first, and the rules each
    changes) is scattered to every worker once, and each task names it.
    A task lost with its worker is run again by the scheduler on another worker, from the
    same seeds, so the result is unchanged; a tally once read is released. A scheduler
    that goes away ends the sweep with one line; on Ctrl-C or any error the tasks still
    queued are cancelled."""
    from concurrent.futures import CancelledError

    from distributed import as_completed

    generation = 0  # the scatter of the shared part that the tasks now read
    scattered = _scattered(client, shared) if tasks else None

    def submit(task: Task) -> Any:
        name, seed, start, stop = task
        return client.submit(sweep_range, scattered, name, seed, start, stop, pure=False)

    futures = {submit(task): (task, generation, 0) for task in tasks}
    pending = as_completed(futures)  # type: ignore[no-untyped-call, unused-ignore]
    done, gone = 0, False
    try:
        for future in pending:
            task, made_from, tries = futures.pop(future)
            try:
                tally = future.result()
            except ImportError as exc:
                raise InputError(
                    f"a Dask worker cannot import bouillotte ({exc}): install the same "
                    "bouillotte on every worker",
                    field="--cluster",
                ) from None
            except (CancelledError, OSError):
                # The client cancels every future as it loses the scheduler, and fetching
                # a finished task's tally fails if the scheduler goes meanwhile; the task's
                # own error is something else. A task cancelled while the scheduler is
                # there lost its input with a worker (the variants scattered to it): it is
                # sent again, with the variants scattered anew, at most RETRIES times.
                cancelled = future.status == "cancelled" and client.status == "running"
                if future.status == "error" or (cancelled and tries >= RETRIES):
                    raise
                if cancelled:
                    if made_from == generation:
                        generation += 1
                        scattered = _scattered(client, shared)
                    again = submit(task)
                    futures[again] = (task, generation, tries + 1)
                    pending.add(again)  # type: ignore[no-untyped-call, unused-ignore]
                    continue
                gone = True
                raise InputError(
                    f"the Dask scheduler went away after {done} of {len(tasks)} tasks of "
                    "the sweep: restart the scheduler and its workers, then run the sweep again",
                    field="--cluster",
                ) from None
            done += 1
            yield task, tally
    finally:
        if futures and not gone and client.status == "running":
            client.cancel(list(futures))
