"""The one helper for the rule-read contract (``play/__init__.py``): a field of a rule
group, read the first time it decides something, then kept.

A stage makes one :class:`Decides` per field it may need when it begins (that reads
nothing), and calls :meth:`Decides.value` only in the branch whose way the value decides:
the first call reads the field (a sweep notes the read, ``study/rule_reads.py``), the
others return what was read. Reading the group itself notes nothing, so a stage takes its
groups when it begins (one pydantic attribute read each, rather than two per use).
"""

from __future__ import annotations

from typing import Generic, TypeVar, cast

__all__ = ["Decides"]

T = TypeVar("T")


class Decides(Generic[T]):
    """``group.<name>``, read at the first :meth:`value` and kept.

    ``self._min_raise: Decides[int] = Decides(rules.betting, "minimum_raise")``: the type
    is the field's, as the profile's model declares it (``tests/test_rule_reads.py`` checks
    every name against the models)."""

    __slots__ = ("_group", "_name", "_read", "_value")

    def __init__(self, group: object, name: str) -> None:
        self._group = group
        self._name = name
        self._read = False
        self._value: T = cast(T, None)
        """``None`` until :meth:`value` reads the field."""

    def value(self) -> T:
        """The field's value, read now if it has not been yet."""
        if not self._read:
            self._value = getattr(self._group, self._name)
            self._read = True
        return self._value

    def keep_from(self, other: Decides[T]) -> None:
        """Take what ``other`` (the same field, of the deal this one's was copied from:
        ``Deal.copy``) has read: the copy's rules give the same value; what was not read
        will be read from this one's group."""
        self._read, self._value = other._read, other._value
