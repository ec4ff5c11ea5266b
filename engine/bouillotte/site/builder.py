"""Build the static site: collect every page, render it, write it all, then swap it in."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from ..rules.bibliography import bibtex, citation_parts, csl_json
from ..rules.citations import Status
from ..rules.errors import InputError, UserError
from ..rules.glossary import Term
from ..rules.history import build_history
from ..rules.profile import rule_doc, rule_paths
from ..rules.profiles import Library
from ..rules.readings import reading_of, rule_value
from ..rules.resources import bundled
from ..rules.texts import notes_quotes, paragraph_anchor
from ..rules.variant import Standing, Variant, differing_rules
from ..study.attribution import Attribution, attribute, signature
from ..study.compare import Comparison
from ..study.render import counted
from ..study.replay import Step
from ..study.scenario import RunResult, Scenario, ScenarioLibrary, run_scenario
from . import downloads, scenes
from . import rules as rule_views
from .cache import cached, fingerprint_digest
from .downloads import data_files
from .edition import edition
from .effects import effects_are_cached, pair_effects, rule_effects_section
from .everyrule import every_rule_page
from .history import history_context
from .ids import (
    cite_id,
    href,
    pair_page,
    root_of,
    rule_id,
    scenario_page,
    slug,
    text_page,
    variant_page,
)
from .pagetext import page_text, words
from .prose import docstring_markdown, inline, markdown
from .readings import reading_views
from .search import index_script, page_entries, rule_entry
from .siteconfig import DEFAULT, SiteConfig, load_config
from .stats import (
    StatSection,
    odds_section,
    policy_origin_left_out,
    simulate_section,
    simulation_is_cached,
)
from .theme import check_templates, render_error

MARKER = ".bouillotte-site"
"""A file at the root of every built site: only a folder holding it is ever replaced."""
PARTIAL = ".bouillotte-partial"
"""A file in a build's temporary folder until its marker is written: a folder holding it
beside ``--out`` is the leftover of a build that was killed, removed by the next build."""

NAV: tuple[tuple[str, str], ...] = (
    ("index.html", "Home"),
    ("matrix.html", "Rule matrix"),
    ("compare/index.html", "Compare two"),
    ("scenarios/index.html", "Scenarios"),
    ("readings.html", "Readings"),
    ("statistics.html", "Statistics"),
    ("sources.html", "Sources"),
    ("history.html", "History"),
    ("glossary.html", "Glossary"),
)

Log = Callable[[str], None]


def _quiet(message: str) -> None:
    del message


@dataclass
class Page:
    path: str
    """Where the page is written, relative to the site root (``variants/foster.html``)."""
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True)
class BuildReport:
    out: Path
    pages: list[str]
    files: int
    seconds: float


@dataclass(frozen=True)
class _Inputs:
    library: Library
    variants: list[Variant]
    comparisons: list[Comparison]
    unplayable: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Per scenario id: the variants it cannot be played under, with the reason."""
    bundled: bool = True
    """Whether the bundled profiles, scenarios and glossary are part of the site."""
    statistics: _Statistics | None = None
    """The statistics page's simulation, started early (``None``: started when needed)."""


def _environment(site_dir: Path, theme: Path | None = None) -> Environment:
    # A theme's templates come first: any of them replaces the bundled one of its name,
    # and may extend or import the bundled ones it does not replace.
    folders = [str(site_dir / "templates")]
    if theme is not None and (theme / "templates").is_dir():
        folders.insert(0, str(theme / "templates"))
    options: dict[str, Any] = {
        "autoescape": True,
        "undefined": StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    # No bytecode cache: compiled templates would be unpickled from a folder others may
    # write; each build compiles them in memory. Sandboxed: a theme's template reaches no
    # Python internals (``''.__class__``...), only the values it is given.
    env = SandboxedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(f) for f in folders]), **options
    )
    env.filters["markdown"] = markdown
    env.filters["inline"] = inline
    env.filters["slug"] = slug
    env.filters["with_cards"] = scenes.with_cards
    env.globals["href"] = href
    env.globals["rule_id"] = rule_id
    env.globals["cite_id"] = cite_id
    env.globals["rule_label"] = rule_views.rule_label
    env.globals["variant_page"] = variant_page
    env.globals["scenario_page"] = scenario_page
    env.globals["pair_page"] = pair_page
    env.globals["downloads"] = downloads
    return env


# -- the pages ------------------------------------------------------------------------


def _home(inputs: _Inputs) -> Page:
    systems = []
    for v in inputs.variants:
        provenance = [v.provenance(p) for p in rule_paths()]
        statuses = [p.status for p in provenance]
        standings = [p.standing for p in provenance]
        systems.append(
            {
                "variant": v,
                "documented": sum(  # in its own words: a quote of another work is not
                    status == Status.DOCUMENTED.value and v.cite_source(path) == v.source
                    for status, path in zip(statuses, rule_paths(), strict=True)
                ),
                "stated": standings.count(Standing.STATED),
                "inferred": standings.count(Standing.INFERRED),
                "inherited": standings.count(Standing.INHERITED),
                "open": len(rule_views.open_questions(v)),
                "rules": len(rule_paths()),
            }
        )
    first = _first_scenario(inputs)
    return Page(
        "index.html",
        "home.html",
        "Bouillotte: the historical rule systems compared" if inputs.bundled else "Home",
        {
            "systems": systems,
            "first_scenario": first,
            "scenario_count": len(inputs.comparisons),
            "works": inputs.library.works,
            "bundled_site": inputs.bundled,
        },
    )


