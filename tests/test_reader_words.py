"""Words for readers: every rule and value has its words in the schema, and no page of a
built site shows a reader a rule path, an enum slug, or a bare id of a work or a system
outside the editors' detail (``class="for-editors"``)."""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path

import pytest

from bouillotte.rules.profile import GROUPS, VALUE_LABELS, rule_paths, rule_title, value_label
from bouillotte.rules.profiles import Library
from bouillotte.site.names import Names
from bouillotte.site.rules import in_words, value_words

from .reader_words import code_words, forbidden, reader_text


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
