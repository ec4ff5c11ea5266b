"""Shared fixtures: the bundled library, and a CLI runner that keeps stderr apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.profiles import Library

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()
