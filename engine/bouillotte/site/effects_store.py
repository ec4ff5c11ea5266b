"""The store of "What each rule does": sweeps too long for a build, kept in the repository as
data files (``site/effects/A__B.json``, and the full sweep ``foster__all-rules.json``), each
used only when its key matches.

The key is a hash of the sweep's declared inputs (:func:`sweep_key`): the systems' rules,
the players (each policy's name and, for the ``table`` family, its tendencies), the deals,
the seed, and :data:`RESULTS_VERSION`, which says what a deal does. It is not a hash of the
engine's source: a comment or a refactor leaves every stored file in use, and a change of
what a deal does is caught by its meaning, a sample of every stored file recomputed and
compared in the everyday suite (``tests/test_effects_sample.py``), which tells the author
to bump the version. ``docs/effects-store.md`` says how, and when.

Running a sweep into a file is :mod:`effects_run`; drawing a page from one is
:mod:`effects`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.errors import InputError
from ..rules.reading import read_stored_text
from ..rules.resources import bundled
from ..rules.variant import Variant
from ..rules.writing import Output

EFFECT_DEALS: Final = 20_000
EFFECT_SEED: Final = 1
EFFECT_POLICIES: Final = ("advised", "bold")
"""The players: the one who plays by the sources' advice, and the one who meets every rule
a choice can reach (``docs/simulation.md``, "Policies")."""

RESULTS_VERSION: Final = 4
"""(2: the project's own random stream, docs/chance.md; 3: every mean judged, ``not-read`` told
from ``cannot-act``, the whole difference's rules listed; 4: the pool spread's interval judged,
``cannot-act`` proven for a payment no hand can claim and the pot opening's rule.) What a deal
does, as the stored figures count it. Bump it (and regenerate the store with ``bouillotte
effects --write``) in the same commit as any change that moves a stored figure for the same
rules, players, deals and seed: a rule the engine now plays another way, a policy's choice, the
dealing or the seeds, what the sweep measures or how it counts (a metric, an interval,
``came_into_play``, ``acts``), the combinations a sweep makes. A change that moves no figure (a
comment, a rename, a refactor, a speed-up) leaves it. The everyday suite recomputes a sample of
every stored file (``tests/test_effects_sample.py``): when it fails, the change moved figures,
and the version must be bumped (``docs/effects-store.md``)."""


def store_folder() -> Path:
    """Where the stored results live: ``site/effects/`` of the checkout (or the wheel)."""
    return bundled("site") / "effects"


def effect_pairs(variants: list[Variant]) -> list[tuple[Variant, Variant]]:
    """Every pair of systems, in the site's order, that share a pack and a number of
    players (so that the same deals can be dealt under both)."""
    pairs = []
    for i, a in enumerate(variants):
        for b in variants[i + 1 :]:
            same_pack = a.rules.table.pack_ranks() == b.rules.table.pack_ranks()
            if a.players == b.players and same_pack:
                pairs.append((a, b))
    return pairs


def command(a: Variant, b: Variant, deals: int = EFFECT_DEALS, seed: int = EFFECT_SEED) -> str:
    """The command that reproduces a pair's figures exactly (its ``--json`` is the file's
    ``report``)."""
    policies = " ".join(f"--policy {p}" for p in EFFECT_POLICIES)
    return f"bouillotte sweep {a.id} --towards {b.id} --deals {deals} --seed {seed} {policies}"


def policy_inputs(name: str) -> dict[str, Any]:
    """A player as the key sees it: its name, and the tendencies it plays by (``None`` for
    a policy without any), so that a change of a named player's tendencies is a new key."""
    from ..study.policies import get_policy

    tendencies = getattr(get_policy(name), "tendencies", None)
    return {"name": name, "tendencies": None if tendencies is None else tendencies.as_dict()}


def key_inputs(
    systems: Sequence[Variant], policies: Sequence[str], deals: int, seed: int
) -> dict[str, Any]:
    """Everything a stored sweep's figures are declared to depend on."""
    return {
        "results_version": RESULTS_VERSION,
        "systems": [[v.id, v.players, v.rules.model_dump(mode="json")] for v in systems],
        "policies": [policy_inputs(p) for p in policies],
        "deals": deals,
        "seed": seed,
    }