def _first_scenario(inputs: _Inputs) -> Scenario | None:
    """Where a reader should start: a documented example (the source's own worked deal)
    from the earliest source, the plainest first (a variation's title adds to it)."""
    years = {v.source: n for n, v in reversed(list(enumerate(inputs.variants)))}

    def key(c: Comparison) -> tuple[bool, int, int, str]:
        m = c.scenario.model
        return (
            m.source.status != "documented",
            years.get(m.source.work, len(years)),
            len(m.title),
            m.id,
        )

    return min(inputs.comparisons, key=key).scenario if inputs.comparisons else None


def _variant_pages(inputs: _Inputs) -> list[Page]:
    pages = []
    for v in inputs.variants:
        path = variant_page(v.id)
        root = root_of(path)
        groups = rule_views.rule_groups(v, root, inputs.library, sources=inputs.bundled)
        citations = [r.citation for g in groups for r in g.rules]
        children = [c for c in inputs.variants if c.extends == v.id]
        used_in = [
            c.scenario for c in inputs.comparisons if v.id in [r.variant.id for r in c.results]
        ]
        pages.append(
            Page(
                path,
                "variant.html",
                v.title,
                {
                    "variant": v,
                    "work": v.bibliography.get(v.source),
                    "groups": groups,
                    "citations": citations,
                    "open": rule_views.open_questions(v),
                    "children": children,
                    "scenarios": used_in,
                    "readings": _rule_readings(inputs.library, v),
                },
            )
        )
    return pages


def _rule_readings(library: Library, variant: Variant) -> dict[str, dict[str, Any]]:
    """For each rule of ``variant`` that is one reading of an ambiguous sentence: the
    reading's id and the other readings' values."""
    found = {}
    for path in library.readings:
        value = variant.value(path)
        reading = reading_of(library.readings, path, value)
        if reading is None:
            continue
        others = [str(r.value) for r in reading.readings if rule_value(path, r.value) != value]
        found[path] = {"id": reading.id, "others": others}
    return found


def _matrix(inputs: _Inputs) -> Page:
    rows = rule_views.matrix_rows(inputs.variants, "")
    groups: list[dict[str, Any]] = []
    for row in rows:
        if not groups or groups[-1]["name"] != row.group:
            groups.append(
                {"name": row.group, "title": rule_views.group_title(row.group), "rows": []}
            )
        groups[-1]["rows"].append(row)
    return Page(
        "matrix.html",
        "matrix.html",
        "The rule matrix",
        {
            "variants": inputs.variants,
            "groups": groups,
            "differing": [r for r in rows if r.differs],
            "first": inputs.variants[0] if inputs.variants else None,
        },
    )


def _pair_pages(inputs: _Inputs) -> list[Page]:
    """A page for every pair of systems: the web form of ``bouillotte variants diff``, with
    each source's own sentence and the scenarios whose outcome the pair does not share."""
    pages = []
    variants = inputs.variants
    views: dict[tuple[str, str], rule_views.CitationView] = {}

    def view(v: Variant, rule: str, number: int) -> rule_views.CitationView:
        # Each citation is shown on eight pair pages: find its place in the text once.
        key = (v.id, rule)
        if key not in views:
            views[key] = rule_views.citation_view(v, rule, number, "../", inputs.library)
        return views[key]

    # What every pair shows of one system, worked out once per system, not once per pair.
    rules = list(enumerate(rule_paths(), start=1))
    words = {v.id: {r: rule_views.value_words(v.value(r)) for _, r in rules} for v in variants}
    plain = {v.id: {r: rule_views.plain(v.value(r)) for _, r in rules} for v in variants}
    outcomes = [
        (c, {r.variant.id: (r, signature(r.data)) for r in c.results}) for c in inputs.comparisons
    ]
    for i, a in enumerate(variants):
        for b in variants[i + 1 :]:
            path = pair_page(a.id, b.id)
            root = root_of(path)
            differ: list[dict[str, Any]] = []
            agree: list[dict[str, Any]] = []
            for number, rule in rules:
                anchor = rule_id(rule)
                row = {
                    "path": rule,
                    "label": rule_views.rule_label(rule),
                    "anchor": anchor,
                    "values": [words[v.id][rule] for v in (a, b)],
                    "citations": [view(v, rule, number) for v in (a, b)],
                    "hrefs": [href(root, variant_page(v.id), anchor) for v in (a, b)],
                }
                same = plain[a.id][rule] == plain[b.id][rule]
                (agree if same else differ).append(row)
            scenarios = []
            for c, by_id in outcomes:
                if a.id in by_id and b.id in by_id:
                    (ra, sa), (rb, sb) = by_id[a.id], by_id[b.id]
                    if sa != sb:
                        scenarios.append(
                            {"scenario": c.scenario.model, "status": [ra.status, rb.status]}
                        )
            pages.append(
                Page(
                    path,
                    "pair.html",
                    f"{a.short} and {b.short} side by side",
                    {
                        "pair": [a, b],
                        "differ": differ,
                        "agree": agree,
                        "scenarios": scenarios,
                        "effects": pair_effects(a, b),
                    },
                    f"The rules on which {a.title} and {b.title} differ, each with its source.",
                )
            )
    return pages


