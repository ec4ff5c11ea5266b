"""Markdown for the prose that comes from YAML and docstrings, with raw HTML off."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
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


def rebased(url: str, root: str) -> str:
    """A relative address of prose, which is read from the site's root (the same summary is
    on the home page and on its system's page, a folder deeper), as reached from a page
    ``root`` below it (``../``): ``sources.html`` becomes ``../sources.html``. An address
    within the page (``#x``), from the host's root (``/x``) or with a scheme is kept."""
    if not root or not url or url.startswith(("#", "/", "?", "\\")) or scheme(url) is not None:
        return url
    return root + url


def _rebasing(attr: str, default: Any) -> Any:
    """A renderer rule that renders a token with its ``attr`` rebased (on a copy: the
    parsed tokens are shared, :func:`tokens`)."""

    def rule(self: RendererHTML, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        root = env.get("root", "") if isinstance(env, dict) else ""
        url = token.attrGet(attr)
        if not root or not isinstance(url, str):
            return str(default(self, tokens, idx, options, env))
        moved = copy.copy(token)
        moved.attrs = {**token.attrs, attr: rebased(url, root)}
        return str(default(self, [moved], 0, options, env))

    return rule


_MD.add_render_rule("link_open", _rebasing("href", RendererHTML.renderToken))
_MD.add_render_rule("image", _rebasing("src", RendererHTML.image))


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[Token, ...]:
    """A block of markdown parsed once: rendered as HTML for the page, read for its words
    by the search index (only read, never changed)."""
    return tuple(_MD.parse(text or ""))


@lru_cache(maxsize=4096)
def markdown(text: str, root: str = "") -> Markup:
    """A block of markdown as HTML; any HTML in the text is shown as text, and a relative
    address is read from the site's root (:func:`rebased`) on a page ``root`` below it. A
    profile's summary, say, is on the home page and on its own: it is rendered once for
    each depth of page."""
    return Markup(_MD.renderer.render(list(tokens(text)), _MD.options, {"root": root}))


@lru_cache(maxsize=4096)
def inline(text: str, root: str = "") -> Markup:
    """One line of markdown (no paragraph), its relative addresses as :func:`markdown`'s; as
    :func:`markdown`, kept for each text and depth of page (a rule's reason is on its
    system's page and on every page setting that system beside another)."""
    return Markup(_MD.renderInline(text or "", {"root": root}))


@pass_context
def markdown_here(context: Context, text: str) -> Markup:
    """The ``markdown`` filter: :func:`markdown` for the page being rendered."""
    return markdown(text, str(context.get("root") or ""))


@pass_context
def inline_here(context: Context, text: str) -> Markup:
    """The ``inline`` filter: :func:`inline` for the page being rendered."""
    return inline(text, str(context.get("root") or ""))


def docstring_markdown(text: str) -> str:
    """A schema docstring as one line of markdown: reST ``literals`` become code."""
    flat = " ".join(line.strip() for line in (text or "").splitlines())
    return re.sub(r"``(.+?)``", r"`\1`", flat)


def docstring(text: str) -> Markup:
    """A schema docstring: reST ``literals`` become code, lines are joined."""
    return inline(docstring_markdown(text))
