"""Build the static site: collect every page, render it, write it all, then swap it in."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape as xml_escape

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..rules.bibliography import bibtex, csl_json
from ..rules.errors import InputError, UserError
from ..rules.escaping import safe_url
from ..rules.modes import current_umask, take_mode  # the one rule of modes, as --csv's
from ..rules.resources import bundled
from ..rules.writing import reason
from ..study.check import Mismatch, check
from ..study.render import counted
from . import downloads, scenes
from . import rules as rule_views
from .citation import page_citation
from .downloads import data_files
from .edition import HOW_TO_DATE, check_source_date, edition
from .headings import navigable
from .ids import (
    cite_id,
    href,
    pair_page,
    root_of,
    rule_id,
    scenario_page,
    slug,
    variant_page,
)
from .inputs import Inputs, collect
from .metadata import head_html
from .names import Names
from .output import (
    PARTIAL,
    BuildLock,
    aside_stem,
    check_out,
    make_parents,
    partial_claim,
    remove_build,
    remove_leftovers,
    remove_made,
    swap,
    write_files,
)
from .page import Log, Page, quiet
from .pages import all_pages
from .pages.search import rule_entries
from .pagetext import page_text
from .prose import inline_here, markdown_here
from .readings import ReadingView
from .search import SEARCH_INDEX, index_script, page_entries
from .siteconfig import BUNDLED, DEFAULT, SiteConfig, load_config
from .stats import (
    StatSection,
)
from .template_bounds import TooLarge
from .theme import BoundedEnvironment, check_templates, render_bounded, render_error
from .tidydata import tidy_downloads

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


@dataclass(frozen=True)
class BuildReport:
    out: Path
    pages: list[str]
    files: int
    seconds: float


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
    env = BoundedEnvironment(loader=ChoiceLoader([FileSystemLoader(f) for f in folders]), **options)
    env.filters["markdown"] = markdown_here
    env.filters["inline"] = inline_here
    env.filters["slug"] = slug
    env.filters["safe_url"] = safe_url
    env.filters["with_cards"] = scenes.with_cards
    env.globals["href"] = href
    env.globals["rule_id"] = rule_id
    env.globals["cite_id"] = cite_id
    env.globals["rule_label"] = rule_views.rule_label
    # What readers call systems and works (names.py): a build gives its own (_build).
    env.globals["naming"] = Names()
    env.filters["names"] = Names().words
    env.filters["prose"] = Names().prose
    env.filters["work_names"] = Names().words
    env.filters["work_prose"] = Names().prose
    env.globals["words"] = rule_views.value_words
    env.globals["variant_page"] = variant_page
    env.globals["scenario_page"] = scenario_page
    env.globals["pair_page"] = pair_page
    env.globals["downloads"] = downloads.NAMES
    env.globals["page_citation"] = page_citation
    env.globals["head_metadata"] = head_html
    return env


def _render(
    env: Environment,
    pages: list[Page],
    log: Log,
    config: SiteConfig = DEFAULT,
    theme_folders: list[Path] | None = None,
    site_paths: set[str] | None = None,
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
    dated = edition(config.edition_date)
    if dated.date is None and site_paths is None:
        log(HOW_TO_DATE)
    env.globals["edition"] = dated
    env.globals["site"] = config
    built = site_paths if site_paths is not None else {p.path for p in pages}
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
            rendered[page.path] = navigable(page.path, render_bounded(env, page.template, context))
        except UserError:
            raise
        except TooLarge as exc:
            told = None if theme_folders is None else render_error(exc, page.path, theme_folders)
            if told is not None and told.file is not None:  # at a template's line
                raise told from None
            # The bundled templates' work grows with the inputs alone (a title of a million
            # characters on every row of the matrix): bad input, not a bug.
            theme = ", or the theme's templates write too much" if told else ""
            raise InputError(
                f"{page.path}: {exc}: the inputs are too large for one page{theme} (is a "
                "system's or a work's title or short name too long?)"
            ) from None
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


@dataclass(frozen=True)
class _Options:
    include_bundled: bool = True
    config: SiteConfig = DEFAULT
    theme: Path | None = None
    allow_mismatch: bool = False


def build_site(
    out: Path,
    variant_dirs: Sequence[Path] = (),
    scenario_paths: Sequence[Path] = (),
    log: Log = quiet,
    *,
    include_bundled: bool = True,
    config_file: Path | None = None,
    allow_mismatch: bool = False,
) -> BuildReport:
    """Build the whole site into ``out``; on any error ``out`` is left as it was.

    ``include_bundled=False`` builds from the given folders alone (their own
    ``sources.yaml``); ``config_file`` is a site configuration (``siteconfig.SiteConfig``).
    Every scenario's ``expect`` blocks are checked as ``bouillotte check`` checks them: a
    deal that does not end as its scenario says is refused (:class:`ExpectationError`),
    unless ``allow_mismatch``, which builds and marks it on the scenario's page.
    """
    started = time.perf_counter()
    out = Path(out)
    config, theme = load_config(Path(config_file)) if config_file is not None else (DEFAULT, None)
    if config_file is None and include_bundled and not variant_dirs and not scenario_paths:
        config = BUNDLED  # the bundled site alone: the release's own edition, dated
    options = _Options(include_bundled, config, theme, allow_mismatch)
    given = [
        *variant_dirs,
        *scenario_paths,
        *(bundled(n) for n in ("variants", "scenarios", "site")),
        *([Path(config_file)] if config_file is not None else []),
        *([theme] if theme is not None else []),
    ]
    check_out(out, given)
    check_source_date()  # a date that cannot be is told before the long part
    site_dir = bundled("site")
    if not (site_dir / "templates").is_dir():
        raise InputError("the site templates are missing", file=site_dir)
    if theme is not None:  # a fault in a theme's template is found before the long part
        check_templates(_environment(site_dir, theme), theme)
    made: list[Path] = []  # the folders above ``out`` this build made: removed if it fails
    try:
        make_parents(out, made)
        with BuildLock(out):
            remove_leftovers(out)
            check_out(out, given)  # again: another build may have finished meanwhile
            return _build_locked(out, variant_dirs, scenario_paths, site_dir, log, started, options)
    except OSError as exc:
        remove_made(made)
        raise InputError(f"cannot write the site: {reason(exc)}", file=out) from None
    except BaseException:
        remove_made(made)
        raise


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
    tmp = Path(tempfile.mkdtemp(prefix=f"{aside_stem(out)}.", suffix=".tmp", dir=out.parent))
    try:
        (tmp / PARTIAL).write_text(partial_claim(tmp), encoding="utf-8")
        report = _build_into(
            tmp, out, variant_dirs, scenario_paths, site_dir, log, started, options
        )
    except BaseException:
        remove_build(tmp)
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


NOT_FOUND = Page("404.html", "not-found.html", "Page not found")
"""``404.html``, at the site's root: what a static host (GitHub Pages, Netlify, most
servers configured to) shows for an address with no page."""


def _robots(base_url: str | None) -> str:
    """``robots.txt``: every page may be read; the sitemap named where there is one (it
    needs the site's public address: ``base_url``)."""
    if base_url:
        return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n"
    return (
        "User-agent: *\nAllow: /\n\n# No sitemap: the site has no public address (base_url "
        "in its site.yaml), and a sitemap lists full addresses.\n"
    )


class ExpectationError(InputError):
    """A scenario's deal does not end as its ``expect`` block says: a page would publish
    an outcome its own scenario contradicts."""


def _expectations(inputs: Inputs, allow_mismatch: bool, log: Log) -> Inputs:
    """Every scenario's ``expect`` blocks (and ``expect_readings``), checked as ``bouillotte
    check`` checks them. A mismatch refuses the build, at the first one's file and line
    with the expected and the actual value, and names the others; with ``allow_mismatch``
    it is logged and the scenario's page says it."""
    report = check([c.scenario for c in inputs.comparisons], inputs.library)
    found = report.mismatches
    if not found:
        return inputs
    if not allow_mismatch:
        first, others = found[0], found[1:]
        more = (
            f"; and {counted(len(others), 'more mismatch', 'more mismatches')}: "
            + "; ".join(m.describe() for m in others)
            if others
            else ""
        )
        raise ExpectationError(
            f"{first.scenario} under {first.variant}: {first.message}{more} (the site is not "
            "built: fix the scenario or the rule, or build with --allow-mismatch to publish "
            "the pages with the mismatch marked; bouillotte check lists them too)",
            file=first.file,
            line=first.line,
        )
    for mismatch in found:
        log(f"mismatch, marked on its page: {mismatch.describe()}")
    by_scenario: dict[str, list[Mismatch]] = {}
    for mismatch in found:
        by_scenario.setdefault(mismatch.scenario, []).append(mismatch)
    return replace(inputs, mismatches=by_scenario)


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
    inputs = collect(
        variant_dirs, scenario_paths, log, options.include_bundled, early_statistics=True
    )
    try:
        inputs = _expectations(inputs, options.allow_mismatch, log)
        pages = all_pages(inputs, log)
    finally:
        if inputs.statistics is not None:
            inputs.statistics.close()
    folders = (
        None if options.theme is None else [options.theme / "templates", site_dir / "templates"]
    )
    env = _environment(site_dir, options.theme)
    env.globals["naming"] = inputs.names
    env.filters["names"] = inputs.names.words
    env.filters["prose"] = inputs.names.prose
    env.filters["work_names"] = inputs.names.works_first.words
    env.filters["work_prose"] = inputs.names.works_first.prose
    files, found = _render(env, pages, log, options.config, folders)
    # The page a static host shows for an address with no page: outside the search index
    # and the sitemap (it is no page of the site's own).
    not_found, _ = _render(
        env, [NOT_FOUND], quiet, options.config, folders, {p.path for p in pages}
    )
    files.update(not_found)
    files["robots.txt"] = _robots(options.config.base_url)
    # The index reads as the pages do: systems and works by name, rules by name (names.py).
    entries = [
        {k: inputs.names.words(v) if k in ("t", "x") else v for k, v in e.items()}
        for e in (*rule_entries(inputs), *found)
    ]
    files[SEARCH_INDEX] = index_script(entries)
    works = inputs.library.works
    files["bibliography.bib"] = bibtex(works)
    files["bibliography.json"] = json.dumps(csl_json(works), indent=2, ensure_ascii=False) + "\n"
    # The same two files among the data (data/datapackage.json describes every file under
    # data/, and a data package names no file outside its folder).
    files[downloads.BIBLIOGRAPHY_BIB] = files["bibliography.bib"]
    files[downloads.BIBLIOGRAPHY_JSON] = files["bibliography.json"]
    statistics: list[StatSection] = next(
        (p.context["sections"] for p in pages if p.path == "statistics.html"), []
    )
    # the Readings page's deals, played once for the page and once only
    views: list[ReadingView] = next(
        (p.context["views"] for p in pages if p.path == "readings.html"), []
    )
    files.update(data_files(inputs.variants, inputs.comparisons, statistics))
    files.update(
        tidy_downloads(
            inputs.variants, inputs.comparisons, statistics, files, inputs.library, views
        )
    )
    if options.config.base_url:
        files["sitemap.xml"] = _sitemap(options.config.base_url, pages)
    # Every JSON file shows a control the pages escape as its JSON escape (downloads.py).
    files.update({k: downloads.escaped_json(v) for k, v in files.items() if k.endswith(".json")})
    log(f"writing {len(files) + 1} files")
    # Private while it was built (mkdtemp's 0700); now the mode of the folder it replaces
    # (a site made private stays private), or the umask's for a new one, as ``new``'s.
    take_mode(tmp, out, 0o777 & ~current_umask())
    write_files(tmp, site_dir, files, options.theme)
    left = swap(tmp, out)
    if left is not None:
        log(f"note: {left}")
    seconds = time.perf_counter() - started
    log(f"built {len(pages)} pages into {out} in {seconds:.2f} s")
    return BuildReport(out, [p.path for p in pages], len(files) + 1, seconds)
