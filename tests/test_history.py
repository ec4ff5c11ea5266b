"""The older systems (eighteenth-century Brelan, Pierer's Brelan with a draw), the History
page's data, and the bibliography files, each parsed by a real parser."""

from __future__ import annotations

import json

import pytest
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as csl_formatter
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.play.actions import Action, parse_action
from bouillotte.play.deal import Deal, IllegalAction, new_deal
from bouillotte.play.dealing import deal_from_pack
from bouillotte.play.hands import Kind, classify
from bouillotte.play.point import Seating, decide_by_point
from bouillotte.play.showdown import rank_values
from bouillotte.rules.bibliography import bibtex, citation_text, csl_json, years
from bouillotte.rules.cards import parse_card, parse_cards
from bouillotte.rules.history import build_history
from bouillotte.rules.profiles import Library

LIBRARY = Library()
PLAYERS = ["A", "B", "C", "D"]


def _hands(**cards: str) -> dict[str, list[int]]:
    return {name: parse_cards(text.split()) for name, text in cards.items()}


# -- the draw -----------------------------------------------------------------------------


def _pierer_deal_to_the_draw() -> Deal:
    variant = LIBRARY.get("brelan-pierer")
    deal = new_deal(
        variant,
        PLAYERS,
        "D",
        hands=_hands(A="10S 10H 10D", B="AS KS QS", C="9H 9D 8C", D="KH QH 7C"),
        retourne=parse_card("10C"),
        stock=parse_cards(["JS"]),
    )
    for text in ("A bet 4", "B call", "C fold", "D call", "A no-more", "B no-more"):
        deal.apply(parse_action(text))
    return deal


def test_the_draw_offers_discard_and_a_fourth_to_three_equal_cards() -> None:
    deal = _pierer_deal_to_the_draw()
    assert deal.phase == "draw" and deal.to_act == "A"
    # The stock holds two cards (the turned card and JS): no more may be thrown to buy.
    assert [str(a) for a in deal.legal_actions()] == ["discard 0-2 cards", "buy"]
    deal.apply(parse_action("A buy"))
    assert deal.hands[0] == parse_cards(["10S", "10H", "10D", "10C"])  # the turned card first
    assert deal.to_act == "B"
    assert [str(a) for a in deal.legal_actions()] == ["discard 0-1 cards"]


def test_the_draw_refuses_what_the_player_cannot_do() -> None:
    deal = _pierer_deal_to_the_draw()
    deal.apply(parse_action("A discard"))
    with pytest.raises(IllegalAction) as not_held:
        deal.apply(parse_action("B discard 9H"))
    assert not_held.value.rule == "table.draw" and "does not hold 9H" in not_held.value.message
    with pytest.raises(IllegalAction) as no_three:
        deal.apply(parse_action("B buy"))
    assert "three equal cards" in no_three.value.message
    with pytest.raises(IllegalAction) as too_many:  # the turned card and JS: two to buy
        deal.apply(parse_action("B discard AS KS QS"))
    assert "only 2 are left to buy" in too_many.value.message
    with pytest.raises(IllegalAction) as betting_word:
        deal.apply(Action("B", "call"))
    assert "this is the draw" in betting_word.value.message
    assert deal.to_act == "B"  # nothing changed


def test_discard_is_read_with_its_cards() -> None:
    action = parse_action("A discard 9S 8s")
    assert action.kind == "discard" and action.cards == tuple(parse_cards(["9S", "8S"]))
    assert str(action) == "A discard 9S 8S"
    assert parse_action("A discard").cards == ()


def test_a_stock_card_already_dealt_is_bad_input() -> None:
    from bouillotte.play.dealing import SetupError

    with pytest.raises(SetupError, match="dealt already"):
        new_deal(
            LIBRARY.get("brelan-pierer"),
            PLAYERS,
            "D",
            hands=_hands(A="10S 10H 10D", B="AS KS QS", C="9H 9D 8C", D="KH QH 7C"),
            retourne=parse_card("10C"),
            stock=parse_cards(["AS"]),
        )


def test_pierer_deals_one_card_round_then_two() -> None:
    # Worked by hand: dealer D, to the right A B C D. One each (AS to A, KS to B, QS to C,
    # JS to D), then two each (10S 9S to A, 8S 7S to B, AH KH to C, QH JH to D); then the
    # turned card 10H.
    deck = parse_cards(
        ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH", "QH", "JH", "10H", "9H"]
    )
    hands, retourne, _ = deal_from_pack(LIBRARY.get("brelan-pierer"), PLAYERS, "D", deck)
    assert hands["A"] == parse_cards(["AS", "10S", "9S"])
    assert hands["B"] == parse_cards(["KS", "8S", "7S"])
    assert hands["D"] == parse_cards(["JS", "QH", "JH"])
    assert retourne == parse_card("10H")


