"""A reproducible example for every rule on which two variants differ.

For each rule on which variant B differs from variant A, seeded random deals (deal ``i``
is ``simulate``'s deal ``i`` of seed ``S``: ``play.stream.deal_seed``) are played by the
``simple`` policy (then, for rules it never reaches, by the seeded ``random`` policy) under
A and under A with that one rule changed to B's value (:meth:`Variant.with_values`); the
first deal whose outcome (:func:`attribution.signature`) differs is the rule's example.
Both plays see the same cards, so only the rule (and what the players do under it) makes
the difference. Each example can be written as a scenario file in the public format,
under A and B, with the outcomes as its ``expect`` blocks.

Rules that only act between deals (the session, buying a new stake) cannot change one
deal's outcome; they are reported as such. Rules about misdeals are tried on deals in which
the first card dealt is exposed: ``simulate`` never plays such a deal, so the example says
so and names the card (:func:`deal_words`, the JSON's ``exposed``).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..play.deal import new_deal
from ..play.dealing import SetupError, deal_from_pack, shuffled_pack
from ..play.stream import deal_seed
from ..rules.cards import Card, card_str
from ..rules.errors import InputError
from ..rules.linetext import TITLE_LENGTH
from ..rules.together import Together
from ..rules.variant import Variant, differing_rules, value_text
from ..rules.writing import Output, stage_file
from .attribution import signature
from .autoplay import play
from .deal_streams import policy_stream
from .policies import get_policy
from .render import counted
from .scenario import MAX_ID_LENGTH, ScenarioModel, load_scenario, run_scenario

SESSION_RULES = frozenset(
    {
        "stakes.cave_can_be_topped_up",
        "stakes.rebuy_amount",
        "stakes.skip_dealer_who_rebought",
        "session.deals",
        "session.carried_pot_at_end",
    }
)
"""Rules that act between deals, never within one."""


@dataclass(frozen=True)
class Setup:
    """The cards of one seeded deal, the same under every variant compared."""

    number: int
    seed: int
    players: list[str]
    dealer: str
    hands: dict[str, list[Card]]
    retourne: Card
    under_retourne: Card | None
    exposed: Card | None
    policy: str = "simple"
    """The policy every player follows: ``simple``, or ``random`` (seeded) for rules the
    simple policy never reaches (it never straddles, for one)."""


@dataclass(frozen=True)
class Play:
    actions: list[str]
    data: dict[str, Any]
    """The outcome as ``bouillotte run --json`` gives it (without the scenario keys)."""


@dataclass(frozen=True)
class Finding:
    rule: str
    base_value: Any
    other_value: Any
    setup: Setup | None = None
    base: Play | None = None
    changed: Play | None = None
    note: str = ""

    @property
    def found(self) -> bool:
        return self.setup is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rule": self.rule,
            "base_value": _plain(self.base_value),
            "other_value": _plain(self.other_value),
            "found": self.found,
            "note": self.note,
        }
        if self.setup and self.base and self.changed:
            data["deal"] = self.setup.number
            data["seed"] = self.setup.seed
            data["policy"] = self.setup.policy
            # deal i as dealt, but with this card exposed (a misdeal rule's example)
            exposed = self.setup.exposed
            data["exposed"] = None if exposed is None else card_str(exposed)
            data["base"] = {"actions": self.base.actions, "outcome": outcome_text(self.base)}
            data["changed"] = {
                "actions": self.changed.actions,
                "outcome": outcome_text(self.changed),
            }
        return data


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def outcome_text(played: Play) -> str:
    data = played.data
    pots = "; ".join(f"{p['amount']} to {p['winner']}" for p in data["pots"])
    nets = " ".join(f"{n} {p['net']:+d}" for n, p in sorted(data["players"].items()))
    if any(p["ledger"] for p in data["players"].values()):
        nets += "; ledger " + " ".join(
            f"{n} {p['ledger']:+d}" for n, p in sorted(data["players"].items())
        )
    text = data["status"] + (f": {pots}" if pots else "")
    if data["carry"]:
        text += f", {data['carry']} carried"
    return f"{text} (net {nets})"


def make_setup(
    variant: Variant, number: int, seed: int, exposed: bool, policy: str = "simple"
) -> Setup:
    names = [chr(ord("A") + i) for i in range(variant.players)]
    dealer = names[-1]
    deck = shuffled_pack(variant, seed)
    hands, retourne, under = deal_from_pack(variant, names, dealer, deck)
    shown = hands[names[0]][0] if exposed else None
    return Setup(number, seed, names, dealer, hands, retourne, under, shown, policy)


def play_setup(variant: Variant, setup: Setup) -> Play:
    deal = new_deal(
        variant,
        setup.players,
        setup.dealer,
        hands=setup.hands,
        retourne=setup.retourne,
        under_retourne=setup.under_retourne,
        exposed=setup.exposed,
    )
    actions = play(deal, get_policy(setup.policy), policy_stream(setup.seed))
    return Play([str(a) for a in actions], deal.outcome.to_json())


def find_differences(a: Variant, b: Variant, seed: int = 0, deals: int = 2000) -> list[Finding]:
    """For each rule on which ``b`` differs from ``a``, the first seeded deal it changes."""
    open_rules: dict[str, Variant] = {}
    findings: dict[str, Finding] = {}
    for path in differing_rules(a, b):
        base_value, other_value = a.value(path), b.value(path)
        if path in SESSION_RULES:
            findings[path] = Finding(
                path, base_value, other_value, note="acts between deals: see `bouillotte session`"
            )
            continue
        try:
            open_rules[path] = a.with_values({path: other_value}, label=f"{a.id}+{path}")
        except ValueError as exc:
            findings[path] = Finding(
                path, base_value, other_value, note=f"not a valid system alone: {exc}"
            )
    for policy in ("simple", "random"):
        _search(a, b, open_rules, findings, seed, deals, policy)
    for path in open_rules:
        findings[path] = Finding(
            path, a.value(path), b.value(path), note=f"no example in {deals} deals"
        )
    return [findings[p] for p in differing_rules(a, b)]


def _search(
    a: Variant,
    b: Variant,
    open_rules: dict[str, Variant],
    findings: dict[str, Finding],
    seed: int,
    deals: int,
    policy: str,
) -> None:
    for number in range(deals):
        if not open_rules:
            break
        shuffled = deal_seed(seed, number)
        plain_setup = make_setup(a, number, shuffled, exposed=False, policy=policy)
        misdeal_setup = make_setup(a, number, shuffled, exposed=True, policy=policy)
        base_plays: dict[bool, Play] = {}
        for path, changed in list(open_rules.items()):
            is_misdeal = path.startswith("misdeals.")
            setup = misdeal_setup if is_misdeal else plain_setup
            if is_misdeal not in base_plays:
                base_plays[is_misdeal] = play_setup(a, setup)
            base = base_plays[is_misdeal]
            try:
                other = play_setup(changed, setup)
            except SetupError:
                continue  # the changed rule deals another pack: these cards do not fit
            if signature(other.data) != signature(base.data):
                findings[path] = Finding(
                    path, a.value(path), b.value(path), setup, base, other, note=""
                )
                del open_rules[path]


def scenario_id(rule: str, a: Variant, b: Variant) -> str:
    """``diff-<A>-<B>-<rule>``, the id of the scenario of ``rule``'s example; one longer
    than a scenario id may be (two long profile ids) is cut and ended by a hash of the whole,
    so that it stays valid and no two rules' ids are the same."""
    whole = f"diff-{a.id}-{b.id}-{rule.replace('.', '-').replace('_', '-')}".lower()
    if len(whole) <= MAX_ID_LENGTH:
        return whole
    return f"{whole[: MAX_ID_LENGTH - 13]}-{hashlib.sha256(whole.encode()).hexdigest()[:12]}"


