"""Bands of rule effects under strong play: what each rule on which two systems differ
does when the abstracted game is played at equilibrium.

For every rule on which system ``a`` differs from system ``b`` (``foster`` and ``pagat``),
the abstracted game of a solved system (``on``: ``foster-three``, Foster's rules for three
players, or ``a`` itself) is solved with the rule at ``a``'s value and at ``b``'s, once per
seed of the sampled deals. A solution's effect is the switched game's seat values and
pools awarded minus the base game's, on the same sampled deals (the same seed); the band
is the least and the greatest effect over the seeds, with the NashConv of every solution
it comes from. A rule under which the abstracted game is the same game (the same states,
information, actions, chance and payoffs on every sampled deal) "does not act in the
abstracted game", which is not an effect of zero.

The bands are stored as data (:func:`address`: content-addressed by every input, like the
strategies) by ``bouillotte strong bands --write``; the site reads the stored file and
never solves (:func:`read_bands`). Solving needs numpy (the ``strong`` extra); reading
does not.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.reading import read_stored_text
from ..rules.together import Together
from ..rules.variant import Variant, differing_rules, value_text
from ..rules.writing import Output
from .abstraction import Abstraction, AbstractionError, at_most_raises, counted, point_bands
from .core import GameTable, load_variant
from .store import GAME_VERSION, rules_digest

BANDS_STORE: Final = Path(__file__).parent / "bands"
"""Where the stored bands are (one JSON file per pair of systems and inputs)."""

BANDS_VERSION: Final = 1
"""Bumped when what a band file holds, or how it is computed, changes."""

BANDS_ABSTRACTION: Final = Abstraction(
    cave=20, bets=("pot",), raises=2, straddles=True, deals=100, classes=4, seed=1
)
"""The abstraction the bands are solved on (``docs/strong-play.md``: its NashConv)."""

BANDS_SEEDS: Final = (1, 2, 3)
MAX_SEEDS: Final = 20
"""The most seeds (solutions per value of a rule) one run of the bands takes."""
BANDS_ITERATIONS: Final = 400
BANDS_ON: Final = "foster-three"
"""The system solved: Foster's rules for three players (four are too costly here)."""

NOT_ACTING: Final = (
    "does not act in the abstracted game: under either value it is the same game (the same "
    "moves, information, chance and payoffs) on every sampled deal"
)


OTHER_TABLE = (
    "not switched: it seats {} players, another table, whose seats cannot be compared one "
    "by one with these (the dealer's with another's): compare the two systems instead"
)
"""The band of a rule that changes the number of players (``table.players``)."""


def already(on: Variant, b: Variant, rule: str) -> str:
    """Why a rule is not switched: the solved system ``on`` holds ``b``'s value of it
    already (``--on`` the second system), which says nothing of whether the rule acts."""
    return (
        f"not switched: {on.id} already has {b.id}'s value ({value_text(b.value(rule))}), so "
        f"its effect is not measured on {on.id}'s game"
    )


PLACES: Final = 3
"""The places a band is shown to; "clear of 0" is judged on the figures as shown."""


NONE: Final = "no change"
"""A solution's effect that is 0 to six places: said in words, never printed as 0.000."""


def effect_text(value: float) -> str:
    """``value`` to :data:`PLACES` places, or to as many more (up to six) as it takes not to
    print a non-zero effect as 0.000; :data:`NONE` where it is 0 to six places."""
    if round(value, 6) == 0:
        return NONE
    places = PLACES
    while round(value, places) == 0:
        places += 1
    return f"{value:+.{places}f}"


def band_text(low: float, high: float) -> str:
    """A band as ``[low, high]``, each end as :func:`effect_text` writes it (0 for no
    change), or :data:`NONE`."""
    if effect_text(low) == effect_text(high) == NONE:
        return NONE
    return f"[{effect_text(low).replace(NONE, '0')}, {effect_text(high).replace(NONE, '0')}]"


def measures(players: int) -> list[str]:
    """The measures of an effect: each seat's net (1 the eldest hand, the last the
    dealer), then the pools awarded."""
    return [f"seat_net.{i}" for i in range(1, players + 1)] + ["pool"]


def players_in_words(players: int) -> str:
    """A number of players as a label writes it: ``three``."""
    return {3: "three", 4: "four", 5: "five"}.get(players, str(players))


