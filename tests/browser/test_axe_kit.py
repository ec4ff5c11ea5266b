"""The axe sweep's shortcuts (``kit.py``: ``MINOR_RULES`` off, ``PLAIN_FIELDS``,
``MEMO_BY_MAP``, ``COLOUR_CACHE``, and ``COLOUR_ONCE`` for the other pages) find what
axe as it comes finds: checked against the metadata of the axe shipped, and on copies of
pages of several kinds, each with a serious violation planted, which both sweeps must report
in the passes that can see it, as axe as it comes does: the sweep of a page of each kind
in four passes (``test_pages.py``, in every run) and the full crawl's sweep of every other
page in two (``test_axe_other_pages_a.py`` to ``_d.py``, in ``pytest -m exhaustive``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .kit import (
    MINOR_RULES,
    OTHER_PAGE_FILES,
    SHORTCUT_SOURCE,
    axe_context,
    axe_options,
    axe_script,
    axe_sweep,
    other_pages,
    other_pages_sweep,
)

pytestmark = pytest.mark.slow  # builds the site and drives a browser

RULE_IMPACTS = """() => axe._audit.rules.map(r => ({id: r.id, impact: r.impact || null}))"""
"""Each rule's impact, as axe's rule metadata gives it (``axe.getRules()`` leaves it out)."""


def test_the_rules_left_out_can_only_report_moderate_or_minor(browser: Any) -> None:
    context = axe_context(browser, {"width": 800, "height": 600}, "light")
    try:
        page = context.new_page()
        # An empty heading: the rule is minor, its check (has-visible-text) serious.
        page.set_content("<html lang='en'><title>t</title><main><h2></h2></main></html>")
        rules = page.evaluate(RULE_IMPACTS)
        assert all(r["impact"] in ("minor", "moderate", "serious", "critical") for r in rules)
        assert sorted(MINOR_RULES) == sorted(
            r["id"] for r in rules if r["impact"] in ("minor", "moderate")
        )
        found = page.evaluate(
            "o => axe.run(document, o).then(r => r.violations.map(v => [v.id, v.impact]))",
            axe_options(["empty-heading"]),
        )
        assert found == [["empty-heading", "minor"]]  # the rule's impact, not its check's
    finally:
        context.close()


def test_the_code_the_shortcuts_replace_is_in_the_axe_shipped() -> None:
    """Each piece of axe's source that ``SHORTCUT_SOURCE`` replaces is in the axe shipped,
    once: a new axe built otherwise fails here rather than losing a shortcut unseen."""
    source = axe_script(shortcuts=False)
    for before, after in SHORTCUT_SOURCE:
        assert source.count(before) == 1, before[:60]
        source = source.replace(before, after)
    assert axe_script() == source


def with_and_without_shortcuts(browser: Any, script: str) -> list[Any]:
    """What ``script`` returns on a small page with axe's source shortened and as shipped."""
    made = []
    for shortcuts in (True, False):
        context = axe_context(browser, {"width": 800, "height": 600}, "light", shortcuts=shortcuts)
        try:
            page = context.new_page()
            page.set_content("<html lang='en'><title>t</title><main><p>p</p></main></html>")
            made.append(page.evaluate(script))
        finally:
            context.close()
    return made


MEMOIZED = """() => {
  const a = {}, b = [], keys = [a, b, NaN, -0, 0, undefined, null, "", a, NaN, b, 0];
  const name = x => x === a ? "a" : x === b ? "b" : Object.is(x, -0) ? "-0"
    : typeof x === "string" ? JSON.stringify(x) : String(x);
  const calls = [], one = axe.utils.memoize(x => (calls.push(name(x)), [x]));
  const two = axe.utils.memoize((x, y) => (calls.push(name(x) + " " + name(y)), [x, y]));
  const first = keys.map(k => one(k)), pairs = keys.map((k, i) => two(k, keys[i % 3]));
  const same = keys.map((k, i) => one(k) === first[i] && two(k, keys[i % 3]) === pairs[i]);
  calls.push("clear");
  one.clear();
  two.clear();
  one(a);
  two(a, a);
  return [calls, same];
}"""

MEMOIZED_CALLS = [
    *["a", "b", "NaN", "-0", "undefined", "null", '""'],  # 0 is -0's, a NaN the first's
    *["a a", "b b", "NaN NaN", "-0 a", "0 b", "undefined NaN", "null a", '"" b', "a NaN"],
    *["NaN a", "0 NaN"],  # the second "b b" is remembered
    *["clear", "a", "a a"],
]
"""The calls the function of one argument and the function of two get, worked out by hand
from ``keys`` (the second argument cycles through ``a``, ``b``, ``NaN``)."""


def test_a_memoized_function_remembers_as_axe_does(browser: Any) -> None:
    """axe's memoizer, with and without ``MEMO_BY_MAP``, calls a function of one argument
    or of two once per arguments (objects by identity; ``NaN`` once; ``-0`` and ``0``
    once), returns what it returned the next time, and forgets it all on ``clear``."""
    made = with_and_without_shortcuts(browser, MEMOIZED)
    assert made[0] == made[1] == [MEMOIZED_CALLS, [True] * 12]


COLOURS = """() => {
  const Color = axe.commons.color.Color, c = new Color(10, 20, 30, 0.5), d = new Color(c);
  d.parseString("rgb(1 2 3 / 40%)");
  c.red = 300;
  return [c.toJSON(), d.toJSON(), c.r, d.g, Object.keys(c), JSON.stringify(d),
          c.getRelativeLuminance(), axe.commons.color.flattenColors(c, d).toJSON()];
}"""


