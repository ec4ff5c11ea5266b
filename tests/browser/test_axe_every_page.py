"""axe-core over every page of the bundled site that ``test_pages.py`` does not check, in
a file of its own: the longest browser test, which a second test process runs beside the
rest (pytest-xdist gives each file to one process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kit import AXE_PAGES, OTHER_PAGE_PASSES, axe_sweep

pytestmark = pytest.mark.slow  # builds the site and drives a browser


def test_axe_finds_no_serious_violation_on_any_other_page(site: Path, browser: Any) -> None:
    """Every page of the site that test_pages.py does not check (AXE_PAGES), at both
    widths and in both schemes (``OTHER_PAGE_PASSES``)."""
    names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    others = [n for n in names if n not in AXE_PAGES and n != "search.html"]
    assert len(others) + len(AXE_PAGES) == len(names) and len(names) > 100
    found = axe_sweep(site, browser, others, OTHER_PAGE_PASSES)
    assert not found, "\n".join(found)
