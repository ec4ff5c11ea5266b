"""Reading variant profiles from YAML: ``extends:``, citations and clear errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .citations import CITATION_KEYS, Citation, Work
from .errors import InputError
from .extends import MAX_EXTENDS as MAX_EXTENDS
from .extends import ExtendsChains
from .folderids import BIBLIOGRAPHY_FILE as BIBLIOGRAPHY_FILE
from .folderids import MEANINGS_FILE as MEANINGS_FILE
from .folderids import RESERVED_NAMES as RESERVED_NAMES
from .folderids import check_case
from .folderids import profile_id_fault as profile_id_fault
from .glossary import GLOSSARY_FILE, Term, load_glossary
from .idtext import escaped, id_fault, key_id_fault
from .locating import located
from .merging import merge_by_id
from .nearest import did_you_mean
from .profile import GROUPS, Rules
from .profilefile import (
    CITED_KEYS,
    INHERITANCE_KEYS,
    PROFILE_KEYS,
    VALUE_KEY,
    Inheritance,
    ProfileFile,
)
from .quotecheck import QuoteChecker, checked
from .readings import READINGS_FILE, Reading, load_readings
from .resources import bundled
from .texts import ShippedText, load_text, text_fault
from .unread import UNREAD_FILE, UnreadWork, load_unread
from .variant import RuleInfo, Variant
from .writing import note_input
from .yamlmodels import as_written, refusal, refused, replaced, validated, word_refused
from .yamlsource import Located, PathKey, read_yaml


@dataclass(frozen=True)
class _Entry:
    value: Any
    citation: Citation | None
    profile: str
    doc: Located
    path: PathKey
    """Where the rule stands in ``doc``, as ``("rules", group, field)``."""
    inheritance: Inheritance | None = None
    """In a flattened profile: the system the value is inherited from."""


class Library:
    """All profiles found in the bundled folder and the user's folders.

    A profile in a user's folder may stand in the place of a bundled one (or of one in an
    earlier folder) of the same id only if it says ``replaces: true``; each command then
    says so on stderr (:attr:`replaced`).
    """

    def __init__(self, folders: Sequence[Path] = (), include_bundled: bool = True) -> None:
        given = [bundled("variants"), *folders] if include_bundled else [*folders]
        # a folder given twice (mine and ./mine) is read once: each file clashed with itself
        real = [os.path.realpath(folder) for folder in given]
        self.folders = [folder for i, folder in enumerate(given) if real[i] not in real[:i]]
        self.files: dict[str, Path] = {}
        self.works: dict[str, Work] = {}
        readings_files: list[Path] = []
        glossary_files: list[Path] = []
        unread_files: list[Path] = []
        self.meanings_files: list[Path] = []
        """The ``meanings.yaml`` files of the folders, bundled first."""
        self._work_folders: dict[str, Path] = {}
        self.compared_texts: list[Path] = []
        """The texts of a work given again in a later folder, compared with the earlier's."""
        self.replaced: list[str] = []
        """The notes said on stderr: one per profile, reading, term or work not yet read
        that stands in the place of another of its id, and one per profile that says
        ``replaces: true`` with nothing to replace."""
        self.replaced_ids: set[str] = set()
        """The ids whose profile a user's says ``replaces: true`` of."""
        for folder in self.folders:
            if not folder.is_dir():
                raise InputError("no such folder of variant profiles", file=folder)
            for file in sorted(folder.glob("*.yaml")):
                if file.name == BIBLIOGRAPHY_FILE:
                    self._read_bibliography(file)
                elif file.name == READINGS_FILE:
                    readings_files.append(file)
                elif file.name == MEANINGS_FILE:
                    self.meanings_files.append(file)
                elif file.name == GLOSSARY_FILE:
                    glossary_files.append(file)
                elif file.name == UNREAD_FILE:
                    unread_files.append(file)
                else:
                    fault = id_fault(file.stem)
                    if fault is not None:
                        raise InputError(
                            f"the profile's id (its file's name): {fault}",
                            file=file,
                        )
                    if file.stem in self.files:
                        self._replace(file, self.files[file.stem])
                    check_case(file.stem, self.files, "profile", file, 1)
                    with suppress(OSError):  # every profile is read: none is an output
                        note_input(file.stat())
                    self.files[file.stem] = file
        for work_id in self.works:
            self._check_text(work_id)
        self.quotes = QuoteChecker({w: self.text_file(w) for w in self.works})
        """Checks every quote given as a source's words against its work's text."""
        self.readings: dict[str, Reading] = {}
        """The ambiguous sentences whose readings are values of a rule, by rule path."""
        self.reading_places: dict[str, tuple[Path, int | None]] = {}
        """For each rule with readings: the file and line of its reading's ``scenario``."""
        notes: list[str] = []
        read_in: dict[str, Path] = {}
        for file in readings_files:  # a user's folder adds readings or replaces a rule's
            loaded = load_readings(
                file, set(self.works), self.quotes.fault, set(self.files), self.reading_places
            )
            notes.extend(
                f"note: the readings of {rule} in {file} replace those of {read_in[rule]}"
                for rule in loaded
                if rule in read_in
            )
            read_in.update(dict.fromkeys(loaded, file))
            self.readings.update(loaded)
        names: dict[str, str] = {}  # each term's name, across the folders' glossaries
        self.glossary: list[Term] = merge_by_id(
            [
                (file, load_glossary(file, set(self.works), self.quotes.fault, names))
                for file in glossary_files
            ],
            "term",
            notes,
        )
        """The words of the game (``glossary.yaml``): the bundled terms, then a user's folder's
        (which replace a bundled term of the same id)."""
        self.unread: list[UnreadWork] = merge_by_id(
            [(file, load_unread(file, set(self.works))) for file in unread_files],
            "work not yet read",
            notes,
        )
        """The works known but not yet read (``unread.yaml``), the bundled ones first."""
        for note in notes:
            self._note(note)
        self._docs: dict[str, Located] = {}
        self._files: dict[str, ProfileFile] = {}
        self._entries: dict[str, dict[str, _Entry]] = {}
        self._chains = ExtendsChains(self.files, self._doc, lambda v: self._file(v).extends)
        """The ``extends:`` chain of each profile, measured once (:class:`.ExtendsChains`)."""
        self._variants: dict[str, Variant] = {}

    def _replace(self, file: Path, earlier: Path) -> None:
        """Let ``file`` replace the profile of the same id in ``earlier`` only if it says
        ``replaces: true``; note the replacement (:attr:`replaced`) and say it on stderr."""
        doc = read_yaml(file)
        data = doc.data if isinstance(doc.data, dict) else {}
        replaces = data.get("replaces")
        if "replaces" in data and not isinstance(replaces, bool):
            validated(ProfileFile, doc)  # refused as in any profile: replaces: "true" is text
        other = (
            f"the bundled profile {file.stem!r}"
            if earlier.parent == bundled("variants")
            else f"the profile in {earlier}"
        )
        if replaces is not True:
            raise InputError(
                f"the id {file.stem!r} (the file's name) is already {other}: "
                "rename this file for a system of its own, or say 'replaces: true' in it to "
                f"use it in place of that one (and under every profile that extends "
                f"{file.stem})",
                file=file,
                line=doc.line(("replaces",)) if "replaces" in data else 1,
            )
        self.replaced_ids.add(file.stem)
        self._note(f"note: using {file} (replaces: true) in place of {other}")

    def _unread_spelling(self, variant_id: str) -> str:
        """Where a folder holds ``variant_id``'s profile under another ending (``x.yml``,
        ``x.YAML``), which is never read: the words that say so, else ""."""
        for folder in self.folders:
            with suppress(OSError):
                for file in folder.iterdir():
                    if file.stem == variant_id and file.suffix != ".yaml":
                        return (
                            f" ({file} is there, but not read: a profile's file name ends in .yaml)"
                        )
        return ""

    # -- public ---------------------------------------------------------------------

    def ids(self) -> list[str]:
        return sorted(self.files)

    def rests_on_a_replacement(self, variant_id: str) -> bool:
        """Whether ``variant_id``'s profile, or one its ``extends:`` chain is built on, is a
        user's replacement of another (:attr:`replaced_ids`)."""
        seen: set[str] = set()
        current: str | None = variant_id
        while current is not None and current in self.files and current not in seen:
            if current in self.replaced_ids:
                return True
            seen.add(current)
            current = self._file(current).extends
        return False

    def get(self, variant_id: str) -> Variant:
        fault = id_fault(variant_id)
        if fault is not None and variant_id not in self.files:
            raise InputError(f"not a variant id: {fault}")
        if variant_id not in self.files:
            raise InputError(
                f"unknown variant {variant_id!r}{did_you_mean(variant_id, self.ids())}; "
                f"known variants: {', '.join(self.ids())}{self._unread_spelling(variant_id)}"
            )
        if variant_id not in self._variants:
            self._variants[variant_id] = self._build(variant_id)
        return self._variants[variant_id]

    def all(self) -> list[Variant]:
        """Every variant, in families: each root profile, then those built on it."""
        variants = {v: self.get(v) for v in self.ids()}

        def root(v: Variant) -> str:
            while v.extends is not None and v.extends in variants:
                v = variants[v.extends]
            return v.id

        return sorted(variants.values(), key=lambda v: (root(v), v.extends is not None, v.id))

    def select(self, ids: Iterable[str] | None) -> list[Variant]:
        """The variants of ``ids``, each once (``-v foster -v foster`` is foster), in the
        order first named; every variant for ``None``."""
        return self.all() if ids is None else [self.get(v) for v in dict.fromkeys(ids)]

    def text_file(self, work_id: str) -> Path | None:
        """The shipped text of a work (its ``file``, beside the bibliography that names it)."""
        work = self.works.get(work_id)
        if work is None or work.file is None:
            return None
        return self._work_folders[work_id] / work.file

    def _check_text(self, work_id: str) -> None:
        """Refuse a work's text that may not be read (:func:`texts.text_fault`)."""
        file = self.text_file(work_id)
        fault = None if file is None else text_fault(file, self._work_folders[work_id])
        if fault is not None:
            raise InputError(f"the text of work {work_id!r} {fault}", file=file, field="file")

    def text(self, work_id: str) -> ShippedText | None:
        """The shipped text of a work, read; ``None`` if the bibliography names none."""
        file = self.text_file(work_id)
        if file is None:
            return None
        if not file.is_file():
            raise InputError(f"the text of work {work_id!r} is missing", file=file, field="file")
        try:
            return load_text(file)
        except UnicodeDecodeError:
            raise InputError(f"the text of work {work_id!r} is not UTF-8", file=file) from None

    # -- reading --------------------------------------------------------------------

    def _read_bibliography(self, file: Path) -> None:
        doc = read_yaml(file)
        works = doc.data.get("works") if isinstance(doc.data, dict) else None
        if not isinstance(works, dict):
            raise InputError(
                "a bibliography needs a mapping 'works:' of work id to author, title, year",
                file=file,
                line=doc.line(()),
            )
        for work_id, raw in works.items():
            # A work's id names its page and its BibTeX key: "house.rules" and "house-rules"
            # would share a page, "é" make an empty key, YAML's null a key "None".
            fault = key_id_fault(work_id)
            if fault is not None:
                raise InputError(
                    f"the work's id: {fault}",
                    file=file,
                    line=doc.line(("works", work_id)),
                    field=f"works.{escaped(str(work_id))}",
                )
            try:
                work = as_written(Work, raw, doc, ("works", work_id))
            except ValidationError as exc:
                raise refused(Work, exc, doc, ("works", work_id)) from None
            if str(work_id) in self.works:
                self._same_work(file, doc, str(work_id), work)
            check_case(str(work_id), self.works, "work", file, doc.line(("works", work_id)))
            self.works[str(work_id)] = work
            self._work_folders[str(work_id)] = file.parent

    def _same_work(self, file: Path, doc: Located, work_id: str, work: Work) -> None:
        """A work of an earlier bibliography (the bundled one, or an earlier folder's) may be
        given again only as it is, with the same text (as ``variants export --standalone``
        copies it): never to stand in its place, which would change every citation and
        every quote checked against it."""
        earlier_folder = self._work_folders[work_id]
        other = (
            f"the bundled work {work_id!r}"
            if earlier_folder == bundled("variants")
            else f"the work {work_id!r} of {earlier_folder / BIBLIOGRAPHY_FILE}"
        )
        same = work == self.works[work_id]
        if same and work.file is not None:
            mine, theirs = file.parent / work.file, earlier_folder / work.file
            self.compared_texts.extend((mine, theirs))
            same = _same_bytes(mine, theirs)
        if not same:
            raise InputError(
                f"the work id {work_id!r} is already {other}, and this entry (or its text) "
                "differs from it: give your work an id of its own (and cite it by that id)",
                file=file,
                line=doc.line(("works", work_id)),
            )

    def _doc(self, variant_id: str) -> Located:
        """The profile file, read and checked against the file format (``ProfileFile``);
        its rules are checked when the profile is built."""
        if variant_id not in self._docs:
            doc = read_yaml(self.files[variant_id])
            if not isinstance(doc.data, dict):
                raise InputError(
                    "a profile must be a mapping with title, source, rules (and extends)",
                    file=doc.file,
                    line=1,
                )
            for key in doc.data:
                if key not in PROFILE_KEYS:
                    raise InputError(
                        f"unknown key {key!r}{did_you_mean(key, PROFILE_KEYS)}; "
                        f"a profile has {', '.join(sorted(PROFILE_KEYS))}",
                        file=doc.file,
                        line=doc.line((key,)),
                        field=str(key),
                    )
            self._files[variant_id] = validated(ProfileFile, doc)
            self._docs[variant_id] = doc
            if self._files[variant_id].replaces and variant_id not in self.replaced_ids:
                self._note(
                    f"note: {doc.file} says 'replaces: true', but no bundled profile or "
                    f"profile of an earlier folder is {variant_id!r}: it is a system of its "
                    "own (is its file's name the id of the one it should replace?)"
                )
        return self._docs[variant_id]

    def _note(self, note: str) -> None:
        """Say ``note`` on stderr and keep it (:attr:`replaced`)."""
        self.replaced.append(note)
        print(note, file=sys.stderr)

    def _file(self, variant_id: str) -> ProfileFile:
        self._doc(variant_id)
        return self._files[variant_id]

    def _entries_of(self, variant_id: str) -> dict[str, _Entry]:
        if variant_id in self._entries:
            return self._entries[variant_id]
        self._chains.length(variant_id)  # the chain is sound before any of it is built
        doc = self._doc(variant_id)
        entries: dict[str, _Entry] = {}
        parent = self._file(variant_id).extends
        if parent is not None:
            entries.update(self._entries_of(parent))
        own = self._own_entries(variant_id, doc)
        self._check_quotes(own)
        entries.update(own)
        self._entries[variant_id] = entries
        return entries

    def _own_entries(self, variant_id: str, doc: Located) -> dict[str, _Entry]:
        rules = self._file(variant_id).rules
        own: dict[str, _Entry] = {}
        for group, fields in rules.items():
            if group not in GROUPS:
                raise InputError(
                    f"unknown group of rules {group!r}{did_you_mean(group, GROUPS)}; "
                    f"the groups are {', '.join(GROUPS)}",
                    file=doc.file,
                    line=doc.line(("rules", group)),
                    field=f"rules.{group}",
                )
            if not isinstance(fields, dict):
                raise InputError(
                    "a group of rules must be a mapping of rule names to values",
                    file=doc.file,
                    line=doc.line(("rules", group)),
                    field=f"rules.{group}",
                )
            known = GROUPS[group].model_fields
            for name, raw in fields.items():
                path: PathKey = ("rules", group, name)
                if name not in known:
                    raise InputError(
                        f"unknown rule {group}.{name}{did_you_mean(name, known)}; "
                        f"the rules of {group} are {', '.join(known)}",
                        file=doc.file,
                        line=doc.line(path),
                        field=f"rules.{group}.{name}",
                    )
                value, citation, inheritance = self._split(raw, doc, path)
                if inheritance is not None and inheritance.inherited_from == variant_id:
                    raise InputError(
                        "inherited_from names this very profile: name the system the value "
                        "comes from, or leave inherited_from out for a value of its own",
                        file=doc.file,
                        line=doc.line((*path, "inherited_from")),
                        field=f"rules.{group}.{name}.inherited_from",
                    )
                own[f"{group}.{name}"] = _Entry(value, citation, variant_id, doc, path, inheritance)
        return own

    def _check_quotes(self, own: dict[str, _Entry]) -> None:
        """Every quote of a profile given as its source's words, found in the source's
        text (:mod:`.quotecheck`); else bad input at the quote's line."""
        for entry in own.values():
            citation = entry.citation
            if not checked(citation):
                continue
            assert citation is not None and citation.source and citation.quote
            fault = self.quotes.fault(citation.source, citation.quote)
            if fault is not None:
                raise entry.doc.fault((*entry.path, "quote"), fault)

    def _split(
        self, raw: Any, doc: Located, path: PathKey
    ) -> tuple[Any, Citation | None, Inheritance | None]:
        """Separate a rule's value from its citation (``value:`` plus citation keys) and,
        in a flattened profile, the mark of an inherited value."""
        if not (isinstance(raw, dict) and VALUE_KEY in raw):
            return raw, None, None
        extra = set(raw) - CITED_KEYS
        if extra:
            key = sorted(extra, key=str)[0]
            raise InputError(
                f"unknown key {key!r} beside '{VALUE_KEY}'; a citation has "
                f"{', '.join(sorted(CITATION_KEYS))}",
                file=doc.file,
                line=doc.line((*path, key)),
                field=".".join(str(p) for p in (*path, key)),
            )
        marks = {k: v for k, v in raw.items() if k in INHERITANCE_KEYS}
        cited = {k: v for k, v in raw.items() if k != VALUE_KEY and k not in INHERITANCE_KEYS}
        model: type[Inheritance | Citation] = Inheritance
        try:
            inheritance = as_written(Inheritance, marks, doc, path) if marks else None
            if not cited:
                return raw[VALUE_KEY], None, inheritance
            model = Citation
            citation = as_written(Citation, cited, doc, path)
        except ValidationError as exc:
            fault = refusal(model, exc)
            loc = (*path, *fault.loc)
            raise InputError(
                fault.message,
                file=doc.file,
                line=doc.line(loc),
                field=".".join(str(p) for p in loc),
            ) from None
        if citation.source is not None and citation.source not in self.works:
            raise InputError(
                f"unknown source id{did_you_mean(citation.source, self.works)}; "
                f"the bibliography ({BIBLIOGRAPHY_FILE}) has "
                f"{', '.join(sorted(self.works))}",
                file=doc.file,
                line=doc.line((*path, "source")),
                field=".".join(str(p) for p in (*path, "source")),
                value=citation.source,
                has_value=True,
            )
        return raw[VALUE_KEY], citation, inheritance

    # -- building -------------------------------------------------------------------

    def _build(self, variant_id: str) -> Variant:
        entries = self._entries_of(variant_id)
        doc = self._doc(variant_id)
        profile = self._file(variant_id)
        if profile.extends is not None:
            # every profile read is checked on its own: a parent's bad rule is refused at
            # the parent's line, even where this one states the rule again
            self.get(profile.extends)
        source = profile.source
        if source not in self.works:
            raise InputError(
                f"unknown source id{did_you_mean(source, self.works)}; "
                f"the bibliography has {', '.join(sorted(self.works))}",
                file=doc.file,
                line=doc.line(("source",)),
                field="source",
                value=source,
                has_value=True,
            )
        nested: dict[str, dict[str, Any]] = {group: {} for group in GROUPS}
        for path, entry in entries.items():
            group, name = path.split(".")
            nested[group][name] = entry.value
        rules = self._rules(nested, entries, doc)
        info = {
            path: RuleInfo(
                path=path,
                value=getattr(getattr(rules, path.split(".")[0]), path.split(".")[1]),
                citation=entry.citation,
                defined_in=entry.inheritance.inherited_from
                if entry.inheritance and entry.inheritance.inherited_from
                else entry.profile,
                file=str(entry.doc.file),
                line=entry.doc.line(entry.path),
                silent=(entry.profile != variant_id and self._file(entry.profile).source != source)
                or (entry.inheritance is not None and entry.inheritance.source_silent),
            )
            for path, entry in entries.items()
        }
        return Variant(
            id=variant_id,
            game=profile.game,
            title=profile.title or variant_id,
            source=source,
            summary=profile.summary or "",
            extends=profile.extends,
            short=profile.short or variant_id,
            file=str(doc.file),
            rules=rules,
            info=info,
            bibliography=self.works,
        )

    def _rules(
        self, nested: dict[str, dict[str, Any]], entries: dict[str, _Entry], doc: Located
    ) -> Rules:
        """The rules validated strictly (``true`` is not 1); a value that YAML 1.1 read as a
        boolean from a word (``on``, ``no``...) where the rule wants text, or a number where
        it wants one of its words (a rank written ``9``, as a key or in a list), is the word,
        as :func:`~.yamlmodels.as_written` gives it (each rule's value stands in its own
        file)."""
        tried: set[PathKey] = set()
        while True:
            try:
                return Rules.model_validate(nested, strict=True)
            except ValidationError as exc:
                again = False
                for error in exc.errors():
                    loc = tuple(error["loc"])
                    entry = entries.get(".".join(str(p) for p in loc[:2]))
                    if entry is None:
                        continue
                    at = (*entry.path, VALUE_KEY)  # where the value stands in its file
                    at = at if at in entry.doc.lines else entry.path
                    found = word_refused(error, loc[2:], entry.doc, at, tried)
                    if found is not None:
                        inner, word = found
                        group, name = str(loc[0]), str(loc[1])
                        nested[group][name] = replaced(nested[group][name], inner, word)
                        tried.add((*at, *inner))
                        again = True
                if not again:
                    raise located(exc, entries, doc, Rules) from None


def _same_bytes(a: Path, b: Path) -> bool:
    """Whether two files hold the same bytes (a missing or unreadable one differs)."""
    try:
        return a.is_file() and b.is_file() and a.read_bytes() == b.read_bytes()
    except OSError:
        return False
