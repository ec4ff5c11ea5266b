"""The ``strong`` policy: the stored average strategy of a solved abstracted game
(``bouillotte strong solve --write``; ``docs/strong-play.md``), played in the full game.

A view of the full game is mapped onto the abstraction: the player's seat counted from the
dealer's right (the abstract game's A, B, ...), his hand's class (a brelan or a band of
his point), and the public words so far, replayed in the abstract game, each bet or raise
taken as the abstract total nearest to its share of the cave. The abstract action drawn
from the stored strategy is played back in the full game at the same size (the least
bet, half the pool, the pool, or the most). Where the deal leaves the abstract game (a
pool carried in, a cap exceeded, a word it has no counterpart for), or no strategy is
stored for the profile's rules, ``advised`` plays the step instead; :attr:`off_tree`
counts those steps.
"""

from __future__ import annotations

from typing import Any, Final

from ..play.actions import Action
from ..play.events import Act, Decline, Straddle
from ..play.phases import Phase
from ..play.stream import Stream
from ..rules.profile import Rules
from .player_view import Policy, View

STRONG_SENTENCE: Final = (
    "The stored equilibrium strategy (CFR+) of the profile's abstracted game (bouillotte "
    "strong solve), played in the full game; advised plays where the deal leaves the "
    "abstraction or no strategy is stored."
)

_WORDS_OF_ACT = {"pass", "fold", "call", "no-more", "all-in"}


class _Solved:
    """One stored strategy, ready to play: its abstract game and its table."""

    def __init__(self, data: dict[str, Any]) -> None:
        from ..strong.abstraction import Abstraction
        from ..strong.core import table_for

        ab = data["abstraction"]
        self.abstraction = Abstraction.from_record(ab)
        self.table = table_for(data["variant"], self.abstraction)
        self.strategy: dict[str, list[list[float]]] = data["strategy"]


def _solutions() -> dict[str, list[dict[str, Any]]]:
    """Every stored strategy, by its profile's rules."""
    from ..strong.store import stored

    found: dict[str, list[dict[str, Any]]] = {}
    for data in stored():
        found.setdefault(data["rules"], []).append(data)
    return found


def stored_for(
    rules: Rules, solved: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, Any] | None:
    """The stored strategy the ``strong`` player plays under ``rules``: the one solved with
    caves nearest the profile's (then the first by file name); ``None`` where none is
    stored. ``solved``: the stored strategies by rules, read once by the caller."""
    from ..rules.diskcache import content_digest
    from ..strong.store import played

    found = _solutions() if solved is None else solved
    digest = content_digest(rules.model_dump_json())
    return played(found.get(digest, []), digest, rules.stakes.cave)


def played_by(rules: Rules, policy: str) -> str:
    """Who plays the steps of a run of ``policy`` under ``rules``: the policy itself, but
    ``advised`` for ``strong`` where no strategy is stored for the rules (every step of
    the strong player is then advised's). ``simulate`` reports it as ``played_by``."""
    if policy == "strong" and stored_for(rules) is None:
        return "advised"
    return policy


def unsolved_note(variant_id: str, rules: Rules, policy: str) -> str | None:
    """A note for a run of ``policy`` under a system with no stored strategy: its
    ``strong`` player is ``advised`` at every step, which the figures' label alone (policy
    strong) would not say. ``None`` where a strategy is stored, or the policy is another."""
    if played_by(rules, policy) == policy:
        return None
    return (
        f"note: no strong strategy is stored for {variant_id}'s rules: every step of the "
        f"strong player is played by advised (bouillotte strong solve -v {variant_id} "
        "--write stores one; docs/strong-play.md)"
    )


