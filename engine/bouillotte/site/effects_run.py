"""Running the stored sweeps of "What each rule does" (``bouillotte effects --write``): a
pair's sweep into the content of its file (:mod:`effects_store` keeps it), and the sample
of its first deals that is kept beside the figures and recomputed to check them
(:func:`sample_rows`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ..rules.variant import Variant
from .effects_store import EFFECT_DEALS, EFFECT_POLICIES, EFFECT_SEED, command, effects_key

SAMPLE_DEALS: Final = 200
"""The deals of a pair's stored ``sample``: the report of the first deals alone, which the
everyday suite recomputes for a few rows and compares (``tests/test_effects_sample.py``)."""


def compute_effects(
    a: Variant,
    b: Variant,
    deals: int = EFFECT_DEALS,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Sweep ``a`` towards ``b`` under :data:`EFFECT_POLICIES`: the data file's content.
    ``sample`` holds the report of the first :data:`SAMPLE_DEALS` deals alone."""
    from ..study.sweep import run_sweep
    from ..study.sweep_combinations import towards_combinations
    from ..study.sweep_report import sweep_report

    combinations, skipped = towards_combinations(a, b)
    policies = list(EFFECT_POLICIES)
    tallies = run_sweep(a, combinations, policies, deals, EFFECT_SEED, jobs, progress=progress)
    report = sweep_report(a, combinations, tallies, EFFECT_SEED, skipped, b.id)
    return {
        "key": effects_key(a, b, deals),
        "command": command(a, b, deals),
        "deals": deals,
        "seed": EFFECT_SEED,
        "policies": policies,
        "report": report,
        "sample": sample_rows(a, b, min(SAMPLE_DEALS, deals)),
    }


def sample_rows(
    base: Variant,
    towards: Variant | None,
    deals: int,
    labels: Sequence[str] | None = None,
    policies: Sequence[str] = EFFECT_POLICIES,
    seed: int = EFFECT_SEED,
) -> dict[str, Any]:
    """The report of deals ``0`` to ``deals - 1`` of ``base`` swept towards ``towards``
    (``None``: every rule, the full sweep): only the rows whose combination is named in
    ``labels`` (and the base's), or every row. A row's figures depend on its own rules
    alone, so a few rows recomputed are those of the whole sample."""
    from ..study.sweep import run_sweep
    from ..study.sweep_combinations import all_rule_combinations, towards_combinations
    from ..study.sweep_report import sweep_report

    if towards is None:
        combinations, skipped = all_rule_combinations(base)
    else:
        combinations, skipped = towards_combinations(base, towards)
    if labels is not None:
        wanted = set(labels)
        combinations = [c for c in combinations if c.label in wanted]
    tallies = run_sweep(base, combinations, policies, deals, seed)
    towards_id = None if towards is None else towards.id
    return sweep_report(
        base, combinations, tallies, seed, skipped, towards_id, read=towards is None
    )
