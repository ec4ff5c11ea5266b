"""Players' actions as the scenarios write them: ``"A bet 35"``, ``"B fold"``.

An action is read exactly as written: its words in ASCII, separated by single spaces, with
none before or after, the action's word in lower case. Any other space (a tab, a no-break or
ideographic space, a line separator), a letter of another alphabet or a capital is refused
with the text to write, never trimmed nor folded away.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias, get_args

from ..rules.cards import (
    SUIT_SIGNS,
    Card,
    CardError,
    card_str,
    escaped_quoted,
    odd_character,
    parse_card,
)
from ..rules.errors import UserError

ActionKind: TypeAlias = Literal[
    "straddle",
    "decline",
    "pass",
    "bet",
    "call",
    "raise",
    "fold",
    "all-in",
    "no-more",
    "discard",
    "buy",
]
ACTION_WORDS: Final[tuple[str, ...]] = get_args(ActionKind)
WITH_AMOUNT: Final = frozenset({"bet", "raise"})
MAX_AMOUNT_DIGITS: Final = 30
"""The most digits of an action's amount: as many as a number written in a YAML file may
have (``rules.yamlsource.MAX_INT_DIGITS``); no cave needs more, and Python reads no whole
number of more than 4,300 digits from text."""


class Action:
    """One player's action. ``amount`` is a total ("to" amount) for ``bet`` and ``raise``;
    ``cards`` are the cards thrown away by ``discard`` (in the draw, where the rules have
    one: ``"A discard 9S 8S"``; ``"A discard"`` alone keeps the hand).

    Immutable (``Final`` fields, which the compiled engine enforces), equal by value.
    A plain class rather than a named tuple or a frozen dataclass: one is made at every
    step of every simulated deal, and compiled (``hatch_build.py``) it is built natively,
    without running Python code."""

    __slots__ = ("amount", "cards", "kind", "player")

    def __init__(
        self, player: str, kind: str, amount: int | None = None, cards: tuple[Card, ...] = ()
    ) -> None:
        self.player: Final = player
        self.kind: Final = kind
        self.amount: Final = amount
        self.cards: Final = cards

    def _fields(self) -> tuple[str, str, int | None, tuple[Card, ...]]:
        return (self.player, self.kind, self.amount, self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Action(player={self.player!r}, kind={self.kind!r}, amount={self.amount!r}, "
            f"cards={self.cards!r})"
        )

    def __str__(self) -> str:
        text = f"{self.player} {self.kind}"
        if self.amount is not None:
            text += f" {self.amount}"
        return text + "".join(f" {card_str(c)}" for c in self.cards)


class LegalAction:
    """What the player to act may do now: the word and, for bets, the range of totals
    (``low`` to ``high``); ``step`` where only multiples are allowed (raises that multiply
    the bet). Immutable and equal by value, like :class:`Action`, and for the same reason
    a plain class: several are made at every step."""

    __slots__ = ("high", "kind", "low", "step")

    def __init__(
        self, kind: str, low: int | None = None, high: int | None = None, step: int | None = None
    ) -> None:
        self.kind: Final = kind
        self.low: Final = low
        self.high: Final = high
        self.step: Final = step

    def _fields(self) -> tuple[str, int | None, int | None, int | None]:
        return (self.kind, self.low, self.high, self.step)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LegalAction) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"LegalAction(kind={self.kind!r}, low={self.low!r}, high={self.high!r}, "
            f"step={self.step!r})"
        )

    def __str__(self) -> str:
        if self.low is None:
            return self.kind
        if self.kind == "discard":
            return f"discard 0-{self.high} cards" if self.high else "discard"
        if self.high is None or self.low == self.high:
            return f"{self.kind} {self.low}"
        if self.step:
            return f"{self.kind} {self.low}-{self.high} by {self.step}"
        return f"{self.kind} {self.low}-{self.high}"


class ActionSyntaxError(UserError, ValueError):
    """An action string we cannot read."""


def _short(text: str) -> str:
    """A text as a message shows it: its first 28 characters (a player, a word and an
    amount's first 20 digits) where it has more than 48."""
    return text if len(text) <= 48 else text[:28] + "..."


def _quoted(text: str) -> str:
    return repr(_short(text))


_WRITTEN: Final = (
    "an action is written in ASCII, its words separated by single spaces (U+0020), as in 'A bet 35'"
)


def _spacing(text: str) -> None:
    """Refuse an action whose words are not separated by single ASCII spaces, or that has
    a space (or any character that shows none) before or after it."""
    odd = next((c for c in text if c != " " and (c.isspace() or not c.isprintable())), None)
    if odd is not None:
        raise ActionSyntaxError(
            f"{escaped_quoted(_short(text))}: it holds {odd_character(odd)}; {_WRITTEN}"
        )
    meant = " ".join(word for word in text.split(" ") if word)
    if meant and meant != text:
        raise ActionSyntaxError(
            f"{_quoted(text)}: an action's words are separated by one space, with none before "
            f"or after them: write {_quoted(meant)}"
        )


def _ascii(text: str, word: str) -> None:
    """Refuse a player's name or an action's word that holds a letter of another alphabet
    (a Cyrillic ``а``, a Kelvin sign, a fullwidth letter): named and escaped."""
    odd = odd_character(word)
    if odd is not None:
        raise ActionSyntaxError(
            f"{escaped_quoted(_short(text))}: {escaped_quoted(_short(word))} holds {odd}; "
            f"{_WRITTEN}"
        )


def _kind(text: str, word: str) -> str:
    """The action's word, as written (lower case), else why it is none."""
    if word in ACTION_WORDS:
        return word
    if word.lower() in ACTION_WORDS:
        raise ActionSyntaxError(
            f"{_quoted(text)}: write the action's word in lower case: {word.lower()!r}"
        )
    raise ActionSyntaxError(
        f"{_quoted(word)} is not an action word; the words are {', '.join(ACTION_WORDS)}"
    )


def parse_action(text: str) -> Action:
    """Read ``"<player> <word> [amount]"``, exactly as written."""
    _spacing(text)
    words = text.split(" ") if text.strip(" ") else []
    for word in words[:2]:
        _ascii(text, word)
    if len(words) >= 2 and _kind(text, words[1]) == "discard":
        try:
            cards = tuple(parse_card(w) for w in words[2:])
        except CardError as exc:
            odd = odd_character(text, " " + SUIT_SIGNS) is not None
            shown = escaped_quoted(_short(text)) if odd else _quoted(text)
            raise ActionSyntaxError(f"{shown}: {exc}") from None
        return Action(words[0], "discard", None, cards)
    if len(words) < 2 or len(words) > 3:
        raise ActionSyntaxError(
            f"{_quoted(text)} is not an action: write '<player> <word> [amount]', as in 'A bet 35'"
        )
    player, kind = words[0], words[1]
    amount: int | None = None
    if kind in WITH_AMOUNT:
        if len(words) == 3 and words[2].isdigit() and not words[2].isascii():
            shown = "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in words[2])
            raise ActionSyntaxError(
                f"{_quoted(text)}: the amount '{_short(shown)}' is written in other digits "
                f"than 0-9; write it in the digits 0-9 (as in '{_short(player)} {kind} 35')"
            )
        if len(words) == 3:
            _ascii(text, words[2])
        if len(words) != 3 or not (words[2].isascii() and words[2].isdigit()):
            raise ActionSyntaxError(
                f"{_quoted(text)}: '{kind}' needs a whole number, the player's total stake "
                f"after it (as in '{_short(player)} {kind} 35')"
            )
        if len(words[2]) > MAX_AMOUNT_DIGITS:
            raise ActionSyntaxError(  # the amount shortened as the YAML reader shows a number
                f"'{_short(player)} {kind} {words[2][:20]}...': the amount has "
                f"{len(words[2]):,} digits; an amount has at most {MAX_AMOUNT_DIGITS}"
            )
        if len(words[2]) > 1 and words[2].startswith("0"):
            raise ActionSyntaxError(  # as sweep --vary refuses '05': one way to write a number
                f"{_quoted(text)}: the amount '{_short(words[2])}' begins with a 0; write it "
                f"without (as in '{_short(player)} {kind} {int(words[2])}')"
            )
        amount = int(words[2])
    elif len(words) == 3:
        raise ActionSyntaxError(f"{_quoted(text)}: '{kind}' takes no amount")
    return Action(player, kind, amount)