def _pair_index(inputs: _Inputs) -> Page:
    pairs = [(a, b) for i, a in enumerate(inputs.variants) for b in inputs.variants[i + 1 :]]
    return Page(
        "compare/index.html",
        "pairs.html",
        "Two systems side by side",
        {"variants": inputs.variants, "pairs": pairs},
    )


def _notes_in_context(library: Library, scenario: Scenario, root: str) -> list[dict[str, str]]:
    """Each quotation of a scenario's notes, linked to its place in the published text."""
    links = []
    for n, (work_id, quoted) in enumerate(
        notes_quotes(scenario.model.notes, scenario.model.source.work), start=1
    ):
        link = rule_views.context_href(library, root, work_id, quoted)
        if link is not None:
            work = library.works[work_id]
            links.append({"number": str(n), "href": link, "work": work.title})
    return links


def _scenario_pages(inputs: _Inputs) -> list[Page]:
    pages = []
    for comparison in inputs.comparisons:
        s = comparison.scenario
        path = scenario_page(s.id)
        root = root_of(path)
        results = comparison.results
        shown = next((r for r in results if r.status != "illegal"), results[0] if results else None)
        work = inputs.library.works.get(s.model.source.work)
        pages.append(
            Page(
                path,
                "scenario.html",
                s.model.title,
                {
                    "scenario": s.model,
                    "work": work,
                    "works": inputs.library.works,
                    "variants": [r.variant for r in results],
                    "deal": scenes.deal_view(shown) if shown else None,
                    "shown": shown,
                    "log": scenes.log_rows(shown.data["events"]) if shown else [],
                    "outcome": scenes.outcome_rows(comparison, root),
                    "attributions": scenes.attribution_views(comparison.attributions, root),
                    "transcripts": scenes.transcripts(comparison),
                    "unplayable": inputs.unplayable.get(s.id, []),
                    "in_context": _notes_in_context(inputs.library, s, root),
                    "names": {v.id: v.short or v.id for v in inputs.variants},
                },
            )
        )
    return pages


def _scenario_index(inputs: _Inputs) -> Page:
    items = [
        {
            "scenario": c.scenario.model,
            "variants": [r.variant.id for r in c.results],
            "differs": any(c.differs(i) for i in range(len(c.results))),
        }
        for c in inputs.comparisons
    ]
    return Page("scenarios/index.html", "scenarios.html", "Scenarios", {"items": items})


def _readings(inputs: _Inputs) -> Page:
    scenarios = [c.scenario for c in inputs.comparisons]
    return Page(
        "readings.html",
        "readings.html",
        "Readings",
        {"views": reading_views(inputs.library, scenarios), "works": inputs.library.works},
        "Sentences that can be read two ways, each reading a rule, with a deal under each.",
    )


class _Statistics:
    """The statistics page's simulated play and rule sweep. When the cache lacks them they
    are started in a second process as soon as the profiles are read, so that they run
    while this process plays the scenarios, counts the odds and builds the other pages;
    with everything cached (or no second process to be had) they are read here."""

    def __init__(self, variants: list[Variant], log: Log) -> None:
        self.variants = variants
        self.pool: ProcessPoolExecutor | None = None
        self.futures: tuple[Future[StatSection], Future[StatSection]] | None = None
        if simulation_is_cached(variants) and effects_are_cached(variants):
            return
        try:
            self.pool = ProcessPoolExecutor(max_workers=1)
        except (OSError, NotImplementedError):  # no processes here: simulate in this one
            return
        log("  simulating in a second process")
        self.futures = (
            self.pool.submit(simulate_section, variants, _quiet),
            self.pool.submit(rule_effects_section, variants, _quiet),
        )

    def sections(self, log: Log) -> tuple[StatSection, StatSection]:
        """The simulated play and the rule effects, waiting for the second process."""
        if self.futures is None:
            return simulate_section(self.variants, log), rule_effects_section(self.variants, log)
        simulated, effects = self.futures
        return simulated.result(), effects.result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def _statistics(inputs: _Inputs, log: Log) -> Page:
    log("statistics")
    work = inputs.statistics or _Statistics(inputs.variants, log)
    try:
        odds = odds_section(inputs.variants, log)
        simulated, effects = work.sections(log)
    finally:
        if inputs.statistics is None:
            work.close()
    if not inputs.bundled:
        simulated = policy_origin_left_out(simulated)
    return Page(
        "statistics.html",
        "statistics.html",
        "Statistics",
        {
            # the rule effects compare two bundled systems: a site without both has none
            "sections": [s for s in (odds, simulated, effects) if not (s is effects and s.missing)],
            "has_odds": bool(odds.tables),
        },
    )


def _sources(inputs: _Inputs) -> Page:
    works = []
    for work_id, work in sorted(inputs.library.works.items()):
        used = []
        for v in inputs.variants:
            count = sum(
                1 for p in rule_paths() if (c := v.citation(p)) is not None and c.source == work_id
            )
            if count or v.source == work_id:
                used.append({"variant": v, "rules": count})
        examples = [
            c.scenario.model for c in inputs.comparisons if c.scenario.model.source.work == work_id
        ]
        works.append(
            {
                "id": work_id,
                "anchor": "work-" + slug(work_id),
                "work": work,
                "used": used,
                "examples": examples,
                "text_href": text_page(work_id) if work.file else None,
                "citation": citation_parts(work),
            }
        )
    return Page(
        "sources.html",
        "sources.html",
        "Sources",
        {
            "works": works,
            "unread": inputs.library.unread,
            "variants": inputs.variants,
            "has_odds": True,
        },
    )


