"""Round six of the review of ``variants export``, the YAML reader and ``site.yaml``: each
test failed before its fix.

- ``--standalone`` wrote two works' texts of one name (the bundled ``texts/foster.txt``
  and an editor's own) into one file, and the editor's quotes were then checked against
  Foster's words: each work keeps its own text, and the export reads back.
- One long value named by hundreds of aliases (``*p``) stood for half a gigabyte: the
  characters of a file's values, aliases expanded, are bounded.
- An export wrote a right-to-left override (U+202E) and other invisible characters raw:
  they are written as YAML's escape, the value read back unchanged.
- ``variants export foster --as foster`` wrote a file that every command refused.
- ``base_url`` published a user name and password, took ``%zz``, wrote a non-ASCII path raw
  into sitemap.xml, and refused ``HTTPS://`` for holding ``?`` or ``#``.
- ``language`` took 450 KB of repeated variant subtags into every page's ``<html lang>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bouillotte.cli.app import app
from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library
from bouillotte.rules.resources import bundled
from bouillotte.rules.yamlsource import parse_yaml
from bouillotte.site.builder import _sitemap
from bouillotte.site.page import Page
from bouillotte.site.siteconfig import SiteConfig, load_config

MY_TEXT = """Work: myfoster
Title: Our notes on Foster
---
At our table the dealer puts up a blind of seven counters.
"""

MY_SOURCES = """works:
  myfoster:
    author: Our club
    title: "Our notes on Foster"
    year: "2026"
    file: texts/foster.txt
"""

MINE = """title: Ours, on Foster
source: myfoster
extends: foster
rules:
  forced_bets:
    dealer_blind:
      value: 7
      source: myfoster
      locator: "paragraph 1"
      quote: "the dealer puts up a blind of seven counters"
      status: documented
"""


def _folder(tmp_path: Path) -> Path:
    """An editor's folder whose own work's text has the name of the bundled Foster's."""
    folder = tmp_path / "v"
    (folder / "texts").mkdir(parents=True)
    (folder / "texts" / "foster.txt").write_text(MY_TEXT, encoding="utf-8")
    (folder / "sources.yaml").write_text(MY_SOURCES, encoding="utf-8")
    (folder / "mine.yaml").write_text(MINE, encoding="utf-8")
    return folder


