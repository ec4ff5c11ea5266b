"""An editor's own systems and site (issue 21), as a new user goes: ``bouillotte new``, a
quote edited wrongly and put right, the site beside the bundled library, then a site of
their own systems only (``variants export --standalone``, ``--no-bundled``) holding no
bundled word; and a flattened profile means what the profile it comes from means.

Each step runs the README's own command line (``cli/scaffold.py``), so the README of the
folder is tested as it is written.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.cli.scaffold import FILES, PROFILE_ID
from bouillotte.rules.export import export, write_export
from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library

from .test_site import pages, parse

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
)
"""Words of the bundled library (its systems, scenarios, title, statistics) that a site of
the editor's own systems never shows."""


def schema_words() -> str:
    """The schema's own description of the rules (``rules/profile.py``), which every site
    shows and which still names the bundled sources where a value comes from one."""
    from bouillotte.rules.profile import GROUPS, rule_doc

    docs = [rule_doc(p) for p in rule_paths()] + [g.__doc__ or "" for g in GROUPS.values()]
    return " ".join(docs).lower()


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
def test_from_new_folder_to_a_site_of_ones_own(tmp_path: Path, runner: CliRunner) -> None:
    assert run(runner, tmp_path, ["new", "ed"])[0] == 0
    folder = tmp_path / "ed"
    for words in readme_commands():
        code, out, err = run(runner, folder, words)
        assert code == 0, (words, out, err)
        if words[:2] == ["site", "build"]:
            built = words[words.index("--out") + 1]
            assert err.splitlines()[-1].endswith(f"bouillotte site serve --dir {built}"), err
    own = folder / "_own"
    schema = schema_words()
    words = [w for w in BUNDLED_WORDS if w.lower() not in schema]
    assert len(words) >= 7  # pagat and britannica are named by the rule descriptions
    for file in [f for f in own.rglob("*") if f.is_file()]:  # pages, data, assets
        text = file.read_text(encoding="utf-8").lower()
        for word in words:
            assert word.lower() not in text, f"{file.relative_to(own)}: {word!r}"
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
