"""A cache of the build's long computations (the exact odds, the simulated play, rule
attribution, "What each rule does", the compiled templates) that cannot change a byte of
the site.

Each result is stored as JSON in a file named by a SHA-256 of everything it depends on: the
source of the layers that compute it (``rules/``, ``play/``, ``study/``), the Python version,
a name for the computation and its inputs (the rules of the systems, the scenario, the
number of deals, seed and policy). The site is always drawn from the result *after* a JSON
round trip, whether it was just computed or read back, so a build with a cold cache, a warm
one or none at all is byte-for-byte the same. A cache folder that is missing, unreadable or
read-only only costs the time: nothing is stored, nothing fails.

The folder is ``$BOUILLOTTE_CACHE``, else ``$XDG_CACHE_HOME/bouillotte``, else
``~/.cache/bouillotte`` (``rules/diskcache.py``, which ``variants list`` uses too); deleting
it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import __version__ as jinja_version
from jinja2.bccache import Bucket, FileSystemBytecodeCache

# The folder and the atomic write are shared with the rules layer's cache of the variant
# list; named again here, as effects.py imports them from this module.
from ..rules.diskcache import cache_dir as cache_dir
from ..rules.diskcache import store as store
from ..rules.variant import Variant

COMPUTING_LAYERS = ("rules", "play", "study")
"""The packages whose code the cached results depend on (``site/`` only draws them)."""


@cache
def engine_digest() -> str:
    """A hash of the source of the computing layers and of the Python that runs them."""
    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parent.parent
    for layer in COMPUTING_LAYERS:
        for path in sorted((package / layer).rglob("*.py")):
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


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
    text = json.dumps(fingerprint(variant), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(kind: str, inputs: Any) -> Path:
    digest = hashlib.sha256(engine_digest().encode())
    digest.update(kind.encode())
    digest.update(json.dumps(inputs, sort_keys=True, ensure_ascii=False).encode())
    return cache_dir() / f"{kind}-{digest.hexdigest()}.json"


def _read(path: Path) -> Any | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_cached(kind: str, inputs: Any) -> bool:
    """Whether a result of ``kind`` for ``inputs`` is stored, so that :func:`cached` will
    read it back rather than compute it (a damaged file is only found, and computed
    again, when it is read: the result is the same)."""
    return _path(kind, inputs).is_file()


def cached(kind: str, inputs: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``'s result as JSON gives it back, stored under a hash of ``inputs`` (any
    JSON-serialisable value) and of the engine; read back when stored before."""
    path = _path(kind, inputs)
    found = _read(path)
    if found is not None:
        return found
    # Keys keep their order (tables list rows in the order the result gives them).
    text = json.dumps(compute(), ensure_ascii=False)
    store(path, text)
    return json.loads(text)


class TemplateCache(FileSystemBytecodeCache):
    """Jinja2's compiled templates, kept in the cache folder so that a build compiles only
    the templates that changed. Compiled code is Jinja2's own translation of the template
    (checked against the template's text when read), so it renders the same bytes; a
    folder that cannot be read or written only means compiling again."""

    def __init__(self, options: str) -> None:
        tag = hashlib.sha256(f"{jinja_version}:{sys.version}:{options}".encode()).hexdigest()
        super().__init__(str(cache_dir()), f"jinja-{tag[:16]}-%s.cache")

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable or damaged: compile the template instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            Path(self.directory).mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass
