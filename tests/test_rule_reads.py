"""The rule-read contract (``play/__init__.py``): a deal reads a field of the rules only in
the branch its value decides.

Each deal below is played under a bundled system with its rules recorded
(``study/rule_reads.py``), by a chooser that reads no rule (a seeded draw among the legal
actions). Then, for each field the deal read, it is played again under each other value of
that field (the values a sweep's ``--vary`` tries), with the same cards and the same draws:
if every other value offers the same choices at every step and ends the deal the same
way, the field was read where it decided nothing, and a sweep would play a row for it
that it could have skipped. Fields with no finite set of values (the amounts) are not
varied here.

"Changed the deal" is seen in what was offered at each step, the outcome, and the fields
read afterwards (a value that sends the deal down another branch reads other fields).

A field listed in ``READ_WHERE_IT_MAY_DECIDE`` is read, on some deals, at the step where
it may decide but before a fact of the deal (or another field) that makes every value
agree: each entry says where, and why the read stays there (moving it would change which
rows a sweep plays and the ``rules_read`` it prints). Every other field is checked.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from bouillotte.play.actions import Action, LegalAction
from bouillotte.play.betting import BettingRound
from bouillotte.play.deal import Deal, new_deal
from bouillotte.play.decides import Decides
from bouillotte.play.straddles import Straddling
from bouillotte.rules.profile import GROUPS
from bouillotte.rules.profiles import Library
from bouillotte.rules.variant import Variant
from bouillotte.study.rule_reads import READS, recording
from bouillotte.study.sweep_combinations import parse_vary, vary_combinations

LIBRARY = Library()
NAMES = ["A", "B", "C", "D", "E", "F"]
SEEDS = range(24)
CARRIED = (0, 0, 0, 6)
"""A pool carried into every fourth deal, so that the rules of a carried pool are met."""

Trace = tuple[list[tuple[str | None, tuple[str, ...]]], object]


def _choose(deal: Deal, legal: list[LegalAction], rng: random.Random) -> Action:
    """A legal action drawn with ``rng``, reading no rule."""
    player = deal.to_act
    assert player is not None
    offered = legal[rng.randrange(len(legal))]
    if offered.kind == "discard":
        hand = list(deal.hands[deal.seat_of[player]])
        return Action(player, "discard", cards=tuple(rng.sample(hand, rng.randint(0, 2))))
    if offered.kind in ("bet", "raise") and offered.low is not None:
        high, step = offered.high or offered.low, offered.step or 1
        return Action(
            player, offered.kind, offered.low + step * rng.randint(0, (high - offered.low) // step)
        )
    return Action(player, offered.kind)


def _play(variant: Variant, seed: int) -> Trace:
    """What was offered at each step, and the outcome, of deal ``seed`` under ``variant``."""
    names = NAMES[: variant.players]
    carried = CARRIED[seed % len(CARRIED)]
    deal = new_deal(variant, names, names[-1], seed=seed, carried_in=carried)
    rng = random.Random(seed)
    offered: list[tuple[str | None, tuple[str, ...]]] = []
    while not deal.is_over:
        legal = deal.legal_actions()
        offered.append((deal.to_act, tuple(str(a) for a in legal)))
        deal.apply(_choose(deal, legal, rng))
    return offered, deal.outcome.to_json()


def _played(variant: Variant, seed: int) -> tuple[Trace, frozenset[str]] | str:
    """:func:`_play` with the rules recorded, and the fields read."""
    READS.clear()
    try:
        return _play(recording(variant), seed), frozenset(READS)
    except Exception as error:  # a value the deal cannot be played under: it decided
        return f"{type(error).__name__}: {error}"


@cache
def _others(variant_id: str, path: str) -> list[Variant]:
    """``variant`` with ``path`` at each of its other values (none: not varied here)."""
    group, name = path.split(".", 1)
    annotation = GROUPS[group].model_fields[name].annotation
    if annotation in (int, str) or "dict" in repr(annotation) or "int |" in repr(annotation):
        return []  # amounts and tables: no finite set of values
    try:
        parse_vary(path)
    except Exception:
        return []
    made = vary_combinations(LIBRARY.get(variant_id), [path])
    return [c.variant for c in made if c.variant is not None]


def undecided_reads(variant_id: str, seeds: range = SEEDS) -> dict[str, int]:
    """Each field some deal read where none of its other values changed the deal, with the
    first such deal's seed."""
    variant = LIBRARY.get(variant_id)
    found: dict[str, int] = {}
    for seed in seeds:
        base = _played(variant, seed)
        assert not isinstance(base, str), base
        for path in sorted(base[1]):
            if path in found or path in READ_WHERE_IT_MAY_DECIDE:
                continue
            others = _others(variant_id, path)
            if others and all(_played(other, seed) == base for other in others):
                found[path] = seed
    return found


