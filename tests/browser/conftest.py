"""The browser tests' fixtures: one Chromium per test process, and a page that fails its
test on a script error or a request off the machine. The bundled site (``site``) is the
one of ``tests/conftest.py``, built once per run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from .kit import ARGS, CHROMIUM, sync_api

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
