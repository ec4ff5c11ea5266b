"""A profile flattened (``bouillotte variants export``): every rule stated, with its citation,
so that it can be read without the profiles it extends (a ``--no-bundled`` site of one's
own systems starts from one).

A rule the profile inherits keeps the citation of the profile that states it and is marked
``inherited_from:`` that profile (and ``source_silent: true`` where the profile's own source
says nothing of it), so every view shows it as inherited, as it did. With ``standalone``,
the works the profile cites and their shipped texts go with it (``sources.yaml`` and
``texts/``), and the folder reads with ``--no-bundled``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .profile import rule_paths
from .profiles import BIBLIOGRAPHY_FILE, Library
from .reading import read_regular
from .texts import TEXT_LIMIT
from .variant import Variant
from .writing import Output

TEXTS_FOLDER = "texts"


@dataclass(frozen=True)
class Export:
    """The files of an export, by name relative to the folder they go in."""

    files: dict[str, bytes]
    notes: tuple[str, ...] = ()
    """What the command says on stderr of what it wrote (a text given a name of its own)."""


def flattened(variant: Variant) -> dict[str, Any]:
    """The profile of ``variant`` with every rule stated: its value, its citation, and
    where it is inherited, the system it is inherited from."""
    values = _plain(variant.rules.model_dump())
    rules: dict[str, dict[str, Any]] = {}
    for path in rule_paths():
        group, name = path.split(".")
        info = variant.info[path]
        rule: dict[str, Any] = {"value": values[group][name]}
        if info.citation is not None:
            rule.update(info.citation.model_dump(mode="json", exclude_none=True))
        if info.is_inherited(variant.id):
            rule["inherited_from"] = info.defined_in
            if info.silent:
                rule["source_silent"] = True
        rules.setdefault(group, {})[name] = rule
    profile: dict[str, Any] = {"title": variant.title}
    if variant.short != variant.id:
        profile["short"] = variant.short
    profile["source"] = variant.source
    if variant.game != "bouillotte":
        profile["game"] = variant.game
    if variant.summary:
        profile["summary"] = variant.summary
    profile["rules"] = rules
    return profile


def _plain(value: Any) -> Any:
    """A dumped value as YAML writes it: enumerations as their values, tuples as lists,
    mapping keys kept as they are (a pack is keyed by its number of players)."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return _plain(value.value)
    return value


def cited_works(variant: Variant) -> list[str]:
    """The works the profile rests on: its source, then every work a rule cites."""
    works = [variant.source]
    for path in rule_paths():
        citation = variant.citation(path)
        if citation is not None and citation.source and citation.source not in works:
            works.append(citation.source)
    return works


