"""Markdown for the prose that comes from YAML and docstrings, with raw HTML off."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from ..rules.escaping import SAFE_SCHEMES, scheme

# With html=False markdown-it escapes any HTML in the text, so its output is safe markup.
_MD = MarkdownIt("commonmark", {"html": False, "typographer": False})


def _linkable(url: str) -> bool:
    """Whether a link or image of the prose may lead to ``url``: the site's one rule for an
    address (``rules/escaping.scheme``: ``http``, ``https`` or relative), where
    markdown-it's own check lets through any scheme but ``javascript:``, ``vbscript:``,
    ``file:`` and ``data:`` (``ms-msdt:``, ``ftp:``, ``intent:``, ``data:image/png``...).
    An address that starts with ``//`` is another host's, whatever its look: refused too.
    A link refused stays its words, as plain text."""
    return scheme(url) in (None, *SAFE_SCHEMES) and not url.strip().startswith(("//", "\\"))


_MD.validateLink = _linkable  # type: ignore[method-assign]


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[Token, ...]:
    """A block of markdown parsed once: rendered as HTML for the page, read for its words
    by the search index (only read, never changed)."""
    return tuple(_MD.parse(text or ""))


@lru_cache(maxsize=4096)
def markdown(text: str) -> Markup:
    """A block of markdown as HTML; any HTML in the text is shown as text. A profile's
    summary, say, is on the home page and on its own: it is rendered once."""
    return Markup(_MD.renderer.render(list(tokens(text)), _MD.options, {}))


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
