"""What the Python API's functions give back (``bouillotte.api``): the rule systems
(:class:`System`, :class:`Systems`) and the results of a run, a comparison, a simulation,
a sweep and the exact odds.

Each prints as a short summary, keeps the command line's JSON in ``.data``, and gives its
tidy table with ``.table()``, a pandas DataFrame with ``.to_frame()`` and CSV with
``.to_csv()``. ``.data`` is a new copy at each reading: changing it changes nothing of the
result, whose summary, table and CSV stay those of what was played.
"""

from __future__ import annotations

import contextlib
import copy
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .api_args import PathLike, as_text, same_system
from .rules.errors import InputError
from .rules.nearest import did_you_mean
from .rules.variant import Variant
from .study.render import counted
from .study.tidy import (
    TidyTable,
    carried_in,
    comparison_table,
    odds_table,
    outcomes_table,
    simulation_table,
    sweep_table,
)


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


def _signed(n: int | None) -> str:
    return "-" if n is None else f"{n:+d}"


# -- systems ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class System(_Tabular):
    """One rule system: ``variant`` is the engine's :class:`~bouillotte.rules.variant.Variant`
    (its rules, their citations, ``new_deal()``)."""

    variant: Variant

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            made = f"system({self.variant!r})" if isinstance(self.variant, str) else "system(ID)"
            raise InputError(
                f"a System holds a Variant: write {made}, not System({type(self.variant).__name__})"
            )

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


class _UnknownSystem(InputError, KeyError):
    """An id that is none of the systems: a :class:`UserError`, and a ``KeyError`` as a
    mapping's would be."""


class _NoPosition(InputError, IndexError):
    """A position past the systems: a :class:`UserError`, and an ``IndexError`` as a
    sequence's would be (``index()`` and ``reversed()`` stop at it)."""


class _NotAKey(InputError, TypeError):
    """Neither a position nor an id: a :class:`UserError`, and a ``TypeError`` as a
    sequence's would be."""


class Systems(Sequence[System], _Tabular):
    """Several systems, in the library's order; index by position or by id (a
    :class:`UserError` names the systems there are)."""

    def __init__(self, items: Sequence[System]) -> None:
        self._items = list(items)
        odd = next((s for s in self._items if not isinstance(s, System)), None)
        if odd is not None:
            raise InputError(f"Systems holds System objects, not {type(odd).__name__}")

    @overload
    def __getitem__(self, key: int | str) -> System: ...
    @overload
    def __getitem__(self, key: slice) -> Systems: ...
    def __getitem__(self, key: int | str | slice) -> System | Systems:
        if isinstance(key, slice):
            return Systems(self._items[key])
        if isinstance(key, str):
            key = as_text(key)
            for item in self._items:
                if item.id == key:
                    return item
            raise _UnknownSystem(
                f"unknown system {key!r}{did_you_mean(key, self.ids)}; "
                f"known: {', '.join(self.ids) or 'none'}"
            )
        if not isinstance(key, bool) and not isinstance(key, int):
            with contextlib.suppress(TypeError):
                key = operator.index(key)  # numpy's integers, as deals= takes them
        if isinstance(key, bool) or not isinstance(key, int):
            raise _NotAKey(
                "a system is chosen by its position (a whole number) or its id, "
                f"not {type(key).__name__}",
                value=key,
                has_value=True,
            )
        if not -len(self) <= key < len(self):
            there = f"{len(self)} (0 to {len(self) - 1})" if self._items else "none"
            raise _NoPosition(
                f"no system at this position: there are {there}", value=key, has_value=True
            )
        return self._items[key]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[System]:
        return iter(self._items)

    def __contains__(self, key: object) -> bool:
        """An id (``"foster" in systems``, as ``systems["foster"]`` finds it) or a
        :class:`System`; a sequence's own ``in`` compared the id with each System."""
        if isinstance(key, str):
            return key in self.ids
        return key in self._items

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self._items]

    def __repr__(self) -> str:
        return f"<Systems ({len(self)}): {', '.join(self.ids)}>"

    def table(self) -> TidyTable:
        """A row per system: id, title, source, what it extends, players, pack."""
        from .study.tidy_lists import systems_table

        return systems_table(s.variant for s in self._items)


# -- scenarios: run and compare ---------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Run(_Tabular):
    """One scenario played under one system; ``data`` is ``bouillotte run --json``."""

    _data: dict[str, Any]

    @property
    def data(self) -> dict[str, Any]:
        """The command line's JSON, a new copy at each reading."""
        return copy.deepcopy(self._data)

    @property
    def status(self) -> str:
        return str(self._data["status"])

    @property
    def net(self) -> dict[str, int]:
        """Each player's whole change over the deal (empty for an illegal deal)."""
        return {p: int(f["net"]) for p, f in (self._data.get("players") or {}).items()}

    def __repr__(self) -> str:
        return f"<Run {self._data['scenario']} under {self._data['variant']}: {_line(self._data)}>"

    def table(self) -> TidyTable:
        """A row per player: status, cave, ledger, net, carry."""
        return outcomes_table([self._data], "run")


