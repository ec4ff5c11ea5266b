"""Shared fixtures: the bundled library, and a CLI runner that keeps stderr apart."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from bouillotte.rules.profiles import Library

ROOT = Path(__file__).resolve().parent.parent

# CI replays the same property-test examples every run (reproducible verdicts); a
# developer's runs draw new ones, which is where new failures are found.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()
