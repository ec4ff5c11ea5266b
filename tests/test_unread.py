"""The works known but not yet read (``variants/unread.yaml``): data read with the
profiles, each fault at its file and line, and what they say of the French manuals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.rules.errors import InputError
from bouillotte.rules.history import build_history
from bouillotte.rules.profiles import Library

WORK = """\
  - id: {id}
    title: A manual
    year: "1850"
    status: {status}
    known: Named somewhere.
    cited_in: [{cited}]
"""


def _unread(folder: Path, *works: dict[str, str]) -> Path:
    folder.mkdir(exist_ok=True)
    text = "works:\n" + "".join(WORK.format(**w) for w in works)
    (folder / "unread.yaml").write_text(text, encoding="utf-8")
    return folder


def test_the_french_manuals_are_listed_with_their_identifiers() -> None:
    unread = {w.id: w for w in Library().unread}
    assert list(unread) == [
        "academie-universelle-1806",
        "academie-universelle-1810",
        "academie-universelle-1824",
        "lebrun-1827",
        "van-tenac-1847",
        "burger-1883",
        "boussac-1896",
    ]
    gallica = {
        w.id: [i.value for i in w.identifiers if i.label == "Gallica"] for w in unread.values()
    }
    assert gallica["burger-1883"] == ["bpt6k1104783"]
    assert gallica["boussac-1896"] == ["bpt6k110475z"]
    assert unread["van-tenac-1847"].status == "not-found"
    assert unread["van-tenac-1847"].identifiers == []
    assert unread["lebrun-1827"].cited_in == ["tlfi"]  # the TLFi's décavé of 1827


def test_a_users_folder_adds_works_and_replaces_one_of_the_same_id(tmp_path: Path) -> None:
    folder = _unread(
        tmp_path / "mine",
        {"id": "burger-1883", "status": "cited", "cited": ""},
        {"id": "quinola-1893", "status": "not-found", "cited": "foster"},
    )
    unread = {w.id: w for w in Library([folder]).unread}
    assert unread["burger-1883"].status == "cited"
    assert unread["quinola-1893"].cited_in == ["foster"]
    assert len(unread) == 8


@pytest.mark.parametrize(
    ("works", "line", "words"),
    [
        ([{"id": "a", "status": "cited", "cited": ""}] * 2, 8, "this id is used twice"),
        ([{"id": "a", "status": "cited", "cited": "hoyle"}], 7, "unknown source id"),
        ([{"id": "foster", "status": "cited", "cited": ""}], 2, "which was read"),
        ([{"id": "a", "status": "lost", "cited": ""}], 5, "status"),
    ],
)
def test_a_fault_is_one_line_at_its_file_and_line(
    tmp_path: Path, works: list[dict[str, str]], line: int, words: str
) -> None:
    folder = _unread(tmp_path / "bad", *works)
    with pytest.raises(InputError) as caught:
        Library([folder])
    message = caught.value.describe()
    assert f"unread.yaml:{line}:" in message
    assert words in message
    assert "\n" not in message


def test_the_french_words_through_time_link_each_to_its_rule() -> None:
    words = {w.word: w for w in build_history(Library()).words}
    assert {"carre", "va-tout", "cave", "décavé"} <= set(words)
    assert words["carre"].rule == "forced_bets.straddles"
    assert words["va-tout"].rule == "betting.all_in_may_open_or_raise"
    # The Académie's carre is of 1835 or 1878: its year says so, and so does its edition.
    library = Library()
    uncertain = library.works["academie-1835-1878"]
    assert uncertain.year == "1835 or 1878"
    assert uncertain.edition is not None and "uncertain" in uncertain.edition
    # A true or false meaning is a value of the rule, not "no value".
    values = {m.source: m.value for m in words["va-tout"].meanings}
    assert values == {"academie-1798": None, "foster": True, "tlfi": None, "pagat-card": False}
