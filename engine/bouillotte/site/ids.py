"""Ids, file names and relative links."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

# Each of these is a pure function of its strings, and the pages ask for the same ids and
# links thousands of times (a rule's id on every system's page, every pair, every
# scenario): each is worked out once.


@lru_cache(maxsize=16384)
def slug(text: str) -> str:
    """A safe HTML id fragment: letters, digits, ``-`` and ``_``."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")
    return cleaned or "x"


@lru_cache(maxsize=16384)
def rule_id(path: str) -> str:
    """The id of a rule (``betting.closing`` -> ``rule-betting-closing``)."""
    return "rule-" + slug(path.replace(".", "-"))


@lru_cache(maxsize=16384)
def cite_id(path: str) -> str:
    return "cite-" + slug(path.replace(".", "-"))


def variant_page(variant_id: str) -> str:
    return f"variants/{variant_id}.html"


def pair_page(first: str, second: str) -> str:
    """The page setting two systems side by side (``compare/foster--pagat.html``)."""
    return f"compare/{first}--{second}.html"


def text_page(work_id: str) -> str:
    """The page of a work's shipped text (``texts/foster.html``)."""
    return f"texts/{slug(work_id)}.html"


def scenario_page(scenario_id: str) -> str:
    return f"scenarios/{scenario_id}.html"


@lru_cache(maxsize=16384)
def href(root: str, page: str, anchor: str | None = None) -> str:
    """A relative link from a page whose prefix to the site root is ``root``."""
    link = root + quote(page)
    return f"{link}#{anchor}" if anchor else link


def root_of(page: str) -> str:
    return "../" * page.count("/")