def _history(inputs: _Inputs) -> Page:
    return Page(
        "history.html",
        "history.html",
        "History",
        history_context(build_history(inputs.library), root_of("history.html")),
        "Every source on a time axis, the sources of each rule, and the word favori through time.",
    )


@dataclass(frozen=True)
class _QuotedBy:
    """A quotation that points to a paragraph of a shipped text."""

    label: str
    href: str


def _text_pages(inputs: _Inputs) -> list[Page]:
    """One page per shipped text, its paragraphs anchored, each with the quotes that cite it."""
    quoted: dict[tuple[str, int], list[_QuotedBy]] = {}

    def note(work_id: str | None, quote: str | None, label: str, page: str, anchor: str) -> None:
        text = inputs.library.text(work_id) if work_id else None
        where = text.find(quote) if text is not None and quote else None
        if work_id is not None and where is not None:
            quoted.setdefault((work_id, where), []).append(
                _QuotedBy(label, href("../", page, anchor))
            )

    for v in inputs.variants:
        for path in rule_paths():
            citation = v.citation(path)
            if citation is not None and v.info[path].defined_in == v.id:
                note(
                    citation.source,
                    citation.quote,
                    f"{v.id}: {path}",
                    variant_page(v.id),
                    cite_id(path),
                )
    for term in inputs.library.glossary if inputs.bundled else ():
        note(term.work, term.quote, f"glossary: {term.term}", "glossary.html", term.id)
    pages = []
    for work_id, work in sorted(inputs.library.works.items()):
        text = inputs.library.text(work_id)
        if text is None:
            continue
        paragraphs = [
            {
                "anchor": paragraph_anchor(i),
                "number": i + 1,
                "text": paragraph,
                "quoted_by": quoted.get((work_id, i), []),
            }
            for i, paragraph in enumerate(text.paragraphs)
        ]
        header = {k: v for k, v in text.header.items() if k not in ("Work", "Title")}
        pages.append(
            Page(
                text_page(work_id),
                "text.html",
                text.header.get("Title", work.title),
                {
                    "work_id": work_id,
                    "w": work,
                    "header": header,
                    "paragraphs": paragraphs,
                    "lang": text.header.get("Text language", work.language).split()[0],
                },
            )
        )
    return pages


def _term_scenarios(term: Term, comparisons: list[Comparison], limit: int = 4) -> list[Any]:
    """The scenarios whose title names the term (or one of its other spellings)."""
    names = [
        unicodedata.normalize("NFD", n).encode("ascii", "ignore").decode().lower()
        for n in (term.term.split(" (")[0], *term.also)
    ]
    found = []
    for c in comparisons:
        title = c.scenario.model.title
        plain = unicodedata.normalize("NFD", title).encode("ascii", "ignore").decode().lower()
        if any(re.search(rf"\b{re.escape(n)}\b", plain) for n in names):
            found.append(c.scenario.model)
    return found[:limit]


def _glossary(inputs: _Inputs) -> Page:
    terms = sorted(inputs.library.glossary, key=lambda t: t.term.lower())
    contexts = {t.id: rule_views.context_href(inputs.library, "", t.work, t.quote) for t in terms}
    rules = {t.id: [(rule_views.rule_label(p), rule_id(p)) for p in t.rules] for t in terms}
    scenarios = {t.id: _term_scenarios(t, inputs.comparisons) for t in terms}
    return Page(
        "glossary.html",
        "glossary.html",
        "Glossary",
        {
            "terms": terms,
            "works": inputs.library.works,
            "contexts": contexts,
            "french": {t.id: t.french for t in terms if t.french},
            "rules": rules,
            "scenarios": scenarios,
        },
    )


def _rule_entries(inputs: _Inputs) -> list[dict[str, str]]:
    """One search entry per rule: its meaning (with the works its values come from, in a
    build with the bundled library) and each value with the systems taking it."""
    entries = []
    for row in rule_views.matrix_rows(inputs.variants, ""):
        values: dict[str, list[str]] = {}
        for cell in row.cells:
            values.setdefault(cell.value, []).append(cell.short or cell.variant_id)
        meaning = rule_doc(row.path, sources=inputs.bundled)
        doc = words(docstring_markdown(meaning), code=True)
        entries.append(rule_entry(row.label, row.anchor, doc, list(values.items())))
    return entries


SHEET_PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Setting up", ("table", "stakes", "session")),
    ("Before the deal", ("forced_bets", "misdeals")),
    ("Betting", ("betting", "void_deals")),
    ("The showdown", ("hands", "point")),
    ("Payments", ("bonuses",)),
)
"""The rule groups in the order of play, for the printable rule sheet."""


