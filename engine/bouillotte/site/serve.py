"""A localhost preview server for a built site: loopback only, and never a file outside
the served folder (a path with ``..``, or a link leading out of it, a folder's
``index.html`` among them, is answered 404)."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..rules.errors import InputError, UserError


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        del format, args

    def send_head(self) -> Any:
        # A NUL byte ("/%00") cannot name a file: answer 400 rather than fail in os.stat.
        if "\x00" in unquote(self.path):
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad request: a NUL byte in the path")
            return None
        root = os.path.realpath(self.directory)
        try:
            path = self.translate_path(self.path)
            # A folder is answered with its index.html (or index.htm): that file too must be
            # inside the served folder, not a link leading out of it.
            shown = [path]
            if os.path.isdir(path):
                shown += [os.path.join(path, n) for n in ("index.html", "index.htm")]
            for candidate in shown:
                real = os.path.realpath(candidate)
                outside = real != root and not real.startswith(root + os.sep)
                # Only a folder or a regular file is served: a named pipe would hold the
                # request (and its thread) for ever, a device answer without end.
                odd = os.path.exists(real) and not (os.path.isdir(real) or os.path.isfile(real))
                if outside or odd:
                    self.send_error(HTTPStatus.NOT_FOUND, "File not found")
                    return None
        except (UnicodeError, ValueError):  # "/%ED%A0%80": no file is named so
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad request: the path is not UTF-8")
            return None
        return super().send_head()


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that fails (a client gone mid-answer) is dropped without a traceback."""
        del request, client_address


def make_server(folder: Path, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    return _Server((host, port), handler)


def serve(folder: Path, port: int, log: Callable[[str], None]) -> None:
    """Serve ``folder`` on localhost until interrupted."""
    server = make_server(folder, port)
    host, real_port = server.server_address[:2]
    log(f"serving {folder} at http://{host!s}:{real_port}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        log("stopped")
    finally:
        server.server_close()


def serve_and_watch(
    folder: Path,
    port: int,
    watched: list[Path],
    rebuild: Callable[[], None],
    log: Callable[[str], None],
    stop: threading.Event | None = None,
) -> None:
    """Serve ``folder`` as :func:`serve` does (the same server, loopback only, confined to
    the folder) and call ``rebuild`` whenever a file under ``watched`` changes, until
    interrupted (or ``stop`` is set). A rebuild that fails on bad input is told in one line
    and the last good build stays served: the build replaces the folder only when it has
    succeeded (``output.swap``). The build's own temporary folders beside ``folder`` are
    not watched."""
    try:
        from watchfiles import watch
    except ImportError:
        raise InputError("--watch needs the watchfiles package: pip install watchfiles") from None
    built = folder.resolve()
    beside = f".{built.name}."

    def wanted(change: Any, path: str) -> bool:
        del change
        found = Path(path).resolve()
        return not (
            found == built
            or built in found.parents
            or (found.parent == built.parent and found.name.startswith(beside))
        )

    server = make_server(folder, port)
    host, real_port = server.server_address[:2]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    log(f"serving {folder} at http://{host!s}:{real_port}/, rebuilding on change (Ctrl-C to stop)")
    try:
        for changes in watch(
            *watched, watch_filter=wanted, stop_event=stop, yield_on_timeout=False
        ):
            log(f"{len(changes)} change{'s' if len(changes) != 1 else ''}: rebuilding")
            try:
                rebuild()
            except UserError as exc:
                log(f"error: {exc.describe()} (still serving the last build)")
    except KeyboardInterrupt:
        log("stopped")
    finally:
        server.shutdown()
        server.server_close()
