"""The static site: valid HTML5, links that resolve, search, escaping, safe rebuilds."""

from __future__ import annotations

import functools
import hashlib
import html as html_lib
import importlib
import json
import re
import shutil
import threading
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import html5lib  # type: ignore[import-untyped]
import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.site import build_site, builder, headings, inputs, output, search, stats
from bouillotte.site.serve import make_server
from bouillotte.study.scenario import ScenarioLibrary

from .own_rules import foster_rules_as_ones_own

pytestmark = pytest.mark.slow  # builds the whole site

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def pages(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(str(found["id"]))
        for key in ("href", "src"):
            if found.get(key) is not None:
                self.links.append((tag, str(found[key])))


def parse(file: Path) -> _Links:
    parser = _Links()
    parser.feed(file.read_text(encoding="utf-8"))
    return parser


def digest(folder: Path) -> dict[str, str]:
    return {
        str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
        for f in sorted(folder.rglob("*"))
        if f.is_file()
    }


def test_the_expected_pages_are_built(site: Path) -> None:
    for name in (
        "index.html",
        "matrix.html",
        "statistics.html",
        "sources.html",
        "glossary.html",
        "search.html",
        "scenarios/index.html",
        "readings.html",
        "variants/foster.html",
        "variants/pagat.html",
        "scenarios/foster-sight.html",
        "assets/style.css",
        "assets/search-index.js",
        output.MARKER,
    ):
        assert (site / name).is_file(), name


def test_the_sources_page_lists_what_is_known_but_not_yet_read(site: Path) -> None:
    text = (site / "sources.html").read_text(encoding="utf-8")
    start = text.index('<h2 id="unread">Known but not yet read</h2>')
    section = text[start:]
    for anchor in ("unread-lebrun-1827", "unread-van-tenac-1847", "unread-boussac-1896"):
        assert f'id="{anchor}"' in section
    assert "https://gallica.bnf.fr/ark:/12148/bpt6k1104783" in section  # Burger 1883
    assert '<a href="#work-tlfi">TLFi</a>' in section  # by its name, not its id


def test_the_history_page_links_each_word_to_its_rule_and_flags_an_uncertain_edition(
    site: Path,
) -> None:
    text = (site / "history.html").read_text(encoding="utf-8")
    for word, rule in (("carre", "forced_bets-straddles"), ("va-tout", "betting-all_in")):
        start = text.index(f'id="h-word-{word}"')
        assert f'href="matrix.html#rule-{rule}' in text[start : start + 400]
    assert "Edition: 6th (1835) or 7th (1878) edition: uncertain" in text


def test_every_page_is_valid_html5(site: Path) -> None:
    for file in pages(site):
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
        try:
            parser.parse(file.read_text(encoding="utf-8"))
        except html5lib.html5parser.ParseError as exc:
            pytest.fail(f"{file.relative_to(site)}: {exc}")


parse_site_page = functools.cache(parse)
"""A page of the shared, read-only ``site``, parsed once for the tests that read its ids
and links."""


def test_ids_are_unique_on_every_page(site: Path) -> None:
    for file in pages(site):
        ids = parse_site_page(file).ids
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        assert not duplicates, f"{file.relative_to(site)}: {duplicates}"


def test_every_internal_link_and_anchor_resolves(site: Path) -> None:
    ids = {file: set(parse_site_page(file).ids) for file in pages(site)}
    root = site.resolve()

    @functools.cache
    def resolved(folder: Path, path: str) -> Path:  # the same few targets from every page
        return (folder / path).resolve()

    checked = 0
    for file in pages(site):
        for tag, link in parse_site_page(file).links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https"):
                assert tag == "a", f"{file.name}: external resource {link} (the site is offline)"
                continue
            assert not parts.scheme and not link.startswith("//"), f"{file.name}: {link}"
            target = resolved(file.parent, unquote(parts.path)) if parts.path else file
            assert target.is_file(), f"{file.relative_to(site)}: broken link {link}"
            assert root in target.parents, f"{file.name}: {link} leaves the site"
            if parts.fragment:
                assert parts.fragment in ids[target], (
                    f"{file.relative_to(site)}: no #{parts.fragment} in {link}"
                )
            checked += 1
    assert checked > 500


def test_every_page_is_in_the_search_index(site: Path) -> None:
    script = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert script.startswith("window.SEARCH_INDEX = ")
    entries = json.loads(script[len("window.SEARCH_INDEX = ") :].rstrip().rstrip(";"))
    urls = {e["u"].split("#")[0] for e in entries}
    for file in pages(site):
        if file.name != "404.html":  # no page of the site's own: what a host shows for none
            assert str(file.relative_to(site)) in urls
    favori = [e for e in entries if "favori" in (e["t"] + e["x"]).lower()]
    assert any(e["u"] == "glossary.html#favori" for e in favori)


def test_the_matrix_links_to_citations_and_marks_differences(site: Path) -> None:
    html = (site / "matrix.html").read_text(encoding="utf-8")
    assert 'href="variants/pagat.html#cite-betting-closing"' in html
    assert 'id="rule-betting-closing" class="differs"' in html
    assert 'id="differences"' in html and 'id="only-differences"' in html


def test_a_variant_page_cites_every_rule_and_lists_what_is_left_open(site: Path) -> None:
    html = (site / "variants" / "foster-three.html").read_text(encoding="utf-8")
    assert "inherited from" in html and 'id="open"' in html
    assert html.count('<li id="cite-') == len(re.findall(r'<h3 id="rule-', html))
    assert "four is the proper number" not in html or "inherited" in html


def test_a_scenario_page_shows_cards_outcomes_and_attribution(site: Path) -> None:
    html = (site / "scenarios" / "foster-sight.html").read_text(encoding="utf-8")
    assert 'aria-label="ace of clubs"' in html and "♣" in html
    assert '<span class="card-letter">C</span>' in html
    assert "cell-differs" in html and "step 1 (A all-in) is not allowed" in html
    assert "../matrix.html#rule-betting-all_in_may_open_or_raise" in html
    assert html.count("<details") >= 2
    # Every pair's explanation comes from the one attribution: the scenario page's and the
    # pair page's say the same of foster and cardrulesplus (the site's search stops at
    # two rules here: it says so, and the command line finds the tie-break's set).
    together = 'Other players&#39; ante</a> + <a href="{}">Cards counted for the point</a>.'
    assert together.format("../matrix.html#rule-point-counted_cards") in html
    assert "every combination of up to 2 of the 9 differing rules decided" in html
    assert "bouillotte compare foster-sight</code> searches on" in html
    pair = (site / "compare" / "foster--cardrulesplus.html").read_text(encoding="utf-8")
    entry = pair[pair.index("foster-sight.html#outcome") :].split("</article>")[0]
    assert together.format("#rule-point-counted_cards") in entry


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_pair_page_shows_what_ends_differently_side_by_side(site: Path) -> None:
    """Foster's sight under Foster and CardRulesPlus (worked by hand, as in
    tests/test_attribution.py): Foster gives the main pool of 105 to A on the tie of clubs
    and spades at 40, CardRulesPlus 106 to D (everyone antes 1; the retourne's suit breaks
    the tie at 31), so A ends +70 against -35 and D +50 against +156; C loses his 120
    under both."""
    pair = (site / "compare" / "foster--cardrulesplus.html").read_text(encoding="utf-8")
    entry = pair[pair.index('id="scenario-foster-sight"') :].split("</article>")[0]
    text = _text(entry)
    assert "Main pool 105 to A" in text and "106 to D" in text
    assert "Net for A +70" in text and "-35" in text and "+156" in text
    # What does not differ is said in a line, not repeated in the table.
    assert "The same under both: status settled; bonuses none;" in text
    assert "net for C -120" in text and "Net for C" not in text
    assert entry.count('class="cell-differs"') >= 4
    assert "Switching Foster 1897’s rules to CardRulesPlus 2020s’s" in text
    assert "Foster 1897: settled; CardRulesPlus 2020s: settled" not in _text(pair)


def test_a_refusal_alike_is_shown_once_and_steps_are_steps(site: Path) -> None:
    """Four Pagat systems refuse foster-sight's first step by the same rule: one cell says
    it once for the four, with the actions each would allow; the log numbers the written
    steps (A's all-in is step 1, after the blind and the deal, which have none)."""
    html = (site / "scenarios" / "foster-sight.html").read_text(encoding="utf-8")
    outcome = html[html.index('id="outcome"') : html.index('id="why"')]
    assert outcome.count("cannot open with his whole cave") == 1
    assert 'colspan="4"' in outcome and "These 4 systems refuse the deal" in outcome
    assert "Under Teaching card, all ante: pass, bet 2-34, fold." in _text(outcome)
    assert "action 1" not in _text(html)
    log = html[html.index('<table class="log">') : html.index("</table>")]
    rows = re.findall(r"<tr><td>(\d*)</td><td>(\w*)</td>", log)
    assert rows[:4] == [("", "D"), ("", "A"), ("", ""), ("1", "A")]


def test_cards_are_written_one_way_on_a_scenario_page(site: Path) -> None:
    """The notes write ♣A, the terminal's transcripts AC: the page shows each as the deal
    does (rank, suit symbol, suit letter)."""
    html = (site / "scenarios" / "foster-sight.html").read_text(encoding="utf-8")
    text = _text(re.sub(r'<span class="card-letter">[SHDC]</span>', "", html))
    assert not re.search(r"\b(10|[AKQJ987])[SHDC]\b|[♠♥♦♣](10|[AKQJ987])\b", text)
    assert html.count('title="ace of clubs"') >= 3


def _hostile(tmp_path: Path) -> tuple[Path, Path]:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "evil.yaml").write_text(
        """id: evil-title
title: "<script>alert(1)</script>"
source: {work: foster, locator: "<b>bold</b>", status: constructed}
notes: |
  <img src=x onerror=alert(2)> and [a link](javascript:alert(3)) and <script>alert(4)</script>
players: [A, B, C, D]
dealer: D
hands: {A: [AC, KC, 9C], B: [KS, 9D, 8D], C: [AS, QS, 9S], D: [AH, KH, QC]}
retourne: 9H
actions: [A bet 5, B fold, C fold, D fold]
""",
        encoding="utf-8",
    )
    variants = tmp_path / "variants"
    variants.mkdir()
    (variants / "evil-profile.yaml").write_text(
        """title: "<script>alert(5)</script>"
source: foster
extends: foster
summary: "<iframe src=x></iframe> *fine*"
rules: {}
""",
        encoding="utf-8",
    )
    return scenarios, variants


