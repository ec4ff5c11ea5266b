"""Strict parsing, round eight (issue 47, "hostile input"): every value a user types is read
exactly as written, without folding its case through Unicode, trimming it or splitting it
on any kind of space.

- **Cards.** ``parse_card`` read ``Aſ`` (U+017F LATIN SMALL LETTER LONG S) as ``AS``, since
  ``upper()`` maps ``ſ`` to ``S`` (and the Kelvin sign's ``lower()`` is ``k``), and stripped
  any Unicode space (``"AS\\u3000"``, a no-break space, a line separator, ``" AS"``):
  ``check`` of such a scenario ended with status 0. A card is now ASCII letters and digits
  (either case, as documented) or a suit symbol, and anything else is refused, the
  character shown as its escape with its Unicode name.
- **Actions.** An action was split on any whitespace and its word's case ignored: ``"A
  \\u00a0pass"``, ``"\\u3000A\\u2028pass\\u2029"``, ``" A pass"``, ``"A  pass"``, ``"A\\tpass"``
  and ``"A PASS"`` all played. An action is now words separated by single ASCII spaces,
  the word in lower case as docs/scenarios.md lists it; the same reader reads a session's
  actions and an ``expect_readings`` entry's.
- **Nulls in ``expect``.** ``status: ~``, ``carry: ~``, ``net: ~``, ``pots: ~`` meant "not
  checked": a block holding only ``status: ~`` was counted as no expect block. A null is
  now refused at its line.

Each test was shown failing before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.play.actions import Action, ActionSyntaxError, parse_action
from bouillotte.rules.cards import CardError, make, parse_card

from . import test_catalogue as catalogue

HOW_CARD = "ranks are A K Q J 10 9 8 7, suits are S H D C (or ♠ ♥ ♦ ♣), rank first, as in AS or 9H"
WRITTEN = (
    "an action is written in ASCII, its words separated by single spaces (U+0020), as in 'A bet 35'"
)

SCENARIO = """id: probe
title: "Probe"
source: {{work: foster, locator: "Bouillotte: Betting", status: constructed}}
players: [A, B, C, D]
dealer: D
hands:
  A: [{card}, KH, 9D]
  B: [KS, QH, 8D]
  C: [QS, 9H, AC]
  D: [9S, AD, KC]
retourne: 8C
actions:
  - A pass
  - {action}
  - C pass
  - D pass
variants: [foster]
expect:
  foster:
{expect}
"""
"""The docs' first scenario (nobody opens, under Foster), with one card of A's (line 7),
B's action (line 14) and the expect block (from line 20) to write."""

EXPECT = """    status: void
    pots: []
    net: {A: -5, B: -5, C: -5, D: -10}
    carry: 25"""


def _scenario(tmp: Path, card: str = "AS", action: str = "B pass", expect: str = EXPECT) -> Path:
    file = tmp / "probe.yaml"
    file.write_text(SCENARIO.format(card=card, action=action, expect=expect), encoding="utf-8")
    return file


def _check(file: Path) -> tuple[int, str]:
    code, _, err = catalogue._in_process(["check", str(file)], file.parent)
    assert "Traceback" not in err, err
    return code, err


def _card_refusal(text: str) -> str:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    return str(caught.value)


def _action_refusal(text: str) -> str:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(text)
    return str(caught.value)


# -- cards ---------------------------------------------------------------------------------


def test_the_docs_scenario_still_checks(tmp_path: Path) -> None:
    code, err = _check(_scenario(tmp_path))
    assert code == 0, err


