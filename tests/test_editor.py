"""An editor's own systems and site (issue 21), as a new user goes: ``bouillotte new``, a
quote edited wrongly and put right, the site beside the bundled library, then a site of
their own systems only (``variants export --standalone``, ``--no-bundled``) holding no
bundled word; and a flattened profile means what the profile it comes from means.

Each step runs the README's own command line (``cli/scaffold.py``), so the README of the
folder is tested as it is written.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.cli.scaffold import FILES, PROFILE_ID
from bouillotte.rules.export import export, write_export
from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library

from .test_site import _user_folder, pages, parse

BUNDLED_WORDS = (
    "pagat",
    "Bouillotte compared",
    "the historical rule systems compared",
    "britannica",
    "cardrulesplus",
    "foster-sight",
    "This build has no",
    "What each rule does",
    "brelan-pierer",
    "pagat-mistigri",
    "foster",
    "hoyle",
    "pierer",
    "académie",
    "academie",
    "trévoux",
    "trevoux",
    "littré",
    "littre",
    "encyclopédie",
    "encyclopedie",
    "wikipedia",
    "mcleod",
    "diderot",
)
"""Words of the bundled library (its systems, works, authors, scenarios, title, statistics)
that a site of the editor's own systems never shows, unless the editor's own files say them
(the exported profile keeps foster's citations, which quote Foster and name pagat)."""


def fold(text: str) -> str:
    """Lower case without accents: "Trévoux" and "trevoux" alike."""
    return unicodedata.normalize("NFD", text).encode("ascii", "ignore").decode().lower()


def bundled_names() -> set[str]:
    """Every name the bundled library gives its systems and works, computed from it: each
    system id and work id, the name a work id begins with (``academie``, ``pierer``), and
    each author's name (the last capitalised word of each person: ``Foster``, ``Littré``)."""
    library = Library()
    names = {*library.ids(), *library.works, *(w.split("-")[0] for w in library.works)}
    for work in library.works.values():
        for person in re.sub(r"\(.*?\)", "", work.author).split(" and "):
            capitalised = [w for w in person.split() if any(c.isupper() for c in w)]
            if capitalised and len(capitalised[-1]) > 3:
                names.add(capitalised[-1])
    return {fold(name) for name in names}


def names_in(text: str, names: set[str]) -> list[str]:
    """The names that ``text`` holds as whole words (``pagat`` in "pagat.com" too)."""
    folded = fold(text)
    return sorted(n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", folded))


class _Descriptions(HTMLParser):
    """The text of a page's rule and group descriptions (``rule-doc``, ``group-doc``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if self.depth:
            self.depth += tag == "p"
        elif tag == "p" and classes & {"rule-doc", "group-doc"}:
            self.depth = 1
            self.found.append("")

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag == "p":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.found[-1] += data


def descriptions_shown(site: Path) -> list[str]:
    """Every rule and group description a built site shows: on the systems' pages, and in
    the search index's entry for each rule."""
    found = []
    for file in (site / "variants").glob("*.html"):
        reader = _Descriptions()
        reader.feed(file.read_text(encoding="utf-8"))
        found.extend(reader.found)
    script = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    entries = json.loads(script[len("window.SEARCH_INDEX = ") : -2])
    return found + [e["x"] for e in entries if e["k"] == "rule"]


def readme_commands() -> list[list[str]]:
    """The ``bouillotte`` command lines of the folder's README, in order."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", FILES["README.md"], re.S):
        for line in block.splitlines():
            words = shlex.split(line)
            if words and words[0] == "bouillotte" and words[1:3] != ["site", "serve"]:
                found.append(words[1:])
    return found


def run(runner: CliRunner, folder: Path, words: list[str]) -> tuple[int, str, str]:
    cwd = Path.cwd()
    try:
        import os

        os.chdir(folder)
        result = runner.invoke(app, words)
    finally:
        os.chdir(cwd)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(tmp_path / "cache"))
    return CliRunner()


def test_the_readme_lists_the_steps() -> None:
    commands = readme_commands()
    assert [c[:2] for c in commands] == [
        ["variants", "show"],
        ["check", "--variants"],
        ["site", "build"],
        ["variants", "export"],
        ["site", "build"],
    ]


def test_a_mistyped_quote_is_one_line_with_the_closest_passage(
    tmp_path: Path, runner: CliRunner
) -> None:
    assert run(runner, tmp_path, ["new", "ed"])[0] == 0
    folder = tmp_path / "ed"
    profile = folder / "variants" / f"{PROFILE_ID}.yaml"
    good = profile.read_text(encoding="utf-8")
    profile.write_text(good.replace("each player puts two", "each player put two"), "utf-8")
    code, _, err = run(runner, folder, ["check", "--variants", "variants", "scenarios"])
    assert code == 2
    (line,) = err.splitlines()
    quote_line = good.splitlines().index(
        '      quote: "If no one will open, the deal is void, and each player puts two '
        'counters in the pool"'
    )
    assert line.startswith(f"error: variants/{PROFILE_ID}.yaml:{quote_line + 1}: ")
    assert "rules.void_deals.void_levy.quote: not found word for word" in line
    assert 'paragraph 2: "If no one will open, the deal is void, and each player puts two' in line
    profile.write_text(good, encoding="utf-8")
    code, out, _ = run(runner, folder, ["check", "--variants", "variants", "scenarios"])
    assert code == 0 and "1 checked, 0 mismatches" in out


@pytest.mark.slow
def test_from_new_folder_to_a_site_of_ones_own(
    tmp_path: Path, runner: CliRunner, site_cache: Path
) -> None:
    # The bundled systems' results in the cache (a copy of a cold build's): the steps'
    # output is the same with or without them (test_site's test_the_build_cache_changes_no_byte).
    shutil.copytree(site_cache, tmp_path / "cache")
    assert run(runner, tmp_path, ["new", "ed"])[0] == 0
    folder = tmp_path / "ed"
    for words in readme_commands():
        code, out, err = run(runner, folder, words)
        assert code == 0, (words, out, err)
        if words[:2] == ["site", "build"]:
            built = words[words.index("--out") + 1]
            assert err.splitlines()[-1].endswith(f"bouillotte site serve --dir {built}"), err
    own = folder / "_own"
    mine = " ".join(  # the editor's own files, the exported profile and its texts too
        f.read_text(encoding="utf-8").lower()
        for part in ("own", "scenarios", "theme", "site.yaml")
        for f in [folder / part, *(folder / part).rglob("*")]
        if f.is_file()
    )
    said = {w for w in BUNDLED_WORDS if w.lower() in mine}
    assert said == {"foster", "hoyle", "pagat", "britannica", "encyclopédie"}, said
    words = [w for w in BUNDLED_WORDS if w not in said]
    for file in [f for f in own.rglob("*") if f.is_file()]:  # pages, data, assets
        text = file.read_text(encoding="utf-8").lower()
        for word in words:
            assert word.lower() not in text, f"{file.relative_to(own)}: {word!r}"
    described = descriptions_shown(own)
    assert len(described) >= 2 * 64  # every rule on the system's page and in the index
    names = bundled_names() | {fold(w) for w in BUNDLED_WORDS}
    for text in described:  # not even a word the editor's own files say
        assert not names_in(text, names) and "Sources:" not in text, text
    assert "<title>Home · Our table&#39;s Bouillotte</title>" in (own / "index.html").read_text(
        encoding="utf-8"
    )
    search = (own / "search.html").read_text(encoding="utf-8")
    assert "<h1>Search our rules</h1>" in search  # the theme's template
    index = (own / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert "a blind of two counters" in index
    for file in pages(own):  # every link whole
        for _tag, link in parse(file).links:
            path = link.split("#")[0]
            if path and not link.startswith(("http://", "https://")):
                assert (file.parent / path).is_file(), f"{file.relative_to(own)}: {link}"


def test_an_exported_profile_means_what_its_profile_means(tmp_path: Path) -> None:
    """Every bundled system, flattened with its works and texts and read alone: the same
    rules, citations and standing of each rule (inherited, silent) as the original."""
    library = Library()
    for variant in library.all():
        folder = tmp_path / variant.id
        write_export(export(library, variant.id, standalone=True, as_id=None), folder)
        mine = Library([folder], include_bundled=False).get(variant.id)
        assert mine.rules == variant.rules, variant.id
        for path in rule_paths():
            assert mine.provenance(path) == variant.provenance(path), (variant.id, path)
            assert mine.citation(path) == variant.citation(path), (variant.id, path)
        assert (mine.title, mine.short, mine.source, mine.summary, mine.game) == (
            variant.title,
            variant.short,
            variant.source,
            variant.summary,
            variant.game,
        )


def test_a_bundled_id_replaces_only_when_it_says_so(tmp_path: Path, runner: CliRunner) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    profile = mine / "pagat.yaml"
    profile.write_text("title: Mine\nsource: pagat-card\nextends: foster\n", encoding="utf-8")
    code, _, err = run(
        runner, tmp_path, ["variants", "show", "pagat-mistigri", "--variants", "mine"]
    )
    assert code == 2 and "say 'replaces: true'" in err
    profile.write_text("replaces: true\n" + profile.read_text(encoding="utf-8"), encoding="utf-8")
    for words in (["variants", "show", "pagat-mistigri"], ["check"], ["variants", "list"]):
        code, _, err = run(runner, tmp_path, [*words, "--variants", "mine"])
        assert code in (0, 1), (words, err)
        assert (
            "note: using mine/pagat.yaml (replaces: true) in place of the bundled profile 'pagat'"
            in err.splitlines()
        ), words


def test_each_description_means_without_naming_the_bundled_library() -> None:
    """Each rule's description is its meaning, naming no bundled work, author or system,
    then (``Sources:``) where its values come from; a site without the bundled library
    shows the meaning alone, which must still say what each value means. The split
    loses nothing: meaning and sources give the docstring back, and ``variants diff``'s
    first paragraph is the meaning's."""
    from bouillotte.rules.descriptions import SOURCES_MARK, split_description
    from bouillotte.rules.profile import GROUPS, rule_doc

    names = bundled_names()
    assert {"foster", "pagat", "pierer", "littre", "trevoux", "academie", "mcleod"} <= names
    with_sources = 0
    for path in rule_paths():
        whole = rule_doc(path)
        meaning = rule_doc(path, sources=False)
        parts = split_description(whole)
        assert meaning == parts.meaning and parts.text() == whole, path
        assert meaning and not meaning.startswith(SOURCES_MARK), path
        assert whole.split("\n\n")[0] == meaning.split("\n\n")[0], path
        assert not names_in(meaning, names), (path, names_in(meaning, names))
        assert SOURCES_MARK not in meaning, path
        if not parts.sources:
            continue
        with_sources += 1
        assert names_in(parts.sources, names), path  # it says where, by name
        group, field = path.split(".")
        annotation = str(GROUPS[group].model_fields[field].annotation)
        for value in re.findall(r"'([a-z-]+)'", annotation) if "Literal" in annotation else ():
            assert f"``{value}``" in meaning, (path, value)  # each value still meant in words
    assert with_sources >= 20
    for model in GROUPS.values():
        assert not names_in(model.__doc__ or "", names), model.__name__


def test_a_site_with_the_bundled_library_keeps_the_sources() -> None:
    """The whole description is shown with the bundled library; the meaning alone without."""
    from bouillotte.site.rules import rule_doc

    assert "Pierer" in rule_doc("table.packets") and "Sources:" in rule_doc("table.packets")
    alone = rule_doc("table.packets", sources=False)
    # The values in their words (the site's rule_doc), not as code.
    assert "Pierer" not in alone and "<em>two cards, then one</em> the other way round." in alone


def test_a_site_of_systems_citing_only_their_own_work_names_nothing_bundled(
    tmp_path: Path, runner: CliRunner
) -> None:
    """A profile that states every rule from the editor's own book (``test_site``'s user
    folder): its ``--no-bundled`` site, every file of it, names no bundled work, author or
    system, not even in the rule descriptions or the statistics page's policy."""
    root = _user_folder(tmp_path)
    out = tmp_path / "out"
    code, out_text, err = run(
        runner,
        root,
        ["site", "build", "--no-bundled", "--variants", "mine", "--scenarios", "mine/deals",
         "--config", "site.yaml", "--out", str(out)],
    )  # fmt: skip
    assert code == 0, (out_text, err)
    names = bundled_names() | {fold(w) for w in BUNDLED_WORDS}
    for file in [f for f in out.rglob("*") if f.is_file()]:
        found = names_in(file.read_text(encoding="utf-8"), names)
        assert not found, f"{file.relative_to(out)}: {found}"
    assert len(descriptions_shown(out)) >= 2 * 64