def label(table: GameTable, seeds: tuple[int, ...], iterations: int) -> str:
    """Every choice the figures rest on, in words: a figure is right only if this is."""
    ab = table.abstraction
    rules = table.variant.rules
    pack = len(rules.table.pack_ranks()) * 4
    players = players_in_words(table.players)
    return (
        f"{players} players, {pack}-card pack, caves of {table.cave}, "
        f"bets of {' / '.join(ab.bets) or 'every size'} and all in, "
        f"{at_most_raises(ab.raises) if ab.raises else 'no cap on raises'}, "
        f"{'straddles offered' if ab.straddles else 'no straddles'}, "
        f"{counted(ab.deals, 'sampled deal')} per solution "
        f"({'seed' if len(seeds) == 1 else 'seeds'} {', '.join(map(str, seeds))}), "
        + (
            f"hands known as a brelan or {point_bands(ab.classes)}, "
            if ab.classes
            else "hands known card for card, "
        )
        + f"{counted(iterations, 'CFR+ iteration')}, one deal (a carried pool shared equally)"
    )


def rule_parts(a: Variant, b: Variant, rule: str) -> list[dict[str, str]]:
    """The parts of a rule that differ, each with both values as text (a bonus by its
    parts, as ``bouillotte sweep --towards`` names them)."""
    mine, theirs = a.value(rule), b.value(rule)
    if hasattr(theirs, "model_dump") and type(mine) is type(theirs):
        one, other = mine.model_dump(), theirs.model_dump()
        return [
            {"rule": f"{rule}.{name}", "from": value_text(one[name]), "to": value_text(other[name])}
            for name in other
            if one[name] != other[name]
        ]
    return [{"rule": rule, "from": value_text(mine), "to": value_text(theirs)}]


def inputs_key(
    a: Variant,
    b: Variant,
    on: Variant,
    abstraction: Abstraction,
    seeds: tuple[int, ...],
    iterations: int,
) -> str:
    """The digest of every input of the bands: both systems' rules and the solved one's,
    the abstraction (without its seed), the seeds, the iterations, the game's version
    (``store.GAME_VERSION``) and :data:`BANDS_VERSION`."""
    return content_digest(
        rules_digest(a),
        rules_digest(b),
        rules_digest(on),
        replace(abstraction, seed=0).key(),
        ",".join(map(str, seeds)),
        f"cfr+:{iterations}",
        f"game:{GAME_VERSION}",
        f"bands:{BANDS_VERSION}",
    )


def address(key: str, a: str, b: str) -> Path:
    return BANDS_STORE / f"{a}__{b}__{key[:16]}.json"


def command(
    a: str, b: str, on: str, abstraction: Abstraction, seeds: tuple[int, ...], iterations: int
) -> str:
    """The one command that makes the stored file (its options only where they differ
    from the defaults)."""
    parts = [f"bouillotte strong bands -v {a} -v {b}"]
    if on != BANDS_ON:
        parts.append(f"--on {on}")
    default = BANDS_ABSTRACTION
    for name in ("cave", "raises", "deals", "classes"):
        if getattr(abstraction, name) != getattr(default, name):
            parts.append(f"--{name} {getattr(abstraction, name)}")
    if abstraction.bets != default.bets:
        parts.append(f"--bets {'+'.join(abstraction.bets) or 'all'}")
    if abstraction.straddles != default.straddles:
        parts.append("--straddles" if abstraction.straddles else "--no-straddles")
    if seeds != BANDS_SEEDS:
        parts.append(f"--seeds {','.join(map(str, seeds))}")
    if iterations != BANDS_ITERATIONS:
        parts.append(f"--iterations {iterations}")
    parts.append("--write")
    return " ".join(parts)


@dataclass
class _Solved:
    tree: Any
    seed: int
    values: list[float]
    pool: float
    nash_conv: float
    cpu: float

    def figures(self) -> dict[str, float]:
        found = {f"seat_net.{i + 1}": v for i, v in enumerate(self.values)}
        found["pool"] = self.pool
        return found

    def record(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "states": len(self.tree.actor),
            "information_states": len(self.tree.keys),
            "values": [round(v, 6) for v in self.values],
            "pool": round(self.pool, 6),
            "nash_conv": round(self.nash_conv, 6),
            "cpu_seconds": round(self.cpu, 1),
        }


def _solve(table: GameTable, seed: int, iterations: int, tree: Any = None) -> _Solved:
    from .solve import build_tree, cfr_plus, expected_pool, nash_conv

    start = time.process_time()
    tree = tree if tree is not None else build_tree(table)
    strategy, _ = cfr_plus(tree, iterations)
    conv, values = nash_conv(tree, strategy)
    pool = expected_pool(tree, strategy)
    return _Solved(tree, seed, values, pool, conv, time.process_time() - start)


