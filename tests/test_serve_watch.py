"""``bouillotte site serve --watch``: a change under a watched folder rebuilds, the same
confined server keeps serving, a failed rebuild keeps the last build (site/serve.py)."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bouillotte.rules.errors import InputError
from bouillotte.site import serve as serve_module


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def _until(check: object, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(check) and check():
            return True
        time.sleep(0.05)
    return False


def test_a_change_rebuilds_and_a_failed_rebuild_keeps_serving(tmp_path: Path) -> None:
    site, inputs = tmp_path / "_site", tmp_path / "inputs"
    site.mkdir()
    inputs.mkdir()
    (tmp_path / "secret.txt").write_text("not for the web", encoding="utf-8")
    (site / "index.html").write_text("first", encoding="utf-8")
    said: list[str] = []
    rebuilds: list[str] = []

    def rebuild() -> None:
        text = (inputs / "profile.yaml").read_text(encoding="utf-8")
        if "bad" in text:
            raise InputError("a bad value", file=inputs / "profile.yaml", line=1)
        rebuilds.append(text)
        (site / "index.html").write_text(text, encoding="utf-8")

    ports: list[int] = []
    real = serve_module.make_server

    def recording(folder: Path, port: int, host: str = "127.0.0.1") -> object:
        server = real(folder, port, host)
        ports.append(server.server_address[1])
        return server

    stop = threading.Event()
    serve_module.make_server = recording  # type: ignore[assignment]
    try:
        thread = threading.Thread(
            target=serve_module.serve_and_watch,
            args=(site, 0, [inputs], rebuild, said.append, stop),
        )
        thread.start()
        assert _until(lambda: ports and said)
        (port,) = ports
        assert _get(port, "/") == (200, "first")
        time.sleep(0.3)  # let the watcher start
        (inputs / "profile.yaml").write_text("second", encoding="utf-8")
        assert _until(lambda: _get(port, "/") == (200, "second")), said
        (inputs / "profile.yaml").write_text("bad", encoding="utf-8")
        assert _until(lambda: any("still serving the last build" in s for s in said)), said
        assert _get(port, "/") == (200, "second")
        # the same confinement as site serve: nothing outside the served folder
        assert _get(port, "/../secret.txt")[0] == 404
        assert _get(port, "/%2e%2e/secret.txt")[0] == 404
        (site / "ignored.html").write_text("a build's own output", encoding="utf-8")
        time.sleep(0.5)
        assert rebuilds == ["second"]  # the output folder is not watched
    finally:
        stop.set()
        thread.join(10)
        serve_module.make_server = real
    assert not thread.is_alive()
