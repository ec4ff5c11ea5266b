"""The strong-play bands of rule effects, as the pair page of foster and pagat and the
every-rule page show them: beside each rule's effect under the invented players, the range
of its effect over several CFR+ solutions of the abstracted game (``bouillotte strong
bands``; ``docs/strong-play.md``), each solution's NashConv, and one sentence saying
whether the invented players' effect survives strong play.

The bands are read from the stored file (:func:`bouillotte.strong.bands.read_bands`): the
build never solves. A missing or stale file is said in words, with the command that makes
it; so is a rule that does not act in the abstracted game (not an effect of zero).

The same bands, with each page's verdict on each measure (:data:`VERDICTS`) and its
sentence, are the tidy table ``data/tidy/strong_bands`` (``tidydata.strong_bands_table``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..rules.variant import Variant
from ..strong.bands import NONE, PLACES, band_text, effect_text, players_in_words
from .effects import _clear, judged
from .names import and_joined

BAND_PAIRS: Final = (("foster", "pagat"),)
"""The pairs of systems whose bands are computed and shown (``bouillotte strong bands``)."""


def band_sign(low: float, high: float, margin: float = 0.0) -> int:
    """+1 or -1 where every solution's effect, as shown, is of that sign and farther from 0
    than ``margin`` (the largest NashConv of the solutions: an effect no larger than what
    a best response would still gain is not told apart from none); 0 otherwise (the band
    contains 0, or comes nearer it than the margin)."""
    low, high = round(low, PLACES), round(high, PLACES)
    if low > max(margin, 0.0):
        return 1
    if high < -max(margin, 0.0):
        return -1
    return 0


def measure_words(key: str, players: int) -> str:
    if key == "pool":
        return "pools awarded per deal (0 in a void deal)"
    seat = int(key.rsplit(".", 1)[1])
    if seat == players:
        return f"net per deal of seat {seat} (the dealer)"
    if seat == 1:
        return "net per deal of seat 1 (the eldest hand)"
    return f"net per deal of seat {seat}"


def invented_sign(entries: Sequence[dict[str, Any] | None]) -> int:
    """+1 or -1 where the effect is clear (its 95 % interval excludes 0) under every
    invented player, with one sign; 0 otherwise."""
    signs = set()
    for entry in entries:
        if entry is None or judged(entry) != "normal" or not _clear(entry):
            return 0
        signs.add(1 if entry["diff"] > 0 else -1)
    return signs.pop() if len(signs) == 1 else 0


@dataclass(frozen=True)
class BandView:
    """One rule's strong-play band as a page shows it."""

    rule: str
    acts: bool
    label: str
    """Every choice the figures rest on, in words (three players, 16-card pack, ...)."""
    sentence: str
    caption: str = ""
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    nash_conv: str = ""
    command: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)
    """Each measure's :data:`VERDICTS` word, by the band's key (none where the invented
    players' effects are not beside it)."""


def _compared(players: int, seats: int) -> list[tuple[str, str, str]]:
    """The measures a band and the invented players' effects share: (the band's key, the
    invented players' key, words). Seats are matched by role (the eldest hand, the
    dealer); the middle seats of tables of different sizes are not compared."""
    return [
        (f"seat_net.{players}", f"seat_net.{seats}", "the dealer's net"),
        ("seat_net.1", "seat_net.1", "the eldest hand's net"),
        ("pool", "pool", "the pools"),
    ]


VERDICTS: Final = {
    "survives": (
        "the effect {who} show survives strong play on {measures} (clear under every "
        "invented player, and of the same sign in every solution, farther from 0 than "
        "their NashConv)"
    ),
    "does not survive": (
        "the clear effect {who} show does not survive on {measures} (the band contains 0)"
    ),
    "reversed": (
        "the clear effect {who} show is reversed on {measures} (every solution has the "
        "opposite sign, farther from 0 than their NashConv)"
    ),
    "only under strong play": (
        "strong play moves {measures} in every solution (one sign, farther from 0 than their "
        "NashConv) where {who} show no effect clear under every one of them"
    ),
    "neither clear": (
        "on {measures} neither strong play nor {who} (under every one of them) show a clear effect"
    ),
}
"""Whether the invented players' effect on one measure survives strong play: each verdict
(the word of the tidy table's ``verdict`` column) with the words the page's sentence says
it in (``{who}``: the invented players; ``{measures}``: the measures of that verdict), in
the order the sentence says them."""