def scenario_data(finding: Finding, a: Variant, b: Variant) -> dict[str, Any]:
    """The finding as a scenario in the public format, under both variants."""
    setup, base = finding.setup, finding.base
    assert setup is not None and base is not None and finding.changed is not None
    other_play = play_setup(b, setup)
    title = f"{finding.rule}: {a.id} against {b.id}"
    data: dict[str, Any] = {
        "id": scenario_id(finding.rule, a, b),
        "title": title if len(title) <= TITLE_LENGTH else f"{title[: TITLE_LENGTH - 1]}…",
        "source": {"work": a.source, "locator": finding.rule, "status": "constructed"},
        "notes": (
            f"Found by `bouillotte differences {a.id} {b.id}` (deal {setup.number}"
            f"{_exposed_words(setup)}, seed {setup.seed}), the players following the "
            f"{setup.policy} policy. Under {a.id} "
            f"(`{finding.rule}` = {value_text(finding.base_value)}): "
            f"{outcome_text(base)}. With only that rule changed to {b.id}'s "
            f"({value_text(finding.other_value)}): {outcome_text(finding.changed)}, after "
            f"the actions {', '.join(finding.changed.actions) or 'none'}."
        ),
        "players": setup.players,
        "dealer": setup.dealer,
        "hands": {name: [card_str(c) for c in cards] for name, cards in setup.hands.items()},
        "retourne": card_str(setup.retourne),
    }
    if setup.under_retourne is not None:
        data["under_retourne"] = card_str(setup.under_retourne)
    if setup.exposed is not None:
        data["exposed"] = card_str(setup.exposed)
    data["actions"] = base.actions
    if other_play.actions != base.actions:
        data["actions_by_variant"] = {b.id: other_play.actions}
    data["variants"] = [a.id, b.id]
    data["expect"] = {
        a.id: _expect(base.data),
        b.id: _expect(other_play.data),
    }
    ScenarioModel.model_validate(data)
    return data


