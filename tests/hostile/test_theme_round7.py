"""Issue 47, round seven: a theme's template still made ``site build`` hang or take
gigabytes with one small argument or a short loop. Each is now refused at once, as the
build tells it: one line at the template's line (``theme.render_error``, exit 2). Each test
was shown failing before its fix (a hang, a ``MemoryError``, or gigabytes made).

- ``slice`` with a huge count, ``batch`` with a huge size and a fill value;
- bytes: ``*``, ``+``, ``%`` and the methods that pad, spread, replace or join, as texts
  were bounded already (and ``int.to_bytes`` of a huge length);
- a value that grows by nesting (``[l, l]`` forty times: 2^40 items, sharing them) turned
  into text, however: printed, ``~``, ``%``, a format, ``string``, ``tojson``, ``pprint``,
  the ``lower`` test, the error of ``index`` (it is still held, measured, looked into);
- the other built-in filters a small argument blows up: ``round`` with a huge precision,
  ``tojson`` with a huge indent, ``pprint`` of deep or wide-keyed values, ``wordwrap`` and
  ``urlize`` with a long wrapping text or attribute, ``int`` of a long text in base 16;
  ``str.translate`` and a format repeating one long value in each of its fields;
- such a value compared, sorted or hashed: two alike but made apart (``ns.a == ns.b``,
  ``in``, ``sort``, ``max``), a tuple of them as a mapping's key or given to ``unique``
  (each hung past 20 s before: ``template_compare.py``).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from jinja2 import FileSystemLoader, StrictUndefined

from bouillotte.site.template_bounds import TooLarge
from bouillotte.site.theme import BoundedEnvironment, render_bounded, render_error

PAGE = "index.html"
TOLD = re.compile(
    r"theme/templates/page\.html:2: the template failed: [^\n]+ \(rendering index\.html\)"
)


def _environment(tmp_path: Path, body: str) -> tuple[BoundedEnvironment, Path]:
    """The theme's folder holding ``page.html`` (``body`` on its second line), and an
    environment as the build's (``builder._environment``) reading it."""
    folder = tmp_path / "theme" / "templates"
    folder.mkdir(parents=True)
    (folder / "page.html").write_text(f"<main>\n{body}\n</main>\n", encoding="utf-8")
    loader = FileSystemLoader(str(folder))
    env = BoundedEnvironment(loader=loader, autoescape=True, undefined=StrictUndefined)
    return env, folder


def _render(tmp_path: Path, body: str, context: dict[str, Any] | None = None) -> str:
    env, _ = _environment(tmp_path, body)
    return render_bounded(env, "page.html", context or {}).split("\n")[1]


def _refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> None:
    """``body`` is refused at once, told as the build tells it: one line at its line."""
    monkeypatch.chdir(tmp_path)
    env, folder = _environment(tmp_path, body)
    told_at_once(env, folder, {}, 2)


def told_at_once(env: Any, folder: Path, context: dict[str, Any], seconds: float) -> str:
    """What rendering ``page.html`` of ``folder`` with ``env`` is refused with, within
    ``seconds``: one line at the template's line, as the build tells it."""
    started = time.monotonic()
    with pytest.raises(TooLarge) as raised:
        render_bounded(env, "page.html", context)
    assert time.monotonic() - started < seconds
    told = str(render_error(raised.value, PAGE, [folder]))
    assert TOLD.fullmatch(told), told
    return told


SLICES = [
    "{{ [1]|slice(100000000)|list|length }}",
    "{{ [1]|slice(100000000, 0)|list|length }}",
    '{{ [1, 2, 3]|slice(2**30)|map("length")|sum }}',
]


@pytest.mark.parametrize("body", SLICES)
def test_slice_into_a_huge_number_of_lists_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    _refused(tmp_path, monkeypatch, body)


BATCHES = [
    "{{ [1]|batch(200000000, 0)|list|length }}",
    '{{ ([1]|batch(200000000, "x")|first)|length }}',
    '{% for row in [1, 2, 3]|batch(2**31, "&nbsp;") %}{{ row|length }}{% endfor %}',
]


@pytest.mark.parametrize("body", BATCHES)
def test_batch_filled_to_a_huge_size_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    _refused(tmp_path, monkeypatch, body)


