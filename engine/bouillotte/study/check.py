"""``bouillotte check``: run scenarios and compare with their ``expect`` blocks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..rules.errors import InputError
from ..rules.profiles import Library
from ..rules.yamlmodels import pydantic_message
from .render import counted
from .scenario import (
    Expect,
    ReadingCase,
    RunResult,
    Scenario,
    reading_cases,
    run_reading,
    run_scenario,
)


@dataclass(frozen=True)
class Mismatch:
    scenario: str
    variant: str
    file: str
    line: int | None
    message: str

    def describe(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.scenario} under {self.variant}: {self.message}"


@dataclass(frozen=True)
class Verdict:
    """One deal ``check`` played (a scenario under a system, or under one of its other
    readings) and what it found: ``agrees`` with its expect block, ``differs`` (each way in
    ``problems``) or ``unchecked`` (no expect block); ``error``: a scenario that could not be
    read or played (its one problem, no system)."""

    scenario: str
    variant: str | None
    verdict: str
    file: str
    line: int | None
    status: str | None = None
    """The deal's status (settled, uncontested, void, illegal); none if not played."""
    rule: str | None = None
    """For a reading: the rule read another way."""
    value: Any = None
    """For a reading: the rule's value under it."""
    problems: tuple[str, ...] = ()


@dataclass
class CheckReport:
    runs: int = 0
    checked: int = 0
    unchecked: list[tuple[str, str]] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    """Every deal played, in order, with its verdict (``check --csv``)."""

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.errors


def compare_expect(result: RunResult, expect: Expect) -> list[str]:
    """Every way the result differs from what the scenario expects.

    A refused action where none is expected, or none where one is, is the one difference
    (the pots, bonuses and chips of a deal that was not played out are not differences)."""
    data = result.data
    refused = data["status"] == "illegal"
    refusal_expected = expect.status == "illegal" or (
        expect.status is None and (expect.rule is not None or expect.step is not None)
    )
    if refused and not refusal_expected:
        error = data["error"]
        wanted = f"expected {expect.status}" if expect.status else "expected it played out"
        return [f"step {error['step']} is refused, {wanted}: {error['message']}"]
    if refusal_expected and not refused:
        return [f"no action is refused (status {data['status']}), expected a refusal"]
    problems: list[str] = []
    if expect.status is not None and data["status"] != expect.status:
        detail = f" ({data['error']['message']})" if data.get("error") else ""
        problems.append(f"status is {data['status']}, expected {expect.status}{detail}")
    error = data.get("error") or {}
    if expect.rule is not None and error.get("rule") != expect.rule:
        problems.append(f"refused by rule {error.get('rule')}, expected {expect.rule}")
    if expect.step is not None and error.get("step") != expect.step:
        problems.append(f"refused at step {error.get('step')}, expected {expect.step}")
    if expect.pots is not None:
        pots = data["pots"]
        if len(pots) != len(expect.pots):
            problems.append(
                f"{counted(len(pots), 'pot')}, expected {len(expect.pots)}: {_pots(pots)}"
            )
        for i, (got, want) in enumerate(zip(pots, expect.pots, strict=False)):
            for key in ("amount", "winner", "contenders"):
                wanted = getattr(want, key)
                if wanted is not None and got[key] != wanted:
                    problems.append(f"pot {i + 1} {key} is {got[key]}, expected {wanted}")
    if expect.bonuses is not None:
        got_b = Counter((b["from"], b["to"], b["amount"]) for b in data["bonuses"])
        want_b = Counter((b.from_, b.to, b.amount) for b in expect.bonuses)
        if got_b != want_b:
            problems.append(f"bonuses are {_bonuses(got_b)}, expected {_bonuses(want_b)}")
    for key in ("net", "cave", "ledger"):
        wanted_map: dict[str, int] | None = getattr(expect, key)
        for name, wanted_value in (wanted_map or {}).items():
            got_value = data["players"].get(name, {}).get(key)
            if got_value != wanted_value:
                problems.append(f"{key} of {name} is {got_value}, expected {wanted_value}")
    if expect.carry is not None and data["carry"] != expect.carry:
        problems.append(f"carry is {data['carry']}, expected {expect.carry}")
    return problems


