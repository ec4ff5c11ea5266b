"""Issue 47, round eight: a theme's page, bounded as a whole (``site/template_budget.py``).

Round seven bounded each value one expression makes. A page could still take gigabytes by
making many values within that bound, or by repeating one: each of these made a
``MemoryError`` under a 3 GiB limit (or took gigabytes without one) and is now refused once
its values pass the page's budget, told as the build tells it (one line at the template's
line, exit 2). And the site's own filters and functions (``slug``, ``markdown``,
``variant_page``...) write what a template gives them as text, as the built-in ones do: a
list that nests itself forty times given to one of them hung the build; it is refused at
once, as it is by the built-in filters.
"""

from __future__ import annotations

import resource
from pathlib import Path

import pytest

from bouillotte.rules.resources import bundled
from bouillotte.site import template_budget
from bouillotte.site.builder import _environment
from bouillotte.site.template_budget import MADE_BYTES, size_of
from bouillotte.site.theme import BoundedEnvironment, render_bounded

from .test_theme_round7 import _environment as _theme_environment
from .test_theme_round7 import told_at_once

MEGA = '{% set big = "x" * 1048576 %}'
KEPT = "{% set ns = namespace(l=[]) %}" + MEGA

MADE_OVER_AND_OVER = [
    # 3,000 texts of 1 MiB each, kept in a list
    KEPT + "{% for i in range(3000) %}{% if ns.l.append(big ~ i) %}{% endif %}{% endfor %}",
    KEPT
    + '{% for i in range(3000) %}{% if ns.l.append("%s%d" % (big, i)) %}{% endif %}{% endfor %}',
    KEPT + "{% for i in range(3000) %}{% if ns.l.append(big[i:]) %}{% endif %}{% endfor %}",
    KEPT + "{% for i in range(3000) %}{% if ns.l.append(big.upper()) %}{% endif %}{% endfor %}",
    KEPT + "{% for i in range(3000) %}{% if ns.l.append(big|upper) %}{% endif %}{% endfor %}",
    KEPT + "{% for i in range(3000) %}{% if ns.l.append(big + big) %}{% endif %}{% endfor %}",
    # a filter applied by map, each of its results a new text
    '{% set l = range(3000)|map("center", 1048576)|list %}{{ l|length }}',
    # a text split into many small texts, over and over
    '{% set ns = namespace(l=[]) %}{% set t = "xy " * 349525 %}'
    "{% for i in range(3000) %}{% if ns.l.append(t.split()) %}{% endif %}{% endfor %}",
    # numbers of 65,000 bits (8 KiB each), four at a time, 400,000 of them
    "{% set ns = namespace(l=[]) %}{% set n = 2**65000 %}{% for i in range(100000) %}"
    "{% if ns.l.append((n + i, n - i, n + 1, n + 2)) %}{% endif %}{% endfor %}",
    # a captured block, a macro, a call block and a filter block, each repeating 1 MiB
    MEGA + "{% set b %}{% for i in range(3000) %}{{ big }}{% endfor %}{% endset %}",
    MEGA + "{% macro m() %}{% for i in range(3000) %}{{ big }}{% endfor %}{% endmacro %}"
    "{% set x = m() %}",
    MEGA + "{% macro m() %}{{ caller() }}{% endmacro %}"
    "{% set ns = namespace(l=[]) %}{% for i in range(3000) %}"
    "{% set x %}{% call m() %}{{ big }}{% endcall %}{% endset %}"
    "{% if ns.l.append(x) %}{% endif %}{% endfor %}",
    MEGA + "{% filter upper %}{% for i in range(3000) %}{{ big }}{% endfor %}{% endfilter %}",
    # a captured block repeating the template's own text (2,000 characters, a million times)
    "{% set b %}{% for i in range(50000) %}{% for j in range(20) %}"
    + "y" * 2000
    + "{% endfor %}{% endfor %}{% endset %}",
]


SMALL_BUDGET = 2**26
"""The budget these tests give a page (64 MiB), so that a test worker does not take the
1 GiB a page may make before each refusal: the counting is the same."""


@pytest.mark.parametrize("body", MADE_OVER_AND_OVER)
def test_a_page_that_makes_too_much_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    """Each is refused, told at the template's line, having held little of what it asked
    for (the process's peak memory grows by far less than the gigabytes asked)."""
    monkeypatch.setattr(template_budget, "MADE_BYTES", SMALL_BUDGET)
    monkeypatch.chdir(tmp_path)
    env, folder = _theme_environment(tmp_path, body)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    told_at_once(env, folder, {}, 20)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert grown < 4 * SMALL_BUDGET, f"{grown:,} bytes"