def band_of(effects: list[dict[str, float]]) -> dict[str, list[float]]:
    """The least and the greatest of each measure over the solutions' effects."""
    names = list(effects[0])
    return {
        name: [round(min(e[name] for e in effects), 6), round(max(e[name] for e in effects), 6)]
        for name in names
    }


def compute_bands(
    a: Variant,
    b: Variant,
    on: Variant,
    abstraction: Abstraction = BANDS_ABSTRACTION,
    seeds: tuple[int, ...] = BANDS_SEEDS,
    iterations: int = BANDS_ITERATIONS,
    progress: Callable[[str], None] = lambda _: None,
    rules: list[str] | None = None,
) -> dict[str, Any]:
    """The bands of every rule on which ``a`` differs from ``b`` (or of ``rules``),
    each switched alone to ``b``'s value on ``on``'s abstracted game; the stored file's
    content."""
    from .solve import build_tree, checked_iterations, same_game

    checked_iterations(iterations)
    if not 1 <= len(seeds) <= MAX_SEEDS:
        raise AbstractionError(f"seeds: give 1 to {MAX_SEEDS} seeds, not {len(seeds)}")
    chosen = differing_rules(a, b) if rules is None else rules
    started = time.process_time()
    base: dict[int, _Solved] = {}
    for seed in seeds:
        table = GameTable(on, abstraction.with_seed(seed))
        base[seed] = _solve(table, seed, iterations)
        progress(
            f"{on.id} (seed {seed}): {len(base[seed].tree.actor):,} states, NashConv "
            f"{base[seed].nash_conv:.4f}, values "
            + ", ".join(f"{v:+.3f}" for v in base[seed].values)
            + f", pools {base[seed].pool:.3f} ({base[seed].cpu:.1f} s of CPU)"
        )
    players = on.players
    entries: list[dict[str, Any]] = []
    for n, rule in enumerate(chosen, start=1):
        parts = rule_parts(on, b, rule)
        entry: dict[str, Any] = {"rule": rule, "parts": parts}
        if on.value(rule) == b.value(rule):
            entry |= {"acts": False, "reason": already(on, b, rule)}
            entries.append(entry)
            progress(f"[{n}/{len(chosen)}] {rule}: {entry['reason']}")
            continue
        try:
            switched = on.with_values({rule: b.value(rule)}, label=f"{on.id}+{rule}")
            if switched.players != on.players:  # seat by seat, a dealer against a non-dealer
                entry |= {"acts": False, "reason": OTHER_TABLE.format(switched.players)}
                entries.append(entry)
                progress(f"[{n}/{len(chosen)}] {rule}: {entry['reason']}")
                continue
            tables = [GameTable(switched, abstraction.with_seed(seed)) for seed in seeds]
        except ValueError as exc:  # pydantic's, and a cave the forced bets take whole
            entry |= {
                "acts": False,
                "reason": f"not a valid system with {b.id}'s value: {_one_line(exc)}",
            }
            entries.append(entry)
            progress(f"[{n}/{len(chosen)}] {rule}: not a valid system")
            continue
        solutions = []
        same = 0
        for seed, table in zip(seeds, tables, strict=True):
            tree = build_tree(table)
            if same_game(tree, base[seed].tree):
                same += 1
                solved = replace(base[seed], cpu=0.0)
            else:
                solved = _solve(table, seed, iterations, tree)
            mine, theirs = solved.figures(), base[seed].figures()
            solutions.append(
                {
                    **solved.record(),
                    "same_game": solved.tree is base[seed].tree,
                    "base_nash_conv": round(base[seed].nash_conv, 6),
                    "effect": {k: round(mine[k] - theirs[k], 6) for k in measures(players)},
                }
            )
        if same == len(seeds):
            entry |= {"acts": False, "reason": NOT_ACTING}
            progress(f"[{n}/{len(chosen)}] {rule}: {NOT_ACTING}")
        else:
            convs = [s["nash_conv"] for s in solutions] + [s["base_nash_conv"] for s in solutions]
            band = band_of([s["effect"] for s in solutions])
            entry |= {
                "acts": True,
                "solutions": solutions,
                "band": band,
                "nash_conv": [min(convs), max(convs)],
            }
            progress(
                f"[{n}/{len(chosen)}] {rule}: "
                + "; ".join(f"{k} {band_text(lo, hi)}" for k, (lo, hi) in band.items())
                + f"; NashConv {min(convs):.4f} to {max(convs):.4f}"
            )
        entries.append(entry)
    key = inputs_key(a, b, on, abstraction, seeds, iterations)
    table = GameTable(on, abstraction)
    return {
        "version": BANDS_VERSION,
        "key": key,
        "command": command(a.id, b.id, on.id, abstraction, seeds, iterations),
        "systems": [a.id, b.id],
        "on": on.id,
        "players": players,
        "pack": len(on.rules.table.pack_ranks()) * 4,
        "label": label(table, seeds, iterations),
        "abstraction": {
            "cave": table.cave,
            "bets": list(abstraction.bets),
            "raises": abstraction.raises,
            "straddles": abstraction.straddles,
            "deals": abstraction.deals,
            "classes": abstraction.classes,
        },
        "seeds": list(seeds),
        "iterations": iterations,
        "algorithm": "CFR+ (alternating updates, linear averaging), one solution per seed",
        "rules_digests": {v.id: rules_digest(v) for v in (a, b, on)},
        "game_version": GAME_VERSION,
        "game_sample": _sample(on, replace(abstraction, seed=seeds[0])),
        "measures": measures(players),
        "base": [base[s].record() for s in seeds],
        "cpu_seconds": round(time.process_time() - started, 1),
        "rules": entries,
    }


