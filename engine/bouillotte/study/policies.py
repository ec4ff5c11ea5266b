"""The registry of betting policies for simulated players: every named policy, a sentence
for each, and :func:`get_policy`, which makes one from its name.

A policy chooses one legal action for the player to act from what that player may see
(:mod:`player_view`). The policies that take no tendencies (``simple``, ``cautious``,
``random``: :mod:`simple_policies`) are in :data:`POLICIES`; the named players of the
``table`` family (``advised``, ``bold``, ``table``: :mod:`table_policy`) in
:data:`TABLE_PLAYERS`. To add a policy, write it in its own module and list it in
:data:`POLICIES` and :data:`POLICY_DESCRIPTIONS` (or, a table player, in
:data:`TABLE_PLAYERS`).

Policies are deterministic given the view and the random generator, so seeded play is
reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..rules.errors import InputError
from ..rules.nearest import did_you_mean
from ..rules.profile import Rules
from .player_view import Policy
from .simple_policies import CautiousPolicy, RandomPolicy, SimplePolicy
from .strong_policy import STRONG_SENTENCE, StrongPolicy
from .table_policy import TENDENCIES, TablePolicy, Tendencies, _parse_tendencies

TABLE_PLAYERS: Final[dict[str, tuple[str, Tendencies]]] = {
    "advised": (
        "Plays by what the sources advise where they do (Foster's Suggestions for Good Play: "
        "21 to back alone, 26 against one and 32 against two, a point below 41 laid down "
        "once a bet has been made and met, no following beyond the first raise "
        "three-handed unless strong, the eldest passing with a brelan, a sight called with "
        "what is left) and straddles a quarter of the time, where they say nothing of when "
        "to.",
        Tendencies(
            straddle=0.25,
            see=1.0,
            point_shift=0,
            against_three=0,
            raises=2,
            strong_point=40,
            privilege_raise=0.5,
            met_point=41,
            three_way_limit=1,
        ),
    ),
    "bold": (
        "Meets every rule a choice can reach: straddles half the time, sees nine straddles "
        "in ten, opens from 24 but follows 6 below Foster's points, bluffs three hands in a "
        "hundred, raises up to three times (in the closing round too) and goes all in on a "
        "strong hand one time in five.",
        Tendencies(
            straddle=0.5,
            see=0.9,
            open_point=24,
            point_shift=-6,
            against_three=32,
            bluff=0.03,
            raises=3,
            strong_point=36,
            privilege_raise=0.6,
            push=0.2,
        ),
    ),
    "table": (
        "The family's neutral member: Foster's thresholds, never straddles, raises a brelan "
        "once; its tendencies are set as table:straddle=0.3,bluff=0.1 (see --help).",
        Tendencies(),
    ),
}
"""The named players of the ``table`` family: each a sentence and its tendencies."""


POLICY_DESCRIPTIONS: Final[dict[str, str]] = {
    "simple": "Foster's Suggestions for Good Play as a rule of thumb: backs a point from 21 "
    "alone, 26 against one, 32 against two, never against three; backs and raises a brelan "
    "once; never straddles.",
    "cautious": "Backs only a brelan, or a point of 40 or more when nobody else is in; never "
    "raises or straddles.",
    "random": "A uniformly random legal action, with a uniformly random legal amount.",
    "strong": STRONG_SENTENCE,
} | {name: sentence for name, (sentence, _) in TABLE_PLAYERS.items()}
"""Each policy in a sentence (``--help``, the site and the reports name it)."""


POLICIES: Final[dict[str, Callable[[], Policy]]] = {
    "simple": SimplePolicy,
    "cautious": CautiousPolicy,
    "random": RandomPolicy,
    "strong": lambda: StrongPolicy(TablePolicy("advised", TABLE_PLAYERS["advised"][1])),
}


def distinct_players(names: Sequence[str]) -> list[str]:
    """``names`` with each player once, as first written: ``bold`` and ``bold`` with its
    own tendencies written out (``bold:straddle=0.5``) are one player, whose figures would
    be the same table twice."""
    seen: dict[tuple[object, ...], str] = {}
    for name in names:
        policy = get_policy(name)
        tendencies = getattr(policy, "tendencies", None)
        key: tuple[object, ...] = (
            (type(policy).__name__, *tendencies.as_dict().values())
            if tendencies is not None
            else (name,)
        )
        seen.setdefault(key, name)
    return list(seen.values())


def sweep_player(name: str, base: Rules) -> Policy:
    """The player ``name`` as every row of a sweep of ``base`` shares it: the ``strong``
    player keeps the strategy stored for the base's rules in every row (a row's changed
    rules have none), so a row's difference is the rule's, never a change of player."""
    policy = get_policy(name)
    if isinstance(policy, StrongPolicy):
        policy.keep_strategy_of(base)
    return policy


def get_policy(name: str) -> Policy:
    """A policy by name: ``simple``, ``cautious``, ``random``, or a player of the ``table``
    family (``advised``, ``bold``, ``table``), whose tendencies may be set after a colon:
    ``bold:straddle=0.2,bluff=0``. A name holds no space: ``bold: straddle=0.1`` played
    as ``bold:straddle=0.1`` under a label of its own, two players in a table of results."""
    if any(c.isspace() for c in name):
        written = "".join(name.split())
        raise InputError(
            f"a policy holds no space: write {written!r}",
            value=name,
            has_value=True,
        )
    base, colon, given = name.partition(":")
    if base in TABLE_PLAYERS:
        tendencies = TABLE_PLAYERS[base][1]
        if colon:
            tendencies = tendencies.changed(_parse_tendencies(name, given))
        return TablePolicy(name, tendencies)
    if colon and base in POLICIES:
        raise InputError(
            f"policy {base!r} has no tendencies to set; those of {', '.join(TABLE_PLAYERS)} do",
            value=name,
            has_value=True,
        )
    try:
        return POLICIES[name]()
    except KeyError:
        known = ", ".join([*POLICIES, *TABLE_PLAYERS])
        raise InputError(
            f"unknown policy {name!r}{did_you_mean(name, [*POLICIES, *TABLE_PLAYERS])}; "
            f"the policies are {known}",
            value=name,
            has_value=True,
        ) from None


def describe_policy(name: str) -> str:
    """A policy in a sentence, with any tendencies set after its name."""
    base, colon, given = name.partition(":")
    sentence = POLICY_DESCRIPTIONS.get(base, "")
    return sentence + (f" Tendencies set: {given}." if colon else "")


def policy_help() -> str:
    """The ``--policy`` option's help: every policy in a sentence, and the tendencies."""
    named = " ".join(f"{name}: {sentence}" for name, sentence in POLICY_DESCRIPTIONS.items())
    tendencies = "; ".join(f"{key} ({words})" for key, words in TENDENCIES.items())
    return (
        f"The players' policy. {named} A player of the table family (advised, bold, table) "
        f"takes tendencies after a colon, as bold:straddle=0.2,bluff=0: {tendencies}."
    )


def policy_names() -> list[str]:
    """Every named policy, the simple ones first."""
    return [*POLICIES, *TABLE_PLAYERS]
