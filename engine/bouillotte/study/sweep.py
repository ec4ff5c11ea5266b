"""What one rule does over many deals: a base variant against the same variant with rules
changed, every combination played on the SAME seeded deals.

Deal ``i`` is dealt from the stream of (``S``, ``i``) whatever the rules, void deals played
on (:func:`simulate.play_one`), so each combination sees the same cards as the base and
its players draw from the same generator: the difference between a combination and the
base, deal by deal, is what the rule (and the players' response to it) does, not dealing
noise ("common random numbers").
A rule that cannot change a deal gives a difference of exactly zero, with a zero interval.

Every count is an integer sum (of each per-deal value, its square, and of each per-deal
difference from the base and its square), so the tallies of seed ranges merge in any order
into exactly the same numbers: one process, ``--jobs`` worker processes and a Dask cluster
give identical results for the same seeds. Only the reported rates, means and intervals are
floats: Wilson intervals for a combination's rates, normal intervals for its means, and a
normal interval on the mean of the paired per-deal differences for every difference.
"""

from __future__ import annotations

import itertools
import logging
import math
import socket
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, get_args, get_origin
from urllib.parse import urlsplit

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..rules.errors import InputError
from ..rules.nearest import did_you_mean
from ..rules.profile import GROUPS, rule_paths
from ..rules.variant import Variant, differing_rules
from .differences import SESSION_RULES
from .policies import Policy, get_policy
from .render import value_text
from .simulate import (
    CLASSES,
    Z95,
    Played,
    decided_by,
    play_one,
    player_names,
    wilson,
    worker_pool,
)

BRELAN_KINDS = ("carré", "brelan", "favori", "mistigri")


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    kind: Literal["rate", "mean"]


def metrics_for(players: int) -> list[Metric]:
    """What is measured on every deal, in report order."""
    rates = [Metric(f"decided_by.{c}", f"decided by {c}", "rate") for c in CLASSES]
    rates.insert(
        CLASSES.index("point"), Metric("decided_by.any_brelan", "decided by a brelan", "rate")
    )
    means = [
        Metric("pool", "pool awarded per deal (void = 0)", "mean"),
        Metric("bonus_flow", "counters paid for brelans per deal", "mean"),
        Metric("carried", "counters still carried after the deals played on a void pool", "mean"),
    ]
    seats = [
        Metric(
            f"seat_net.{p}",
            "net per deal: dealer" if p == players else f"net per deal: seat {p}",
            "mean",
        )
        for p in range(1, players + 1)
    ]
    return rates + means + seats


POOL_AT = len(CLASSES) + 1
"""Where the pool stands among a deal's measures (after the rates)."""


def deal_values(played: Played) -> list[int]:
    """One deal's measures, in the order of :func:`metrics_for`: what decided deal ``i``,
    its pool and bonuses; each seat's net over it and the deals played on its pool."""
    deal = played.first
    decided, _ = decided_by(deal)
    values = [int(decided == c) for c in CLASSES]
    values.insert(CLASSES.index("point"), int(decided in BRELAN_KINDS))
    outcome = deal.outcome
    pool = sum(p.amount for p in outcome.pots) if outcome.status != "void" else 0
    values.append(pool)
    values.append(sum(b.amount for b in outcome.bonuses))
    values.append(played.carried)
    values.extend(played.net)
    return values


@dataclass
class SweepTally:
    """Integer sums over a range of deals, for every combination (index 0 is the base)."""

    deals: int = 0
    sums: list[list[int]] = field(default_factory=list)
    squares: list[list[int]] = field(default_factory=list)
    diff_sums: list[list[int]] = field(default_factory=list)
    diff_squares: list[list[int]] = field(default_factory=list)
    pool_powers: list[list[int]] = field(default_factory=list)
    """Sums of the pool to the powers 1 to 4, for the spread's interval."""
    came_into_play: list[int] = field(default_factory=list)
    """For each combination, the deals in which its rules came into play: something
    offered to a player, an action taken or a measure differs from the base's deal."""

    @classmethod
    def empty(cls, combinations: int, metrics: int) -> SweepTally:
        def grid(width: int) -> list[list[int]]:
            return [[0] * width for _ in range(combinations)]

        return cls(
            0,
            grid(metrics),
            grid(metrics),
            grid(metrics),
            grid(metrics),
            grid(4),
            [0] * combinations,
        )

    def merge(self, other: SweepTally) -> None:
        self.deals += other.deals
        for c, count in enumerate(other.came_into_play):
            self.came_into_play[c] += count
        for mine, theirs in (
            (self.sums, other.sums),
            (self.squares, other.squares),
            (self.diff_sums, other.diff_sums),
            (self.diff_squares, other.diff_squares),
            (self.pool_powers, other.pool_powers),
        ):
            for row, add in zip(mine, theirs, strict=True):
                for k, value in enumerate(add):
                    row[k] += value


