"""Round six of ``bouillotte site serve`` (site/serve.py, site/serve_files.py), each test a
defect a reviewer reproduced:

1. a file swapped for a link out of the folder between the server's check and its open
   was sent (3 of 484 answers were /etc/passwd): each file is now opened once, by
   descriptors, never through a link;
2. a connection that sent nothing more held a thread for ever: it is closed after
   ``IDLE_SECONDS``, and at most ``MAX_CONNECTIONS`` are served at once (503 beyond);
3. ``--watch`` answered 404 while a rebuild swapped its folder in: the folder held open
   is served while there is none at the path;
4. ``GET /\\evil.com/..%2fassets`` redirected to ``/\\evil.com/..%2fassets/`` (the host
   evil.com, for a browser): a redirect is built from the names read;
5. ``/%ff`` was 404 where ``/%ED%A0%80`` was 400: both are 400;
6. ``site serve --watch --dir X`` named ``--out`` in its errors: it names ``--dir``;
7. SIGTERM and SIGHUP ended ``site serve`` with 0: 143 and 129, as docs/contracts.md says.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.site import serve as serve_module
from bouillotte.site.output import MARKER, swap

from .own_rules import foster_rules_as_ones_own

ENGINE = Path(__file__).resolve().parent.parent / "engine"
SECRET = "root:SECRET-of-another-folder"


@contextlib.contextmanager
def _serving(folder: Path) -> Iterator[int]:
    server = serve_module.make_server(folder, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def _raw(port: int, request: bytes, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of the answer to ``request`` sent as it is."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), headers, body


def _get(port: int, path: str) -> tuple[int, bytes]:
    status, _, body = _raw(port, f"GET {path} HTTP/1.0\r\n\r\n".encode("latin-1"))
    return status, body


def _site(folder: Path, text: str = "first") -> Path:
    """A folder as a build leaves it (its marker lists its files)."""
    (folder / "assets").mkdir(parents=True)
    (folder / "index.html").write_text(text, encoding="utf-8")
    (folder / "page.html").write_text("the page", encoding="utf-8")
    (folder / "assets" / "style.css").write_text("body {}", encoding="utf-8")
    (folder / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n"
        "The files it wrote:\n- assets/style.css\n- index.html\n- page.html\n",
        encoding="utf-8",
    )
    return folder


def _secret(tmp: Path) -> Path:
    (tmp / "outside").mkdir()
    (tmp / "outside" / "passwd").write_text(SECRET, encoding="utf-8")
    return tmp / "outside" / "passwd"


def _link(target: Path, at: Path) -> None:
    """``at`` replaced at once by a link to ``target`` (os.symlink, then os.replace)."""
    beside = at.with_name(f".{at.name}.link")
    with contextlib.suppress(FileNotFoundError):
        beside.unlink()
    os.symlink(target, beside)
    os.replace(beside, at)


# -- 1. a file opened once, never through a link -------------------------------------------


def test_a_file_swapped_for_a_link_after_it_is_found_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst moment of the race, made certain: the file is swapped for a link to a
    secret outside the folder once the server has found it and is naming its type (the
    old server checked the path, then opened it again by name: it sent the secret)."""
    site, secret = _site(tmp_path / "site"), _secret(tmp_path)
    real = serve_module._QuietHandler.guess_type

    def swapping(self: object, path: object) -> str:
        if (site / "page.html").is_file() and not (site / "page.html").is_symlink():
            _link(secret, site / "page.html")
        return real(self, path)  # type: ignore[arg-type]

    monkeypatch.setattr(serve_module._QuietHandler, "guess_type", swapping)
    with _serving(site) as port:
        status, body = _get(port, "/page.html")
        assert SECRET.encode() not in body
        assert (status, body) == (200, b"the page")  # what was opened, before the swap
        assert (site / "page.html").is_symlink()
        assert _get(port, "/page.html")[0] == 404  # the link itself: never followed