def _pots(pots: Sequence[dict[str, Any]]) -> str:
    return "; ".join(f"{p['amount']} to {p['winner']}" for p in pots) or "none"


def _bonuses(counter: Counter[tuple[str, str, int]]) -> str:
    items = sorted(counter.elements())
    return ", ".join(f"{a}->{b} {n}" for a, b, n in items) or "none"


def check(scenarios: Sequence[Scenario], library: Library) -> CheckReport:
    report = CheckReport()
    for scenario in scenarios:
        try:
            ids = scenario.variant_ids(library)  # checks the variants its blocks name
            for vid in ids:
                result = run_scenario(scenario, library.get(vid))
                report.runs += 1
                expect = scenario.model.expect.get(vid)
                file = str(scenario.file)
                if expect is None or not expect.states_outcome():
                    report.unchecked.append((scenario.id, vid))
                    report.verdicts.append(
                        Verdict(scenario.id, vid, "unchecked", file, None, result.status)
                    )
                    continue
                report.checked += 1
                line = scenario.doc.line(("expect", vid))
                problems = compare_expect(result, expect)
                for problem in problems:
                    report.mismatches.append(Mismatch(scenario.id, vid, file, line, problem))
                verdict = "differs" if problems else "agrees"
                report.verdicts.append(
                    Verdict(
                        scenario.id,
                        vid,
                        verdict,
                        file,
                        line,
                        result.status,
                        problems=tuple(problems),
                    )
                )
            _check_readings(scenario, library, report)
        except InputError as exc:  # one bad profile is one error, whatever reads it
            if all(exc.describe() != e.describe() for e in report.errors):
                report.errors.append(exc)
                where = str(exc.file) if exc.file else str(scenario.file)
                report.verdicts.append(
                    Verdict(scenario.id, None, "error", where, exc.line, problems=(exc.describe(),))
                )
    return report


def _check_readings(scenario: Scenario, library: Library, report: CheckReport) -> None:
    """Play each ``expect_readings`` entry: the variant with that one rule changed."""
    for case in reading_cases(scenario):
        label = f"{case.variant_id} reading {case.rule} as {case.value}"
        line = scenario.doc.line(case.path)

        def mismatch(
            why: str,
            status: str | None = None,
            label: str = label,
            line: int | None = line,
            case: ReadingCase = case,
        ) -> None:
            report.mismatches.append(Mismatch(scenario.id, label, str(scenario.file), line, why))
            verdict = Verdict(
                scenario.id,
                case.variant_id,
                "differs",
                str(scenario.file),
                line,
                status,
                case.rule,
                case.value,
                (why,),
            )
            report.verdicts.append(verdict)

        variant = library.get(case.variant_id)  # not its own value (Scenario.variant_ids)
        try:
            result = run_reading(scenario, variant, case)
        except ValueError as exc:  # the changed rules are not a valid system: bad input
            reason = (
                pydantic_message(exc.errors()[0])
                if isinstance(exc, ValidationError)
                else str(exc).splitlines()[0]
            )
            raise scenario.fail(
                f"{label}: the rules read so are no system ({reason})", case.path
            ) from None
        report.runs += 1
        if not case.expect.states_outcome():  # played (its actions fit), but checks nothing
            report.unchecked.append((scenario.id, label))
            report.verdicts.append(
                Verdict(
                    scenario.id,
                    case.variant_id,
                    "unchecked",
                    str(scenario.file),
                    line,
                    result.status,
                    case.rule,
                    case.value,
                )
            )
            continue
        report.checked += 1
        problems = compare_expect(result, case.expect)
        for problem in problems:
            mismatch(problem, result.status)
        if not problems:
            report.verdicts.append(
                Verdict(
                    scenario.id,
                    case.variant_id,
                    "agrees",
                    str(scenario.file),
                    line,
                    result.status,
                    case.rule,
                    case.value,
                )
            )
