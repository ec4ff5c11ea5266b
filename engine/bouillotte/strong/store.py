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
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.reading import read_stored_text
from ..rules.variant import Variant
from ..rules.writing import Output
from .abstraction import Abstraction

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


def write(path: Path, payload: dict[str, Any]) -> None:
    """Store a solution through the one writer (``rules/writing.py``): whole or not at all,
    never through a link, a failure of the system one line (exit 2)."""
    text = json.dumps(payload, sort_keys=True, indent=0, separators=(",", ":"))
    with Output(path.parent, "own") as out:
        out.add(path.name, text + "\n")


def stored(every: bool = False) -> list[dict[str, Any]]:
    """Every stored strategy of this game's version (:data:`GAME_VERSION`), by file name:
    one solved for another version of the game (a file an upgrade left behind) is never
    played. ``every``: whatever its version, for the test that finds the stale ones."""
    found: list[dict[str, Any]] = []
    for path in sorted(STORE.glob("*.json")):
        data = json.loads(read_stored_text(path))
        if not every and data.get("game_version") != GAME_VERSION:
            continue
        data["file"] = path.name
        found.append(data)
    return found
