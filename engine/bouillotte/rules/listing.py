"""The rows of ``bouillotte variants list`` (id, title, players, source, extends of every
profile), kept in the user's cache folder so that listing needs neither pydantic nor YAML.

Building the profiles means importing pydantic, building the schema's models and reading
every profile with its ``extends:``: several times what Python and the command line cost
to start. Yet the rows depend on nothing but the files in the profile folders and the code
that reads them. So they are stored as JSON (``variant-rows-<sha256>.json`` in
:func:`~.diskcache.cache_dir`) under a hash of

- the code of the ``rules`` layer, the Python and the versions of pydantic and PyYAML
  (:func:`~.diskcache.code_digest`);
- every ``*.yaml`` file of every folder the library reads, in the order it reads them:
  the bundled folder, then the user's ``--variants`` folders, each file's name and bytes.

Building the rows checks every quote against its work's text (``quotecheck.py``), so the
texts the check read are stored beside the rows, each with a hash of its bytes; rows are
read back only while each of those texts is unchanged.

Only rows the profiles were built into are stored (and only if no file changed while they
were built), and the command prints the rows after a JSON round trip whether they were just
built or read back, so its output is the same byte for byte with a cold cache, a warm one,
or none. A folder that does not exist, a file
that cannot be read, a cache folder that cannot be read or written, a damaged, edited or
planted cache file (refused by :func:`~.diskcache.load`, or not a list of rows of the
right keys and types: checked here without pydantic, which listing does without): each only
means building the profiles as before (and the same error, where there is one).
"""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .diskcache import cache_dir, code_digest, content_digest, load, store
from .resources import bundled

MAX_FILE_BYTES = 1_048_576
"""The largest file hashed: ``yamlsource.MAX_FILE_BYTES``, the largest the library reads
(imported from there it would bring pydantic and PyYAML, which listing does without)."""

KIND = "variant-rows"
COLUMNS: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "title": (str,),
    "players": (int,),
    "source": (str,),
    "extends": (str, type(None)),
}
"""Each row's keys, in the order the list gives them, with the types a row may hold."""


def variant_rows(folders: Sequence[Path] = ()) -> list[dict[str, Any]]:
    """One row per variant of the bundled profiles and ``folders``, in the library's
    order (:meth:`~.profiles.Library.all`)."""
    path = _cache_file(folders)
    if path is not None:
        found = _rows(load(path, MAX_FILE_BYTES), announce=True)
        if found is not None:
            return found
    from .profiles import Library  # only now: pydantic, the schema and YAML

    library = Library(folders)
    rows = [
        {
            "id": v.id,
            "title": v.title,
            "players": v.players,
            "source": v.source,
            "extends": v.extends,
        }
        for v in library.all()
    ]
    read = [*library.quotes.texts_read(), *library.compared_texts]
    texts = {str(file): _digest(file) for file in read}
    notes = library.replaced
    text = json.dumps({"rows": rows, "texts": texts, "notes": notes}, ensure_ascii=False)
    if path is not None and _cache_file(folders) == path and None not in texts.values():
        store(path, text)  # no file changed meanwhile
    found = _rows(text)
    assert found is not None, "the rows of a library are always valid rows"
    return found


def _cache_file(folders: Sequence[Path]) -> Path | None:
    """Where the rows of these folders are stored, or ``None`` if a folder or file cannot
    be read (then the library reports it, or reads what it can, as it always has)."""
    parts: list[str | bytes] = []
    try:
        parts.append(code_digest("rules"))
        for folder in (bundled("variants"), *folders):
            if not folder.is_dir():
                return None
            parts.extend(("folder", str(folder.resolve())))  # its texts are read from it
            for file in sorted(folder.glob("*.yaml")):
                data = _contents(file)
                if data is None:
                    return None
                parts.extend((file.name, data))
        return cache_dir() / f"{KIND}-{content_digest(*parts)}.json"
    except (OSError, RuntimeError):  # unreadable, or no home folder to put the cache in
        return None


def _contents(file: Path) -> bytes | None:
    """The bytes of a regular file the library would read, or ``None`` for anything else
    (a folder, a device such as ``/dev/zero`` that never ends, a file over the size limit):
    the library then refuses it as it always has."""
    info = file.stat()
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
        return None
    with file.open("rb") as stream:
        data = stream.read(MAX_FILE_BYTES + 1)
    return data if len(data) <= MAX_FILE_BYTES else None


def _digest(file: Path) -> str | None:
    """A hash of a text's bytes, or ``None`` if it cannot be read as the library read it."""
    try:
        data = _contents(file)
    except OSError:
        return None
    return content_digest(data) if data is not None else None


def _rows(text: str | None, announce: bool = False) -> list[dict[str, Any]] | None:
    """The rows in ``text``, or ``None`` unless it holds well-formed rows and the texts the
    quotes were checked against are unchanged."""
    if text is None:
        return None
    try:
        stored = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested beyond Python's stack
        return None
    if not isinstance(stored, dict) or not isinstance(stored.get("texts"), dict):
        return None
    for file, digest in stored["texts"].items():
        if not isinstance(digest, str) or _digest(Path(file)) != digest:
            return None
    data, notes = stored.get("rows"), stored.get("notes")
    if not isinstance(data, list) or not isinstance(notes, list):
        return None
    if not all(isinstance(note, str) for note in notes):
        return None
    for row in data:
        if not isinstance(row, dict) or list(row) != list(COLUMNS):
            return None
        for key, types in COLUMNS.items():
            if type(row[key]) not in types:
                return None
    if announce:  # which profile stands in the place of another, as the library says it
        for note in notes:
            print(note, file=sys.stderr)
    return data
