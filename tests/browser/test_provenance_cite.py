"""Issue #25, parts 1 and 2, in Chromium from file://: the matrix's "what each source
states" filter (with and without JavaScript, axe-clean at both widths in both schemes) and
the "cite this page" copy buttons (with the Clipboard API and without it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .kit import AXE_PASSES, AXE_RUN, axe_context, axe_options, url

pytestmark = pytest.mark.slow  # builds the site and drives a browser

INHERITED = "#matrix-table td.standing-inherited"
STATED = "#matrix-table td.standing-stated"


def _background(page: Any, selector: str) -> str:
    value: str = page.eval_on_selector(selector, "el => getComputedStyle(el).backgroundColor")
    return value


def _count(site: Path, pattern: str) -> int:
    html = (site / "matrix.html").read_text("utf-8")
    table = html.split('id="matrix-table"', 1)[1].split("</table>", 1)[0]
    return len(re.findall(pattern, table))


def test_the_filter_greys_inherited_and_inferred_cells(site: Path, page: Any) -> None:
    page.goto(url(site, "matrix.html"))
    box = page.get_by_role("checkbox", name=re.compile("What each source states"))
    assert box.is_visible()
    stated_before = _background(page, STATED)
    inherited_before = _background(page, INHERITED)
    box.check()
    assert _background(page, INHERITED) != inherited_before
    assert _background(page, "#matrix-table td.standing-inferred") == _background(page, INHERITED)
    assert _background(page, STATED) == stated_before  # a stated value is left as it was
    greyed = _count(site, r'class="[^"]*standing-(?:inherited|inferred)')
    cells = _count(site, r"<td ")
    assert greyed > 100
    status = page.locator("#only-stated-status")
    assert status.text_content() == (
        f"{greyed} of {cells} values greyed: not stated by the system’s own source."
    )
    box.uncheck()
    assert _background(page, INHERITED) == inherited_before
    assert status.text_content() == ""


def test_the_filter_works_without_javascript(site: Path, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(url(site, "matrix.html"))
        before = _background(page, INHERITED)
        page.get_by_label(re.compile("What each source states")).check()
        assert _background(page, INHERITED) != before
        # Without JavaScript the copy buttons stay hidden; the citation is there as text.
        assert not page.locator("button.cite-copy").first.is_visible()
        assert "The bouillotte project, ed." in (page.text_content("#cite-chicago") or "")
    finally:
        context.close()


def test_the_filtered_matrix_and_the_open_citation_are_axe_clean(site: Path, browser: Any) -> None:
    found = []
    for label, viewport, scheme, rules in AXE_PASSES:
        context = axe_context(browser, viewport, scheme)
        options = axe_options(rules)
        try:
            page = context.new_page()
            page.goto(url(site, "matrix.html"))
            page.check("#only-stated")
            page.eval_on_selector_all("details.cite-format", "ds => ds.forEach(d => d.open = true)")
            page.evaluate(AXE_RUN, options)
            for v in page.evaluate("() => window.__axe"):
                found.append(f"{label}: {v['id']} ({v['impact']}) at {v['targets']}")
        finally:
            context.close()
    assert not found, found


def test_the_copy_button_copies_the_citation(site: Path, browser: Any) -> None:
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(url(site, "matrix.html"))
        expected = (page.text_content("#cite-chicago-text") or "").strip()
        assert expected.startswith("The bouillotte project, ed. “The rule matrix.”")
        page.get_by_role("button", name="Copy the citation").click()
        status = page.locator(".cite-this .cite-status")
        status.filter(has_text="Copied the citation.").wait_for()
        assert page.evaluate("() => navigator.clipboard.readText()").strip() == expected
        page.locator("details.cite-format summary", has_text="BibTeX").click()
        page.get_by_role("button", name="Copy the BibTeX").click()
        status.filter(has_text="Copied the BibTeX.").wait_for()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied.startswith("@online{bouillotte-compared:matrix,")
    finally:
        context.close()


def test_the_copy_button_works_without_the_clipboard_api(site: Path, browser: Any) -> None:
    """Where the browser offers no Clipboard API, the text is selected and copied."""
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    try:
        page = context.new_page()
        page.goto(url(site, "sources.html"))
        page.evaluate(
            "() => { window.__copied = []; document.addEventListener('copy', () =>"
            " window.__copied.push(String(document.getSelection()))); }"
        )
        page.get_by_role("button", name="Copy the citation").click()
        page.locator(".cite-this .cite-status", has_text="Copied the citation.").wait_for()
        copied = page.evaluate("() => window.__copied")
        assert copied and copied[0].startswith("The bouillotte project, ed. “Sources")
    finally:
        context.close()
