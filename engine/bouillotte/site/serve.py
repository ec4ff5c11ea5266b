"""A localhost preview server for a built site: loopback only, and never a file outside
the served folder. Each file is opened once, by descriptors from the served folder down,
never through a link (``serve_files.py``): a path with ``..`` is read as ``http.server``
reads it (never above the folder), and a link anywhere on a path (a folder's
``index.html`` among them) is answered 404, even one swapped in between two requests or
within one. An idle connection is closed after :data:`IDLE_SECONDS`, and at most
:data:`MAX_CONNECTIONS` are served at once (one more is answered 503)."""

from __future__ import annotations

import datetime
import email.utils
import functools
import html
import io
import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

from ..rules.errors import InputError, UserError
from .serve_files import BadPath, NotServed, ServedRoot, index_of, listing, names_of, open_beneath

IDLE_SECONDS = 10.0
"""How long a connection may wait on the client (its request, or reading the answer)
before it is closed: a connection that sends nothing held a thread for ever."""

MAX_CONNECTIONS = 64
"""The connections served at once (a browser opens about six); one more is answered 503
at once and closed, so that idle connections cannot take every thread."""

SWAP_TRIES = 20
"""How often a file not found is looked for again while the served folder is being swapped
(``ServedRoot.stale``): within about 0.4 s in all."""

QUERY = "/?&=;:@,+!$'()*~%"
"""What a redirect keeps as it is of the request's query; anything else is escaped."""

BUSY = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 30\r\n"
    b"Retry-After: 1\r\nConnection: close\r\n\r\ntoo many connections: try again"
)


