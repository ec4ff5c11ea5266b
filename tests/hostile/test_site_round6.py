"""The hostile catalogue, round six: what the site build does to its output folder while
it builds. A file put in ``--out`` during the build was deleted with the old copy; the
folder is now checked again as the build ends, and the new site is then not put in place.

A theme's file that cannot be read is told as the theme's, before the build, not as
"cannot write the site" half-way.

Each case was shown failing before its fix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bouillotte.rules.errors import UserError
from bouillotte.site import build_site

from . import test_catalogue as catalogue
from .test_catalogue import Case, Cleanup
from .test_site_round5 import BUILD, _asset, _editor


@pytest.fixture
def ed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = _editor(tmp_path)
    monkeypatch.chdir(folder)
    return folder


def _build(out: Path, log: object = None) -> None:
    build_site(
        out,
        [Path("own")],
        [Path("scenarios")],
        include_bundled=False,
        config_file=Path("site.yaml"),
        **({"log": log} if log is not None else {}),  # type: ignore[arg-type]
    )


def test_a_file_put_in_the_output_during_the_build_is_kept(ed: Path) -> None:
    out = ed / "_site"
    _build(out)
    notes = out / "notes.txt"

    def log(line: str) -> None:  # the user saves a file into the site mid-build
        if not notes.exists():
            notes.write_text("mine\n", encoding="utf-8")

    with pytest.raises(UserError) as raised:
        _build(out, log)
    assert "now holds a file it did not write (notes.txt)" in str(raised.value)
    assert notes.read_text(encoding="utf-8") == "mine\n"
    assert not [p for p in ed.iterdir() if p.name.startswith("._site.")]  # nothing left


def test_a_folder_made_at_the_output_during_the_build_is_kept(ed: Path) -> None:
    out = ed / "_new"
    mine = out / "mine.txt"

    def log(line: str) -> None:
        if not out.exists():
            out.mkdir()
            mine.write_text("mine\n", encoding="utf-8")

    with pytest.raises(UserError) as raised:
        _build(out, log)
    assert "is not a built site" in str(raised.value)
    assert mine.read_text(encoding="utf-8") == "mine\n"


# -- a relative link of prose, on pages of every depth ----------------------------------------


def test_a_relative_link_of_prose_is_read_from_the_sites_root_on_every_page() -> None:
    from bouillotte.site.prose import inline, markdown

    text = "See [the sources](sources.html), ![a card](assets/c.svg) and [a deal](#d)."
    top, deeper = str(markdown(text)), str(markdown(text, "../"))
    assert 'href="sources.html"' in top and 'src="assets/c.svg"' in top
    assert 'href="../sources.html"' in deeper and 'src="../assets/c.svg"' in deeper
    assert 'href="#d"' in deeper  # within the page: kept
    for kept in ("https://example.org/x", "/x.html", "?q=1"):
        assert f'href="{kept}"' in str(markdown(f"[x]({kept})", "../"))
    assert 'href="../about.html"' in str(inline("[About](about.html)", "../"))
    assert str(markdown(text)) == top  # the parsed tokens, shared, are not changed


def test_a_summarys_relative_link_leads_to_the_page_on_its_systems_page(ed: Path) -> None:
    profile = ed / "own" / "our-table.yaml"
    text = profile.read_text(encoding="utf-8")
    assert "\nsummary: 'Foster''s " in text
    text = text.replace("\nsummary: '", "\nsummary: 'See [the sources](sources.html). ", 1)
    profile.write_text(text, encoding="utf-8")
    out = ed / "_site"
    _build(out)
    for page in ("index.html", "variants/our-table.html"):
        html = (out / page).read_text(encoding="utf-8")
        found = re.search(r'<a href="([^"]*sources\.html)">the sources</a>', html)
        assert found is not None, page
        assert (out / page).parent.joinpath(found.group(1)).resolve() == (
            out / "sources.html"
        ).resolve(), page


# -- a theme's file that cannot be read ---------------------------------------------------------


def _unreadable_asset(tmp: Path) -> Cleanup:
    _asset("my.css", "body {}\n")(tmp)
    (tmp / "ed" / "theme" / "assets" / "my.css").chmod(0)
    return None


CASES = [
    Case(
        "theme-asset-unreadable",
        BUILD,
        "error: theme/assets/my.css: cannot be read (Permission denied)",
        setup=_unreadable_asset,
        cwd="ed",
        unprivileged=True,
        gone=("ed/_own",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_site_round_six(case: Case, case_dir: Path) -> None:
    catalogue.test_hostile_input(case, case_dir)
