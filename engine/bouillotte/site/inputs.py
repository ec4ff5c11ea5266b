"""What every page is made from: the profiles read and every scenario played under them
(each play and attribution read from the build cache when it holds them)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..rules.errors import InputError
from ..rules.profiles import Library
from ..rules.resources import bundled
from ..rules.variant import Variant, differing_rules
from ..rules.writing import reason
from ..study.attribution import (
    SITE_WAYS_LIMIT,
    Attribution,
    Direction,
    PlayCache,
    attribute,
    sides,
    signature,
)
from ..study.check import Mismatch
from ..study.compare import Comparison
from ..study.render import counted
from ..study.replay import Step
from ..study.scenario import RunResult, Scenario, ScenarioLibrary, run_scenario
from ..study.workers import end_with_parent, worker_lost
from . import rules as rule_views
from .cache import cached, fingerprint_digest
from .effects import effects_are_cached, rule_effects_section
from .names import Names
from .output import release_inherited_locks
from .page import Log, quiet
from .stats import (
    StatSection,
    simulate_section,
    simulation_is_cached,
)


@dataclass(frozen=True)
class Inputs:
    library: Library
    variants: list[Variant]
    comparisons: list[Comparison]
    unplayable: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Per scenario id: the variants it cannot be played under, with the reason."""
    bundled: bool = True
    """Whether the bundled profiles, scenarios and glossary are part of the site."""
    statistics: Statistics | None = None
    """The statistics page's simulation, started early (``None``: started when needed)."""
    mismatches: dict[str, list[Mismatch]] = field(default_factory=dict)
    """Per scenario id: where its deal does not end as its ``expect`` says (a build with
    ``--allow-mismatch``; any other build refuses them)."""
    pairs: dict[tuple[str, str, str], Attribution] = field(default_factory=dict)
    """Why two systems' outcomes differ in a scenario, by scenario id and both ids (the
    first before the second in the systems' order)."""

    @cached_property
    def names(self) -> Names:
        """What readers call each system and work (``names.py``)."""
        return Names.of(self.variants, self.library.works)