def sweep_range(
    variants: Sequence[Variant], policy_name: str, seed: int, start: int, stop: int
) -> SweepTally:
    """Deals ``start`` to ``stop - 1``, each played under every variant (the first is the
    base) with the same cards and the same policy generator."""
    names = player_names(variants[0].players)
    policy: Policy = get_policy(policy_name)
    width = len(metrics_for(len(names)))
    tally = SweepTally.empty(len(variants), width)
    for i in range(start, stop):
        tally.deals += 1
        base: list[int] = []
        base_traces: list[list[Any]] = []
        for c, variant in enumerate(variants):
            traces: list[list[Any]] = []
            values = deal_values(play_one(variant, policy, names, seed, i, traces))
            if c == 0:
                base, base_traces = values, traces
            elif values != base or traces != base_traces:
                # The rule changed an offered choice, an action or an outcome.
                tally.came_into_play[c] += 1
            sums, squares = tally.sums[c], tally.squares[c]
            dsums, dsquares = tally.diff_sums[c], tally.diff_squares[c]
            for k, value in enumerate(values):
                sums[k] += value
                squares[k] += value * value
                d = value - base[k]
                dsums[k] += d
                dsquares[k] += d * d
            pool = values[POOL_AT]
            powers = tally.pool_powers[c]
            powers[0] += pool
            powers[1] += pool**2
            powers[2] += pool**3
            powers[3] += pool**4
    return tally


def _sweep_task(task: tuple[list[Variant], str, int, int, int]) -> SweepTally:
    return sweep_range(*task)


# --- combinations -------------------------------------------------------------------------


@dataclass(frozen=True)
class Combination:
    """The base with some rules changed, or a change pydantic refuses (``error``)."""

    label: str
    changes: dict[str, str]
    """Each changed rule with its new value, as text."""
    variant: Variant | None
    error: str | None = None
    rules: tuple[dict[str, str], ...] = ()
    """Each changed rule in words: its value under the base and its new value, each with
    the standing of the system it is from (``documented``, ``inferred``, ``inherited from
    foster — pagat is silent``), where it is from a system."""


@dataclass(frozen=True)
class Skipped:
    rule: str
    reason: str


def _annotation(path: str) -> Any:
    """The type of a rule (``group.field``) or of a part of one (``bonuses.carre.amount``)."""
    parts = path.split(".")
    group_names = list(GROUPS)
    if len(parts) not in (2, 3) or parts[0] not in GROUPS:
        raise InputError(
            f"unknown rule {path!r}{did_you_mean(path, rule_paths())}: "
            "a rule is group.field, the groups being " + ", ".join(group_names),
            field="--vary",
        )
    model: type[BaseModel] | None = GROUPS[parts[0]]
    prefix = parts[0]
    annotation: Any = None
    for part in parts[1:]:
        if model is None or part not in model.model_fields:
            fields = ", ".join(f"{prefix}.{f}" for f in (model.model_fields if model else []))
            raise InputError(
                f"unknown rule {path!r}{did_you_mean(path, rule_paths())}: {prefix} has "
                + (fields or "no parts"),
                field="--vary",
            )
        annotation = model.model_fields[part].annotation
        prefix = f"{prefix}.{part}"
        nested = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        model = annotation if nested else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields = ", ".join(f"{path}.{f}" for f in annotation.model_fields)
        raise InputError(f"{path!r} has parts; vary one of them: {fields}", field="--vary")
    return annotation