READ_WHERE_IT_MAY_DECIDE: dict[str, str] = {
    # Each is read at the step where it may decide, but before a fact of the deal (or
    # another field) that can make every value agree; moving the read would let a sweep
    # skip more rows, and change the rules_read it prints (a results change, on purpose).
    "betting.raises": "read wherever the least raise is reckoned (every legal list after "
    "the opening), also where the player's cave reaches no raise under any value",
    "betting.all_in_may_open_or_raise": "read in every legal list of the betting (it sets "
    "the most a player may stake), also where his cave reaches no opening or raise",
    "betting.privilege_after_the_word": "read at a raise by the player asked after the "
    "word passed: it names the next holder, which matters only if another closing round "
    "comes",
    "betting.two_players_betting": "read where the two ways of counting differ; whether "
    "two are betting then matters only where betting.two_players_call_ends ends the "
    "betting and betting.closing is not single-round",
    "forced_bets.straddling_ends_at_first_refusal": "read at every decline, before the "
    "limit of the offers (a decline at the last offer ends the straddles either way)",
    "void_deals.nobody_opens": "read where nobody opened, before whether the one who would "
    "take the pool has folded",
    "void_deals.nobody_opens_after_straddles": "as void_deals.nobody_opens, after straddles",
    "hands.favori": "read by classify for every hand it ranks against the retourne, also a "
    "hand no value of it changes",
    "hands.favori_meaning": "as hands.favori",
    "hands.mistigri": "read by classify for a hand holding the mistigri's card, also where "
    "the hand ranks the same with it or without",
    "hands.carre_made_with": "read by classify for three equal cards, also where no fourth "
    "can be made under any value",
    "point.folded_hands_in_side_pools": "read wherever a brelan is shown and side pools "
    "are settled, also where no folded hand could claim one",
    "point.suit_tie": "read wherever the suits' sums are compared, before it is known "
    "whether two tie",
    "table.deal_singly": "read with table.packets for every shuffled deal (the layout's "
    "cache key, dealing._layout), also where the packets make it irrelevant",
    "table.packets": "as table.deal_singly",
}
"""The fields read a step early or a branch wide, each with where and why: not checked
here (every other field is)."""


@pytest.mark.parametrize("variant_id", sorted(LIBRARY.ids()))
def test_a_deal_reads_a_field_only_where_its_value_decides(variant_id: str) -> None:
    assert undecided_reads(variant_id) == {}


def test_every_field_read_where_it_decides_is_a_field_of_its_group() -> None:
    """Each :class:`Decides` a stage makes names a field of the group it is given, and
    reads nothing until asked."""
    rules = LIBRARY.get("foster").rules
    checked = 0
    for stage in (Straddling(rules.forced_bets), BettingRound(rules, 0, [])):
        for slot in type(stage).__slots__:
            kept = getattr(stage, slot)
            if isinstance(kept, Decides):
                model: Any = type(kept._group)
                assert kept._name in model.model_fields, (type(stage).__name__, slot)
                assert not kept._read
                checked += 1
    assert checked == 8
