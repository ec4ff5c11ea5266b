"""The engine's hand-written value classes see every slot in ``__eq__`` and ``__hash__``.

A plain class with ``__slots__`` (``Act``, ``PotWon``, ``PlayerResult``…) is built natively
by the compiled engine, where a frozen dataclass runs Python code (CONTRIBUTING, "The
compiled engine"); its equality is written by hand, so a field added to ``__slots__`` and
forgotten in ``__eq__`` would make two different records equal without a word. Every such
class of the package is found here by walking its modules (a new one is checked as soon as
it exists), and changed one slot at a time."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import is_dataclass

import pytest

import bouillotte


def value_classes() -> list[type]:
    """Every class of the package that defines both ``__slots__`` and ``__eq__`` itself (a
    dataclass's are generated from its fields)."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(bouillotte.__path__, "bouillotte."):
        if info.name.endswith("__main__"):
            continue  # running it is what importing it does
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            own = vars(cls)
            if is_dataclass(cls):
                continue  # its __eq__ and __hash__ are generated from its fields
            if "__slots__" in own and "__eq__" in own and own["__slots__"]:
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


def _slots(cls: type) -> tuple[str, ...]:
    """Every slot of the class and of its bases."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = vars(klass).get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return tuple(names)


def _made(cls: type, values: dict[str, object]) -> object:
    record: object = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(record, name, value)
    return record


def unseen_slots(cls: type) -> list[str]:
    """The slots that ``__eq__`` or ``__hash__`` does not see: two records alike but in that
    slot's value (a fresh object, equal to nothing else) that compare equal, or hash alike."""
    values: dict[str, object] = {name: object() for name in _slots(cls)}
    one = _made(cls, values)
    assert one == _made(cls, values), f"{cls.__name__} is not equal to its own copy"
    unseen = []
    for name in values:
        other = _made(cls, {**values, name: object()})
        if one == other or (cls.__hash__ is not None and hash(one) == hash(other)):
            unseen.append(name)
    return unseen


CLASSES = value_classes()


def test_the_value_classes_are_found() -> None:
    names = {cls.__name__ for cls in CLASSES}
    # the records of the log and of the outcome, the actions, the point's and the pools'
    assert {"Act", "Return", "PotWon", "Dealt", "PlayerResult", "Outcome"} <= names
    assert {"Action", "LegalAction", "PointResult", "Award", "Pot", "Transfer"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_equality_and_hash_see_every_slot(cls: type) -> None:
    assert unseen_slots(cls) == []


class _Broken:
    """A value class whose equality forgot a slot, as a hurried edit would leave it."""

    __slots__ = ("player", "seat")

    def __init__(self, player: str, seat: int) -> None:
        self.player = player
        self.seat = seat

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Broken) and self.player == other.player

    def __hash__(self) -> int:
        return hash((self.player, self.seat))


class _HashForgets(_Broken):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Broken) and (self.player, self.seat) == (
            other.player,
            other.seat,
        )

    def __hash__(self) -> int:
        return hash(self.player)


def test_a_slot_that_equality_forgets_is_found() -> None:
    assert unseen_slots(_Broken) == ["seat"]


def test_a_slot_that_the_hash_forgets_is_found() -> None:
    assert unseen_slots(_HashForgets) == ["seat"]
