"""Build the static site: collect every page, render it, write it all, then swap it in."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..citations import Status
from ..compare import Comparison, compare
from ..errors import InputError
from ..profile import rule_paths
from ..profiles import Library
from ..resources import bundled
from ..scenario import Scenario, ScenarioLibrary, run_scenario
from ..texts import notes_quotes, paragraph_anchor
from ..variant import Standing, Variant
from . import rules as rule_views
from . import scenes
from .glossary import GLOSSARY
from .ids import cite_id, href, root_of, rule_id, scenario_page, slug, text_page, variant_page
from .prose import inline, markdown
from .search import index_script, page_entries
from .stats import odds_section, simulate_section

MARKER = ".bouillotte-site"
"""A file at the root of every built site: only a folder holding it is ever replaced."""

NAV: tuple[tuple[str, str], ...] = (
    ("index.html", "Home"),
    ("matrix.html", "Rule matrix"),
    ("scenarios/index.html", "Scenarios"),
    ("statistics.html", "Statistics"),
    ("sources.html", "Sources"),
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


def _environment(site_dir: Path) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(site_dir / "templates")),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["markdown"] = markdown
    env.filters["inline"] = inline
    env.filters["slug"] = slug
    env.filters["with_cards"] = scenes.with_cards
    env.globals["href"] = href
    env.globals["rule_id"] = rule_id
    env.globals["variant_page"] = variant_page
    env.globals["scenario_page"] = scenario_page
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
                "documented": statuses.count(Status.DOCUMENTED.value),
                "stated": standings.count(Standing.STATED),
                "inferred": standings.count(Standing.INFERRED),
                "inherited": standings.count(Standing.INHERITED),
                "open": len(rule_views.open_questions(v)),
                "rules": len(rule_paths()),
            }
        )
    first = inputs.comparisons[0].scenario if inputs.comparisons else None
    return Page(
        "index.html",
        "home.html",
        "Bouillotte: the historical rule systems compared",
        {"systems": systems, "first_scenario": first, "scenario_count": len(inputs.comparisons)},
    )


def _variant_pages(inputs: _Inputs) -> list[Page]:
    pages = []
    for v in inputs.variants:
        path = variant_page(v.id)
        root = root_of(path)
        groups = rule_views.rule_groups(v, root, inputs.library)
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
                },
            )
        )
    return pages


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


def _notes_in_context(library: Library, scenario: Scenario, root: str) -> list[dict[str, str]]:
    """Each quotation of a scenario's notes, linked to its place in the published text."""
    links = []
    for n, (work_id, words) in enumerate(
        notes_quotes(scenario.model.notes, scenario.model.source.work), start=1
    ):
        link = rule_views.context_href(library, root, work_id, words)
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


def _statistics(inputs: _Inputs, log: Log) -> Page:
    log("statistics")
    try:
        pool = ProcessPoolExecutor(max_workers=1)
    except (OSError, NotImplementedError):  # no processes here: simulate in this one
        pool = None
    if pool is None:
        odds = odds_section(inputs.variants, log)
        simulated = simulate_section(inputs.variants, log)
    else:
        # The simulation runs in a second process while the odds are counted in this one.
        with pool:
            log("  simulating in a second process")
            future = pool.submit(simulate_section, inputs.variants, _quiet)
            odds = odds_section(inputs.variants, log)
            simulated = future.result()
    return Page("statistics.html", "statistics.html", "Statistics", {"sections": [odds, simulated]})


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
            }
        )
    return Page("sources.html", "sources.html", "Sources", {"works": works})


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
    for term in GLOSSARY:
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


def _glossary(inputs: _Inputs) -> Page:
    terms = sorted(GLOSSARY, key=lambda t: t.term.lower())
    contexts = {t.id: rule_views.context_href(inputs.library, "", t.work, t.quote) for t in terms}
    return Page(
        "glossary.html",
        "glossary.html",
        "Glossary",
        {"terms": terms, "works": inputs.library.works, "contexts": contexts},
    )


def _search() -> Page:
    return Page("search.html", "search.html", "Search")


# -- building -------------------------------------------------------------------------


