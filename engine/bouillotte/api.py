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
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from .rules.errors import InputError, UserError
from .rules.profiles import Library
from .rules.variant import Variant
from .study.tidy import (
    TidyTable,
    comparison_table,
    odds_table,
    outcomes_table,
    simulation_table,
    sweep_table,
)

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

PathLike = str | os.PathLike[str]
Folders = PathLike | Sequence[PathLike] | None
"""A user's folder (or file), several of them, or none (the bundled library alone)."""


def _paths(folders: Folders) -> list[Path]:
    if folders is None:
        return []
    if isinstance(folders, str | os.PathLike):
        return [Path(folders)]
    if not isinstance(folders, Sequence) or not all(
        isinstance(f, str | os.PathLike) for f in folders
    ):
        raise InputError(
            f"a folder is a path (a str or a Path), or a list of them, not {type(folders).__name__}"
        )
    return [Path(f) for f in folders]


def _words(values: Sequence[str], name: str) -> list[str]:
    """A list of words given as one (``vary="hands.favori"``): refused, rather than read as
    its letters; and anything but a list or tuple of texts (bytes, a dict, a number)."""
    if isinstance(values, str):
        raise InputError(
            f"{name} must be a list, as [{values!r}], not a word",
            value=values,
            has_value=True,
        )
    if not isinstance(values, list | tuple):
        raise InputError(f"{name} must be a list of texts, not {type(values).__name__}")
    odd = next((v for v in values if not isinstance(v, str)), None)
    if odd is not None:
        raise InputError(f"{name} must be a list of texts; it holds {type(odd).__name__} {odd!r}")
    return list(values)


def _library(folders: Folders) -> Library:
    return Library(_paths(folders))


class _Tabular:
    """What every result offers: its tidy table, as a DataFrame and as CSV."""

    def table(self) -> TidyTable:
        raise NotImplementedError

    def to_frame(self) -> Any:
        """The tidy table as a pandas DataFrame (needs ``bouillotte[frames]``)."""
        return self.table().to_frame()

    def to_csv(self, path: PathLike | None = None) -> str:
        """The tidy table as CSV text; with ``path``, also written there (whole or not at
        all, as ``--csv FILE`` writes it)."""
        return self.table().to_csv(path)

    def __str__(self) -> str:
        return repr(self)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _signed(n: int | None) -> str:
    return "-" if n is None else f"{n:+d}"


# -- systems ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class System(_Tabular):
    """One rule system: ``variant`` is the engine's :class:`~bouillotte.rules.variant.Variant`
    (its rules, their citations, ``new_deal()``)."""

    variant: Variant

    @property
    def id(self) -> str:
        return self.variant.id

    @property
    def title(self) -> str:
        return self.variant.title

    def __repr__(self) -> str:
        v = self.variant
        pack = len(v.rules.table.packs[v.players]) * 4
        based = f", extends {v.extends}" if v.extends else ""
        return (
            f"<System {v.id}: {v.title} ({v.players} players, {pack}-card pack, "
            f"source {v.source}{based})>"
        )

    def table(self) -> TidyTable:
        """Every rule of the system, a row each: value, standing and citation (the rule
        matrix's rows for this system)."""
        from .site.tidydata import matrix_table

        return matrix_table([self.variant])


class Systems(Sequence[System], _Tabular):
    """Several systems, in the library's order; index by position or by id."""

    def __init__(self, items: Sequence[System]) -> None:
        self._items = list(items)

    @overload
    def __getitem__(self, key: int | str) -> System: ...
    @overload
    def __getitem__(self, key: slice) -> Systems: ...
    def __getitem__(self, key: int | str | slice) -> System | Systems:
        if isinstance(key, slice):
            return Systems(self._items[key])
        if isinstance(key, str):
            for item in self._items:
                if item.id == key:
                    return item
            raise KeyError(key)
        return self._items[key]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[System]:
        return iter(self._items)

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self._items]

    def __repr__(self) -> str:
        return f"<Systems ({len(self)}): {', '.join(self.ids)}>"

    def table(self) -> TidyTable:
        """A row per system: id, title, source, what it extends, players, pack."""
        from .study.tidy_lists import systems_table

        return systems_table(s.variant for s in self._items)