# -- what the words mean ------------------------------------------------------------------


def test_the_favori_changes_meaning_with_the_profile() -> None:
    kings, turned = parse_cards(["KS", "KH", "KD"]), parse_card("8H")
    old = LIBRARY.get("brelan-18th-century").rules.hands
    assert classify(kings, turned, old, declared=1).kind is Kind.FAVORI  # kings declared
    assert classify(kings, turned, old, declared=0).kind is Kind.BRELAN  # aces declared
    assert classify(kings, turned, old).kind is Kind.BRELAN  # nothing declared
    pair = parse_cards(["KS", "KH", "9D"])
    assert classify(pair, parse_card("KD"), old).kind is Kind.POINT  # no favori by the retourne
    pierer = LIBRARY.get("brelan-pierer").rules.hands
    assert classify(kings, turned, pierer).kind is Kind.FAVORI  # held from the deal
    bought = parse_cards(["KS", "KH", "KD"])
    dealt = parse_cards(["KS", "KH", "8C"])
    assert classify(bought, turned, pierer, dealt=dealt).kind is Kind.BRELAN
    four = parse_cards(["10S", "10H", "10D", "10C"])
    assert classify(four, turned, pierer).kind is Kind.CARRE  # the fourth bought
    foster = LIBRARY.get("foster").rules.hands
    assert classify(pair, parse_card("KD"), foster).kind is Kind.FAVORI


def test_littres_mignon_is_named_and_counts_as_a_brelan_of_aces() -> None:
    hand, turned = parse_cards(["AC", "AH", "KD"]), parse_card("AD")
    pagat = LIBRARY.get("pagat").with_values({"hands.mignon": True}).rules.hands
    value = classify(hand, turned, pagat)
    assert (value.kind, value.rank, value.name) == (Kind.BRELAN, 0, "brelan mignon")
    foster = LIBRARY.get("foster").with_values({"hands.mignon": True}).rules.hands
    assert classify(hand, turned, foster).describe() == "brelan mignon (brelan favori of aces)"
    # The ace turned must be of the king's suit.
    assert classify(hand, parse_card("AS"), pagat).name is None


def test_the_capture_takes_lower_cards_but_not_a_brelans() -> None:
    rules = LIBRARY.get("brelan-18th-century").rules
    hands = [
        parse_cards(["AS", "8H", "9D"]),
        parse_cards(["KS", "KH", "KD"]),  # a brelan: its king of spades is not taken
        parse_cards(["QS", "JS", "9H"]),
        parse_cards(["10C", "9C", "8C"]),
    ]
    seating = Seating(PLAYERS, [0, 1, 2, 3], 3)
    result = decide_by_point(
        [0, 2, 3], hands, parse_card("8D"), rank_values(rules), rules.point, seating
    )
    # A: AS takes C's QS and JS (the folded B's cards are not in play): 11 + 20 = 31.
    assert result.winner == 0 and "31" in result.reason
    result = decide_by_point(
        [0, 1, 2], hands, parse_card("8D"), rank_values(rules), rules.point, seating
    )
    # With B in: A's spades 11 + QS + JS = 31 (B's KS is part of his brelan); B's hearts KH
    # takes A's 8H and C's 9H: 10 + 8 + 9 = 27.
    assert result.winner == 0 and "31" in result.reason


