"""Scenario files: a fixed deal and the players' actions, run under any variant.

The format is the public contract of ``DESIGN.md``. Reading a scenario checks every field,
card and action word and reports the file and line of the first fault.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..play.deal import Deal
from ..play.events import events_json
from ..play.showdown import MissingCardError
from ..rules.cards import RANKS
from ..rules.docstrings import describe_fields
from ..rules.errors import InputError
from ..rules.idtext import escaped, listed_once, lower_id_fault
from ..rules.linetext import Title
from ..rules.nearest import did_you_mean
from ..rules.profiles import Library
from ..rules.readings import rule_value
from ..rules.resources import bundled
from ..rules.variant import Variant
from ..rules.yamlmodels import validated
from ..rules.yamlsource import LocatedFile, PathKey, read_mapping
from .replay import DealPlace, Step, WrittenCards, read_actions, replay, set_up
from .scenario_checks import check_names, check_stifled

Status = Literal["settled", "uncontested", "void", "illegal"]

MAX_ID_LENGTH = 100
"""A scenario id names files (``<id>.html``, ``<id>__<variant>.txt``): it must leave room
within the 255 bytes a file name may have."""


class _Strict(BaseModel):
    # Each field's docstring is its description (describe_fields below the models), so no
    # model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SourceRef(_Strict):
    work: str
    """A work id from the bibliography (``variants/sources.yaml``)."""
    locator: str | None = None
    """Section or page of the example."""
    status: Literal["documented", "reconstructed", "constructed"] = "documented"
    """``documented``: the source's own example; ``reconstructed``: rebuilt where the text
    is damaged or silent (say how in ``notes``); ``constructed``: made for this tool to show
    a rule difference."""


class _Given(_Strict):
    """A block whose keys are each optional, and given with a value: YAML reads ``status:``
    or ``carry: ~`` as null, which would check nothing while looking like a check (a block
    holding only ``status: ~`` was counted with the deals without an expect block)."""

    @field_validator("*", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("no value (null): write the expected value, or leave the key out")
        return value


class ExpectPot(_Given):
    amount: int | None = None
    winner: str | None = None
    contenders: list[str] | None = None


class ExpectBonus(_Given):
    from_: str = Field(alias="from")
    to: str
    amount: int


class Expect(_Given):
    """What the scenario must give under one variant; every key is optional."""

    status: Status | None = None
    pots: list[ExpectPot] | None = None
    bonuses: list[ExpectBonus] | None = None
    net: dict[str, int] | None = None
    cave: dict[str, int] | None = None
    ledger: dict[str, int] | None = None
    carry: int | None = None
    rule: str | None = None
    """For ``status: illegal``: the rule (``group.field``) that forbids the action."""
    step: int | None = None
    """For ``status: illegal``: the 1-based number of the refused action."""

    def states_outcome(self) -> bool:
        """Whether the block states anything of the outcome to check: an empty block
        (``foster: {}``, or each of its keys empty: ``net: {}``) checks nothing, and
        ``check`` counts it with the deals that have no expect block."""
        return any(getattr(self, key) not in (None, {}) for key in Expect.model_fields)


class ExpectReading(Expect):
    """What the scenario must give under one variant with one rule read another way."""

    actions: list[str] | None = None
    """The actions played under this reading, where it changes who may act (default: the
    variant's own actions)."""


class ScenarioModel(_Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=MAX_ID_LENGTH)
    """Unique, used in URLs and file names: lower case, digits and hyphens, at most 100
    characters."""

    @field_validator("id", mode="before")
    @classmethod
    def _visible_id(cls, value: Any) -> Any:
        """An id out of :data:`LOWER_ID` is refused in words, before the pattern: an
        invisible or non-Latin character named, escaped; a capital or ``_`` with the id
        meant."""
        fault = lower_id_fault(value, "a scenario's id") if isinstance(value, str) else None
        if fault is not None:
            raise ValueError(fault)
        return value

    title: Title
    """On one line (``rules/linetext.py``)."""
    source: SourceRef
    notes: str = ""
    """Markdown prose shown on the site."""
    players: list[str] = Field(min_length=2)
    dealer: str
    caves: dict[str, int] | None = None
    """Each player's cave; by default the variant's cave."""
    hands: dict[str, list[str]] | None = None
    retourne: str | None = None
    under_retourne: str | None = None
    """The next card of the stock (Foster's carré rule)."""
    exposed: str | None = None
    """A card exposed during the deal (a misdeal where the profile says so): a card of a
    hand, or one left in the pack ("either in the pack or in giving it to a player")."""
    stifled: list[str] = []
    """Players who, winning without a showdown, keep a brelan hidden rather than show it
    for its payment (Foster: "it is usual to stifle the brelan")."""
    carried_in: int = Field(default=0, ge=0)
    """Counters carried into this deal's pool from a void deal."""
    deck: list[str] | None = None
    """The whole pack from the top, dealt by the variant's dealing rule."""
    seed: int | None = None
    """A shuffle seed, instead of hands or a deck."""
    stock: list[str] | None = None
    """Where the rules have a draw: the cards to be bought after the turned card, in the
    order they are bought (by default the rest of the ``deck``)."""
    favori_rank: Literal["A", "K", "Q", "J", "10", "9", "8", "7"] | None = None
    """Where the favori is a rank declared at the start of play (the Académie's *brelan
    favori*, ``hands.favori_meaning: declared-rank``): the rank declared for this deal."""
    actions: list[str] = []
    variants: list[str] | None = None
    """The variants to run; by default every Bouillotte variant with this number of players
    (a Brelan system, ``game: brelan``, plays only the scenarios that name it here)."""
    actions_by_variant: dict[str, list[str]] = {}
    expect: dict[str, Expect] = {}
    expect_readings: dict[str, dict[str, dict[str, ExpectReading]]] = {}
    """Outcomes under another reading of an ambiguous sentence: variant id, then the rule
    (``group.field``) read another way, then its other value, then what the deal gives when
    the variant plays with that one rule changed."""

    @field_validator("players", "stifled", "variants")
    @classmethod
    def _each_once(cls, names: list[str] | None) -> list[str] | None:
        return None if names is None else listed_once(names)

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        for name in players:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
                raise ValueError(
                    f"player name '{escaped(name)}' must be a word: a letter (a-z, A-Z) first, "
                    "then letters, the digits 0-9 and _"
                )
        return players


describe_fields(__name__)


@dataclass(frozen=True)
class Scenario(LocatedFile):
    model: ScenarioModel

    @property
    def id(self) -> str:
        return self.model.id

    def actions_for(self, variant_id: str) -> tuple[list[str], PathKey]:
        if variant_id in self.model.actions_by_variant:
            return self.model.actions_by_variant[variant_id], ("actions_by_variant", variant_id)
        return self.model.actions, ("actions",)

    def variant_ids(self, library: Library) -> list[str]:
        """The variants the scenario runs under; bad input if its source is not in the
        bibliography, if no variant seats its players, if its ``expect``,
        ``expect_readings`` or ``actions_by_variant`` name a variant it does not run under
        (unknown, or seating another number of players), if an ``expect_readings`` entry is
        the variant's own value, or if its ``favori_rank`` is one none of them can declare.
        Every command that plays a scenario asks this first: each of these faults is one
        line at its place in the file, exit 2, whatever the command."""
        ids = self._runs_under(library)
        self._check_blocks_name(library, ids)
        self._check_readings(library)
        self._check_favori(library, ids)
        return ids

    def _check_blocks_name(self, library: Library, ids: list[str]) -> None:
        """Refuse a block that names a variant the scenario does not run under."""
        for key in ("expect", "expect_readings", "actions_by_variant"):
            for vid in getattr(self.model, key):
                if vid in ids:
                    continue
                if vid not in library.files:
                    reason = (
                        f"unknown variant{did_you_mean(vid, library.ids())}; "
                        f"known: {', '.join(library.ids())}"
                    )
                else:
                    reason = (
                        f"the scenario does not run under {vid} (it runs under "
                        f"{', '.join(ids)}; see 'variants:' and 'players:')"
                    )
                raise self.fail(reason, (key, vid), vid)

    def _check_readings(self, library: Library) -> None:
        """Refuse an ``expect_readings`` entry for the variant's own value of the rule: it
        is no other reading (the variant's own outcome goes in ``expect``). Not where the
        variant rests on a user's replacement of a profile (``replaces: true``): the file
        was written for the one replaced, and the entry is played and compared."""
        for case in reading_cases(self):
            if library.rests_on_a_replacement(case.variant_id):
                continue  # a user's profile in its place: its own value is not the file's
            own = library.get(case.variant_id).value(case.rule)
            if own == case.value:
                raise self.fail(
                    f"this is {case.variant_id}'s own value of {case.rule}: expect_readings "
                    f"is for the other readings (write the outcome under {case.variant_id}'s "
                    f"own reading in expect.{case.variant_id})",
                    case.path,
                    case.path[-1],
                )

    def _check_favori(self, library: Library, ids: list[str]) -> None:
        """Refuse a ``favori_rank`` that no system the scenario runs under can declare: none
        of them has a declared favori (``hands.favori_meaning: declared-rank``), or the pack
        of one that has lacks the rank."""
        rank = self.model.favori_rank
        if rank is None:
            return
        systems = [library.get(vid) for vid in ids]
        for case in reading_cases(self):  # a reading may make the favori a declared rank
            if case.rule.startswith("hands.favori"):
                try:
                    systems.append(reading_variant(library.get(case.variant_id), case))
                except ValueError:
                    continue  # no system: check refuses it when it plays the reading
        declaring = [v for v in systems if _declares_favori(v)]
        if not declaring:
            who = (
                f"{ids[0]} declares no favori"
                if len(ids) == 1
                else f"none of the systems it runs under ({', '.join(ids)}) declares a favori"
            )
            raise self.fail(
                f"{who}: a favori rank is declared only where "
                "hands.favori_meaning is declared-rank (and hands.favori is not none); leave "
                "favori_rank out, or name such a system in 'variants:'",
                ("favori_rank",),
                rank,
            )
        for variant in declaring:
            ranks = variant.rules.table.pack_ranks()
            if rank not in ranks:
                raise self.fail(
                    f"{variant.id}'s pack has no {rank} to declare favori: its ranks are "
                    f"{' '.join(ranks)}",
                    ("favori_rank",),
                    rank,
                )

    def _runs_under(self, library: Library) -> list[str]:
        work = self.model.source.work
        if work not in library.works:
            raise self.fail(
                f"unknown work{did_you_mean(work, library.works)}; "
                f"the bibliography has {', '.join(sorted(library.works))}",
                ("source", "work"),
                work,
            )
        if self.model.variants is not None:
            if not self.model.variants:
                raise self.fail(
                    "names no variant: list the variants to run the scenario under, or leave "
                    "'variants' out to run it under every variant that seats its players",
                    ("variants",),
                )
            for i, vid in enumerate(self.model.variants):
                if vid not in library.files:
                    raise self.fail(
                        f"unknown variant{did_you_mean(vid, library.ids())}; "
                        f"known: {', '.join(library.ids())}",
                        ("variants", i),
                        vid,
                    )
            return list(self.model.variants)
        count = len(self.model.players)
        fitting = [v for v in library.all() if v.players == count and v.game == "bouillotte"]
        if not fitting:
            seats = sorted({v.players for v in library.all()})
            raise self.fail(
                f"no variant seats {count} players (the variants seat "
                f"{', '.join(map(str, seats))}); name players for one of them",
                ("players",),
            )
        # The system of the scenario's own source first (it is the base of comparisons),
        # then the systems that extend no other, then the rest, each by id.
        fitting.sort(key=lambda v: (v.source != work, v.extends is not None, v.id))
        return [v.id for v in fitting]


def _declares_favori(variant: Variant) -> bool:
    """Whether the favori of ``variant`` is a rank declared at the start of play."""
    hands = variant.rules.hands
    return hands.favori_meaning == "declared-rank" and hands.favori != "none"


def load_scenario(file: Path) -> Scenario:
    doc = read_mapping(file, "a scenario: id, title, players, dealer, hands, actions, ...")
    data = doc.data if isinstance(doc.data, dict) else {}
    if "deals" in data and not {"hands", "deck", "seed", "actions"} & data.keys():
        raise doc.fault(
            ("deals",),
            "this is a session file (it lists deals): play it with "
            "bouillotte session FILE, not as a scenario",
        )
    if "rules" in data and "players" not in data:
        raise doc.fault(
            ("rules",),
            "this is a variant profile (it states rules): give its "
            "folder with --variants, or the file with -v, not as a scenario",
        )
    scenario = Scenario(doc, validated(ScenarioModel, doc))
    check_names(scenario)
    return scenario


def start_deal(scenario: Scenario, variant: Variant) -> Deal:
    """Set the scenario's deal up under ``variant`` (cards checked against its pack)."""
    m = scenario.model
    written = WrittenCards(
        hands=m.hands,
        retourne=m.retourne,
        under_retourne=m.under_retourne,
        exposed=m.exposed,
        deck=m.deck,
        stock=m.stock,
    )
    return set_up(
        DealPlace(scenario),
        variant,
        written,
        players=m.players,
        dealer=m.dealer,
        caves=m.caves,
        seed=m.seed,
        carried_in=m.carried_in,
        stifled=m.stifled,
        favori_rank=RANKS.index(m.favori_rank) if m.favori_rank else None,
    )


@dataclass(frozen=True)
class RunResult:
    scenario: Scenario
    variant: Variant
    data: dict[str, Any]
    """The public JSON of ``bouillotte run --json``."""
    steps: list[Step]
    actions_path: PathKey = ("actions",)
    """Where the actions played stand in the scenario file."""

    @property
    def status(self) -> str:
        return str(self.data["status"])

    def refusal(self) -> InputError | None:
        """For an illegal result: the refused action as bad input, at its file and line."""
        error = self.data.get("error")
        if not error:
            return None
        step = int(error["step"])
        return self.scenario.fail(
            f"under {self.variant.id}: {error['message']}",
            (*self.actions_path, step - 1),
            self.steps[-1].action if self.steps else None,
        )


@dataclass(frozen=True)
class _Under:
    """A scenario words the faults of its deal by the variant it is played under."""

    variant: str

    def over(self, deal: Deal, played: int, left: int) -> str:
        return (
            f"under {self.variant} the deal is over ({deal.outcome.status}) after "
            f"{played} action{'' if played == 1 else 's'}, but {left} more "
            f"{'is' if left == 1 else 'are'} written"
        )

    def unfinished(self, deal: Deal, legal: str) -> str:
        return (
            f"under {self.variant} the actions end before the deal does: it is "
            f"{deal.to_act}'s turn (legal: {legal}); add actions, or "
            f"actions_by_variant.{self.variant}"
        )

    def missing(self, error: MissingCardError) -> str:
        return f"{error.message} (variant {self.variant})"


def run_scenario(
    scenario: Scenario,
    variant: Variant,
    actions_of: str | None = None,
    actions: tuple[list[str], PathKey] | None = None,
) -> RunResult:
    """Play the scenario under ``variant``; an illegal action is a result, not a crash.

    ``actions_of`` picks whose ``actions_by_variant`` list to play (default: the variant's
    own), for rule attribution, which plays one variant's actions under changed rules;
    ``actions`` gives the list itself, with its place in the file (a reading's actions).
    """
    texts, path = actions or scenario.actions_for(actions_of or variant.id)
    place = DealPlace(scenario)
    written = read_actions(place, texts, path, players=scenario.model.players)
    deal = start_deal(scenario, variant)
    played = replay(place, deal, written, path, _Under(variant.id))
    head = {"scenario": scenario.id, "variant": variant.id}
    if played.refused is None:
        check_stifled(scenario, deal, variant.id)
        data = {**head, **deal.outcome.to_json()}
    else:
        refused = {
            "step": len(played.steps),
            "rule": played.refused.rule,
            "message": played.refused.describe(),
        }
        data = {
            **head,
            "status": "illegal",
            "error": refused,
            "pots": [],
            "bonuses": [],
            "carry": 0,
            "players": {},
            "events": events_json(deal.events),
        }
    return RunResult(scenario, variant, data, played.steps, path)


def _no_scenario_in(folder: Path) -> str:
    """Why a folder given holds no scenario (a check of it checked nothing, and said 0
    runs with exit 0): its files are ``.yml``, or in folders below it, or there are none."""
    if any(folder.glob("*.yml")):
        return "holds no .yaml file, only .yml ones: rename them *.yaml"
    if any(folder.glob("*/*.yaml")):
        return "holds no .yaml file of its own (the folders below it are not read): give each"
    return "holds no scenario (.yaml) file"


class ScenarioLibrary:
    """The bundled scenarios and the user's own folders or files."""

    def __init__(self, paths: Iterable[Path] = (), include_bundled: bool = True) -> None:
        self.files: list[Path] = []
        roots = [bundled("scenarios")] if include_bundled else []
        seen: set[str] = set()  # a file given twice (chk and chk/t3.yaml) is read once
        for root in [*roots, *paths]:
            if root.is_dir() and root not in roots and not any(root.glob("*.yaml")):
                raise InputError(_no_scenario_in(root), file=root)
            if root.is_dir() or root.is_file():
                for file in sorted(root.glob("*.yaml")) if root.is_dir() else [root]:
                    if os.path.realpath(file) not in seen:
                        seen.add(os.path.realpath(file))
                        self.files.append(file)
            elif root.exists():
                raise InputError(
                    "not a scenario file nor a folder (a named pipe, a device or a socket): "
                    "give a YAML file or a folder of them",
                    file=root,
                )
            else:
                raise InputError("no such scenario file or folder", file=root)
        self._loaded: dict[str, Scenario] | None = None

    def all(self) -> list[Scenario]:
        if self._loaded is None:
            loaded: dict[str, Scenario] = {}
            for file in self.files:
                scenario = load_scenario(file)
                if scenario.id in loaded:
                    raise scenario.fail(
                        f"the id {scenario.id!r} is used by {loaded[scenario.id].file} too",
                        ("id",),
                    )
                loaded[scenario.id] = scenario
            self._loaded = loaded
        return list(self._loaded.values())

    def find(self, name: str) -> Scenario:
        """A scenario by file path or by id."""
        path = Path(name)
        # An id (no '/', no '.yaml') is the scenario's, whatever the current folder holds:
        # a folder named foster-sight (an --out) hid the bundled scenario of that id.
        an_id = "/" not in name and path.suffix not in (".yaml", ".yml")
        if an_id and any(s.id == name for s in self.all()):
            return next(s for s in self.all() if s.id == name)
        if path.suffix in (".yaml", ".yml") or path.exists():
            if path.is_dir():
                raise InputError(
                    "a folder, not a scenario file: give a scenario's id or its .yaml file "
                    "(`bouillotte check FOLDER` runs every scenario of a folder, and "
                    "--scenarios FOLDER finds them by id)",
                    file=path,
                )
            if path.exists() and not path.is_file():
                raise InputError(
                    "not a regular file (a named pipe, a device or a socket): give a "
                    "scenario's .yaml file",
                    file=path,
                )
            if not path.is_file():
                raise InputError("no such scenario file", file=path)
            return load_scenario(path)
        for scenario in self.all():
            if scenario.id == name:
                return scenario
        known = ", ".join(sorted(s.id for s in self.all()))
        raise InputError(
            f"unknown scenario {name!r}{did_you_mean(name, (s.id for s in self.all()))}; "
            f"known scenarios: {known}"
        )


@dataclass(frozen=True)
class ReadingCase:
    """One ``expect_readings`` entry: a variant played with one rule read another way."""

    variant_id: str
    rule: str
    value: Any
    """The rule's value under this reading (converted to the rule's type)."""
    expect: ExpectReading
    path: PathKey
    """Where the entry stands in the scenario file."""


def reading_cases(scenario: Scenario) -> list[ReadingCase]:
    """Every reading a scenario expects an outcome for, in file order."""
    cases = []
    for vid, by_rule in scenario.model.expect_readings.items():
        for rule, by_value in by_rule.items():
            for text, expect in by_value.items():
                path: PathKey = ("expect_readings", vid, rule, text)
                cases.append(ReadingCase(vid, rule, rule_value(rule, text), expect, path))
    return cases


def reading_variant(variant: Variant, case: ReadingCase) -> Variant:
    """``variant`` with the case's one rule changed (the label names the reading)."""
    return variant.with_values({case.rule: case.value}, label=variant.id)


def run_reading(scenario: Scenario, variant: Variant, case: ReadingCase) -> RunResult:
    """Play the scenario under ``variant`` with the case's rule read its way."""
    changed = reading_variant(variant, case)
    actions = (case.expect.actions, (*case.path, "actions")) if case.expect.actions else None
    return run_scenario(scenario, changed, actions_of=variant.id, actions=actions)