def systems(folder: Folders = None, *, bundled: bool = True) -> Systems:
    """Every rule system: the bundled ones (unless ``bundled=False``) and those of the
    user's ``folder`` (a folder of profiles, or several)."""
    library = Library(_paths(folder), include_bundled=bundled)
    return Systems([System(v) for v in library.all()])


def system(system_id: str, folder: Folders = None) -> System:
    """One rule system by its id, bundled or from the user's ``folder``."""
    return System(_library(folder).get(_one(system_id)))


def _one(chosen: str | System) -> str:
    """The id of a system given by its id or as a :class:`System`."""
    if isinstance(chosen, System):
        return chosen.id
    if not isinstance(chosen, str):
        raise InputError(f"a system is an id or a System, not {type(chosen).__name__}")
    return chosen


def _ids(chosen: str | System | Sequence[str | System] | None) -> list[str] | None:
    """The ids of the systems chosen, each once, in the order first named."""
    if chosen is None:
        return None
    if isinstance(chosen, str | System):
        chosen = [chosen]
    if not isinstance(chosen, Sequence):
        raise InputError(
            f"systems are an id, a System or a list of them, not {type(chosen).__name__}"
        )
    return list(dict.fromkeys(_one(c) for c in chosen))


# -- scenarios: run and compare ---------------------------------------------------------------


def _scenario(name: str, scenarios: Folders) -> Any:
    from .study.scenario import ScenarioLibrary

    return ScenarioLibrary(_paths(scenarios)).find(name)


@dataclass(frozen=True, repr=False)
class Run(_Tabular):
    """One scenario played under one system; ``data`` is ``bouillotte run --json``."""

    data: dict[str, Any]

    @property
    def status(self) -> str:
        return str(self.data["status"])

    @property
    def net(self) -> dict[str, int]:
        """Each player's whole change over the deal (empty for an illegal deal)."""
        return {p: int(f["net"]) for p, f in (self.data.get("players") or {}).items()}

    def __repr__(self) -> str:
        return f"<Run {self.data['scenario']} under {self.data['variant']}: {_line(self.data)}>"

    def table(self) -> TidyTable:
        """A row per player: status, cave, ledger, net, carry."""
        return outcomes_table([self.data], "run")


def _line(data: dict[str, Any]) -> str:
    """One result in a line: its status and each player's net, or the rule that refused."""
    if data["status"] == "illegal":
        error = data.get("error") or {}
        return f"illegal (step {error.get('step')} refused by {error.get('rule')})"
    nets = " ".join(f"{p} {_signed(f.get('net'))}" for p, f in data["players"].items())
    carry = f", carry {data['carry']}" if data.get("carry") else ""
    return f"{data['status']}: net {nets}{carry}"


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

    variant = system.variant if isinstance(system, System) else _library(folder).get(_one(system))
    return Run(run_scenario(_scenario(scenario, scenarios), variant).data)


