"""What the browser tests share: Debian's Chromium and its flags, the pages' addresses,
screenshots, and axe-core run over pages in several widths and schemes.

Importing this module skips the importing test module where Playwright for Python or
``/usr/bin/chromium`` is missing (the browser bundled by ``playwright install`` is never
used).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from .kinds import kind_pages, site_pages

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
)
if not CHROMIUM.is_file():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)


def url(site: Path, name: str) -> str:
    return (site / name).as_uri()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


# -- issue 14: barriers --------------------------------------------------------------------

# The everyday run checks with axe a page of each kind of the site (``kinds.kind_pages``) in
# all four passes (``AXE_PASSES``: ``test_pages.py``), and every page for what needs no axe
# (links, valid HTML, no sideways scroll at 320 px). The full crawl, ``test_axe_other_pages_a.py``
# to ``_d.py``, checks every other page in two passes (``OTHER_PAGE_PASSES``); it is marked
# ``exhaustive`` and left out of the default run (``pyproject.toml``), and CONTRIBUTING.md
# says when it is run (``pytest -m exhaustive``). Every browser test is marked ``slow`` too:
# the everyday run has none.

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""What the dark scheme changes: colours only, so only these rules can judge it differently."""

LAYOUT_RULES = [
    *COLOUR_RULES,
    "scrollable-region-focusable",
    "target-size",
    "aria-hidden-focus",
    "td-headers-attr",
    "th-has-data-cells",
]
"""What the phone width changes (the stylesheet's ``max-width: 40rem`` block): backgrounds
and what overlaps (the matrix's cards), which boxes scroll, the size and spacing of
controls, what is hidden, and tables shown as blocks."""

AXE_PASSES: tuple[tuple[str, dict[str, int], str, list[str] | None], ...] = (
    ("1280 px light", DESKTOP, "light", None),
    ("1280 px dark", DESKTOP, "dark", COLOUR_RULES),
    ("390 px light", PHONE, "light", LAYOUT_RULES),
    ("390 px dark", PHONE, "dark", COLOUR_RULES),
)
"""Each page at both widths in both schemes: every rule once (1280 px, light), then at each
other width and scheme the rules whose verdict that width or scheme can change."""

OTHER_PAGE_PASSES: tuple[tuple[str, dict[str, int], str, list[str] | None], ...] = (
    ("1280 px light", DESKTOP, "light", None),
    ("390 px dark", PHONE, "dark", LAYOUT_RULES),
)
"""Every other page at both widths and in both schemes, in two passes rather than four: every
rule at 1280 px in light, then at 390 px in dark the rules the width or the scheme can change
(the layout rules do not depend on the scheme, nor the colours on the width outside the
phone's own blocks, which the pages of each kind check in all four). Four passes on
every page took about five minutes of CI's ten; the crawl is now run by ``pytest -m
exhaustive`` only. In the dark pass, :func:`other_pages_sweep` runs the colour rules only on
a page that shows text in a style no page judged before it (``COLOUR_ONCE``)."""

COLOUR_ONCE = "390 px dark"
"""The pass of ``OTHER_PAGE_PASSES`` whose colour rules (``COLOUR_RULES``) run, on the other
pages, only where a page shows text in a style (``TEXT_STYLES``) that axe has not judged in
that pass on a page of each kind (``test_pages.py``'s sweep of ``kinds.kind_pages``) or on an
earlier page of the same sweep. ``color-contrast`` is two thirds of axe's time on a pair
page, and the second pass cost nearly what the first did; of the 146 other pages, two show
a style the pages of each kind do not, and as each of the four files keeps its own record,
the colour rules run on ten (measured on 2 December 2026). The other rules of the pass run
on every page, and every rule, the colour rules too, runs on every page in the first pass."""

