"""Stated, inferred and inherited values never look alike: in ``variants show/diff`` (text
and JSON), in ``compare``'s attribution, and on the site (home counts, variant pages, the
matrix); and every quote on the site links to its place in the published text."""

from __future__ import annotations

import json
from typing import Any

import html5lib  # type: ignore[import-untyped]
import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.citations import STATED_STATUSES, Status
from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library
from bouillotte.rules.resources import bundled
from bouillotte.rules.texts import normalise
from bouillotte.site import builder
from bouillotte.site.inputs import collect
from bouillotte.site.page import quiet
from bouillotte.site.pages import home, scenarios, sources, systems

NS = "{http://www.w3.org/1999/xhtml}"
PINNED = ("britannica-1911", "pagat-mistigri")


def _expected(library: Library, vid: str, path: str) -> tuple[str, str | None]:
    """The standing a rule must show, worked out from the profiles themselves."""
    variant = library.get(vid)
    info = variant.info[path]
    parent_source = library.get(info.defined_in).source
    if info.defined_in != vid and parent_source != variant.source:
        return "inherited", info.defined_in
    citation = info.citation
    assert citation is not None, (vid, path)
    return ("stated" if citation.status in STATED_STATUSES else "inferred"), None


# -- the command line --------------------------------------------------------------------


@pytest.mark.parametrize("vid", PINNED)
def test_show_json_gives_each_rule_its_standing(
    runner: CliRunner, library: Library, vid: str
) -> None:
    result = runner.invoke(app, ["variants", "show", vid, "--json"])
    assert result.exit_code == 0, result.output
    rules = {r["rule"]: r for r in json.loads(result.stdout)["rules"]}
    assert set(rules) == set(rule_paths())
    standings = set()
    for path, rule in rules.items():
        standing, parent = _expected(library, vid, path)
        provenance = rule["provenance"]
        standings.add(provenance["standing"])
        assert provenance["standing"] == standing, (vid, path)
        if standing == "inherited":
            assert provenance["status"] == "inherited" and provenance["source_silent"]
            assert provenance["inherited_from"] == parent == rule["inherited_from"]
            assert provenance["label"] == f"inherited from {parent} — {vid} is silent"
        else:
            assert provenance["status"] == rule["citation"]["status"]
            assert not provenance["source_silent"]
    if vid == "britannica-1911":
        assert standings == {"stated", "inferred", "inherited"}
        assert rules["stakes.cave"]["provenance"]["inherited_from"] == "foster"
    else:  # pagat-mistigri rests on the teaching card, as pagat does: nothing is silent
        assert "inherited" not in standings
        mistigri = rules["hands.mistigri"]
        assert mistigri["provenance"]["status"] == "paraphrased"
        assert mistigri["provenance"]["standing"] == "stated"
        assert mistigri["citation"]["translation"]
        assert rules["bonuses.mistigri"]["provenance"]["standing"] == "inferred"


def test_show_text_marks_an_inherited_rule_apart(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "show", "britannica-1911"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    cave = next(line for line in lines if " stakes.cave = " in line)
    assert cave.endswith("[inherited from foster — britannica-1911 is silent]")
    values = next(line for line in lines if " table.point_values = " in line)
    assert values.endswith("[stated: documented]")
    packs = next(line for line in lines if " table.packs = " in line)
    assert packs.endswith("[inferred]")
    assert lines[lines.index(packs) + 1].startswith("      means: ")  # then the citation
    assert lines[lines.index(packs) + 3].startswith("      why: ")


def test_diff_shows_the_standing_of_each_side(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "diff", "pagat", "pagat-mistigri", "--json"])
    assert result.exit_code == 0, result.output
    rows = {d["rule"]: d for d in json.loads(result.stdout)["differences"]}
    assert rows["hands.mistigri"]["pagat-mistigri"]["provenance"]["status"] == "paraphrased"
    assert rows["hands.mistigri"]["pagat"]["provenance"]["status"] == "inferred"  # by silence
    text = runner.invoke(app, ["variants", "diff", "foster", "britannica-1911"]).stdout
    assert "[stated: documented]" in text and "[inferred]" in text


