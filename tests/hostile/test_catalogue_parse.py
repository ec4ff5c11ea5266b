"""The hostile catalogue, round four (issue 47): values a user types or writes, parsed
strictly; the bundled works guarded; links of the Sources page confined to http, https and
relative addresses; and the connection to a cluster guarded.

The cases run exactly as those of ``test_catalogue.py`` (the same :class:`Case`, the same
checks: exit status, one line naming the value and what is valid, never a traceback nor a
hang); a case with a ``server`` answer first starts a tiny server on 127.0.0.1 (it accepts
a few connections, answers each the same way, and stops by itself), whose address replaces
``{port}`` in the command.
"""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.study import sweep_cluster

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup, _edit, _editor_folder

UNREAD = """works:
  - id: evil
    title: Evil
    year: "1900"
    status: located
    identifiers:
      - label: A copy
        value: the copy
        url: {url}
    known: Nothing.
"""

READING = """readings:
  - id: levy
    rule: void_deals.levy_and_next_blind
    source: house-rules
    locator: Void deals
    quote: each player puts two counters in the
    question: Does the next dealer blind on top of the levy?
    readings:
      - {{value: levy-and-blind, meaning: He does.}}
      - {{value: levy-instead-of-blind, meaning: He does not.}}
    scenario: {scenario}
    variant: {variant}
"""


