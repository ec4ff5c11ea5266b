"""The hostile catalogue, round five: the site build under a hostile theme, hostile file
names beside its output, and hostile values in what it publishes.

- A theme's template does bounded work: its calls are counted per page as its loop steps
  are (a macro calling itself twice, 2^40 calls, is refused at once, at its line).
- A theme reaches only the values it is given: no file, folder, module or loader of the
  machine (a ``pathlib.Path``, a file object, a module, a class's constructor of such), and
  its errors name its template as the command line reached it, not by its machine path.
- Each theme asset is copied or refused before anything is built: not one the build
  writes itself (``search-index.js``), not a pipe, not a name holding a line break or bytes
  that are not UTF-8; an ``--out`` inside an input folder is refused.
- The build's lock and its claim never follow a link, and never delete a user's file.
- A page too large for its bound, with the bundled templates, is bad input (exit 2).
- The search index shows a control character as the pages do, the JSON and YAML downloads
  as their escapes; ``--no-bundled`` publishes the editor's own glossary.
- Ctrl-C during ``site build`` says ``interrupted``, without the second process's
  traceback.

The cases run as those of ``test_catalogue.py``; each was shown failing before its fix.
Theme cases run as real processes: a template that hangs is killed with its process.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.cli.scaffold import scaffold
from bouillotte.rules.errors import UserError
from bouillotte.site import build_site, theme
from bouillotte.site.output import MARKER, _check_replaceable, _marked_files, write_files

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup

ROOT = Path(__file__).resolve().parents[2]

# -- an editor's folder (bouillotte new), its system exported standalone ---------------------


@functools.cache
def _prepared() -> Path:
    """Made once: ``ed/`` as ``bouillotte new`` makes it, with ``ed/own``, its system
    exported standalone (so that ``--no-bundled`` builds it in a second)."""
    folder = Path(tempfile.mkdtemp(prefix="bouillotte-round5-"))
    atexit.register(shutil.rmtree, folder, True)  # one per test process, removed as it ends
    scaffold(folder / "ed")
    argv = ["variants", "export", "our-table", "--variants", str(folder / "ed" / "variants")]
    argv += ["--standalone", "--out", str(folder / "ed" / "own")]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    return folder / "ed"


def _editor(tmp: Path) -> Path:
    shutil.copytree(_prepared(), tmp / "ed")
    return tmp / "ed"


def _with(write: Callable[[Path], None]) -> Callable[[Path], Cleanup]:
    def setup(tmp: Path) -> Cleanup:
        write(_editor(tmp))
        return None

    return setup


def _template(name: str, text: str) -> Callable[[Path], Cleanup]:
    def write(ed: Path) -> None:
        (ed / "theme" / "templates" / name).write_text(text, encoding="utf-8")

    return _with(write)


def _asset(name: str | bytes, text: str = "x\n") -> Callable[[Path], Cleanup]:
    def write(ed: Path) -> None:
        folder = ed / "theme" / "assets"
        folder.mkdir(exist_ok=True)
        path = os.path.join(os.fsencode(folder), os.fsencode(name))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    return _with(write)


def _fifo_asset(ed: Path) -> None:
    (ed / "theme" / "assets").mkdir(exist_ok=True)
    os.mkfifo(ed / "theme" / "assets" / "print.css")


OWN = ("--no-bundled", "--config", "site.yaml", "--variants", "own", "--scenarios", "scenarios")
BUILD = ("site", "build", *OWN, "--out", "_own")
"""The editor's site built from its folder (``cwd="ed"``): paths as a user types them."""

DOUBLING = """{% extends "base.html" %}
{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}
{% block main %}<h1>Search</h1>{{ f(40) }}{% endblock %}
"""

READS_A_FILE = """<pre>
{% set etc = first_scenario.doc.file.absolute().parents[-1] / "etc" / "hostname" %}
read={{ etc.read_text() }}
{% set out = first_scenario.doc.file.absolute().parent.parent / "PWNED.txt" %}
wrote={{ out.write_text("written by a theme template") }}
</pre>
"""

