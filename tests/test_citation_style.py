"""The one Chicago formatter (``rules/bibliography.chicago``): each entry type against the
rule of The Chicago Manual of Style (17th ed., chapter 14, notes-bibliography) that it
claims, and every work of the bundled bibliography against its own BibTeX and CSL-JSON.

The rules, as the Manual numbers them (summarised in the guides found for this test:
libguides.tru.ca/chicago/websites and cmosshoptalk.com "Styling titles of websites" for
14.206-14.207; the csuchico and citefast guides for 14.232-14.234):

- 14.76: an editor in place of an author, marked "ed." ("eds." for several);
- 14.79: no author known: the entry begins with the title (never "Anonymous");
- 14.94 and 8.171: a book's title in italics;
- 14.106 and 14.233: an article of a reference work in quotation marks, then "In" and
  the work's title in italics;
- 14.118: an edition other than the first, once, after the title, abbreviated ("11th ed.");
- 14.145: no date of publication: "n.d.";
- 14.206: a page of a website in quotation marks, the website's title in roman (neither
  italic nor quoted);
- 14.207 and 14.12: an undated web page gives the day it was read ("Accessed ...").
"""

from __future__ import annotations

import re

import pytest
from pybtex.database import parse_string

from bouillotte.rules.bibliography import (
    Reference,
    bibtex_entry,
    chicago,
    citation_pieces,
    csl_item,
    plain,
)
from bouillotte.rules.citations import Work
from bouillotte.rules.profiles import Library

LIBRARY = Library()


def _italic(pieces: list[tuple[str, bool]]) -> list[str]:
    return [text for text, italic in pieces if italic]


def test_a_book_has_its_title_in_italics_and_its_edition_once() -> None:
    book = Reference(
        kind="book",
        names="Foster, R. F.",
        title="Foster's Complete Hoyle",
        edition="11th edition",
        place="New York",
        publisher="Frederick A. Stokes Company",
        date="1897–1909",
        url="https://example.org/hoyle",
    )
    pieces = chicago(book)
    assert _italic(pieces) == ["Foster's Complete Hoyle"]  # 14.94: a book's title in italics
    text = plain(pieces)
    assert text == (
        "Foster, R. F. Foster's Complete Hoyle. 11th ed. New York: Frederick A. Stokes "
        "Company, 1897–1909. https://example.org/hoyle."
    )
    assert text.count("11th") == 1 and "edition" not in text  # 14.118: once, abbreviated
    assert "“" not in text  # a book's title is never in quotation marks


def test_an_article_of_a_reference_work_is_quoted_in_the_work_in_italics() -> None:
    britannica = citation_pieces(LIBRARY.works["britannica-1911"])
    text = plain(britannica)
    # 14.233 (and 14.106, "In"): the article in quotation marks, "In" the work, in italics
    assert text.startswith("Encyclopaedia Britannica. “Bouillotte.” In Encyclopaedia Britannica.")
    assert _italic(britannica) == ["Encyclopaedia Britannica"]  # the work, not the article
    assert "Bouillotte" not in _italic(britannica)  # an article is not set as a book
    # 14.118: the edition once, abbreviated, after the work's title
    assert text.count("11th") == 1 and " 11th ed. Cambridge, 1911." in text
    # an edition the work's own title already names is not printed again
    academie = plain(citation_pieces(LIBRARY.works["academie-1740"]))
    assert len(re.findall(r"3rd (?:edition|ed\.)", academie)) == 1


def test_editors_are_marked_and_a_work_naming_nobody_begins_with_its_title() -> None:
    pierer = plain(citation_pieces(LIBRARY.works["pierer-1857"]))
    assert pierer.startswith("Pierer, Heinrich August, ed. “Brelan.” In ")  # 14.76
    encyclopedie = plain(citation_pieces(LIBRARY.works["encyclopedie-1752"]))
    assert encyclopedie.startswith("Diderot, Denis, and Jean le Rond d'Alembert, eds. ")
    trevoux = plain(citation_pieces(LIBRARY.works["trevoux-1771"]))
    assert trevoux.startswith("“BRELAN, CAVER.” In Dictionnaire universel")  # 14.79
    card = plain(citation_pieces(LIBRARY.works["pagat-card"]))
    assert card.startswith("Bouillotte: selected historical system")  # 14.79
    assert "Anonymous" not in card