def _unread(url: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (_editor_folder(tmp) / "unread.yaml").write_text(UNREAD.format(url=url), "utf-8")
        return None

    return setup


def _reading(scenario: str, variant: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        text = READING.format(scenario=scenario, variant=variant)
        (_editor_folder(tmp) / "readings.yaml").write_text(text, "utf-8")
        return None

    return setup


def _session(tmp: Path) -> Cleanup:
    (tmp / "long.yaml").write_text(
        "id: long\ntitle: Long\nvariant: foster\nplayers: [A, B, C, D]\ndealer: D\n"
        "deals:\n  - {seed: 1, count: 1000000000}\n",
        encoding="utf-8",
    )
    return None


def _accessed(day: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        _edit(
            _editor_folder(tmp) / "sources.yaml",
            "    file: texts/house-rules.txt\n",
            "    file: texts/house-rules.txt\n    url: https://example.org/\n"
            f"    accessed: {day}\n",
        )
        return None

    return setup


def _edition_date(tmp: Path) -> Cleanup:
    _editor_folder(tmp)
    (tmp / "ed" / "site.yaml").write_text("title: Ours\nedition_date: 2025-02-30\n", "utf-8")
    return None


def _bundled_work(tmp: Path) -> Cleanup:
    _edit(
        _editor_folder(tmp) / "sources.yaml",
        "works:\n",
        'works:\n  foster:\n    author: Not Foster\n    title: "A text of our own"\n'
        '    year: "1897"\n    file: texts/house-rules.txt\n',
    )
    return None


EXPORT = ("variants", "export", "foster-three", "--standalone", "--as", "mine3", "--out")


def _exported(tmp: Path, change_text: bool) -> None:
    result = CliRunner().invoke(
        app,
        [*EXPORT, str(tmp / "own")],
    )
    assert result.exit_code == 0, result.output
    if change_text:
        with (tmp / "own" / "texts" / "foster.txt").open("a", encoding="utf-8") as text:
            text.write("\nA paragraph the bundled text does not have.\n")


def _exported_as_is(tmp: Path) -> Cleanup:
    _exported(tmp, change_text=False)
    return None


def _exported_with_another_text(tmp: Path) -> Cleanup:
    _exported(tmp, change_text=True)
    return None


def _impatient(tmp: Path) -> Cleanup:
    """A scheduler is given one second, not ten, to speak first."""
    kept = sweep_cluster.HANDSHAKE_SECONDS
    sweep_cluster.HANDSHAKE_SECONDS = 1.0

    def cleanup() -> None:
        sweep_cluster.HANDSHAKE_SECONDS = kept

    return cleanup


TWO_READINGS = (
    *("--reading", "point.suit_tie=eldest-first"),
    *("--reading", "point.suit_tie=dealer-first"),
)
SWEEP = ("sweep", "foster", "--towards", "pagat", "--deals", "10", "--quiet", "--cluster")
LIST_ED = ("variants", "list", "--variants", "{tmp}/ed/variants")

CASES = [
    # -- links: only http, https and relative addresses reach an href ---------------------
    Case(
        "unread-identifier-javascript-url",
        LIST_ED,
        "unread.yaml:9: works.0.identifiers.0.url: the url must be a web address starting "
        "with http:// or https://",
        setup=_unread("'javascript:alert(document.cookie)'"),
    ),
    Case(
        "unread-identifier-url-with-a-tab-in-its-scheme",
        LIST_ED,
        "works.0.identifiers.0.url: the url must be a web address",
        setup=_unread('"java\\tscript:alert(1)"'),
    ),
    Case(
        "unread-identifier-data-url",
        LIST_ED,
        "works.0.identifiers.0.url: the url must be a web address",
        setup=_unread("'data:text/html,<script>alert(1)</script>'"),
    ),
    Case(
        "unread-identifier-url-that-would-close-an-attribute",
        LIST_ED,
        "unread.yaml:9: works.0.identifiers.0.url: the url holds '\"', which a web address "
        "never does (RFC 3986): percent-encode it",
        setup=_unread("'https://example.org/?q=\"><script>alert(1)</script>'"),
    ),
    Case(
        "unread-identifier-url-that-would-close-a-bibtex-field",
        LIST_ED,
        "the url holds '}', which a web address never does (RFC 3986): percent-encode it",
        setup=_unread("'https://example.org/a},note={pwned'"),
    ),
    # -- policies: each tendency once, ASCII digits, within its range ---------------------
    Case(
        "policy-tendency-set-twice",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "advised:straddle=0.2,straddle=1"),
        "straddle is set twice; set each tendency once",
    ),
    Case(
        "policy-tendency-negative",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "advised:raises=-1"),
        "raises is a whole number from 0 to 99 (in ASCII digits), not '-1'",
    ),
    Case(
        "policy-flag-out-of-range",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "table:call_all_in=5"),
        "call_all_in is 0 or 1 (in ASCII digits), not '5'",
    ),
    Case(
        "policy-point-beyond-any-hand",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "bold:open_point=100000"),
        "open_point is a whole number from 0 to 99",
    ),
    Case(
        "policy-chance-in-fullwidth-digits",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "advised:straddle=\uff10.\uff15"),
        "straddle is a chance, from 0 to 1 (as 0.25, in ASCII digits)",
    ),
    Case(
        "policy-number-with-an-underscore",
        ("simulate", "-v", "foster", "--deals", "5", "--policy", "advised:open_point=2_1"),
        "open_point is a whole number from 0 to 99 (in ASCII digits), not '2_1'",
    ),
    # -- readings: one value per rule; a reading names a known scenario and system ---------
    Case(
        "reading-of-one-rule-with-two-values",
        (
            *("run", "foster-sight", "-v", "foster"),
            *(
                "--reading",
                "point.suit_tie=eldest-first",
                "--reading",
                "point.suit_tie=dealer-first",
            ),
        ),
        "--reading: the rule point.suit_tie is given two readings (eldest-first and dealer-first)",
    ),
    Case(
        "reading-of-one-rule-with-two-values-in-compare",
        (
            *("compare", "foster-sight"),
            *(
                "--reading",
                "point.suit_tie=eldest-first",
                "--reading",
                "point.suit_tie=dealer-first",
            ),
        ),
        "the rule point.suit_tie is given two readings",
    ),
    Case(
        "readings-of-an-unknown-system",
        ("readings", "--variants", "{tmp}/ed/variants"),
        "readings.yaml:12: readings.0.variant: unknown variant (did you mean 'our-table'?); the "
        "variants are",
        setup=_reading("our-table-nobody-opens", "no-such-table"),
    ),
    Case(
        "readings-of-an-unknown-scenario",
        ("readings", "--variants", "{tmp}/ed/variants"),
        "readings.yaml:11: scenario: unknown scenario; the scenarios are",
        setup=_reading("no-such-deal", "our-table"),
        one_line=False,  # the note that these readings replace the bundled ones comes first
    ),
    Case(  # readings that replace the bundled ones of a rule say so, as a profile does
        "readings-that-replace-the-bundled-ones-say-so",
        ("readings", "--variants", "{tmp}/ed/variants", "--scenarios", "{tmp}/ed/scenarios"),
        "note: the readings of void_deals.levy_and_next_blind in",
        exit=0,
        setup=_reading("our-table-nobody-opens", "our-table"),
    ),
    Case(  # the check refuses only what is unknown: one's own scenario, given, is known
        "readings-of-a-scenario-of-ones-own",
        ("readings", "--variants", "{tmp}/ed/variants", "--scenarios", "{tmp}/ed/scenarios"),
        "bouillotte run our-table-nobody-opens --variant our-table",
        exit=0,
        setup=_reading("our-table-nobody-opens", "our-table"),
    ),
    # -- deal counts: at least one, at most a bound ---------------------------------------
    Case("effects-deals-0", ("effects", "--deals", "0"), "--deals must be at least 1 (value: 0)"),
    Case(
        "session-of-a-billion-deals",
        ("session", "{tmp}/long.yaml"),
        "long.yaml:7: deals.0.count: Input should be less than or equal to 100000",
        setup=_session,
    ),
    # -- dates that do not exist ----------------------------------------------------------
    Case(
        "yaml-date-that-does-not-exist",
        LIST_ED,
        "sources.yaml:13: works.house-rules.accessed: not a date that exists (day is out of "
        "range for month)",
        setup=_accessed("2025-02-30"),
    ),
    Case(
        "yaml-month-13",
        LIST_ED,
        "sources.yaml:13: works.house-rules.accessed: not a date that exists (month must be in "
        "1..12)",
        setup=_accessed("2025-13-01"),
    ),
    Case(
        "yaml-explicit-float-that-is-no-number",
        LIST_ED,
        "sources.yaml:13: works.house-rules.accessed: not a valid float",
        setup=_accessed('!!float "abc"'),
    ),
    Case(
        "accessed-day-that-does-not-exist",
        LIST_ED,
        "works.house-rules.accessed: '2025-02-30' is not a day that exists",
        setup=_accessed('"2025-02-30"'),
    ),
    Case(
        "site-edition-date-that-does-not-exist",
        ("site", "build", "--config", "{tmp}/ed/site.yaml", "--out", "{tmp}/out"),
        "site.yaml:2: edition_date: not a date that exists",
        setup=_edition_date,
        gone=("out",),
    ),
    Case(
        "source-date-epoch-past-the-year-9999",
        ("site", "build", "--out", "{tmp}/out"),
        "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 (UTC), up to 253402300799",
        env=(("SOURCE_DATE_EPOCH", "99999999999999"),),
        real=True,
        gone=("out",),
        within=30,
    ),
    # -- an export's id is one every later command accepts --------------------------------
    Case(
        "export-as-an-id-with-an-underscore",
        ("variants", "export", "foster", "--as", "my_table", "--out", "{tmp}/e"),
        "--as must be a profile's id: 'my_table' is not an id",
        gone=("e",),
    ),
    Case(
        "export-as-the-bibliography",
        ("variants", "export", "foster", "--as", "sources", "--out", "{tmp}/e"),
        "--as must be a profile's id: 'sources' is the name of a folder's sources.yaml",
        gone=("e",),
    ),
    Case(
        "export-as-an-id-of-300-characters",
        ("variants", "export", "foster", "--as", "a" * 300, "--out", "{tmp}/e"),
        "--as must be a profile's id: an id has at most 100 characters, not 300",
        gone=("e",),
    ),
    # -- the bundled works, guarded like the bundled profiles -----------------------------
    Case(
        "work-with-a-bundled-id",
        LIST_ED,
        "sources.yaml:4: the work id 'foster' is already the bundled work 'foster', and this "
        "entry (or its text) differs from it",
        setup=_bundled_work,
    ),
    Case(
        "work-with-a-bundled-id-and-another-text",
        ("variants", "show", "mine3", "--variants", "{tmp}/own"),
        "the work id 'foster' is already the bundled work 'foster', and this entry (or its "
        "text) differs from it",
        setup=_exported_with_another_text,
    ),
    Case(  # the guard refuses only a change: an exported folder reads beside the library
        "exported-folder-beside-the-bundled-library",
        ("variants", "list", "--variants", "{tmp}/own"),
        "mine3",
        exit=0,
        setup=_exported_as_is,
    ),
    # -- the cluster: anything but a Dask scheduler is one line, at once ------------------
    Case(
        "cluster-answers-with-http",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it answers with HTTP",
        within=20,
    ),
    Case(
        "cluster-answers-with-a-banner",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it answers with the line 'SSH-2.0-'",
        within=20,
    ),
    Case(
        "cluster-announces-a-huge-frame",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it announces a frame of 4,611,686,018,427,387,904",
        within=20,
    ),
    Case(
        "cluster-sends-an-empty-frame",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it sent an empty frame",
        within=20,
    ),
    Case(
        "cluster-answers-with-tls",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it answers with TLS",
        within=20,
    ),
    Case(
        "cluster-says-nothing",
        (*SWEEP, "tcp://127.0.0.1:{port}"),
        "--cluster: is not a Dask scheduler: it sent nothing in 1 s",
        setup=_impatient,
        within=20,
    ),
    Case(
        "cluster-address-over-ucx",
        (*SWEEP, "ucx://127.0.0.1:{port}"),
        "--cluster: a scheduler's address is tcp://host:port or tls://host:port",
        within=20,
    ),
    Case(
        "cluster-tls-address-of-a-plain-server",
        (*SWEEP, "tls://127.0.0.1:{port}"),
        "--cluster: cannot connect to the Dask scheduler:",
        within=20,
    ),
]