TEXT_STYLES = """() => {
  const styles = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue.trim()) continue;
    const element = node.parentElement, own = getComputedStyle(element);
    if (own.visibility !== "visible" || element.getClientRects().length === 0) continue;
    let opacity = 1, ground = null;
    for (let e = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      opacity *= parseFloat(style.opacity);
      if (ground === null && (style.backgroundImage !== "none"
          || style.backgroundColor !== "rgba(0, 0, 0, 0)")) {
        ground = style.backgroundColor + " " + style.backgroundImage;
      }
    }
    const link = element.closest("a");
    const around = link && link.parentElement ? getComputedStyle(link.parentElement).color : "";
    styles.add([own.color, ground, own.fontSize, own.fontWeight, own.textShadow, opacity,
      link ? "link " + getComputedStyle(link).textDecorationLine + " in " + around : ""
    ].join(" | "));
  }
  return [...styles];
}"""
"""What decides axe's colour rules for each piece of text a page shows, one line a style: its
colour, the background under it (the nearest background colour or image among its
ancestors), its size and weight (large text needs 3:1, other text 4.5:1), its shadow, the
opacity it is drawn with, and, inside a link, the link's underline and the colour of the
text around it (``link-in-text-block``). What it leaves out is where one element is drawn
over another: that is judged on every page in the first pass, at 1280 px in light."""

AXE_RUN = """options => {
  window.__axe = axe.run(document, options).then(results => results.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map(n => n.target)})));
}"""
"""Starts axe without waiting for it, so that the four passes of a page run at once (each
context has its own renderer process); the result is read from ``window.__axe``."""

MINOR_RULES = (
    "aria-allowed-role",
    "aria-deprecated-role",
    "duplicate-id",
    "empty-heading",
    "empty-table-header",
    "focus-order-semantics",
    "form-field-multiple-labels",
    "heading-order",
    "hidden-content",
    "html-xml-lang-mismatch",
    "identical-links-same-purpose",
    "image-redundant-alt",
    "landmark-banner-is-top-level",
    "landmark-complementary-is-top-level",
    "landmark-contentinfo-is-top-level",
    "landmark-main-is-top-level",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo",
    "landmark-no-duplicate-main",
    "landmark-one-main",
    "landmark-unique",
    "meta-refresh-no-exceptions",
    "meta-viewport",
    "meta-viewport-large",
    "no-autoplay-audio",
    "page-has-heading-one",
    "presentation-role-conflict",
    "region",
    "scope-attr-valid",
    "server-side-image-map",
    "skip-link",
    "table-duplicate-name",
)
"""The rules of axe whose impact is moderate or minor, turned off: axe gives every check of
a rule that has an impact that impact (``finalizeRuleResult``), so their violations are
never serious nor critical, which are all the tests keep. ``test_axe_kit.py`` checks this
list against the rules' metadata of the axe shipped, and that a violation of one of them
(an empty heading: its check ``has-visible-text`` is serious) is reported as minor."""

COLOUR_CACHE = """(() => {
  const Color = window.axe.commons.color.Color, parse = Color.prototype.parseString;
  const parsed = new Map();
  Color.prototype.parseString = function (text) {
    const known = parsed.get(text);
    if (known === undefined) {
      parse.call(this, text);
      parsed.set(text, [this.r, this.g, this.b, this.alpha]);
      return this;
    }
    [this.r, this.g, this.b, this.alpha] = known;
    return this;
  };
})()"""
"""axe's colour rules parse a CSS colour string (with colorjs.io) for every element of the
stack under every piece of text: half of ``color-contrast``'s time, for the dozen distinct
strings a page has. ``parseString`` sets the colour from the string alone (or throws, which
is not remembered), so remembering its result per string changes nothing but the time."""