def _one_line(exc: ValueError) -> str:
    """Why a switched system is refused, on one line: pydantic's report of the rules'
    validation spans several lines (the error, the input, a web address)."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
    return str(exc)


def _sample(variant: Variant, abstraction: Abstraction) -> str:
    from .solve import game_sample  # numpy: only where the bands are made

    return game_sample(variant, abstraction)


def write_bands(data: dict[str, Any], stack: ExitStack | None = None) -> Path:
    """Store the bands through the one writer (``rules/writing.py``): whole or not at all,
    never through a link, a failure of the system one line (exit 2). With ``stack``, the
    file is put in place when the stack closes, with the command's ``--csv``: all or none."""
    path = address(data["key"], *data["systems"])
    with Together() as own:
        out = (own if stack is None else stack).enter_context(Output(path.parent, "own"))
        out.add(path.name, json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


@dataclass(frozen=True)
class StoredBands:
    """The stored bands of a pair, or why there are none (``problem``), with the command
    that makes them."""

    data: dict[str, Any] | None
    problem: str = ""
    fix: str = ""


def documented(a: Variant, b: Variant, on: Variant) -> str:
    """The key of the bands the site shows: those of the documented inputs (solved on
    :data:`BANDS_ON`, :data:`BANDS_ABSTRACTION`, :data:`BANDS_SEEDS`,
    :data:`BANDS_ITERATIONS`; ``docs/strong-play.md``)."""
    return inputs_key(a, b, on, BANDS_ABSTRACTION, BANDS_SEEDS, BANDS_ITERATIONS)


def read_bands(a: Variant, b: Variant) -> StoredBands:
    """The stored bands of ``a`` towards ``b`` that the site shows: those of the documented
    inputs (:func:`documented`), used only where they are today's (the rules of both
    systems and of the solved one, the code, the version). A file of other inputs (a
    tiny abstraction, other seeds) is never shown in their place, whatever its name."""
    fix = command(a.id, b.id, BANDS_ON, BANDS_ABSTRACTION, BANDS_SEEDS, BANDS_ITERATIONS)
    found = sorted(BANDS_STORE.glob(f"{a.id}__{b.id}__*.json"))
    if not found:
        return StoredBands(None, f"no strong-play bands are stored for {a.id} and {b.id}", fix)
    wanted = documented(a, b, load_variant(BANDS_ON))
    stale = "their inputs (the rules, the game's version or the method) have changed since"
    for path in found:
        data = json.loads(read_stored_text(path))
        if data.get("version") == BANDS_VERSION and data.get("key") == wanted:
            return StoredBands(data, fix=data["command"])
        if data.get("key") == _key_of(a, b, data):
            stale = f"{path.name} is of other inputs than the documented ones ({data['command']})"
    return StoredBands(
        None, f"the stored strong-play bands of {a.id} and {b.id} are stale: {stale}", fix
    )


def _key_of(a: Variant, b: Variant, data: dict[str, Any]) -> str | None:
    """The key a stored file's own inputs give today, or ``None`` where its solved system
    is not bundled."""
    try:
        on = load_variant(data["on"])
    except Exception:  # a solved system this build does not have: not usable
        return None
    abstraction = Abstraction.from_record(data["abstraction"], seed=1)
    return inputs_key(a, b, on, abstraction, tuple(data["seeds"]), data["iterations"])


def by_rule(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The stored bands by rule path (``bonuses.carre``) and by each part's
    (``bonuses.carre.amount``)."""
    found: dict[str, dict[str, Any]] = {}
    for entry in data["rules"]:
        found[entry["rule"]] = entry
        for part in entry.get("parts", []):
            found.setdefault(part["rule"], entry)
    return found
