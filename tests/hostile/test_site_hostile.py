"""The site against hostile input: script in every free-text field, odd file names, and
machine paths; and the swap of a new build for the old one, interrupted."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from bouillotte.site import build_site, output

pytestmark = pytest.mark.slow  # builds the site from hostile profiles

FIELDS = [
    "profile-title",
    "profile-summary",
    "rule-locator",
    "rule-quote",
    "rule-reason",
    "scenario-title",
    "scenario-notes",
    "scenario-locator",
    "work-author",
    "work-title",
    "work-year",
    "work-edition",
    "work-text-header",
    "work-text",
    "work-notes",
]


def payload(field: str) -> str:
    """Script, a broken-out attribute and a script address, each marked with its field."""
    return (
        f'<script>alert("{field}")</script> "\'><img src=x onerror=alert("{field}")> '
        f'javascript:alert("{field}") [link](javascript:alert("{field}"))'
    )


def _q(field: str) -> str:
    return json.dumps(payload(field), ensure_ascii=False)


def write_inputs(root: Path) -> tuple[Path, Path]:
    profiles, scenarios = root / "profiles", root / "scenarios"
    profiles.mkdir()
    scenarios.mkdir()
    # A work's year must name one: its payload follows "1900 ", and still reaches the pages,
    # the citations and the exports as written.
    (profiles / "sources.yaml").write_text(
        f"""works:
  evil:
    author: {_q("work-author")}
    title: {_q("work-title")}
    year: {json.dumps("1900 " + payload("work-year"), ensure_ascii=False)}
    edition: {_q("work-edition")}
    url: "https://example.org/?q='onmouseover='alert(1)'&amp;x=(work-url)"
    file: texts/evil.txt
    notes: {_q("work-notes")}
""",
        encoding="utf-8",
    )
    # The shipped text of a work is published page by page: its header and paragraphs too
    # (the second paragraph holds the documented quote, which must stand in the text).
    (profiles / "texts").mkdir()
    (profiles / "texts" / "evil.txt").write_text(
        f"Work: evil\nTitle: {payload('work-text-header')}\n---\n{payload('work-text')}\n\n"
        f"{payload('rule-quote')}\n",
        encoding="utf-8",
    )
    # The oddest name an id may have (letters of both cases, digits, "-"; a "#" or "?" is
    # refused: tests/hostile/test_catalogue.py); every link is URL-encoded all the same.
    (profiles / "Odd-Name-2.yaml").write_text(
        f"""title: {_q("profile-title")}
summary: {_q("profile-summary")}
source: evil
extends: foster
rules:
  stakes:
    cave:
      value: 120
      source: evil
      locator: {_q("rule-locator")}
      quote: {_q("rule-quote")}
      status: documented
  forced_bets:
    dealer_blind:
      value: 5
      source: evil
      status: inferred
      reason: {_q("rule-reason")}
""",
        encoding="utf-8",
    )
    # Played out under foster, too short for cardrulesplus: the site shows that error.
    (scenarios / "mine.yaml").write_text(
        f"""id: mine
