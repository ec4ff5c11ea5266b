"""axe-core over the second quarter of the bundled site's pages that ``test_pages.py``
does not check (every fourth page, in the full crawl that ``pytest -m
exhaustive`` runs; the other quarters are in ``_a``, ``_c``, ``_d``): the longest
browser test, in four files, which pytest-xdist hands out one at a time to the test
processes, so that they share it out with the other long files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kit import other_pages, other_pages_sweep

# The full crawl: only in ``pytest -m exhaustive`` (CONTRIBUTING.md, "The full axe crawl").
pytestmark = [pytest.mark.slow, pytest.mark.exhaustive]


def test_axe_finds_no_serious_violation_on_the_second_quarter_of_the_other_pages(
    site: Path, browser: Any
) -> None:
    """At both widths and in both schemes (``kit.OTHER_PAGE_PASSES``; the dark pass's
    colour rules where a page shows a text style not yet judged, ``kit.COLOUR_ONCE``)."""
    found = other_pages_sweep(site, browser, other_pages(site, 1))
    assert not found, "\n".join(found)
