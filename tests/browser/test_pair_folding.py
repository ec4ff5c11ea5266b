"""A long pair page folds its long parts so that its first screen says what differs (issue
50, item 7): the rules that differ at a glance, each part in a <details> that opens by
keyboard and without a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kit import url

pytestmark = pytest.mark.slow  # builds the site and drives a browser


def test_the_first_screen_says_what_differs_and_the_rest_is_folded(
    site: Path, browser: Any
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(url(site, "compare/foster--pagat.html"))
    glance = page.locator(".pair-glance")
    box = glance.bounding_box()
    assert box is not None and box["y"] < 800  # begins on the first screen
    rows = glance.locator("tbody tr")
    assert rows.count() == page.locator("article.pair-rule").count() == 21
    assert rows.first.inner_text().split("\t") == [
        "Size of a new cave",
        "as the player chooses",
        "100",
    ]
    # 52,558 px at 1,280 px before the folding (65.7 screens of 800 px); folded, the page
    # is what differs and the verdicts: less than half its height with every fold open
    # (a bound in pixels would move with the figures each regeneration writes)
    height = page.evaluate("document.documentElement.scrollHeight")
    unfolded = page.evaluate(
        "() => { const folds = [...document.querySelectorAll('details.fold')];"
        " folds.forEach(d => { d.open = true; });"
        " const h = document.documentElement.scrollHeight;"
        " folds.forEach(d => { d.open = false; }); return h; }"
    )
    print(f"pair page: {height} px folded, {unfolded} px unfolded")
    assert height < 0.5 * unfolded, (height, unfolded)
    # every fold is closed and opens from the keyboard, no script needed
    folds = page.locator("details.fold")
    assert folds.count() > 40
    assert page.locator("details.fold[open]").count() == 0
    first = page.locator("#rule-stakes-rebuy_amount details.fold")
    first.locator("summary").focus()
    page.keyboard.press("Enter")
    assert first.get_attribute("open") is not None
    assert first.locator("blockquote").first.is_visible()
    context.close()
