"""A deal played on to its end by betting policies (:func:`play`): at each step the player
to act is shown his view (:func:`player_view.view_of`) and his policy's choice is applied."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from ..play.actions import Action
from ..play.deal import Deal, Phase
from ..play.stream import Stream
from .player_view import Policy, View, view_of


def play(
    deal: Deal,
    policies: Mapping[str, Policy] | Policy,
    rng: Stream,
    trace: list[Any] | None = None,
    before_step: Callable[[Deal], None] | None = None,
) -> list[Action]:
    """Play the deal on to its end (from wherever it stands); returns the actions taken, in
    order. ``trace``, where given, receives at each step the choices offered, then the
    action taken (a sweep compares two traces to tell whether a rule changed an offered
    action). ``before_step``, where given, is handed the deal before each step (a sweep
    keeps a copy of the base's deal there, to take a row's play up from it)."""
    taken: list[Action] = []
    # One policy for every player is told from a mapping by its method, looked up once
    # (``isinstance(policies, Mapping)`` is an ABC's check in Python, once a deal).
    one = None if isinstance(policies, dict) else getattr(policies, "choose", None)
    choose: Callable[[View, Stream], Action]
    if one is None:
        table = cast("Mapping[str, Policy]", policies)
        choose = lambda view, rng: table[view.player].choose(view, rng)  # noqa: E731
    else:
        choose = one
    over = Phase.OVER
    while deal.phase is not over:
        if before_step is not None:
            before_step(deal)
        view = view_of(deal)
        action = choose(view, rng)
        if trace is not None:
            trace.append(view.legal)
            trace.append(action)
        deal.apply(action)  # a direct call compiled; a bound method kept would be a Python call
        taken.append(action)
    return taken