@dataclass(frozen=True, repr=False)
class Comparison(_Tabular):
    """One scenario under several systems side by side, with, for each system that ends
    differently from the first, the smallest sets of rules that explain it. ``data`` is
    ``bouillotte compare --json``; ``result`` the study's own object."""

    result: Any

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.result.to_json()
        return data

    @property
    def systems(self) -> list[str]:
        return [r.variant.id for r in self.result.results]

    def explanation(self, system_id: str) -> list[list[str]]:
        """The smallest sets of rules which, switched in the first system to
        ``system_id``'s values, give ``system_id``'s outcome (empty where it ends alike)."""
        for a in self.result.attributions:
            if a.to_json()["other"] == system_id:
                return [list(s) for s in a.to_json()["minimal_sets"]]
        return []

    def __repr__(self) -> str:
        scenario = self.result.scenario
        results = self.result.results
        width = max(len(r.variant.id) for r in results)
        lines = [f"{scenario.id}: {scenario.model.title}, under {len(results)} systems"]
        for index, r in enumerate(results):
            mark = "*" if index and self.result.differs(index) else " "
            lines.append(f" {mark}{r.variant.id:<{width}}  {_line(r.data)}")
        for a in self.result.attributions:
            found = a.to_json()
            sets = " or ".join(" + ".join(s) for s in found["minimal_sets"]) or "not found"
            lines.append(f"{found['other']} differs from {found['base']} by: {sets}")
        return "\n".join(lines)

    def table(self) -> TidyTable:
        """A row per system and player: status, cave, ledger, net, carry."""
        return comparison_table([self.result])


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

    found = _scenario(scenario, scenarios)
    result = compare_scenario(found, _library(folder), _ids(systems), with_attribution=explain)
    return Comparison(result)


# -- simulation, sweeps, odds -----------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Simulation(_Tabular):
    """Simulated play of one or more systems; ``data`` holds ``simulate --json`` of each."""

    data: list[dict[str, Any]]

    def __repr__(self) -> str:
        first = self.data[0]
        lines = [
            f"simulate: {first['deals']:,} deals each, policy {first['policy']}, "
            f"seed {first['seed']}"
        ]
        for report in self.data:
            decided = report["decided_by"]
            shares = ", ".join(
                f"{k} {100 * v['rate']:.1f}%" for k, v in decided.items() if v["rate"]
            )
            pot = report["average_pot"]["mean"]
            lines.append(f"  {report['variant']}: decided by {shares}; average pot {pot:.2f}")
        return "\n".join(lines)

    def table(self) -> TidyTable:
        """A row per system and figure (see ``docs/data.md``)."""
        return simulation_table(self.data)


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

    check_run(deals, seed, jobs)  # the bounds of every run, before any system is read
    if not isinstance(policy, str):
        raise InputError(f"policy must be a policy's name, as 'simple', not {policy!r}")
    chosen = _ids(systems)
    if not chosen:
        raise InputError("systems: name at least one system, as 'foster' or ['foster', 'pagat']")
    library = _library(folder)
    reports = []
    for system_id in chosen:
        variant = library.get(system_id)
        tally = simulate_deals(variant, deals, seed, policy, jobs)
        reports.append(report(variant, tally, seed, policy))
    return Simulation(reports)