def _expect(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": data["status"],
        "net": {name: p["net"] for name, p in data["players"].items()},
        "carry": data["carry"],
    }


def save_scenarios(
    findings: list[Finding],
    a: Variant,
    b: Variant,
    folder: Path,
    also: Sequence[tuple[Path, str]] = (),
) -> list[Path]:
    """Write one scenario file per finding, all together or none (``rules/writing.py``),
    with the files of ``also`` (a CSV table's path and text: the command's other output,
    which a failure leaves as it was too); each scenario is read back and replayed to
    check it. A scenario file already there is the user's to keep and edit (``bouillotte
    check`` verifies it): it is replaced only by the very bytes it holds (the same
    command run again), else refused in one line before anything is written."""
    with Together() as stack:
        out = stack.enter_context(Output(folder, "replace"))
        saved: set[str] = set()
        for finding in findings:
            if not finding.found:
                continue
            data = scenario_data(finding, a, b)
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
            name = f"{data['id']}.yaml"
            _refuse_other_bytes(folder / name, text.encode("utf-8"))
            saved.add(os.path.realpath(out.add(name, text)))
        for path, table in also:
            if os.path.realpath(path) in saved:
                raise InputError(
                    "the CSV file is one of the scenario files --save writes: name another",
                    file=path,
                )
            stage_file(stack, path, table, "the CSV file")
    for file in out.written:
        scenario = load_scenario(file)
        for variant in (a, b):
            run_scenario(scenario, variant)
    return out.written


def _refuse_other_bytes(path: Path, data: bytes) -> None:
    """Refuse to replace a scenario file already at ``path`` that does not hold ``data``
    (one edited by its user, or saved from other deals); a link, a pipe or a folder there
    is refused by the writer, in its words."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, IsADirectoryError):
        return
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a link
            return
        raise InputError(
            f"is already there and cannot be read ({exc.strerror})", file=path
        ) from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            return
        held = file.read(len(data) + 1) if info.st_size == len(data) else b""
    if held != data:
        raise InputError(
            "is already there and differs from the scenario --save would write (edited, or "
            "saved from other deals): move it, or --save into another folder",
            file=path,
        )


def deal_words(setup: Setup) -> str:
    """``deal 20, simple``, or ``deal 20 (first card 8D exposed), simple`` for a deal
    played with its first card exposed, which is not ``simulate``'s deal 20 as played."""
    exposed = "" if setup.exposed is None else f" (first card {card_str(setup.exposed)} exposed)"
    return f"deal {setup.number}{exposed}, {setup.policy}"


def _exposed_words(setup: Setup) -> str:
    """`` with its first card 8D exposed`` (a misdeal rule's deal), else nothing."""
    return (
        "" if setup.exposed is None else f" with its first card {card_str(setup.exposed)} exposed"
    )


def differences_text(findings: list[Finding], a: Variant, b: Variant) -> str:
    from .render import table

    rows = []
    for f in findings:
        where = deal_words(f.setup) if f.setup else "-"
        change = (
            f"{outcome_text(f.base)} -> {outcome_text(f.changed)}"
            if f.base and f.changed
            else f.note
        )
        rows.append([f.rule, value_text(f.base_value), value_text(f.other_value), where, change])
    found = sum(f.found for f in findings)
    head = (
        f"{counted(len(findings), 'rule')} {'differs' if len(findings) == 1 else 'differ'} "
        f"between {a.id} and {b.id}; {found} change a deal's "
        f"outcome when changed alone in {a.id}:"
    )
    return head + "\n\n" + table(["rule", a.id, b.id, "first deal", "outcome"], rows)
