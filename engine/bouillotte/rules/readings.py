"""Readings: the sentences of a source that can be read two ways, each way a rule value.

``variants/readings.yaml`` lists, for each such sentence, the rule whose values are its
readings, the source's exact words, the question they leave open, what each value means,
and the scenario in which the readings give different chips. It is cited data, loaded with
the profiles (like the bibliography) and checked at file and line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from .docstrings import describe_fields
from .nearest import did_you_mean
from .profile import GROUPS, rule_paths
from .variant import value_text
from .yamlmodels import validated
from .yamlsource import Located, read_mapping

READINGS_FILE = "readings.yaml"


class _Strict(BaseModel):
    # Each field's docstring is its description (describe_fields below the models), so no
    # model is built before then.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ReadingValue(_Strict):
    """One way of reading the sentence: a value of the rule, and what it means."""

    value: Any
    """The rule's value under this reading (as written in a profile)."""
    meaning: str
    """What the sentence says, read this way, in a sentence a historian can check."""


class Reading(_Strict):
    """One ambiguous sentence of a source and its readings."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    """Unique, used in URLs."""
    rule: str
    """The rule (``group.field``) whose values are the readings."""
    source: str
    """A work id from the bibliography."""
    locator: str
    """Section or page of the sentence."""
    quote: str
    """The source's exact words."""
    question: str
    """The question the words leave open, in one sentence."""
    readings: list[ReadingValue] = Field(min_length=2)
    """Each reading: a value of the rule and its meaning (at least two)."""
    scenario: str
    """The id of a scenario in which the readings give different chips."""
    variant: str
    """The variant whose rule is re-read in that scenario (its ``expect_readings`` key)."""

    @field_validator("rule")
    @classmethod
    def _known_rule(cls, rule: str) -> str:
        if rule not in rule_paths():
            raise ValueError(
                f"unknown rule {rule!r}{did_you_mean(rule, rule_paths())}; "
                "a rule is written group.field"
            )
        return rule

    def values(self) -> list[Any]:
        return [r.value for r in self.readings]

    def meaning_of(self, value: Any) -> str | None:
        for reading in self.readings:
            if reading.value == value:
                return reading.meaning
        return None


class ReadingsFile(_Strict):
    readings: list[Reading]


describe_fields(__name__)


def rule_value(path: str, value: Any, *, strict: bool = False) -> Any:
    """``value`` checked (and converted) as a value of the rule ``path``; ``strict`` for a
    value written in YAML, which has its own type (``"2"`` or ``true`` is no whole
    number, as in a profile), rather than typed on the command line as text."""
    return _adapter(path).validate_python(value, strict=strict or None)


@cache
def _adapter(path: str) -> TypeAdapter[Any]:
    """The validator of the rule ``path``'s values, built once (every scenario's
    ``expect_readings`` checks its values with it)."""
    group, name = path.split(".")
    info = GROUPS[group].model_fields[name]
    annotation: Any = info.annotation
    # with the rule's own bounds (a cave of 1 or more): a reading of a value no profile may
    # hold is refused where it is written, not found out by playing it
    return TypeAdapter(Annotated[annotation, *info.metadata] if info.metadata else annotation)


def load_readings(
    file: Path,
    works: set[str],
    quote_fault: Callable[[str, str], str | None] | None = None,
    variants: set[str] | None = None,
    places: dict[str, tuple[Path, int | None]] | None = None,
) -> dict[str, Reading]:
    """Read ``readings.yaml``: each reading by its rule path; faults at file and line (with
    ``quote_fault``, a quote not found in its work's text is one; with ``variants``, a
    ``variant`` that is none of them). ``places`` receives, for each rule, the file and
    line of its ``scenario`` (checked by the commands that know the scenarios)."""
    doc = read_mapping(file, "a list 'readings:' of ambiguous sentences")
    model = validated(ReadingsFile, doc)
    found: dict[str, Reading] = {}
    ids: set[str] = set()
    for i, reading in enumerate(model.readings):
        _check(doc, i, reading, works)
        if variants is not None and reading.variant not in variants:
            raise doc.fault(
                ("readings", i, "variant"),
                f"unknown variant{did_you_mean(reading.variant, variants)}; "
                f"the variants are {', '.join(sorted(variants))}",
                reading.variant,
            )
        if places is not None:
            places[reading.rule] = (file, doc.line(("readings", i, "scenario")))
        fault = quote_fault(reading.source, reading.quote) if quote_fault else None
        if fault is not None:
            raise doc.fault(("readings", i, "quote"), fault)
        if reading.id in ids:
            raise doc.fault(("readings", i, "id"), "this id is used twice", reading.id)
        if reading.rule in found:
            raise doc.fault(("readings", i, "rule"), "this rule has readings twice", reading.rule)
        ids.add(reading.id)
        found[reading.rule] = reading
    return found


def _check(doc: Located, index: int, reading: Reading, works: set[str]) -> None:
    if reading.source not in works:
        raise doc.fault(
            ("readings", index, "source"),
            f"unknown source id{did_you_mean(reading.source, works)}; "
            f"the bibliography has {', '.join(sorted(works))}",
            reading.source,
        )
    seen: list[Any] = []
    for j, item in enumerate(reading.readings):
        where = ("readings", index, "readings", j, "value")
        if isinstance(item.value, dict | list):
            raise doc.fault(
                where,
                f"a reading is one value, played as --reading {reading.rule}=VALUE; "
                f"{reading.rule} holds several (a mapping or a list), so no reading of it "
                "can be played",
            )
        try:
            value = rule_value(reading.rule, item.value, strict=True)
        except ValidationError:
            raise doc.fault(where, f"not a value of the rule {reading.rule}", item.value) from None
        if value in seen:
            raise doc.fault(where, "this reading is listed twice", item.value)
        seen.append(value)