def _short_quote(text: str | None, limit: int = 90) -> str | None:
    if not text:
        return None
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def _sheets(inputs: _Inputs) -> list[Page]:
    """A printable rule sheet per system: its rules as sentences in the order of play, each
    with its status and a short quote, then the works cited (one or two A4 pages)."""
    pages = []
    for v in inputs.variants:
        path = f"sheets/{v.id}.html"
        parts = []
        cited: dict[str, set[str]] = {}
        for title, groups in SHEET_PARTS:
            rules = []
            for rule in rule_paths():
                if rule.split(".")[0] not in groups:
                    continue
                citation = v.citation(rule)
                provenance = v.provenance(rule)
                if citation is not None and citation.source:
                    cited.setdefault(citation.source, set()).add(citation.locator or "")
                rules.append(
                    {
                        "label": rule_views.rule_label(rule),
                        "value": rule_views.value_words(v.value(rule)),
                        "status": provenance.status,
                        "quote": _short_quote(citation.quote if citation else None),
                        "verbatim": citation is not None and citation.status != Status.PARAPHRASED,
                        "source": citation.source if citation else None,
                    }
                )
            parts.append({"title": title, "rules": rules})
        works = [
            {
                "id": w,
                "work": inputs.library.works.get(w),
                "locators": sorted(x for x in cited[w] if x),
            }
            for w in sorted(cited)
        ]
        pages.append(
            Page(
                path,
                "sheet.html",
                f"{v.title}: the rules",
                {"variant": v, "parts": parts, "works": works},
                f"Every rule of {v.title} in the order of play, with how its source stands "
                "behind it and a few words of the source: a one- or two-page sheet to print.",
            )
        )
    return pages


def _search() -> Page:
    return Page("search.html", "search.html", "Search")


# -- building -------------------------------------------------------------------------


def _collect(
    variant_dirs: Sequence[Path],
    scenario_paths: Sequence[Path],
    log: Log,
    include_bundled: bool = True,
    *,
    early_statistics: bool = False,
) -> _Inputs:
    """Read the profiles and play every scenario under them. ``early_statistics``: start
    the statistics page's simulation as soon as the profiles are read (the caller closes
    ``_Inputs.statistics``)."""
    log("reading the variant profiles")
    library = Library(list(variant_dirs), include_bundled=include_bundled)
    variants = rule_views.system_order(library.all())
    log(f"  {counted(len(variants), 'variant')}")
    statistics = _Statistics(variants, log) if early_statistics else None
    try:
        log("reading the scenarios")
        scenarios = ScenarioLibrary(list(scenario_paths), include_bundled=include_bundled).all()
        comparisons = []
        unplayable: dict[str, list[tuple[str, str]]] = {}
        roots = [bundled("scenarios"), bundled("variants"), *scenario_paths, *variant_dirs]
        known = _Known({v.id: fingerprint_digest(v) for v in variants})
        for scenario in sorted(scenarios, key=lambda s: s.id):
            log(f"  playing {scenario.id} under every variant")
            comparison, failed = _compare(scenario, library, log, roots, known)
            comparisons.append(comparison)
            if failed:
                unplayable[scenario.id] = failed
    except BaseException:
        if statistics is not None:
            statistics.close()
        raise
    return _Inputs(
        library, variants, comparisons, unplayable, include_bundled, statistics=statistics
    )


def _shown(file: str | None, roots: Sequence[Path]) -> str | None:
    """An input file as the site names it: from the folder given (``mine/deal.yaml``), so
    that a build never publishes where the files stand on the builder's machine, and is the
    same whether the folder was given by a relative or an absolute path."""
    if file is None:
        return None
    path = Path(os.path.abspath(file))
    for root in roots:
        base = Path(os.path.abspath(root))
        if path == base:
            return base.name
        if base in path.parents:
            return (Path(base.name) / path.relative_to(base)).as_posix()
    return path.name


def _compare(
    scenario: Scenario,
    library: Library,
    log: Log,
    roots: Sequence[Path] = (),
    known: _Known | None = None,
) -> tuple[Comparison, list[tuple[str, str]]]:
    """Compare under every variant; a variant the scenario cannot be played under (its
    actions do not fit that system's deal) is left out, named, and its reason shown."""
    order = {v.id: n for n, v in enumerate(rule_views.system_order(library.all()))}
    try:
        ids = sorted(scenario.variant_ids(library), key=lambda v: order.get(v, len(order)))
        return _compared(scenario, library, ids, known), []
    except InputError:
        ids = sorted(scenario.variant_ids(library), key=lambda v: order.get(v, len(order)))
        playable, failed = [], []
        for variant_id in ids:
            try:
                run_scenario(scenario, library.get(variant_id))
                playable.append(variant_id)
            except InputError as exc:
                exc.file = _shown(exc.file, roots)
                failed.append((variant_id, exc.describe()))
        if not failed:
            raise
        for variant_id, reason in failed:
            log(f"  warning: {scenario.id} cannot be played under {variant_id}: {reason}")
        if not playable:
            return Comparison(scenario, [], []), failed
        return _compared(scenario, library, playable, known), failed


def _compared(
    scenario: Scenario, library: Library, ids: Sequence[str], known: _Known | None
) -> Comparison:
    """``compare``, with each attribution (hundreds of replays under changed rules) read
    from the build cache when it holds it. ``known``: what the whole build shares."""
    known = known if known is not None else _Known()
    told = json.dumps(scenario.model.model_dump(mode="json"), sort_keys=True)
    story = hashlib.sha256(told.encode()).hexdigest()
    results = [_played(scenario, story, library.get(v), known) for v in ids]
    attributions = []
    if results:
        first = signature(results[0].data)
        attributions = [
            _attribution(scenario, story, results[0], other, known)
            for other in results[1:]
            if signature(other.data) != first
        ]
    return Comparison(scenario, results, attributions)


