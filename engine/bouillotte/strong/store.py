"""The stored strategies: each solved game's average strategy, as data in the repository.

One JSON file per solution in ``strategies/`` beside this module, named by the profile and
the digest of its declared inputs (:func:`address`): the profile's rules, the abstraction
(its seed included), :data:`GAME_VERSION` and the solver's iterations. The engine's source
bytes are not an input (a comment or a faster loop in ``play/`` changes no game): each file
records instead the digest of a small sample of its game (``solve.game_sample``), which
``tests/test_strong_store.py`` computes again, so a change to what a state of the game
does fails that test until the strategies are solved again and the version bumped
(the effects store's rule, ``docs/effects-store.md``). The ``strong`` policy reads them
without OpenSpiel or numpy.
"""

from __future__ import annotations

import json
import os
import stat
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.errors import InputError
from ..rules.profiles import Library
from ..rules.reading import read_stored_text
from ..rules.together import Together
from ..rules.variant import Variant
from ..rules.writing import Output, reason, refuse_write_protected
from .abstraction import BET_SIZES, Abstraction, AbstractionError, checked

STORE: Final = Path(__file__).parent / "strategies"

_PACKAGE: Final = Path(__file__).parent.parent


GAME_VERSION: Final = 2
"""Bumped when what a state of the abstracted game does changes (its actions, chance,
information or payoffs, or which deals it samples), so that every stored strategy and band
is solved again. (2: the sampled deals come from the project's own random stream.)"""


def rules_digest(variant: Variant) -> str:
    return content_digest(variant.rules.model_dump_json())


def address(variant: Variant, abstraction: Abstraction, iterations: int) -> Path:
    digest = content_digest(
        rules_digest(variant), abstraction.key(), f"game:{GAME_VERSION}", f"cfr+:{iterations}"
    )
    return STORE / f"{variant.id}__{digest[:16]}.json"


def write(path: Path, payload: dict[str, Any], stack: ExitStack | None = None) -> str:
    """Store a solution through the one writer (``rules/writing.py``): whole or not at all,
    never through a link, a failure of the system one line (exit 2). Only a bundled
    system's (:func:`check_bundled`). With ``stack``, the file is put in place when the stack
    closes, together with the command's other files staged on it (its ``--csv``): all or
    none. Returns the note to print once it is in place, where the strong player will play
    it in place of another strategy (or of ``advised``), or "" for none."""
    bundled = check_bundled(payload["variant"], payload["rules"])
    others = stored(but=path.name)  # what is at the path itself, the writer judges
    new = [{"file": path.name, "rules": payload["rules"], "abstraction": payload["abstraction"]}]
    digest, cave = payload["rules"], bundled.rules.stakes.cave
    there = path.is_file() and not path.is_symlink()  # the same inputs solved again
    before = played(sorted(others + (new if there else []), key=lambda d: d["file"]), digest, cave)
    now = played(sorted(others + new, key=lambda d: d["file"]), digest, cave)
    text = json.dumps(payload, sort_keys=True, indent=0, separators=(",", ":"))
    with Together() as own:
        out = (own if stack is None else stack).enter_context(Output(path.parent, "own"))
        out.add(path.name, text + "\n")
    if now is None or now["file"] != path.name or before is now:
        return ""
    instead = f"in place of {before['file']}" if before else "in place of advised"
    return (
        f"note: the strong player now plays {path.name} under {bundled.id}'s rules, "
        f"{instead} (the stored strategy whose caves are nearest the profile's, then the "
        "first by file name; docs/strong-play.md)"
    )


