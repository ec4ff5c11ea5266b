"""The glossary (``variants/glossary.yaml``): cited data read with the profiles.

Its quotes are checked word for word in ``test_quotes.py``; its bad input at file and line in
the hostile catalogue. Here: what a user's folder does to it, and the faults only the loader
sees (a bad input the model alone would accept).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bouillotte.rules.errors import InputError
from bouillotte.rules.profiles import Library

TERM = """\
  - id: {id}
    term: {term}
    definition: {definition}
    source: foster
    locator: "Bouillotte: Stakes"
    quote: This original cave cannot be added to or deducted from.
    status: documented
"""


def _glossary(folder: Path, *terms: dict[str, str]) -> Path:
    folder.mkdir(exist_ok=True)
    text = "terms:\n" + "".join(TERM.format(**t) for t in terms)
    (folder / "glossary.yaml").write_text(text, encoding="utf-8")
    return folder


def test_the_bundled_glossary_is_read_with_the_profiles() -> None:
    library = Library()
    glossary = {t.id: t for t in library.glossary}
    assert len(glossary) == len(library.glossary) >= 20
    assert {t.source for t in library.glossary} <= set(library.works)
    favori = glossary["favori"]
    assert favori.french == "favourite brelan" and "hands.favori" in favori.rules
    assert glossary["mistigri"].paraphrased and glossary["mistigri"].translation
    assert "glossary" not in library.ids()  # the file is data, not a profile


def test_a_users_folder_adds_terms_and_replaces_a_term_of_the_same_id(tmp_path: Path) -> None:
    folder = _glossary(
        tmp_path / "mine",
        {"id": "cave", "term": "cave", "definition": "My own definition."},
        {"id": "counter", "term": "counter", "definition": "A chip."},
    )
    bundled = [t.id for t in Library().glossary]
    terms = Library([folder]).glossary
    assert [t.id for t in terms] == [*bundled, "counter"]  # the bundled order, then the new
    assert next(t for t in terms if t.id == "cave").definition == "My own definition."


def test_an_id_used_twice_is_refused_at_its_line(tmp_path: Path) -> None:
    folder = _glossary(
        tmp_path / "mine",
        {"id": "cave", "term": "cave", "definition": "One."},
        {"id": "cave", "term": "cave (again)", "definition": "Two."},
    )
    with pytest.raises(InputError) as caught:
        Library([folder])
    assert "glossary.yaml:9: terms.1.id: this id is used twice (value: 'cave')" in str(caught.value)


def test_a_term_names_only_rules_of_the_schema(tmp_path: Path) -> None:
    folder = _glossary(tmp_path / "mine", {"id": "cave", "term": "cave", "definition": "One."})
    file = folder / "glossary.yaml"
    file.write_text(file.read_text("utf-8") + "    rules: [stakes.cellar]\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        Library([folder])
    message = str(caught.value)
    assert "glossary.yaml:9: terms.0.rules: unknown rule 'stakes.cellar'" in message, message