@pytest.mark.parametrize(
    ("text", "escape", "name"),
    [
        ("A\u017f", "A\\u017f", "U+017F LATIN SMALL LETTER LONG S"),
        ("a\u017f", "a\\u017f", "U+017F LATIN SMALL LETTER LONG S"),
        ("\u212aS", "\\u212aS", "U+212A KELVIN SIGN"),
        ("\uff21S", "\\uff21S", "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A"),
        ("A\uff33", "A\\uff33", "U+FF33 FULLWIDTH LATIN CAPITAL LETTER S"),
        ("\u0131S", "\\u0131S", "U+0131 LATIN SMALL LETTER DOTLESS I"),
        ("K\u0455", "K\\u0455", "U+0455 CYRILLIC SMALL LETTER DZE"),
        ("AS\u3000", "AS\\u3000", "U+3000 IDEOGRAPHIC SPACE"),
        ("AS\u00a0", "AS\\u00a0", "U+00A0 NO-BREAK SPACE"),
        ("AS\u2028", "AS\\u2028", "U+2028 LINE SEPARATOR"),
        ("\u200bAS", "\\u200bAS", "U+200B ZERO WIDTH SPACE"),
        ("AS\t", "AS\\u0009", "U+0009 a control character"),
        (" AS", " AS", "U+0020 SPACE"),
        ("AS ", "AS ", "U+0020 SPACE"),
        ("A S", "A S", "U+0020 SPACE"),
    ],
)
def test_a_card_is_read_from_ascii_exactly_as_written(text: str, escape: str, name: str) -> None:
    assert _card_refusal(text) == (
        f"'{escape}' is not a card: it holds {name}; write it in ASCII, without spaces: {HOW_CARD}"
    )


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("as", "A", "S"), ("10h", "10", "H"), ("Td", "10", "D"), ("A♠", "A", "S"), ("9♤", "9", "S")],
)
def test_ascii_lower_case_and_suit_symbols_stay_accepted(text: str, rank: str, suit: str) -> None:
    """Lower case is documented (docs/scenarios.md: "case-insensitive"), and so are the
    suit symbols."""
    assert parse_card(text) == make(rank, suit)


@pytest.mark.parametrize(
    ("card", "shown"),
    [
        ('"A\\u017f"', "'A\\u017f' is not a card: it holds U+017F LATIN SMALL LETTER LONG S"),
        ('"AS\\u3000"', "'AS\\u3000' is not a card: it holds U+3000 IDEOGRAPHIC SPACE"),
        ('"\\u212aH"', "'\\u212aH' is not a card: it holds U+212A KELVIN SIGN"),
        ('" AS"', "' AS' is not a card: it holds U+0020 SPACE"),
    ],
)
def test_check_refuses_such_a_card_at_its_line(tmp_path: Path, card: str, shown: str) -> None:
    code, err = _check(_scenario(tmp_path, card=card))
    assert code == 2, err
    assert f"probe.yaml:7: hands.A.0: {shown}; write it in ASCII" in err


# -- actions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "escape", "name"),
    [
        ("A\u00a0pass", "A\\u00a0pass", "U+00A0 NO-BREAK SPACE"),
        ("\u3000A\u2028pass\u2029", "\\u3000A\\u2028pass\\u2029", "U+3000 IDEOGRAPHIC SPACE"),
        ("A\u2028pass", "A\\u2028pass", "U+2028 LINE SEPARATOR"),
        ("A\tpass", "A\\u0009pass", "U+0009 a control character"),
        ("A pass\u200b", "A pass\\u200b", "U+200B ZERO WIDTH SPACE"),
        ("A bet\u300035", "A bet\\u300035", "U+3000 IDEOGRAPHIC SPACE"),
    ],
)
def test_an_action_is_split_on_single_ascii_spaces_only(text: str, escape: str, name: str) -> None:
    assert _action_refusal(text) == f"'{escape}': it holds {name}; {WRITTEN}"


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        (" A pass", "A pass"),
        ("A pass ", "A pass"),
        ("A  pass", "A pass"),
        ("  A   bet  35 ", "A bet 35"),
    ],
)
def test_an_action_is_not_trimmed_but_shown_as_meant(text: str, meant: str) -> None:
    assert _action_refusal(text) == (
        f"{text!r}: an action's words are separated by one space, with none before or after "
        f"them: write {meant!r}"
    )


@pytest.mark.parametrize(
    ("text", "word"),
    [("A PASS", "pass"), ("A Pass", "pass"), ("A BET 35", "bet"), ("A Discard", "discard")],
)
def test_the_action_word_is_written_in_lower_case(text: str, word: str) -> None:
    """The words are documented in lower case only (docs/scenarios.md): a capital is no
    other spelling of them."""
    assert _action_refusal(text) == f"{text!r}: write the action's word in lower case: {word!r}"


@pytest.mark.parametrize(
    ("text", "word", "name"),
    [
        ("\u212a pass", "\\u212a", "U+212A KELVIN SIGN"),
        ("\uff21 pass", "\\uff21", "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A"),
        ("A p\u0430ss", "p\\u0430ss", "U+0430 CYRILLIC SMALL LETTER A"),
        ("A ra\u0131se 20", "ra\\u0131se", "U+0131 LATIN SMALL LETTER DOTLESS I"),
        ("A bet 3\u017f", "3\\u017f", "U+017F LATIN SMALL LETTER LONG S"),
    ],
)
def test_a_letter_of_another_alphabet_in_an_action_is_named(
    text: str, word: str, name: str
) -> None:
    escape = "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in text)
    assert _action_refusal(text) == f"'{escape}': '{word}' holds {name}; {WRITTEN}"


