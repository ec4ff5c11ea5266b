"""The hostile catalogue, round five (issue 47): the command line and the profiles' words.

- An option that holds one value is given once: ``--seed 1 --seed 2`` ran seed 2 and
  ``session -v foster -v pagat`` played pagat, without a word.
- A file named ``-`` written as a path (``./-``) is a file, not stdout.
- ``/dev/null`` is taken as "discard this table"; other devices stay refused.
- ``--json`` with a second table's ``-`` is refused as with ``--csv -``; ``compare --only ''``
  names no system rather than every one.
- What is shown on one line (a system's or a work's title, a short name, an author) holds no
  line break and has a bounded length; a path in a line of progress is escaped as in an
  error line: neither can print a line that looks like the tool's own ``error:``.
- Ids that differ only in case, and the names Windows keeps for devices, are refused: they
  would name one page on a disk that ignores case, and one BibTeX key.
- A year is written in the digits 0-9; a web address holds no invisible mark.
- ``new .`` does not replace the folder the shell is in; ``differences --save`` does not
  write scenarios into a folder of profiles it reads; a file replaced keeps its permissions.
- ``--cluster 'tcp://[::1'`` and a folder of profiles holding a name that is not UTF-8 are one
  line each, not a traceback; ``strong solve`` stops within the memory the process may take.

The cases run exactly as those of ``test_catalogue.py``; each was shown failing before its
fix (the closing note of the stop that added it says how).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup, _edit, _editor_folder
from .test_catalogue_files import SCENARIO, _file

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "title: X\nsource: foster\nextends: foster\n"
LIST = ("variants", "list", "--variants", "{tmp}/p")


def _work(entry: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        with (_editor_folder(tmp) / "sources.yaml").open("a", encoding="utf-8") as file:
            file.write(f"  {entry}\n")
        return None

    return setup


def _titled(title: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        _edit(_editor_folder(tmp) / "our-table.yaml", "title: Our table", f"title: {title}")
        return None

    return setup


def _empty_folder(tmp: Path) -> Cleanup:
    (tmp / "emp").mkdir()
    return None


def _undecodable_profile(tmp: Path) -> Cleanup:
    (tmp / "p").mkdir()
    (tmp / "p" / "a.yaml").write_text(PROFILE, "utf-8")
    os.close(os.open(os.path.join(os.fsencode(tmp / "p"), b"\xfe.yaml"), os.O_CREAT | os.O_WRONLY))
    return None


GLOSSARY_TERM = (
    '  - id: {id}\n    term: "{term}"\n    definition: d\n    source: house-rules\n'
    '    locator: Void deals\n    quote: "If no one will open, the deal is void"\n'
    "    status: documented\n"
)


def _glossary(*terms: tuple[str, str]) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        text = "terms:\n" + "".join(GLOSSARY_TERM.format(id=i, term=t) for i, t in terms)
        (_editor_folder(tmp) / "glossary.yaml").write_text(text, "utf-8")
        return None

    return setup


def _reading(value: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (_editor_folder(tmp) / "readings.yaml").write_text(
            "readings:\n  - id: levy\n    rule: void_deals.void_levy\n"
            "    source: house-rules\n    locator: Void deals\n"
            '    quote: "If no one will open, the deal is void"\n    question: How much?\n'
            f"    readings:\n      - value: 2\n        meaning: two\n"
            f"      - value: {value}\n        meaning: odd\n"
            "    scenario: our-table-nobody-opens\n    variant: our-table\n",
            "utf-8",
        )
        return None

    return setup


def _text_header(old: str, new: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        _edit(_editor_folder(tmp) / "texts" / "house-rules.txt", old, new)
        return None

    return setup


def _unread(entry: str) -> Callable[[Path], Cleanup]:
    """A work not yet read, its fields those of ``entry`` (``key: value``, YAML) where it
    gives them."""

    def setup(tmp: Path) -> Cleanup:
        fields = {"id": "x-1", "title": "T", "year": "'1883'", "status": "cited", "known": "K"}
        key, _, value = entry.partition(": ")
        fields[key] = value
        flow = ", ".join(f"{k}: {v}" for k, v in fields.items())
        (_editor_folder(tmp) / "unread.yaml").write_text(f"works:\n  - {{{flow}}}\n", "utf-8")
        return None

    return setup


def _folder_named(name: str) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        (tmp / name).mkdir()
        return None

    return setup


def _blank_glossary_field(name: str) -> Callable[[Path], Cleanup]:
    """A glossary of one term whose field ``name`` is written blank."""
    written = {
        "term": 'term: "Word"',
        "definition": "definition: d",
        "locator": "locator: Void deals",
    }

    def setup(tmp: Path) -> Cleanup:
        _glossary(("word", "Word"))(tmp)
        _edit(tmp / "ed" / "variants" / "glossary.yaml", written[name], f'{name}: ""')
        return None

    return setup


def _session_copied(tmp: Path) -> Cleanup:
    shutil.copy(ROOT / "scenarios" / "sessions" / "pagat-teaching.yaml", tmp / "session.yaml")
    return None


ED_LIST = ("variants", "list", "--variants", "{tmp}/ed/variants")
ED_SOURCES = ("sources", "--variants", "{tmp}/ed/variants")

CASES = [
    # -- an option that holds one value, given once -----------------------------------------
    Case(
        "deals-given-twice",
        ("simulate", "-v", "foster", "-n", "3", "--deals", "5", "-q"),
        "given twice (as -n, then as --deals) ('3' and '5')",
        real=True,
    ),
    Case(
        "seed-given-twice",
        ("simulate", "-v", "foster", "-n", "3", "--seed", "1", "--seed", "2"),
        "given twice ('1' and '2')",
        real=True,
    ),
    Case(
        "one-system-command-given-two",
        ("session", "pagat-teaching", "-v", "foster", "-v", "pagat"),
        "given twice ('foster' and 'pagat')",
        real=True,
    ),
    Case(
        "a-flag-and-its-opposite",
        ("strong", "solve", "--straddles", "--no-straddles"),
        "given twice (as --straddles, then as --no-straddles)",
        real=True,
    ),
    Case(
        "towards-given-twice",
        ("sweep", "foster", "--towards", "pagat", "--towards", "britannica-1911", "-n", "1"),
        "given twice ('pagat' and 'britannica-1911')",
        real=True,
    ),
    # -- '-' and /dev/null ---------------------------------------------------------------------
    Case(
        "csv-file-named-dash-written-as-a-path",
        ("odds", "-v", "foster", "--csv", "./-"),
        "foster: 4 players",
        exit=0,
        made=("-",),
    ),
    Case(
        "csv-file-named-dash-after-equals",
        ("session", "pagat-teaching", "--deals-csv=./-"),
        "Session under pagat",
        exit=0,
        made=("-",),
    ),
    Case(
        "csv-discarded-into-dev-null",
        ("sources", "--csv", "/dev/null", "--statements-csv", "/dev/null"),
        "Sources, oldest first",
        exit=0,
    ),
    Case(
        "json-with-a-second-table-on-stdout",
        ("session", "pagat-teaching", "--json", "--deals-csv", "-"),
        "--json and --deals-csv -: both print on stdout",
    ),
    Case(
        "json-with-sources-table-on-stdout",
        ("sources", "--json", "--statements-csv", "-"),
        "--json and --statements-csv -: both print on stdout",
    ),
    Case(
        "compare-only-empty",
        ("compare", "foster-sight", "--only", ""),
        "-v and --only name a system each, not an empty one",
    ),
    Case(
        "compare-only-with-an-empty-item",
        ("compare", "foster-sight", "--only", "foster,,pagat"),
        "-v and --only name a system each, not an empty one",
    ),
    # -- what is shown on one line ----------------------------------------------------------------
    Case(
        "profile-title-with-a-line-break",
        ED_LIST,
        "our-table.yaml:3: title: is shown on one line: it may not hold a line break",
        setup=_titled('"Our\\nerror: variants/foster.yaml:1: forged"'),
    ),
    Case(
        "profile-title-of-a-control-character",
        ED_LIST,
        "title: is shown on one line: it may not hold a line break or a control character "
        "(\\u001b at character 4)",
        setup=_titled('"Our\\e[2Jtable"'),
    ),
    Case(
        "profile-short-name-too-long",
        LIST,
        "a.yaml:2: short: has at most 60 characters, not 450,000",
        setup=_file("p/a.yaml", PROFILE.replace("source:", f"short: {'S' * 450_000}\nsource:")),
    ),
    Case(
        "profile-title-too-long",
        LIST,
        "a.yaml:1: title: has at most 200 characters, not 201",
        setup=_file("p/a.yaml", PROFILE.replace("title: X", f"title: {'T' * 201}")),
    ),
    Case(
        "scenario-title-with-a-line-break",
        ("run", "{tmp}/s.yaml"),
        "s.yaml:2: title: is shown on one line",
        setup=_file(
            "s.yaml",
            'id: s\ntitle: "Nobody\\nerror: x"\nsource: {work: foster, locator: "x", '
            "status: constructed}\nplayers: [A, B, C, D]\ndealer: D\nhands: {A: [AS, KH, 9D], "
            "B: [KS, QH, 8D], C: [QS, 9H, AC], D: [9S, AD, KC]}\nretourne: 8C\nactions: "
            "[A pass, B pass, C pass, D pass]\nvariants: [foster]\n",
        ),
    ),
    Case(
        "work-title-with-a-line-break",
        ED_SOURCES,
        "works.w1.title: is shown on one line: it may not hold a line break",
        setup=_work('w1: {author: Smith, title: "House\\nerror: forged", year: "1900"}'),
    ),
    Case(
        "work-author-of-an-invisible-character",
        ED_SOURCES,
        "works.w1.author: must hold words, not be empty or blank (value: '\\u200b')",
        setup=_work('w1: {author: "\\u200b", title: T, year: "1900"}'),
    ),
    Case(
        "work-author-name-with-a-line-break",
        ED_SOURCES,
        "works.w1.authors: ",
        setup=_work('w1: {author: A, authors: ["Smith,\\nJohn"], title: T, year: "1900"}'),
    ),
    Case(
        "work-year-in-arabic-indic-digits",
        ED_SOURCES,
        "works.w1.year: '\u0661\u0668\u0669\u0667' names no year: write the year of the "
        "edition used in the digits 0-9",
        setup=_work('w1: {author: Smith, title: T, year: "\u0661\u0668\u0669\u0667"}'),
    ),
    Case(
        "work-year-in-fullwidth-digits",
        ED_SOURCES,
        "names no year",
        setup=_work('w1: {author: Smith, title: T, year: "\uff11\uff19\uff10\uff15"}'),
    ),
    Case(
        "work-url-with-a-bidi-override",
        ED_SOURCES,
        "works.w1.url: the url holds an invisible mark (U+202E)",
        setup=_work(
            'w1: {author: Smith, title: T, year: "1900", url: "https://e.org/\\u202egpj.exe"}'
        ),
    ),
    Case(
        "work-url-with-a-zero-width-space",
        ED_SOURCES,
        "the url holds an invisible mark (U+200B)",
        setup=_work('w1: {author: S, title: T, year: "1900", url: "https://e.org/a\\u200bb"}'),
    ),
    *[
        Case(
            f"work-url-{name}",
            ED_SOURCES,
            says,
            setup=_work(f'w1: {{author: S, title: T, year: "1900", url: "{url}"}}'),
        )
        for name, url, says in (
            ("port-not-a-number", "https://e.org:abc/", "the url's host or port is not an"),
            ("port-out-of-range", "https://e.org:99999/", "Port out of range"),
            ("ipv6-bracket-unclosed", "https://[::1/x", "Invalid IPv6 URL"),
            ("host-a-quote", "http://'/", "is not a host's name"),
            ("host-percent-encoded", "https://%zz/", "is not a host's name"),
        )
    ],
    Case(
        "glossary-two-terms-of-one-name",
        ED_LIST,
        "glossary.yaml:10: terms.1.term: the term 'cafe-one' has this name already",
        setup=_glossary(("cafe-one", "caf\u00e9"), ("cafe-two", "Cafe\u0301")),
    ),
    *[
        Case(
            f"glossary-term-id-of-the-page-s-{name}",
            ED_LIST,
            "the glossary page already has an element of this id",
            setup=_glossary((name, "Word")),
        )
        for name in ("main", "cite-bibtex", "site-search-input", "contents-label")
    ],
    *[
        Case(
            f"reading-value-{name}",
            ED_LIST,
            "readings.1.value: not a value of the rule void_deals.void_levy",
            setup=_reading(value),
        )
        for name, value in (("text-of-a-number", "'2 '"), ("a-boolean", "true"))
    ],
    Case(
        "text-language-empty",
        ED_LIST,
        "house-rules.txt) is not a shipped text: line 2: Text language: '' is not a language tag",
        setup=_text_header("Work: house-rules\n", "Work: house-rules\nText language:\n"),
    ),
    Case(
        "text-language-not-a-tag",
        ED_LIST,
        "is not a language tag",
        setup=_text_header("Work: house-rules\n", 'Work: house-rules\nText language: "><b\n'),
    ),
    Case(
        "text-header-key-twice",
        ED_LIST,
        "house-rules.txt) is not a shipped text: line 2: the header gives 'Work' twice",
        setup=_text_header("Work: house-rules\n", "Work: house-rules\nWork: other\n"),
    ),
    Case(
        "text-header-line-without-a-colon",
        ED_LIST,
        "a header line is 'Key: value'",
        setup=_text_header("Work: house-rules\n", "Work: house-rules\nno colon here\n"),
    ),
    # -- empty names, long values, days ------------------------------------------------------
    *[
        Case(
            f"empty-name-for-{option.strip('-')}",
            (*argv, option, ""),
            f"Invalid value for '{option}': an empty name is no file or folder",
            real=True,
        )
        for argv, option in (
            (("variants", "export", "foster"), "--out"),
            (("variants", "list"), "--variants"),
            (("differences", "foster", "pagat", "-n", "3"), "--save"),
            (("golden",), "--dir"),
        )
    ],
    Case(
        "a-card-of-300000-characters-is-shown-cut",
        ("run", "{tmp}/s.yaml"),
        "(300,001 characters) is not a card",
        setup=_file("s.yaml", SCENARIO.replace("retourne: 8C", f"retourne: {'9' * 300_000}H")),
    ),
    Case(
        "work-accessed-an-unquoted-day",
        ED_SOURCES,
        "house-rules",
        exit=0,
        setup=_work(
            'w1: {author: S, title: T, year: "1900", url: "https://e.org/", accessed: 2026-02-28}'
        ),
    ),
    Case(
        "work-accessed-a-day-to-come",
        ED_SOURCES,
        "works.w1.accessed: 2999-02-28 is a day still to come",
        setup=_work(
            'w1: {author: S, title: T, year: "1900", url: "https://e.org/", accessed: 2999-02-28}'
        ),
    ),
    # -- scenarios read once, by their id ----------------------------------------------------------
    Case(
        "scenario-id-beside-a-folder-of-that-name",
        ("run", "foster-sight"),
        "Calling for a sight",
        exit=0,
        setup=_folder_named("foster-sight"),
    ),
    Case(
        "session-id-beside-a-folder-of-that-name",
        ("session", "pagat-teaching"),
        "Session under pagat",
        exit=0,
        setup=_folder_named("pagat-teaching"),
    ),
    Case(
        "scenario-file-given-twice",
        ("check", "{tmp}/c", "{tmp}/c/mine.yaml", "{tmp}/c/./mine.yaml"),
        "1 run of 1 scenario",
        exit=0,
        setup=_file("c/mine.yaml", SCENARIO),
    ),
    *[
        Case(
            f"scenario-{field}-listed-twice",
            ("run", "{tmp}/s.yaml"),
            f"{field}: '{name}' is listed twice (items 0 and 1)",
            setup=_file("s.yaml", SCENARIO.replace(old, new)),
        )
        for field, name, old, new in (
            ("variants", "foster", "variants: [foster]", "variants: [foster, foster]"),
            ("stifled", "D", "variants:", "stifled: [D, D]\nvariants:"),
        )
    ],
    # -- an editor's other files ---------------------------------------------------------------
    *[
        Case(
            f"unread-{name}",
            ED_LIST,
            says,
            setup=_unread(entry),
        )
        for name, entry, says in (
            ("title-blank", "title: ' '", "works.0.title: must hold words"),
            ("year-none", "year: 'soon'", "works.0.year: 'soon' names no year"),
            ("known-blank", "known: ''", "works.0.known: must hold words"),
            ("cited-twice", "cited_in: [foster, foster]", "'foster' is listed twice"),
            ("label-blank", "identifiers: [{label: '', value: v}]", "label: must hold words"),
        )
    ],
    *[
        Case(
            f"glossary-{name}-blank",
            ED_LIST,
            f"terms.0.{name}: must hold words",
            setup=_blank_glossary_field(name),
        )
        for name in ("term", "definition", "locator")
    ],
    Case(
        "site-title-invisible",
        ("site", "build", "--config", "{tmp}/site.yaml", "--out", "{tmp}/o"),
        "site.yaml:1: title: must hold words, not be empty or blank",
        setup=_file("site.yaml", 'title: "\\u200b"\n'),
        gone=("o",),
    ),
    Case(
        "site-edition-date-in-fullwidth-digits",
        ("site", "build", "--config", "{tmp}/site.yaml", "--out", "{tmp}/o"),
        "edition_date: must be a day written YYYY-MM-DD in the digits 0-9",
        setup=_file("site.yaml", 'edition_date: "\uff12\uff10\uff12\uff17-03-04"\n'),
        gone=("o",),
    ),
    # -- what a sweep can vary -------------------------------------------------------------------
    *[
        Case(
            f"sweep-vary-{rule.replace('.', '-')}",
            ("sweep", "foster", "--vary", rule, "-n", "1"),
            says,
        )
        for rule, says in (
            ("stakes.skip_dealer_who_rebought", "acts between deals; a sweep plays single deals"),
            ("session.carried_pot_at_end", "acts between deals"),
            ("misdeals.dealer_keeps_deal", "no simulated deal is misdealt"),
            ("table.point_values=1", "table.point_values is a table of values"),
            ("table.packs", "table.packs is a table of values"),
        )
    ],
    # -- folders read once; every file read is an input -------------------------------------------
    Case(
        "glossary-term-of-a-bundled-term-s-name",
        ED_LIST,
        "glossary.yaml:3: terms.0.term: the term 'brelan' has this name already",
        setup=_glossary(("my-brelan", "Brelan")),
    ),
    Case(
        "profile-folder-given-twice",
        ("variants", "list", "--variants", "{tmp}/p", "--variants", "{tmp}/p/./"),
        "a ",
        exit=0,
        setup=_file("p/a.yaml", PROFILE),
    ),
    Case(
        "csv-over-a-profile-of-the-folder-read",
        ("simulate", "-v", "foster", "--variants", "{tmp}/p", "-n", "2", "--csv", "{tmp}/p/h.yaml"),
        "is an input of this command",
        setup=lambda tmp: (_file("p/h.yaml", PROFILE)(tmp), _file("p/o.yaml", PROFILE)(tmp))[0],
        untouched=("p/h.yaml",),
    ),
    Case(
        "cache-folder-under-a-file",
        ("cache", "info"),
        "the cache folder cannot be made: ",
        real=True,
        env=(("BOUILLOTTE_CACHE", "{tmp}/f/cache"),),
        setup=_file("f", "a file"),
    ),
    *[
        Case(
            f"cluster-address-{name}",
            ("sweep", "foster", "--vary", "hands.favori=none", "-n", "1", "--cluster", address),
            says,
        )
        for name, address, says in (
            ("with-a-path", "tcp://u:p@127.0.0.1:9/x?y#z", "no user, path, query or fragment"),
            ("in-capitals", "TCP://127.0.0.1:9", "the scheme is written tcp://"),
            ("with-a-line-break", "tcp://127.0.0.1:9\n", "holds no space or line break"),
        )
    ],
    # -- a file option given a folder's name; stakes below one; Dask ------------------------------
    Case(
        "csv-named-as-a-folder",
        ("odds", "-v", "foster", "--csv", "{tmp}/out/"),
        "out/' ends with '/', as a folder's name does: give a file",
        real=True,
        gone=("out",),
    ),
    *[
        Case(
            f"profile-{rule.replace('.', '-')}-of-{value}",
            LIST,
            f"a.yaml:5: rules.{rule}: ",
            setup=_file("p/a.yaml", f"{PROFILE}rules:\n  {group}: {{{field}: {value}}}\n"),
        )
        for rule, value in (("stakes.rebuy_amount", 0), ("void_deals.carried_pool_stake", -1))
        for group, field in [rule.split(".")]
    ],
    Case(
        "cluster-local-with-a-malformed-dask-config",
        ("sweep", "foster", "--vary", "hands.favori=none", "-n", "1", "--cluster", "local"),
        "--cluster: Dask could not load its settings",
        real=True,
        env=(("DASK_CONFIG", "{tmp}/dask.yaml"),),
        setup=_file("dask.yaml", "just a line\n"),
    ),
    Case(
        "ctrl-c-during-a-sweep-on-a-local-cluster",
        (
            "sweep",
            "foster",
            "--towards",
            "pagat",
            "-n",
            "2000000",
            "-j",
            "1",
            "-q",
            "--cluster",
            "local",
        ),
        "interrupted",
        exit=130,
        process=catalogue._interrupt_when_working,
    ),
    # -- a folder of no scenario; a file of another kind ------------------------------------------
    Case(
        "check-a-folder-of-no-scenario",
        ("check", "{tmp}/e"),
        "e: holds no scenario (.yaml) file",
        setup=_folder_named("e"),
    ),
    Case(
        "check-a-folder-of-yml-scenarios",
        ("check", "{tmp}/c"),
        "c: holds no .yaml file, only .yml ones: rename them *.yaml",
        setup=_file("c/mine.yml", SCENARIO),
    ),
    Case(
        "check-a-folder-of-subfolders",
        ("check", "{tmp}/c"),
        "holds no .yaml file of its own (the folders below it are not read)",
        setup=_file("c/sub/mine.yaml", SCENARIO),
    ),
    Case(
        "a-session-given-to-run",
        ("run", "{tmp}/session.yaml"),
        "deals: this is a session file (it lists deals): play it with bouillotte session",
        setup=_session_copied,
    ),
    Case(
        "a-scenario-given-to-session",
        ("session", "{tmp}/s.yaml"),
        "s.yaml:1: id: this is a scenario file (one deal): play it with bouillotte run",
        setup=_file("s.yaml", SCENARIO),
    ),
    Case(
        "a-profile-given-to-run",
        ("run", "{tmp}/p/a.yaml"),
        "rules: this is a variant profile (it states rules)",
        setup=_file("p/a.yaml", f"{PROFILE}rules:\n  stakes: {{cave: 50}}\n"),
    ),
    Case(
        "meaning-value-of-a-word-for-a-number-rule",
        ("sources", "--variants", "{tmp}/m"),
        "meanings.yaml:8: words.0.meanings.0.value: not a value of stakes.cave",
        setup=_file(
            "m/meanings.yaml",
            "words:\n  - word: cave2\n    rule: stakes.cave\n    meanings:\n"
            "      - source: foster\n        locator: 'Bouillotte: Cards'\n"
            "        quote: Bouillotte is played with a piquet pack\n        value: yes\n"
            "        meaning: m\n",
        ),
    ),
    Case(
        "strong-profile-a-named-pipe",
        ("strong", "table", "-v", "{tmp}/fifo.yaml", "--deals", "2"),
        "fifo.yaml: not a regular file (a folder, device, pipe or socket)",
        setup=lambda tmp: os.mkfifo(tmp / "fifo.yaml"),
        within=15,
    ),
    # -- ids that name one page -------------------------------------------------------------------
    Case(
        "profile-id-differing-from-a-bundled-one-in-case",
        LIST,
        "FOSTER.yaml:1: the profile id 'FOSTER' differs from the profile id 'foster' only in case",
        setup=_file("p/FOSTER.yaml", PROFILE),
    ),
    Case(
        "two-profile-ids-differing-in-case",
        LIST,
        "the profile id 'our-table' differs from the profile id 'Our-Table' only in case",
        setup=lambda tmp: (
            _file("p/Our-Table.yaml", PROFILE)(tmp),
            _file("p/our-table.yaml", PROFILE)(tmp),
        )[0],
    ),
    Case(
        "work-ids-differing-in-case",
        ED_SOURCES,
        "the work id 'House-Rules' differs from the work id 'house-rules' only in case",
        setup=_work('House-Rules: {author: Smith, title: T, year: "1900"}'),
    ),
    Case(
        "export-as-a-bundled-id-in-another-case",
        ("variants", "export", "foster", "--as", "FOSTER", "--out", "{tmp}/up"),
        "--as FOSTER: that is the id of a bundled profile (but for case: foster)",
        gone=("up",),
    ),
    *[
        Case(
            f"profile-id-a-windows-device-{name}",
            LIST,
            f"'{name}' is the name of a device on Windows",
            setup=_file(f"p/{name}.yaml", PROFILE),
        )
        for name in ("con", "AUX", "lpt1")
    ],
    Case(
        "work-id-a-windows-device",
        ED_SOURCES,
        "'nul' is the name of a device on Windows",
        setup=_work('nul: {author: Smith, title: T, year: "1900"}'),
    ),
    Case(
        "profile-file-name-not-utf-8",
        LIST,
        "the profile's id (its file's name): '\\udcfe' is not UTF-8 text (the byte 0xfe",
        setup=_undecodable_profile,
    ),
    # -- outputs ------------------------------------------------------------------------
    Case(
        "new-in-the-current-folder",
        ("new", "."),
        "error: .: is the current folder or holds it: name a new folder to make",
        setup=_empty_folder,
        cwd="emp",
        untouched=("emp",),
    ),
    Case(
        "differences-saved-into-the-profiles-read",
        (
            *("differences", "foster", "our-table", "-n", "200"),
            *("--variants", "{tmp}/ed/variants", "--save", "{tmp}/ed/variants"),
        ),
        "--save is a folder of profiles this command reads",
        setup=lambda tmp: (_editor_folder(tmp), None)[1],
        untouched=("ed/variants",),
    ),
    Case(
        "cluster-address-with-an-unclosed-bracket",
        ("sweep", "foster", "--towards", "pagat", "-n", "1", "--cluster", "tcp://[::1"),
        "--cluster: a scheduler's address is tcp://host:port",
    ),
    Case(
        "new-folder-named-with-a-line-break",
        ("new", "{tmp}/n\nerror: forged"),
        "n\\u000aerror: forged/README.md",
        exit=0,
        never=("\nerror: forged",),
    ),
    Case(
        "cache-folder-named-with-a-line-break",
        ("cache", "info"),
        "c\\u000aerror: forged: 0 files",
        exit=0,
        real=True,
        env=(("BOUILLOTTE_CACHE", "{tmp}/c\nerror: forged"),),
        never=("\nerror: forged",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_round_five(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


def test_a_file_replaced_keeps_its_permissions(case_dir: Path) -> None:
    """A table written over a file its owner made private (0600) stays private: the file
    put in its place took 0666 less the umask (0644), readable by all."""
    os.chdir(case_dir)
    table = case_dir / "private.csv"
    table.write_text("x\n", "utf-8")
    table.chmod(0o600)
    result = CliRunner().invoke(app, ["odds", "-v", "foster", "--csv", str(table)])
    assert result.exit_code == 0, result.output
    assert table.read_text("utf-8").startswith("variant,")
    assert stat.S_IMODE(table.stat().st_mode) == 0o600


def test_a_folder_of_the_user_replaced_keeps_its_permissions(case_dir: Path) -> None:
    folder = case_dir / "mine"
    folder.mkdir(mode=0o700)
    folder.chmod(0o700)
    result = CliRunner().invoke(app, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    assert (folder / "README.md").is_file()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_walk_stops_within_the_process_s_own_memory_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under ``ulimit -v`` lower than the machine's memory, the walk's bound is the limit's:
    brelan-pierer's tree ended in a 48-line ``SystemError`` under ``ulimit -v 1200000``."""
    from bouillotte.strong import solve

    monkeypatch.setattr("resource.getrlimit", lambda _: (2**20, 2**20))
    fault = solve.memory_fault(12)
    assert fault is not None
    assert "of the process's limit (ulimit -v) of 0.0 GiB" in fault


