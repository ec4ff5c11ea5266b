"""The built site in a real headless Chromium, opened from file://.

Needs Debian's ``chromium`` (/usr/bin/chromium) and Playwright for Python; the browser
bundled by ``playwright install`` is never used. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bouillotte.sitebuild import build_site

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
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


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-site") / "site"
    build_site(out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on(
        "request",
        lambda request: (
            errors.append(f"network request: {request.url}")
            if not request.url.startswith(("file://", "data:"))
            else None
        ),
    )
    yield opened
    context.close()
    assert not errors, errors


def url(site: Path, name: str) -> str:
    return (site / name).as_uri()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


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
