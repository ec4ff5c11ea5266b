"""The ``strong`` commands' help and ``--write``, and three documents, round seven, each
shown failing before its fix:

- ``strong solve --write`` refused a stored strategy it could not replace (made
  read-only), or a store it could not write (under a file; one the user may not write),
  only after the whole solve, throwing the solution away; each is now refused before the
  tree is walked, as a link or a named pipe there already was (as the store is read);
- none of the five ``strong`` subcommands showed an ``Example:`` line in its ``--help``,
  which the README promises of every command; ``strong bands --help`` did not say that
  ``-v`` is given twice (the two systems); ``strong exploit -v``, ``strong table --deals``
  and ``--seed``, ``strong measure -v``, ``--deals`` and ``--seed`` had no help text;
- docs/chance.md's example used ``variant`` without saying where ``Library`` comes from;
- docs/site.md's walk-through said ``cd mysite`` and then named ``mysite/variants``: typed
  in order, it failed; its "exit 2" example needed an edit written only in an HTML comment;
- the README said the compiled install takes "about a minute", where docs/install.md
  measured 707 s;
- ``strong exploit --strong-seat``, docs/strong-play.md's example, walked three minutes and
  stopped at 2,000,000 states: the stored strategy's game has 3,428,001, and ``exploit``
  had no ``--max-states`` (the message named ``strong solve``'s); it has one now;
- ``strong bands`` printed "1 rules".
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bouillotte.cli.app import app, load_command

from .conftest import ROOT

SUBCOMMANDS = ("solve", "exploit", "table", "measure", "bands")
EXAMPLE = re.compile(r"^\s*Example:\s+(?P<line>.*)$")


def _subcommand(sub: str) -> Any:
    """``strong SUB`` as the command line parses it (Typer's own Click)."""
    strong: Any = load_command("strong")
    return strong.commands[sub]


def _help_of(*words: str) -> str:
    result = CliRunner().invoke(app, ["strong", *words, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.stdout


def _examples(sub: str) -> list[tuple[list[str], str]]:
    """Each ``Example:`` line of ``strong SUB --help``: its words, and its note in
    brackets (``(a long solve)``), three spaces after the command, as other commands write
    it."""
    found = []
    for line in _help_of(sub).splitlines():
        matched = EXAMPLE.match(line)
        if matched:
            command, _, note = matched["line"].partition("   ")
            found.append((shlex.split(command), note.strip()))
    return found


# -- Example lines (newcomer defect 8) -----------------------------------------------------


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_every_strong_subcommand_shows_an_example_that_parses(sub: str) -> None:
    examples = _examples(sub)
    assert examples, f"strong {sub} --help shows no Example: line"
    command = _subcommand(sub)
    for words, _ in examples:
        assert words[:3] == ["bouillotte", "strong", sub], words
        # parsed as the command line would: every option known, every value accepted
        with command.make_context(sub, words[3:]) as context:
            assert context.params


def _quick(sub: str) -> list[list[str]]:
    return [words for words, note in _examples(sub) if "long" not in note]


@pytest.mark.slow
@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_the_quick_examples_run_as_written(
    sub: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each example not marked long runs, exit 0 (in a folder of its own: --csv writes)."""
    pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")
    monkeypatch.setenv("BOUILLOTTE_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    quick = _quick(sub)
    assert quick, f"strong {sub}: no example quick enough to run"
    for words in quick:
        assert "--write" not in words, words  # would write into the package
        result = CliRunner().invoke(app, words[1:])
        assert result.exit_code == 0, (words, result.output)


def test_only_solve_examples_may_be_long() -> None:
    """A long example says so; the others are the quick ones run above."""
    for sub in SUBCOMMANDS:
        for words, note in _examples(sub):
            if "long" in note:
                assert "--write" in words or sub == "bands", (sub, words)


def test_bands_help_says_v_is_given_twice() -> None:
    text = " ".join(_help_of("bands").split())
    assert "-v SYSTEM twice" in text
    assert "the first system, whose values are switched" in text
    assert "the second, whose values they are switched to" in text
    examples = _examples("bands")
    assert all(words.count("-v") == 2 for words, _ in examples), examples


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_every_strong_option_has_a_help_text(sub: str) -> None:
    command = _subcommand(sub)
    for param in command.params:
        if param.param_type_name == "option":
            assert (param.help or "").strip(), f"strong {sub}: {param.opts} has no help text"


# -- strong solve --write: refused before the solve (writers defect 2) -------------------

TINY = ("--deals", "1", "--iterations", "1", "--cave", "10", "--raises", "1", "--no-straddles")


def _stored_at() -> Path:
    """Where ``strong solve`` with :data:`TINY` stores its strategy (in ``STORE``)."""
    from bouillotte.strong.abstraction import Abstraction, parse_bets
    from bouillotte.strong.core import table_for
    from bouillotte.strong.store import address

    abstraction = Abstraction(10, parse_bets("pot"), 1, False, 1, 5, 1)
    return address(table_for("foster-three", abstraction).variant, abstraction, 1)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store of its own (a copy of a bundled strategy), where the solver must not go."""
    pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")
    from bouillotte.strong import solve
    from bouillotte.strong import store as stored

    folder = tmp_path / "strategies"
    folder.mkdir()
    shutil.copy(next(stored.STORE.glob("foster-three__*.json")), folder)
    monkeypatch.setattr(stored, "STORE", folder)

    def entered(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the solve ran before the refusal")

    monkeypatch.setattr(solve, "build_tree", entered)
    monkeypatch.setattr(solve, "cfr_plus", entered)
    return folder


def _write_refused(store: Path) -> str:
    before = sorted(os.listdir(store))
    result = CliRunner().invoke(app, ["strong", "solve", *TINY, "--write"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(os.listdir(store)) == before  # nothing made, nothing removed
    (line,) = [w for w in result.stderr.splitlines() if w.startswith("error:")]
    assert "tree:" not in result.stderr and "NashConv" not in result.stdout
    return line


def test_a_read_only_stored_strategy_is_refused_before_the_solve(store: Path) -> None:
    target = store / _stored_at().name
    target.write_text(next(store.glob("foster-three__*.json")).read_text("utf-8"), "utf-8")
    target.chmod(0o444)
    line = _write_refused(store)
    assert line == (
        f"error: {target}: is write-protected (no write permission): --write would replace "
        "it; make it writable (chmod u+w) and run the command again, or leave --write out "
        "(--csv or --json keep the figures)"
    )
    assert json.loads(target.read_text("utf-8"))["variant"] == "foster-three"


@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-strategy", "dangling"])
def test_a_link_for_the_stored_strategy_is_refused_before_the_solve(
    store: Path, tmp_path: Path, dangling: bool
) -> None:
    from bouillotte.rules.errors import InputError
    from bouillotte.strong.store import check_replaceable

    target = store / _stored_at().name
    elsewhere = tmp_path / "elsewhere.json"
    if not dangling:
        elsewhere.write_text(next(store.glob("foster-three__*.json")).read_text("utf-8"))
    target.symlink_to(elsewhere)
    line = _write_refused(store)
    # read with the store, before the solve (tests/hostile/test_catalogue.py says so too)
    assert line.startswith(f"error: {target}: is a link: refusing to read what it leads to")
    assert target.is_symlink() and elsewhere.exists() is not dangling
    with pytest.raises(InputError) as raised:
        check_replaceable(target)
    assert str(raised.value) == (
        f"{target}: is a link: --write replaces the stored strategy there and never "
        "writes through a link (it could lead anywhere); remove the link and run the "
        "command again"
    )


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_stored_strategy_not_a_regular_file_is_refused_before_the_solve(
    store: Path, kind: str
) -> None:
    from bouillotte.rules.errors import InputError
    from bouillotte.strong.store import check_replaceable

    target = store / _stored_at().name
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    line = _write_refused(store)
    assert line == f"error: {target}: is not a regular file (a named pipe, a device or a folder)"
    with pytest.raises(InputError) as raised:
        check_replaceable(target)
    assert str(raised.value) == (
        f"{target}: is not a regular file (a named pipe, a device or a folder): --write "
        "cannot replace it; remove it and run the command again"
    )


def test_a_store_under_a_file_is_refused_before_the_solve(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bouillotte.strong import store as stored

    (store / "afile").write_text("x")
    monkeypatch.setattr(stored, "STORE", store / "afile" / "strategies")
    line = _write_refused(store)
    assert line == f"error: {store / 'afile' / 'strategies'}: cannot write there: Not a directory"


def test_a_store_that_takes_no_new_file_is_refused_before_the_solve(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store the user may not write (an install owned by root; here its permission
    denied by ``os.access``, since root writes anyway) is one line before the solve."""
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != store and real(p, mode))
    line = _write_refused(store)
    assert line == (
        f"error: {store}: takes no new file (no write permission): --write stores the "
        "strategy there; leave --write out (--csv or --json keep the figures)"
    )


def test_a_writable_stored_strategy_is_still_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check refuses nothing the writer takes: the same inputs solved again replace
    their file (which ``stored()`` has read as an input of the command)."""
    pytest.importorskip("numpy", reason="numpy is not installed: pip install -e '.[strong]'")
    from bouillotte.strong import store as stored

    folder = tmp_path / "strategies"
    folder.mkdir()
    monkeypatch.setattr(stored, "STORE", folder)
    target = folder / _stored_at().name
    for _ in range(2):
        result = CliRunner().invoke(app, ["strong", "solve", *TINY, "--write"])
        assert result.exit_code == 0, result.output
        assert f"stored {target.name}" in result.stderr
    assert sorted(os.listdir(folder)) == [target.name]


# -- the documents (newcomer defects 2, 3 and 9) -----------------------------------------


def _blocks(text: str, fence: str) -> list[tuple[int, str]]:
    """Each fenced block of ``fence`` (``python``, ``sh``): the line before it, its body."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.strip() == f"```{fence}":
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            found.append((i - 1, "\n".join(lines[i + 1 : end])))
    return found


def test_the_chance_example_runs_as_written() -> None:
    """docs/chance.md's example, run alone, imports what it uses and deals a game."""
    text = (ROOT / "docs" / "chance.md").read_text(encoding="utf-8")
    (example,) = [body for _, body in _blocks(text, "python") if "ChanceDeal.of" in body]
    assert "from bouillotte.rules.profiles import Library" in example
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/chance.md", "exec"), namespace)
    deal = namespace["deal"]
    assert sorted(len(hand) for hand in namespace["chance"].hands) == [3, 3, 3, 3]
    assert deal.to_act is not None


def _walk_through() -> str:
    text = (ROOT / "docs" / "site.md").read_text(encoding="utf-8")
    start = text.index("## A site of your own systems only")
    return text[start : text.index("\n## ", start + 1)]


def test_the_site_walk_through_is_run_as_a_reader_types_it() -> None:
    """Every command of the walk-through is run by tests/test_docs.py, in one folder, in
    order: no ``cd`` (the test could not follow it), no block left untested."""
    section = _walk_through()
    lines = section.splitlines()
    blocks = _blocks(section, "sh")
    assert len(blocks) >= 3
    for before, body in blocks:
        assert lines[before] == "<!-- test: run -->", body
        for command in body.splitlines():
            assert command.startswith("bouillotte "), command


def test_the_site_walk_through_says_the_edit_that_makes_it_fail() -> None:
    """The edit the test makes before the "exit 2" block is said in the text a reader
    sees, not only in an HTML comment."""
    section = _walk_through()
    (edit,) = re.findall(r"<!-- test: edit (\S+): (.+) => (.+) -->", section)
    path, old, new = edit
    seen = re.sub(r"<!--.*?-->", "", section)
    said = " ".join(seen.split())
    assert f"`{old}`" in said and f"`{new}`" in said and f"`{path}`" in said, said


def test_the_readme_gives_the_measured_install_time() -> None:
    """The README's install times are docs/install.md's: on an idle machine (the two runs
    of its second table) and beside other builds (its first table)."""
    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    (busy,) = [line for line in install.splitlines() if "pip install -q .` |" in line]
    loaded = re.search(r"\| (\d+ s) \(", busy)
    (idle,) = [line for line in install.splitlines() if "install only |" in line]
    runs = re.search(r"\| (\d+) s and (\d+) s \|", idle)
    assert loaded and runs
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "about a minute" not in readme
    said = f"{runs[1]} s and {runs[2]} s of wall time on an idle 2-core machine, {loaded[1]} on"
    assert said in readme
    assert "docs/install.md" in readme[readme.index(said) :][:300]


def test_exploit_takes_max_states_as_solve_does() -> None:
    """The tree's bound is an option of ``exploit`` too, named by the message that stops
    a walk past it, and the stored strategy's examples in the docs give it."""
    small = ["strong", "exploit", "--policy", "cautious", "--deals", "2"]
    stopped = CliRunner().invoke(app, [*small, "--max-states", "50"])
    assert stopped.exit_code == 2, stopped.output
    assert "the abstracted game has more than 50 states" in stopped.stderr
    assert "(--max-states allows up to 10,000,000:" in stopped.stderr
    done = CliRunner().invoke(app, [*small, "--max-states", "10000000"])
    assert done.exit_code == 0, done.output
    doc = (ROOT / "docs" / "strong-play.md").read_text(encoding="utf-8")
    seat = [line for line in doc.splitlines() if "--strong-seat" in line and "exploit -v" in line]
    assert seat and all("--max-states 4000000" in line for line in seat)


def test_bands_counts_its_rules_in_words() -> None:
    import typer

    from bouillotte.cli.strong_bands import _print_bands

    runner = CliRunner()
    command = typer.Typer()

    @command.command()
    def show() -> None:
        _print_bands(
            {
                "label": "L",
                "cpu_seconds": 1.5,
                "rules": [{"rule": "r", "acts": False, "reason": "y"}],
            }
        )

    assert runner.invoke(command, []).stdout.startswith("L: 1 rule in 1.5 s of CPU\nr: y")