def _constraints(path: str) -> list[Any]:
    """The bounds a profile sets on the value of ``path`` (``ge=0``...), already known to
    name a rule or a part of one (:func:`_annotation`)."""
    parts = path.split(".")
    model: Any = GROUPS[parts[0]]
    metadata: list[Any] = []
    for part in parts[1:]:
        info = model.model_fields[part]
        metadata = list(info.metadata)
        model = info.annotation
    return metadata


def _choices(annotation: Any) -> list[Any] | None:
    """Every value a rule can take, when there are finitely many."""
    if annotation is bool:
        return [False, True]
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return None


def _describe_type(annotation: Any) -> str:
    choices = _choices(annotation)
    if choices is not None:
        return ", ".join(value_text(c) for c in choices)
    options = (
        get_args(annotation)
        if get_origin(annotation) in (types.UnionType, typing.Union)
        else (annotation,)
    )
    words = []
    for option in options:
        if option is int:
            words.append("a whole number")
        elif option is type(None):
            words.append("none")
        elif get_origin(option) is Literal:
            words.extend(str(a) for a in get_args(option))
    return " or ".join(words) or str(annotation)


def parse_vary(spec: str) -> tuple[str, list[Any]]:
    """``RULE`` (every value of a rule with finitely many) or ``RULE=v1,v2``."""
    path, _, given = spec.partition("=")
    path = path.strip()
    annotation = _annotation(path)
    if not given:
        choices = _choices(annotation)
        if choices is None:
            raise InputError(
                f"{path} takes {_describe_type(annotation)}: give the values to try, "
                f"as in --vary {path}=5,10",
                field="--vary",
            )
        return path, choices
    bounds = _constraints(path)
    # Checked as a profile checks it: the type, and the field's bounds (a bonus is never
    # negative).
    adapter: TypeAdapter[Any] = TypeAdapter(
        Annotated[annotation, *bounds] if bounds else annotation
    )
    values = []
    for text in given.split(","):
        text = text.strip()
        try:
            values.append(_validate(adapter, text))
        except ValidationError as exc:
            reason = "; ".join(e["msg"] for e in exc.errors() if e["type"] != "int_parsing")
            raise InputError(
                f"{path} cannot be {text!r}; it takes {_describe_type(annotation)}"
                + (f" ({reason[:1].lower()}{reason[1:]})" if reason else ""),
                field="--vary",
            ) from None
    return path, values


def _validate(adapter: TypeAdapter[Any], text: str) -> Any:
    try:
        return adapter.validate_python(text)
    except ValidationError:
        if text != "none":
            raise
        return adapter.validate_python(None)


def _apply(base: Variant, changes: dict[str, Any], label: str) -> Combination:
    shown = {path: value_text(value) for path, value in changes.items()}
    by_rule: dict[str, Any] = {}
    for path, value in changes.items():
        parts = path.split(".")
        if len(parts) == 3:
            rule = ".".join(parts[:2])
            current = by_rule.get(rule, base.value(rule))
            by_rule[rule] = current.model_copy(update={parts[2]: value})
        else:
            by_rule[path] = value
    try:
        variant = base.with_values(by_rule, label=label)
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        return Combination(label, shown, None, f"not a valid system: {reasons}")
    if variant.players != base.players:
        return Combination(
            label, shown, None, "changes the number of players: the deals cannot be the same"
        )
    return Combination(label, shown, variant)


def _current(base: Variant, path: str) -> Any:
    parts = path.split(".")
    value = base.value(".".join(parts[:2]))
    return getattr(value, parts[2]) if len(parts) == 3 else value


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def _parts_that_differ(path: str, mine: Any, theirs: Any) -> dict[str, Any]:
    """A rule made of parts (a bonus) as the parts that differ: ``bonuses.carre.amount``."""
    if isinstance(theirs, BaseModel) and type(mine) is type(theirs):
        return {
            f"{path}.{name}": getattr(theirs, name)
            for name in type(theirs).model_fields
            if _plain(getattr(mine, name)) != _plain(getattr(theirs, name))
        }
    return {path: theirs}


def words(value: Any) -> str:
    """A rule's value in words: ``the-whole-pot`` as ``the whole pot``."""
    return value_text(value).replace("-", " ")


