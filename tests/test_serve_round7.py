"""``site serve``, round seven: a connection's slot is given back once.

The server holds at most 64 connections (a slot each). A signal that stopped
``process_request`` after the request's thread had started gave the slot back twice (there
and as the thread ended): ``ValueError: Semaphore released too many times``, a traceback
in a thread, seen once in the hostile catalogue's run (``serve-a-link-out-of-its-folder``).
The test stops it there on purpose; it failed before the fix.
"""

from __future__ import annotations

import socket
import socketserver
import threading
from pathlib import Path
from typing import Any

import pytest

from bouillotte.site import serve as serve_module


def test_a_signal_after_the_thread_started_gives_the_slot_back_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("first", encoding="utf-8")
    monkeypatch.setattr(serve_module, "MAX_CONNECTIONS", 2)
    server = serve_module.make_server(tmp_path / "site", 0)
    started: list[threading.Thread] = []
    real = socketserver.ThreadingMixIn.process_request

    def process_then_ctrl_c(self: Any, request: Any, client_address: Any) -> None:
        before = set(threading.enumerate())
        real(self, request, client_address)
        started.extend(set(threading.enumerate()) - before)
        raise KeyboardInterrupt  # as a signal would, once the thread runs

    monkeypatch.setattr(socketserver.ThreadingMixIn, "process_request", process_then_ctrl_c)
    failures: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    ours, theirs = socket.socketpair()
    try:
        theirs.sendall(b"GET / HTTP/1.0\r\n\r\n")
        with pytest.raises(KeyboardInterrupt):
            server.process_request(ours, ("127.0.0.1", 1))
        for thread in started:
            thread.join(10)
        assert theirs.recv(4096).startswith(b"HTTP/1.0 200")
    finally:
        theirs.close()
        server.server_close()
    assert failures == []
    slots = server.slots  # type: ignore[attr-defined]
    assert [slots.acquire(blocking=False) for _ in range(3)] == [True, True, False]
