"""Provenance travels with the data: the matrix CSV and JSON and each profile's files carry,
for every value, its standing, the system it is inherited from when the system's source is
silent, and the work, locator and quote it rests on (issue #25, part 1)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import yaml

from bouillotte.rules.profile import rule_paths
from bouillotte.rules.profiles import Library
from bouillotte.site import downloads
from bouillotte.site.rules import system_order

LIBRARY = Library()
VARIANTS = system_order(LIBRARY.all())
FILES = downloads.data_files(VARIANTS, [], [])


def _csv() -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(FILES[downloads.MATRIX_CSV])))


def _matrix() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FILES[downloads.MATRIX_JSON])
    return data


def test_the_csv_keeps_its_columns_and_adds_four_per_system() -> None:
    header = next(csv.reader(io.StringIO(FILES[downloads.MATRIX_CSV])))
    ids = [v.id for v in VARIANTS]
    # The columns it had, where they were: rule, name, then one value per system.
    assert header[: 2 + len(ids)] == ["rule", "name", *ids]
    added = header[2 + len(ids) :]
    assert len(added) == 4 * len(ids)
    assert added[:4] == [f"{ids[0]}: {c}" for c in ("standing", "source", "locator", "quote")]
    rows = _csv()
    assert len(rows) == len(rule_paths())  # still one row per rule


def test_a_value_britannica_states_carries_its_quote() -> None:
    # variants/britannica-1911.yaml, table.hand_size: documented, "Bouillotte", the
    # sentence "Three cards are dealt to each player, ...".
    row = next(r for r in _csv() if r["rule"] == "table.hand_size")
    assert row["britannica-1911"] == "3"
    assert row["britannica-1911: standing"] == "documented"
    assert row["britannica-1911: source"] == "britannica-1911"
    assert row["britannica-1911: locator"] == "Bouillotte"
    assert row["britannica-1911: quote"].startswith("Three cards are dealt to each player")


def test_a_value_britannica_is_silent_on_reads_as_foster_s() -> None:
    # britannica-1911.yaml names no misdeals rule: the article is silent, and the value is
    # Foster's, cited to Foster's words (foster.yaml, misdeals).
    row = next(r for r in _csv() if r["rule"].startswith("misdeals."))
    assert row["britannica-1911: standing"] == "inherited from foster"
    assert row["britannica-1911: source"] == "foster"
    assert row["britannica-1911: quote"] == row["foster: quote"]
    assert row["britannica-1911"] == row["foster"]
    as_json = _matrix()["rules"][row["rule"]]["provenance"]["britannica-1911"]
    assert as_json["standing"] == "inherited"
    assert as_json["inherited_from"] == "foster"
    assert as_json["source"] == "foster"


def test_an_inferred_value_says_so() -> None:
    # britannica-1911.yaml, table.players: value 4, status inferred ("Five, four or three
    # persons may play": the profile seats four).
    row = next(r for r in _csv() if r["rule"] == "table.players")
    assert row["britannica-1911"] == "4"
    assert row["britannica-1911: standing"] == "inferred"
    assert row["britannica-1911: quote"] == "Five, four or three persons may play"
    found = _matrix()["rules"]["table.players"]["provenance"]["britannica-1911"]
    assert found["standing"] == "inferred" and found["status"] == "inferred"
    assert found["inherited_from"] is None


def test_every_cell_of_the_json_agrees_with_the_profiles() -> None:
    matrix = _matrix()
    assert matrix["systems"] == [v.id for v in VARIANTS]
    for path in rule_paths():
        rule = matrix["rules"][path]
        assert set(rule) == {"name", "values", "provenance"}
        for v in VARIANTS:
            found = rule["provenance"][v.id]
            info = v.info[path]
            citation = info.citation
            assert found["standing"] in ("stated", "inferred", "inherited", "uncited")
            assert (found["standing"] == "inherited") == info.silent
            assert found["inherited_from"] == (info.defined_in if info.silent else None)
            assert found["source"] == (citation.source if citation else None)
            assert found["quote"] == (citation.quote if citation else None)
            assert found["status"] == (
                "inherited" if info.silent else citation.status.value if citation else "uncited"
            )


def test_eb_1911_and_cardrulesplus_inherit_most_of_their_values() -> None:
    # The count: 49 of Britannica's 64 values and 54 of CardRulesPlus's came from
    # Foster because the source is silent; with void_deals.carried_pool_stake and
    # betting.opening_short_of_the_pot (66 rules), on which both are silent too, 51 and 56.
    # Counted here from the profiles' own silence.
    matrix = _matrix()
    for vid, count in (("britannica-1911", 51), ("cardrulesplus", 56)):
        inherited = [
            p for p, r in matrix["rules"].items() if r["provenance"][vid]["standing"] == "inherited"
        ]
        silent = [p for p in rule_paths() if LIBRARY.get(vid).info[p].silent]
        assert sorted(inherited) == sorted(silent)
        assert len(inherited) == count


def test_each_profile_file_carries_status_and_inherited_from() -> None:
    data = json.loads(FILES[downloads.profile_path("britannica-1911", "json")])
    as_yaml = yaml.safe_load(FILES[downloads.profile_path("britannica-1911", "yaml")])
    assert data == as_yaml
    players = data["rules"]["table.players"]
    assert players["status"] == "inferred" and players["inherited_from"] is None
    silent = next(r for p, r in data["rules"].items() if p.startswith("misdeals."))
    assert silent["standing"] == "inherited" and silent["inherited_from"] == "foster"
    assert silent["citation"]["source"] == "foster"


def test_the_rule_sheet_counts_what_its_source_states() -> None:
    from bouillotte.site.pages.systems import stated_counts

    # britannica-1911.yaml states 15 rules of its own (table: 4, forced_bets: 5, betting: 1,
    # void_deals: 3, hands: 1, point: 1); the other 51 are Foster's.
    counts = stated_counts(LIBRARY.get("britannica-1911"))
    assert counts["total"] == 66
    assert counts["stated"] + counts["inferred"] == 15
    assert counts["inherited"] == 51 and counts["inherited_from"] == [("foster", 51)]
    foster = stated_counts(LIBRARY.get("foster"))
    assert foster["inherited"] == 0 and foster["stated"] + foster["inferred"] == 66