def _standing(variant: Variant, rule: str) -> str:
    try:
        return variant.provenance(rule).label
    except KeyError:
        return "not a rule of the profile"


def _in_words(
    base: Variant, changes: dict[str, Any], other: Variant | None
) -> tuple[dict[str, str], ...]:
    """Each changed rule: the two values in words, and both systems' standing."""
    described = []
    for path, value in changes.items():
        rule = ".".join(path.split(".")[:2])
        described.append(
            {
                "rule": path,
                "from": words(_current(base, path)),
                "from_system": base.id,
                "from_standing": _standing(base, rule),
                "to": words(value),
                "to_system": other.id if other is not None else "--vary",
                "to_standing": _standing(other, rule) if other is not None else "varied",
            }
        )
    return tuple(described)


def _label(changes: dict[str, Any]) -> str:
    return ", ".join(f"{p}={value_text(v)}" for p, v in changes.items())


def vary_combinations(base: Variant, specs: Sequence[str]) -> list[Combination]:
    """The product of every ``--vary``'s values, without the base's own combination."""
    parsed = [parse_vary(s) for s in specs]
    paths = [p for p, _ in parsed]
    if len(set(paths)) != len(paths):
        raise InputError("the same rule is given to --vary twice", field="--vary")
    combinations = []
    for values in itertools.product(*(v for _, v in parsed)):
        changes = dict(zip(paths, values, strict=True))
        if all(_plain(_current(base, p)) == _plain(v) for p, v in changes.items()):
            continue
        made = _apply(base, changes, _label(changes))
        combinations.append(replace(made, rules=_in_words(base, changes, None)))
    return combinations


NO_MISDEAL = "no simulated deal is misdealt (no card is exposed), so it cannot act"


def towards_combinations(base: Variant, other: Variant) -> tuple[list[Combination], list[Skipped]]:
    """Each rule on which ``base`` differs from ``other`` switched alone, then all of them
    together; rules that act between deals (and misdeal rules) are skipped, with why."""
    combinations: list[Combination] = []
    skipped: list[Skipped] = []
    switched: dict[str, Any] = {}
    for path in differing_rules(base, other):
        if path in SESSION_RULES:
            skipped.append(Skipped(path, "acts between deals (see `bouillotte session`)"))
            continue
        if path.startswith("misdeals."):
            skipped.append(Skipped(path, NO_MISDEAL))
            continue
        changes = _parts_that_differ(path, base.value(path), other.value(path))
        switched |= changes
        made = _apply(base, changes, _label(changes))
        combinations.append(replace(made, rules=_in_words(base, changes, other)))
    if len(switched) > 1:
        combined = _apply(base, switched, f"all {len(combinations)} rules of {other.id}")
        combinations.append(Combination(combined.label, {}, combined.variant, combined.error))
    return combinations, skipped


# --- running ------------------------------------------------------------------------------


TASK_DEALS = (50, 1000)
"""The fewest and the most deals in one task (one seed range): a task of a few
milliseconds' overhead at the least, and a bounded one, so that a cluster gets many more
tasks than it has workers (a worker that joins late, or one that is lost, costs at most
one task's work) and the progress moves."""


def chunks(deals: int, parts: int) -> list[tuple[int, int]]:
    """Seed ranges: about 25 per part (worker), of :data:`TASK_DEALS` deals, for a steady
    progress line and an even spread of work. The tallies of any cut merge into the same
    numbers, so the result does not depend on it."""
    fewest, most = TASK_DEALS
    size = min(most, max(fewest, math.ceil(deals / (max(parts, 1) * 25))))
    return [(start, min(start + size, deals)) for start in range(0, deals, size)]


