"""The output the README and docs/*.md print as an excerpt of a command is what the command
prints: a paragraph ending "`bouillotte ARGS` prints (long lines cut here):" followed by a
fenced block. The block is the command's standard output, line for line and whole, except
that a line of the block ending in " ..." stands for one output line that begins with the
text before " ..." (a long line cut; nothing else may be left out or changed)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXCERPT = re.compile(
    r"`bouillotte ([^`]+)` prints \(long lines cut here\):\n\n```\n(.*?)\n```", re.S
)
CUT = " ..."


def excerpts() -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        found.extend((path.name, m.group(1), m.group(2)) for m in EXCERPT.finditer(text))
    return found


def differences(excerpt: str, output: str) -> list[str]:
    shown, printed = excerpt.splitlines(), output.rstrip("\n").splitlines()
    faults = (
        [f"{len(shown)} lines shown, {len(printed)} printed"] if len(shown) != len(printed) else []
    )
    for n, (a, b) in enumerate(zip(shown, printed, strict=False), start=1):
        ok = b.startswith(a.removesuffix(CUT)) if a.endswith(CUT) else a == b.rstrip()
        if not ok:
            faults.append(f"line {n}: shown {a!r}, printed {b!r}")
    return faults


def test_the_rule_finds_a_changed_figure_and_allows_a_cut() -> None:
    printed = "the deal goes 40 ways over them, each played once\nsecond"
    assert not differences("the deal goes 40 ways ...\nsecond", printed)
    assert differences("the deal goes 144 ways ...\nsecond", printed)
    assert differences("the deal goes 40 ways ...", printed)  # a line left out
    assert differences("the deal goes 40 ways\nsecond", printed)  # cut without saying so


def test_the_readme_has_its_excerpt() -> None:
    assert any(name == "README.md" for name, _, _ in excerpts())


@pytest.mark.parametrize(("name", "command", "excerpt"), excerpts())
def test_each_printed_excerpt_is_what_the_command_prints(
    name: str, command: str, excerpt: str
) -> None:
    result = CliRunner().invoke(app, shlex.split(command), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    faults = differences(excerpt, result.stdout)
    assert not faults, (name, command, faults)


def test_variants_show_gives_each_rules_meaning() -> None:
    """The README: "`bouillotte variants show foster` lists them all with what each means"."""
    from bouillotte.rules.profile import rule_doc, rule_paths, rule_title
    from bouillotte.study.render import plain

    out = CliRunner().invoke(app, ["variants", "show", "foster"], catch_exceptions=False).stdout
    for path in rule_paths():
        # the docstring as words (render.plain: its ``code`` and *emphasis* as the terminal
        # shows text), its title once, whether or not the docstring begins with it
        meaning = plain(rule_doc(path, sources=False))
        title = rule_title(path)
        said = meaning if meaning.startswith(f"{title}:") else f"{title}: {meaning}"
        assert f"      means: {said}\n" in out, path
    assert "      means: Who cuts: " in out