def test_a_block_repeating_its_own_text_is_refused_before_it_is_joined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the real budget: a captured block of a million copies of 2,000 characters of
    the template's own text holds only references until it is joined (2 GB), and is
    refused before."""
    monkeypatch.chdir(tmp_path)
    env, folder = _theme_environment(tmp_path, MADE_OVER_AND_OVER[-1])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    told = told_at_once(env, folder, {}, 20)
    assert f"more than {MADE_BYTES // 2**20:,} MiB" in told
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before < MADE_BYTES // 4


def test_a_list_grown_by_plus_counts_its_items_once(tmp_path: Path) -> None:
    """``ns.l = ns.l + [label]``, a theme's idiom, copies only the list: 6,000 labels of
    40 characters each render (the labels counted once each, as they were made; counted
    again in each new list, they passed the budget)."""
    body = "{% set ns = namespace(l=[]) %}{% for i in range(6000) %}"
    body += '{% set ns.l = ns.l + ["a label of forty characters, number " ~ i] %}'
    body += "{% endfor %}{{ ns.l|length }}"
    env, _ = _theme_environment(tmp_path, body)
    assert render_bounded(env, "page.html", {}).split("\n")[1] == "6000"


def test_the_budget_is_the_page_s_not_the_build_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page starts with the whole budget: a page that makes 3/4 of it renders, twice
    in a row, as the pages of one build are rendered."""
    monkeypatch.setattr(template_budget, "MADE_BYTES", SMALL_BUDGET)
    quarter = SMALL_BUDGET // 4 // 2**20
    body = KEPT + f"{{% for i in range({3 * quarter}) %}}{{% if ns.l.append(big ~ i) %}}"
    body += "{% endif %}{% endfor %}{{ ns.l|length }}"
    env, _ = _theme_environment(tmp_path, body)
    for _ in range(2):
        assert render_bounded(env, "page.html", {}).split("\n")[1] == str(3 * quarter)


def test_a_value_is_counted_with_what_it_holds() -> None:
    words = ["ab" * 10] * 1000
    assert size_of(words) > 1000 * len(words[0])
    assert size_of({"k": "x" * 10**6}) > 10**6
    assert size_of(object()) == 0  # the page's own objects are the site's, not made


NESTED = (
    "{% set ns = namespace(l=[1]) %}{% for i in range(40) %}"
    "{% set ns.l = [ns.l, ns.l] %}{% endfor %}"
)
SITE_OWN = [
    "{{ variant_page(ns.l) }}",
    "{{ scenario_page(ns.l) }}",
    '{{ pair_page(ns.l, "x") }}',
    '{{ href("", ns.l) }}',
    "{{ rule_id(ns.l) }}",
    "{{ ns.l|slug }}",
    "{{ ns.l|markdown }}",
    "{{ ns.l|inline }}",
    "{{ ns.l|with_cards }}",
    "{{ ns.l|names }}",
    "{{ ns.l|safe_url }}",
    "{{ words(ns.l) }}",
]


@pytest.mark.parametrize("use", SITE_OWN)
def test_the_site_s_own_filters_and_functions_refuse_a_nested_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use: str
) -> None:
    """The build's own environment (its filters and globals): each is refused at once."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "theme" / "templates"
    folder.mkdir(parents=True)
    (folder / "page.html").write_text(f"<main>\n{NESTED}{use}\n</main>\n", encoding="utf-8")
    env = _environment(bundled("site"), tmp_path / "theme")
    assert isinstance(env, BoundedEnvironment)
    told = told_at_once(env, folder, {"root": ""}, 10)
    assert "a filter or function of the site" in told


def test_the_site_s_own_functions_still_work(tmp_path: Path) -> None:
    folder = tmp_path / "theme" / "templates"
    folder.mkdir(parents=True)
    body = '{{ variant_page("foster") }} {{ href("../", "a b.html", "x") }} {{ "A b"|slug }}'
    body += ' {{ "*x*"|markdown }}'
    (folder / "page.html").write_text(body, encoding="utf-8")
    env = _environment(bundled("site"), tmp_path / "theme")
    shown = render_bounded(env, "page.html", {"root": ""})
    assert shown == "variants/foster.html ../a%20b.html#x A-b <p><em>x</em></p>\n"
