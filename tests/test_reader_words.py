"""Words for readers: every rule and value has its words in the schema, and no page of a
built site shows a reader a rule path, an enum slug, or a bare id of a work or a system
outside the editors' detail (``class="for-editors"``)."""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path

import pytest

from bouillotte.rules.profile import GROUPS, rule_paths, rule_title, value_label
from bouillotte.rules.profile_base import VALUE_LABELS
from bouillotte.rules.profiles import Library
from bouillotte.site.names import Names
from bouillotte.site.rules import group_doc, in_words, rule_doc, value_words

from .reader_words import code_words, forbidden, reader_text, said_twice


def _literal_values(annotation: object) -> set[str]:
    """The words of code a rule's value may be: its ``Literal`` strings, or those of a
    union's members (not the card ranks inside a pack's list)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return {a for a in typing.get_args(annotation) if isinstance(a, str)}
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_literal_values(a) for a in typing.get_args(annotation)))
    return set()


def _fields() -> list[tuple[str, typing.Any]]:
    fields = []
    for group, model in GROUPS.items():
        for name, info in model.model_fields.items():
            fields.append((f"{group}.{name}", info))
            nested = info.annotation
            if isinstance(nested, type) and hasattr(nested, "model_fields"):
                fields.extend((f"{group}.{name}.{n}", i) for n, i in nested.model_fields.items())
    return fields


def test_every_rule_has_a_title_and_no_two_rules_share_one() -> None:
    titles = [rule_title(path) for path in rule_paths()]
    assert all(t and t != p for t, p in zip(titles, rule_paths(), strict=True))
    assert len(set(titles)) == len(titles)
    for _, info in _fields():
        assert info.title, info


@pytest.mark.parametrize(("path", "info"), _fields(), ids=[p for p, _ in _fields()])
def test_every_value_of_a_rule_has_its_words_and_no_other(path: str, info: typing.Any) -> None:
    values = _literal_values(info.annotation)
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    labels = extra.get(VALUE_LABELS, {})
    assert set(labels) == values, f"{path}: words for {sorted(labels)}, values {sorted(values)}"
    for value in values:
        words = value_label(path, value)
        assert words and words != value and "-" not in words.replace("—", "")


def test_the_site_shows_a_value_in_its_words_and_the_data_keeps_the_slug() -> None:
    assert (
        value_label("table.cut_by", "player-on-dealers-left") == "the player on the dealer's left"
    )
    assert value_words("a-bought-fourth", "hands.carre_made_with") == (
        "three in hand and a bought fourth"
    )
    assert value_words("a-bought-fourth") == "a-bought-fourth"  # a download's raw value
    bonus = {"amount": 2, "amount_if_wins_pool": 2, "paid_by": "players-without-a-brelan"}
    assert value_words(bonus, "bonuses.carre") == (
        "2 from each, paid by the players without a brelan"
    )


def test_a_rule_description_names_values_and_rules_in_words() -> None:
    text = in_words("betting.raises", "``by-any-amount``: any total from ``minimum_raise`` up")
    assert text == "*by any amount*: any total from “The least raise” up"


def test_names_write_ids_and_paths_in_words_but_leave_addresses() -> None:
    names = Names.of(Library().all(), Library().works)
    text = "inherited from foster — cardrulesplus is silent (pagat.com; variants/foster.html)"
    assert names.words(text) == (
        "inherited from Foster 1897 — CardRulesPlus 2020s is silent "
        "(pagat.com; variants/foster.html)"
    )
    assert (
        names.words("refused (rule forced_bets.dealer_blind)") == "refused (rule “Dealer's blind”)"
    )
    assert names.work("academie-1740") == "Académie 1740"
    assert names.prose("under `pagat-no-brelans` (`point.suit_tie: eldest-first`)") == (
        "under Teaching card, no brelans (“Suits of equal points”: *the eldest first, the dealer "
        "last*)"
    )


def test_the_scan_finds_code_outside_the_editors_detail_only() -> None:
    patterns = forbidden()
    page = (
        '<p>Who cuts <code class="path for-editors">table.cut_by</code></p>'
        '<a href="variants/foster.html" id="foster">Foster 1897</a>'
        '<details class="for-editors"><pre>under britannica-1911: settled</pre></details>'
    )
    assert not [m for _, p in patterns for m in p.finditer(reader_text(page))]
    shown = "<p>player-on-dealers-left, by foster</p><span title='table.players'>4</span>"
    found = [m.group() for _, p in patterns for m in p.finditer(reader_text(shown))]
    assert "player-on-dealers-left" in found and "foster" in found and "table.players" in found


@pytest.mark.slow  # reads every page of the whole site (conftest's ``site``, built once)
def test_no_page_shows_a_reader_code_outside_the_editors_detail(site: Path) -> None:
    patterns = forbidden()
    faults = {
        str(page.relative_to(site)): found[:5]
        for page in sorted(site.rglob("*.html"))
        if (found := code_words(page, patterns))
    }
    assert not faults, faults
    # The code stays there for editors.
    matrix = (site / "matrix.html").read_text(encoding="utf-8")
    assert '<code class="path for-editors">table.cut_by</code>' in matrix
    assert "the player on the dealer&#39;s left" in matrix or "the player on the dealer's left" in (
        matrix
    )


@pytest.mark.slow
def test_the_search_index_speaks_as_the_pages_do(site: Path) -> None:
    script = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    entries = json.loads(script[script.index("[") : script.rindex("]") + 1])
    patterns = forbidden()
    faults = [
        (e["t"], m.group())
        for e in entries
        for key in ("t", "x")
        for _, pattern in patterns
        for m in pattern.finditer(e.get(key, ""))
    ]
    assert not faults, faults[:10]


@pytest.mark.slow
def test_breadcrumbs_and_quotes_from_a_translation_say_what_they_are(site: Path) -> None:
    foster = reader_text((site / "variants" / "foster.html").read_text(encoding="utf-8"))
    assert "› Foster's Complete Hoyle (four players)" in foster  # the breadcrumb
    mistigri = (site / "variants" / "pagat-mistigri.html").read_text(encoding="utf-8")
    assert "From a translation:" in mistigri and "French machine translation" in mistigri
    pagat = (site / "variants" / "pagat.html").read_text(encoding="utf-8")
    assert "Teaching card" in pagat and "Pagat card" not in pagat


def test_no_rule_meaning_names_a_field_of_code() -> None:
    """What each rule and group means, as the site and ``variants show`` give it, names no
    rule path, field (a profile's or a scenario's, such as ``favori_rank``), slug or id."""
    patterns = forbidden()
    texts = {p: reader_text(str(rule_doc(p))) for p in rule_paths()}
    texts.update({g: reader_text(str(group_doc(g))) for g in GROUPS})
    found = {
        where: [m.group() for _, pattern in patterns for m in pattern.finditer(text)]
        for where, text in texts.items()
    }
    assert not {w: f for w, f in found.items() if f}
    assert "a scenario declares it for its deal" in texts["hands.favori_meaning"]


def _flat(html: str) -> str:
    """A fragment's words as one line (its tags dropped, not made line breaks)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_value_glossed_by_its_own_words_is_said_once() -> None:
    meaning = _flat(str(rule_doc("hands.favori")))
    assert "not recognised;" in meaning and not said_twice(meaning), said_twice(meaning)
    assert said_twice("ranks: not recognised, not recognised; below") == [
        "not recognised, not recognised"
    ]
    assert said_twice("no: Teaching card, Teaching card, all ante") == [
        "Teaching card, Teaching card"
    ]
    assert not said_twice("that that; a a; 10 10") and not said_twice("Foster 1897, Foster")
    assert not said_twice("no: Teaching card; Teaching card, all ante; Foster 1897")
    every = {p: said_twice(_flat(str(rule_doc(p)))) for p in rule_paths()}
    assert not {p: f for p, f in every.items() if f}


