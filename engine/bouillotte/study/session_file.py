"""The session file: the players, the first dealer and the deals, and reading it.

A session file (YAML) names the players, the first dealer and the deals; each deal is given
either by its cards and actions (as in a scenario) or by a shuffle seed and the betting
policies that play it. Reading it checks every field and every name, and reports the file
and line of the first fault.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..rules.docstrings import describe_fields
from ..rules.errors import InputError
from ..rules.idtext import escaped, lower_id_fault
from ..rules.nearest import did_you_mean
from ..rules.resources import bundled
from ..rules.yamlmodels import validated
from ..rules.yamlsource import LocatedFile, read_mapping
from .policies import get_policy


class _Strict(BaseModel):
    # Each field's docstring is its description (describe_fields below the models), so no
    # model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class DealSpec(_Strict):
    """One deal of a session: explicit cards and actions, or a seed and policies."""

    hands: dict[str, list[str]] | None = None
    retourne: str | None = None
    under_retourne: str | None = None
    """The next card of the stock (Foster's carré rule)."""
    exposed: str | None = None
    """A card exposed during the deal (a misdeal where the profile says so): a card of a
    hand, or one left in the pack ("either in the pack or in giving it to a player")."""
    stifled: list[str] = []
    """Players who, winning without a showdown, keep a brelan hidden (Foster's "stifle")."""
    actions: list[str] = []
    seed: int | None = None
    """Shuffle seed; the deal is then played by policies."""
    count: int = Field(default=1, ge=1, le=100_000)
    """With ``seed``: this many deals, seeded ``seed``, ``seed + 1``, ... (at most
    :data:`MAX_SESSION_DEALS`)."""
    policy: str | None = None
    """With ``seed``: the policy every player follows (default: the session's)."""
    policies: dict[str, str] = {}
    """With ``seed``: a policy per player, overriding ``policy``."""
    dealer: str | None = None
    """Optional check: who must deal this deal (the rotation decides it)."""
    buy: dict[str, Annotated[int, Field(ge=1)]] = {}
    """Counters players buy just before this deal (before the first of a seeded block): a
    new stake when the cave is empty, or a top-up where ``stakes.cave_can_be_topped_up``."""
    note: str = ""

    @model_validator(mode="after")
    def _one_source(self) -> DealSpec:
        if (self.hands is None) == (self.seed is None):
            raise ValueError("give either hands (with retourne and actions) or a seed")
        if self.hands is not None and self.retourne is None:
            raise ValueError("hands need a 'retourne'")
        if self.seed is None and (self.count != 1 or self.policy or self.policies):
            raise ValueError("'count', 'policy' and 'policies' go with a 'seed'")
        dealt = [k for k in ("retourne", "under_retourne", "exposed") if getattr(self, k)]
        if self.seed is not None and (dealt or self.stifled):
            named = ", ".join(f"'{k}'" for k in (*dealt, *(["stifled"] if self.stifled else [])))
            raise ValueError(
                f"{named} go with 'hands': a seeded deal is shuffled, and its cards are the "
                "seed's (give hands, retourne and actions to set them)"
            )
        if self.seed is not None and self.actions:
            raise ValueError("a seeded deal is played by policies: give no 'actions'")
        return self


class SessionModel(_Strict):
    id: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=100)
    title: str = ""
    notes: str = ""
    variant: str | None = None
    """The variant to play under when the command line names none."""
    players: list[str] = Field(min_length=2)
    dealer: str
    """Who deals the first deal."""
    caves: dict[str, Annotated[int, Field(ge=1)]] | None = None
    """Each player's first stake (1 or more); by default the variant's cave."""
    rebuy: int | None = Field(default=None, ge=1)
    """The new stake a broke player buys where the profile leaves it to his option
    (``stakes.rebuy_amount: players-option``); by default his first stake."""
    policy: str = "simple"
    """The policy of seeded deals that name none."""
    deals: list[DealSpec] = Field(min_length=1)

    @property
    def deal_count(self) -> int:
        """How many deals the session plays: one per item, ``count`` per seeded item."""
        return sum(1 if spec.seed is None else spec.count for spec in self.deals)

    @field_validator("id", mode="before")
    @classmethod
    def _lower_id(cls, value: object) -> object:
        """An id out of lower case refused in words, as a scenario's is."""
        fault = lower_id_fault(value, "a session's id") if isinstance(value, str) else None
        if fault is not None:
            raise ValueError(fault)
        return value

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        for name in players:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
                raise ValueError(
                    f"player name '{escaped(name)}' must be a word: a letter (a-z, A-Z) first, "
                    "then letters, the digits 0-9 and _"
                )
        if len(set(players)) != len(players):
            raise ValueError("a player is named twice")
        return players