def _played(scenario: Scenario, story: str, variant: Variant, known: _Known) -> RunResult:
    """``run_scenario``, read from the build cache when it holds it: the result is always
    the one its JSON gives back, whether just played or read, so the pages are the same
    either way. A scenario its variant refuses as bad input raises, as before, and is
    never stored. ``story``: a hash of the scenario as loaded."""

    def play() -> dict[str, Any]:
        result = run_scenario(scenario, variant)
        return {"data": result.data, "steps": [asdict(step) for step in result.steps]}

    found = cached("run", {"scenario": story, "variant": known.print_of(variant)}, play)
    _, path = scenario.actions_for(variant.id)
    steps = [Step(**step) for step in found["steps"]]
    return RunResult(scenario, variant, found["data"], steps, path)


def _attribution(
    scenario: Scenario,
    story: str,
    base: RunResult,
    other: RunResult,
    known: _Known,
) -> Attribution:
    a, b = base.variant, other.variant

    def found() -> dict[str, Any]:
        made = attribute(scenario, base, other)
        return {"responsible": made.responsible, "reproduces": made.reproduces}

    inputs = {"scenario": story, "base": known.print_of(a), "other": known.print_of(b)}
    sets = cached("attribution", inputs, found)
    differing, provenance = known.between(a, b)
    return Attribution(a.id, b.id, differing, sets["responsible"], sets["reproduces"], provenance)


_Differences = tuple[list[str], dict[str, dict[str, Any]]]


@dataclass
class _Known:
    """What the build works out once and every scenario reuses."""

    prints: dict[str, str] = field(default_factory=dict)
    """Each system's ``cache.fingerprint_digest``, by id."""
    differences: dict[tuple[str, str], _Differences] = field(default_factory=dict)
    """For a pair of systems: the rules on which they differ, each with how each source
    stands behind it (only read, so one copy serves every scenario of the pair)."""

    def print_of(self, variant: Variant) -> str:
        if variant.id not in self.prints:
            self.prints[variant.id] = fingerprint_digest(variant)
        return self.prints[variant.id]

    def between(self, a: Variant, b: Variant) -> _Differences:
        if (a.id, b.id) not in self.differences:
            differing = differing_rules(a, b)
            self.differences[a.id, b.id] = (
                differing,
                {p: {a.id: a.provenance(p), b.id: b.provenance(p)} for p in differing},
            )
        return self.differences[a.id, b.id]


def _pages(inputs: _Inputs, log: Log) -> list[Page]:
    # The glossary comes early: in the search index, a word's definition goes before the
    # many rule sections that name the word on every system's page.
    return [
        _home(inputs),
        *([_glossary(inputs)] if inputs.bundled else []),
        _matrix(inputs),
        *_variant_pages(inputs),
        _pair_index(inputs),
        *_pair_pages(inputs),
        *_sheets(inputs),
        _scenario_index(inputs),
        *_scenario_pages(inputs),
        _readings(inputs),
        _statistics(inputs, log),
        *[Page(*found) for found in [every_rule_page(inputs.variants)] if found],
        _sources(inputs),
        _history(inputs),
        *_text_pages(inputs),
        _search(),
    ]


def _render(
    env: Environment,
    pages: list[Page],
    log: Log,
    config: SiteConfig = DEFAULT,
    theme_folders: list[Path] | None = None,
) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Every page's HTML, and the search index's entries of every page, each taken from the
    context its page is rendered with, as it is rendered (``pagetext.py``). With a theme
    (``theme_folders``: its templates, then the bundled ones), any error of a template is
    bad input, told at the template's file and line (``theme.render_error``)."""
    rendered: dict[str, str] = {}
    entries: list[dict[str, str]] = []
    made: dict[tuple[str, ...], Markup] = {}

    def once(*key: str, caller: Callable[[], Markup]) -> Markup:
        """``{% call once(key...) %}…{% endcall %}``: the block's HTML, rendered the first
        time its key is met in this build and reused after (the key must name everything
        the block shows)."""
        if key not in made:
            made[key] = caller()
        return made[key]

    env.globals["once"] = once
    env.globals["edition"] = edition()
    env.globals["site"] = config
    built = {p.path for p in pages}
    nav = tuple((path, label) for path, label in NAV if path in built)
    nav_paths = [p for p, _ in nav]
    log(f"rendering {len(pages)} pages")
    for page in pages:
        root = root_of(page.path)
        section = page.path if page.path in nav_paths else None
        if page.path.startswith("variants/"):
            section = "index.html"
        elif page.path.startswith("texts/"):
            section = "sources.html"
        elif page.path.startswith("scenarios/"):
            section = "scenarios/index.html"
        elif page.path.startswith("sheets/"):
            section = "index.html"
        elif page.path.startswith("compare/"):
            section = "compare/index.html"
        context = {
            "page": page,
            "root": root,
            "nav": nav,
            "section": section,
            "built": built,
            "site": config,
            **page.context,
        }
        try:
            rendered[page.path] = env.get_template(page.template).render(context)
        except UserError:
            raise
        except Exception as exc:
            if theme_folders is None:  # the bundled templates alone: a bug, shown as one
                raise
            raise render_error(exc, page.path, theme_folders) from None
        found = page_text(page.template, context)
        if found is None:
            # A pair or a rule sheet repeats the rules' own entries: its title and
            # description are enough to find it.
            entries.append(
                {"t": page.title, "u": quote(page.path), "x": page.description, "k": "page"}
            )
        else:
            entries.extend(page_entries(page.path, page.title, found))
    return rendered, entries


