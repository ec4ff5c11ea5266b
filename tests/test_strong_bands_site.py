"""The strong-play bands on the pair page of foster and pagat and on the every-rule page:
what is rendered is the stored file's figures (the build never solves), a rule that does
not act in the abstracted game says so in words, and a missing file says so with the
command that makes it."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bouillotte.rules.profiles import Library
from bouillotte.strong import bands as strong_bands
from bouillotte.strong.bands import read_bands

LIBRARY = Library()
CELL = r"<t[hd][^>]*>(.*?)</t[hd]>"


def _stored() -> dict[str, Any]:
    found = read_bands(LIBRARY.get("foster"), LIBRARY.get("pagat"))
    assert found.data is not None, f"{found.problem}: {found.fix}"
    return found.data


def _signed(value: float) -> str:
    """Three places, more where three would print a non-zero effect as 0.000; 0 to six
    places is said in words (issue 46: no zero printed as a figure)."""
    for places in range(3, 7):
        text = f"{value:+.{places}f}"
        if text.strip("+-0.") != "":
            return text
    return "no change"


def _band_text(low: float, high: float) -> str:
    ends = [_signed(low), _signed(high)]
    if ends == ["no change", "no change"]:
        return "no change"
    return "[" + ", ".join(e.replace("no change", "0") for e in ends) + "]"


def _tables(page: str) -> list[tuple[str, list[list[str]]]]:
    """Each strong-play band table: its caption and its rows (header cell, then data)."""
    found = []
    tables = r'<table class="effect-table strong-band-table">(.*?)</table>'
    for body in re.findall(tables, page, re.S):
        head = re.search(r"<caption>(.*?)</caption>", body, re.S)
        assert head is not None
        caption = html.unescape(head.group(1))
        tbody = body.split("<tbody>")[1]
        rows = [
            [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(CELL, row)]
            for row in re.findall(r"<tr>(.*?)</tr>", tbody, re.S)
        ]
        found.append((caption, rows))
    return found


def _expected_rows(entry: dict[str, Any]) -> list[str]:
    """The band and every solution's effect of each measure, as stored."""
    return [
        " ".join([_band_text(lo, hi)] + [_signed(s["effect"][key]) for s in entry["solutions"]])
        for key, (lo, hi) in sorted(entry["band"].items(), key=lambda kv: kv[0])
    ]


@pytest.mark.slow  # reads the whole site (conftest's ``site``, built once for the slow run)
def test_the_pair_page_shows_the_stored_bands(site: Path) -> None:
    data = _stored()
    page = (site / "compare" / "foster--pagat.html").read_text(encoding="utf-8")
    tables = _tables(page)
    acting = [e for e in data["rules"] if e["acts"]]
    assert len(tables) == len(acting)
    label = data["label"]
    assert all(label in caption for caption, _ in tables)
    shown = sorted(
        sorted(" ".join(row[1:]) for row in rows if not row[0].startswith("NashConv"))
        for _, rows in tables
    )
    assert shown == sorted(sorted(_expected_rows(e)) for e in acting)
    # every band's NashConv, as stored, beside it
    for entry in acting:
        lo, hi = entry["nash_conv"]
        assert f"NashConv of the solutions: {lo:.4f} to {hi:.4f} counters per deal." in page
    # a rule that does not act is said in words, never a band of zeros
    quiet = [e for e in data["rules"] if not e["acts"]]
    assert quiet, "some rules of foster and pagat act between deals only"
    assert page.count("does not act in the abstracted game") >= len(quiet)
    assert "that is not an effect of zero" in page
    # and one sentence per acting rule says whether the invented players' effect survives
    assert page.count("Under strong play (three players, the abstracted game):") == len(acting)


@pytest.mark.slow  # reads the whole site (conftest's ``site``)
def test_the_every_rule_page_shows_a_stored_band_for_foster_s_rules(site: Path) -> None:
    data = _stored()
    page = (site / "every-rule.html").read_text(encoding="utf-8")
    entry = next(
        e
        for e in data["rules"]
        if e["acts"] and [p["rule"] for p in e["parts"]] == ["betting.all_in_may_open_or_raise"]
    )
    section = page.split('id="rule-betting-all-in-may-open-or-raise"')[1].split("</section>")[0]
    tables = _tables(section)
    assert len(tables) == 1
    rows = tables[0][1]
    assert sorted(" ".join(r[1:]) for r in rows if not r[0].startswith("NashConv")) == sorted(
        _expected_rows(entry)
    )
    assert data["label"] in tables[0][0]


def test_a_missing_band_is_said_in_words_with_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bouillotte.site.builder import _environment
    from bouillotte.site.strong_bands import pair_bands

    stored = _stored()
    monkeypatch.setattr(strong_bands, "BANDS_STORE", tmp_path)
    foster, pagat = LIBRARY.get("foster"), LIBRARY.get("pagat")
    missing = pair_bands(foster, pagat, None)
    assert missing is not None and not missing.available
    assert missing.problem == "no strong-play bands are stored for foster and pagat"
    assert missing.fix == "bouillotte strong bands -v foster -v pagat --write"
    env = _environment(Path(__file__).parent.parent / "site")
    text = env.from_string(
        '{% from "strongband.html" import no_band %}{{ no_band(problem, fix) }}'
    ).render(problem=missing.problem, fix=missing.fix)
    assert "no band is shown for this rule: no strong-play bands are stored for" in text
    assert "bouillotte strong bands -v foster -v pagat --write</code> makes it" in text
    # a stale file (another key) is not used: the page says so
    (tmp_path / "foster__pagat__0000000000000000.json").write_text(
        json.dumps(stored | {"key": "0" * 64}), encoding="utf-8"
    )
    stale = pair_bands(foster, pagat, None)
    assert stale is not None and not stale.available and "stale" in stale.problem
    # a pair whose bands are not computed shows none
    assert pair_bands(foster, LIBRARY.get("cardrulesplus"), None) is None
