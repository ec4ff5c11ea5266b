"""What a scenario page shows: the deal, the log, the outcome under every variant."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ..rules.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, card_str, parse_card
from ..study.attribution import Attribution, Direction, findings
from ..study.compare import Comparison
from ..study.render import event_line, run_text
from ..study.replay import Step
from ..study.scenario import RunResult
from .ids import href, rule_id
from .rules import rule_label

RED = {"H", "D"}


@dataclass(frozen=True)
class CardView:
    code: str
    rank: str
    suit: str
    symbol: str
    name: str
    colour: str
    """``red`` or ``black``; the page also prints the suit letter and symbol."""


def card_view(text: str) -> CardView:
    code = card_str(parse_card(text))
    rank, suit = code[:-1], code[-1]
    return CardView(
        code=code,
        rank=rank,
        suit=suit,
        symbol=SUIT_SYMBOLS[suit],
        name=f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}",
        colour="red" if suit in RED else "black",
    )


def cards_view(text: str | list[str]) -> list[CardView]:
    items = text.split() if isinstance(text, str) else text
    return [card_view(c) for c in items]


@dataclass(frozen=True)
class SeatView:
    name: str
    dealer: bool
    eldest: bool
    cave: str
    cards: list[CardView]


@dataclass(frozen=True)
class DealView:
    seats: list[SeatView]
    retourne: CardView | None
    under_retourne: CardView | None
    note: str
    """How the cards were fixed (hands, a given pack, or a seed)."""


def deal_view(result: RunResult) -> DealView:
    m = result.scenario.model
    event = next((e for e in result.data["events"] if e.get("type") == "deal"), None)
    hands: dict[str, Any] = event["hands"] if event else (m.hands or {})
    retourne = event["retourne"] if event else m.retourne
    eldest = m.players[(m.players.index(m.dealer) + 1) % len(m.players)]
    caves = m.caves or {}
    seats = [
        SeatView(
            name=p,
            dealer=p == m.dealer,
            eldest=p == eldest,
            cave=str(caves[p]) if p in caves else "the variant's cave",
            cards=cards_view(hands.get(p, [])),
        )
        for p in m.players
    ]
    if m.hands is not None:
        note = "The hands are fixed by the scenario."
    elif m.deck is not None:
        note = "The pack is given card by card; each variant deals it by its own rule."
    else:
        note = f"The pack is shuffled with seed {m.seed}."
    return DealView(
        seats=seats,
        retourne=card_view(retourne) if retourne else None,
        under_retourne=card_view(m.under_retourne) if m.under_retourne else None,
        note=note,
    )


@dataclass(frozen=True)
class LogRow:
    step: str
    """The number of the scenario's written step that made this event (as the terminal and
    a refusal number them), or empty for what the rules do by themselves (blinds, the
    deal, the showdown)."""
    player: str
    text: str
    pot: str


_SPOKEN = {"action", "straddle", "decline", "privilege", "draw", "stifle"}
"""The kinds of event a player's word makes (the others the rules make by themselves)."""


def _step_events(events: list[dict[str, Any]], steps: Sequence[Step]) -> dict[int, int]:
    """Each written step's number, by the place of its event: the last event its player's
    word made among those the step made."""
    found = {}
    for step in steps:
        spoken = [
            i
            for i in range(step.event, step.event + step.made)
            if 0 <= i < len(events)
            and events[i].get("type") in _SPOKEN
            and events[i].get("player") == step.player
        ]
        if spoken:
            found[spoken[-1]] = step.number
    return found


def log_rows(events: list[dict[str, Any]], steps: Sequence[Step] = ()) -> list[LogRow]:
    """The events of a deal with the pool after each, each written step numbered."""
    made = _step_events(events, steps)
    rows = []
    pot = 0
    for index, event in enumerate(events):
        kind = event.get("type")
        if "pot" in event and isinstance(event["pot"], int):
            pot = event["pot"]
        elif kind in ("blind", "ante", "carried-in", "levy"):
            pot += int(event.get("adds", event.get("amount", 0)))
        elif kind == "return":
            pot -= int(event["amount"])
        shown = "" if kind in ("pot", "bonus", "end", "showdown") else str(pot)
        step = str(made[index]) if index in made else ""
        rows.append(LogRow(step, str(event.get("player", "")), event_line(event), shown))
    return rows