def _collect(variant_dirs: Sequence[Path], scenario_paths: Sequence[Path], log: Log) -> _Inputs:
    log("reading the variant profiles")
    library = Library(list(variant_dirs))
    variants = library.all()
    log(f"  {len(variants)} variants")
    log("reading the scenarios")
    scenarios = ScenarioLibrary(list(scenario_paths)).all()
    comparisons = []
    unplayable: dict[str, list[tuple[str, str]]] = {}
    for scenario in sorted(scenarios, key=lambda s: s.id):
        log(f"  playing {scenario.id} under every variant")
        comparison, failed = _compare(scenario, library, log)
        comparisons.append(comparison)
        if failed:
            unplayable[scenario.id] = failed
    return _Inputs(library, variants, comparisons, unplayable)


def _compare(
    scenario: Scenario, library: Library, log: Log
) -> tuple[Comparison, list[tuple[str, str]]]:
    """Compare under every variant; a variant the scenario cannot be played under (its
    actions do not fit that system's deal) is left out, named, and its reason shown."""
    try:
        return compare(scenario, library), []
    except InputError:
        ids = scenario.variant_ids(library)
        playable, failed = [], []
        for variant_id in ids:
            try:
                run_scenario(scenario, library.get(variant_id))
                playable.append(variant_id)
            except InputError as exc:
                failed.append((variant_id, exc.describe()))
        if not failed:
            raise
        for variant_id, reason in failed:
            log(f"  warning: {scenario.id} cannot be played under {variant_id}: {reason}")
        if not playable:
            return Comparison(scenario, [], []), failed
        return compare(scenario, library, playable), failed


def _pages(inputs: _Inputs, log: Log) -> list[Page]:
    return [
        _home(inputs),
        _matrix(inputs),
        *_variant_pages(inputs),
        _scenario_index(inputs),
        *_scenario_pages(inputs),
        _statistics(inputs, log),
        _sources(inputs),
        _glossary(inputs),
        *_text_pages(inputs),
        _search(),
    ]


def _render(env: Environment, pages: list[Page], log: Log) -> dict[str, str]:
    rendered: dict[str, str] = {}
    nav_paths = [p for p, _ in NAV]
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
        template = env.get_template(page.template)
        rendered[page.path] = template.render(
            page=page, root=root, nav=NAV, section=section, **page.context
        )
    return rendered


def _check_out(out: Path) -> None:
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError("the output must be a folder", file=out)
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise InputError(
            f"refusing to replace a folder that is not a built site (it has no {MARKER} file); "
            "choose an empty or new folder with --out",
            file=out,
        )


def _write(target: Path, site_dir: Path, files: dict[str, str]) -> None:
    shutil.copytree(site_dir / "assets", target / "assets")
    for rel, text in sorted(files.items()):
        file = target / rel
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8", newline="\n")


def _swap(tmp: Path, out: Path) -> None:
    """Put the new build in place; the old one is removed only once the new one is in."""
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


def build_site(
    out: Path,
    variant_dirs: Sequence[Path] = (),
    scenario_paths: Sequence[Path] = (),
    log: Log = _quiet,
) -> BuildReport:
    """Build the whole site into ``out``; on any error ``out`` is left as it was."""
    started = time.perf_counter()
    out = Path(out)
    _check_out(out)
    site_dir = bundled("site")
    if not (site_dir / "templates").is_dir():
        raise InputError("the site templates are missing", file=site_dir)
    inputs = _collect(variant_dirs, scenario_paths, log)
    pages = _pages(inputs, log)
    files = _render(_environment(site_dir), pages, log)
    entries = []
    for page in pages:
        entries.extend(page_entries(page.path, page.title, files[page.path]))
    files["assets/search-index.js"] = index_script(entries)
    files[MARKER] = "A static site built by `bouillotte site build`; safe to replace.\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        log(f"writing {len(files)} files")
        tmp.chmod(0o755)
        _write(tmp, site_dir, files)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    seconds = time.perf_counter() - started
    log(f"built {len(pages)} pages into {out} in {seconds:.2f} s")
    return BuildReport(out, [p.path for p in pages], len(files), seconds)
