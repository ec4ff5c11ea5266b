"""A cache of the build's long computations (the exact odds, the simulated play, rule
attribution, "What each rule does", the YAML downloads) that cannot change a byte of the
site.

Each result is stored as JSON in a file named by a SHA-256 of everything it depends on: the
source of the layers that compute it (``rules/``, ``play/``, ``study/``), the Python version,
a name for the computation and its inputs (the rules of the systems, the scenario, the
number of deals, seed and policy). The site is always drawn from the result *after* a JSON
round trip, whether it was just computed or read back, so a build with a cold cache, a warm
one or none at all is byte-for-byte the same. A cache folder that is missing, unreadable or
read-only only costs the time: nothing is stored, nothing fails.

A cache file can be wrong, never harmful. Nothing is unpickled or compiled from the folder
(the templates are compiled in memory, each build afresh). A file is used only if
``rules/diskcache.load`` accepts it (a regular file of the user's own, within
:data:`MAX_BYTES`, sealed by the digest of its own content) and its JSON has the shape its
kind's pydantic schema (:data:`SCHEMAS`) asks for; anything else is ignored and computed
again, as if the file were not there.

The folder is ``$BOUILLOTTE_CACHE``, else the platform's cache folder (on Linux
``$XDG_CACHE_HOME/bouillotte``, else ``~/.cache/bouillotte``; ``rules/diskcache.py``, which
``variants list`` uses too); deleting it is always safe (``bouillotte cache clear``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, TypeAdapter, ValidationError

# The folder, the digest and the sealed files are shared with the rules layer's cache of the
# variant list; named again here, as effects.py imports them from this module.
from ..rules.diskcache import cache_dir as cache_dir
from ..rules.diskcache import content_digest as content_digest
from ..rules.diskcache import load
from ..rules.diskcache import store as store
from ..rules.variant import Variant

MAX_BYTES = 16 * 2**20
"""The largest cache file read (the largest result, a profile's YAML download, is a few
hundred KiB): a larger one is ignored unread."""

COMPUTING_LAYERS = ("rules", "play", "study")
"""The packages whose code the cached results depend on (``site/`` only draws them)."""


@cache
def engine_digest() -> str:
    """A hash of the source of the computing layers and of the Python that runs them."""
    parts: list[str | bytes] = [sys.version]
    package = Path(__file__).resolve().parent.parent
    for layer in COMPUTING_LAYERS:
        for path in sorted((package / layer).rglob("*.py")):
            parts.extend((path.relative_to(package).as_posix(), path.read_bytes()))
    return content_digest(*parts)


def fingerprint(variant: Variant) -> dict[str, Any]:
    """What the engine reads of a system: its id, game, rules and citations (which the
    engine quotes when it refuses an action)."""
    return {
        "id": variant.id,
        "game": variant.game,
        "rules": variant.rules.model_dump(mode="json"),
        "citations": {
            path: info.citation.model_dump(mode="json") if info.citation else None
            for path, info in sorted(variant.info.items())
        },
    }


def fingerprint_digest(variant: Variant) -> str:
    """:func:`fingerprint` as a short hash, to key many results on one system cheaply."""
    return content_digest(json.dumps(fingerprint(variant), sort_keys=True, ensure_ascii=False))


class _Open(BaseModel):
    """A JSON object that may hold more keys than those named."""

    model_config = ConfigDict(extra="allow", strict=True)


class _Step(_Open):
    number: StrictInt
    player: StrictStr
    legal: list[StrictStr]
    action: StrictStr
    pot: StrictInt


class _RunData(_Open):
    scenario: StrictStr
    variant: StrictStr
    status: StrictStr
    error: StrictStr | None
    players: dict[str, Any]
    pots: list[Any]
    bonuses: list[Any]
    events: list[Any]
    carry: StrictInt


class _Run(_Open):
    data: _RunData
    steps: list[_Step]


class _Attribution(_Open):
    responsible: list[list[StrictStr]]
    reproduces: list[list[StrictStr]]


class _Odds(_Open):
    odds: dict[str, Any]


class _OddsRefused(_Open):
    error: StrictStr


class _Report(_Open):
    variant: StrictStr
    policy: StrictStr
    seed: StrictInt
    deals: StrictInt
    decided_by: dict[str, dict[str, Any]]
    average_pot: dict[str, Any]
    bonus_flow_per_deal: dict[str, Any]
    seat_net_per_deal: dict[str, dict[str, Any]]
    point_suit_is_retourne: dict[str, Any]
    dealt_per_hand: dict[str, dict[str, Any]]


class _SweepRow(_Open):
    policy: StrictStr
    combination: StrictStr
    changes: dict[str, Any]
    status: StrictStr


class _Sweep(_Open):
    base: StrictStr
    towards: StrictStr | None
    seed: StrictInt
    deals: StrictInt
    policies: list[StrictStr]
    metrics: dict[str, StrictStr]
    skipped: list[dict[str, StrictStr]]
    rows: list[_SweepRow]


SCHEMAS: dict[str, TypeAdapter[Any]] = {
    "run": TypeAdapter(_Run),
    "attribution": TypeAdapter(_Attribution),
    "odds": TypeAdapter(_Odds | _OddsRefused),
    "simulate": TypeAdapter(_Report),
    "effects": TypeAdapter(_Sweep),
    "yaml": TypeAdapter(StrictStr),
}
"""The shape of each kind of result, as the pages read it: a cache file of another shape is
ignored (pydantic validates it; the JSON itself is what the site is drawn from)."""

ANY: TypeAdapter[Any] = TypeAdapter(Any)


def _path(kind: str, inputs: Any) -> Path:
    key = json.dumps(inputs, sort_keys=True, ensure_ascii=False)
    return cache_dir() / f"{kind}-{content_digest(engine_digest(), kind, key)}.json"


def read_cached(path: Path, schema: TypeAdapter[Any] = ANY) -> Any | None:
    """The JSON stored at ``path``, or ``None`` unless the file is one to trust
    (``diskcache.load``) holding JSON that ``schema`` accepts."""
    text = load(path, MAX_BYTES)
    if text is None:
        return None
    try:
        data = json.loads(text)
        schema.validate_python(data)
    except (ValueError, RecursionError, ValidationError):  # not JSON, too deep, wrong shape
        return None
    return data


def is_cached(kind: str, inputs: Any) -> bool:
    """Whether a result of ``kind`` for ``inputs`` is stored, so that :func:`cached` will
    read it back rather than compute it."""
    return read_cached(_path(kind, inputs), SCHEMAS.get(kind, ANY)) is not None


def cached(kind: str, inputs: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``'s result as JSON gives it back, stored under a hash of ``inputs`` (any
    JSON-serialisable value) and of the engine; read back when stored before and sound."""
    path = _path(kind, inputs)
    found = read_cached(path, SCHEMAS.get(kind, ANY))
    if found is not None:
        return found
    # Keys keep their order (tables list rows in the order the result gives them).
    text = json.dumps(compute(), ensure_ascii=False)
    store(path, text)
    return json.loads(text)