SECRET = "SECRET-OF-THE-MACHINE"


def _secret_and_template(text: str) -> Callable[[Path], Cleanup]:
    def write(ed: Path) -> None:
        # JSON: a model's parse_file reads it, and its error shows what it read
        (ed.parent / "secret.txt").write_text(json.dumps({"s": SECRET}), encoding="utf-8")
        (ed / "theme" / "templates" / "search.html").unlink()
        (ed / "theme" / "templates" / "home.html").write_text(
            text.replace("{secret}", str(ed.parent / "secret.txt")), encoding="utf-8"
        )

    return _with(write)


def _lock_link(tmp: Path) -> Cleanup:
    (tmp / ".s5.lock").symlink_to(tmp / "planted")
    return None


def _lock_users_file(tmp: Path) -> Cleanup:
    (tmp / ".s8.lock").write_text("my notes\n", encoding="utf-8")
    return None


def _lock_folder(tmp: Path) -> Cleanup:
    (tmp / ".s6.lock").mkdir()
    return None


def _replaced_link(tmp: Path) -> Cleanup:
    catalogue._previous_build(tmp / "s1")
    (tmp / "victim.txt").write_text("precious\n", encoding="utf-8")
    (tmp / "s1" / ".bouillotte-replaced").symlink_to(tmp / "victim.txt")
    return None


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command's name (state first, then the
    parent's id); empty for a process that is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return stat[stat.rindex(")") + 2 :].split()


def _interrupt_second_process(idle: bool) -> Callable[[subprocess.Popen[str]], None]:
    """Ctrl-C (SIGINT to the whole group, as a terminal sends it) once the build's second
    process runs (``idle``: once it has done its work and waits on its queue, where it took
    Ctrl-C as a traceback); the build must end at once, leaving no process."""

    def drive(proc: subprocess.Popen[str]) -> None:
        deadline = time.monotonic() + catalogue.HANG
        asleep = 0
        while True:
            ended = proc.poll()
            assert ended is None, f"the build ended (exit {ended}) before Ctrl-C"
            assert time.monotonic() < deadline, "the second process never started or rested"
            children = [p for p in catalogue._group(proc.pid) if _stat(p)[1:2] == [str(proc.pid)]]
            states = [_stat(p)[:1] for p in children]
            if children and (not idle or asleep >= 5):
                break
            asleep = asleep + 1 if children and states == [["S"]] * len(children) else 0
            time.sleep(0.1)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        started = time.monotonic()
        proc.wait(timeout=catalogue.HANG)
        assert time.monotonic() - started < 10, "Ctrl-C did not stop the build at once"
        time.sleep(0.2)
        assert catalogue._group(proc.pid) == [], "the second process outlived the build"

    return drive


