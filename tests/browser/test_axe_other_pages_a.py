"""axe-core over the first half of the bundled site's pages that ``test_pages.py`` does not check
(the other half is in ``test_axe_other_pages_b.py``): the longest browser test, in two files so that
two test processes (pytest-xdist gives each file to one) run it side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .kit import OTHER_PAGE_PASSES, axe_sweep, other_pages

pytestmark = pytest.mark.slow  # builds the site and drives a browser


def test_axe_finds_no_serious_violation_on_the_first_half_of_the_other_pages(
    site: Path, browser: Any
) -> None:
    """At both widths and in both schemes (``OTHER_PAGE_PASSES``)."""
    found = axe_sweep(site, browser, other_pages(site, 0), OTHER_PAGE_PASSES)
    assert not found, "\n".join(found)
