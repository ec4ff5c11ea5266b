"""The formats a site build writes, against an editor's hostile values (issue 47): the
citation tags (Highwire, Dublin Core, OpenGraph), the COinS spans, the sitemap and
robots.txt stay well-formed and inert whatever a ``site.yaml`` or ``sources.yaml`` holds —
quotes that would close an attribute, markup, and control characters written as escapes in
double quotes (``"\\x05"``), which YAML lets through and HTML and XML forbid (a title, a
name or an author holding one is refused where it is read: ``rules/linetext.py``).

A site of one profile of the editor's own (``--no-bundled``): built in about a second."""

from __future__ import annotations

import re
import xml.dom.minidom
from html.parser import HTMLParser
from pathlib import Path

import html5lib  # type: ignore[import-untyped]
import pytest
import yaml

from bouillotte.site import build_site

from ..own_rules import foster_rules_as_ones_own

CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""What HTML and XML forbid in a document (a tab, a line break, a carriage return aside)."""

BREAK_OUT = '\\"><script>alert(1)</script>'
"""Written inside a double-quoted YAML value: a quote that would close an attribute, then
a script."""


def _own_site(root: Path) -> tuple[Path, Path]:
    mine = root / "mine"
    mine.mkdir()
    (mine / "house.yaml").write_text(
        yaml.safe_dump(
            {"title": "House rules", "source": "mybook", "rules": foster_rules_as_ones_own()},
            sort_keys=False,
        ),
        encoding="utf-8",
    )
    (mine / "sources.yaml").write_text(
        "works:\n  mybook:\n"
        f'    author: "Player, A.{BREAK_OUT}"\n'
        f'    title: "Our own book{BREAK_OUT}"\n'
        '    year: "1990"\n    language: en\n'
        f'    publisher: "Pub\\x05{BREAK_OUT}"\n'
        '    place: "Paris\\x1b[2J"\n'
        '    url: "https://example.org/book?a=1&b=2"\n',
        encoding="utf-8",
    )
    config = root / "site.yaml"
    config.write_text(
        f'title: "My site{BREAK_OUT}"\n'
        f'authors: ["Doe, Jane{BREAK_OUT}"]\n'
        "base_url: https://example.org/our-site/\n"
        "edition_date: 2026-01-02\n",
        encoding="utf-8",
    )
    return mine, config


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [(tag, name, value or "") for name, value in attrs]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("formats")
    mine, config = _own_site(root)
    build_site(root / "out", [mine], [], include_bundled=False, config_file=config)
    return root / "out"


def test_every_page_is_well_formed_html(built: Path) -> None:
    pages = sorted(built.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not CONTROL.search(text), f"{page.name} holds a control character"
        html5lib.HTMLParser(strict=True).parse(text)  # raises at the first parse error
        assert "<script>alert" not in text, page.name


def test_the_citation_tags_hold_each_value_inert(built: Path) -> None:
    text = (built / "sources.html").read_text(encoding="utf-8")
    parser = _Attributes()
    parser.feed((built / "index.html").read_text(encoding="utf-8"))
    parser.feed(text)
    metas = {v for tag, name, v in parser.found if tag == "meta" and name == "content"}
    assert 'My site"><script>alert(1)</script>' in metas, metas  # a value, inert
    assert 'Doe, Jane"><script>alert(1)</script>' in metas
    for tag, name, value in parser.found:
        assert not name.startswith("on"), (tag, name)
        if name in ("href", "src"):
            assert not value.strip().lower().startswith(("javascript:", "data:")), value
    coins = [v for tag, name, v in parser.found if tag == "span" and name == "title"]
    assert any(
        "rft.pub=Pub%05%5C%22%3E%3Cscript%3E" in v or "rft.pub=Pub%05%22%3E" in v for v in coins
    )


def test_the_sitemap_is_well_formed_xml_and_robots_names_it(built: Path) -> None:
    sitemap = xml.dom.minidom.parse(str(built / "sitemap.xml"))
    places = [n.firstChild.data for n in sitemap.getElementsByTagName("loc")]  # type: ignore[union-attr]
    assert "https://example.org/our-site/index.html" in places
    assert all(p.startswith("https://example.org/our-site/") for p in places)
    robots = (built / "robots.txt").read_text(encoding="utf-8")
    assert robots.endswith("Sitemap: https://example.org/our-site/sitemap.xml\n")