def test_a_link_swapped_in_just_before_the_open_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file, or a folder on its path, becomes a link out of the folder just before it
    is opened: the open refuses the link (O_NOFOLLOW), and the answer is 404."""
    site, secret = _site(tmp_path / "site"), _secret(tmp_path)
    (site / "sub").mkdir()
    (site / "sub" / "passwd").write_text("a page of the site", encoding="utf-8")
    real_open = os.open

    def folder_out() -> None:  # a folder cannot be replaced by a link in one rename
        (site / "sub").rename(site / ".sub.aside")
        (site / "sub").symlink_to(secret.parent)

    swaps = {"page.html": lambda: _link(secret, site / "page.html"), "sub": folder_out}

    def opening(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if threading.current_thread() is not threading.main_thread() and path in swaps:
            swaps.pop(str(path))()
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", opening)
    with _serving(site) as port:
        status, body = _get(port, "/page.html")
        assert status == 404 and SECRET.encode() not in body
        status, body = _get(port, "/sub/passwd")
        assert status == 404 and SECRET.encode() not in body
    assert not swaps  # both swaps were made


def test_a_link_on_the_path_is_never_followed(tmp_path: Path) -> None:
    """A link as a folder on the path, out of the folder or within it (a build writes
    none), is answered 404, as a link as the file is."""
    site, secret = _site(tmp_path / "site"), _secret(tmp_path)
    (site / "out").symlink_to(secret.parent)
    (site / "within").symlink_to(site / "assets")
    (site / "leak").symlink_to(secret)
    with _serving(site) as port:
        assert _get(port, "/out/passwd")[0] == 404
        assert _get(port, "/within/style.css")[0] == 404
        assert _get(port, "/leak")[0] == 404
        assert _get(port, "/assets/style.css") == (200, b"body {}")
        # a folder without index.html is listed from its descriptor: a link is named, not followed
        status, body = _get(port, "/")
        assert status == 200 and body == b"first"
        (site / "index.html").unlink()
        status, body = _get(port, "/")
        assert status == 200 and b"leak@" in body and b"assets/" in body


def test_the_race_of_a_link_swapped_in_and_out_never_sends_the_secret(tmp_path: Path) -> None:
    """The reviewer's loop, for two seconds: a file swapped for a link to a secret and back
    (os.symlink and os.replace) while it is requested."""
    site, secret = _site(tmp_path / "site"), _secret(tmp_path)
    (tmp_path / "page").write_text("the page", encoding="utf-8")
    stop = threading.Event()

    def swapper() -> None:
        while not stop.is_set():
            _link(secret, site / "page.html")
            shutil.copy(tmp_path / "page", site / ".page.html.new")
            os.replace(site / ".page.html.new", site / "page.html")

    seen: dict[int, int] = {}
    with _serving(site) as port:
        thread = threading.Thread(target=swapper, daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                status, body = _get(port, "/page.html")
                assert SECRET.encode() not in body
                seen[status] = seen.get(status, 0) + 1
        finally:
            stop.set()
            thread.join(5)
    assert set(seen) <= {200, 404}, seen


# -- 2. idle connections --------------------------------------------------------------------


def _idle(port: int) -> socket.socket:
    """A connection that sends the start of a request, and nothing more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\n")
    return sock


def test_an_idle_connection_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    default = getattr(serve_module, "IDLE_SECONDS", None)
    monkeypatch.setattr(serve_module, "IDLE_SECONDS", 0.5, raising=False)
    site = _site(tmp_path / "site")
    with _serving(site) as port:
        sock = _idle(port)
        sock.settimeout(5)
        started = time.monotonic()
        try:
            closed = sock.recv(4096) == b""
        except TimeoutError:
            closed = False  # the old server held it for ever
        finally:
            sock.close()
        assert closed and time.monotonic() - started < 4
        assert _get(port, "/") == (200, b"first")
    assert default == 10  # as docs/site.md says


