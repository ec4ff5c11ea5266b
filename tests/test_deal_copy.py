"""A copy of a deal (``Deal.copy``, what a sweep takes a row's play up from) is the deal as it
stands, sharing nothing that either changes: played on, the copy and the deal give the
same steps and the same outcome, and playing one leaves the other as it was."""

from __future__ import annotations

import pytest

from bouillotte.play.deal import Deal, new_deal
from bouillotte.play.decides import Decides
from bouillotte.play.stream import POLICY, Stream
from bouillotte.rules.profiles import Library
from bouillotte.study.autoplay import play
from bouillotte.study.player_view import view_of
from bouillotte.study.policies import get_policy

LIBRARY = Library()
NAMES = ["A", "B", "C", "D", "E"]


def _slots(cls: type) -> list[str]:
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]


def _state(deal: Deal) -> dict[str, object]:
    """Every slot of the deal and of its stage, lists and dicts as plain values (a rule
    the stage reads where it decides, by its name and what it has read)."""
    seen = {name: getattr(deal, name) for name in _slots(Deal) if name not in ("stage",)}
    stage = deal.stage
    seen |= {f"stage.{n}": getattr(stage, n) for n in _slots(type(stage)) if hasattr(stage, n)}
    closing = seen.get("stage.closing")
    if closing is not None:  # a closing round, by what it holds
        seen["stage.closing"] = (
            type(closing),
            [getattr(closing, n) for n in _slots(type(closing))],
        )
    for name, value in seen.items():
        if isinstance(value, Decides):
            seen[name] = (Decides, value._name, value._read, value._value)
    return seen


@pytest.mark.parametrize(
    "variant_id", ["foster", "brelan-pierer", "pagat", "britannica-1911", "foster-five"]
)
@pytest.mark.parametrize("policy_name", ["bold", "random"])
def test_a_copy_plays_on_as_the_deal_and_shares_nothing_it_changes(
    variant_id: str, policy_name: str
) -> None:
    variant = LIBRARY.get(variant_id)
    names = NAMES[: variant.players]
    copied_at = 0
    for seed in range(12):
        deal = new_deal(variant, names, names[-1], seed=seed)
        policy = get_policy(policy_name)
        rng = Stream(seed, POLICY)
        ended: list[tuple[object, object]] = []
        while not deal.is_over:
            copy = deal.copy(variant)
            before = _state(deal)
            assert _state(copy) == before  # the same, slot for slot (the stage's too)
            assert copy.stage is not deal.stage
            for name, value in before.items():
                owner = copy.stage if name.startswith("stage.") else copy
                mine = getattr(owner, name.removeprefix("stage."))
                if isinstance(value, list | dict):
                    assert mine is not value, name
                if isinstance(mine, Decides):  # what is read later is read from the copy's
                    assert mine is not getattr(deal.stage, name.removeprefix("stage.")), name
            if getattr(deal.stage, "closing", None) is not None:
                assert copy.stage.closing is not deal.stage.closing  # type: ignore[attr-defined]
            assert all(a is not b for a, b in zip(copy.hands, deal.hands, strict=True))
            kept = rng.at
            # The copy played to its end leaves the deal where it stood ...
            play(copy, policy, rng)
            assert _state(deal) == before
            ended.append((copy.events, copy.outcome.players))
            # ... and the deal goes on with the same draws as the copy's play.
            rng.at = kept
            copied_at += 1
            deal.apply(policy.choose(view_of(deal), rng))
        # Every copy ended as the deal itself did.
        assert all(end == (deal.events, deal.outcome.players) for end in ended)
    assert copied_at > 40