def run_sweep(
    base: Variant,
    combinations: Sequence[Combination],
    policies: Sequence[str],
    deals: int,
    seed: int,
    jobs: int = 1,
    client: Any = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, SweepTally]:
    """Every valid combination against the base under each policy, on deals ``0`` to
    ``deals - 1`` of seed ``seed``; worker processes (``jobs``) or a Dask ``client``
    share the seed ranges, with the same result as one process. ``progress`` is called
    with the number of deals done (each under every combination)."""
    for name in policies:
        get_policy(name)  # an unknown policy is an input error before any work starts
    variants = [base, *(c.variant for c in combinations if c.variant is not None)]
    width = len(metrics_for(base.players))
    totals = {name: SweepTally.empty(len(variants), width) for name in policies}
    ranges = chunks(deals, jobs if client is None else _workers(client))
    tasks = [(variants, name, seed, start, stop) for name in policies for start, stop in ranges]

    def add(task: tuple[list[Variant], str, int, int, int], tally: SweepTally) -> None:
        totals[task[1]].merge(tally)
        if progress:
            progress(task[4] - task[3])

    if client is not None:
        for task, tally in _dask_results(client, tasks):
            add(task, tally)
    elif jobs <= 1:
        for task in tasks:
            add(task, _sweep_task(task))
    else:
        with worker_pool(jobs) as pool:
            for task, tally in zip(tasks, pool.imap(_sweep_task, tasks), strict=True):
                add(task, tally)
    return totals


CLUSTER_HINT = 'pip install "bouillotte[cluster]"  (Dask distributed)'