BYTES = [
    '{{ ("x".encode() * 3000000000)|length }}',
    '{{ "x".encode().zfill(3000000000)|length }}',
    '{{ "x".encode().center(3000000000)|length }}',
    '{{ "x".encode().ljust(3000000000)|length }}',
    '{{ "x".encode().rjust(3000000000, "y".encode())|length }}',
    '{{ "\t".encode().expandtabs(3000000000)|length }}',
    '{% set b = "x".encode() * 2**14 %}{{ b.replace("x".encode(), b)|length }}',
    '{% set b = "ab".encode() * 2**19 %}{{ b.join([b] * 2**10)|length }}',
    '{{ ("%3000000000s".encode() % "x".encode())|length }}',
    '{% set ns = namespace(b="x".encode()) %}{% for i in range(32) %}'
    "{% set ns.b = ns.b + ns.b %}{% endfor %}{{ ns.b|length }}",
    '{{ (1).to_bytes(3000000000, "big")|length }}',
]


@pytest.mark.parametrize("body", BYTES)
def test_bytes_are_bounded_as_texts_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    _refused(tmp_path, monkeypatch, body)


DOUBLED = (
    "{% set ns = namespace(l=[]) %}{% for i in range(40) %}"
    "{% set ns.l = [ns.l, ns.l] %}{% endfor %}"
)
"""A list of 2^40 items once written out, made of 40 lists: each holds the last twice."""

NESTED = [
    DOUBLED + "{{ ns.l|string|length }}",
    DOUBLED + "{{ ns.l|tojson|length }}",
    DOUBLED + "{{ ns.l|pprint|length }}",
    DOUBLED + "{{ ns.l }}",
    DOUBLED + '{{ (ns.l ~ "")|length }}',
    DOUBLED + '{{ "%s"|format(ns.l)|length }}',
    DOUBLED + '{{ ("%s" % (ns.l,))|length }}',
    DOUBLED + '{{ "{}".format(ns.l)|length }}',
    DOUBLED + "{{ [ns.l]|join|length }}",
    DOUBLED + "{{ ns|string|length }}",
    DOUBLED + "{{ ns.l|upper|length }}",
    DOUBLED + "{{ dict(a=ns.l)|xmlattr|length }}",
    DOUBLED + "{{ ns.l is lower }}",
    DOUBLED + "{{ [1].index(ns.l) }}",
    '{% set ns = namespace(d={}) %}{% for i in range(40) %}{% set ns.d = {"a": ns.d, "b": ns.d} %}'
    "{% endfor %}{{ ns.d|tojson|length }}",
    "{% set ns = namespace(t=()) %}{% for i in range(40) %}{% set ns.t = (ns.t, ns.t) %}"
    "{% endfor %}{{ ns.t|string|length }}",
    "{{ ([[0] * 2**20] * 2**20)|string|length }}",
]


@pytest.mark.parametrize("body", NESTED)
def test_a_value_grown_by_nesting_is_not_turned_into_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    _refused(tmp_path, monkeypatch, body)


DOUBLED_TEXT = (
    '{% set ns = namespace(s="{0}") %}{% for i in range(21) %}'
    "{% set ns.s = ns.s ~ ns.s %}{% endfor %}"
)
OTHERS = [
    '{{ 1.5|round(100000000, "floor") }}',
    "{{ 5|round(-100000000) }}",
    "{{ [[0]]|tojson(indent=2000000000)|length }}",
    '{{ {"x" * 2**20: [0] * 2**14}|pprint|length }}',
    '{{ ("\\n" * 2**20)|wordwrap(5, wrapstring="y" * 2**20)|length }}',
    '{{ ("www.a.com " * 100000)|urlize(rel="x" * 2**20)|length }}',
    '{{ ("www.a.com " * 100000)|urlize(target="x" * 2**20)|length }}',
    DOUBLED_TEXT.replace("{0}", "f").replace("21", "23")
    + "{% set x = ns.s|int(base=16) %}{{ (x // (ns.s[:4000000]|int(base=16))) > 0 }}",
    '{{ ("x" * 2**20).translate({120: "y" * 2**20})|length }}',
    DOUBLED_TEXT + '{{ ns.s.format("x" * 2**20)|length }}',
    '{{ (("%s" * 2**19) % (("x" * 2**20,) * 2**19))|length }}',
    '{{ ("%s" * 2**19)|format(*(("x" * 2**20,) * 2**19))|length }}',
]


@pytest.mark.parametrize("body", OTHERS)
def test_a_filter_or_method_cannot_blow_up_one_small_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    _refused(tmp_path, monkeypatch, body)