def test_everything_from_yaml_is_escaped(tmp_path: Path, warm_cache: Path) -> None:
    scenarios, variants = _hostile(tmp_path)
    out = tmp_path / "out"
    build_site(out, [variants], [scenarios])
    page = (out / "scenarios" / "evil-title.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
    assert 'href="javascript:' not in page
    profile = (out / "variants" / "evil-profile.html").read_text(encoding="utf-8")
    assert "&lt;iframe" in profile and "<em>fine</em>" in profile
    for file in out.rglob("*.html"):
        text = file.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<iframe" not in text and "<img" not in text
    index = (out / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert "</script>" not in index


def test_two_builds_are_byte_identical(site: Path, uncached_site: Path) -> None:
    """Two builds in full, each computing everything (``site`` with an empty cache,
    ``uncached_site`` with none): the same bytes."""
    assert digest(uncached_site) == digest(site)


@pytest.mark.slow
def test_the_build_cache_changes_no_byte(
    tmp_path: Path, site: Path, site_cache: Path, uncached_site: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Cold (``site``: everything computed and stored in ``site_cache``, empty before),
    warm (everything read back from a copy of that cache) and unusable (``uncached_site``:
    a cache folder under a file: nothing read, nothing stored, no error): the same site."""
    kinds = {f.name.split("-")[0] for f in site_cache.iterdir()}
    # effects are stored in site/effects/, not cached
    assert {"odds", "simulate", "attribution", "run", "yaml"} <= kinds
    assert "jinja" not in kinds  # templates are compiled in memory, never unpickled
    cache = tmp_path / "cache"
    shutil.copytree(site_cache, cache)
    stored = digest(cache)
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(cache))

    def computed(*args: object, **kwargs: object) -> None:
        raise AssertionError("a warm cache should leave nothing to compute")

    with monkeypatch.context() as warm:
        warm.setattr(inputs, "attribute", computed)
        warm.setattr(inputs, "ProcessPoolExecutor", computed)
        warm.setattr(stats, "_module", lambda name: _NoComputing(name))
        build_site(tmp_path / "warm")
    assert digest(cache) == stored
    expected = digest(uncached_site)
    assert digest(site) == expected, "cold"
    assert digest(tmp_path / "warm") == expected, "warm"


class _NoComputing:
    """A study module whose computations fail, with ``odds_key`` left working (the
    odds cache is keyed on it)."""

    def __init__(self, name: str) -> None:
        self.real = importlib.import_module(f"bouillotte.study.{name}")

    def __getattr__(self, attr: str) -> Any:
        if attr in ("odds_key", "__name__"):
            return getattr(self.real, attr)
        if attr in ("compute_odds", "simulate", "report"):

            def computed(*args: object, **kwargs: object) -> None:
                raise AssertionError(f"{attr} ran although the cache holds its result")

            return computed
        return getattr(self.real, attr)


SKIPPED_IN_HEADINGS = {"permalink", "gloss", "visually-hidden"}
"""What a heading shows that is no part of its name: the ¶ link, a French word's gloss."""


class _PageWords(HTMLParser):
    """A built page as a reader sees it: the words inside ``<main>``, and each heading
    (or glossary term) with an id inside it, by id, with the words of its name."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.main = 0
        self.words: list[str] = []
        self.headings: dict[str, list[str]] = {}
        self.ids: set[str] = set()
        self.open: list[tuple[str, str | None, bool]] = []  # tag, heading id, skipped

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.main += tag == "main"
        if tag in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            return
        if found.get("id"):
            self.ids.add(found["id"] or "")
        anchor = found.get("id") if self.main and tag in ("h2", "h3", "dt") else None
        skipped = bool(set((found.get("class") or "").split()) & SKIPPED_IN_HEADINGS)
        if anchor:
            self.headings[anchor] = []
        self.open.append((tag, anchor, skipped))

    def handle_endtag(self, tag: str) -> None:
        self.main -= tag == "main"
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.main:
            return
        self.words.append(data)
        if any(skipped for _, _, skipped in self.open):
            return
        for _, anchor, _ in self.open:
            if anchor:
                self.headings[anchor].append(data)


def _index(site: Path) -> list[dict[str, str]]:
    script = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    entries: list[dict[str, str]] = json.loads(script[len("window.SEARCH_INDEX = ") : -2])
    return entries


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_the_search_index_matches_the_rendered_pages(site: Path) -> None:
    """The index is built from the pages' data, never by reading them back: each entry
    must still match its page as a browser shows it. A section entry names a heading of
    its page with that id and those words; every word of an entry's text is on its page
    (a rule's, somewhere on the site; a pair's or a sheet's is its description); and every
    heading with an id is an entry, except the rules on a system's page (found through the
    rule's own entry), the parts of a scenario, a pair and a rule sheet (each found as a
    whole) and the ids given to headings for their permalinks alone. A paragraph entry
    leads to a paragraph of a shipped text by its anchor."""
    read: dict[str, _PageWords] = {}
    for file in pages(site):
        reader = _PageWords()
        reader.feed(file.read_text(encoding="utf-8"))
        read[file.relative_to(site).as_posix()] = reader
    everywhere = set().union(*(_words(" ".join(r.words)) for r in read.values()))
    indexed: set[tuple[str, str]] = set()
    for entry in _index(site):
        url, _, anchor = entry["u"].partition("#")
        page = read[unquote(url)]
        shown = everywhere if entry["k"] == "rule" else _words(" ".join(page.words))
        described = url.startswith("sheets/") or (url.startswith("compare/") and "--" in url)
        if not described:  # a pair's or a rule sheet's text is its written description
            assert _words(entry["x"]) <= shown, (entry["u"], _words(entry["x"]) - shown)
        if entry["k"] in ("section", "glossary"):
            anchor = unquote(anchor)
            assert anchor in page.headings, entry["u"]
            heading = " ".join(" ".join(page.headings[anchor]).split())
            assert entry["t"].split(" — ")[0] == heading, entry["u"]
            indexed.add((unquote(url), anchor))
        if entry["k"] == "paragraph":  # a shipped text's paragraph: its own anchor
            assert url.startswith("texts/") and unquote(anchor) in page.ids, entry["u"]
            assert entry["t"].startswith(f"¶{unquote(anchor)[1:]}, "), entry
    for url, page in read.items():
        whole = url.startswith(("scenarios/", "sheets/", "compare/")) and not url.endswith(
            "index.html"
        )
        for anchor in page.headings if not whole else ():
            if anchor.startswith(headings.MADE_ID_PREFIX):
                continue  # an id given only for its permalink (headings.py), not a section
            if not (url.startswith("variants/") and anchor.startswith("rule-")):
                assert (url, anchor) in indexed, f"{url}#{anchor} is not in the search index"


def test_every_paragraph_of_every_shipped_text_is_in_the_search_index(site: Path) -> None:
    """The whole text, one entry per paragraph, each leading to its paragraph; a word of
    Foster's 26th paragraph is found there (the index once kept 12,000 characters)."""
    entries = {e["u"]: e for e in _index(site)}
    for file in sorted((site / "texts").glob("*.html")):
        shown = re.findall(r'<p id="(p\d+)">', file.read_text(encoding="utf-8"))
        assert shown, file
        for anchor in shown:
            assert f"texts/{file.name}#{anchor}" in entries, f"{file.name}#{anchor}"
    p26 = entries["texts/foster.html#p26"]
    assert "abandon his hand" in p26["x"] and p26["k"] == "paragraph"


HEADING = re.compile(
    r"<(h[23])\b([^>]*)>(.*?)</\1>(<a class=\"heading-link\" href=\"#([^\"]+)\")?", re.S
)


def test_every_heading_has_a_permalink_and_long_pages_a_contents_list(site: Path) -> None:
    with_contents = set()
    for file in pages(site):
        html = file.read_text(encoding="utf-8")
        name = file.relative_to(site).as_posix()
        ids = re.findall(r' id="([^"]+)"', html)
        assert len(ids) == len(set(ids)), f"{name}: an id twice"
        found = HEADING.findall(html)
        assert found, name
        for level, attrs, inner, link, target in found:
            if re.fullmatch(r'<a href="[^"#][^"]*">[^<]*</a>', inner.strip()):
                continue  # a heading that is a link to another page (a system's card on
                # the home page, a scenario on a pair page) keeps no permalink of its own
            own = re.search(r' id="([^"]+)"', attrs)
            assert link, f"{name}: <{level}{attrs}> has no permalink"
            # Its own id, or where the template's own link led (a pair page's rule).
            assert target == own.group(1) if own else target in ids, f"{name}: {target}"
        contents = re.search(r'<nav class="contents".*?</nav>', html, re.S)
        if contents:
            with_contents.add(name)
            targets = re.findall(r'href="#([^"]+)"', contents.group(0))
            assert len(targets) >= headings.CONTENTS_AT_LEAST and set(targets) <= set(ids), name
    long = {"variants/foster.html", "sources.html", "glossary.html", "statistics.html"}
    long |= {"history.html", "scenarios/foster-sight.html"}
    assert long <= with_contents
    assert not {"index.html", "sheets/foster.html", "texts/foster.html"} & with_contents


def test_page_entries_come_from_the_page_text() -> None:
    """A page's text is squashed and its path quoted; a template no family names (a pair,
    a rule sheet) gives no page text, so the page is indexed by title and description."""
    from bouillotte.site.pagetext import page_text

    assert page_text("someone-elses.html", {}) is None
    assert search.page_entries("a b.html", "T", search.PageText("one  two", [])) == [
        {"t": "T", "u": "a%20b.html", "x": "one two", "k": "page"}
    ]


def test_libyaml_writes_the_profiles_as_pyyaml_does(site: Path) -> None:
    """The profiles' YAML is written by libyaml where it is installed: the same text as
    PyYAML's own writer, so a site is the same with or without it."""
    import yaml

    if not hasattr(yaml, "CSafeDumper"):
        pytest.skip("PyYAML is built without libyaml here: only its own writer is used")
    for file in sorted((site / "data" / "profiles").glob("*.json")):
        data = json.loads(file.read_text(encoding="utf-8"))
        options: dict[str, Any] = {"allow_unicode": True, "sort_keys": True, "width": 100}
        fast = yaml.dump(data, Dumper=yaml.CSafeDumper, **options)
        assert fast == yaml.dump(data, Dumper=yaml.SafeDumper, **options), file.name
        assert fast == file.with_suffix(".yaml").read_text(encoding="utf-8")


def test_a_failed_build_leaves_the_previous_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: Path, warm_cache: Path
) -> None:
    out = tmp_path / "out"
    shutil.copytree(site, out)  # a built site (its marker file and all)
    before = digest(out)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad.yaml").write_text("id: bad\ntitle: x\nplayers: [A]\n", encoding="utf-8")
    with pytest.raises(InputError):
        build_site(out, scenario_paths=[broken])
    assert digest(out) == before

    def half_written(
        target: Path, site_dir: Path, files: dict[str, str], theme: Path | None = None
    ) -> None:
        (target / "index.html").write_text("half", encoding="utf-8")
        raise OSError("disk full")

    monkeypatch.setattr(builder, "write_files", half_written)
    with pytest.raises(InputError, match="disk full"):  # a system error is one clear line
        build_site(out)
    assert digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken", "out"]


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("years of work", encoding="utf-8")
    with pytest.raises(InputError, match="not a built site"):
        build_site(precious)
    assert (precious / "thesis.txt").read_text(encoding="utf-8") == "years of work"


def test_statistics_show_a_note_when_a_module_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm_cache: Path
) -> None:
    monkeypatch.setattr(stats, "_present", lambda name: False)
    out = tmp_path / "out"
    build_site(out)
    html = (out / "statistics.html").read_text(encoding="utf-8")
    assert "The odds module is not installed" in html
    assert "simulation module is not part of this build" in html


def test_statistics_show_exact_odds_with_charts(site: Path) -> None:
    html = (site / "statistics.html").read_text(encoding="utf-8")
    if "The odds module is not installed" in html:
        pytest.skip("bouillotte.study.odds is not present")
    assert "<svg" in html and "<desc" in html and "<caption>" in html


def test_cli_builds_with_progress_on_stderr(
    tmp_path: Path, runner: CliRunner, site: Path, warm_cache: Path
) -> None:
    """``bouillotte site build`` builds the site ``build_site`` builds, byte for byte (CI's
    checks build no other: this is the command's build of the bundled site)."""
    out = tmp_path / "cli-site"
    result = runner.invoke(app, ["site", "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "built" in result.stderr and result.stdout == ""
    assert digest(out) == digest(site)


def test_cli_reports_bad_input_in_one_line(tmp_path: Path, runner: CliRunner) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad.yaml").write_text("id: bad\ntitle: x\nplayers: [A]\n", encoding="utf-8")
    result = runner.invoke(
        app, ["site", "build", "--out", str(tmp_path / "o"), "--scenarios", str(broken)]
    )
    assert result.exit_code == 2
    assert "error:" in result.stderr and "bad.yaml" in result.stderr
    assert "Traceback" not in result.output


def test_the_preview_server_serves_the_site(site: Path) -> None:
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=5) as reply:
            assert b"Bouillotte" in reply.read()
    finally:
        server.shutdown()
        server.server_close()


def test_every_pair_of_systems_has_a_page_like_variants_diff(site: Path, runner: CliRunner) -> None:
    """Each pair page lists exactly the rules `bouillotte variants diff` lists, each with
    both sources' sentences, and the scenarios whose outcome the pair does not share."""
    ids = Library().ids()
    pair_pages = sorted((site / "compare").glob("*--*.html"))
    assert len(pair_pages) == len(ids) * (len(ids) - 1) // 2
    for page in pair_pages:
        first, second = page.stem.split("--")
        result = runner.invoke(app, ["variants", "diff", first, second])
        assert result.exit_code == 0, result.output
        listed = re.findall(r"^(\w+\.\w+) — ", result.output, flags=re.M)
        html = page.read_text(encoding="utf-8")
        shown = re.findall(r'<article class="pair-rule" id="rule-([\w-]+)"', html)
        assert shown == [p.replace(".", "-") for p in listed], page.name
        assert html.count('<blockquote class="quote') >= len(listed)
    foster_pagat = (site / "compare" / "foster--pagat.html").read_text(encoding="utf-8")
    assert "../scenarios/all-in-opening.html#outcome" in foster_pagat
    index = (site / "compare" / "index.html").read_text(encoding="utf-8")
    assert index.count('href="../compare/foster--') == len(ids) - 1


def test_the_downloads_parse_and_match_the_profiles(site: Path) -> None:
    """Every data file is linked from its page and parses; the values are the engine's."""
    import csv

    import yaml

    library = Library()
    ids = library.ids()
    for vid in ids:
        as_json = json.loads((site / "data" / "profiles" / f"{vid}.json").read_text("utf-8"))
        as_yaml = yaml.safe_load((site / "data" / "profiles" / f"{vid}.yaml").read_text("utf-8"))
        assert as_json == as_yaml
        variant = library.get(vid)
        assert as_json["rules"]["table.players"]["value"] == variant.players
        page = (site / "variants" / f"{vid}.html").read_text("utf-8")
        assert f'href="../data/profiles/{vid}.yaml"' in page
    with (site / "data" / "matrix.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    matrix = json.loads((site / "data" / "matrix.json").read_text("utf-8"))
    # rule, name, a value column per system, then the systems' provenance columns
    assert sorted(rows[0][2 : 2 + len(ids)]) == sorted(ids) == sorted(matrix["systems"])
    assert len(rows) - 1 == len(matrix["rules"]) > 50
    assert matrix["rules"]["table.players"]["values"]["foster-three"] == 3
    scenarios = sorted((site / "data" / "scenarios").glob("*.json"))
    assert len(scenarios) == len(list((site / "scenarios").glob("*.html"))) - 1
    sight = json.loads((site / "data" / "scenarios" / "foster-sight.json").read_text("utf-8"))
    assert sight["outcomes"]["foster"]["status"] == "settled"
    assert sight["outcomes"]["pagat"]["status"] == "illegal"
    with (site / "data" / "odds.csv").open(encoding="utf-8", newline="") as f:
        odds = list(csv.DictReader(f))
    assert odds and {"table", "row", "column", "value"} <= set(odds[0])
    assert 'href="data/odds.csv"' in (site / "statistics.html").read_text("utf-8")
    assert 'href="data/matrix.csv"' in (site / "matrix.html").read_text("utf-8")


def test_the_tidy_downloads_and_their_data_package(site: Path) -> None:
    """Issue 50: each of the site's tables also as tidy CSV and JSON, linked from its page,
    and data/datapackage.json describing every file under data/, valid for the Frictionless
    library itself."""
    import frictionless

    package = json.loads((site / "data" / "datapackage.json").read_text("utf-8"))
    described = {r["path"] for r in package["resources"]}
    on_disk = {
        p.relative_to(site / "data").as_posix()
        for p in (site / "data").rglob("*")
        if p.is_file() and p.name != "datapackage.json"
    }
    assert described == on_disk
    tables = ("matrix", "outcomes", "odds", "simulation", "scenarios", "steps", "policies")
    for table in (*tables, "reading_deals", "strong_bands"):
        assert {f"tidy/{table}.csv", f"tidy/{table}.json"} <= described
    report = frictionless.validate(site / "data" / "datapackage.json")
    assert report.valid, report.flatten(["resourcePath", "rowNumber", "fieldName", "note"])
    rows = json.loads((site / "data" / "tidy" / "outcomes.json").read_text("utf-8"))
    # scenarios/foster-sight.yaml, worked from Foster's text.
    sight = {
        r["player"]: r["net"]
        for r in rows
        if r["scenario"] == "foster-sight" and r["variant"] == "foster"
    }
    assert sight == {"A": 70, "B": 0, "C": -120, "D": 50}
    from bouillotte.rules.profile import rule_paths

    matrix = (site / "data" / "tidy" / "matrix.csv").read_text("utf-8").splitlines()
    assert len(matrix) - 1 == len(Library().ids()) * len(list(rule_paths()))
    assert 'href="data/tidy/odds.csv"' in (site / "statistics.html").read_text("utf-8")
    assert 'href="data/datapackage.json"' in (site / "statistics.html").read_text("utf-8")
    assert 'href="data/tidy/matrix.csv"' in (site / "matrix.html").read_text("utf-8")


def _downloads_linked(page: Path) -> dict[str, str]:
    """Each link of ``page`` into ``data/``: its target (relative to the site) and its
    words (tags stripped)."""
    links: dict[str, str] = {}
    text = page.read_text("utf-8")
    for href, words in re.findall(r'<a href="([^"#]*data/[^"#]*)"[^>]*>(.*?)</a>', text):
        target = (page.parent / href).resolve()
        links[target.as_posix()] = re.sub(r"<[^>]+>", "", words)
    return links


def test_each_table_links_its_tidy_download_and_the_data_package_names_it(site: Path) -> None:
    """Issue 50: the statistics page's simulated play and rule effects, the every-rule
    page's sweep and each pair page's rule effects link their tidy CSV and JSON beside the
    tables, in words that name the table and the format; every link into data/ from any
    page finds its file, and the data package describes each one (the bibliography
    among them)."""
    data = (site / "data").resolve()
    package = json.loads((data / "datapackage.json").read_text("utf-8"))
    described = {r["path"] for r in package["resources"]}
    for page in site.rglob("*.html"):
        for target in _downloads_linked(page):
            assert Path(target).is_file(), (page, target)
            assert Path(target).relative_to(data).as_posix() in described | {"datapackage.json"}, (
                target
            )
    assert {"bibliography.bib", "bibliography.json"} <= described
    assert (data / "bibliography.bib").read_text("utf-8") == (site / "bibliography.bib").read_text(
        "utf-8"
    )

    def tidy_links(page: str) -> dict[str, str]:
        return {
            Path(t).relative_to(data / "tidy").as_posix(): words
            for t, words in _downloads_linked(site / page).items()
            if Path(t).is_relative_to(data / "tidy")
        }

    statistics = tidy_links("statistics.html")
    for name, what in (
        ("odds", "exact odds"),
        ("simulation", "simulated play"),
        ("effects/foster__pagat", "rule effects of Foster 1897 towards Teaching card"),
    ):
        for ext in ("csv", "json"):
            assert what in statistics[f"{name}.{ext}"]
            assert f"tidy {ext.upper()}" in statistics[f"{name}.{ext}"]
    history = tidy_links("history.html")
    assert set(history) == {f"{t}.{e}" for t in ("sources", "statements") for e in ("csv", "json")}
    assert "the sources by date, tidy CSV" in history["sources.csv"]
    readings = tidy_links("readings.html")
    assert set(readings) == {
        f"{t}.{e}" for t in ("readings", "reading_deals") for e in ("csv", "json")
    }
    assert (
        "the deal under each reading of every sentence, tidy CSV" in readings["reading_deals.csv"]
    )
    assert "the betting policies, tidy JSON" in statistics["policies.json"]
    assert "the list of scenarios, tidy CSV" in tidy_links("scenarios/index.html")["scenarios.csv"]
    for page in (site / "scenarios").glob("*.html"):
        if page.name == "index.html" or 'id="play"' not in page.read_text("utf-8"):
            continue
        steps = tidy_links(f"scenarios/{page.name}")
        assert "every scenario’s play step by step, tidy CSV" in steps["steps.csv"], page.name
        assert f"scenario = {page.stem}" in page.read_text("utf-8")
    every_rule = tidy_links("every-rule.html")
    assert set(every_rule) == {
        f"{t}.{e}" for t in ("effects/foster__all-rules", "strong_bands") for e in ("csv", "json")
    }
    assert "every rule of Foster 1897" in every_rule["effects/foster__all-rules.csv"]
    # the strong-play bands beside their effects, on both pages that show them
    for shown_on in ("every-rule.html", "compare/foster--pagat.html"):
        bands = tidy_links(shown_on)
        for ext in ("csv", "json"):
            assert f"the strong-play bands, tidy {ext.upper()}" in bands[f"strong_bands.{ext}"]
    # every pair page that shows rule effects links its own pair's rows, and no other's
    shown = 0
    for page in sorted((site / "compare").glob("*--*.html")):
        if 'id="effects"' not in page.read_text("utf-8"):
            continue
        shown += 1
        a, b = page.stem.split("--")
        linked = {t for t in tidy_links(f"compare/{page.name}") if t.startswith("effects")}
        assert linked == {f"effects/{a}__{b}.csv", f"effects/{a}__{b}.json"}, page.name
    assert shown == len(list((site / "data" / "tidy" / "effects").glob("*.csv"))) - 1
    # a pair's file holds the pair's rows of the whole table, exactly
    whole = json.loads((data / "tidy" / "effects.json").read_text("utf-8"))
    pair = json.loads((data / "tidy" / "effects" / "foster__pagat.json").read_text("utf-8"))
    assert pair == [r for r in whole if (r["system"], r["towards"]) == ("foster", "pagat")]
    assert {r["policy"] for r in pair} == {"advised", "bold"}
    # (the package's validity: test_the_tidy_downloads_and_their_data_package)


def test_glossary_names_are_unique_and_terms_link_to_rules(site: Path) -> None:
    from bouillotte.rules.profile import rule_paths

    glossary = Library().glossary
    names = [n.lower() for t in glossary for n in (t.term.split(" (")[0], *t.also)]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert {p for t in glossary for p in t.rules} <= set(rule_paths())
    html = (site / "glossary.html").read_text(encoding="utf-8")
    assert '<dt id="favori"><span lang="fr">brelan favori</span>' in html
    assert 'href="matrix.html#rule-hands-favori"' in html


def test_home_lists_systems_by_date_and_starts_with_a_documented_example(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    start = html[html.index('id="start"') :]
    first = re.search(r'<li><a href="scenarios/([\w-]+)\.html"', start)
    assert first is not None and first.group(1) == "foster-sight"
    order = re.findall(r'<h3><a href="variants/([\w-]+)\.html"', html)
    library = Library()

    def year(vid: str) -> int:
        variant = library.get(vid)
        found = re.search(r"\d{4}", variant.bibliography[variant.source].year)
        return int(found.group()) if found else 9999  # an undated source comes last

    # The systems of Bouillotte by date, then those of the older game, Brelan, by date.
    keys = {vid: (library.get(vid).game != "bouillotte", year(vid)) for vid in order}
    assert [keys[v] for v in order] == sorted(keys[v] for v in order)
    assert {library.get(v).game for v in order} == {"bouillotte", "brelan"}


def _user_folder(tmp_path: Path) -> Path:
    """One profile of the user's own (every rule stated, citing the user's own book), two
    scenarios, a site configuration and a theme."""
    import yaml

    root = tmp_path / "user"
    (root / "mine" / "deals").mkdir(parents=True)
    rules = foster_rules_as_ones_own()
    profile = {"title": "Our house rules", "short": "House 1990", "source": "mybook"}
    (root / "mine" / "house.yaml").write_text(
        yaml.safe_dump({**profile, "rules": rules}, sort_keys=False), encoding="utf-8"
    )
    (root / "mine" / "sources.yaml").write_text(
        "works:\n  mybook:\n    author: A. Player\n    title: Our own book\n"
        '    year: "1990"\n    language: en\n',
        encoding="utf-8",
    )
    deal = (
        "source: {work: mybook, locator: p. 2, status: constructed}\n"
        "players: [A, B, C, D]\ndealer: D\nretourne: 8C\n"
        "hands: {A: [QS, QH, QD], B: [AS, KH, 9D], C: [KS, AH, 9C], D: [AD, KD, 9S]}\n"
    )
    (root / "mine" / "deals" / "one.yaml").write_text(
        "id: house-brelan\ntitle: A brelan wins at our table\n"
        + deal
        + "actions: [A bet 10, B fold, C fold, D fold]\n",
        encoding="utf-8",
    )
    (root / "mine" / "deals" / "two.yaml").write_text(
        "id: house-void\ntitle: Nobody opens at our table\n"
        + deal
        + "actions: [A pass, B pass, C pass, D pass]\n",
        encoding="utf-8",
    )
    (root / "theme" / "templates").mkdir(parents=True)
    (root / "theme" / "assets").mkdir()
    (root / "theme" / "templates" / "search.html").write_text(
        '{% extends "base.html" %}{% block main %}<h1>Search our rules</h1>{% endblock %}',
        encoding="utf-8",
    )
    (root / "theme" / "assets" / "style.css").write_text(
        "/* our own stylesheet */\n", encoding="utf-8"
    )
    (root / "site.yaml").write_text(
        "title: Our table's Bouillotte\nintro: |\n  The rules **we** play by.\n"
        "language: en-GB\nfooter: Published by the club.\n"
        "base_url: https://example.org/bouillotte\ntheme: theme\n",
        encoding="utf-8",
    )
    return root


def test_a_site_of_ones_own_holds_nothing_bundled(tmp_path: Path, runner: CliRunner) -> None:
    root = _user_folder(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "site", "build", "--no-bundled",
            "--variants", str(root / "mine"),
            "--scenarios", str(root / "mine" / "deals"),
            "--config", str(root / "site.yaml"),
            "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(f.relative_to(out).as_posix() for f in out.rglob("*") if f.is_file())
    assert "variants/house.html" in files and "scenarios/house-void.html" in files
    assert not (out / "glossary.html").exists() and not (out / "texts").exists()
    library = Library()
    bundled_names = [
        *(f"variants/{v}.html" for v in library.ids()),
        *(v.title for v in library.all()),
        # (Britannica's article is titled plainly "Bouillotte", a word any site uses.)
        *(w.title for w in library.works.values() if w.title != "Bouillotte"),
        *(s.model.title for s in ScenarioLibrary().all()),
    ]
    for name in files:
        text = (out / name).read_text(encoding="utf-8", errors="replace")
        for bundled_name in bundled_names:
            assert html_lib.escape(bundled_name) not in text and bundled_name not in text, (
                name,
                bundled_name,
            )
    home = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en-GB">' in home and "<strong>we</strong>" in home
    assert '<link rel="canonical" href="https://example.org/bouillotte/index.html">' in home
    assert "Published by the club." in home and "Our table&#39;s Bouillotte" in home
    assert "Search our rules" in (out / "search.html").read_text(encoding="utf-8")
    assert (out / "assets" / "style.css").read_text(encoding="utf-8").startswith("/* our own")
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/bouillotte/variants/house.html</loc>" in sitemap


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("language: English", "site.yaml:1: language: 'English' is not a language tag"),
        (
            "base_url: example.org",
            "site.yaml:1: base_url: the url must be a web address starting with http://",
        ),
        ("colour: red", "site.yaml:1: colour"),
        ("theme: nowhere", "site.yaml:1: theme: no such theme folder"),
    ],
)
def test_a_bad_site_configuration_is_one_line(
    tmp_path: Path, runner: CliRunner, line: str, message: str
) -> None:
    (tmp_path / "site.yaml").write_text(line + "\n", encoding="utf-8")
    result = runner.invoke(
        app,
        ["site", "build", "--config", str(tmp_path / "site.yaml"), "--out", str(tmp_path / "o")],
    )
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