READING_MARK = "one reading of an ambiguous sentence; see `bouillotte readings`"
"""How the terminal marks a rule whose value is one reading of an ambiguous sentence."""


def reading_of(readings: dict[str, Reading], path: str, value: Any) -> Reading | None:
    """The ambiguous sentence of which a profile's ``value`` of rule ``path`` is one reading,
    if any: a value that is none of the sentence's readings comes from another text (Foster's
    documented point over all exposed cards is no reading of Britannica's sentence)."""
    reading = readings.get(path)
    if reading is None or not any(rule_value(path, r.value) == value for r in reading.readings):
        return None
    return reading


def reading_json(reading: Reading, value: Any) -> dict[str, Any]:
    """The readings of a rule, seen from a profile whose value is ``value``: what its own
    value means and the other readings with their meaning."""
    chosen = [r for r in reading.readings if rule_value(reading.rule, r.value) == value]
    return {
        "id": reading.id,
        "question": reading.question,
        "source": reading.source,
        "locator": reading.locator,
        "quote": reading.quote,
        "scenario": reading.scenario,
        "this_reading": chosen[0].meaning if chosen else None,
        "other_readings": [
            {"value": r.value, "meaning": r.meaning} for r in reading.readings if r not in chosen
        ],
    }


def reading_takers(
    readings: dict[str, Reading], variants: Sequence[Any]
) -> dict[str, dict[str, list[str]]]:
    """For each rule with readings: each reading's value (as written) -> the ids of the
    ``variants`` (engine variants) taking it, in their order."""
    found: dict[str, dict[str, list[str]]] = {}
    for path, reading in readings.items():
        by_value = found.setdefault(path, {})
        for item in reading.readings:
            value = rule_value(path, item.value)
            by_value[str(item.value)] = [v.id for v in variants if v.value(path) == value]
    return found


def readings_json(
    readings: dict[str, Reading], takers: dict[str, dict[str, list[str]]]
) -> list[dict[str, Any]]:
    """Every reading, with the variants that take each value (``takers[rule][value]``)."""
    out = []
    for reading in readings.values():
        out.append(
            {
                "id": reading.id,
                "rule": reading.rule,
                "question": reading.question,
                "source": reading.source,
                "locator": reading.locator,
                "quote": reading.quote,
                "scenario": reading.scenario,
                "variant": reading.variant,
                "readings": [
                    {
                        "value": r.value,
                        "meaning": r.meaning,
                        "variants": takers.get(reading.rule, {}).get(str(r.value), []),
                    }
                    for r in reading.readings
                ],
            }
        )
    return out


def parse_reading(text: str, readings: dict[str, Reading]) -> tuple[Reading, Any]:
    """A reading to play, written ``rule=value`` (``point.suit_tie=eldest-first``): the
    sentence it re-reads and the rule's value, checked against the readings and the
    schema. Bad input names the valid rules or values."""
    from .errors import InputError

    rule, sep, written = text.partition("=")
    known = ", ".join(sorted(readings)) or "none"
    if any(c.isspace() for c in text):
        raise InputError(
            f"a reading holds no space: write {''.join(text.split())!r}",
            field="--reading",
            value=text,
            has_value=True,
        )
    if not sep or not rule or not written:
        raise InputError(
            f"write a reading as RULE=VALUE (e.g. point.suit_tie=eldest-first); "
            f"the rules with readings: {known}",
            field="--reading",
            value=text,
            has_value=True,
        )
    reading = readings.get(rule)
    if reading is None:
        what = f"{rule!r} has no readings" if rule in rule_paths() else f"unknown rule {rule!r}"
        raise InputError(f"{what}; the rules with readings: {known}", field="--reading")
    values = ", ".join(value_text(rule_value(rule, v)) for v in reading.values())
    try:
        value = rule_value(rule, written)
    except ValidationError:
        value = None
    # Written as the tool writes the value: pydantic reads "020", "+20" and "20.0" as 20,
    # and "n", "0", "off" and "FALSE" as no.
    if value is None or value_text(value) != written or reading_of(readings, rule, value) is None:
        raise InputError(
            f"{written!r} is not a reading of {rule}; its readings: {values}",
            field="--reading",
        )
    return reading, value


def parse_readings(texts: Sequence[str], readings: dict[str, Reading]) -> list[tuple[Reading, Any]]:
    """Every ``--reading`` given, each parsed by :func:`parse_reading`; a rule given two
    readings (``--reading R=a --reading R=b``) is refused: a deal plays one value of it."""
    from .errors import InputError

    chosen: dict[str, tuple[Reading, Any]] = {}
    for text in texts:
        reading, value = parse_reading(text, readings)
        if reading.rule in chosen:
            first = value_text(chosen[reading.rule][1])
            what = (
                f"the reading {reading.rule}={first} is given twice"
                if first == value_text(value)
                else f"the rule {reading.rule} is given two readings ({first} and "
                f"{value_text(value)}); a deal plays one"
            )
            raise InputError(
                f"{what}: give one --reading per rule",
                field="--reading",
                value=text,
                has_value=True,
            )
        chosen[reading.rule] = (reading, value)
    return list(chosen.values())