def test_compare_attribution_names_where_each_value_stands(runner: CliRunner) -> None:
    result = runner.invoke(app, ["compare", "nobody-opens-after-straddle", "--json"])
    assert result.exit_code == 0, result.output
    found = {(a["base"], a["other"]): a for a in json.loads(result.stdout)["attribution"]}
    cardrulesplus = found[("pagat", "cardrulesplus")]
    for group in cardrulesplus["responsible"]:
        for path in group:
            sides = cardrulesplus["provenance"][path]
            assert set(sides) == {"pagat", "cardrulesplus"}
    silent = [
        p
        for p, sides in cardrulesplus["provenance"].items()
        if sides["cardrulesplus"]["source_silent"]
    ]
    assert silent, "cardrulesplus inherits some of the differing rules"
    for path in silent:
        side = cardrulesplus["provenance"][path]["cardrulesplus"]
        assert side["standing"] == "inherited" and side["inherited_from"] == "foster"
    text = runner.invoke(app, ["compare", "nobody-opens-after-straddle"]).stdout
    assert "cardrulesplus: inherited from foster — cardrulesplus is silent" in text


# -- the site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def html() -> dict[str, Any]:
    """The pages of the site that show provenance, rendered (the statistics are left out:
    they take long and show no citation)."""
    inputs = collect([], [], quiet)
    pages = [
        home.home_page(inputs),
        systems.matrix_page(inputs),
        *systems.variant_pages(inputs),
        *scenarios.scenario_pages(inputs),
        sources.glossary_page(inputs),
        sources.sources_page(inputs),
        *sources.text_pages(inputs),
    ]
    env = builder._environment(bundled("site"))
    rendered, _ = builder._render(env, pages, quiet)
    parser = html5lib.HTMLParser(strict=True)
    return {path: parser.parse(text) for path, text in rendered.items()}


def _text(element: Any) -> str:
    return " ".join("".join(element.itertext()).split())


def _classes(element: Any) -> set[str]:
    return set((element.get("class") or "").split())


def _find_class(root: Any, tag: str, cls: str) -> list[Any]:
    return [e for e in root.iter(f"{NS}{tag}") if cls in _classes(e)]


@pytest.mark.slow
@pytest.mark.parametrize("vid", PINNED)
def test_variant_page_badges_agree_with_the_home_page(
    html: dict[str, Any], library: Library, vid: str
) -> None:
    page = html[f"variants/{vid}.html"]
    badges: dict[str, str] = {}
    for article in _find_class(page, "article", "rule"):
        path = _text(next(iter(_find_class(article, "code", "path"))))
        value = next(iter(_find_class(article, "p", "rule-value")))
        status = [
            c.removeprefix("status-")
            for e in _find_class(value, "span", "status")
            for c in _classes(e)
            if c.startswith("status-")
        ]
        assert len(status) == 1, (vid, path, status)
        badges[path] = status[0]
        standing, parent = _expected(library, vid, path)
        assert f"standing-{standing}" in _classes(article), (vid, path)
        if standing == "inherited":
            assert status[0] == "inherited"
            assert f"inherited from {parent} — {vid} is silent" in _text(value)
        else:
            assert status[0] == library.get(vid).citation(path).status.value  # type: ignore[union-attr]
    assert set(badges) == set(rule_paths())
    home = html["index.html"]
    item = next(
        li
        for li in _find_class(home, "li", "system")
        if any(a.get("href") == f"variants/{vid}.html" for a in li.iter(f"{NS}a"))
    )

    def count(cls: str) -> int:
        return int(_text(next(iter(_find_class(item, "span", cls)))).split()[0])

    counted = list(badges.values())
    variant = library.get(vid)
    own_words = [  # "documented in its own words": a quote of another work is not counted
        p
        for p, b in badges.items()
        if b == "documented" and variant.cite_source(p) == variant.source
    ]
    assert count("count-documented") == len(own_words)
    assert count("count-inherited") == counted.count("inherited")
    assert count("count-inferred") == counted.count("inferred") + counted.count("reconstructed")
    stated = sum(counted.count(s.value) for s in STATED_STATUSES)
    assert count("count-stated") == stated
    if vid == "britannica-1911":
        assert count("count-inherited") > 0


@pytest.mark.slow
def test_matrix_marks_inherited_and_inferred_cells(html: dict[str, Any], library: Library) -> None:
    matrix = html["matrix.html"]
    table = next(t for t in matrix.iter(f"{NS}table") if t.get("id") == "matrix-table")
    # The headers are short names ("EB 1911"); each links to its system's page.
    header = [
        next((a.get("href", "") for a in th.iter(f"{NS}a")), "")
        for th in next(table.iter(f"{NS}thead")).iter(f"{NS}th")
    ]
    column = {vid: header.index(f"variants/{vid}.html") for vid in PINNED}
    seen = set()
    for row in table.iter(f"{NS}tr"):
        if not row.get("id", "").startswith("rule-"):
            continue
        anchor = row.find(f"{NS}th")
        cells = [anchor, *row.findall(f"{NS}td")]
        path = _text(next(iter(_find_class(anchor, "code", "path"))))
        for vid, index in column.items():
            cell = cells[index]
            standing, parent = _expected(library, vid, path)
            assert f"standing-{standing}" in _classes(cell), (vid, path)
            seen.add(standing)
            if standing == "inherited":
                assert f"↑ {parent}" in _text(cell)
            elif standing == "inferred":
                assert _find_class(cell, "span", "standing-mark-inferred"), (vid, path)
            else:
                assert not _find_class(cell, "span", "standing-mark"), (vid, path)
    assert seen == {"stated", "inferred", "inherited"}