def test_an_id_in_a_text_of_works_reads_as_the_work() -> None:
    """``pagat`` is two things: as a work, John McLeod's page on pagat.com; as a system, an
    anonymous teaching card based on it. A work's notes and a rule's sentence name works,
    and must not turn McLeod's page into the card (issue 49: "cited separately as Teaching
    card")."""
    library = Library()
    names = Names.of(library.all(), library.works)
    shared = set(names.systems) & set(names.works)
    assert "pagat" in shared
    for work_id in shared:
        assert names.works_first.system(work_id) == names.works[work_id]
        assert names.works_first.words(f"{work_id}, Betting") == f"{names.works[work_id]}, Betting"
    note = library.works["pagat-card"].notes
    assert "cited separately as pagat.com 2019" in names.works_first.prose(note)
    assert "(cited separately as Teaching card)" in names.prose(note)  # the system's reading
    mistigri = library.get("pagat-mistigri").cite("hands.mistigri")
    assert names.works_first.words(mistigri).startswith("pagat.com 2019, Variations (2019 page")


def test_a_date_reads_as_a_date() -> None:
    for work in Library().works.values():
        assert "dated undated" not in f"source {work.dated}", work.year
    assert Library().works["pagat-card"].dated == "undated (modern)"
    assert Library().works["foster"].dated == "dated 1897-1909"


