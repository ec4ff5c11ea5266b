"""Where a profile's rules are at fault: the first error of their validation, at the file
and line of the rule it names.

A rule stated in the profile being read is named where it stands. The profiles it extends
are checked first, each on its own (a parent's bad rule is refused at the parent's line,
whichever profile is read); so a fault at a rule it inherits, as a check across rules
(``table.packs: 16 cards cannot deal 5 to each of 3 players``), is one the profile being read
made: it is named first, since what it changed (``hand_size: 5``) is what the inherited rule
no longer fits, and the line of the other file comes after, as the rule checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from .errors import InputError
from .yamlmodels import refusal
from .yamlsource import Located, PathKey


class _Stated(Protocol):
    """A rule's value as a profile states it (``profiles._Entry``)."""

    @property
    def doc(self) -> Located: ...
    @property
    def path(self) -> PathKey: ...
    @property
    def profile(self) -> str: ...


def located(
    exc: ValidationError, entries: Mapping[str, _Stated], doc: Located, model: type[BaseModel]
) -> InputError:
    """The first validation error of the rules of the profile ``doc`` (validated as
    ``model``), at the file and line at fault (``entries``: each rule path with the profile
    that states it). The profiles it extends were checked first, each on its own: a fault
    at a rule it inherits is one its own rules made."""
    error = exc.errors()[0]
    found = refusal(model, exc)  # a union's field, not one of its forms (``.int``)
    loc = [str(p) for p in found.loc]
    message = found.message
    has_value = found.has_value
    value: Any = found.value
    if len(loc) < 2:  # a check across rules names its rule first: "table.packs: ..."
        named = re.match(r"(\w+)\.(\w+): ", message)
        if named:
            loc = [named.group(1), named.group(2)]
            message = message[named.end() :]
            has_value = False
    path = f"{loc[0]}.{loc[1]}" if len(loc) >= 2 else ""
    field = "rules." + ".".join(loc)
    if path in entries:
        entry = entries[path]
        rest = tuple(loc[2:])
        line = entry.doc.lines.get((*entry.path, "value", *rest)) or entry.doc.line(
            (*entry.path, *rest)
        )
        if entry.doc.file != doc.file:
            return InputError(
                f"{message} (the rules this profile states no longer fit {path}, which it "
                f"inherits from {entry.profile}: {entry.doc.file}:{line})",
                file=doc.file,
                line=doc.line(("rules",)),
                field=field,
            )
        return InputError(
            message,
            file=entry.doc.file,
            line=line,
            field=field,
            value=value,
            has_value=has_value and not isinstance(value, dict | list),
        )
    if error["type"] == "missing" and len(loc) >= 2:
        message = (
            f"the rule {loc[0]}.{loc[1]} is not stated: a profile that extends no other "
            "must state every rule"
        )
    return InputError(message, file=doc.file, line=doc.line(("rules",)), field=field)