def test_the_connections_held_at_once_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    default = getattr(serve_module, "MAX_CONNECTIONS", None)
    monkeypatch.setattr(serve_module, "MAX_CONNECTIONS", 3, raising=False)
    site = _site(tmp_path / "site")
    before = threading.active_count()
    with _serving(site) as port:
        idle = [_idle(port) for _ in range(20)]
        try:
            time.sleep(0.5)
            assert threading.active_count() <= before + 1 + 3  # the server's, and three
            status, headers, _ = _raw(port, b"GET / HTTP/1.0\r\n\r\n", timeout=3)
            assert status == 503 and headers.get("Retry-After") == "1"
        finally:
            for sock in idle:
                sock.close()
        deadline = time.monotonic() + 5
        while _get(port, "/")[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _get(port, "/") == (200, b"first")
    assert default == 64  # as docs/site.md says


# -- 3. a rebuild swapped in ----------------------------------------------------------------


def test_a_request_while_no_folder_is_at_the_path_gets_the_last_build(tmp_path: Path) -> None:
    """The moments of ``output.swap``, one at a time: the old build renamed aside (no folder
    at the path), the new one renamed in, the old one removed."""
    site = _site(tmp_path / "site", "old")
    new = _site(tmp_path / ".site.new", "new")
    aside = tmp_path / ".site.old-1"
    with _serving(site) as port:
        assert _get(port, "/") == (200, b"old")
        site.rename(aside)
        assert _get(port, "/") == (200, b"old")  # the old server: 404
        assert _get(port, "/assets/style.css") == (200, b"body {}")
        new.rename(site)
        assert _get(port, "/") == (200, b"new")
        shutil.rmtree(aside)
        assert _get(port, "/page.html") == (200, b"the page")


def test_two_builds_without_a_request_between_them(tmp_path: Path) -> None:
    """The folder held is the one at the path, taken again twice a second (and after each
    rebuild of ``--watch``): after two swaps that no request saw, the gap of a third is
    served from the second."""
    site = _site(tmp_path / "site", "first")
    with _serving(site) as port:
        assert _get(port, "/") == (200, b"first")
        for text in ("second", "third"):
            swap(_site(tmp_path / f".site.{text}", text), site)
            time.sleep(1.2)
        site.rename(tmp_path / ".site.aside")
        assert _get(port, "/") == (200, b"third")


def test_a_file_not_found_in_a_folder_swapped_out_is_looked_for_in_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request that took the old folder just before the swap, and opens its file once
    the old folder is removed, is served from the new one."""
    from bouillotte.site import serve_files

    site = _site(tmp_path / "site", "old")
    new = _site(tmp_path / ".site.new", "new")
    real = serve_files.open_beneath
    swapped: list[bool] = []

    def late(root: int, names: list[str]) -> object:
        if not swapped:
            swapped.append(True)
            swap(new, site)
        return real(root, names)

    monkeypatch.setattr(serve_module, "open_beneath", late, raising=False)
    with _serving(site) as port:
        assert _get(port, "/page.html") == (200, b"the page")
        assert _get(port, "/") == (200, b"new")
    assert swapped


def test_rebuilds_swapped_in_again_and_again_answer_every_request(tmp_path: Path) -> None:
    """A build swapped in (``output.swap``) again and again for two seconds: every request
    meanwhile is answered 200 (5 of 46,374 were 404)."""
    site = _site(tmp_path / "site", "build 0")
    stop = threading.Event()
    builds: list[int] = []

    def rebuilding() -> None:
        while not stop.is_set():
            n = len(builds) + 1
            swap(_site(tmp_path / f".site.tmp-{n}", f"build {n}"), site)
            builds.append(n)

    answers: dict[int, int] = {}
    with _serving(site) as port:
        thread = threading.Thread(target=rebuilding, daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                for path in ("/", "/assets/style.css"):
                    status = _get(port, path)[0]
                    answers[status] = answers.get(status, 0) + 1
        finally:
            stop.set()
            thread.join(10)
    assert len(builds) > 10
    assert set(answers) == {200}, answers


def test_serve_watch_answers_every_request_while_it_rebuilds(tmp_path: Path) -> None:
    """``serve_and_watch`` itself: each change rebuilds and swaps the folder in as a build
    does, while requests go on; every one is answered 200, the last build at the end."""
    site, inputs = _site(tmp_path / "site", "build 0"), tmp_path / "inputs"
    inputs.mkdir()
    said: list[str] = []
    builds: list[str] = []

    def rebuild() -> None:
        text = (inputs / "profile.yaml").read_text(encoding="utf-8")
        swap(_site(tmp_path / f".site.tmp-{len(builds)}", text), site)
        builds.append(text)

    ports: list[int] = []
    real = serve_module.make_server

    def recording(folder: Path, port: int, host: str = "127.0.0.1") -> object:
        server = real(folder, port, host)
        ports.append(server.server_address[1])
        return server

    stop, done = threading.Event(), threading.Event()
    answers: dict[int, int] = {}

    def requests() -> None:
        while not done.is_set():
            status = _get(ports[0], "/")[0]
            answers[status] = answers.get(status, 0) + 1

    serve_module.make_server = recording  # type: ignore[assignment]
    watcher = threading.Thread(
        target=serve_module.serve_and_watch, args=(site, 0, [inputs], rebuild, said.append, stop)
    )
    watcher.start()
    try:
        deadline = time.monotonic() + 15
        while not (ports and said) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # let the watcher start
        asker = threading.Thread(target=requests, daemon=True)
        asker.start()
        for n in (1, 2):
            (inputs / "profile.yaml").write_text(f"build {n}", encoding="utf-8")
            deadline = time.monotonic() + 15
            while len(builds) < n and time.monotonic() < deadline:
                time.sleep(0.05)
        done.set()
        asker.join(10)
        assert builds == ["build 1", "build 2"], said
        assert _get(ports[0], "/") == (200, b"build 2")
    finally:
        done.set()
        stop.set()
        watcher.join(10)
        serve_module.make_server = real
    assert set(answers) == {200}, answers


def test_the_answers_http_server_gave_are_kept(tmp_path: Path) -> None:
    """What the files are now opened by, the answers are as ``http.server``'s: a file's
    type, length and date, HEAD without a body, 304 for the browser's current copy, a
    file named as a folder 404."""
    site = _site(tmp_path / "site")
    with _serving(site) as port:
        status, headers, body = _raw(port, b"GET /assets/style.css HTTP/1.0\r\n\r\n")
        assert (status, body, headers["Content-Length"]) == (200, b"body {}", "7")
        assert headers["Content-type"] == "text/css"
        dated = headers["Last-Modified"]
        status, headers, body = _raw(port, b"HEAD /index.html HTTP/1.0\r\n\r\n")
        assert (status, body, headers["Content-type"]) == (200, b"", "text/html")
        since = f"GET /index.html HTTP/1.0\r\nIf-Modified-Since: {dated}\r\n\r\n"
        assert _raw(port, since.encode())[0] == 304
        assert _get(port, "/index.html/")[0] == 404
        assert _get(port, "/nothing.html")[0] == 404


# -- 4. 5. redirects and paths --------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_path", "location"),
    [
        ("/\\evil.com/..%2fassets", "/assets/"),
        ("/%5Cevil.com/..%2fassets", "/assets/"),
        ("//evil.com/..%2fassets", "/assets/"),
        ("/assets/.", "/assets/"),
        ("/assets?page=2", "/assets/?page=2"),
        ("/.", "/"),
        ("/", None),
    ],
)
def test_a_redirect_never_leads_to_another_host(
    tmp_path: Path, request_path: str, location: str | None
) -> None:
    site = _site(tmp_path / "site")
    with _serving(site) as port:
        status, headers, body = _raw(port, f"GET {request_path} HTTP/1.0\r\n\r\n".encode())
    if location is None:
        assert (status, body) == (200, b"first")
        return
    assert status == 301
    assert headers["Location"] == location
    assert not headers["Location"].startswith(("//", "/\\"))


@pytest.mark.parametrize("path", ["/%ff", "/%ED%A0%80", "/assets/%C0%AF", "/%ff/index.html"])
def test_a_path_that_is_not_utf8_is_a_bad_request(tmp_path: Path, path: str) -> None:
    site = _site(tmp_path / "site")
    with _serving(site) as port:
        status, body = _get(port, path)
    assert status == 400
    assert b"not UTF-8" in body


# -- 6. --watch names --dir -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        ("own", "error: own: --dir holds the input own: building would delete it; choose "
         "another --dir"),
        (".", "error: .: --dir must name a folder (not the current one)"),
    ],
)  # fmt: skip
def test_serve_watch_names_the_option_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, message: str
) -> None:
    (tmp_path / "own").mkdir()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["site", "serve", "--watch", "--dir", folder, "--no-bundled", "--variants", "own"]
    )
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == message  # after a note on --variants
    assert "--out" not in result.stderr


def test_only_the_option_is_renamed_never_a_path() -> None:
    from bouillotte.cli.commands.site import _as_dir_option
    from bouillotte.rules.errors import InputError

    error = InputError(
        "--out holds the input my--out/--out: building would delete it; choose another --out",
        file="x--out",
    )
    _as_dir_option(error)
    assert error.describe() == (
        "x--out: --dir holds the input my--out/--out: building would delete it; choose "
        "another --dir"
    )


# -- 7. signals -----------------------------------------------------------------------------


def _as_a_shell_starts_it() -> None:
    """In the child: Ctrl-C and SIGHUP as a terminal's shell leaves them, whatever the
    test's own process was started with (a CI job in the background ignores SIGINT, which
    the server then keeps ignored, as a command started under nohup keeps SIGHUP)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _stopped(tmp: Path, how: signal.Signals) -> tuple[int, str]:
    site = _site(tmp / f"site-{how.name}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bouillotte", "site", "serve", "--dir", str(site), "--port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_a_shell_starts_it,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        port = int(re.findall(r"127\.0\.0\.1:(\d+)/", line)[0])
        assert _get(port, "/") == (200, b"first")
        os.kill(proc.pid, how)
        _, rest = proc.communicate(timeout=15)
        return proc.returncode, rest
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize(
    ("how", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 0)]
)
def test_serve_ends_with_the_status_of_its_signal(
    tmp_path: Path, how: signal.Signals, status: int
) -> None:
    """Ctrl-C is how a user stops the preview: ``stopped``, 0. SIGTERM and SIGHUP stop it
    the same way, and end with 143 and 129 as every command does (docs/contracts.md)."""
    code, said = _stopped(tmp_path, how)
    assert (code, said) == (status, "stopped\n")