def _invoke(runner: CliRunner, *args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def _one_error_line(output: str) -> str:
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in output, output
    return errors[0]


# -- 1. two works' texts of one name ----------------------------------------------------


def test_a_standalone_export_keeps_each_works_own_text(tmp_path: Path, runner: CliRunner) -> None:
    folder, own = _folder(tmp_path), tmp_path / "own"
    code, output = _invoke(
        runner, "variants", "export", "mine", "--variants", folder, "--standalone", "--out", own
    )
    assert code == 0, output
    works = yaml.safe_load((own / "sources.yaml").read_text(encoding="utf-8"))["works"]
    mine, foster = works["myfoster"]["file"], works["foster"]["file"]
    assert mine != foster and foster == "texts/foster.txt"  # the bundled work as it is
    assert (own / mine).read_text(encoding="utf-8") == MY_TEXT
    assert (own / foster).read_bytes() == (bundled("variants") / "texts/foster.txt").read_bytes()
    assert f"is written as {mine}" in output  # said, on stderr
    # it reads back: beside the bundled library, and alone
    code, output = _invoke(runner, "variants", "show", "mine", "--variants", own)
    assert code == 0, output
    alone = Library([own], include_bundled=False)
    assert alone.get("mine").value("forced_bets.dealer_blind") == 7


def test_works_sharing_one_text_share_its_copy(tmp_path: Path, runner: CliRunner) -> None:
    """The same bytes under one name are one file: nothing to tell apart."""
    folder, own = _folder(tmp_path), tmp_path / "own"
    (folder / "sources.yaml").write_text(
        MY_SOURCES + "  ourfoster:\n    author: Our club\n    title: Again\n    year: '2026'\n"
        "    file: texts/foster.txt\n",
        encoding="utf-8",
    )
    (folder / "mine.yaml").write_text(
        MINE + "  stakes:\n    cave:\n      value: 200\n      source: ourfoster\n"
        "      locator: paragraph 1\n      quote: seven counters\n      status: documented\n",
        encoding="utf-8",
    )
    code, output = _invoke(
        runner, "variants", "export", "mine", "--variants", folder, "--standalone", "--out", own
    )
    assert code == 0, output
    works = yaml.safe_load((own / "sources.yaml").read_text(encoding="utf-8"))["works"]
    assert works["myfoster"]["file"] == works["ourfoster"]["file"] != works["foster"]["file"]
    assert sorted(p.name for p in (own / "texts").iterdir()) == ["foster.txt", "myfoster.txt"]
    assert _invoke(runner, "variants", "show", "mine", "--variants", own)[0] == 0


def test_text_names_differing_only_in_case_are_written_apart(
    tmp_path: Path, runner: CliRunner
) -> None:
    """``Foster.txt`` beside ``foster.txt`` would be one file on a disk that ignores case."""
    folder, own = _folder(tmp_path), tmp_path / "own"
    (folder / "texts" / "foster.txt").rename(folder / "texts" / "Foster.txt")
    sources = folder / "sources.yaml"
    sources.write_text(MY_SOURCES.replace("texts/foster.txt", "texts/Foster.txt"), "utf-8")
    code, output = _invoke(
        runner, "variants", "export", "mine", "--variants", folder, "--standalone", "--out", own
    )
    assert code == 0, output
    assert sorted(p.name for p in (own / "texts").iterdir()) == ["foster.txt", "myfoster.txt"]
    assert _invoke(runner, "variants", "show", "mine", "--variants", own)[0] == 0


# -- 2. aliases that multiply one long value --------------------------------------------

MAX_CHARACTERS = 4 * 2**20
"""The bound on a file's characters, aliases expanded (docs/contracts.md)."""


def _aliased_sources(works: int, length: int) -> str:
    lines = ["works:"]
    for i in range(works):
        publisher = f'&p "{"P" * length}"' if i == 0 else "*p"
        lines += [f"  w{i}:", "    author: A", "    title: T", "    year: '1900'"]
        lines.append(f"    publisher: {publisher}")
    return "\n".join(lines) + "\n"


def test_aliases_expanding_past_the_characters_bound_are_refused(
    tmp_path: Path, runner: CliRunner
) -> None:
    folder = tmp_path / "big"
    folder.mkdir()
    text = _aliased_sources(500, 900_000)
    assert len(text.encode("utf-8")) < 1_048_576  # within the file's own bound
    (folder / "sources.yaml").write_text(text, encoding="utf-8")
    code, output = _invoke(runner, "sources", "--variants", folder, "--json")
    assert code == 2
    line = _one_error_line(output)
    assert "big/sources.yaml:" in line
    assert f"expand to more than {MAX_CHARACTERS:,} characters" in line
    assert len(output) < 1_000


def test_aliases_within_the_characters_bound_read() -> None:
    length = MAX_CHARACTERS // 5
    doc = parse_yaml(_aliased_sources(4, length), Path("s.yaml"))
    assert all(len(w["publisher"]) == length for w in doc.data["works"].values())
    with pytest.raises(InputError, match=r"s\.yaml:"):
        parse_yaml(_aliased_sources(6, length), Path("s.yaml"))


def test_a_list_named_by_aliases_counts_its_characters() -> None:
    """An anchored list or mapping stands for all the characters it holds."""
    inner = "[" + ", ".join(['"' + "x" * 100_000 + '"'] * 10) + "]"
    text = f"a: &a {inner}\nb: [*a, *a, *a]\n"
    parse_yaml(text, Path("ok.yaml"))
    with pytest.raises(InputError, match="characters"):
        parse_yaml(text.replace("[*a, *a, *a]", "[*a, *a, *a, *a]"), Path("no.yaml"))


# -- 3. invisible characters written as escapes -----------------------------------------

HIDDEN = """title: "Mine \\u202eevil\\u200b"
source: foster
extends: foster
summary: "A \\u202e summary, \\u2066isolated\\u2069, \\u061c and \\U000e0001"
rules:
  stakes:
    cave:
      value: 200
      source: foster
      status: inferred
      reason: "twice \\u202e the usual \\u200f cave"
"""


def test_an_export_writes_invisible_characters_as_escapes(
    tmp_path: Path, runner: CliRunner
) -> None:
    folder, out = tmp_path / "v", tmp_path / "out"
    folder.mkdir()
    (folder / "mine.yaml").write_text(HIDDEN, encoding="utf-8")
    code, output = _invoke(runner, "variants", "export", "mine", "--variants", folder, "--out", out)
    assert code == 0, output
    written = (out / "mine.yaml").read_text(encoding="utf-8")
    for char in "\u202e\u200b\u2066\u2069\u061c\u200f\U000e0001":
        assert char not in written
    assert '"Mine \\u202eevil\\u200b"' in written
    given, back = (yaml.safe_load(text) for text in (HIDDEN, written))
    assert back["title"] == given["title"] and back["summary"] == given["summary"]
    assert back["rules"]["stakes"]["cave"]["reason"] == given["rules"]["stakes"]["cave"]["reason"]
    assert _invoke(runner, "variants", "show", "mine", "--variants", out)[0] == 0
    # on stdout too
    code, printed = _invoke(runner, "variants", "export", "mine", "--variants", folder)
    assert code == 0 and "\u202e" not in printed and "\\u202e" in printed


# -- 4. --as the bundled id of the profile itself ---------------------------------------


def test_export_as_its_own_bundled_id_is_refused(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "d"
    code, output = _invoke(runner, "variants", "export", "foster", "--as", "foster", "--out", out)
    assert code == 2
    line = _one_error_line(output)
    assert "--as foster: that is the id of a bundled profile" in line
    assert "without --as, foster.yaml is written" in line
    assert not out.exists()


def test_a_replacing_profile_exports_as_a_replacement(tmp_path: Path, runner: CliRunner) -> None:
    """A profile meant to replace a bundled one (``replaces: true``) is exported so: the
    file written says ``replaces: true``, and reads beside the bundled library."""
    shadow, out = tmp_path / "shadow", tmp_path / "sx"
    shadow.mkdir()
    (shadow / "pagat.yaml").write_text(
        "replaces: true\ntitle: My pagat\nsource: pagat-card\nextends: foster\n", encoding="utf-8"
    )
    code, output = _invoke(
        runner, "variants", "export", "pagat", "--variants", shadow, "--as", "pagat", "--out", out
    )
    assert code == 0, output
    assert yaml.safe_load((out / "pagat.yaml").read_text(encoding="utf-8"))["replaces"] is True
    code, output = _invoke(runner, "variants", "show", "pagat", "--variants", out)
    assert code == 0 and "My pagat" in output


# -- 5. base_url ------------------------------------------------------------------------


def _config(tmp_path: Path, line: str) -> Path:
    file = tmp_path / "site.yaml"
    file.write_text(line + "\n", encoding="utf-8")
    return file


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://user:pw@example.org:8443/a%20b/", "holds a user name or password"),
        ("https://example.org/a%zz/", "holds '%zz', which is no percent-encoding"),
        ("https://café.example/", "the host 'café.example' is not written in ASCII"),
        ("https://example.org/a?b=1", "must be the address of the site's folder, without ? or #"),
    ],
)
def test_a_bad_base_url_is_one_line(
    tmp_path: Path, runner: CliRunner, url: str, message: str
) -> None:
    file = _config(tmp_path, f"base_url: '{url}'")
    code, output = _invoke(runner, "site", "build", "--config", file, "--out", tmp_path / "o")
    assert code == 2
    assert f"site.yaml:1: base_url: {message}" in _one_error_line(output)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("url", "written"),
    [
        ("HTTPS://EXAMPLE.ORG/A/", "https://example.org/A/"),
        ("https://example.org/règles/", "https://example.org/r%C3%A8gles/"),
        ("https://example.org/a%20b", "https://example.org/a%20b/"),
        ("https://example.org", "https://example.org/"),
    ],
)
def test_a_base_url_is_written_in_ascii(tmp_path: Path, url: str, written: str) -> None:
    config, _ = load_config(_config(tmp_path, f"base_url: '{url}'"))
    assert config.base_url == written
    sitemap = _sitemap(written, [Page("variants/foster.html", "variant.html", "Foster")])
    assert f"<loc>{written}variants/foster.html</loc>" in sitemap and sitemap.isascii()


# -- 6. language ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ("en" + "-abcdefgh" * 50_000, "a language tag has at most 35 characters"),
        (
            "en-scouse-scouse",
            "'en-scouse-scouse' is not a language tag: its variant subtag 'scouse' is",
        ),
        ("de-1901-1901", "'de-1901-1901' is not a language tag: its variant subtag '1901' is"),
    ],
)
def test_a_bad_language_is_one_line(
    tmp_path: Path, runner: CliRunner, tag: str, message: str
) -> None:
    file = _config(tmp_path, f"language: {tag}")
    code, output = _invoke(runner, "site", "build", "--config", file, "--out", tmp_path / "o")
    assert code == 2
    line = _one_error_line(output)
    assert f"site.yaml:1: language: {message}" in line and len(line) < 400


@pytest.mark.parametrize("tag", ["en", "en-GB", "de-1901-1996", "sl-rozaj-biske-1994", "x-club"])
def test_a_language_tag_reads(tag: str) -> None:
    assert SiteConfig(language=tag).language == tag
