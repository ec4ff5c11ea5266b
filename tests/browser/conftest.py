"""The browser tests' fixtures: the bundled site built once per test process, one Chromium
per process, and a page that fails its test on a script error or a request off the
machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bouillotte.site import build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-site") / "site"
    build_site(out)
    return out


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
