"""The built site in a real headless Chromium, opened from file://.

Needs Debian's ``chromium`` (/usr/bin/chromium) and Playwright for Python (see ``kit.py``).
Screenshots go to ``test-artifacts/``. axe checks a page of each kind here (every kind the
site has, ``kinds.py``); axe over every other page, the full crawl that ``pytest -m
exhaustive`` runs, is in ``test_axe_other_pages_a.py`` to ``_d.py``, files of their own so
that the test processes share them out.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from bouillotte.site import build_site

from .kinds import kind_pages, site_pages
from .kit import (
    ARTIFACTS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    axe_sweep,
    open_page,
    shot,
    url,
)

pytestmark = pytest.mark.slow  # builds the site and drives a browser


def test_search_for_favori_and_follow_a_result(site: Path, page: Any) -> None:
    page.goto(url(site, "index.html"))
    page.fill("#site-search-input", "favori")
    page.press("#site-search-input", "Enter")
    page.wait_for_url("**/search.html?q=favori")
    results = page.locator("#search-results li a")
    results.first.wait_for()
    assert results.count() > 3
    assert "favori" in page.locator("#search-status").inner_text()
    shot(page, "search")
    glossary = page.locator('#search-results a[href="glossary.html#favori"]')
    assert glossary.count() == 1
    glossary.click()
    page.wait_for_url("**/glossary.html#favori")
    assert page.locator("#favori").is_visible()


def test_keyboard_reaches_the_skip_link_first(site: Path, page: Any) -> None:
    page.goto(url(site, "index.html"))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"


def test_only_differences_filter_hides_equal_rules(site: Path, page: Any) -> None:
    page.goto(url(site, "matrix.html"))
    same = page.locator("#matrix-table tr.same").first
    assert same.is_visible()
    page.check("#only-differences")
    assert not same.is_visible()
    assert page.locator("#matrix-table tr.differs").first.is_visible()


def test_dark_scheme_changes_the_colours(site: Path, browser: Any) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(url(site, "variants/foster.html"))
        colours[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        if scheme == "dark":
            shot(page, "variant-dark")
        context.close()
    assert colours["light"] != colours["dark"]


def test_print_media_hides_the_navigation(site: Path, page: Any) -> None:
    page.goto(url(site, "scenarios/foster-sight.html"))
    assert page.locator(".site-nav").is_visible()
    page.emulate_media(media="print")
    assert not page.locator(".site-nav").is_visible()
    assert page.locator(".outcome").is_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    page.pdf(path=str(ARTIFACTS / "scenario-print.pdf")) if ARTIFACTS.is_dir() else None


def test_a_phone_sized_window_does_not_scroll_sideways(site: Path, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    for name in ("index.html", "matrix.html", "scenarios/foster-sight.html"):
        page.goto(url(site, name))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{name} is {width}px wide on a phone"
    page.goto(url(site, "scenarios/foster-sight.html"))
    shot(page, "scenario-phone")
    context.close()


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("home", "index.html"),
        ("variant", "variants/foster.html"),
        ("matrix", "matrix.html"),
        ("scenario", "scenarios/foster-sight.html"),
        ("statistics", "statistics.html"),
    ],
)
def test_screenshots(site: Path, page: Any, name: str, target: str) -> None:
    page.goto(url(site, target))
    assert page.title().endswith("Bouillotte compared")
    shot(page, name)
    if name == "scenario":
        page.locator("#outcome").scroll_into_view_if_needed()
        shot(page, "scenario-outcome")


def test_cleanup_is_not_needed_for_the_artifacts() -> None:
    # test-artifacts/ is gitignored; keep the screenshots for people to look at.
    assert shutil.which("chromium") or CHROMIUM.is_file()


# -- issue 14: barriers --------------------------------------------------------------------


def test_axe_finds_no_serious_violation_on_a_page_of_each_kind(site: Path, browser: Any) -> None:
    found = axe_sweep(site, browser, kind_pages(site))
    assert not found, "\n".join(found)


def test_no_page_scrolls_sideways_at_320_px(site: Path, browser: Any) -> None:
    """WCAG 1.4.10: every page of the site fits a 320 px wide screen."""
    context = browser.new_context(viewport={"width": 320, "height": 640})
    page = context.new_page()
    names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    wide = []
    for name in names:
        page.goto(url(site, name))
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 320:
            wide.append(f"{name}: {width}px")
    context.close()
    assert len(names) > 100
    assert not wide, wide


def test_matrix_on_a_phone_is_one_card_per_rule(site: Path, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    # A link to the rule opens its group, folded on a phone (matrix-groups.js).
    page.goto(url(site, "matrix.html") + "#rule-hands-favori")
    row = page.locator("#rule-hands-favori")
    assert row.evaluate("r => getComputedStyle(r).display") == "block"
    cells = row.locator("td")
    labels = cells.evaluate_all(
        "cs => cs.map(c => getComputedStyle(c, '::before').content.replace(/\"/g, ''))"
    )
    headers = page.locator("#matrix-table thead th[scope=col] a").all_inner_texts()
    assert [label.removesuffix(": ") for label in labels] == headers
    assert "Foster 1897" in headers[0]
    # The card fits the screen and names the rule in words.
    box = row.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert row.locator("th .rule-label").inner_text().startswith("Rank of the brelan favori")
    shot(page, "matrix-phone")
    context.close()


def test_matrix_keeps_the_rule_column_and_says_more_columns_follow(
    site: Path, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 900, "height": 800})
    page = context.new_page()
    page.goto(url(site, "matrix.html"))
    hint = page.locator(".scroll-hint").first
    assert hint.is_visible(), "no cue that the table has more columns"
    headers = page.locator("#matrix-table thead th[scope=col]").all_inner_texts()
    assert headers[1:4] == ["Foster 1897", "Foster 1897, 3 players", "Foster 1897, 5 players"]
    wrap = page.locator(".matrix-wrap").first
    rule = page.locator("#rule-hands-favori th")
    wrap.evaluate("w => { w.scrollLeft = 400; }")
    after = rule.bounding_box()
    edge = wrap.bounding_box()
    assert after is not None and edge is not None
    assert wrap.evaluate("w => w.scrollLeft") > 0
    assert abs(after["x"] - edge["x"]) <= 4, "the rule column scrolled away"
    context.close()


NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def test_the_matrix_header_sticks_to_the_page_on_a_phone(site: Path, browser: Any) -> None:
    """A phone held sideways (844 x 390: the table, not the cards): scrolling the PAGE down
    the matrix keeps its header row at the top of the screen, the rule column stays when
    the table is scrolled sideways, and past the table the header goes with it."""
    context = browser.new_context(viewport={"width": 844, "height": 390})
    page = context.new_page()
    page.goto(url(site, "matrix.html"))
    table = page.locator("#matrix-table")
    head = page.locator("#matrix-table thead th")
    wrap = page.locator(".matrix-wrap").first
    # The box does not scroll down: the page does.
    assert wrap.evaluate("w => w.scrollHeight <= w.clientHeight + 1")
    start = table.bounding_box()
    assert start is not None
    page.evaluate(f"window.scrollTo(0, {start['y']} + 1500)")
    page.evaluate(NEXT_FRAME)
    first, second = head.nth(0).bounding_box(), head.nth(1).bounding_box()
    assert first is not None and second is not None
    assert abs(first["y"]) <= 1 and abs(second["y"]) <= 1, "the header left the top of the page"
    # Rows pass under the header, not over it.
    on_top = page.evaluate(
        f"document.elementFromPoint({second['x']} + 5, {second['height']} / 2).closest('thead')"
        " !== null"
    )
    assert on_top, "a row covers the header"
    shot(page, "matrix-phone-landscape-scrolled")
    # Sideways: the header's rule cell stays with the rule column, the systems move.
    wrap.evaluate("w => { w.scrollLeft = 300; }")
    page.evaluate(NEXT_FRAME)
    moved_first, moved_second = head.nth(0).bounding_box(), head.nth(1).bounding_box()
    rule = page.locator("#rule-hands-favori th").bounding_box()
    edge = wrap.bounding_box()
    assert moved_first is not None and moved_second is not None
    assert rule is not None and edge is not None
    assert abs(moved_first["x"] - edge["x"]) <= 4 and abs(rule["x"] - edge["x"]) <= 4
    assert moved_second["x"] < second["x"] - 200 and abs(moved_second["y"]) <= 1
    # Past the table's end the header stays in the table, above its last row's bottom.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.evaluate(NEXT_FRAME)
    end = head.nth(1).bounding_box()
    body = page.locator("#matrix-table tbody").last.bounding_box()
    assert end is not None and body is not None
    assert end["y"] + end["height"] <= body["y"] + body["height"] + 1
    context.close()


CONTRAST = """el => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ring = rgb(getComputedStyle(el).outlineColor);
  let node = el.parentElement, bg = null;
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) { bg = c; break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const [a, b] = [lum(ring), lum(bg)].sort((x, y) => y - x);
  return {ratio: (a + 0.05) / (b + 0.05), style: getComputedStyle(el).outlineStyle,
          what: el.outerHTML.slice(0, 80)};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_has_three_to_one_contrast(site: Path, browser: Any, scheme: str) -> None:
    """WCAG 1.4.11: the ring of each focused control against what surrounds it."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    faint = []
    for name in ("index.html", "matrix.html"):
        page.goto(url(site, name))
        for _ in range(16):
            page.keyboard.press("Tab")
            seen = page.evaluate(f"({CONTRAST})(document.activeElement)")
            if seen["style"] == "none" or seen["ratio"] < 3:
                faint.append(f"{name}: {seen['ratio']:.2f} {seen['what']}")
    context.close()
    assert not faint, faint


def test_scenario_pages_read_well(site: Path, page: Any) -> None:
    """One explanatory cell for a system that refuses the deal, in words that do not clash
    with the step table; rule names, not dotted paths; a space after every linked name;
    the systems in the matrix's order."""
    page.goto(url(site, "scenarios/all-in-opening.html"))
    refused = page.locator("table.outcome td[rowspan]")
    assert refused.count() >= 1
    text = refused.first.inner_text()
    # one cell for the systems that refuse alike, naming the step as the step table does
    assert re.search(r"refuses? the deal: step \d+ ", text), text
    html = page.content()
    assert "</a>alone" not in html
    why = page.locator("#why").inner_text() if page.locator("#why").count() else ""
    assert "." not in "".join(w for w in why.split() if "_" in w)
    matrix = page.context.new_page()
    matrix.goto(url(site, "matrix.html"))
    order = matrix.locator("#matrix-table thead th[scope=col]").all_inner_texts()[1:]
    matrix.close()
    shown = page.locator("table.outcome thead th[scope=col]").all_inner_texts()[1:]
    assert shown == [name for name in order if name in shown]


TOP_RESULTS = {
    "favori": "glossary.html#favori",
    "favorite": "glossary.html#favori",
    "brelan favori": "glossary.html#favori",
    "four of a kind": "glossary.html#brelan-carre",
    "three of a kind": "glossary.html#brelan",
    "calling for a sight": "scenarios/foster-sight.html",
    "what a straddle adds": "matrix.html#rule-forced_bets-straddle_amount",  # the rule by its name
    "void levy": "matrix.html#rule-void_deals-void_levy",
    "retourne": "glossary.html#retourne",
    "mistigri": "glossary.html#mistigri",
    "britannica": "variants/britannica-1911.html",
    "foster": "variants/foster.html",
    "décavé": "glossary.html#decave",
}
"""The first result a reader should get: a glossary term before the pages that use it, a
rule's one entry (its matrix row) before the nine system pages, English words leading to
the French terms."""


def test_search_puts_the_right_thing_first(site: Path, page: Any) -> None:
    first = {}
    for query in TOP_RESULTS:
        open_page(page, site, f"search.html?q={query}")
        first[query] = page.locator("#search-results li a").first.get_attribute("href")
        snippet = page.locator("#search-results li p").first.inner_text()
        # Snippets are words, cut between words: no dotted rule path, no broken word.
        assert not re.search(r"\b[a-z]+_[a-z_]+\.|\b[a-z_]+\.[a-z]+_[a-z_]+", snippet), snippet
    assert first == TOP_RESULTS
    # One hit per rule across the systems, not one per system page.
    open_page(page, site, "search.html?q=straddle amount")
    hrefs = page.locator("#search-results li a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    assert not any(h.startswith("variants/") and "#rule-" in h for h in hrefs)


def test_the_search_index_is_small(site: Path) -> None:
    size = (site / "assets" / "search-index.js").stat().st_size
    # 304 kB on 5 December, after each rule's meaning and the new rules' words were added:
    # the bound moved to 320 kB, which still keeps the index a small download.
    assert size < 320_000, f"the search index is {size} bytes"


def test_charts_say_what_they_show_and_fit_a_phone(site: Path, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url(site, "statistics.html"))
    charts = page.locator("svg.chart")
    assert charts.count() >= 2
    for i in range(charts.count()):
        chart = charts.nth(i)
        title = chart.locator("text.chart-title")
        assert title.is_visible()
        lines = title.locator("tspan").all_text_contents()
        assert " ".join(lines) == chart.locator("title").text_content()
        box = chart.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        # No label or value is clipped by the chart's edge, and the type stays legible.
        for text in chart.locator("text.chart-label, text.chart-value, tspan").all():
            inner = text.bounding_box()
            assert inner is not None
            assert (
                inner["x"] >= box["x"] - 1
                and inner["x"] + inner["width"] <= box["x"] + box["width"] + 1
            ), text.inner_text()
            assert inner["height"] >= 11, f"{text.text_content()} is {inner['height']}px high"
    simulated = page.locator("svg.chart[id^=chart-sim]")
    assert simulated.count() >= 1
    first = simulated.first
    assert first.locator("path.chart-interval").count() == first.locator("rect").count()
    intro = page.locator("section[aria-labelledby=simulate] .prose").inner_text()
    assert "600 seeded deals per system" in intro and "always backs a brelan" in intro
    context.close()


def test_the_pair_chooser_works_from_file(site: Path, page: Any) -> None:
    page.goto(url(site, "compare/index.html"))
    page.select_option("#pair-first", "pagat")
    page.select_option("#pair-second", "foster")
    page.click("#pair-chooser button")
    page.wait_for_url("**/compare/foster--pagat.html")
    assert page.locator("article.pair-rule").count() > 0
    assert page.locator("#rule-hands-favori blockquote").count() == 2
    shot(page, "pair")


def test_a_rule_sheet_prints_on_one_or_two_a4_pages(site: Path, page: Any) -> None:
    for name in ("foster", "pagat-mistigri"):
        page.goto(url(site, f"sheets/{name}.html"))
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=False)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert 1 <= pages <= 2, f"{name}: {pages} pages"
        assert page.locator(".sheet-rules li").count() > 50


# -- an editor's own site: `bouillotte new`, exported, built with --no-bundled -------------


@pytest.fixture(scope="module")
def own_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of a folder made by ``bouillotte new``, its profile exported standalone and
    built alone (``--no-bundled``), as the folder's README says."""
    from bouillotte.cli.scaffold import PROFILE_ID, scaffold
    from bouillotte.rules.export import export, write_export
    from bouillotte.rules.profiles import Library

    folder = tmp_path_factory.mktemp("editor") / "ed"
    scaffold(folder)
    library = Library([folder / "variants"])
    write_export(export(library, PROFILE_ID, standalone=True, as_id=None), folder / "own")
    out = folder / "_own"
    build_site(
        out,
        [folder / "own"],
        [folder / "scenarios"],
        include_bundled=False,
        config_file=folder / "site.yaml",
    )
    return out


def test_axe_finds_no_serious_violation_on_a_page_of_each_kind_of_an_editors_own_site(
    own_site: Path, browser: Any
) -> None:
    """Its first page of each kind (it has none of the bundled pages ``kinds.CHOSEN``
    names), the theme's search page too (without a query)."""
    found = axe_sweep(own_site, browser, kind_pages(own_site, chosen=()))
    assert not found, "\n".join(found)


@pytest.mark.exhaustive  # every page: pytest -m exhaustive (CONTRIBUTING.md)
def test_axe_finds_no_serious_violation_on_any_page_of_an_editors_own_site(
    own_site: Path, browser: Any
) -> None:
    """Every page the test above does not check."""
    checked = kind_pages(own_site, chosen=())
    found = axe_sweep(own_site, browser, [n for n in site_pages(own_site) if n not in checked])
    assert not found, "\n".join(found)


def test_every_link_of_an_editors_own_site_opens(own_site: Path, page: Any) -> None:
    """Each page opened in the browser; each link it holds leads to a page of the site
    (or a file of it) and, with a fragment, to an element of that id. The ids of each page
    are read as it is opened, so a link into a page opened (without a query) is checked
    against them; any other link with a fragment is opened itself."""
    ids: dict[str, list[str]] = {}
    links: dict[str, list[str]] = {}
    for file in sorted(own_site.rglob("*.html")):
        page.goto(file.as_uri())
        ids[file.as_uri()] = page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
        links[file.as_uri()] = page.eval_on_selector_all(  # an SVG chart's <a> too
            "a[href]", "els => els.map(e => new URL(e.getAttribute('href'), document.baseURI).href)"
        )
    seen: set[str] = set()
    for source, found in links.items():
        for link in found:
            if not link.startswith("file://"):
                assert link.startswith(("http://", "https://")), link
                continue
            target, _, fragment = link.partition("#")
            path = Path(unquote(urlsplit(target).path))
            shown = Path(unquote(urlsplit(source).path)).relative_to(own_site)
            assert path.is_file(), f"{shown}: broken link {link}"
            if fragment and path.suffix == ".html" and link not in seen:
                seen.add(link)
                if target in ids:
                    held = ids[target].count(unquote(fragment))
                else:
                    page.goto(link)
                    held = page.locator(f"[id='{unquote(fragment)}']").count()
                assert held == 1, f"{shown}: {link}"
    assert len(seen) > 20


def test_search_finds_the_editors_own_words(own_site: Path, page: Any) -> None:
    page.goto(url(own_site, "index.html"))
    page.fill("#site-search-input", "blind of two counters")
    page.press("#site-search-input", "Enter")
    page.wait_for_url("**/search.html?q=*")
    assert page.locator("h1").inner_text() == "Search our rules"  # the theme's template
    results = page.locator("#search-results li a")
    results.first.wait_for()
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(h and h.startswith("variants/our-table.html") for h in hrefs), hrefs