@dataclass(frozen=True, repr=False)
class Sweep(_Tabular):
    """A rule sweep: the same seeded deals under a base system and under it with rules
    changed; ``data`` is ``sweep --json``."""

    data: dict[str, Any]

    def __repr__(self) -> str:
        rows = self.data["rows"]
        combinations = sorted({r["combination"] for r in rows} - {"base"})
        policies = self.data["policies"]
        shown = ", ".join(combinations[:4]) + (", …" if len(combinations) > 4 else "")
        return (
            f"<Sweep of {self.data['base']}: {_count(len(combinations), 'combination')} "
            f"({shown}) × {_count(len(policies), 'policy', 'policies')} "
            f"({', '.join(policies)}), {self.data['deals']:,} deals each>"
        )

    def table(self) -> TidyTable:
        """A row per policy, combination and measure, with the difference from the base
        and its paired interval."""
        from .study.sweep_report import sweep_csv_rows

        return sweep_table(sweep_csv_rows(self.data))


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
    switched one at a time, or ``all_rules``."""
    from .study.policies import distinct_players
    from .study.sweep import run_sweep
    from .study.sweep_combinations import (
        Skipped,
        all_rule_combinations,
        towards_combinations,
        vary_combinations,
    )
    from .study.sweep_report import sweep_report
    from .study.workers import check_run

    vary, policies = _words(vary, "vary"), _words(policies, "policies")
    check_run(deals, seed, jobs)
    if not isinstance(all_rules, bool):
        raise InputError(f"all_rules must be True or False, not {all_rules!r}")
    if not policies:
        raise InputError("policies: name at least one policy, as ['simple']")
    policies = distinct_players(policies)
    library = _library(folder)
    chosen = library.get(_one(base))
    other = _one(towards) if towards is not None else None
    if all_rules and (vary or other is not None):
        raise InputError("all_rules varies every rule already: give it without vary or towards")
    if not vary and other is None and not all_rules:
        raise InputError("say what to change: vary=[RULE], towards=SYSTEM or all_rules=True")
    combinations = vary_combinations(chosen, list(vary))
    skipped: list[Skipped] = []
    if other is not None:
        switched, skipped = towards_combinations(chosen, library.get(other))
        combinations += switched
    if all_rules:
        combinations, skipped = all_rule_combinations(chosen)
    if not combinations:
        raise InputError(f"nothing to compare: every combination is {chosen.id} itself")
    tallies = run_sweep(chosen, combinations, list(policies), deals, seed, jobs=jobs)
    return Sweep(sweep_report(chosen, combinations, tallies, seed, skipped, other, all_rules))


@dataclass(frozen=True, repr=False)
class Odds(_Tabular):
    """Exact odds of the deal, per system; ``data`` is ``odds --json`` (a system whose
    odds cannot be counted exactly holds ``{"not_computed": why}``)."""

    data: dict[str, dict[str, Any]]

    def __repr__(self) -> str:
        lines = ["exact odds (a given player: simple brelan; the table: any brelan)"]
        for system_id, found in self.data.items():
            if "not_computed" in found:
                lines.append(f"  {system_id}: not counted exactly")
                continue
            player = found["player"]["simple_brelan"]["fraction"]
            table = found["table"]["brelan"]["fraction"]
            pack = 4 * len(found["pack"])
            lines.append(
                f"  {system_id}: {found['players']} players, {pack} cards: {player}; {table}"
            )
        return "\n".join(lines)

    def table(self) -> TidyTable:
        """A row per system and figure: numerator, denominator and decimal."""
        counted = {k: v for k, v in self.data.items() if "not_computed" not in v}
        return odds_table(counted)


def odds(
    systems: str | System | Sequence[str | System] | None = None, *, folder: Folders = None
) -> Odds:
    """Exact probabilities of brelans, carrés, favoris and the point for each system
    (default: every one), counted over every deal (``bouillotte odds``)."""
    from .study.odds import compute_odds, odds_key

    library = _library(folder)
    counted: dict[str, dict[str, Any]] = {}
    found: dict[str, dict[str, Any]] = {}
    for variant in library.select(_ids(systems)):
        key = odds_key(variant.rules)
        if key not in counted:
            try:
                counted[key] = compute_odds(variant.rules).to_json()
            except ValueError as exc:
                counted[key] = {"not_computed": str(exc)}
        found[variant.id] = counted[key]
    return Odds(found)


# -- the site's tables ------------------------------------------------------------------------


def matrix(
    systems: str | System | Sequence[str | System] | None = None,
    *,
    folder: Folders = None,
) -> TidyTable:
    """The rule matrix, long: a row per rule and system (value, standing, citation)."""
    from .site.tidydata import matrix_table

    return matrix_table(_library(folder).select(_ids(systems)))


def effects(system: str | System, towards: str | System, *, folder: Folders = None) -> TidyTable:
    """The stored rule effects of a pair of bundled systems (``bouillotte effects``,
    the pair pages' "What each rule does"), a row per policy, combination and measure;
    a :class:`UserError` where none are stored or they are stale."""
    from .site.tidydata import effects_table, stored_pair

    library = _library(folder)
    a, b = library.get(_one(system)), library.get(_one(towards))
    found = stored_pair(a, b)
    if found.stored.data is None:
        raise InputError(f"{found.stored.problem}: `{found.stored.fix}` regenerates them")
    return effects_table([found])