@dataclass(frozen=True)
class Link:
    text: str
    href: str


@dataclass(frozen=True)
class OutcomeCell:
    text: str
    detail: str
    links: list[Link]
    differs: bool
    rowspan: int = 1
    """More than one for a system that refuses the deal: its one cell explains why."""
    covered: bool = False
    """A cell taken by the explanatory cell above it or beside it (not written)."""
    colspan: int = 1
    """More than one for systems side by side that refuse the same step by the same rule:
    one cell says it once for all of them."""


@dataclass(frozen=True)
class OutcomeRow:
    label: str
    cells: list[OutcomeCell]


def _pot_text(pot: dict[str, Any] | None) -> tuple[str, str]:
    if pot is None:
        return "—", ""
    return (
        f"{pot['amount']} to {pot['winner']}",
        f"contenders {', '.join(pot['contenders'])}; {pot['reason']}",
    )


def outcome_rows(comparison: Comparison, root: str) -> list[OutcomeRow]:
    return outcome_table(comparison.results, root)


def outcome_table(results: Sequence[RunResult], root: str) -> list[OutcomeRow]:
    """The outcome of one scenario under each system, a column each (the scenario page
    shows every system, a pair page its two): status, pools, bonuses, carry, nets."""
    datas = [r.data for r in results]
    players = list(results[0].scenario.model.players) if results else []
    rows: list[tuple[str, list[tuple[str, str, list[Link]]]]] = []

    def status(n: int, d: dict[str, Any]) -> tuple[str, str, list[Link]]:
        if d["status"] == "illegal":
            error = d["error"]
            rule = str(error["rule"])
            steps = results[n].steps
            said = f" ({steps[-1].action})" if steps else ""
            return (
                # The scenario's written steps are counted, as in the log's Step column.
                f"step {error['step']}{said} is not allowed",
                str(error["message"]),
                [Link(rule_label(rule), href(root, "matrix.html", rule_id(rule)))],
            )
        return str(d["status"]), "", []

    rows.append(("Status", [status(n, d) for n, d in enumerate(datas)]))
    for i in range(max((len(d["pots"]) for d in datas), default=0)):
        label = "Main pool" if i == 0 else f"Side pool {i}"
        rows.append(
            (label, [(*_pot_text(d["pots"][i] if i < len(d["pots"]) else None), []) for d in datas])
        )
    rows.append(
        (
            "Bonuses",
            [
                (
                    "; ".join(
                        f"{b['from']} pays {b['to']} {b['amount']} ({b['reason']})"
                        for b in d["bonuses"]
                    )
                    or "none",
                    "",
                    [],
                )
                for d in datas
            ],
        )
    )
    rows.append(("Carried to the next deal", [(str(d["carry"]), "", []) for d in datas]))
    for p in players:
        cells: list[tuple[str, str, list[Link]]] = []
        for d in datas:
            info = d["players"].get(p)
            cells.append(
                (f"{info['net']:+d}", f"cave {info['cave']}, ledger {info['ledger']}", [])
                if info
                else ("—", "", [])
            )
        rows.append((f"Net for {p}", cells))
    refused = [d["status"] == "illegal" for d in datas]
    spans = _refusal_spans(results)
    if any(n > 1 for n in spans.values()):
        rows[0] = ("Status", _merged_refusals(rows[0][1], spans, results))
    out = []
    for n, (label, texts) in enumerate(rows):
        first = texts[0][0] if texts else ""
        out.append(
            OutcomeRow(
                label,
                [
                    OutcomeCell(
                        t,
                        detail,
                        links,
                        t != first and not (refused[i] and n > 0),
                        rowspan=len(rows) if refused[i] and n == 0 else 1,
                        covered=(refused[i] and n > 0) or spans.get(i, 1) == 0,
                        colspan=max(spans.get(i, 1), 1) if n == 0 else 1,
                    )
                    for i, (t, detail, links) in enumerate(texts)
                ],
            )
        )
    return out


