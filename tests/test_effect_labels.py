"""The rule effects as a reader sees them, read from the built pages (issue 46's label
faults): a clear (starred) figure never prints a bound or half-width that reads as 0; a
declined interval is never starred; a row that changed deals but moved no figure says so
rather than printing zeros; a row that changed nothing says whether the rule *cannot act*
(the rules prove no deal reads it), was *not read* in these deals or *did not act* in
them (read, changed nothing); the pair charts count the other rules changed in words.

The checks run on the bundled site (the session's ``site`` fixture) and, to show that each
one can fail, on copies of its pages broken on purpose."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree.ElementTree import Element

import html5lib  # type: ignore[import-untyped]
import pytest

NUMBER = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?")
SIGNED = re.compile(r"[+-]\d[\d,]*\.\d+")
HALF_ZERO = re.compile(r"±0(?:\.0+)?(?![\d.])")
AND_MORE = re.compile(r"\(and \d+ more\)")
# The tests that read the built site are slow (it is built once per run, 20 s here); the
# check of the places alone is not.
slow = pytest.mark.slow
CHANGED = re.compile(r"changed ([\d,]+) of ([\d,]+) deals")
READ = re.compile(r"read in ([\d,]+)")


def _tree(text: str) -> Element:
    return html5lib.parse(text, namespaceHTMLElements=False)  # type: ignore[no-any-return]


def _text(element: Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _local(element: Element) -> str:
    """A tag without its namespace (html5lib puts the charts' SVG in the SVG namespace)."""
    return str(element.tag).rsplit("}", 1)[-1]


def _class(element: Element, name: str) -> bool:
    return name in (element.get("class") or "").split()


def _zero(number: str) -> bool:
    return float(number.replace(",", "")) == 0


def _cell_faults(where: str, cell: str) -> list[str]:
    """A difference's cell ("+0.19 [+0.01, +0.38] *", "-0.06 (no interval: ...)", "no
    deal moved"): starred, it prints no bound or half-width as 0; declined, it is not
    starred; a difference printed as figures is not all zeros ("no deal moved" says so)."""
    faults = []
    numbers = NUMBER.findall(cell.split("(no interval")[0])
    if cell.endswith("*") and (any(_zero(n) for n in numbers) or HALF_ZERO.search(cell)):
        faults.append(f"{where}: a clear cell reads as 0: {cell}")
    if "no interval" in cell and "*" in cell:
        faults.append(f"{where}: a declined interval is starred: {cell}")
    if numbers and "no interval" not in cell and all(_zero(n) for n in numbers):
        faults.append(f"{where}: a zero printed as a figure: {cell}")
    return faults


def _band_faults(where: str, table: Element) -> list[str]:
    """A strong-play band's table (its own shape: a measure, the band, each solution's
    effect): no effect printed as a zero figure ("no change" says so in words)."""
    faults = []
    for tr in table.iter("tr"):
        for td in (td for td in tr if td.tag == "td"):
            cell = _text(td)
            numbers = NUMBER.findall(cell)
            if numbers and all(_zero(n) for n in numbers):
                faults.append(f"{where}: strong-play band: a zero printed as a figure: {cell}")
    return faults


def every_rule_faults(text: str) -> list[str]:
    """Each fault of the every-rule page's tables, in words."""
    faults: list[str] = []
    for section in _tree(text).iter("section"):
        if not _class(section, "rule-effect"):
            continue
        notes = [_text(li) for ul in section.iter("ul") if _class(ul, "effect-notes") for li in ul]
        value = ""
        for table in section.iter("table"):
            if _class(table, "strong-band-table"):
                faults += _band_faults(section.get("id") or "", table)
        rows = [
            tr
            for table in section.iter("table")
            if not _class(table, "strong-band-table")
            for tr in table.iter("tr")
        ]
        for tr in rows:
            heads = [th for th in tr if th.tag == "th" and th.get("scope") == "row"]
            if heads:
                value = _text(heads[0]).removesuffix(" (base)")
            cells = [_text(td) for td in tr if td.tag == "td"]
            if len(cells) < 3 or cells[1] == "(the base)":
                continue
            policy, came, figures = cells[0], cells[1], cells[2:]
            where = f"{section.get('id')}: {value}: {policy}"
            for cell in figures:
                faults += _cell_faults(where, cell)
            changed = CHANGED.search(came)
            read = READ.search(came)
            if changed is None or read is None:
                faults.append(f"{where}: no count of the deals changed and read: {came}")
                continue
            moved = [c for c in figures if c != "no deal moved"]
            if int(changed[1].replace(",", "")) > 0:
                said_why = ("no figure measured here", "not shown here")
                if not moved and not any(why in came for why in said_why):
                    faults.append(f"{where}: changed deals but every figure is 0: {came}")
                continue
            said = [n for n in notes if n.startswith(f"{value}: {policy}: ")]
            read_in = int(read[1].replace(",", ""))
            # unread: proven unreadable from the rules, or only not read in this sample
            wanted = (
                ("did not act in these deals",)
                if read_in
                else ("cannot act under this player", "not read in these")
            )
            if not any(w in n for w in wanted for n in said):
                said_words = "' or '".join(wanted)
                faults.append(f"{where}: a row that changed nothing does not say '{said_words}'")
    return faults


def _clear_amounts(sentence: str) -> list[str]:
    """The amounts a sentence of a pair's effects calls clear."""
    clear = sentence.split("came into play")[0]
    clear = clear.split("No clear effect")[0]
    return SIGNED.findall(re.sub(r"\([^()]*\)", "", clear))


def pair_effect_faults(text: str) -> list[str]:
    """Each fault of a page's rule-effects table (the statistics page, a pair page) and of
    its chart."""
    faults: list[str] = []
    tree = _tree(text)
    sentences: list[tuple[str, str]] = []  # (the change, what is said of it)
    for table in tree.iter("table"):
        head = " ".join(_text(th) for th in table.iter("th") if th.get("scope") == "col")
        if "Measured effect" not in head:
            continue
        for tr in table.iter("tr"):
            cells = [_text(td) for td in tr if td.tag == "td"]
            rows = [_text(th) for th in tr if th.tag == "th" and th.get("scope") == "row"]
            if cells and rows:
                sentences.append((rows[0], cells[-1]))
    for article in tree.iter("article"):  # a pair page: each change, then its figures
        if not _class(article, "rule-effect"):
            continue
        change = " ".join(_text(h) for h in article.iter("h3"))
        sentences += [(change, _text(p)) for p in article.iter("p")]
        for table in article.iter("table"):
            for tr in table.iter("tr"):
                heads = [_text(th) for th in tr if th.tag == "th" and th.get("scope") == "row"]
                for cell in (_text(td) for td in tr if td.tag == "td"):
                    faults += _cell_faults(f"{change}: {' '.join(heads)}", cell)
    for change, sentence in sentences:
        for amount in _clear_amounts(sentence):
            if _zero(amount):
                faults.append(f"{change}: a clear effect reads as 0: {amount}")
        changed = [int(n.replace(",", "")) for n in re.findall(r"in ([\d,]+) of", sentence)]
        if changed and any(changed) and re.search(r"[+-]0\.0+ and [+-]0\.0+", sentence):
            faults.append(f"{change}: changed deals but its figures read 0: {sentence}")
    charts = [svg for svg in tree.iter() if _local(svg) == "svg"]
    for svg in charts:
        for element in svg.iter():
            if _local(element) not in ("text", "desc"):
                continue
            words = _text(element)
            if AND_MORE.search(words):
                faults.append(f"a chart label counts rules as a number: {words}")
            if _local(element) == "text" and _class(element, "chart-value"):
                if HALF_ZERO.search(words):
                    faults.append(f"a chart interval reads as ±0: {words}")
                if "no interval" in words and ("±" in words or "*" in words):
                    faults.append(f"a declined chart value shows an interval: {words}")
    return faults


def test_a_clear_interval_near_0_is_printed_with_the_places_that_keep_0_out() -> None:
    from bouillotte.site.effects import _amount
    from bouillotte.site.everyrule import _figure

    # -0.0104 per deal, between -0.0198 and -0.0010: at 2 places the upper end reads
    # "-0.00", as if the starred interval touched 0.
    entry = {"diff": -0.0104, "diff_ci95": [-0.0198, -0.001], "diff_interval": "normal"}
    clear = entry | {"diff_clear": True}
    assert _figure(clear, False, False) == "-0.010 [-0.020, -0.001] *"
    # Not clear, the interval keeps the places its mean and half-width need.
    unclear = entry | {"diff_ci95": [-0.0398, 0.019], "diff_clear": False}
    assert _figure(unclear, False, False) == "-0.01 [-0.04, +0.02]"
    # A sentence quotes a clear effect of -0.004 as such, not as "-0.00".
    assert _amount(-0.004, False) == "-0.004" and _amount(0.0012, True) == "+0.12 points"


def _pages(site: Path) -> list[Path]:
    return [site / "statistics.html", *sorted((site / "compare").glob("*.html"))]


@slow
def test_the_every_rule_page_has_none_of_the_label_faults(site: Path) -> None:
    page = (site / "every-rule.html").read_text(encoding="utf-8")
    assert "effect-table" in page  # the page holds the tables this test reads
    assert every_rule_faults(page) == []


@slow
def test_the_statistics_and_pair_pages_have_none_of_the_label_faults(site: Path) -> None:
    pages = _pages(site)
    statistics = pages[0].read_text(encoding="utf-8")
    assert "Measured effect" in statistics and "chart-value" in statistics
    # the check reads the chart (its values and labels), not only the table: the first
    # chart value with an interval, its half-width planted as 0.00
    value = re.search(
        r'(<text class="chart-value"[^>]*>[^<]*? ±)(\d+\.\d+)(?=[^<]*</text>)', statistics
    )
    assert value is not None and float(value.group(2)) > 0, "no chart value with an interval"
    planted = statistics.replace(value.group(0), value.group(1) + "0.00", 1)
    assert planted != statistics and pair_effect_faults(planted)
    for path in pages:
        assert pair_effect_faults(path.read_text(encoding="utf-8")) == [], path.name


def _one_cell(page: str, before: str, after: str) -> str:
    assert before in page, before
    return page.replace(before, after, 1)


@slow
@pytest.mark.parametrize(
    ("before", "after", "fault"),
    [
        # a clear cell with a bound, or its half-width, that prints as 0
        (r"<td>[+-][\d.]+ \[[^\]<]*\] \*</td>", "<td>+0.01 [+0.00, +0.02] *</td>", "reads as 0"),
        (r"<td>[+-][\d.]+ \[[^\]<]*\] \*</td>", "<td>+0.01±0.00 *</td>", "reads as 0"),
        (r"<td>([+-]\d\.\d+ pts \(no interval[^<]*\))</td>", "<td>\\1 *</td>", "declined interval"),
        (r"<td>no deal moved</td>", "<td>+0.00 [+0.00, +0.00]</td>", "zero printed"),
        (r" \(what was offered or played, but no figure measured here\)", "", "every figure is 0"),
        (r"cannot act under this player", "no effect", "cannot act"),
        (r"did not act in these deals", "no effect", "did not act"),
        (r"not read in these [\d,]+ deals", "no effect", "not read"),
        # a strong-play solution's effect printed as a zero figure
        (
            r'(<th scope="row">[^<]*</th><td>\[[^\]<]*\]</td><td>)[+-][\d.]+(</td>)',
            "\\1+0.000\\2",
            "strong-play band",
        ),
    ],
)
def test_the_every_rule_check_finds_each_fault_in_a_page_broken_on_purpose(
    site: Path, before: str, after: str, fault: str
) -> None:
    page = (site / "every-rule.html").read_text(encoding="utf-8")
    broken, count = re.subn(before, after, page, count=1)
    assert count == 1, before
    found = every_rule_faults(broken)
    assert any(fault in f for f in found), found


CHART_VALUE = r'(<text class="chart-value"[^>]*>[+-]\d\.\d+)'


@slow
@pytest.mark.parametrize(
    ("page", "before", "after", "fault"),
    [
        ("statistics.html", r"(Clear under both[^<]*?)[+-]\d+\.\d+ and", r"\1+0.00 and", "as 0"),
        ("statistics.html", CHART_VALUE + r" ±\d\.\d+", r"\1 ±0.00", "reads as ±0"),
        ("statistics.html", r", with 1 other rule changed", " (and 1 more)", "as a number"),
        ("statistics.html", CHART_VALUE + ", no interval", r"\1 ±0.05, no interval", "declined"),
        (
            "compare/foster--pagat.html",
            r"<td>[+-][\d.]+ \[[^\]<]*\] \*</td>",
            "<td>-0.03 [-0.05, -0.00] *</td>",
            "clear cell reads as 0",
        ),
        (
            "compare/foster--pagat.html",
            r"<td>([+-][\d.]+ \(no interval[^<]*\))</td>",
            r"<td>\1 *</td>",
            "declined interval is starred",
        ),
        (
            "compare/foster--pagat.html",
            r"(Clear under one[^<]*?)[+-]\d+\.\d+ under",
            r"\1-0.00 under",
            "as 0",
        ),
    ],
)
def test_the_pair_check_finds_each_fault_in_a_page_broken_on_purpose(
    site: Path, page: str, before: str, after: str, fault: str
) -> None:
    text = (site / page).read_text(encoding="utf-8")
    broken, count = re.subn(before, after, text, count=1)
    assert count == 1, before
    found = pair_effect_faults(broken)
    assert any(fault in f for f in found), found