title: {_q("scenario-title")}
notes: {_q("scenario-notes")}
source: {{work: evil, locator: {_q("scenario-locator")}, status: constructed}}
players: [A, B, C, D]
dealer: D
hands: {{A: [AS, KS, 8H], B: [QS, 9S, 9H], C: [8S, 8D, 9C], D: [AH, KH, QH]}}
retourne: AD
actions: [A bet 10, B call, C call, D call, A no-more, B no-more]
""",
        encoding="utf-8",
    )
    return profiles, scenarios


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.scripts: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, attrs))
        self.in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script:
            self.scripts.append(data)


def digest(folder: Path) -> dict[str, bytes]:
    return {str(f.relative_to(folder)): f.read_bytes() for f in folder.rglob("*") if f.is_file()}


def _index(site: Path) -> list[dict[str, Any]]:
    text = (site / "assets" / "search-index.js").read_text(encoding="utf-8")
    assert "</script" not in text.lower()
    prefix = "window.SEARCH_INDEX = "
    assert text.startswith(prefix) and text.endswith(";\n"), "the index is data only"
    entries: list[dict[str, Any]] = json.loads(text[len(prefix) : -2])
    return entries


def test_no_field_injects_script_and_no_machine_path_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm_cache: Path
) -> None:
    """(The bundled systems' results are read from a warm cache, ``warm_cache``; those of
    the hostile inputs are computed by the first build.)"""
    profiles, scenarios = write_inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    relative = tmp_path / "relative"
    build_site(Path("relative"), [Path("profiles")], [Path("scenarios")])
    old = tmp_path / ".absolute.old-k1ll3d00"  # left by a build killed outright
    old.mkdir()
    (old / output.MARKER).write_text("", encoding="utf-8")
    (old / output.REPLACED).write_text(output.replaced_claim(old), encoding="utf-8")
    absolute = tmp_path / "absolute"
    build_site(absolute, [profiles], [scenarios])

    assert digest(relative) == digest(absolute), "the build depends on how paths were given"
    assert not old.exists()
    built = {name: data.decode("utf-8", "replace") for name, data in digest(absolute).items()}
    for name, text in built.items():
        assert str(tmp_path) not in text, f"{name} publishes a path of this machine"
    page = built["scenarios/mine.html"]
    assert "cardrulesplus" in page and "scenarios/mine.yaml:9" in page, "the error is shown"

    everything = "\n".join(built.values())
    for field in FIELDS:  # each field is on the site, escaped (by Jinja or by Markdown)
        shown = rf"&lt;script&gt;alert\((&#34;|&quot;){field}(&#34;|&quot;)\)&lt;/script&gt;"
        assert re.search(shown, everything), f"{field} is not shown (escaped) on the site"
    for name, text in built.items():
        if not name.endswith(".html"):
            continue
        assert "<script>alert" not in text and "<img src=x" not in text, name
        parser = _Elements()
        parser.feed(text)
        for tag, attrs in parser.elements:
            for attr, value in attrs:
                assert not attr.startswith("on"), f"{name}: <{tag} {attr}=...>"
                if attr in ("href", "src", "action", "formaction") and value:
                    scheme = value.strip().lower().split(":", 1)[0]
                    assert scheme not in ("javascript", "data", "vbscript"), f"{name}: {value}"
            assert not (tag == "img" and ("src", "x") in attrs), name
        assert not any("alert(" in script for script in parser.scripts), name

    links = [entry["u"] for entry in _index(absolute)]
    assert "variants/Odd-Name-2.html" in links, "the odd profile has no search entry"
    for link in links:
        page_part = link.split("#", 1)[0]
        assert "?" not in link and "#" not in page_part, link
        assert not link.lower().startswith("javascript"), link


def _old_and_new(tmp_path: Path) -> tuple[Path, Path]:
    """An old site as a build leaves it (its marker lists what it wrote), and a new build
    ready to be swapped in."""
    out, new = tmp_path / "site", tmp_path / ".site.new.tmp"
    for folder, text in ((out, "old"), (new, "new")):
        (folder / "assets").mkdir(parents=True)
        (folder / "index.html").write_text(text, encoding="utf-8")
    (out / output.MARKER).write_text("A static site.\n- index.html\n", encoding="utf-8")
    return out, new


def test_ctrl_c_while_the_old_site_is_removed_leaves_no_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, new = _old_and_new(tmp_path)
    remove = shutil.rmtree

    def interrupted(path: Any, *args: Any, **kwargs: Any) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C just as the old site is being removed
        remove(path, *args, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", interrupted)
    # as in a command (whatever an earlier test of this worker process left SIGINT to)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):  # it still ends the command, once swapped
            output.swap(new, out)
    finally:
        signal.signal(signal.SIGINT, before)
    assert (out / "index.html").read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_an_old_site_that_cannot_be_removed_is_a_note_not_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old site's removal failed after the new one was in place (a folder in it the
    user may not write): the build said "cannot write the site" and exited 2, with the new
    site in place. It is a note now, and the copy left is the next build's to remove,
    though its claim went first."""
    out, new = _old_and_new(tmp_path)
    remove = shutil.rmtree

    def refused(path: Any, *args: Any, **kwargs: Any) -> None:
        (Path(path) / output.REPLACED).unlink()  # removed before the folder that fails
        raise PermissionError(13, "Permission denied", str(Path(path) / "assets"))

    monkeypatch.setattr(shutil, "rmtree", refused)
    said = output.swap(new, out)
    monkeypatch.setattr(shutil, "rmtree", remove)
    assert said is not None and "could not be removed (Permission denied" in said, said
    assert (out / "index.html").read_text(encoding="utf-8") == "new"
    (left,) = (p for p in tmp_path.iterdir() if p.name.startswith(".site.old-"))
    assert left.name in said
    output.remove_leftovers(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