class StrongPolicy:
    """Plays the stored equilibrium strategy of the profile's abstracted game."""

    name = "strong"

    def __init__(self, fallback: Policy) -> None:
        self.fallback = fallback
        """Who plays a step the stored strategy does not reach (``advised``)."""
        self._by_rules: dict[int, _Solved | None] = {}
        self._solved: dict[str, list[dict[str, Any]]] | None = None
        self._kept: list[Rules] = []
        self._keeps: Rules | None = None
        self.on_tree = 0
        self.off_tree = 0

    def keep_strategy_of(self, rules: Rules) -> None:
        """Play the strategy stored for ``rules`` under any rules from now on: a sweep's
        rows change a rule and keep the player, as an invented player keeps its
        tendencies (a changed rule's game has no strategy of its own; its steps the
        stored one does not reach are advised's, as ever)."""
        self._keeps = rules

    def _solution(self, rules: Rules) -> _Solved | None:
        if self._keeps is not None:
            rules = self._keeps
        known = self._by_rules.get(id(rules), False)
        if known is not False:
            return known  # type: ignore[return-value]
        if self._solved is None:
            self._solved = _solutions()
        best = stored_for(rules, self._solved)
        found = None if best is None else _Solved(best)
        self._by_rules[id(rules)] = found
        self._kept.append(rules)  # kept alive, so that its id is never another's
        return found

    def choose(self, view: View, rng: Stream) -> Action:
        solved = self._solution(view.rules)
        action = None if solved is None else self._play(solved, view, rng)
        if action is None:
            self.off_tree += 1
            return self.fallback.choose(view, rng)
        self.on_tree += 1
        return action

    def _play(self, solved: _Solved, view: View, rng: Stream) -> Action | None:
        from ..strong.core import Node

        table = solved.table
        letters = _letters(view)
        if letters is None or view.player not in letters:
            return None
        node = Node(table)
        node.apply(0)  # any sampled deal: the words' legality does not depend on the cards
        for event in view.public[: view.seen]:
            if not _replay(node, event, letters, view.rules.stakes.cave):
                return None
        seat = node.current()
        if seat < 0 or table.names[seat] != letters[view.player]:
            return None
        if view.phase in (Phase.STRADDLE, Phase.SEEING):
            private = "unseen"
        else:
            private = table.hand_class(view.hand, view.retourne)
        row = solved.strategy.get(f"{table.names[seat]}|{private}|{node.public()}")
        if row is None:
            return None
        draw = rng.random()
        chosen = int(row[-1][0])
        for action, p in row:
            draw -= p
            if draw < 0:
                chosen = int(action)
                break
        return _in_full_game(node, chosen, view)


def _letters(view: View) -> dict[str, str] | None:
    """Each player's abstract name (A first to speak, the dealer last), from the dealer's
    blind; ``None`` where no blind names the dealer or the names are not A, B, ..."""
    from ..play.events import Blind

    n = view.rules.table.players
    names = [chr(ord("A") + i) for i in range(n)]
    dealer = next((e.player for e in view.public[: view.seen] if isinstance(e, Blind)), None)
    if dealer is None or dealer not in names:
        return None
    step = 1 if view.rules.table.direction == "right" else -1
    d = names.index(dealer)
    order = [names[(d + step * k) % n] for k in range(1, n + 1)]
    return {name: chr(ord("A") + i) for i, name in enumerate(order)}


def _replay(node: Any, event: object, letters: dict[str, str], cave: int) -> bool:
    """Apply a public word to the abstract game; false where it has no counterpart."""
    from ..strong.core import WORDS

    if isinstance(event, Decline):
        word = "decline"
    elif isinstance(event, Straddle):
        word = "straddle"
    elif isinstance(event, Act):
        word = event.action
    else:
        return True  # forced bets and the privilege's passing: the abstract game makes them
    if node.is_terminal():
        return False  # the abstract deal ended sooner (a smaller cave went all in)
    legal = node.legal()
    if word in WORDS:
        wanted = WORDS.index(word)
        if wanted not in legal:
            return False
        node.apply(wanted)
        return True
    if word not in ("bet", "raise") or not isinstance(event, Act) or event.total is None:
        return False
    table = node.table
    base = table.bet_base if word == "bet" else table.raise_base
    totals = [a - base for a in legal if base <= a < base + table.cave + 1]
    if not totals:
        return False
    share = event.total / cave
    nearest = min(totals, key=lambda t: abs(t / table.cave - share))
    node.apply(base + nearest)
    return True


def _in_full_game(node: Any, chosen: int, view: View) -> Action | None:
    """The abstract action ``chosen`` as the full game's action, at the same size."""
    from ..strong.core import WORDS

    table = node.table
    if chosen < len(WORDS):
        word = WORDS[chosen]
        return Action(view.player, word) if view.find(word) is not None else None
    if chosen < table.bet_base:
        return None  # a draw: not in any solved abstraction
    kind = "bet" if chosen < table.raise_base else "raise"
    total = chosen - (table.bet_base if kind == "bet" else table.raise_base)
    legal = view.find(kind)
    if legal is None or legal.low is None:
        return None
    deal = node.deal
    size = _size_of(deal, total, table.abstraction.bets)
    high = legal.high if legal.high is not None else legal.low
    wanted = {
        "min": legal.low,
        "half": view.bet + view.pot // 2,
        "pot": view.bet + view.pot,
        "max": high,
    }[size]
    amount = max(legal.low, min(high, wanted))
    if legal.step and amount != high:
        amount = legal.low + (amount - legal.low) // legal.step * legal.step
    return Action(view.player, kind, amount)


def _size_of(deal: Any, total: int, menu: tuple[str, ...]) -> str:
    """Which size of the menu made ``total`` in the abstract deal (the nearest)."""
    pot = deal.pot_total()
    made = {"min": 0, "half": deal.bet + pot // 2, "pot": deal.bet + pot, "max": 10**9}
    return min(menu or ("pot",), key=lambda size: abs(made[size] - total))