def test_serve_watch_ends_with_the_status_of_sigterm(tmp_path: Path) -> None:
    """The same with ``--watch`` (a site of one profile of the user's own)."""
    import yaml

    (tmp_path / "mine").mkdir()
    profile = {"title": "House", "source": "mybook", "rules": foster_rules_as_ones_own()}
    (tmp_path / "mine" / "house.yaml").write_text(yaml.safe_dump(profile), encoding="utf-8")
    (tmp_path / "mine" / "sources.yaml").write_text(
        'works:\n  mybook:\n    author: A. Player\n    title: Our own book\n    year: "1990"\n'
        "    language: en\n",
        encoding="utf-8",
    )
    argv = ["site", "serve", "--watch", "--port", "0", "--dir", str(tmp_path / "out")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bouillotte", *argv, "--no-bundled", "--variants", "mine"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_a_shell_starts_it,
        env={**os.environ, "PYTHONPATH": str(ENGINE)},
    )
    try:
        assert proc.stderr is not None
        lines: list[str] = []
        while not lines or "rebuilding on change" not in lines[-1]:
            lines.append(proc.stderr.readline())
            assert lines[-1], lines
        port = int(re.findall(r"127\.0\.0\.1:(\d+)/", lines[-1])[0])
        assert _get(port, "/")[0] == 200
        time.sleep(0.3)  # the watcher started
        os.kill(proc.pid, signal.SIGTERM)
        _, rest = proc.communicate(timeout=15)
        assert (proc.returncode, rest) == (143, "stopped\n")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