def _refusal_spans(results: Sequence[RunResult]) -> dict[int, int]:
    """For each run of columns side by side whose systems refuse the same step (the same
    written action) by the same rule: its first column and how many it covers; each other
    column of the run maps to 0."""
    spans: dict[int, int] = {}

    def alike(n: int) -> tuple[Any, ...] | None:
        d = results[n].data
        if d["status"] != "illegal":
            return None
        steps = results[n].steps
        return (d["error"]["step"], d["error"]["rule"], steps[-1].action if steps else None)

    n = 0
    while n < len(results):
        key = alike(n)
        end = n + 1
        while key is not None and end < len(results) and alike(end) == key:
            end += 1
        if end - n > 1:
            spans[n] = end - n
            spans.update({m: 0 for m in range(n + 1, end)})
        n = end
    return spans


_LEGAL_NOW = " Legal now: "


def _merged_refusals(
    cells: list[tuple[str, str, list[Link]]],
    spans: dict[int, int],
    results: Sequence[RunResult],
) -> list[tuple[str, str, list[Link]]]:
    """One refusal for the systems that refuse alike: the message once, and where they
    differ only in the actions legal at that point, each system's list."""
    out = list(cells)
    for first, span in spans.items():
        if span < 2:
            continue
        text, _, links = cells[first]
        members = range(first, first + span)
        messages = [cells[m][1] for m in members]
        heads = [m.split(_LEGAL_NOW)[0] for m in messages]
        if len(set(messages)) == 1:
            detail = messages[0]
        elif len(set(heads)) == 1 and all(_LEGAL_NOW in m for m in messages):
            legal: dict[str, list[str]] = {}
            for m, message in zip(members, messages, strict=True):
                now = message.split(_LEGAL_NOW, 1)[1].rstrip(".")
                legal.setdefault(now, []).append(results[m].variant.short or results[m].variant.id)
            shown = " ".join(f"Under {'; '.join(names)}: {now}." for now, names in legal.items())
            detail = f"{heads[0]} Legal now: {shown}"
        else:
            detail = " ".join(
                f"{results[m].variant.short or results[m].variant.id}: {message}"
                for m, message in zip(members, messages, strict=True)
            )
        out[first] = (text, detail, links)
    return out


@dataclass(frozen=True)
class FindingView:
    says: str
    """What the sets do, in the words of ``Finding.says``."""
    sets: list[list[Link]]


@dataclass(frozen=True)
class DirectionView:
    base: str
    other: str
    findings: list[FindingView]
    note: str
    """How far the search went (``Search.note``)."""
    complete: bool
    found: bool
    """Whether any set gives the other's outcome."""


@dataclass(frozen=True)
class Standing:
    variant: str
    standing: str
    label: str
    """The badge in words."""
    sentence: str
    """The system's sentence for the rule (``Variant.cite``)."""


@dataclass(frozen=True)
class AttributionView:
    base: str
    other: str
    differing: list[Link]
    responsible: list[list[Link]]
    reproduces: list[list[Link]]
    towards: DirectionView | None
    back: DirectionView | None
    """The other way, only when it names other sets or rules."""
    one_at_a_time: bool
    """Whether the search was cut, so the one-at-a-time answer is shown too."""
    standings: list[tuple[Link, list[Standing]]]
    """For each rule named: per variant, its standing, its badge and its sentence."""


LinkMaker = Callable[[list[str]], list[Link]]


def _rule_links(paths: list[str], root: str) -> list[Link]:
    return [Link(rule_label(p), href(root, "matrix.html", rule_id(p))) for p in paths]


def _direction_view(
    direction: Direction | None, base: str, other: str, names: dict[str, str], links: LinkMaker
) -> DirectionView | None:
    if direction is None:
        return None
    shown = names.get(other, other)
    return DirectionView(
        base,
        other,
        [
            FindingView(f.says(shown, names.get(base, base)), [links(s) for s in f.sets if s])
            for f in findings(direction)
        ],
        direction.outcome.note(),
        direction.outcome.complete,
        bool(direction.outcome.sets),
    )