PRIVATE_FIELDS = (
    "function me(e,t,n){ge(e,t),t.set(e,n)}function he(e,t){ge(e,t),t.add(e)}"
    'function ge(e,t){if(t.has(e))throw new TypeError("Cannot initialize the same private '
    'elements twice on an object")}function ve(e,t){return e.get(ye(e,t))}function be(e,'
    "t,n){e.set(ye(e,t),n)}function ye(e,t,n){"
    'if("function"==typeof e?e===t:e.has(t))return arguments.length<3?t:n;'
    'throw new TypeError("Private element is not present on this object")}'
)
"""The helpers with which the build of axe shipped emulates private class fields (``#r``):
every field of every object is an entry in a ``WeakMap`` of that field (``me`` makes it,
``ve`` reads it, ``be`` writes it; ``he`` and ``ye`` do the same for private methods, with a
``WeakSet``). Its ``Color`` class has six such fields and makes a dozen colours for every
piece of text ``color-contrast`` judges: a third of that rule's time was these maps."""

PLAIN_FIELDS = (
    "function __field(t){return t.__field||(t.__field=Symbol())}function me(e,t,n){"
    "e[__field(t)]=n}function he(e,t){e[__field(t)]=!0}function ge(e,t){}function ve(e,"
    "t){return t[__field(e)]}function be(e,t,n){t[__field(e)]=n}function ye(e,t,n){"
    "return arguments.length<3?t:n}"
)
"""The same fields as properties of the object itself, each under a symbol of its own (one
per field's map): what a field holds, and every value read or written, are the same. What
is lost is only the emulation's checks, which throw where code reads a field of an object
that lacks it (axe never does: it would fail, not report) or makes one twice; and a symbol
is as invisible to ``Object.keys``, ``for ... in`` and ``JSON.stringify`` as the field was.
``test_axe_kit.py`` checks that these helpers are in the axe shipped, and that the sweep
finds what axe as it comes finds."""


MEMO_BY_SCAN = (
    "ha=e(function(e,t){var a=fa();t.exports=function(){var t=0,n=[],r=[];return{"
    "get:function(e){e=a.call(n,e[0]);return-1===e?null:r[e]},set:function(e){"
    "return n.push(e[0]),r.push(++t),t},delete:function(e){e=a.call(r,e);"
    "-1!==e&&(n.splice(e,1),r.splice(e,1))},clear:function(){n=[],r=[]}}}}),"
    "ga=e(function(e,t){var s=fa(),n=Object.create;t.exports=function(i){var a=0,l=[[],"
    "[]],u=n(null);return{get:function(e){for(var t,n=0,r=l;n<i-1;){"
    "if(-1===(t=s.call(r[0],e[n])))return null;r=r[1][t],++n}return-1!==(t=s.call(r[0],"
    "e[n]))&&r[1][t]||null},set:function(e){for(var t,n=0,r=l;n<i-1;)-1===(t=s.call(r[0],"
    "e[n]))&&(t=r[0].push(e[n])-1,r[1].push([[],[]])),r=r[1][t],++n;"
    "return-1===(t=s.call(r[0],e[n]))&&(t=r[0].push(e[n])-1),r[1][t]=++a,u[a]=e,a},"
    "delete:function(e){for(var t,n=0,r=l,a=[],o=u[e];n<i-1;){if(-1===(t=s.call(r[0],"
    "o[n])))return;a.push(r,t),r=r[1][t],++n}if(-1!==(t=s.call(r[0],o[n]))){"
    "for(e=r[1][t],r[0].splice(t,1),r[1].splice(t,1);!r[0].length&&a.length;)t=a.pop(),"
    "(r=a.pop())[0].splice(t,1),r[1].splice(t,1);delete u[e]}},clear:function(){l=[[],"
    "[]],u=n(null)}}}})"
)
"""How the memoizer in axe (memoizee, for functions of arguments that are not
primitives: ``ha`` for one argument, ``ga`` for several) finds a call's arguments among
those it has seen: by scans of arrays of every argument so far (``indexOf``), one array
per argument for several (a tree of arrays). axe memoizes the visibility and style checks
of every element it visits and forgets them after each run, so on a page of a few
thousand elements each call scans a few thousand: a run's time grows with the square of
the page."""