SERVERS: dict[str, bytes | None] = {
    "cluster-answers-with-http": b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
    "cluster-answers-with-a-banner": b"SSH-2.0-OpenSSH_9.6\r\n",
    "cluster-announces-a-huge-frame": struct.pack("<Q", 1 << 62),
    "cluster-sends-an-empty-frame": struct.pack("<Q", 0),
    "cluster-answers-with-tls": b"\x15\x03\x01\x00\x02\x02\x28",  # a TLS alert
    "cluster-says-nothing": None,
    "cluster-address-over-ucx": b"",
    "cluster-tls-address-of-a-plain-server": b"HTTP/1.1 400 Bad Request\r\n\r\n",
}
"""What the server of a case sends to each connection (``None``: nothing, until it closes
the connection two seconds later)."""


@contextlib.contextmanager
def _server(answer: bytes | None) -> Iterator[int]:
    """A server on 127.0.0.1 that answers every connection with ``answer`` (then holds it
    until the other end closes it, two seconds at most; after an empty answer, closes it
    at once); it accepts at most four connections, and stops when the case ends or after
    60 s, whatever happens. Yields its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve() -> None:
        served, deadline = 0, time.monotonic() + 60
        with listener:
            while served < 4 and not stop.is_set() and time.monotonic() < deadline:
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                except OSError:
                    return
                served += 1
                with connection:
                    try:
                        if answer:
                            connection.sendall(answer)
                        if answer != b"":
                            connection.settimeout(2)
                            connection.recv(1 << 16)
                    except OSError:
                        pass

    worker = threading.Thread(target=serve, daemon=True)
    worker.start()
    try:
        yield port
    finally:
        stop.set()
        worker.join(5)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_round_four(case: Case, case_dir: Path) -> None:
    with contextlib.ExitStack() as stack:
        if case.id in SERVERS:
            port = stack.enter_context(_server(SERVERS[case.id]))
            argv = tuple(a.replace("{port}", str(port)) for a in case.argv)
            case = dataclasses.replace(case, argv=argv)
        catalogue.test_hostile_input(case, case_dir)
