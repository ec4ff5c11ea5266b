"""A localhost preview server for a built site."""

from __future__ import annotations

import functools
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        del format, args


def make_server(folder: Path, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(folder))
    return ThreadingHTTPServer((host, port), handler)


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