def test_a_walk_that_runs_out_of_memory_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from bouillotte.strong import solve
    from bouillotte.strong.abstraction import AbstractionError

    def starved(*_: object) -> None:
        raise MemoryError

    monkeypatch.setattr(solve, "_walk", starved)
    with pytest.raises(AbstractionError, match="ran out of memory while it was walked"):
        solve.build_tree(None, 10)  # type: ignore[arg-type]


def test_a_text_changed_is_read_again(tmp_path: Path) -> None:
    """``site serve --watch`` rebuilt from the text as it was first read (the reader's cache
    was for the life of the process): a text changed is read again."""
    from bouillotte.rules.texts import load_text

    text = tmp_path / "t.txt"
    text.write_text("Work: t\n---\n\nThe first words.\n", "utf-8")
    assert load_text(text).paragraphs == ("The first words.",)
    text.write_text("Work: t\n---\n\nThe first words.\n\nA new paragraph.\n", "utf-8")
    assert load_text(text).paragraphs == ("The first words.", "A new paragraph.")


def test_the_bands_of_point_said_are_those_the_game_has() -> None:
    """``strong solve --classes 1000`` printed "one of 1000 bands of point" for a game of
    five: equal quantiles of the points dealt merge."""
    from bouillotte.strong.abstraction import Abstraction

    asked = Abstraction(cave=10, bets=("pot",), raises=2, deals=2, classes=1000, seed=1)
    said = asked.describe(5)
    assert "one of 5 bands of point (1000 asked; equal points merge)" in said
    assert asked.describe().endswith("one of 1000 bands of point")