def check_replaceable(path: Path) -> None:
    """Refuse now, before the solve, a stored file at ``path`` that :func:`write` could not
    replace: one made read-only, a link, a named pipe or another file that is not a regular
    one (the writer refuses each only when it writes, after the whole solve; :func:`stored`
    refuses the last two as it reads the store), and a store that takes no new file. Each
    is one :class:`InputError` naming the file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:  # the store under a file, say
        raise InputError(f"cannot write there: {reason(exc)}", file=path.parent) from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise InputError(
            "is a link: --write replaces the stored strategy there and never writes through "
            "a link (it could lead anywhere); remove the link and run the command again",
            file=path,
        )
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise InputError(
            "is not a regular file (a named pipe, a device or a folder): --write cannot "
            "replace it; remove it and run the command again",
            file=path,
        )
    try:
        refuse_write_protected(path, path)
    except InputError:
        raise InputError(
            "is write-protected (no write permission): --write would replace it; make it "
            "writable (chmod u+w) and run the command again, or leave --write out (--csv or "
            "--json keep the figures)",
            file=path,
        ) from None
    if path.parent.is_dir() and not os.access(path.parent, os.W_OK | os.X_OK):
        raise InputError(
            "takes no new file (no write permission): --write stores the strategy there; "
            "leave --write out (--csv or --json keep the figures)",
            file=path.parent,
        )


def check_bundled(variant_id: str, digest: str) -> Variant:
    """The bundled system ``variant_id`` if its rules are those of ``digest``, else one
    :class:`InputError`: the store holds what the strong player plays under the bundled
    systems, and a strategy of a user's profile (``strong solve -v MY.yaml --write``) would
    be played under any bundled system of the same rules, or break it (its id unknown)."""
    library = Library()
    if variant_id not in library.ids():
        what = f"{variant_id!r} is not a bundled system"
    elif rules_digest(library.get(variant_id)) != digest:
        what = f"this {variant_id!r} has other rules than the bundled {variant_id}"
    else:
        return library.get(variant_id)
    raise InputError(
        f"{what}: the store holds the strategies the strong player plays under the bundled "
        "systems only; leave --write out (--csv or --json keep the figures)",
        field="--write",
    )


def played(found: list[dict[str, Any]], digest: str, cave: int) -> dict[str, Any] | None:
    """Of the stored strategies ``found``, the one the strong player plays under the rules
    of ``digest`` and a profile's ``cave``: the one solved with caves nearest it, then the
    first by file name (``study/strong_policy.stored_for``'s rule); ``None`` where none is."""
    candidates = [data for data in found if data["rules"] == digest]
    return min(candidates, key=lambda d: abs(d["abstraction"]["cave"] - cave), default=None)


def stored(every: bool = False, but: str = "") -> list[dict[str, Any]]:
    """Every stored strategy of this game's version (:data:`GAME_VERSION`) solved for a
    bundled system with its rules of today, by file name: one solved for another version
    of the game (a file an upgrade left behind), or for a profile this build does not
    bundle (its id unknown, or other rules under it), is never played. ``every``: whatever
    its version and system, for the test that finds the stale ones. ``but``: a file's
    name left out."""
    library = Library()
    digests: dict[str, str] = {}
    found: list[dict[str, Any]] = []
    for path in sorted(STORE.glob("*.json")):
        if path.name == but:
            continue
        data = _read(path)
        if not every and data.get("game_version") != GAME_VERSION:
            continue
        _check_stored(path, data)
        variant_id: str = data["variant"]  # checked: a str
        if not every and variant_id not in digests and variant_id in library.ids():
            digests[variant_id] = rules_digest(library.get(variant_id))
        if not every and digests.get(variant_id) != data.get("rules"):
            continue
        data["file"] = path.name
        found.append(data)
    return found


_FIELDS: Final = {
    "variant": str,
    "rules": str,
    "game_version": int,
    "iterations": int,
    "abstraction": dict,
    "bands": list,
    "strategy": dict,
}
"""What a stored strategy must hold for the ``strong`` player to read and play it."""

_ABSTRACTION_FIELDS: Final = {
    "cave": int,
    "bets": list,
    "raises": int,
    "straddles": bool,
    "deals": int,
    "classes": int,
    "seed": int,
}


def _damaged(path: Path, what: str) -> InputError:
    """One line for a stored file that is not a strategy the ``strong`` player can play:
    which file, what is wrong, what to do."""
    system = path.name.split("__")[0] if "__" in path.name else "SYSTEM"
    return InputError(
        f"is not a stored strategy ({what}): remove it, or store one again with bouillotte "
        f"strong solve -v {system} --write (docs/strong-play.md)",
        file=path,
    )


def _read(path: Path) -> dict[str, Any]:
    """A stored file as a JSON object, or one line naming it (a truncated file, another
    kind of JSON), never a traceback."""
    text = read_stored_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _damaged(path, f"not JSON: {exc.msg}, line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _damaged(path, "not JSON this reader takes: nested too deep") from None
    if not isinstance(data, dict):
        raise _damaged(path, f"it holds a JSON {type(data).__name__}, not an object")
    return data


def _is(value: object, kind: type) -> bool:
    """``value`` is of ``kind`` (a whole number is not a ``bool``, a ``bool`` is not one)."""
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _check_stored(path: Path, data: dict[str, Any]) -> None:
    """One line where a stored file lacks what the ``strong`` player reads: each field of
    the right kind, each row of the strategy an action and its weight."""
    for name, kind in _FIELDS.items():
        if not _is(data.get(name), kind):
            raise _damaged(path, f"no {kind.__name__} {name!r}")
    record = data["abstraction"]
    for name, kind in _ABSTRACTION_FIELDS.items():
        if not _is(record.get(name), kind):
            raise _damaged(path, f"no {kind.__name__} 'abstraction.{name}'")
    if not all(size in BET_SIZES for size in record["bets"]):
        raise _damaged(path, f"'abstraction.bets' is not a list of {', '.join(BET_SIZES)}")
    try:
        checked(Abstraction.from_record(record))
    except AbstractionError as exc:
        raise _damaged(path, f"abstraction.{exc}") from None
    if not all(_is(b, int) for b in data["bands"]):
        raise _damaged(path, "'bands' is not a list of whole numbers")
    for key, rows in data["strategy"].items():
        if not (isinstance(rows, list) and all(_row(row) for row in rows)):
            raise _damaged(
                path, f"the strategy's row {key[:60]!r} is not a list of [action, weight]"
            )


def _row(row: object) -> bool:
    return (
        isinstance(row, list)
        and len(row) == 2
        and _is(row[0], int)
        and isinstance(row[1], (int, float))
        and not isinstance(row[1], bool)
    )