@pytest.mark.slow
def test_works_are_named_as_works_on_every_page(site: Path) -> None:
    """Wherever a rule's citation quotes a work whose id is also a system's with another
    name, the page names the work, never the system (``Teaching card, Variations`` was
    McLeod's page given to the card)."""
    library = Library()
    names = Names.of(library.all(), library.works)
    wrong: set[str] = set()
    for variant in library.all():
        for path in rule_paths():
            citation = variant.citation(path)
            source = citation.source if citation is not None else None
            if citation is None or source is None or source not in names.systems:
                continue
            if names.systems[source] != names.works.get(source):
                wrong.add(f"{names.systems[source]}, {citation.locator}")
    assert wrong  # the bundled profiles do quote McLeod's page
    faults = {
        str(page.relative_to(site)): sorted(w for w in wrong if w in text)
        for page in sorted(site.rglob("*.html"))
        if any(w in (text := reader_text(page.read_text(encoding="utf-8"))) for w in wrong)
    }
    assert not faults, faults
    sources = reader_text((site / "sources.html").read_text(encoding="utf-8"))
    assert "pagat.com page (cited separately as pagat.com 2019)" in sources
    assert "dated undated" not in reader_text((site / "index.html").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_home_page_lists_the_systems_in_the_order_it_says(site: Path) -> None:
    """The home page says how its systems are ordered; the order is checked against the
    sources' dates in the bibliography (issue 49: "in the order of their sources' dates"
    listed the Brelan of 1740 last)."""
    home = (site / "index.html").read_text(encoding="utf-8")
    shown = re.findall(r'<h3><a href="variants/([\w-]+)\.html">', home)
    by_id = {v.id: v for v in Library().all()}
    assert sorted(shown) == sorted(by_id)

    def year(system: str) -> int:
        found = re.search(r"\d{4}", by_id[system].bibliography[by_id[system].source].year)
        return int(found.group()) if found else 9999

    games = [by_id[s].game for s in shown]
    said = reader_text(home)
    if len(set(games)) > 1:
        assert games == sorted(games, key=lambda g: g != "bouillotte")  # Bouillotte first
        assert (
            "The systems of Bouillotte in the order of their sources’ dates, then those of "
            "the older game, Brelan, in the order of theirs" in said
        )
        assert "In the order of their sources’ dates" not in said
    for game in set(games):
        years = [year(s) for s in shown if by_id[s].game == game]
        assert years == sorted(years), (game, years)
    # Taken as one list, the dates are not in order: the claim must not be the plain one.
    assert [year(s) for s in shown] != sorted(year(s) for s in shown)


@pytest.mark.slow
def test_no_snippet_or_page_says_a_phrase_twice(site: Path) -> None:
    script = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    entries = json.loads(script[script.index("[") : script.rindex("]") + 1])
    faults = [(e["u"], f) for e in entries for key in ("t", "x") for f in said_twice(e[key])]
    assert not faults, faults[:10]
    pages = {
        str(page.relative_to(site)): found
        for page in sorted(site.rglob("*.html"))
        if (found := said_twice(reader_text(page.read_text(encoding="utf-8"))))
    }
    assert not pages, dict(list(pages.items())[:10])
