"""Heading links and contents lists (site/headings.py), and the theme's two dark palettes
(site/assets/style.css): on small pages of HTML, without building the site."""

from __future__ import annotations

import re
from pathlib import Path

from bouillotte.site import headings

STYLE = Path(__file__).resolve().parent.parent / "site" / "assets" / "style.css"


def test_a_heading_gets_its_link_after_it_not_inside() -> None:
    page = '<main><h2 id="deal">The deal</h2><p>x</p></main>'
    assert headings.link_headings(page) == (
        '<main><div class="heading-wrap heading-wrap-h2"><h2 id="deal">The deal</h2>'
        '<a class="heading-link" href="#deal" aria-label="Permalink: The deal">'
        '<span aria-hidden="true">#</span></a></div><p>x</p></main>'
    )


def test_a_link_written_inside_a_heading_is_replaced_and_its_words_escaped() -> None:
    page = (
        '<h3 id="rule-a">Favori &amp; “point” <a class="permalink" href="#rule-a" '
        'aria-label="Link to the rule Favori">¶</a></h3>'
    )
    out = headings.link_headings(page)
    assert out.count("<a ") == 1 and "permalink" not in out.replace("Permalink", "")
    assert 'aria-label="Permalink: Favori &amp; “point”"' in out
    assert '<h3 id="rule-a">Favori &amp; “point”</h3>' in out


def test_a_heading_without_an_id_keeps_where_its_own_link_led() -> None:
    page = (
        '<article id="rule-a"><h3>Favori <a class="permalink" href="#rule-a" aria-label="L">¶</a>'
        ' <a class="pair-matrix" href="../matrix.html#rule-a">in the matrix</a></h3></article>'
    )
    out = headings.link_headings(page)
    assert '<h3>Favori <a class="pair-matrix"' in out and 'href="#rule-a"' in out
    assert 'aria-label="Permalink: Favori"' in out


def test_a_heading_that_is_a_link_to_another_page_is_left_alone() -> None:
    page = '<h3><a href="variants/foster.html">Foster</a></h3><h3>See <a href="x">x</a></h3>'
    out = headings.link_headings(page)
    assert out.startswith('<h3><a href="variants/foster.html">Foster</a></h3><div ')
    assert out.count("heading-link") == 1


def test_a_heading_without_an_id_gets_one_unique_on_its_page() -> None:
    page = '<p id="sec-effect">x</p><h3>Effect</h3><h3>Effect</h3><h2> </h2>'
    out = headings.link_headings(page)
    ids = re.findall(r' id="([^"]+)"', out)
    assert ids == ["sec-effect", "sec-effect-2", "sec-effect-3"]
    assert out.endswith("<h2> </h2>")  # nothing to name it by: left alone
    assert all(i.startswith(headings.MADE_ID_PREFIX) for i in ids)


def _long(body: str) -> str:
    filler = "<p>" + "word " * (headings.LONG_PAGE // 5) + "</p>\n"
    return f'<body><main id="main" tabindex="-1">\n<h1>T</h1>\n{body}{filler}</main></body>'


def test_a_long_page_gets_a_contents_list_of_its_sections() -> None:
    sections = "".join(
        f'<h2 id="s{i}">Part <em>{i}</em></h2>\n<h3 id="t{i}">Sub</h3>\n' for i in range(3)
    )
    out = headings.navigable("variants/x.html", _long(sections))
    assert '<main class="has-contents" id="main" tabindex="-1">' in out
    nav = out[out.index('<nav class="contents"') : out.index("</nav>")]
    assert re.findall(r'href="#([^"]+)">([^<]+)<', nav) == [
        ("s0", "Part 0"),
        ("s1", "Part 1"),
        ("s2", "Part 2"),
    ]
    assert "<details" in nav and "<summary>" in nav
    assert out.index("</h1>") < out.index('<nav class="contents"') < out.index('id="s0"')


def test_the_contents_list_takes_the_place_of_a_templates_own() -> None:
    body = '<nav class="toc" aria-label="On this page"><ul><li>old</li></ul></nav>\n' + "".join(
        f'<h2 id="s{i}">S{i}</h2>\n' for i in range(3)
    )
    out = headings.navigable("scenarios/x.html", _long(body))
    assert 'class="toc"' not in out and out.count('<nav class="contents"') == 1


def test_a_glossary_lists_its_terms_without_their_glosses() -> None:
    terms = "".join(
        f'<dt id="t{i}"><span lang="fr">Term{i}</span> <span class="gloss">French: “x”</span>'
        f' <a class="permalink" href="#t{i}" aria-label="Link">¶</a></dt><dd>d</dd>\n'
        for i in range(3)
    )
    out = headings.navigable("glossary.html", _long(f"<dl>{terms}</dl>"))
    assert re.findall(r'<li><a href="#(t\d)">([^<]+)</a>', out) == [
        (f"t{i}", f"Term{i}") for i in range(3)
    ]


def test_short_pages_and_rule_sheets_get_no_contents_list() -> None:
    few = "".join(f'<h2 id="s{i}">S{i}</h2>\n' for i in range(headings.CONTENTS_AT_LEAST - 1))
    assert "contents" not in headings.navigable("index.html", _long(few))
    many = "".join(f'<h2 id="s{i}">S{i}</h2>\n' for i in range(5))
    short = '<main id="main">\n<h1>T</h1>\n' + many + "</main>"
    assert "contents" not in headings.navigable("index.html", short)
    assert "contents" not in headings.navigable("sheets/foster.html", _long(many))


def _block(css: str, selector: str) -> dict[str, str]:
    start = css.index(selector)
    body = css[css.index("{", start) + 1 : css.index("}", start)]
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", body))


def test_the_chosen_dark_theme_is_the_systems_dark_palette() -> None:
    """The dark palette is written twice (for the system's setting and for the reader's
    choice): the two must be the same colours."""
    css = STYLE.read_text(encoding="utf-8")
    system = _block(css, ':root:not([data-theme="light"]) {')
    chosen = _block(css, ':root[data-theme="dark"] {')
    light = _block(css, ":root {")
    assert len(system) > 20 and system == chosen
    assert set(system) <= set(light)