def test_a_web_page_is_quoted_and_never_italic() -> None:
    pagat = citation_pieces(LIBRARY.works["pagat"])
    # 14.206: the page's title in quotation marks, nothing in italics
    assert _italic(pagat) == []
    assert plain(pagat) == (
        "McLeod, John. “Bouillotte (pagat.com).” 2019. https://www.pagat.com/vying/bouillotte.html."
    )
    site_page = Reference(
        kind="webpage",
        names="The bouillotte project, ed.",
        title="The rule matrix",
        container="Bouillotte compared",
        edition="Version 0.1.0",
        date="December 1, 2026",
    )
    pieces = chicago(site_page)
    assert _italic(pieces) == []  # 14.206: the website's title in roman
    assert plain(pieces) == (
        "The bouillotte project, ed. “The rule matrix.” Bouillotte compared. "
        "Version 0.1.0, December 1, 2026."
    )


def test_an_undated_work_is_n_d_and_an_undated_page_gives_the_day_it_was_read() -> None:
    cardrules = plain(citation_pieces(LIBRARY.works["cardrulesplus"]))
    # 14.145: "n.d."; 14.207: the day the undated page was read
    assert cardrules == (
        "CardRulesPlus. “How to Play Bouillotte.” n.d. Accessed November 30, 2026. "
        "https://cardrulesplus.com/games/bouillotte/."
    )
    assert "undated" not in cardrules and "2020s" not in cardrules and "n.d.." not in cardrules
    card = plain(citation_pieces(LIBRARY.works["pagat-card"]))
    assert card.endswith("(teaching card). n.d.")  # an undated book-like work: n.d. too
    assert "undated" not in card


def _bibtex(work_id: str, work: Work) -> tuple[str, dict[str, str]]:
    (entry,) = parse_string(bibtex_entry(work_id, work), "bibtex").entries.values()
    return entry.type, {k.lower(): v for k, v in entry.fields.items()}


CONNECTIVES = {"article", "and"}
"""Words a BibTeX title of a whole work uses to name its article ("vol. 2, article
“Breland”", "“BRELAN” and “CAVER”"), which the citation says by quoting the article."""


def _words(text: str) -> set[str]:
    found = re.findall(r"\w+", text.replace("{", "").replace("}", ""))
    return {w for w in found if len(w) > 2} - CONNECTIVES


@pytest.mark.parametrize("work_id", sorted(LIBRARY.works))
def test_each_citation_agrees_with_its_bibtex_and_csl_json(work_id: str) -> None:
    work = LIBRARY.works[work_id]
    pieces = citation_pieces(work)
    text = plain(pieces)
    italic = _italic(pieces)
    quoted = re.findall(r"“(.*?)\.?”", text)
    csl = csl_item(work_id, work)
    kind, fields = _bibtex(work_id, work)
    # The type: a book's title in italics, an article's or a web page's in quotation marks
    if csl["type"] in ("book", "document"):
        assert italic[:1] == [csl["title"]] and not quoted
    else:
        assert quoted[:1] == [csl["title"]]
    if csl["type"].startswith("entry-"):
        assert italic == [csl["container-title"]] and " In " in f" {text}"
    if csl["type"] == "webpage":
        assert italic == [] and kind == "online"
    if kind == "incollection":
        assert quoted[:1] == [fields["title"].strip("{}")]
        assert italic == [fields["booktitle"].strip("{}")]
    # Every word of the BibTeX title (and book title) is in the citation
    assert _words(fields["title"] + " " + fields.get("booktitle", "")) <= _words(text)
    # The names: each author or editor of the CSL-JSON, editors marked
    people = csl.get("author", csl.get("editor", []))
    for name in people:
        assert (name.get("family") or name["literal"]) in text
    if "editor" in csl and "author" not in csl:
        assert re.search(r", eds?\. ", text)
    # The date: n.d. exactly when the exports leave the work undated
    if "issued" in csl:
        first = csl["issued"]["date-parts"][0][0]
        assert str(first) in text and fields["year"] == str(first) and "n.d." not in text
    else:
        assert "n.d." in text and "year" not in fields
    # The edition: BibTeX's ordinal, once, abbreviated
    if "edition" in fields:
        assert text.count(f"{fields['edition']} ed.") == 1
    # The address, last
    if "URL" in csl:
        assert text.endswith(csl["URL"] + ".")
