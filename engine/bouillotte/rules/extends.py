"""The ``extends:`` chains of a folder's profiles, measured: a chain too long, one that goes
round in a cycle, one that extends an unknown profile or an ``extends:`` that names none is
refused at the ``extends:`` line of the profile at fault."""

from __future__ import annotations

from collections.abc import Callable, Collection

from .errors import InputError
from .nearest import did_you_mean
from .yamlsource import Located

MAX_EXTENDS = 32
"""The longest chain of ``extends:`` (the bundled profiles use two)."""


class ExtendsChains:
    """The ``extends:`` chains of the profiles ``files`` (their ids): ``doc`` gives a
    profile's file, read, and ``parent`` the id of the profile it extends (or ``None``)."""

    def __init__(
        self,
        files: Collection[str],
        doc: Callable[[str], Located],
        parent: Callable[[str], str | None],
    ) -> None:
        self.files = files
        self.doc = doc
        self.parent = parent
        self.lengths: dict[str, int] = {}
        """The length of each profile's ``extends:`` chain measured (:meth:`length`)."""

    def length(self, variant_id: str) -> int:
        """How many profiles the ``extends:`` chain of ``variant_id`` holds, itself and the
        one that extends no other included: at most :data:`MAX_EXTENDS`.

        The chain is followed down to its end (or to a profile measured before), and each
        profile on it measured from that end: a chain too long is refused at its first
        profile over the limit, a cycle at the profile of the cycle whose id sorts first,
        whichever profile was asked for, and whatever was read before."""
        below: list[str] = []
        current: str | None = variant_id
        while current is not None and current not in self.lengths:
            if current in below:
                cycle = below[below.index(current) :]
                first = cycle.index(min(cycle))
                cycle = cycle[first:] + cycle[:first]
                raise self.fault(
                    cycle[0], f"'extends:' goes round in a cycle: {' -> '.join((*cycle, cycle[0]))}"
                )
            below.append(current)
            self._check_names_one(current)
            parent = self.parent(current)
            if parent is not None and parent not in self.files:
                ids = sorted(self.files)
                raise self.fault(
                    current,
                    f"extends an unknown profile{did_you_mean(parent, ids)}; "
                    f"known profiles: {', '.join(ids)}",
                )
            current = parent
        length = 0 if current is None else self.lengths[current]
        for profile in reversed(below):
            length += 1
            if length > MAX_EXTENDS:
                raise self.fault(
                    profile,
                    f"'extends:' chains more than {MAX_EXTENDS} profiles (this one and the "
                    f"{length - 1} it is built on); build on a shorter chain",
                )
            self.lengths[profile] = length
        return self.lengths[variant_id]

    def _check_names_one(self, variant_id: str) -> None:
        """Refuse an ``extends:`` that names no profile (left empty, ``~`` or blank): the
        profile would be read as one that extends no other, and refused for every rule it
        does not state, far from the line at fault."""
        data = self.doc(variant_id).data
        if not isinstance(data, dict) or "extends" not in data:
            return
        parent = data["extends"]
        if parent is None or (isinstance(parent, str) and not parent.strip()):
            doc = self.doc(variant_id)
            raise InputError(
                "'extends:' names no profile: write the id of the profile this one is built "
                "on, or leave 'extends:' out for a profile that states every rule",
                file=doc.file,
                line=doc.line(("extends",)),
                field="extends",
                value=parent,
                has_value=parent is not None,
            )

    def fault(self, variant_id: str, message: str) -> InputError:
        """Bad input at the ``extends:`` line of ``variant_id``."""
        doc = self.doc(variant_id)
        return InputError(
            message,
            file=doc.file,
            line=doc.line(("extends",)),
            field="extends",
            value=self.parent(variant_id),
            has_value=True,
        )