def test_colours_with_plain_fields_are_the_colours_of_axe(browser: Any) -> None:
    """The ``Color`` objects of axe, made and changed every way ``color-contrast`` does,
    hold and give the same values with and without ``PLAIN_FIELDS``."""
    made = with_and_without_shortcuts(browser, COLOURS)
    assert made[0] == made[1]
    assert made[0][0] == {"red": 255, "green": 20, "blue": 30, "alpha": 0.5}  # clamped


PLANTED = {
    # pale grey: unreadable on the light background, readable on the dark one
    "compare": (
        '<p style="color: #c8c8c8">Faint words.</p>',
        "color-contrast",
        "1280 px light",
        {"1280 px light", "390 px light"},
    ),
    # a button with no name, whatever the width and scheme
    "scenarios": (
        '<button type="button"></button>',
        "button-name",
        "1280 px light",
        {"1280 px light"},
    ),
    # dark grey: fine on the light background, unreadable on the dark one
    "variants": (
        '<p style="color: #333">Dark words.</p>',
        "color-contrast",
        "390 px dark",
        {"1280 px dark", "390 px dark"},
    ),
    # a scrolling box that the keyboard cannot reach, on a phone only
    "sheets": (
        '<div class="phone-scroll" style="height: 3em; overflow: auto"><p>'
        + "Words enough to scroll. " * 40
        + "</p></div><style>@media (min-width: 40rem) { .phone-scroll { overflow: visible"
        " !important; height: auto !important } }</style>",
        "scrollable-region-focusable",
        "390 px dark",
        {"390 px light"},
    ),
}
"""For each kind of page, what is planted in it, the rule of axe it breaks, the pass of the
full crawl that sees it (``kit.OTHER_PAGE_PASSES``), and the passes of the sweep of a page
of each kind that see it (``kit.AXE_PASSES``: every rule at 1280 px light, the colour rules
in dark, the phone layout's rules, colours among them, at 390 px light)."""


@pytest.fixture(scope="module")
def planted_site(site: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A copy of the site with one page of each kind in ``PLANTED`` (the smallest that the
    sweep of every other page checks) given its violation."""
    copy = tmp_path_factory.mktemp("planted") / "site"
    shutil.copytree(site, copy)
    names = []
    for folder, (html, _, _, _) in PLANTED.items():
        name = min(  # the smallest page of the kind, to keep the test short
            (
                n
                for part in range(OTHER_PAGE_FILES)
                for n in other_pages(copy, part)
                if n.startswith(folder)
            ),
            key=lambda n: (copy / n).stat().st_size,
        )
        page = copy / name
        text = page.read_text("utf-8")
        assert text.count("</main>") == 1
        page.write_text(text.replace("</main>", html + "</main>"), "utf-8")
        names.append(name)
    return copy, names


def test_the_sweep_of_a_page_of_each_kind_reports_a_planted_violation_where_it_shows(
    planted_site: tuple[Path, list[str]], browser: Any
) -> None:
    """The sweep of ``test_pages.py`` (four passes), with its shortcuts, reports each
    violation planted in exactly the passes that can see it (that it finds what axe as it
    comes finds there is checked with the full crawl, below)."""
    copy, names = planted_site
    found = axe_sweep(copy, browser, names)
    passes: dict[tuple[str, str], set[str]] = {}  # (page, rule): the passes that report it
    for finding in found:
        page, _, rest = finding.partition(" at ")
        label, _, rest = rest.partition(": ")
        passes.setdefault((page, rest.split(" ")[0]), set()).add(label)
    for name, (_, rule, _, labels) in zip(names, PLANTED.values(), strict=True):
        assert passes.get((name, rule)) == labels, (name, found)


@pytest.mark.exhaustive  # a second sweep of the same pages: pytest -m exhaustive
def test_the_sweep_of_a_page_of_each_kind_finds_what_axe_as_it_comes_finds(
    planted_site: tuple[Path, list[str]], browser: Any
) -> None:
    """The sweep's shortcuts (rules run only in the passes that can see them, a colour
    cache) change nothing it finds: the same findings as axe with every rule in every pass.
    Half the time of the test above, so it runs with the full crawl (CI's eight minutes)."""
    copy, names = planted_site
    assert axe_sweep(copy, browser, names) == axe_sweep(copy, browser, names, shortcuts=False)


@pytest.mark.exhaustive  # the full crawl's sweep: pytest -m exhaustive (CONTRIBUTING.md)
def test_the_sweep_reports_a_planted_violation_on_each_kind_of_page(
    planted_site: tuple[Path, list[str]], browser: Any
) -> None:
    copy, names = planted_site
    coloured: list[str] = []
    found = other_pages_sweep(copy, browser, names, colour_judged_on=coloured)
    for name, (_, rule, label, _) in zip(names, PLANTED.values(), strict=True):
        assert any(f.startswith(f"{name} at {label}: {rule} ") for f in found), (name, found)
    # The dark pass ran its colour rules on the pages given words in a colour of their own,
    # and only there: the button has no text, and the scrolling words are in the page's own
    # style, which the pages of each kind show.
    assert coloured == [names[0], names[2]], coloured
    # and as axe as it comes does: every rule, no colour cache, the colour rules everywhere
    assert found == other_pages_sweep(copy, browser, names, shortcuts=False)