def dask_client(address: str, workers: int) -> Any:
    """A Dask client: ``local`` starts a LocalCluster of ``workers`` processes, anything
    else is a scheduler's address (``tcp://host:8786``), tried before Dask is even
    imported."""
    if address != "local":
        _probe(address)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            f"--cluster needs Dask, which is not installed: {CLUSTER_HINT}",
            field="--cluster",
        ) from None
    if address == "local":
        cluster = LocalCluster(  # type: ignore[no-untyped-call, unused-ignore]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        return Client(cluster)  # type: ignore[no-untyped-call, unused-ignore]
    try:
        return Client(address, timeout="10s")  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(
            f"cannot reach the Dask scheduler: {exc}",
            field="--cluster",
            value=address,
            has_value=True,
        ) from None


PROBE_SECONDS = 3.0
"""How long a scheduler's port is given to answer before Dask is asked to connect."""


def _probe(address: str) -> None:
    """Fail at once where nothing listens at a TCP scheduler's address (a refused port, an
    unknown host), rather than after Dask's ten-second connection timeout."""
    parsed = urlsplit(address if "://" in address else f"tcp://{address}")
    if parsed.scheme not in ("tcp", "tls"):
        return  # another transport: Dask alone knows how to reach it
    try:
        host, port = parsed.hostname, parsed.port
    except ValueError:
        host, port = None, None
    if not host or port is None:
        raise InputError(
            "a scheduler's address is tcp://host:port (as tcp://127.0.0.1:8786), or 'local'",
            field="--cluster",
            value=address,
            has_value=True,
        )
    try:
        socket.create_connection((host, port), timeout=PROBE_SECONDS).close()
    except OSError as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise InputError(
            f"cannot reach the Dask scheduler: {reason}",
            field="--cluster",
            value=address,
            has_value=True,
        ) from None


def close_client(client: Any) -> None:
    """Close the client (and its LocalCluster), without Dask's log: where the scheduler
    went away, closing ends the client's attempts to reach it, which Dask would log with
    their traceback after the one line that said it all."""
    cluster = getattr(client, "cluster", None)
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.client")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        client.close()
        if cluster is not None:
            cluster.close()
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _workers(client: Any) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:
        return 1


RETRIES = 3
"""How often a task whose input was lost with a worker is sent again before the sweep fails."""


def _dask_results(
    client: Any, tasks: list[tuple[list[Variant], str, int, int, int]]
) -> Iterator[tuple[tuple[list[Variant], str, int, int, int], SweepTally]]:
    """Each task's tally as the cluster finishes it (the progress moves with the futures).
    A task lost with its worker is run again by the scheduler on another worker, from the
    same seeds, so the result is unchanged; a tally once read is released. A scheduler
    that goes away ends the sweep with one line; on Ctrl-C or any error the tasks still
    queued are cancelled."""
    from concurrent.futures import CancelledError

    from distributed import as_completed

    generation = 0  # the scatter of the variants that the tasks now read
    variants = client.scatter([tasks[0][0]], broadcast=True)[0] if tasks else None

    def submit(task: tuple[list[Variant], str, int, int, int]) -> Any:
        _, name, seed, start, stop = task
        return client.submit(sweep_range, variants, name, seed, start, stop, pure=False)

    futures = {submit(task): (task, generation, 0) for task in tasks}
    pending = as_completed(futures)  # type: ignore[no-untyped-call, unused-ignore]
    done, gone = 0, False
    try:
        for future in pending:
            task, made_from, tries = futures.pop(future)
            try:
                tally = future.result()
            except ImportError as exc:
                raise InputError(
                    f"a Dask worker cannot import bouillotte ({exc}): install the same "
                    "bouillotte on every worker",
                    field="--cluster",
                ) from None
            except (CancelledError, OSError):
                # The client cancels every future as it loses the scheduler, and fetching
                # a finished task's tally fails if the scheduler goes meanwhile; the task's
                # own error is something else. A task cancelled while the scheduler is
                # there lost its input with a worker (the variants scattered to it): it is
                # sent again, with the variants scattered anew, at most RETRIES times.
                cancelled = future.status == "cancelled" and client.status == "running"
                if future.status == "error" or (cancelled and tries >= RETRIES):
                    raise
                if cancelled:
                    if made_from == generation:
                        generation += 1
                        variants = client.scatter([task[0]], broadcast=True)[0]
                    again = submit(task)
                    futures[again] = (task, generation, tries + 1)
                    pending.add(again)  # type: ignore[no-untyped-call, unused-ignore]
                    continue
                gone = True
                raise InputError(
                    f"the Dask scheduler went away after {done} of {len(tasks)} tasks of "
                    "the sweep: restart the scheduler and its workers, then run the sweep again",
                    field="--cluster",
                ) from None
            done += 1
            yield task, tally
    finally:
        if futures and not gone and client.status == "running":
            client.cancel(list(futures))


# --- reporting ----------------------------------------------------------------------------


def _mean_ci(total: int, squares: int, n: int) -> tuple[float, list[float]]:
    mean = total / n
    if n > 1:
        variance = max((squares - total * total / n) / (n - 1), 0.0)
        half = Z95 * math.sqrt(variance / n)
    else:
        half = math.inf
    return mean, [_r(mean - half), _r(mean + half)]


def _r(x: float) -> float:
    return round(x, 6)


def _spread(powers: list[int], n: int) -> dict[str, Any]:
    """The pool's standard deviation, with a delta-method 95% interval from its fourth
    central moment."""
    if n < 2:
        return {"sd": None, "ci95": None}
    s1, s2, s3, s4 = (p / n for p in powers)
    variance = s2 - s1 * s1
    fourth = s4 - 4 * s1 * s3 + 6 * s1 * s1 * s2 - 3 * s1**4
    sd = math.sqrt(max(variance, 0.0) * n / (n - 1))
    if sd == 0:
        return {"sd": 0.0, "ci95": [0.0, 0.0]}
    half = Z95 * math.sqrt(max(fourth - variance * variance, 0.0) / n) / (2 * sd)
    return {"sd": _r(sd), "ci95": [_r(sd - half), _r(sd + half)]}


def sweep_report(
    base: Variant,
    combinations: Sequence[Combination],
    tallies: dict[str, SweepTally],
    seed: int,
    skipped: Sequence[Skipped] = (),
    towards: str | None = None,
) -> dict[str, Any]:
    """The sweep as JSON data: one row per policy and combination (the base first)."""
    metrics = metrics_for(base.players)
    rows: list[dict[str, Any]] = []
    for policy, tally in tallies.items():
        n = tally.deals
        index = 0
        for combination in [Combination("base", {}, base), *combinations]:
            row: dict[str, Any] = {
                "policy": policy,
                "combination": combination.label,
                "changes": combination.changes,
                "rules": list(combination.rules),
            }
            if combination.variant is None:
                row |= {"status": "invalid", "error": combination.error}
                rows.append(row)
                continue
            values: dict[str, Any] = {}
            for k, metric in enumerate(metrics):
                total, squares = tally.sums[index][k], tally.squares[index][k]
                if metric.kind == "rate":
                    entry = wilson(total, n)
                else:
                    mean, ci = _mean_ci(total, squares, n)
                    entry = {"n": n, "mean": _r(mean), "ci95": ci}
                if index > 0:
                    diff, diff_ci = _mean_ci(
                        tally.diff_sums[index][k], tally.diff_squares[index][k], n
                    )
                    entry |= {"diff": _r(diff), "diff_ci95": diff_ci}
                values[metric.key] = entry
            values["pool_spread"] = _spread(tally.pool_powers[index], n)
            row |= {"status": "ok", "deals": n, "metrics": values}
            if index > 0:
                row["came_into_play"] = tally.came_into_play[index]
            rows.append(row)
            index += 1
    return {
        "base": base.id,
        "towards": towards,
        "seed": seed,
        "deals": next(iter(tallies.values())).deals if tallies else 0,
        "policies": list(tallies),
        "metrics": {m.key: m.label for m in metrics} | {"pool_spread": "spread (sd) of the pool"},
        "skipped": [{"rule": s.rule, "reason": s.reason} for s in skipped],
        "rows": rows,
    }


COLUMNS = (
    ("decided_by.uncontested", "uncontested"),
    ("decided_by.any_brelan", "brelan"),
    ("decided_by.point", "point"),
    ("decided_by.void", "void"),
    ("pool", "pool"),
    ("pool_spread", "pool sd"),
    ("bonus_flow", "bonuses"),
)


def _cell(entry: dict[str, Any], rate: bool, is_base: bool) -> str:
    scale = 100 if rate else 1
    if "sd" in entry:
        return "-" if entry["sd"] is None else f"{entry['sd']:.2f}"
    if is_base:
        value = entry["rate" if rate else "mean"]
        return "-" if value is None else (f"{100 * value:.2f}%" if rate else f"{value:.2f}")
    low, high = entry["diff_ci95"]
    diff = entry["diff"] * scale
    half = (high - low) / 2 * scale
    if half == 0 and diff == 0:
        return "0"
    mark = "*" if low > 0 or high < 0 else ""
    places = 2 if abs(diff) >= 0.01 or diff == 0 else 4  # a small effect is not shown as 0
    return f"{diff:+.{places}f}±{half:.{places}f}{mark}"


CARD_BOUND: dict[str, str] = {
    "hands.card_under_retourne": "the cards alone reach it: only when a brelan carré meets a "
    "higher brelan at the showdown and the card under the retourne is that brelan's fourth "
    "(a few deals in a hundred thousand)",
    "point.folded_hands_in_side_pools": "it acts only in a side pool, which needs unequal "
    "caves: only in deals played on a void deal's pool",
    "point.side_pots_by_winning_suit": "it acts only in a side pool, which needs unequal "
    "caves: only in deals played on a void deal's pool",
    "bonuses.carre.amount": "the cards decide it: a brelan carré must be dealt and shown",
    "bonuses.carre.amount_if_wins_pool": "the cards decide it: a brelan carré must be dealt "
    "and shown",
}
"""Rules no player's choice can bring about: why a policy may not meet them."""


def not_met(row: dict[str, Any], deals: int) -> str | None:
    """``not met in N deals under this policy`` (and why, where no choice reaches the rule)
    for a combination that changed nothing in any deal; ``None`` otherwise."""
    if row.get("came_into_play", 1) != 0:
        return None
    text = f"not met in {deals} deals under this policy"
    reasons = {CARD_BOUND[r["rule"]] for r in row.get("rules", []) if r["rule"] in CARD_BOUND}
    return text + (f" ({'; '.join(sorted(reasons))})" if reasons else "")


def rule_in_words(rule: dict[str, str]) -> str:
    """``betting.closing: calling privilege (foster: documented) -> no more round (pagat:
    documented)``."""
    return (
        f"{rule['rule']}: {rule['from']} ({rule['from_system']}: {rule['from_standing']}) -> "
        f"{rule['to']} ({rule['to_system']}: {rule['to_standing']})"
    )


SWEEP_NOTES = """\
Columns:
  came into play: in how many of the deals the change altered something offered to a
    player, an action taken or a measured result; "not met in N deals under this policy"
    where it altered none: the row then shows no effect because these players never met
    the rule, not because the rule has none.
  uncontested: pools won by a player left alone, without a showdown.
  brelan: pools won by a brelan of any kind at the showdown (carré, simple, favori,
    mistigri).
  point: pools won by the point.
  void: deals nobody opened (their pool is played for in the deals after them).
  pool: counters in the pools awarded in the deal (a void deal counts 0).
  pool sd: the standard deviation of that pool, each row's own (not a difference).
  bonuses: counters paid for brelans in the deal.
  dealer, seat 1: the dealer's and the eldest hand's net per deal (seat 1 speaks first),
    over the deal and the deals played on its pool if it was void; --json gives every
    seat, and what is still carried (the seats' nets plus it sum to zero).
Rates are in % on the base row and in percentage points on the others; means in counters."""


def sweep_text(data: dict[str, Any]) -> str:
    """One table per policy: the base's values, then each combination's difference, each
    row named in words below it, and every column explained."""
    from .policies import describe_policy
    from .render import table

    players = len([k for k in data["metrics"] if k.startswith("seat_net.")])
    columns = [*COLUMNS, (f"seat_net.{players}", "dealer"), ("seat_net.1", "seat 1")]
    lines = [
        f"Sweep of {data['base']}"
        + (f" towards {data['towards']}" if data["towards"] else "")
        + f": {data['deals']} deals per combination, seed {data['seed']}, the same deals "
        "for every combination.",
        "Base row: rates and means. Other rows: difference from the base (rates in "
        "percentage points) ± the half-width of its 95% interval from the paired per-deal "
        "differences; * where the interval excludes 0. The pool sd is each row's own.",
    ]
    for skipped in data["skipped"]:
        lines.append(f"skipped {skipped['rule']}: {skipped['reason']}")
    deals = data["deals"]
    for policy in data["policies"]:
        rows = []
        named: list[str] = []
        unmet: list[str] = []
        carried = 0.0
        for row in data["rows"]:
            if row["policy"] != policy:
                continue
            label = row["combination"]
            if row["status"] != "ok":
                rows.append([label, "", row["error"]] + [""] * (len(columns) - 1))
                continue
            carried = max(carried, abs(row["metrics"]["carried"]["mean"]))
            is_base = label == "base"
            count = "" if is_base else f"{row['came_into_play']}"
            for rule in row.get("rules", []):
                named.append(rule_in_words(rule))
            missing = None if is_base else not_met(row, deals)
            if missing is not None:
                rows.append([label, "not met"] + ["-"] * len(columns))
                unmet.append(f"  {label}: {missing}")
                continue
            rows.append(
                [label, count]
                + [
                    _cell(row["metrics"][key], key.startswith("decided_by."), is_base)
                    for key, _ in columns
                ]
            )
        lines += [
            "",
            f"policy {policy}: {describe_policy(policy)}",
            table(["", "came into play", *(h for _, h in columns)], rows),
            "Still carried after the deals played on void pools: "
            + ("0 counters in every row." if carried == 0 else f"at most {carried:.4f} per deal."),
        ]
        if unmet:
            lines += ["Not met (no effect can be measured, rather than an effect of zero):", *unmet]
        if named:
            lines += ["Rules changed, from the base's value to the new one:"]
            lines += [f"  {line}" for line in dict.fromkeys(named)]
    lines += ["", SWEEP_NOTES]
    return "\n".join(lines)


CSV_FIELDS = (
    "policy",
    "combination",
    "status",
    "metric",
    "value",
    "ci95_low",
    "ci95_high",
    "diff",
    "diff_ci95_low",
    "diff_ci95_high",
    "deals",
    "error",
)


def sweep_csv_rows(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One line per policy, combination and measure (the base's lines carry no diff)."""
    for row in data["rows"]:
        head = {"policy": row["policy"], "combination": row["combination"], "status": row["status"]}
        if row["status"] != "ok":
            yield head | {"error": row["error"]}
            continue
        for key, entry in row["metrics"].items():
            value = entry.get("rate", entry.get("mean", entry.get("sd")))
            low, high = entry["ci95"] or (None, None)
            diff_low, diff_high = entry.get("diff_ci95") or (None, None)
            yield head | {
                "metric": key,
                "value": value,
                "ci95_low": low,
                "ci95_high": high,
                "diff": entry.get("diff"),
                "diff_ci95_low": diff_low,
                "diff_ci95_high": diff_high,
                "deals": row["deals"],
            }