def sweep_key(systems: Sequence[Variant], policies: Sequence[str], deals: int, seed: int) -> str:
    """A hash of :func:`key_inputs`: the systems' rules, the players and their tendencies,
    the deals, the seed and :data:`RESULTS_VERSION`."""
    return content_digest(json.dumps(key_inputs(systems, policies, deals, seed), sort_keys=True))


def effects_key(a: Variant, b: Variant, deals: int = EFFECT_DEALS, seed: int = EFFECT_SEED) -> str:
    """A hash of everything a pair's figures depend on."""
    return sweep_key((a, b), EFFECT_POLICIES, deals, seed)


def store_path(a: Variant, b: Variant) -> Path:
    return store_folder() / f"{a.id}__{b.id}.json"


STALE: Final = "made from other rules, players or results version"
"""Why a file whose key does not match is not used (after "the stored results ... were")."""


@dataclass
class Stored:
    """A pair's stored results, or why there are none to use."""

    data: dict[str, Any] | None
    problem: str = ""
    """Why the file cannot be used (missing, or made from other inputs)."""
    fix: str = field(default="bouillotte effects --write")


def of_deals(found: Stored, deals: int | None) -> Stored:
    """``found`` where it was made with ``deals`` deals (any number where ``None``: a file
    whose key matches the deals it says it has is used, as the site uses it), else why
    not. ``bouillotte effects`` judges every file so, listing it or giving its figures:
    ``--deals`` asks for files of that many deals everywhere."""
    made = None if found.data is None else found.data.get("deals")
    if made is None or deals is None or made == deals:
        return found
    return Stored(None, f"made with {made:,} deals, not the {deals:,} asked (--deals)", found.fix)


def stored_effects(a: Variant, b: Variant) -> Stored:
    """The pair's stored results, used only when the key matches."""
    return read_stored(
        store_path(a, b),
        lambda deals: effects_key(a, b, deals),
        EFFECT_DEALS,
        f"no stored results for {a.id} and {b.id}",
        f"the stored results for {a.id} and {b.id} were {STALE}",
    )


def _not_json(constant: str) -> None:
    """``Infinity``, ``-Infinity`` and ``NaN``, which Python's reader takes and no standard
    one does (a file written before intervals were ``null`` on one deal)."""
    raise ValueError(f"{constant} is not JSON")


def read_stored(
    path: Path, key_of: Callable[[int], str], deals: int, missing: str, stale: str
) -> Stored:
    """A stored sweep at ``path``, used only when its key is ``key_of`` its deals
    (``deals`` where the file names none); ``missing`` and ``stale`` say why not."""
    try:
        data = json.loads(read_stored_text(path), parse_constant=_not_json)
    except OSError:
        return Stored(None, missing)
    except InputError as exc:
        return Stored(None, f"{path.name} {exc.message}")
    except ValueError:
        return Stored(None, f"{path.name} is not JSON (as RFC 8259 writes it)")
    if not isinstance(data, dict) or not isinstance(data.get("deals", deals), int):
        return Stored(None, f"{path.name} is not a stored result of `bouillotte effects`")
    if data.get("key") != key_of(data.get("deals", deals)):
        return Stored(None, stale)
    return Stored(data)


def write_effects(a: Variant, b: Variant, data: dict[str, Any], out: Output | None = None) -> Path:
    return write_stored(store_path(a, b), data, out)


def check_stored(path: Path, out: Output) -> None:
    """Refuse now, before its sweep, a stored file :func:`write_stored` could not replace
    in ``out`` (a link, a named pipe, one made read-only): one ``effects --write`` puts in
    place with the others once the last is computed, so a refusal then would lose them all."""
    out.check(path.name)


def write_stored(path: Path, data: dict[str, Any], out: Output | None = None) -> Path:
    """A stored sweep's file, in the form every one of them is kept in: into ``out`` (the
    store's files of one ``effects --write``, put in place together when it ends, so that
    a failure half-way leaves every stored result as it was), else whole on its own."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if out is not None:
        out.add(path.name, text)
        return path
    with Output(path.parent, "own") as alone:
        alone.add(path.name, text)
    return path