def _second_process(parent: int) -> None:
    """The start of the statistics' second process: without the build's lock, ended with
    the build (a build killed outright left it waiting, holding the lock), and deaf to
    Ctrl-C, as ``simulate --jobs``'s workers are: the build itself says ``interrupted`` and
    ends it (:meth:`Statistics.close`), where the terminal's Ctrl-C, sent to both, once
    printed its traceback."""
    release_inherited_locks()
    end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Statistics:
    """The statistics page's simulated play and rule sweep. When the cache lacks them they
    are started in a second process as soon as the profiles are read, so that they run
    while this process plays the scenarios, counts the odds and builds the other pages;
    with everything cached (or no second process to be had) they are read here."""

    def __init__(self, variants: list[Variant], log: Log) -> None:
        self.variants = variants
        self.pool: ProcessPoolExecutor | None = None
        self.futures: tuple[Future[StatSection], Future[StatSection]] | None = None
        if simulation_is_cached(variants) and effects_are_cached(variants):
            return
        try:
            self.pool = ProcessPoolExecutor(
                max_workers=1, initializer=_second_process, initargs=(os.getpid(),)
            )
        except (OSError, NotImplementedError):  # no processes here: simulate in this one
            return
        try:
            simulated = self.pool.submit(simulate_section, variants, quiet)
            effects = self.pool.submit(rule_effects_section, variants, quiet)
        except OSError as exc:
            # The process is started by the first submit: too few descriptors for its
            # pipes (ulimit -n), or no process to be had. Simulated here, as with fewer
            # descriptors still, when the pool itself could not be made.
            self._end_at_once()
            log(f"  no second process, simulating in this one: {reason(exc)}")
            return
        log("  simulating in a second process")
        self.futures = (simulated, effects)

    def sections(self, log: Log) -> tuple[StatSection, StatSection]:
        """The simulated play and the rule effects, waiting for the second process."""
        if self.futures is None:
            return simulate_section(self.variants, log), rule_effects_section(self.variants, log)
        simulated, effects = self.futures
        try:
            return simulated.result(), effects.result()
        except BrokenProcessPool:  # the second process killed (kill -9, out of memory)
            assert self.pool is not None
            raise worker_lost(self.pool) from None

    def close(self) -> None:
        """End the second process: at once if its work is left unread (the build failed or
        was interrupted), else once it has finished."""
        if self.pool is None:
            return
        if self.futures is not None and not all(f.done() for f in self.futures):
            self._end_at_once()
            return
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None

    def _end_at_once(self) -> None:
        """End the second process without waiting for its work."""
        assert self.pool is not None
        processes: dict[int, Any] = getattr(self.pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None


def collect(
    variant_dirs: Sequence[Path],
    scenario_paths: Sequence[Path],
    log: Log,
    include_bundled: bool = True,
    *,
    early_statistics: bool = False,
) -> Inputs:
    """Read the profiles and play every scenario under them. ``early_statistics``: start
    the statistics page's simulation as soon as the profiles are read (the caller closes
    ``Inputs.statistics``)."""
    log("reading the variant profiles")
    library = Library(list(variant_dirs), include_bundled=include_bundled)
    variants = rule_views.system_order(library.all())
    log(f"  {counted(len(variants), 'variant')}")
    statistics = Statistics(variants, log) if early_statistics else None
    try:
        log("reading the scenarios")
        scenarios = ScenarioLibrary(list(scenario_paths), include_bundled=include_bundled).all()
        comparisons = []
        unplayable: dict[str, list[tuple[str, str]]] = {}
        roots = [bundled("scenarios"), bundled("variants"), *scenario_paths, *variant_dirs]
        known = _Known({v.id: fingerprint_digest(v) for v in variants})
        for scenario in sorted(scenarios, key=lambda s: s.id):
            log(f"  playing {scenario.id} under every variant")
            comparison, failed = _compare(scenario, library, log, roots, known)
            comparisons.append(comparison)
            if failed:
                unplayable[scenario.id] = failed
    except BaseException:
        if statistics is not None:
            statistics.close()
        raise
    return Inputs(
        library,
        variants,
        comparisons,
        unplayable,
        include_bundled,
        statistics=statistics,
        pairs=known.pairs,
    )


def _shown(file: str | None, roots: Sequence[Path]) -> str | None:
    """An input file as the site names it: from the folder given (``mine/deal.yaml``), so
    that a build never publishes where the files stand on the builder's machine, and is the
    same whether the folder was given by a relative or an absolute path."""
    if file is None:
        return None
    path = Path(os.path.abspath(file))
    for root in roots:
        base = Path(os.path.abspath(root))
        if path == base:
            return base.name
        if base in path.parents:
            return (Path(base.name) / path.relative_to(base)).as_posix()
    return path.name


def _compare(
    scenario: Scenario,
    library: Library,
    log: Log,
    roots: Sequence[Path] = (),
    known: _Known | None = None,
) -> tuple[Comparison, list[tuple[str, str]]]:
    """Compare under every variant; a variant the scenario cannot be played under (its
    actions do not fit that system's deal) is left out, named, and its reason shown."""
    order = {v.id: n for n, v in enumerate(rule_views.system_order(library.all()))}
    try:
        ids = sorted(scenario.variant_ids(library), key=lambda v: order.get(v, len(order)))
        return _compared(scenario, library, ids, known), []
    except InputError:
        ids = sorted(scenario.variant_ids(library), key=lambda v: order.get(v, len(order)))
        playable, failed = [], []
        for variant_id in ids:
            try:
                run_scenario(scenario, library.get(variant_id))
                playable.append(variant_id)
            except InputError as exc:
                exc.file = _shown(exc.file, roots)
                failed.append((variant_id, exc.describe()))
        if not failed:
            raise
        for variant_id, reason in failed:
            log(f"  warning: {scenario.id} cannot be played under {variant_id}: {reason}")
        if not playable:
            return Comparison(scenario, [], []), failed
        return _compared(scenario, library, playable, known), failed


def _compared(
    scenario: Scenario, library: Library, ids: Sequence[str], known: _Known | None
) -> Comparison:
    """``compare``, with each attribution (hundreds of replays under changed rules) read
    from the build cache when it holds it. ``known``: what the whole build shares."""
    known = known if known is not None else _Known()
    told = json.dumps(scenario.model.model_dump(mode="json"), sort_keys=True)
    story = hashlib.sha256(told.encode()).hexdigest()
    results = [_played(scenario, story, library.get(v), known) for v in ids]
    outcomes = [signature(r.data) for r in results]
    plays = PlayCache(scenario)
    # Every pair that ends differently, in the systems' order: the scenario page shows the
    # first system's, each pair page its own, all from the one function.
    for i, base in enumerate(results):
        for j in range(i + 1, len(results)):
            if outcomes[j] != outcomes[i]:
                made = _attribution(scenario, story, base, results[j], known, plays)
                known.pairs[scenario.id, base.variant.id, results[j].variant.id] = made
    attributions = [
        known.pairs[scenario.id, results[0].variant.id, other.variant.id]
        for n, other in enumerate(results[1:], start=1)
        if outcomes[n] != outcomes[0]
    ]
    return Comparison(scenario, results, attributions)


def _played(scenario: Scenario, story: str, variant: Variant, known: _Known) -> RunResult:
    """``run_scenario``, read from the build cache when it holds it: the result is always
    the one its JSON gives back, whether just played or read, so the pages are the same
    either way. A scenario its variant refuses as bad input raises, as before, and is
    never stored. ``story``: a hash of the scenario as loaded."""

    def play() -> dict[str, Any]:
        result = run_scenario(scenario, variant)
        return {"data": result.data, "steps": [asdict(step) for step in result.steps]}

    found = cached("run", {"scenario": story, "variant": known.print_of(variant)}, play)
    _, path = scenario.actions_for(variant.id)
    steps = [Step(**step) for step in found["steps"]]
    return RunResult(scenario, variant, found["data"], steps, path)


def _attribution(
    scenario: Scenario,
    story: str,
    base: RunResult,
    other: RunResult,
    known: _Known,
    plays: PlayCache | None = None,
) -> Attribution:
    """``attribute``, read from the build cache when it holds it (and made once a build:
    the scenario page and the pair page of the same two systems share it)."""
    a, b = base.variant, other.variant
    key = (story, known.print_of(a), known.print_of(b))
    if key in known.attributions:
        return known.attributions[key]

    def found() -> dict[str, Any]:
        made = attribute(scenario, base, other, SITE_WAYS_LIMIT, plays)
        assert made.towards is not None and made.back is not None
        return {
            "responsible": made.responsible,
            "reproduces": made.reproduces,
            "towards": made.towards.to_json(b.id, a.id),
            "back": made.back.to_json(a.id, b.id),
        }

    inputs = {"scenario": story, "base": key[1], "other": key[2], "ways": SITE_WAYS_LIMIT}
    sets = cached("attribution", inputs, found)
    differing, provenance, sentences = known.between(a, b)
    made = Attribution(
        a.id,
        b.id,
        differing,
        sets["responsible"],
        sets["reproduces"],
        provenance,
        Direction.from_json(sets["towards"]),
        Direction.from_json(sets["back"]),
        sentences,
    )
    known.attributions[key] = made
    return made


_Differences = tuple[list[str], dict[str, dict[str, Any]], dict[str, dict[str, str]]]


@dataclass
class _Known:
    """What the build works out once and every scenario reuses."""

    prints: dict[str, str] = field(default_factory=dict)
    """Each system's ``cache.fingerprint_digest``, by id."""
    differences: dict[tuple[str, str], _Differences] = field(default_factory=dict)
    """For a pair of systems: the rules on which they differ, each with how each source
    stands behind it and its sentence (only read, so one copy serves every scenario of the
    pair)."""
    attributions: dict[tuple[str, str, str], Attribution] = field(default_factory=dict)
    """Each attribution made, by the scenario's hash and both systems' prints."""
    mismatches: dict[str, list[Mismatch]] = field(default_factory=dict)
    """Per scenario id: where its deal does not end as its ``expect`` says (a build with
    ``--allow-mismatch``; any other build refuses them)."""
    pairs: dict[tuple[str, str, str], Attribution] = field(default_factory=dict)
    """Each pair's attribution in each scenario, by scenario id and both systems' ids."""

    def print_of(self, variant: Variant) -> str:
        if variant.id not in self.prints:
            self.prints[variant.id] = fingerprint_digest(variant)
        return self.prints[variant.id]

    def between(self, a: Variant, b: Variant) -> _Differences:
        if (a.id, b.id) not in self.differences:
            differing = differing_rules(a, b)
            provenance, sentences = sides(a, b, differing)
            self.differences[a.id, b.id] = (differing, provenance, sentences)
        return self.differences[a.id, b.id]
