"""The Python API of bouillotte: the command line's reports as Python objects, for a
notebook or a script (``docs/api.md``).

Everything here is also at the package's top level (``import bouillotte as b``); a name is
imported only when first used, so ``import bouillotte`` stays cheap (it loads neither
pandas, Dask nor the site builder).

- :func:`systems`, :func:`system`: the rule systems, bundled and from a user's folder;
- :func:`run`, :func:`compare`: one scenario under one system, or under several side by
  side with the rules that explain each difference;
- :func:`simulate`, :func:`sweep`, :func:`odds`: simulated play, rule sweeps, exact odds;
- :func:`matrix`, :func:`effects`: the rule matrix and the stored rule effects, as tables.

Each result prints as a short summary, keeps the command line's JSON in ``.data``, and
gives a tidy table (:class:`~bouillotte.study.tidy.TidyTable`: one observation per row,
typed columns) with ``.table()``, a pandas DataFrame with ``.to_frame()`` (pandas is the
optional extra: ``pip install 'bouillotte[frames]'``) and CSV with ``.to_csv()``.

Bad input raises :class:`UserError`; its ``describe()`` is the one line the command line
prints (file, line, field and value).

The results are in ``api_results``, the checks of what a caller passes in ``api_args``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from .api_args import (
    Folders,
    as_flag,
    as_path_text,
    as_paths,
    as_policy,
    as_text,
    as_words,
    empty_path,
    refused_in_a_line,
    same_system,
)
from .api_args import PathLike as PathLike
from .api_results import Comparison, Odds, Run, Simulation, Sweep, System, Systems
from .rules.errors import InputError, UserError
from .rules.nearest import did_you_mean
from .rules.profiles import Library
from .rules.variant import Variant
from .study.tidy import TidyTable

__all__ = [
    "Comparison",
    "Odds",
    "Run",
    "Simulation",
    "Sweep",
    "System",
    "Systems",
    "TidyTable",
    "UserError",
    "compare",
    "effects",
    "matrix",
    "odds",
    "run",
    "simulate",
    "sweep",
    "system",
    "systems",
]


class _Given(Library):
    """The library of the user's folders, in which each :class:`System` given stands for
    its id: the system given is the system played, whatever profile of that id the folders
    hold (or none)."""

    def __init__(self, folders: Folders, chosen: Sequence[str | System]) -> None:
        super().__init__(as_paths(folders))
        self.given: dict[str, Variant] = {}
        for item in chosen:
            if isinstance(item, System):
                same_system(item.id, self.given.get(item.id, item.variant), item.variant)
                self.given[item.id] = item.variant
        for item in chosen:  # an id that names a System given too: the same system, or bad
            if isinstance(item, str) and item in self.given and item in self.files:
                same_system(item, super().get(item), self.given[item])

    def get(self, variant_id: str) -> Variant:
        if variant_id in self.given:
            return self.given[variant_id]
        return super().get(variant_id)


def _library(folders: Folders, chosen: Sequence[str | System] = ()) -> Library:
    """The systems of ``folders`` and the bundled ones, each :class:`System` of ``chosen``
    standing for its id."""
    return _Given(folders, chosen)


# -- systems ---------------------------------------------------------------------------------


@refused_in_a_line
def systems(folder: Folders = None, *, bundled: bool = True) -> Systems:
    """Every rule system: the bundled ones (unless ``bundled=False``) and those of the
    user's ``folder`` (a folder of profiles, or several)."""
    library = Library(as_paths(folder), include_bundled=as_flag(bundled, "bundled"))
    return Systems([System(v) for v in library.all()])


@refused_in_a_line
def system(system_id: str, folder: Folders = None) -> System:
    """One rule system by its id, bundled or from the user's ``folder``."""
    chosen = _one(system_id)
    return System(_library(folder, [chosen]).get(chosen))


def _given(chosen: str | System) -> str | System:
    """A system given by its id (a plain ``str``: :func:`~.api_args.as_text`) or as a
    :class:`System`."""
    if isinstance(chosen, System):
        return chosen
    if not isinstance(chosen, str):
        raise InputError(f"a system is an id or a System, not {type(chosen).__name__}")
    return as_text(chosen)


def _one(chosen: str | System) -> str:
    """The id of a system given by its id or as a :class:`System`."""
    given = _given(chosen)
    return given.id if isinstance(given, System) else given


def _chosen(
    chosen: str | System | Sequence[str | System] | None, every: bool
) -> list[str | System]:
    """The systems chosen, as a list; ``[]`` for ``None`` where the function takes
    ``None`` for every system (``every``). An empty list is refused, never read as every
    system or as none."""
    if chosen is None and every:
        return []
    listed = [chosen] if isinstance(chosen, str | System) else [] if chosen is None else chosen
    if not isinstance(listed, Sequence) or isinstance(listed, bytes | bytearray):
        raise InputError(
            f"systems are an id, a System or a list of them, not {type(chosen).__name__}"
        )
    listed = [_given(item) for item in listed]
    if not listed:
        also = " (or leave systems out, None, for every one)" if every else ""
        raise InputError(
            f"name at least one system, as 'foster' or ['foster', 'pagat']{also}",
            field="systems",
        )
    return list(listed)