def test_odds_say_so_where_a_draw_makes_them_uncountable() -> None:
    result = CliRunner().invoke(app, ["odds", "--variant", "brelan-pierer", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "draw" in data["brelan-pierer"]["not_computed"]


# -- the history ----------------------------------------------------------------------------


def test_sources_are_dated_oldest_first_and_rules_list_their_sources_oldest_first() -> None:
    history = build_history(LIBRARY)
    ids = [s.id for s in history.sources]
    assert ids[:8] == [
        "academie-1740",
        "encyclopedie-1752",
        "academie-1762",
        "trevoux-1771",
        "academie-1798",
        "academie-1835-1878",  # 1835 or 1878: placed at its first possible year
        "pierer-1857",
        "littre-1873",
    ]
    assert ids[-1] == "pagat-card"  # undated: last
    for statements in history.rules.values():
        starts = [s.source.sort_key for s in statements]
        assert starts == sorted(starts)
    tie = [(s.source.id, s.value) for s in history.rules["point.suit_tie"]]
    assert tie[0] == ("encyclopedie-1752", "eldest-first")
    # Foster's tie rule is our reading, not his statement: it does not date the rule.
    assert "foster" not in [w for w, _ in tie]
    meanings = history.words[0].meanings
    assert [m.value for m in meanings] == [
        "declared-rank",
        "declared-rank",
        "held-from-the-deal",
        None,
        "pair-with-the-retourne",
        "pair-with-the-retourne",
    ]


def test_the_sources_command_lists_the_same() -> None:
    result = CliRunner().invoke(app, ["sources", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    first = data["sources"][0]
    assert (first["id"], first["language"], first["place"], first["kind"]) == (
        "academie-1740",
        "fr",
        "Paris",
        "dictionary",
    )
    assert data["rules"]["hands.favori_meaning"][0]["work"] == "academie-1740"
    text = CliRunner().invoke(app, ["sources"])
    assert text.exit_code == 0 and "pierer-1857" in text.stdout and "favori" in text.stdout


def test_years_read_ranges_decades_and_undated_works() -> None:
    works = LIBRARY.works
    assert years(works["pierer-1857"]) == (1857, 1865)
    assert years(works["cardrulesplus"]) == (2020, 2020)
    assert years(works["pagat-card"]) == (None, None)


# -- the bibliography, read back by real parsers ------------------------------------------


def test_the_bibtex_file_parses_with_every_work_and_its_names() -> None:
    database = parse_string(bibtex(LIBRARY.works), "bibtex")
    assert set(database.entries) == set(LIBRARY.works)
    encyclopedie = database.entries["encyclopedie-1752"]
    editors = [str(p) for p in encyclopedie.persons["editor"]]
    assert editors == ["Diderot, Denis", "d'Alembert, Jean le Rond"]
    foster = database.entries["foster"]
    assert foster.type == "book" and foster.fields["year"] == "1897"
    assert foster.fields["date"] == "1897/1909"
    assert [p.last_names for p in foster.persons["author"]] == [["Foster"]]
    # A body's name stays whole.
    academie = database.entries["academie-1740"].persons["author"][0]
    assert str(academie) == "{Académie française}"
    assert database.entries["pierer-1857"].fields["language"] == "German"


def test_the_csl_json_file_formats_with_citeproc() -> None:
    items = json.loads(json.dumps(csl_json(LIBRARY.works)))
    source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, csl_formatter.plain)
    for work_id in sorted(LIBRARY.works):
        bibliography.register(Citation([CitationItem(work_id)]))
    rendered = [str(entry) for entry in bibliography.bibliography()]
    assert len(rendered) == len(LIBRARY.works)
    assert any("Littré" in entry and "1873" in entry for entry in rendered)
    pierer = next(i for i in items if i["id"] == "pierer-1857")
    assert pierer["issued"] == {"date-parts": [[1857], [1865]]}
    assert pierer["editor"] == [{"family": "Pierer", "given": "Heinrich August"}]


def test_the_citation_style_names_edition_place_and_date() -> None:
    text = citation_text(LIBRARY.works["littre-1873"])
    # an article of a dictionary: the entry quoted, "In" the dictionary (test_citation_style.py)
    assert text.startswith("Littré, Émile. “brelan, carre.” In Dictionnaire de la langue française")
    assert "Paris: Hachette, 1873." in text
    trevoux = citation_text(LIBRARY.works["trevoux-1771"])
    assert trevoux.startswith("“BRELAN, CAVER.” In Dictionnaire universel")  # naming nobody


def test_an_unknown_game_is_refused_at_its_line(tmp_path: object) -> None:
    from pathlib import Path

    from bouillotte.rules.errors import InputError

    folder = Path(str(tmp_path))
    (folder / "mine.yaml").write_text(
        "title: Mine\nsource: foster\nextends: foster\ngame: chess\nrules: {}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        Library([folder]).get("mine")
    message = caught.value.describe()
    assert "mine.yaml:4" in message and "game" in message and "chess" in message


def test_brelan_systems_play_only_the_scenarios_that_name_them() -> None:
    from bouillotte.study.scenario import ScenarioLibrary

    for scenario in ScenarioLibrary().all():
        ids = scenario.variant_ids(LIBRARY)
        named = scenario.model.variants or []
        for vid in ids:
            if LIBRARY.get(vid).game == "brelan":
                assert vid in named, (scenario.id, vid)