def _marked_files(out: Path) -> set[str] | None:
    """The files a previous build wrote, as its marker lists them (``None``: a marker that
    lists none, as older builds wrote it, or made by hand: then nothing in the folder is
    known to be the build's, and the folder is never replaced)."""
    lines = (out / MARKER).read_text(encoding="utf-8", errors="replace").splitlines()
    return {line[2:] for line in lines if line.startswith("- ")} or None


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_out(out: Path, inputs: Sequence[Path] = ()) -> None:
    """Refuse, before anything is built, an ``out`` that cannot or must not be replaced:
    the current folder, a folder holding an input, a folder holding files this tool did not
    write, or one it could not write or delete."""
    if str(out).strip() in ("", "."):
        raise InputError("--out must name a folder (not the current one)", file=str(out))
    real = Path(os.path.abspath(out))
    here = Path.cwd()
    if _within(here, real):
        raise InputError(
            "--out is the current folder or holds it: it would be replaced while in use",
            file=out,
        )
    for given in inputs:
        if _within(Path(os.path.abspath(given)), real) or _within(given.resolve(), real.resolve()):
            raise InputError(
                f"--out holds the input {given}: building would delete it; choose another --out",
                file=out,
            )
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError("the output must be a folder", file=out)
    if out.is_dir():
        _check_replaceable(out)
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into {ancestor}: permission denied", file=out)


def _check_replaceable(out: Path) -> None:
    entries = sorted(out.rglob("*"))
    if not entries:
        return
    if not (out / MARKER).is_file():
        raise InputError(
            f"refusing to replace a folder that is not a built site (it has no {MARKER} file); "
            "choose an empty or new folder with --out",
            file=out,
        )
    written = _marked_files(out)
    others = [e.relative_to(out).as_posix() for e in entries if e.name != MARKER or e.parent != out]
    if written is None and others:
        raise InputError(
            f"refusing to replace a folder whose {MARKER} file lists no files (an older "
            f"build's, or one made by hand): nothing in it is known to be the build's, such "
            f"as {others[0]}; remove the folder yourself, or choose another --out",
            file=out,
        )
    for entry in entries:
        rel = entry.relative_to(out).as_posix()
        if entry.is_dir() and not entry.is_symlink():
            if not os.access(entry, os.W_OK | os.X_OK):
                raise InputError(
                    f"the previous build cannot be removed: {rel} is read-only", file=out
                )
        elif written is not None and rel != MARKER and rel not in written:
            raise InputError(
                f"refusing to replace a built site that now holds a file it did not write "
                f"({rel}); move it out, or choose another --out",
                file=out,
            )
    if not os.access(out, os.W_OK | os.X_OK):
        raise InputError("the previous build cannot be removed: it is read-only", file=out)


class _BuildLock:
    """Only one build at a time into a folder: ``.<name>.lock`` beside it is locked (the
    lock ends with the process, whatever becomes of it)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path = out.parent / f".{out.name}.lock"
        self.fd: int | None = None

    def __enter__(self) -> _BuildLock:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise InputError(
                    "another `bouillotte site build` is writing into this folder; "
                    "wait for it to finish",
                    file=self.out,
                ) from None
            try:  # the holder before us may have removed the file: lock the current one
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                return self
            os.close(fd)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)


@contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) waits for the block to end, so that no half-swapped site is left
    behind; it is then handled as it would have been."""
    caught: list[int] = []
    signals = (signal.SIGINT, signal.SIGTERM)
    try:
        previous = {
            n: signal.signal(n, lambda signum, frame: caught.append(signum)) for n in signals
        }
    except ValueError:  # not the main thread: signals go elsewhere anyway
        yield
        return
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    for caught_number in caught[:1]:
        handler = previous[signal.Signals(caught_number)]
        if callable(handler):
            handler(caught_number, None)
        elif handler == signal.SIG_DFL and caught_number == signal.SIGTERM:
            os.kill(os.getpid(), caught_number)
        else:
            raise KeyboardInterrupt


def _remove_leftovers(out: Path) -> None:
    """Old copies or half-written builds left by a build that was killed outright."""
    # Exactly the names _swap and mkdtemp give (eight random characters), so that the
    # leftovers of a build into another folder ("site.b" beside "site") never match.
    for pattern in (f".{out.name}.old-[0-9]*", f".{out.name}.{'?' * 8}.tmp"):
        for stale in out.parent.glob(pattern):
            if not stale.is_dir() or stale.is_symlink():
                continue
            # An empty one: an older build killed before it wrote anything.
            built = (stale / MARKER).is_file() or (stale / PARTIAL).is_file()
            if built or not any(stale.iterdir()):
                shutil.rmtree(stale, ignore_errors=True)