describe_fields(__name__)


@dataclass(frozen=True)
class SessionFile(LocatedFile):
    model: SessionModel


def _sessions_folder() -> Path:
    return bundled("scenarios") / "sessions"


def bundled_sessions() -> list[str]:
    """The names of the bundled sessions (``scenarios/sessions/NAME.yaml``), sorted."""
    return sorted(file.stem for file in _sessions_folder().glob("*.yaml"))


def session_file(name: Path) -> Path:
    """The session file ``name`` stands for: a bundled session by its name (whatever the
    current folder holds), else the file itself. A name that is neither (no ``/``, no
    ``.yaml``) is refused with the closest bundled name, never read as a missing file."""
    text = str(name)
    an_id = "/" not in text and name.suffix not in (".yaml", ".yml")
    if an_id and (_sessions_folder() / f"{text}.yaml").is_file():
        return _sessions_folder() / f"{text}.yaml"
    if an_id and not os.path.lexists(name):
        known = bundled_sessions()
        raise InputError(
            f"no such session file or bundled session {text!r}{did_you_mean(text, known)}; "
            f"the bundled sessions: {', '.join(known)}"
        )
    return name


def load_session(file: Path) -> SessionFile:
    doc = read_mapping(file, "a session: players, dealer, deals, ...")
    data = doc.data if isinstance(doc.data, dict) else {}
    if "deals" not in data and ("id" in data or "actions" in data):
        raise doc.fault(
            ("id",) if "id" in data else ("actions",),
            "this is a scenario file (one deal): play it with bouillotte run FILE, "
            "not as a session",
        )
    session = SessionFile(doc, validated(SessionModel, doc))
    _check_names(session)
    return session


MAX_SESSION_DEALS = 100_000
"""The most deals one session plays, all its items together (as one item's ``count``): a
session keeps every deal to report it (about 6 KB each), so a million took some 6 GB of
memory; 100,000 take about 630 MB and 25 s (docs/simulation.md)."""


def _check_names(session: SessionFile) -> None:
    m = session.model
    if m.deal_count > MAX_SESSION_DEALS:
        raise session.fail(
            f"the session's items add up to {m.deal_count:,} deals; a session plays at most "
            f"{MAX_SESSION_DEALS:,}",
            ("deals",),
        )
    session.check_player(m.dealer, m.players, ("dealer",))
    for name in m.caves or {}:
        session.check_player(name, m.players, ("caves", name))
    for i, spec in enumerate(m.deals):
        for key in ("hands", "policies", "buy"):
            for name in getattr(spec, key) or {}:
                session.check_player(name, m.players, ("deals", i, key, name))
        for k, name in enumerate(spec.stifled):
            session.check_player(name, m.players, ("deals", i, "stifled", k))
        if spec.dealer is not None:
            session.check_player(spec.dealer, m.players, ("deals", i, "dealer"))
        _check_seeds(session, i, spec)
        named = [spec.policy, *spec.policies.values()]
        for policy_name in (n for n in named if n is not None):
            try:
                get_policy(policy_name)
            except InputError as exc:
                raise session.fail(exc.message, ("deals", i), policy_name) from None
    try:
        get_policy(m.policy)
    except InputError as exc:
        raise session.fail(exc.message, ("policy",), m.policy) from None


def _check_seeds(session: SessionFile, index: int, spec: DealSpec) -> None:
    """A seeded item's seeds (``seed`` to ``seed + count - 1``) have at most 20 digits, as
    ``--seed`` and the Python API take them (:func:`~.workers.check_seed`)."""
    from .workers import MAX_SEED

    if spec.seed is None:
        return
    last = spec.seed + spec.count - 1
    if abs(spec.seed) >= MAX_SEED:
        digits = len(str(abs(spec.seed)))
        raise session.fail(
            f"a seed has at most 20 digits, as --seed takes it, not {digits}",
            ("deals", index, "seed"),
            spec.seed,
        )
    if abs(last) >= MAX_SEED:
        raise session.fail(
            f"the {spec.count:,} deals of this item are seeded {spec.seed} to {last}, and a "
            "seed has at most 20 digits, as --seed takes it: give a smaller seed or count",
            ("deals", index, "seed"),
            spec.seed,
        )