def _line(data: dict[str, Any]) -> str:
    """One result in a line: its status and each player's net, or the rule that refused."""
    if data["status"] == "illegal":
        error = data.get("error") or {}
        return f"illegal (step {error.get('step')} refused by {error.get('rule')})"
    nets = " ".join(f"{p} {_signed(f.get('net'))}" for p, f in data["players"].items())
    carry = f", carry {data['carry']}" if data.get("carry") else ""
    into = carried_in(data)
    played_on = f", on {into} carried in" if into else ""
    return f"{data['status']}: net {nets}{played_on}{carry}"


@dataclass(frozen=True, repr=False)
class Comparison(_Tabular):
    """One scenario under several systems side by side, with, for each system that ends
    differently from the first, the smallest sets of rules that explain it. ``data`` is
    ``bouillotte compare --json``; ``result`` the study's own object."""

    result: Any

    @property
    def data(self) -> dict[str, Any]:
        """The command line's JSON, a new copy at each reading (it shares nothing with the
        results the comparison holds)."""
        data: dict[str, Any] = copy.deepcopy(self.result.to_json())
        return data

    @property
    def systems(self) -> list[str]:
        return [r.variant.id for r in self.result.results]

    def explanation(self, system_id: str | System) -> list[list[str]]:
        """The smallest sets of rules which, switched in the first system to
        ``system_id``'s values, give ``system_id``'s outcome (empty where it ends alike);
        a :class:`UserError` for a system not compared."""
        compared = {r.variant.id: r.variant for r in self.result.results}
        named = ", ".join(compared)
        if not isinstance(system_id, str | System):
            raise InputError(
                f"a system is an id or a System, not {type(system_id).__name__}; "
                f"the systems compared: {named}"
            )
        if isinstance(system_id, System) and system_id.id in compared:
            same_system(system_id.id, compared[system_id.id], system_id.variant)
        system_id = system_id.id if isinstance(system_id, System) else as_text(system_id)
        if system_id not in compared:
            raise InputError(
                f"{system_id!r} is not among the systems compared: "
                f"{named}{did_you_mean(system_id, compared)}"
            )
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
        """A row per system and player: status, cave, ledger, net, carry, and the readings
        each system played in place of its own rules (empty for none)."""
        return comparison_table([self.result])


# -- simulation, sweeps, odds -----------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Simulation(_Tabular):
    """Simulated play of one or more systems; ``data`` holds ``simulate --json`` of each."""

    _data: list[dict[str, Any]]

    @property
    def data(self) -> list[dict[str, Any]]:
        """The command line's JSON, a new copy at each reading."""
        return copy.deepcopy(self._data)

    def __repr__(self) -> str:
        first = self._data[0]
        deals = counted(first["deals"], "deal")
        lines = [f"simulate: {deals} each, policy {first['policy']}, seed {first['seed']}"]
        for report in self._data:
            decided = report["decided_by"]
            shares = ", ".join(
                f"{k} {100 * v['rate']:.1f}%" for k, v in decided.items() if v["rate"]
            )
            pot = report["average_pot"]["mean"]
            by = report.get("played_by", report["policy"])
            played = "" if by == report["policy"] else f" (played by {by}: no strategy stored)"
            # every deal void: no pot was won, so none is averaged (the report's "-")
            average = "no pot won, every deal void" if pot is None else f"average pot {pot:.2f}"
            lines.append(f"  {report['variant']}{played}: decided by {shares}; {average}")
        return "\n".join(lines)

    def table(self) -> TidyTable:
        """A row per system and figure (see ``docs/data.md``)."""
        return simulation_table(self._data)


@dataclass(frozen=True, repr=False)
class Sweep(_Tabular):
    """A rule sweep: the same seeded deals under a base system and under it with rules
    changed; ``data`` is ``sweep --json``."""

    _data: dict[str, Any]

    @property
    def data(self) -> dict[str, Any]:
        """The command line's JSON, a new copy at each reading."""
        return copy.deepcopy(self._data)

    def __repr__(self) -> str:
        rows = self._data["rows"]
        combinations = sorted({r["combination"] for r in rows} - {"base"})
        policies = self._data["policies"]
        shown = ", ".join(combinations[:4]) + (", …" if len(combinations) > 4 else "")
        return (
            f"<Sweep of {self._data['base']}: {counted(len(combinations), 'combination')} "
            f"({shown}) × {counted(len(policies), 'policy', 'policies')} "
            f"({', '.join(policies)}), {counted(self._data['deals'], 'deal')} each>"
        )

    def table(self) -> TidyTable:
        """A row per policy, combination and measure, with the difference from the base
        and its paired interval."""
        from .study.sweep_report import sweep_csv_rows

        return sweep_table(sweep_csv_rows(self._data))


@dataclass(frozen=True, repr=False)
class Odds(_Tabular):
    """Exact odds of the deal, per system; ``data`` is ``odds --json`` (a system whose
    odds cannot be counted exactly holds ``{"not_computed": why}``)."""

    _data: dict[str, dict[str, Any]]

    @property
    def data(self) -> dict[str, dict[str, Any]]:
        """The command line's JSON, a new copy at each reading."""
        return copy.deepcopy(self._data)

    def __repr__(self) -> str:
        lines = ["exact odds (a given player: simple brelan; the table: any brelan)"]
        for system_id, found in self._data.items():
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
        exact = {k: v for k, v in self._data.items() if "not_computed" not in v}
        return odds_table(exact)