def test_a_discarded_card_is_read_as_a_card() -> None:
    """``9ſ`` was read as ``9S`` in a discard too."""
    assert _action_refusal("A discard 9\u017f") == (
        "'A discard 9\\u017f': '9\\u017f' is not a card: it holds U+017F LATIN SMALL LETTER "
        f"LONG S; write it in ASCII, without spaces: {HOW_CARD}"
    )
    assert parse_action("A discard 9s 8♠") == Action(
        "A", "discard", None, (parse_card("9S"), parse_card("8S"))
    )


@pytest.mark.parametrize(
    ("action", "shown"),
    [
        ('"B\\u00a0pass"', "'B\\u00a0pass': it holds U+00A0 NO-BREAK SPACE"),
        ('"\\u3000B\\u2028pass\\u2029"', "'\\u3000B\\u2028pass\\u2029': it holds U+3000"),
        ('" B pass"', "' B pass': an action's words are separated by one space"),
        ('"B  pass"', "'B  pass': an action's words are separated by one space"),
        ('"B\\tpass"', "'B\\u0009pass': it holds U+0009 a control character"),
        ("B PASS", "'B PASS': write the action's word in lower case: 'pass'"),
    ],
)
def test_check_refuses_such_an_action_at_its_line(tmp_path: Path, action: str, shown: str) -> None:
    code, err = _check(_scenario(tmp_path, action=action))
    assert code == 2, err
    assert f"probe.yaml:14: actions.1: {shown}" in err


def test_a_sessions_actions_are_read_alike(tmp_path: Path) -> None:
    file = tmp_path / "s.yaml"
    file.write_text(
        "id: s\ntitle: S\nvariant: foster\nplayers: [A, B, C, D]\ndealer: D\ndeals:\n"
        "  - hands: {A: [AS, QS, 8H], B: [AH, QH, 9D], C: [KS, KH, KD], D: [AD, 8S, 8C]}\n"
        "    retourne: 9C\n"
        '    actions: [A pass, "B\\u00a0pass", C pass, D pass]\n',
        encoding="utf-8",
    )
    code, _, err = catalogue._in_process(["session", str(file)], tmp_path)
    assert "Traceback" not in err, err
    assert code == 2, err
    assert "s.yaml:9: deals.0.actions.1: 'B\\u00a0pass': it holds U+00A0 NO-BREAK SPACE" in err


def test_a_readings_actions_are_read_alike(tmp_path: Path) -> None:
    """An ``expect_readings`` entry's own actions: its actor was found by ``split()``."""
    reading = """expect_readings:
  foster:
    void_deals.levy_and_next_blind:
      levy-instead-of-blind:
        status: void
        actions: [A pass, "B\\u00a0pass", C pass, D pass]
"""
    file = _scenario(tmp_path)
    file.write_text(file.read_text(encoding="utf-8") + reading, encoding="utf-8")
    code, err = _check(file)
    assert code == 2, err
    assert (
        "probe.yaml:29: expect_readings.foster.void_deals.levy_and_next_blind."
        "levy-instead-of-blind.actions.1: 'B\\u00a0pass': it holds U+00A0 NO-BREAK SPACE"
    ) in err


# -- nulls in expect -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expect", "field", "line"),
    [
        ("    status: ~", "status", 20),
        ("    status:", "status", 20),
        ("    status: void\n    carry: ~", "carry", 21),
        ("    status: void\n    net: ~", "net", 21),
        ("    status: void\n    pots: ~", "pots", 21),
        ("    status: void\n    pots: null", "pots", 21),
        ("    pots:\n      - {amount: ~}", "pots.0.amount", 21),
    ],
)
def test_a_null_in_expect_is_refused_at_its_line(
    tmp_path: Path, expect: str, field: str, line: int
) -> None:
    code, err = _check(_scenario(tmp_path, expect=expect))
    assert code == 2, err
    assert (
        f"probe.yaml:{line}: expect.foster.{field}: no value (null): write the expected "
        "value, or leave the key out"
    ) in err