TWINS = (
    "{% set ns = namespace(a=[], b=[], t=(), u=()) %}{% for i in range(40) %}"
    "{% set ns.a = [ns.a, ns.a] %}{% set ns.b = [ns.b, ns.b] %}"
    "{% set ns.t = (ns.t, ns.t) %}{% endfor %}"
)
"""Two lists of 2^40 items each, alike but made apart (so no item is the other's, and
comparing them walks every item), and a tuple as large (hashing it walks every item)."""
COMPARISONS = [
    TWINS + "{{ ns.a == ns.b }}",
    TWINS + "{{ ns.a in [ns.b] }}",
    TWINS + "{{ ns.a is eq ns.b }}",
    TWINS + "{{ [ns.a, ns.b]|sort|list|length }}",
    TWINS + "{{ [ns.a, ns.b]|max|length }}",
    TWINS + "{{ {ns.t: 1}|length }}",
    TWINS + "{{ [ns.t, ns.t]|unique|list|length }}",
]


@pytest.mark.parametrize("body", COMPARISONS)
def test_a_value_grown_by_nesting_is_not_compared_sorted_or_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    """Comparing two such values (or hashing one) walks all 2^40 items: it ran past 15 s,
    for hours (template_compare.py)."""
    _refused(tmp_path, monkeypatch, body)


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("{{ [1, 2, 3]|batch(2)|list }}", "[[1, 2], [3]]"),
        ("{{ [1, 2, 3]|batch(2, 0)|list }}", "[[1, 2], [3, 0]]"),
        ("{{ [1, 2, 3]|slice(2)|list }}", "[[1, 2], [3]]"),
        ("{{ [1, 2, 3]|slice(2, 0)|list }}", "[[1, 2], [3, 0]]"),
        ('{{ "ab".encode()|length }}', "2"),
        ('{{ ("ab".encode() * 3 + "c".encode()).center(9)|length }}', "9"),
        ('{{ "a".encode().join(["b".encode(), "c".encode()]).decode() }}', "bac"),
        ("{{ (255).to_bytes(2, 'big')|length }}", "2"),
        ("{{ [[1, 2], [3, [4]]]|string }}", "[[1, 2], [3, [4]]]"),
        ("{{ [1, [2, 3]] }} {{ (1, 2) ~ '' }}", "[1, [2, 3]] (1, 2)"),
        (
            "{% set ns = namespace(l=[]) %}{% for i in range(3) %}{% set ns.l = [ns.l, i] %}"
            "{% endfor %}{{ ns.l }}",
            "[[[[], 0], 1], 2]",
        ),
        ("{{ page|tojson }}", '{"rows": [{"id": "r1", "n": 2}], "title": "Foster"}'),
        ('{{ [1, {"a": 2}]|tojson(indent=1)|replace("\n", "/") }}', '[/ 1,/ {/  "a": 2/ }/]'),
        ('{{ {"a": [1, 2]}|pprint }}', "{&#39;a&#39;: [1, 2]}"),
        (
            '{{ "%s and %s"|format([1], "x") }} {{ "{}/{}".format([1, 2], 3) }}',
            "[1] and x [1, 2]/3",
        ),
        ('{{ "%s-%s" % ([1], 2) }}', "[1]-2"),
        ('{{ 42.55|round(1, "floor") }} {{ 1234|round(-2) }}', "42.5 1200"),
        ('{{ "a b c"|wordwrap(1, wrapstring="/") }}', "a/b/c"),
        ('{{ "see www.a.com"|urlize(target="_blank")|length > 40 }}', "True"),
        ('{{ "abc".translate({98: "xx"}) }} {{ "ff"|int(base=16) }}', "axxc 255"),
        ('{{ "{0}{0}".format("ab") }} {{ [1, 2]|join(", ") }}', "abab 1, 2"),
        ('{{ ["x", 2]|map("upper")|join }} {{ "ab"|upper }}', "X2 AB"),
        (
            '{{ [3, 1, 2]|sort|list }} {{ 1 in [1, 2] }} {{ {"a": 1}["a"] }} {{ "a" == "a" }} '
            "{{ [1, 1, 2]|unique|list }} {{ [[1], [2]] == [[1], [2]] }} {{ 2 is gt 1 }}",
            "[1, 2, 3] True 1 True [1, 2] True True",
        ),
        (
            DOUBLED + "{{ ns.l|length }} {{ {}[ns.l] is defined }} {{ ns.l[0] is sameas ns.l[1] }}",
            "2 False True",
        ),
    ],
)
def test_ordinary_uses_still_render(tmp_path: Path, body: str, shown: str) -> None:
    page = {"title": "Foster", "rows": [{"id": "r1", "n": 2}]}
    assert _render(tmp_path, body, {"page": page}) == shown