def _ids(chosen: Sequence[str | System]) -> list[str] | None:
    """The ids of the systems chosen, each once, in the order first named; ``None`` (every
    system) where none is."""
    return list(dict.fromkeys(_one(c) for c in chosen)) or None


# -- scenarios: run and compare ---------------------------------------------------------------


def _scenario(name: str, scenarios: Folders) -> Any:
    from .study.scenario import ScenarioLibrary

    text = as_path_text(name)
    if text is None:
        raise InputError(
            f"a scenario is an id or a file, not {type(name).__name__}",
            field="scenario",
            value=name,
            has_value=True,
        )
    if not text:
        raise empty_path("scenario", "scenario")
    return ScenarioLibrary(as_paths(scenarios, "scenarios")).find(text)


@refused_in_a_line
def run(
    scenario: str,
    system: str | System,
    *,
    folder: Folders = None,
    scenarios: Folders = None,
) -> Run:
    """Play ``scenario`` (an id, or a YAML file) under ``system``; ``folder`` holds the
    user's profiles, ``scenarios`` the user's scenario folders or files."""
    from .study.scenario import run_scenario

    given = _given(system)
    library = _library(folder, [given])
    variant = library.get(_one(given))
    found = _scenario(scenario, scenarios)
    found.variant_ids(library)  # its blocks checked as every command checks them
    return Run(run_scenario(found, variant).data)


@refused_in_a_line
def compare(
    scenario: str,
    systems: str | System | Sequence[str | System] | None = None,
    *,
    folder: Folders = None,
    scenarios: Folders = None,
    explain: bool = True,
) -> Comparison:
    """Play ``scenario`` under each of ``systems`` (the first is the base; default: every
    system the scenario lists) and, unless ``explain=False``, name the rules that explain
    each difference from the first (as ``bouillotte compare`` does)."""
    from .study.compare import compare as compare_scenario

    explain = as_flag(explain, "explain")
    found = _scenario(scenario, scenarios)
    chosen = _chosen(systems, every=True)
    library = _library(folder, chosen)
    result = compare_scenario(found, library, _ids(chosen), with_attribution=explain)
    return Comparison(result)


# -- simulation, sweeps, odds -----------------------------------------------------------------


@refused_in_a_line
def simulate(
    systems: str | System | Sequence[str | System],
    deals: int = 10_000,
    *,
    seed: int = 0,
    policy: str = "simple",
    jobs: int = 1,
    folder: Folders = None,
) -> Simulation:
    """Play ``deals`` seeded deals under each system with every seat on ``policy``
    (``bouillotte simulate``); the same seed gives the same figures, whatever ``jobs``."""
    from .study.simulate import simulate as simulate_deals
    from .study.simulate_report import report
    from .study.workers import check_run

    # the bounds of every run, before any system is read; each a plain int of its value
    deals, seed, jobs = check_run(deals, seed, jobs)
    policy = as_policy(policy)
    chosen = _chosen(systems, every=False)
    library = _library(folder, chosen)
    reports = []
    for system_id in _ids(chosen) or []:
        variant = library.get(system_id)
        _warn_unsolved(variant, [policy])
        tally = simulate_deals(variant, deals, seed, policy, jobs)
        reports.append(report(variant, tally, seed, policy))
    return Simulation(reports)


def _warn_unsolved(variant: Variant, policies: Sequence[str]) -> None:
    """Warn, as the command line notes on stderr, where the ``strong`` player of
    ``variant`` has no stored strategy and so plays ``advised`` at every step."""
    from .study.strong_policy import unsolved_note

    for policy in policies:
        note = unsolved_note(variant.id, variant.rules, policy)
        if note is not None:  # stacklevel 4: the line that called simulate or sweep (through
            # refused_in_a_line)
            warnings.warn(note.removeprefix("note: "), UserWarning, stacklevel=4)