class _QuietHandler(SimpleHTTPRequestHandler):
    root: ServedRoot

    def __init__(self, *args: Any, root: ServedRoot, **kwargs: Any) -> None:
        self.root = root
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args

    def send_head(self) -> Any:
        try:
            names, slash = names_of(self.path)
        except BadPath as exc:  # "/%00", "/%ff", "/%ED%A0%80": no file is named so
            self.send_error(HTTPStatus.BAD_REQUEST, f"Bad request: {exc}")
            return None
        for attempt in range(SWAP_TRIES):  # while a build swaps a new folder in
            try:
                root = self.root.opened()
            except NotServed:
                break
            try:
                return self._answer(root, names, slash)
            except NotServed:
                if not self.root.stale(root):
                    break
            finally:
                os.close(root)
            time.sleep(0.002 * attempt)  # the moment between the swap's two renames
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def _answer(self, root: int, names: list[str], slash: bool) -> Any:
        """The answer to ``names`` below the folder open as ``root``: a file (its name last),
        a folder's index file, its listing, or a redirect to the folder's own path.
        :class:`NotServed` when there is nothing to serve there."""
        fd, status = open_beneath(root, names)
        try:
            if stat.S_ISDIR(status.st_mode):
                if not slash:
                    # Built from the names read, never from the request as it was sent:
                    # "/\evil.com/..%2fassets" redirects to "/assets/", not to a host.
                    query = quote(self.path.split("#", 1)[0].partition("?")[2], safe=QUERY)
                    folder = "/" + "".join(quote(n) + "/" for n in names)
                    self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                    self.send_header("Location", folder + (f"?{query}" if query else ""))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                index = index_of(fd)
                if index is None:
                    return self._listing(fd)
                os.close(fd)
                fd, status, name = index
            elif slash:  # a file named as a folder ("/index.html/")
                raise NotServed(names[-1])
            else:
                name = names[-1]
            opened, fd = fd, -1  # _file's now, to close or send
            return self._file(opened, status, name)
        finally:
            if fd >= 0:
                os.close(fd)

    def _file(self, fd: int, status: os.stat_result, name: str) -> IO[bytes] | None:
        """Headers for the file open as ``fd``; the file itself to send, or ``None`` when
        the browser's copy is current (304). ``fd`` is closed here, or by the caller of
        :meth:`send_head` once it has sent the file."""
        try:
            return self._headers_of(fd, status, name)
        except BaseException:
            os.close(fd)
            raise

    def _headers_of(self, fd: int, status: os.stat_result, name: str) -> IO[bytes] | None:
        if "If-Modified-Since" in self.headers and "If-None-Match" not in self.headers:
            try:
                since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
            except (TypeError, IndexError, OverflowError, ValueError):
                since = None
            if since is not None and since.tzinfo is None:
                since = since.replace(tzinfo=datetime.UTC)
            if since is not None and since.tzinfo is datetime.UTC:
                modified = datetime.datetime.fromtimestamp(status.st_mtime, datetime.UTC)
                if modified.replace(microsecond=0) <= since:
                    self.send_response(HTTPStatus.NOT_MODIFIED)
                    self.end_headers()
                    os.close(fd)
                    return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-type", self.guess_type(name))
        self.send_header("Content-Length", str(status.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(status.st_mtime)))
        self.end_headers()
        return os.fdopen(fd, "rb")

    def _listing(self, folder: int) -> IO[bytes]:
        """A folder without an index file, listed from its descriptor (as http.server
        lists one; a link is shown with ``@``, never followed)."""
        shown = html.escape(self.path.split("?", 1)[0].split("#", 1)[0], quote=False)
        title = f"Directory listing for {shown}"
        lines = [
            "<!DOCTYPE HTML>",
            '<html lang="en">',
            "<head>",
            f'<meta charset="{sys.getfilesystemencoding()}">',
            f"<title>{title}</title>\n</head>",
            f"<body>\n<h1>{title}</h1>",
            "<hr>\n<ul>",
        ]
        for name, is_folder, is_link in listing(folder):
            link = name + "/" if is_folder else name
            label = name + "@" if is_link else link
            href = quote(link, errors="surrogatepass")
            lines.append(f'<li><a href="{href}">{html.escape(label, quote=False)}</a></li>')
        lines.append("</ul>\n<hr>\n</body>\n</html>\n")
        body = "\n".join(lines).encode(sys.getfilesystemencoding(), "surrogateescape")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-type", f"text/html; charset={sys.getfilesystemencoding()}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(ThreadingHTTPServer):
    def __init__(self, address: tuple[str, int], handler: Any, root: ServedRoot) -> None:
        self.root = root
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        # the requests holding a slot: each gives it back once, whether its thread ends or
        # a signal stops process_request after the thread has started
        self.holding: set[int] = set()
        self.holding_lock = threading.Lock()
        try:
            super().__init__(address, handler)
        except BaseException:
            root.close()
            raise

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that fails (a client gone mid-answer) is dropped without a traceback."""
        del request, client_address

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        with self.holding_lock:
            self.holding.add(id(request))
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._give_back(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._give_back(request)

    def _give_back(self, request: Any) -> None:
        """The request's slot, given back once (a second call does nothing)."""
        with self.holding_lock:
            if id(request) not in self.holding:
                return
            self.holding.discard(id(request))
        self.slots.release()

    def service_actions(self) -> None:
        """Every half second: hold the folder now at the path (``ServedRoot``), so that a
        request during the next swap is served from the build before it."""
        self.root.refresh()

    def server_close(self) -> None:
        super().server_close()
        self.root.close()


def make_server(folder: Path, port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    root = ServedRoot(folder)
    # ``timeout``, read by setup(): the socket's timeout, for each wait on the client
    timed = type("_Handler", (_QuietHandler,), {"timeout": IDLE_SECONDS})
    handler = functools.partial(timed, root=root, directory=str(folder))
    return _Server((host, port), handler, root)


def serve(folder: Path, port: int, log: Callable[[str], None]) -> None:
    """Serve ``folder`` on localhost until interrupted (Ctrl-C, or SIGTERM or SIGHUP as the
    command line turns them into one: its exit status then tells which)."""
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
    succeeded (``output.swap``), and a request while it swaps the new one in is served
    from the old one (``serve_files.ServedRoot``). The build's own temporary folders
    beside ``folder`` are not watched."""
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
    root = getattr(server, "root", None)
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
            finally:
                if isinstance(root, ServedRoot):
                    root.refresh()  # the new build, held for the next swap
    except KeyboardInterrupt:
        log("stopped")
    finally:
        server.shutdown()
        server.server_close()