def survival_verdicts(
    entry: dict[str, Any],
    players: int,
    invented: dict[str, Sequence[dict[str, Any] | None]],
    seats: int,
) -> dict[str, str]:
    """The verdict (a key of :data:`VERDICTS`) on each measure compared, by the band's key
    (the dealer's net, the eldest hand's net and the pools). ``invented``: each invented
    measure's entry under every player (``None`` where the rule did not come into play)."""
    verdicts: dict[str, str] = {}
    for key, theirs, _ in _compared(players, seats):
        low, high = entry["band"][key]
        strong = band_sign(low, high, entry["nash_conv"][1])
        mine = invented_sign(invented.get(theirs, []))
        if mine and strong == mine:
            verdicts[key] = "survives"
        elif mine and strong == 0:
            verdicts[key] = "does not survive"
        elif mine:
            verdicts[key] = "reversed"
        elif strong:
            verdicts[key] = "only under strong play"
        else:
            verdicts[key] = "neither clear"
    return verdicts


def survival_sentence(
    entry: dict[str, Any], players: int, verdicts: dict[str, str], seats: int, who: str
) -> str:
    """Whether the invented players' effect survives strong play, in one sentence, for
    the dealer's net, the eldest hand's net and the pools (their :func:`survival_verdicts`);
    ``who``: the invented players in words."""
    said: dict[str, list[str]] = {verdict: [] for verdict in VERDICTS}
    for key, _, words in _compared(players, seats):
        band = band_text(*entry["band"][key])
        said[verdicts[key]].append(f"{words} ({band})" if band == NONE else f"{words} {band}")
    text = "; ".join(
        VERDICTS[verdict].format(who=who, measures=and_joined(shown))
        for verdict, shown in said.items()
        if shown
    )
    players_text = players_in_words(players)
    return f"Under strong play ({players_text} players, the abstracted game): {text}."


def band_view(
    entry: dict[str, Any],
    data: dict[str, Any],
    invented: dict[str, Sequence[dict[str, Any] | None]] | None,
    seats: int,
    who: str,
) -> BandView:
    """A rule's band, its table and its sentence. ``invented`` is ``None`` where the
    invented players' effects are not shown beside it."""
    players = int(data["players"])
    label = str(data["label"])
    if not entry["acts"]:
        return BandView(
            entry["rule"],
            False,
            label,
            f"Under strong play this rule {entry['reason']}; that is not an effect of zero, "
            "and no band is given.",
            command=data["command"],
        )
    solutions = entry["solutions"]
    columns = [
        "Measure",
        f"Band: least and greatest over the {len(solutions)} solutions",
        *(f"Solution of seed {s['seed']}" for s in solutions),
    ]
    rows = [
        [measure_words(key, players), band_text(*entry["band"][key])]
        + [effect_text(s["effect"][key]) for s in solutions]
        for key in data["measures"]
    ]
    rows.append(
        [
            f"NashConv (counters per deal), {data['systems'][0]}'s value / the other's",
            f"{entry['nash_conv'][0]:.4f} to {entry['nash_conv'][1]:.4f}",
        ]
        + [f"{s['base_nash_conv']:.4f} / {s['nash_conv']:.4f}" for s in solutions]
    )
    verdicts: dict[str, str] = {}
    if invented is None:
        sentence = (
            "the invented players' effects do not measure this rule (it acts between deals "
            f"or on a misdeal); under strong play ({players_in_words(players)} players, the "
            "abstracted game) its effect is in the table."
        )
    else:
        verdicts = survival_verdicts(entry, players, invented, seats)
        sentence = survival_sentence(entry, players, verdicts, seats, who)
    lo, hi = entry["nash_conv"]
    return BandView(
        entry["rule"],
        True,
        label,
        sentence,
        f"The effect under strong play, in counters per deal ({label})",
        columns,
        rows,
        f"{lo:.4f} to {hi:.4f}",
        data["command"],
        verdicts,
    )


@dataclass(frozen=True)
class PairBands:
    """What a pair page shows of strong play: the bands by the changes they make, or why
    none are shown."""

    available: bool
    label: str = ""
    compared_with: str = ""
    """The stored rule effects the bands are set beside (``foster__pagat``): the tidy
    table's ``compared_with`` of this page's rows."""
    command: str = ""
    problem: str = ""
    fix: str = ""
    by_changes: dict[str, BandView] = field(default_factory=dict)
    others: list[BandView] = field(default_factory=list)
    """The bands of rules the invented players' effects do not list (they act between
    deals, or on a misdeal)."""


def changes_key(paths: Sequence[str]) -> str:
    """The rules (or parts) a change switches, as one key."""
    return ",".join(sorted(paths))