def _write(target: Path, site_dir: Path, files: dict[str, str], theme: Path | None = None) -> None:
    shutil.copytree(site_dir / "assets", target / "assets")
    if theme is not None and (theme / "assets").is_dir():
        # A theme's asset replaces the bundled one of its name (style.css, say).
        for asset in sorted((theme / "assets").rglob("*")):
            if asset.is_file() and not asset.is_symlink():
                copy = target / "assets" / asset.relative_to(theme / "assets")
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(asset, copy)
    for rel, text in sorted(files.items()):
        file = target / rel
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8", newline="\n")
    written = sorted(
        f.relative_to(target).as_posix()
        for f in target.rglob("*")
        if f.is_file() and f.name not in (MARKER, PARTIAL)
    )
    (target / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n"
        "The files it wrote (a folder holding any other is never replaced):\n"
        + "".join(f"- {rel}\n" for rel in written),
        encoding="utf-8",
        newline="\n",
    )
    (target / PARTIAL).unlink(missing_ok=True)


def _swap(tmp: Path, out: Path) -> None:
    """Put the new build in place; the old one is removed only once the new one is in."""
    with _interrupt_deferred():
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            if old.exists():
                shutil.rmtree(old)
            out.rename(old)
        try:
            tmp.rename(out)
        except OSError:
            if old is not None:
                old.rename(out)
            raise
        if old is not None:
            shutil.rmtree(old)


@dataclass(frozen=True)
class _Options:
    include_bundled: bool = True
    config: SiteConfig = DEFAULT
    theme: Path | None = None


def build_site(
    out: Path,
    variant_dirs: Sequence[Path] = (),
    scenario_paths: Sequence[Path] = (),
    log: Log = _quiet,
    *,
    include_bundled: bool = True,
    config_file: Path | None = None,
) -> BuildReport:
    """Build the whole site into ``out``; on any error ``out`` is left as it was.

    ``include_bundled=False`` builds from the given folders alone (their own
    ``sources.yaml``); ``config_file`` is a site configuration (``siteconfig.SiteConfig``).
    """
    started = time.perf_counter()
    out = Path(out)
    config, theme = load_config(Path(config_file)) if config_file is not None else (DEFAULT, None)
    options = _Options(include_bundled, config, theme)
    given = [
        *variant_dirs,
        *scenario_paths,
        *(bundled(n) for n in ("variants", "scenarios", "site")),
        *([Path(config_file)] if config_file is not None else []),
        *([theme] if theme is not None else []),
    ]
    check_out(out, given)
    site_dir = bundled("site")
    if not (site_dir / "templates").is_dir():
        raise InputError("the site templates are missing", file=site_dir)
    if theme is not None:  # a fault in a theme's template is found before the long part
        check_templates(_environment(site_dir, theme), theme)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with _BuildLock(out):
            _remove_leftovers(out)
            check_out(out, given)  # again: another build may have finished meanwhile
            return _build_locked(out, variant_dirs, scenario_paths, site_dir, log, started, options)
    except OSError as exc:
        raise InputError(f"cannot write the site: {exc.strerror or exc}", file=out) from None


def _build_locked(
    out: Path,
    variant_dirs: Sequence[Path],
    scenario_paths: Sequence[Path],
    site_dir: Path,
    log: Log,
    started: float,
    options: _Options,
) -> BuildReport:
    # Writing is tried before the long part of the build: a folder we cannot write
    # into fails now, not after every page is made.
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        (tmp / PARTIAL).write_text("a build in progress, or killed\n", encoding="utf-8")
        report = _build_into(
            tmp, out, variant_dirs, scenario_paths, site_dir, log, started, options
        )
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report


def _sitemap(base_url: str, pages: list[Page]) -> str:
    """The pages' public addresses, for search engines (only with a base URL)."""
    urls = "".join(
        f"<url><loc>{xml_escape(base_url + quote(p.path))}</loc></url>\n"
        for p in sorted(pages, key=lambda p: p.path)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + urls + "</urlset>\n"
    )


def _build_into(
    tmp: Path,
    out: Path,
    variant_dirs: Sequence[Path],
    scenario_paths: Sequence[Path],
    site_dir: Path,
    log: Log,
    started: float,
    options: _Options = _Options(),
) -> BuildReport:
    inputs = _collect(
        variant_dirs, scenario_paths, log, options.include_bundled, early_statistics=True
    )
    try:
        pages = _pages(inputs, log)
    finally:
        if inputs.statistics is not None:
            inputs.statistics.close()
    folders = (
        None if options.theme is None else [options.theme / "templates", site_dir / "templates"]
    )
    env = _environment(site_dir, options.theme)
    files, found = _render(env, pages, log, options.config, folders)
    entries = [*_rule_entries(inputs), *found]
    files["assets/search-index.js"] = index_script(entries)
    works = inputs.library.works
    files["bibliography.bib"] = bibtex(works)
    files["bibliography.json"] = json.dumps(csl_json(works), indent=2, ensure_ascii=False) + "\n"
    statistics: list[StatSection] = next(
        (p.context["sections"] for p in pages if p.path == "statistics.html"), []
    )
    files.update(data_files(inputs.variants, inputs.comparisons, statistics))
    if options.config.base_url:
        files["sitemap.xml"] = _sitemap(options.config.base_url, pages)
    log(f"writing {len(files) + 1} files")
    tmp.chmod(0o755)
    _write(tmp, site_dir, files, options.theme)
    _swap(tmp, out)
    seconds = time.perf_counter() - started
    log(f"built {len(pages)} pages into {out} in {seconds:.2f} s")
    return BuildReport(out, [p.path for p in pages], len(files) + 1, seconds)