class _Dumper(yaml.SafeDumper):
    """Block style, but a list of plain values on one line (``[A, K, '10']``), and a text
    holding an invisible format character in double quotes, where it is written as its
    escape (:func:`_yaml`)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flat = all(not isinstance(item, dict | list) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _is_hidden(char: str) -> bool:
    """A format character (Unicode's ``Cf``): invisible, and a bidirectional control among
    them (U+202E) turns the rest of its line right to left. PyYAML escapes the control
    characters, but writes these raw."""
    return unicodedata.category(char) == "Cf"


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if not _is_hidden(char):
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _represent_text(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    hidden = any(_is_hidden(c) for c in data if c > "\x7f")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"' if hidden else None)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(str, _represent_text)


def _yaml(data: Any, heading: str) -> bytes:
    """``data`` as YAML, after ``heading``. A text holding a format character is double
    quoted (:class:`_Dumper`), where the character is written as its YAML escape
    (``\\u202e``, as the site's ``data/profiles/*.yaml`` writes it): read back, the value
    is the same, and the file shows the character rather than obeying it."""
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=96)
    return (heading + _NON_ASCII.sub(_escape, text)).encode("utf-8")


def export(library: Library, variant_id: str, *, standalone: bool, as_id: str | None) -> Export:
    """The files of ``variant_id`` flattened: ``<id>.yaml``, and with ``standalone`` the
    bibliography of the works it cites and their texts."""
    variant = library.get(variant_id)
    new_id = as_id or variant_id
    heading = (
        f"# {new_id}: {variant_id} flattened by `bouillotte variants export` (every rule "
        "stated;\n# inherited_from: marks a value inherited from another system). "
        "See docs/profiles.md.\n"
    )
    profile = flattened(variant)
    if new_id == variant_id and replaces_another(library, variant_id):
        profile = {"replaces": True, **profile}  # it reads in the other's place, as it did
    files = {f"{new_id}.yaml": _yaml(profile, heading)}
    notes: list[str] = []
    if standalone:
        texts, notes = _text_names(library, cited_works(variant))
        works: dict[str, Any] = {}
        for work_id in cited_works(variant):
            work = library.works[work_id].model_dump(mode="json", exclude_none=True)
            if work_id in texts:
                name, data = texts[work_id]
                work["file"] = name
                files[name] = data
            works[work_id] = {k: v for k, v in work.items() if v != []}
        files[BIBLIOGRAPHY_FILE] = _yaml(
            {"works": works},
            f"# The works {new_id}.yaml cites, with their texts in {TEXTS_FOLDER}/ "
            "(written by `bouillotte variants export --standalone`).\n",
        )
    return Export(files, tuple(notes))


def replaces_another(library: Library, variant_id: str) -> bool:
    """Whether the profile of ``variant_id`` stands in the place of another of its id, a
    bundled one or one of an earlier folder (it says ``replaces: true``)."""
    own = library.files.get(variant_id)
    for folder in library.folders:
        if own is None or own.parent == folder:
            return False
        if (folder / own.name).is_file():
            return True
    return False


def _text_names(
    library: Library, work_ids: list[str]
) -> tuple[dict[str, tuple[str, bytes]], list[str]]:
    """Each work's text as the export writes it, ``(name, bytes)`` by work id, and a note
    for each text written under a name of its own.

    Every text goes into one folder, ``texts/``, under the name of its file. Two works whose
    texts have the same name (``texts/foster.txt``, the bundled Foster's and an editor's
    own) but not the same bytes would be written into one file, and every quote of one of
    them checked against the other's text: the work of the earlier folder (the bundled one
    first, which must be copied as it is to read beside the bundled library) keeps the name,
    the other's text is written as ``texts/<work id>.txt``. Names are compared regardless of
    case, as a disk that ignores case (macOS's, Windows') compares them."""
    read: dict[str, tuple[str, bytes]] = {}
    for work_id in work_ids:
        file = library.text_file(work_id)
        if file is not None:
            read[work_id] = (file.name, _text_bytes(work_id, file))

    def first_folder(work_id: str) -> int:
        file = library.text_file(work_id)
        assert file is not None
        found = (i for i, folder in enumerate(library.folders) if file.is_relative_to(folder))
        return next(found, len(library.folders))

    ordered = sorted(read, key=first_folder)  # stable: in the order cited within a folder
    taken: dict[str, tuple[str, str, bytes]] = {}
    """Each name written, folded, with the first work written there, the name and the text."""
    names: dict[str, tuple[str, bytes]] = {}
    later: list[str] = []
    for work_id in ordered:
        file_name, data = read[work_id]
        name = f"{TEXTS_FOLDER}/{file_name}"
        holder = taken.setdefault(name.casefold(), (work_id, name, data))
        if holder[2] == data:  # the same text may serve both works, under one name
            names[work_id] = (holder[1], data)
        else:
            later.append(work_id)
    notes = []
    renamed: dict[tuple[str, bytes], str] = {}  # one copy for the same text of the same name
    for work_id in later:
        file_name, data = read[work_id]
        name = renamed.get((file_name, data), "")
        if not name:
            suffix = Path(file_name).suffix
            name, number = f"{TEXTS_FOLDER}/{work_id}{suffix}", 1
            while name.casefold() in taken:
                number += 1
                name = f"{TEXTS_FOLDER}/{work_id}-{number}{suffix}"
            taken[name.casefold()] = (work_id, name, data)
            renamed[file_name, data] = name
        names[work_id] = (name, data)
        other = taken[f"{TEXTS_FOLDER}/{file_name}".casefold()][0]
        notes.append(
            f"note: {TEXTS_FOLDER}/{file_name} is the text of the work {other!r}; the text "
            f"of {work_id!r}, of that name too but other words, is written as {name}"
        )
    return {w: names[w] for w in work_ids if w in names}, notes


def _text_bytes(work_id: str, file: Path) -> bytes:
    """A work's text to copy: a regular file, not a link (a link could lead anywhere:
    copying it would publish whatever it reaches), within :data:`TEXT_LIMIT` bytes."""
    try:
        return read_regular(file, TEXT_LIMIT)
    except FileNotFoundError:
        raise InputError(f"the text of work {work_id!r} is missing", file=file) from None
    except InputError as exc:
        raise InputError(f"the text of work {work_id!r} {exc.message}", file=file) from None


def write_export(done: Export, folder: Path) -> list[Path]:
    """Write the files into ``folder`` all together or not at all (``writing.Output``),
    refusing before writing anything if one exists, or if a link stands in the way."""
    with Output(folder, "add") as out:
        for name, data in done.files.items():
            out.add(name, data)
    return out.written