MEMO_BY_MAP = (
    "ha=e(function(e,t){t.exports=function(){var t=0,n=new Map,r=new Map;return{"
    "get:function(e){e=n.get(e[0]);return void 0===e?null:e},set:function(e){"
    "return n.set(e[0],++t),r.set(t,e[0]),t},delete:function(e){"
    "r.has(e)&&(n.delete(r.get(e)),r.delete(e))},clear:function(){n=new Map,r=new Map}}}}"
    "),ga=e(function(e,t){t.exports=function(i){var a=0,l=new Map,u=Object.create(null);"
    "return{get:function(e){for(var n=0,r=l;n<i-1;){"
    "if(void 0===(r=r.get(e[n])))return null;++n}return r.get(e[n])||null},"
    "set:function(e){for(var t,n=0,r=l;n<i-1;)void 0===(t=r.get(e[n]))&&r.set(e[n],"
    "t=new Map),r=t,++n;return r.set(e[n],++a),u[a]=e,a},delete:function(e){for(var t,"
    "n=0,r=l,a=[],o=u[e];n<i-1;){if(void 0===(t=r.get(o[n])))return;a.push(r,o[n]),r=t,"
    "++n}if(r.has(o[n])){for(e=r.get(o[n]),r.delete(o[n]);!r.size&&a.length;)t=a.pop(),"
    "(r=a.pop()).delete(t);delete u[e]}},clear:function(){l=new Map,"
    "u=Object.create(null)}}}})"
)
"""The same lookups in a ``Map`` (for several arguments a tree of ``Map``s, pruned on
``delete`` as the arrays were): the arguments seen give the same number, new ones
``null``, in a step per argument. ``indexOf`` compares by ``===`` (and the memoizer's
own version finds ``NaN`` too), a ``Map`` by SameValueZero: the same for every value
(``NaN`` equals itself in both, ``0`` and ``-0`` are one key in both). ``set`` is only
called for arguments not seen, so each has one number, as in the arrays."""

SHORTCUT_SOURCE = ((PRIVATE_FIELDS, PLAIN_FIELDS), (MEMO_BY_SCAN, MEMO_BY_MAP))
"""What ``axe_script`` replaces, each where it is found once in the axe shipped."""


@functools.cache
def axe_script(*, shortcuts: bool = True) -> str:
    """axe-core's source as axe-playwright-python ships it, and with ``shortcuts`` its
    private fields made plain (``PLAIN_FIELDS``) and its memoizer's lookups made direct
    (``MEMO_BY_MAP``), each where the code it replaces is found as expected."""
    axe_module = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python is not installed (pip install -e '.[test]')",
    )
    source: str = axe_module.Axe().axe_script
    for before, after in SHORTCUT_SOURCE if shortcuts else ():
        if source.count(before) == 1:
            source = source.replace(before, after)
    return source