def test_the_pool_carried_in_is_in_the_outcome_table() -> None:
    """A deal played on a carried pool: its nets add up to the pool carried in, which the
    outcome table (``compare --csv``, ``Run.to_csv()``) and the API's summary now say; they
    showed nets summing to +5 with no word why."""
    import bouillotte as b

    run = b.run("carried-pool-the-dealer-adds-one", "pagat")
    rows = [r.split(",") for r in run.to_csv().splitlines()]
    header, body = rows[0], rows[1:]
    column = header.index("carried_in")
    assert {r[column] for r in body} == {"5"}
    assert sum(int(r[header.index("net")]) for r in body) == 5
    assert "on 5 carried in" in str(run)


@pytest.fixture()
def case_dir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-hostile-"))
    here = Path.cwd()
    yield folder
    os.chdir(here)
    shutil.rmtree(folder, ignore_errors=True)


def test_a_folder_that_is_no_site_is_refused_before_it_is_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``site build --out`` a large folder that is not a site walked the whole tree (12.7 s
    and 228 MB for 500,000 files) before refusing it for having no marker."""
    from bouillotte.rules.errors import InputError
    from bouillotte.site import output

    folder = tmp_path / "photos"
    (folder / "2024").mkdir(parents=True)
    (folder / "2024" / "a.jpg").write_bytes(b"x")

    def walked(self: Path, pattern: str) -> None:
        raise AssertionError(f"{self} was walked")

    monkeypatch.setattr(Path, "rglob", walked)
    with pytest.raises(InputError, match="refusing to replace a folder that is not a built site"):
        output.check_out(folder)