QUOTING_PAGES = [f"variants/{vid}.html" for vid in Library().ids()] + ["glossary.html"]


@pytest.mark.slow
@pytest.mark.parametrize("page_path", QUOTING_PAGES)
def test_every_quote_links_to_its_place_in_the_published_text(
    html: dict[str, Any], page_path: str
) -> None:
    page = html[page_path]
    quotes = _find_class(page, "blockquote", "quote")
    assert quotes
    for quote in quotes:
        parent = next(p for p in page.iter() if any(child is quote for child in p))
        children = list(parent)
        after = children[children.index(quote) + 1 :]
        link = next(a for e in after if "in-context" in _classes(e) for a in e.iter(f"{NS}a"))
        target, _, anchor = link.get("href").partition("#")
        target_page = target.replace("../", "")
        assert target_page.startswith("texts/"), link.get("href")
        words = _text(quote)
        paraphrase = "paraphrase" in _classes(quote)
        assert paraphrase != words.startswith("“"), words[:60]
        if paraphrase:
            continue
        # The source's own words: the link goes to the paragraph where they begin.
        assert anchor.startswith("p"), f"{page_path}: no place found for {words[:70]!r}"
        paragraph = next(p for p in html[target_page].iter(f"{NS}p") if p.get("id") == anchor)
        first = normalise(words.strip("“”").split("[...]")[0])[:40]
        assert first in normalise(_text(paragraph)), (page_path, first)


@pytest.mark.slow
def test_every_quotation_in_a_scenario_note_links_to_its_context(html: dict[str, Any]) -> None:
    linked = 0
    for page_path, page in html.items():
        if not page_path.startswith("scenarios/"):
            continue
        prose = next(iter(_find_class(page, "div", "prose")))
        quotes = list(prose.iter(f"{NS}blockquote"))
        links = [
            a
            for p in _find_class(page, "p", "in-context")
            for a in p.iter(f"{NS}a")
            if _text(a).startswith("quotation ")
        ]
        assert len(links) == len(quotes), page_path
        for link in links:
            target, _, anchor = link.get("href").partition("#")
            assert target.startswith("../texts/") and anchor.startswith("p"), link.get("href")
        linked += len(links)
    assert linked > 40


@pytest.mark.slow
def test_paraphrases_are_shown_without_quotation_marks(html: dict[str, Any]) -> None:
    page = html["variants/pagat-mistigri.html"]
    note = next(li for li in page.iter(f"{NS}li") if li.get("id") == "cite-hands-mistigri")
    quote = next(iter(_find_class(note, "blockquote", "paraphrase")))
    assert "“" not in _text(quote) and "Brelan de Mistigri" in _text(quote)
    assert "In English:" in _text(note)
    assert Status.PARAPHRASED.value in _text(note)


@pytest.mark.slow
def test_the_site_never_points_to_notes_a_reader_cannot_open(html: dict[str, Any]) -> None:
    for page_path, page in html.items():
        text = _text(page.find(f"{NS}body"))
        for word in ("research notes", "../shared", "shared/sources", "sources.md"):
            assert word not in text, (page_path, word)


@pytest.mark.slow
def test_each_text_page_says_where_it_comes_from(html: dict[str, Any], library: Library) -> None:
    for work_id, work in library.works.items():
        if work.file is None:
            assert f"texts/{work_id}.html" not in html
            continue
        page = html[f"texts/{work_id}.html"]
        assert "Transcribed from" in _text(page.find(f"{NS}body"))
        ids = [p.get("id") for p in page.iter(f"{NS}p") if p.get("id")]
        text = library.text(work_id)
        assert text is not None and ids == [f"p{i + 1}" for i in range(len(text.paragraphs))]


def test_every_bundled_rule_is_cited() -> None:
    """A historian checks every value: none of the bundled profiles leaves one uncited."""
    library = Library()
    for variant in library.all():
        uncited = [p for p in rule_paths() if variant.provenance(p).standing.value == "uncited"]
        assert not uncited, f"{variant.id}: {uncited}"