CASES = [
    Case(
        "theme-macro-calling-itself-twice",
        BUILD,
        "theme/templates/search.html:2: the template failed: the template made more than",
        setup=_template("search.html", DOUBLING),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
        within=30,
    ),
    Case(
        "theme-reads-and-writes-files-through-a-path",
        BUILD,
        "theme/templates/home.html:2: the template failed:",
        setup=_secret_and_template(READS_A_FILE),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
        gone=("ed/PWNED.txt", "ed/_own"),
    ),
    Case(
        "theme-reaches-open-through-a-module",
        BUILD,
        "theme/templates/home.html:1: the template failed:",
        setup=_secret_and_template('{{ downloads.csv.re.enum.bltns.open("{secret}").read() }}'),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
        never=(SECRET,),
        gone=("ed/_own",),
    ),
    Case(
        "theme-reads-a-file-through-a-models-loader",
        BUILD,
        "theme/templates/home.html:1: the template failed:",
        setup=_secret_and_template('{{ first_scenario.model.parse_file("{secret}") }}'),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
        never=(SECRET,),
    ),
    Case(
        "theme-prints-the-machines-path-of-a-file",
        BUILD,
        "theme/templates/home.html:1: the template failed:",
        setup=_secret_and_template("{{ first_scenario.doc }}"),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
        gone=("ed/_own",),
    ),
    Case(
        "theme-syntax-error-named-as-reached",
        BUILD,
        "error: theme/templates/search.html:3: template syntax error: unexpected '%'",
        setup=_template(
            "search.html", '{% extends "base.html" %}\n{% block main %}\n{{ %}{% endblock %}\n'
        ),
        cwd="ed",
        real=True,
    ),
    Case(
        "theme-render-error-named-as-reached",
        BUILD,
        "error: theme/templates/search.html:3: the template failed: 'nosuch' is undefined",
        setup=_template(
            "search.html",
            '{% extends "base.html" %}\n{% block main %}\n{{ nosuch }}{% endblock %}\n',
        ),
        cwd="ed",
        real=True,
        one_line=False,  # after the build's progress
    ),
    Case(
        "theme-asset-the-build-writes",
        BUILD,
        "error: theme/assets/search-index.js: the build writes this asset itself",
        setup=_asset("search-index.js", "window.SEARCH_INDEX = [];\n"),
        cwd="ed",
        real=True,
        gone=("ed/_own",),
    ),
    Case(
        "theme-asset-a-pipe",
        BUILD,
        "error: theme/assets/print.css: not a regular file",
        setup=_with(_fifo_asset),
        cwd="ed",
        real=True,
        gone=("ed/_own",),
        within=30,
    ),
    Case(
        "theme-template-a-pipe",
        BUILD,
        "error: theme/templates/base.html: not a regular file",
        setup=_with(lambda ed: os.mkfifo(ed / "theme" / "templates" / "base.html")),
        cwd="ed",
        real=True,
        gone=("ed/_own",),
        within=30,
    ),
    Case(
        "theme-asset-name-with-a-line-break",
        BUILD,
        "error: theme/assets/a\\u000ab.css: the file name holds a control character",
        setup=_asset("a\nb.css"),
        cwd="ed",
        real=True,
        gone=("ed/_own",),
    ),
    Case(
        "theme-asset-name-not-utf8",
        BUILD,
        "the file name is not UTF-8",
        setup=_asset(b"\xff.css"),
        cwd="ed",
        real=True,
        gone=("ed/_own",),
    ),
    Case(
        "out-inside-the-themes-assets",
        (*BUILD[:-1], "theme/assets/_site"),
        "error: theme/assets/_site: --out is inside the input theme",
        setup=_asset("my.css", "body {}\n"),
        cwd="ed",
        gone=("ed/theme/assets/_site",),
    ),
    Case(
        "out-inside-the-scenarios",
        (*BUILD[:-1], "scenarios/_site"),
        "error: scenarios/_site: --out is inside the input scenarios",
        setup=_with(lambda ed: None),
        cwd="ed",
        gone=("ed/scenarios/_site",),
    ),
    Case(
        "lock-a-link-out-of-the-folder",
        ("site", "build", "--out", "s5"),
        "error: .s5.lock: is a link",
        setup=_lock_link,
        gone=("planted", "s5"),
    ),
    Case(
        "lock-a-users-file",
        ("site", "build", "--out", "s8"),
        "error: .s8.lock: ",
        setup=_lock_users_file,
        untouched=(".s8.lock",),
        gone=("s8",),
    ),
    Case(
        "lock-a-folder",
        ("site", "build", "--out", "s6"),
        "error: .s6.lock: is a folder",
        setup=_lock_folder,
        gone=("s6",),
    ),
    Case(
        "replaced-claim-a-link",
        ("site", "build", "--out", "s1"),
        "error: s1: refusing to replace a built site whose .bouillotte-replaced is not a "
        "regular file",
        setup=_replaced_link,
        untouched=("victim.txt", "s1"),
    ),
    *(
        Case(
            f"ctrl-c-{when}-second-process",
            ("site", "build", "--out", "{tmp}/site"),
            "interrupted",
            exit=130,
            process=_interrupt_second_process(when == "idle"),
            env=(("BOUILLOTTE_CACHE", "{tmp}/cache"),),
            one_line=False,
            never=("ForkProcess", "KeyboardInterrupt"),
            gone=("site",),
        )
        for when in ("idle", "busy")
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_site(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)


# -- API cases -------------------------------------------------------------------------------


@pytest.fixture
def ed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = _editor(tmp_path)
    monkeypatch.chdir(folder)
    return folder


def _build_own(out: str = "_own", config: bool = True) -> Path:
    build_site(
        Path(out),
        [Path("own")],
        [Path("scenarios")],
        include_bundled=False,
        config_file=Path("site.yaml") if config else None,
    )
    return Path(out)


def test_a_page_past_its_size_is_bad_input_with_the_bundled_templates(
    ed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long inputs (a 450,000-character short name) make a page past the bound: bad input
    naming the page, not a bug of the bundled templates (a traceback)."""
    monkeypatch.setattr(theme, "PAGE_CHARACTERS", 2_000)
    with pytest.raises(UserError) as raised:
        _build_own(config=False)
    assert "would hold more than 2,000 characters" in str(raised.value)
    assert ".html" in str(raised.value)


def test_the_editors_glossary_is_published_without_the_bundled_library(ed: Path) -> None:
    (ed / "own" / "glossary.yaml").write_text(
        "terms:\n  - id: levy\n    term: levy\n"
        "    definition: What each player puts in the pool when a deal is void.\n"
        "    source: house-rules\n    locator: Void deals\n"
        '    quote: "If no one will open, the deal is void, and each player puts two '
        'counters in the pool"\n    status: documented\n',
        encoding="utf-8",
    )
    out = _build_own()
    assert "What each player puts" in (out / "glossary.html").read_text(encoding="utf-8")
    assert "glossary.html#levy" in (out / "assets" / "search-index.js").read_text("utf-8")
    assert "Glossary: levy" in (out / "texts" / "house-rules.html").read_text("utf-8")


def test_the_search_index_and_the_downloads_show_controls_as_escapes(ed: Path) -> None:
    profile = ed / "own" / "our-table.yaml"
    text = profile.read_text(encoding="utf-8")
    assert "\ntitle: Our table\n" in text
    text = text.replace("\ntitle: Our table\n", '\ntitle: "Our \\u202etable \\ufffe"\n')
    profile.write_text(text, encoding="utf-8")
    out = _build_own()
    raw = ("\u202e", "\ufffe")
    index = (out / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert not any(c in index for c in raw)
    assert "Our \\\\u202etable \\\\ufffe" in index  # the text \u202e, as the pages show it
    for name in (
        "data/profiles/our-table.json",
        "data/matrix.json",
        "data/profiles/our-table.yaml",
    ):
        written = (out / name).read_text(encoding="utf-8")
        assert not any(c in written for c in raw), name
    data = json.loads((out / "data/profiles/our-table.json").read_text(encoding="utf-8"))
    assert data["title"] == "Our \u202etable \ufffe"
    loaded = yaml.safe_load((out / "data/profiles/our-table.yaml").read_text(encoding="utf-8"))
    assert loaded["title"] == "Our \u202etable \ufffe"


@pytest.mark.parametrize("name", ["a\x85b.html", "a\u2028b.html", '"quoted".html', "é.html"])
def test_the_sites_marker_lists_every_name_exactly(tmp_path: Path, name: str) -> None:
    """A name the marker lists reads back as written, so the build can replace its own
    output (a line break of any kind once split a name over two lines)."""
    site = tmp_path / "site"
    site.mkdir()
    write_files(site, ROOT / "site", {name: "<p>x</p>\n", "index.html": "<p>i</p>\n"})
    written = _marked_files(site)
    assert written is not None and name in written and "index.html" in written
    _check_replaceable(site)
    assert (site / MARKER).read_text(encoding="utf-8").isascii() or name == "é.html"
