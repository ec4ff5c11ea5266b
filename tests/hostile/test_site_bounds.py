"""Issue 47, round four, part four: the site's prose, templates, preview server and second
process, hostile. Each test was shown failing before its fix.

- A link or image of Markdown prose leads only where the site's one rule for an address
  lets it (``http``, ``https`` or relative): markdown-it alone let ``ms-msdt:``, ``ftp:``,
  ``data:image``, ``mailto:`` and ``//other.host`` through.
- A theme's template cannot make a value that takes minutes or gigabytes: ``lipsum`` of
  millions of paragraphs, a chain of powers, a format or a padding of two billion
  characters, a ``sum`` of twenty thousand lists.
- The preview server answers a named pipe 404 (it held the request for ever) and a path
  that is no UTF-8 400 (it dropped the connection).
- A worker of a build ends when the build is killed outright (it waited for ever, holding
  the build's lock), and the build's second process does not hold the lock.
- A stored result that is a named pipe is one line, not a read that never ends.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from jinja2 import DictLoader, TemplateError

from bouillotte.site.effects_store import read_stored
from bouillotte.site.prose import markdown
from bouillotte.site.serve import make_server
from bouillotte.site.theme import BoundedEnvironment, render_bounded


@pytest.mark.parametrize(
    "text",
    [
        "[x](ms-msdt:/id%20PCWDiagnostic)",
        "<ftp://evil.example/f>",
        "![i](data:image/png;base64,iVBORw0KGgo=)",
        "[m](mailto:someone@example.org)",
        "[i](intent://x#Intent;end)",
        "[p](//evil.example/)",
        "[s](search-ms:query=x)",
    ],
)
def test_prose_links_only_to_http_https_or_the_site(text: str) -> None:
    html = str(markdown(text))
    assert "href=" not in html and "src=" not in html, html


def test_prose_keeps_its_good_links() -> None:
    html = str(markdown("[a](https://example.org/) [b](texts/foster.html#p2) <http://x.y/>"))
    assert html.count("href=") == 3


def _render(body: str) -> str:
    env = BoundedEnvironment(loader=DictLoader({"t.html": body}), autoescape=True)
    return render_bounded(env, "t.html", {})


@pytest.mark.parametrize(
    "body",
    [
        "{{ lipsum(3000000) }}",
        "{% set x = ((((10**64)**64)**64)**64)**64 %}",
        '{{ "%2000000000s" % "x" }}',
        '{{ "%*s" % (2000000000, "x") }}',
        '{{ "x"|center(2000000000) }}',
        '{{ "x".ljust(2000000000) }}',
        '{{ "{:2000000000}".format(1) }}',
        '{{ "{0:{1}}".format(1, 2000000000) }}',
        '{{ "%2000000000s"|format("x") }}',
        "{{ ([[1]*1000]*20000)|sum(start=[])|length }}",
        '{{ "x"|indent(2000000000, true) }}',
        # round five: no '*' nor '**', nor a long loop
        '{% set s = "x" * 2**14 %}{{ (s|replace("x", s))|length }}',
        '{% set s = "x" * 2**14 %}{{ s.replace("x", s)|length }}',
        '{% set ns = namespace(s="x") %}{% for i in range(28) %}{% set ns.s = ns.s ~ ns.s %}'
        "{% endfor %}",
        '{% set ns = namespace(s="x") %}{% for i in range(28) %}{% set ns.s = ns.s + ns.s %}'
        "{% endfor %}",
        '{% set ns = namespace(s="x") %}{% for i in range(28) %}'
        "{% set ns.s = [ns.s, ns.s]|join %}{% endfor %}",
        '{% set l = [1] %}{% for i in range(24) %}{{ l.extend(l) or "" }}{% endfor %}',
        '{{ ("\n" * 256)|indent(2**20, blank=True)|length }}',
        '{{ ("\t" * 256).expandtabs(2**20)|length }}',
        '{{ ("{:>1048576}" * 256).format(*range(256))|length }}',
        '{{ ("%1048576s" * 256)|format(*range(256))|length }}',
        "{{ lipsum(20, false, 200000, 200001)|length }}",
        '{% set s = "ab" * 2**19 %}{{ s|join(s)|length }}',
        '{% set s = "ab" * 2**19 %}{{ s.join(s)|length }}',
        '{{ "{a:{w}}".format_map({"a": 1, "w": 2000000000}) }}',
    ],
)
def test_a_template_cannot_make_a_huge_value(body: str) -> None:
    started = time.monotonic()
    with pytest.raises(TemplateError):
        _render(body)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ('{{ "Deals: 20000000 (%d)" % 5 }}', "Deals: 20000000 (5)"),
        ('{{ "{} of 100000000 deals".format(5) }}', "5 of 100000000 deals"),
        ('{{ "%s of 20000000"|format(5) }}', "5 of 20000000"),
        ('{{ "{{x: {}}}".format(5) }}', "{x: 5}"),
        ("{{ 2 ** 100 }}", str(2**100)),
        ("{{ 1.5 ** 100 }}", str(1.5**100)),
        ('{{ "%*d" % (5, 3) }}', "    3"),
        ('{{ "{0:{1}}".format(1, 5) }}', "    1"),
        ('{{ "a" ~ "b" ~ 5 }}', "ab5"),
        ('{{ ["a", "b"]|join(",") }}', "a,b"),
        ('{{ "abc"|replace("b", "xx") }}', "axxc"),
        ("{% set l = [1] %}{{ l.append(2) or l }}", "[1, 2]"),
    ],
)
def test_ordinary_idioms_are_not_taken_for_huge_ones(body: str, shown: str) -> None:
    """A number in a format's text is no width; a power of 100 is no huge number."""
    assert _render(body) == shown


