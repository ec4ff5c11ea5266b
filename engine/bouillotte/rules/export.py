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
    """Block style, but a list of plain values on one line (``[A, K, '10']``)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flat = all(not isinstance(item, dict | list) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_Dumper.add_representer(list, _represent_list)


def _yaml(data: Any, heading: str) -> bytes:
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=96)
    return (heading + text).encode("utf-8")


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
    files = {f"{new_id}.yaml": _yaml(flattened(variant), heading)}
    if standalone:
        works: dict[str, Any] = {}
        for work_id in cited_works(variant):
            work = library.works[work_id].model_dump(mode="json", exclude_none=True)
            file = library.text_file(work_id)
            if file is not None:
                name = f"{TEXTS_FOLDER}/{file.name}"
                work["file"] = name
                files[name] = _text_bytes(work_id, file)
            works[work_id] = {k: v for k, v in work.items() if v != []}
        files[BIBLIOGRAPHY_FILE] = _yaml(
            {"works": works},
            f"# The works {new_id}.yaml cites, with their texts in {TEXTS_FOLDER}/ "
            "(written by `bouillotte variants export --standalone`).\n",
        )
    return Export(files)


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