@refused_in_a_line
def sweep(
    base: str | System,
    *,
    vary: Sequence[str] = (),
    towards: str | System | None = None,
    all_rules: bool = False,
    deals: int = 10_000,
    seed: int = 0,
    policies: Sequence[str] = ("simple",),
    jobs: int = 1,
    folder: Folders = None,
) -> Sweep:
    """``bouillotte sweep``: ``vary`` as ``--vary`` (``"hands.favori"`` or
    ``"hands.favori=none,by-rank"``), ``towards`` a system whose differing rules are
    switched one at a time, or ``all_rules`` (one of the three); a sweep of which no
    combination can be played is refused."""
    from .study.policies import distinct_players
    from .study.sweep import run_sweep
    from .study.sweep_combinations import (
        Skipped,
        all_rule_combinations,
        check_playable,
        towards_combinations,
        vary_combinations,
    )
    from .study.sweep_report import sweep_report
    from .study.workers import check_run

    vary, policies = as_words(vary, "vary"), as_words(policies, "policies")
    deals, seed, jobs = check_run(deals, seed, jobs)  # each a plain int of its value
    all_rules = as_flag(all_rules, "all_rules")
    if not policies:
        raise InputError("policies: name at least one policy, as ['simple']")
    policies = distinct_players(policies)
    given = [_given(base)] if towards is None else [_given(base), _given(towards)]
    base_id, other = _one(given[0]), _one(given[1]) if len(given) > 1 else None
    library = _library(folder, given)
    chosen = library.get(base_id)
    if all_rules and (vary or other is not None):
        raise InputError("all_rules varies every rule already: give it without vary or towards")
    if vary and other is not None:
        raise InputError(
            "vary and towards: give one of them (towards already switches each rule on "
            "which base differs from the other system)"
        )
    if not vary and other is None and not all_rules:
        raise InputError("say what to change: vary=[RULE], towards=SYSTEM or all_rules=True")
    combinations = vary_combinations(chosen, list(vary), "vary")
    skipped: list[Skipped] = []
    if other is not None:
        switched, skipped = towards_combinations(chosen, library.get(other))
        combinations += switched
    if all_rules:
        combinations, skipped = all_rule_combinations(chosen)
    check_playable(chosen, combinations)  # none asked for, or none that can be played
    _warn_unsolved(chosen, policies)
    tallies = run_sweep(chosen, combinations, list(policies), deals, seed, jobs=jobs)
    return Sweep(sweep_report(chosen, combinations, tallies, seed, skipped, other, all_rules))


@refused_in_a_line
def odds(
    systems: str | System | Sequence[str | System] | None = None, *, folder: Folders = None
) -> Odds:
    """Exact probabilities of brelans, carrés, favoris and the point for each system
    (default: every one), counted over every deal (``bouillotte odds``)."""
    from .study.odds import compute_odds, odds_key

    chosen = _chosen(systems, every=True)
    counted: dict[str, dict[str, Any]] = {}
    found: dict[str, dict[str, Any]] = {}
    for variant in _library(folder, chosen).select(_ids(chosen)):
        key = odds_key(variant.rules)
        if key not in counted:
            try:
                counted[key] = compute_odds(variant.rules).to_json()
            except ValueError as exc:
                counted[key] = {"not_computed": str(exc)}
        found[variant.id] = counted[key]
    return Odds(found)


# -- the site's tables ------------------------------------------------------------------------


@refused_in_a_line
def matrix(
    systems: str | System | Sequence[str | System] | None = None,
    *,
    folder: Folders = None,
) -> TidyTable:
    """The rule matrix, long: a row per rule and system (value, standing, citation)."""
    from .site.tidydata import matrix_table

    chosen = _chosen(systems, every=True)
    return matrix_table(_library(folder, chosen).select(_ids(chosen)))


@refused_in_a_line
def effects(system: str | System, towards: str | System, *, folder: Folders = None) -> TidyTable:
    """The stored rule effects of a pair of bundled systems (``bouillotte effects``,
    the pair pages' "What each rule does"), a row per policy, combination and measure;
    a :class:`UserError` where none are stored or they are stale."""
    from .site.tidydata import effects_table, stored_pair

    given = [_given(system), _given(towards)]
    ids = _one(given[0]), _one(given[1])
    library = _library(folder, given)
    a, b = library.get(ids[0]), library.get(ids[1])
    _check_stored_pair(a, b)
    found = stored_pair(a, b)
    if found.stored.data is None:
        raise InputError(f"{found.stored.problem}: `{found.stored.fix}` regenerates them")
    return effects_table([found])


def _check_stored_pair(a: Variant, b: Variant) -> None:
    """A :class:`UserError` for a pair the site never stores (``bouillotte effects --pair``
    names the same pairs), or a system of the user's with other rules than the bundled one
    of its id: ``effects --write`` would never make their results."""
    from .site.effects_store import effect_pairs
    from .site.rules import system_order

    bundled = Library()
    pairs = [f"{x.id}__{y.id}" for x, y in effect_pairs(system_order(bundled.all()))]
    name = f"{a.id}__{b.id}"
    if name not in pairs:
        flipped = f" (stored as {b.id}, {a.id})" if f"{b.id}__{a.id}" in pairs else ""
        raise InputError(
            f"no such pair {name!r}{flipped}{did_you_mean(name, pairs)}; the pairs are "
            f"{', '.join(sorted(pairs))}"
        )
    for variant in (a, b):
        if variant.rules != bundled.get(variant.id).rules:
            raise InputError(
                f"the stored results are of the bundled {variant.id}, not of {variant.file}, "
                f"whose rules differ: sweep({a.id!r}, towards={b.id!r}) computes its effects"
            )