def attribution_view(
    a: Attribution, root: str, names: dict[str, str], links: LinkMaker | None = None
) -> AttributionView:
    """What a page says of one attribution; ``links``: how a rule is linked (the matrix,
    unless given)."""
    link = links or (lambda paths: _rule_links(paths, root))
    return AttributionView(
        base=a.base,
        other=a.other,
        differing=link(a.differing),
        responsible=[link(s) for s in a.responsible],
        reproduces=[link(s) for s in a.reproduces],
        towards=_direction_view(a.towards, a.base, a.other, names, link),
        back=_direction_view(a.back, a.other, a.base, names, link) if a.back_differs() else None,
        one_at_a_time=a.towards is None or not a.towards.outcome.complete,
        standings=[
            (
                link([path])[0],
                [
                    Standing(v, p.standing.value, p.label, a.sentences.get(path, {}).get(v, ""))
                    for v, p in a.provenance.get(path, {}).items()
                ],
            )
            for path in a.named()
        ],
    )


def attribution_views(
    attributions: list[Attribution], root: str, names: dict[str, str] | None = None
) -> list[AttributionView]:
    return [attribution_view(a, root, names or {}) for a in attributions]


@dataclass(frozen=True)
class TranscriptView:
    variant_id: str
    status: str
    text: str
    log: list[LogRow]


def transcripts(comparison: Comparison) -> list[TranscriptView]:
    title = comparison.scenario.model.title
    return [
        TranscriptView(
            r.variant.id, r.status, run_text(r.data, title), log_rows(r.data["events"], r.steps)
        )
        for r in comparison.results
    ]


_CARD = re.compile(
    r"\b(10|[AKQJ987])([SHDC])\b"  # the terminal's code: QC
    r"|([♠♥♦♣])(10|[AKQJ987])\b"  # symbol first: ♣Q
    r"|\b(10|[AKQJ987])([♠♥♦♣])"  # rank and symbol: Q♣
)
_LETTER = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
_TAG = re.compile(r"(<[^>]*>)")


def _card_html(rank: str, suit: str) -> str:
    colour = " card-inline-red" if suit in RED else ""
    name = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
    return (
        f'<span class="card-inline{colour}" title="{name}">{rank}{SUIT_SYMBOLS[suit]}'
        f'<span class="card-letter">{suit}</span></span>'
    )


def _card_found(m: re.Match[str]) -> str:
    if m.group(1):
        return _card_html(m.group(1), m.group(2))
    if m.group(3):
        return _card_html(m.group(4), _LETTER[m.group(3)])
    return _card_html(m.group(5), _LETTER[m.group(6)])


def _cards_in_text(text: str) -> str:
    return _CARD.sub(_card_found, text)


def cards_as_text(text: str) -> str:
    """``text`` with each card as :func:`with_cards` shows it, without the markup (``Q♣C``):
    the words a page's search entry gives for it."""

    def plain(m: re.Match[str]) -> str:
        rank = m.group(1) or m.group(4) or m.group(5)
        suit = m.group(2) or _LETTER[m.group(3) or m.group(6)]
        return f"{rank}{SUIT_SYMBOLS[suit]}{suit}"

    return _CARD.sub(plain, text)


def with_cards(text: str) -> Markup:
    """Text with every card written the site's one way: rank, suit symbol and letter
    (``Q♣ C``), red suits marked by class as well, whether the text wrote it as a code
    (``QC``, as the terminal does) or symbol first (``♣Q``); ``->`` becomes an arrow. Plain
    text is escaped first; HTML (``Markup``, as ``markdown`` gives) is changed only
    between its tags."""
    if isinstance(text, Markup):
        parts = _TAG.split(str(text))
        return Markup("".join(p if p.startswith("<") else _cards_in_text(p) for p in parts))
    return Markup(_cards_in_text(str(escape(text))).replace(" -&gt; ", " → "))