def test_bounded_templates_still_do_what_small_ones_ask() -> None:
    shown = _render(
        '{{ "%s"|format(1) }} {{ [1, 2]|sum }} {{ [[1], [2]]|sum(start=[]) }} '
        '{{ "a"|center(5) }}|{{ 2**10 }} {{ "%3d" % 7 }} {{ "{:>4}".format("x") }}'
        "{{ (lipsum(2)|length > 0) }}"
    )
    assert shown == "1 3 [1, 2]   a  |1024   7    xTrue"


def _get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", path)
    status = connection.getresponse().status
    connection.close()
    return status


def test_the_preview_server_answers_a_pipe_and_an_odd_path(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>x</title>\n", "utf-8")
    os.mkfifo(tmp_path / "pipe")
    server = make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        assert _get(port, "/pipe") == 404
        assert _get(port, "/%ED%A0%80") == 400
        assert _get(port, "/index.html") == 200
    finally:
        server.shutdown()
        server.server_close()


ORPHAN = """
import os, sys, time
from bouillotte.study.workers import end_with_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    end_with_parent(parent, every=0.1)
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


def test_a_worker_ends_when_its_build_is_killed_outright() -> None:
    process = subprocess.Popen([sys.executable, "-c", ORPHAN], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    child = int(process.stdout.readline())
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        # reaped by init once it ends: a zombie of ours it is not
        if Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
            return
        time.sleep(0.1)
    os.kill(child, 9)
    pytest.fail("the worker outlived its parent")


def test_the_second_process_of_a_build_does_not_hold_its_lock(tmp_path: Path) -> None:
    from bouillotte.site import output

    with output.BuildLock(tmp_path / "site"):
        assert output._HELD
        held = set(output._HELD)
        read, write = os.pipe()
        child = os.fork()
        if child == 0:
            output.release_inherited_locks()
            closed = all(_closed(fd) for fd in held)
            os.write(write, b"1" if closed else b"0")
            os._exit(0)
        os.waitpid(child, 0)
        assert os.read(read, 1) == b"1"
        os.close(read)
        os.close(write)


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def test_a_stored_result_that_is_a_pipe_is_one_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "foster__pagat.json")
    started = time.monotonic()
    found = read_stored(tmp_path / "foster__pagat.json", lambda d: "key", 10, "none", "stale")
    assert found.data is None
    assert "is not a regular file" in found.problem
    assert time.monotonic() - started < 2
