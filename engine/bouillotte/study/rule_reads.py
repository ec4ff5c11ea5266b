"""Which rules a deal read: a variant whose rules note every rule read while a deal is
played, so that a sweep knows which combinations can change that deal at all.

The play of a deal is a function of its cards, its policy's generator and the rules it
reads: a system that differs from the base only in rules the base's play of the deal
never read plays it exactly as the base did, action for action, and needs no play of its
own. :func:`recording` gives a copy of a variant whose rule groups are instances of
subclasses of the profile's own models (so every ``isinstance`` check, compiled or not,
still holds) that add ``group.field`` to :data:`READS` at every read of a field. A rule
made of parts (a bonus) is noted as read whenever it is read, whichever part is used.

Nothing in ``play/`` knows of it: the recorded variant is handed to ``new_deal`` as any
other. What is read through a memory kept across deals would escape the record, so the
caller plays each recorded deal with a policy of its own (a policy remembers what a hand
is worth for each reading of hands); the caches of ``play/`` are keyed by values read from
the rules first, which are noted.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from pydantic import BaseModel

from ..rules.profile import GROUPS, Rules
from ..rules.variant import Variant

READS: set[str] = set()
"""The rules read since the caller last cleared it (``group.field``)."""


@cache
def _recording_class(model: type[BaseModel], group: str) -> type[BaseModel]:
    """A subclass of ``model`` whose fields' reads are noted as ``group.field``."""
    paths = {name: f"{group}.{name}" for name in model.model_fields}
    note = READS.add
    read = object.__getattribute__

    def __getattribute__(self: BaseModel, name: str) -> Any:
        path = paths.get(name)
        if path is not None:
            note(path)
        return read(self, name)

    namespace = {"__getattribute__": __getattribute__, "__module__": __name__}
    return type(f"Recording{model.__name__}", (model,), namespace)


def recording(variant: Variant) -> Variant:
    """``variant`` with rules that note every read in :data:`READS` (the same values, and
    instances of the same models)."""
    rules = variant.rules
    groups: dict[str, Any] = {}
    for group, model in GROUPS.items():
        value = getattr(rules, group)
        fields = {name: getattr(value, name) for name in model.model_fields}
        groups[group] = _recording_class(model, group).model_construct(**fields)
    recorded = Rules.model_construct(**groups)
    return replace(variant, rules=recorded)
