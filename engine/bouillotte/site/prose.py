"""Markdown for the prose that comes from YAML and docstrings, with raw HTML off."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markupsafe import Markup

# With html=False markdown-it escapes any HTML in the text, so its output is safe markup.
_MD = MarkdownIt("commonmark", {"html": False, "typographer": False})


def markdown(text: str) -> Markup:
    """A block of markdown as HTML; any HTML in the text is shown as text."""
    return Markup(_MD.render(text or ""))


def inline(text: str) -> Markup:
    """One line of markdown (no paragraph)."""
    return Markup(_MD.renderInline(text or ""))


def docstring_markdown(text: str) -> str:
    """A schema docstring as one line of markdown: reST ``literals`` become code."""
    flat = " ".join(line.strip() for line in (text or "").splitlines())
    return re.sub(r"``(.+?)``", r"`\1`", flat)


def docstring(text: str) -> Markup:
    """A schema docstring: reST ``literals`` become code, lines are joined."""
    return inline(docstring_markdown(text))