def axe_context(
    browser: Any, viewport: dict[str, int], scheme: str, *, shortcuts: bool = True, **options: Any
) -> Any:
    """A browser context with axe in every page as it loads (once a page), and with
    ``shortcuts`` its source shortened (``axe_script``) and the colour cache
    (``COLOUR_CACHE``)."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme, **options)
    context.add_init_script(axe_script(shortcuts=shortcuts))
    if shortcuts:
        context.add_init_script(COLOUR_CACHE)
    return context


def axe_options(rules: list[str] | None, *, shortcuts: bool = True) -> dict[str, Any]:
    """axe's options for a pass: only ``rules`` if given, else every rule axe runs by default
    but (with ``shortcuts``) the ``MINOR_RULES``."""
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = rules
    elif shortcuts:
        options["rules"] = {rule: {"enabled": False} for rule in MINOR_RULES}
    return options


def open_page(page: Any, site: Path, name: str) -> None:
    target, _, query = name.partition("?")
    page.goto(url(site, target) + (f"?{query}" if query else ""))
    if query:
        page.locator("#search-results li").first.wait_for()


def axe_sweep(
    site: Path,
    browser: Any,
    names: list[str],
    axe_passes: tuple[tuple[str, dict[str, int], str, list[str] | None], ...] = AXE_PASSES,
    *,
    shortcuts: bool = True,
    judged: set[str] | None = None,
    colour_judged_on: list[str] | None = None,
) -> list[str]:
    """axe-core (shipped inside axe-playwright-python, so it runs offline) on each page in
    every pass of ``axe_passes``: the serious and critical violations found. ``shortcuts``
    off runs axe as it comes (every default rule, no colour cache), to show that they
    change nothing.

    With ``judged`` (the text styles, ``TEXT_STYLES``, that axe has judged in the pass
    ``COLOUR_ONCE``), that pass runs the colour rules only on the pages that show a style
    not in it, and adds their styles to it; ``colour_judged_on`` is given those pages."""
    passes = []
    for label, viewport, scheme, rules in axe_passes:
        context = axe_context(browser, viewport, scheme, shortcuts=shortcuts)
        once = judged is not None and label == COLOUR_ONCE and rules is not None
        without = [r for r in rules or () if r not in COLOUR_RULES] if once else None
        passes.append(
            (
                label,
                context,
                context.new_page(),
                axe_options(rules, shortcuts=shortcuts),
                axe_options(without, shortcuts=shortcuts) if without else None,
            )
        )
    found = []
    try:
        for name in names:
            for _, _, page, options, uncoloured in passes:
                open_page(page, site, name)
                if uncoloured is not None and judged is not None:
                    shown = set(page.evaluate(TEXT_STYLES))
                    if shown <= judged:
                        options = uncoloured
                    else:
                        judged |= shown
                        if colour_judged_on is not None:
                            colour_judged_on.append(name)
                page.evaluate(AXE_RUN, options)
            for label, _, page, _, _ in passes:
                for v in page.evaluate("() => window.__axe"):
                    found.append(f"{name} at {label}: {v['id']} ({v['impact']}) at {v['targets']}")
    finally:
        for _, context, _, _, _ in passes:
            context.close()
    return found


def judged_styles(site: Path, browser: Any) -> set[str]:
    """The text styles (``TEXT_STYLES``) of the pages of each kind (``kinds.kind_pages``) in
    the pass ``COLOUR_ONCE``, whose colour rules ``test_pages.py`` runs on all of them."""
    _, viewport, scheme, rules = next(p for p in AXE_PASSES if p[0] == COLOUR_ONCE)
    assert rules is not None and set(COLOUR_RULES) <= set(rules)
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    styles: set[str] = set()
    try:
        for name in kind_pages(site):
            open_page(page, site, name)
            styles |= set(page.evaluate(TEXT_STYLES))
    finally:
        context.close()
    return styles


def other_pages_sweep(
    site: Path,
    browser: Any,
    names: list[str],
    *,
    shortcuts: bool = True,
    colour_judged_on: list[str] | None = None,
) -> list[str]:
    """:func:`axe_sweep` of ``names`` in ``OTHER_PAGE_PASSES``, the colour rules of the pass
    ``COLOUR_ONCE`` run only where a page shows a text style not yet judged in it (with
    ``shortcuts`` off, on every page, as axe comes)."""
    judged = judged_styles(site, browser) if shortcuts else None
    return axe_sweep(
        site,
        browser,
        names,
        OTHER_PAGE_PASSES,
        shortcuts=shortcuts,
        judged=judged,
        colour_judged_on=colour_judged_on,
    )


OTHER_PAGE_FILES = 4
"""``test_axe_other_pages_a.py`` to ``_d.py``."""


def other_pages(site: Path, part: int) -> list[str]:
    """Every page of the site that ``test_pages.py`` does not check with axe
    (``kinds.kind_pages``), every fourth one from ``part`` (0 to 3): four test files share
    them, so that the test processes share them out."""
    names = site_pages(site)
    checked = {n.partition("?")[0] for n in kind_pages(site)}
    others = [n for n in names if n not in checked]
    assert len(others) + len(checked) == len(names) and len(names) > 100
    return others[part::OTHER_PAGE_FILES]
