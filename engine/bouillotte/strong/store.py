"""The stored strategies: each solved game's average strategy, as data in the repository.

One JSON file per solution in ``strategies/`` beside this module, named by the profile and
the digest of everything it depends on (:func:`address`): the profile's rules, the
abstraction (its seed included), the code a state runs through (the engine, ``play/``
and ``rules/cards.py``, and ``strong/core.py`` and ``abstraction.py``) and the solver's
iterations. The ``strong`` policy reads them without OpenSpiel or numpy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from ..rules.diskcache import content_digest
from ..rules.variant import Variant
from ..rules.writing import Output
from .abstraction import Abstraction

STORE: Final = Path(__file__).parent / "strategies"

_PACKAGE: Final = Path(__file__).parent.parent


def code_digest() -> str:
    """The digest of the code a state of the game runs through."""
    files = sorted((_PACKAGE / "play").glob("*.py"))
    files += [_PACKAGE / "rules" / "cards.py", Path(__file__).parent / "core.py"]
    files.append(Path(__file__).parent / "abstraction.py")
    return content_digest(*[f.read_bytes() for f in files])


def rules_digest(variant: Variant) -> str:
    return content_digest(variant.rules.model_dump_json())


def address(variant: Variant, abstraction: Abstraction, iterations: int) -> Path:
    digest = content_digest(
        rules_digest(variant), abstraction.key(), code_digest(), f"cfr+:{iterations}"
    )
    return STORE / f"{variant.id}__{digest[:16]}.json"


def write(path: Path, payload: dict[str, Any]) -> None:
    """Store a solution through the one writer (``rules/writing.py``): whole or not at all,
    never through a link, a failure of the system one line (exit 2)."""
    text = json.dumps(payload, sort_keys=True, indent=0, separators=(",", ":"))
    with Output(path.parent, "replace") as out:
        out.add(path.name, text + "\n")


def stored() -> list[dict[str, Any]]:
    """Every stored strategy, by file name."""
    found: list[dict[str, Any]] = []
    for path in sorted(STORE.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["file"] = path.name
        found.append(data)
    return found