def _entry_changes(entry: dict[str, Any]) -> dict[str, str]:
    return {part["rule"]: part["to"] for part in entry.get("parts", [])}


def pair_bands(a: Variant, b: Variant, effects_data: dict[str, Any] | None) -> PairBands | None:
    """The bands of a pair page (``None`` for a pair without computed bands)."""
    from ..strong.bands import read_bands

    if (a.id, b.id) not in BAND_PAIRS:
        if (b.id, a.id) not in BAND_PAIRS:
            return None
        a, b = b, a
    found = read_bands(a, b)
    if found.data is None:
        return PairBands(False, problem=found.problem, fix=found.fix)
    data = found.data
    report = effects_data["report"] if effects_data is not None else None
    views, others = pair_views(data, report)
    compared_with = f"{a.id}__{b.id}"
    return PairBands(
        True, data["label"], compared_with, data["command"], by_changes=views, others=others
    )


def pair_views(
    data: dict[str, Any], report: dict[str, Any] | None
) -> tuple[dict[str, BandView], list[BandView]]:
    """A pair page's bands by the changes they make, beside the pair's stored sweep
    (``report``); and those of the rules that sweep does not measure."""
    rows, policies, seats = _invented_rows(report, lambda changes: changes_key(list(changes)))
    who = f"the invented players ({and_joined(policies)})" if policies else ""
    views: dict[str, BandView] = {}
    others: list[BandView] = []
    for entry in data["rules"]:
        key = changes_key(list(_entry_changes(entry)))
        measured = rows.get(key)
        invented = _invented(measured, policies) if measured is not None else None
        views[key] = band_view(entry, data, invented, seats, who)
        if measured is None:
            others.append(views[key])
    return views, others


def every_rule_bands(
    base: Variant, by_id: dict[str, Variant], report: dict[str, Any] | None
) -> tuple[dict[str, BandView], str, str, str]:
    """The bands of the every-rule page: by the changes of its rows (a value of one rule
    switched alone), for every pair of :data:`BAND_PAIRS` whose first system is the page's
    base; and the label, the problem (a missing or stale file) and the command."""
    from ..strong.bands import read_bands

    views: dict[str, BandView] = {}
    label = problem = fix = ""
    for first, second in BAND_PAIRS:
        if first != base.id:
            continue
        other = by_id.get(second)
        if other is None:
            continue  # a build without the second system: nothing to show
        found = read_bands(base, other)
        if found.data is None:
            problem, fix = found.problem, found.fix
            continue
        data = found.data
        label, fix = data["label"], data["command"]
        views |= every_rule_views(data, report)
    return views, label, problem, fix


def every_rule_views(data: dict[str, Any], report: dict[str, Any] | None) -> dict[str, BandView]:
    """The every-rule page's bands beside its stored sweep (``report``), by the change
    of the page's row (a value of one rule switched alone)."""
    rows, policies, seats = _invented_rows(report, _row_key)
    who = f"the invented players ({and_joined(policies)})" if policies else ""
    views: dict[str, BandView] = {}
    for entry in data["rules"]:
        measured = rows.get(_row_key(_entry_changes(entry)))
        if measured is None:
            continue  # the page has no row of this change (a rule of many values)
        views[_row_key(_entry_changes(entry))] = band_view(
            entry, data, _invented(measured, policies), seats, who
        )
    return views


def _invented_rows(
    report: dict[str, Any] | None, key_of: Callable[[dict[str, str]], str]
) -> tuple[dict[str, dict[str, dict[str, Any]]], list[str], int]:
    """The invented players' rows of a stored sweep by the key of their changes, then by
    policy; its policies and its number of seats (none without a sweep)."""
    if report is None:
        return {}, [], 0
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    for row in report["rows"]:
        if row["combination"] != "base" and row.get("changes"):
            rows.setdefault(key_of(row["changes"]), {})[row["policy"]] = row
    seats = sum(1 for k in report["metrics"] if k.startswith("seat_net."))
    return rows, list(report["policies"]), seats


def _invented(
    measured: dict[str, dict[str, Any]], policies: list[str]
) -> dict[str, Sequence[dict[str, Any] | None]]:
    """Each measure's entry under every invented player (``None`` where the change did not
    come into play under that player)."""
    return {
        name: [
            measured[p]["metrics"][name]
            if p in measured and measured[p].get("came_into_play")
            else None
            for p in policies
        ]
        for name in next(iter(measured.values()))["metrics"]
    }


def _row_key(changes: dict[str, str]) -> str:
    """A change with its values: ``hands.favori=none``."""
    return ";".join(f"{k}={v}" for k, v in sorted(changes.items()))
