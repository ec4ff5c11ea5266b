"""``bouillotte strong bands``: the effect of each rule on which two systems differ, under
strong play, as a band over several CFR+ solutions (registered on ``strong``'s app in
``commands/strong.py``, whose module it would push past 600 lines)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..rules.errors import UserError
from ..rules.idtext import escaped
from ..rules.together import Together
from .options import (
    WHOLE_NUMBER,
    CsvFile,
    TidyJsonFlag,
    check_tidy_targets,
    report_wanted,
    write_tidy,
)
from .strong_options import Bets, Classes, Raises, Straddles, need_numpy
from .typed_args import whole_number_refusal

if TYPE_CHECKING:
    from ..rules.variant import Variant
    from ..strong.abstraction import Abstraction


def bands_command(
    variants: Annotated[
        list[str],
        typer.Option(
            "--variant",
            "-v",
            metavar="SYSTEM",
            help="Give -v SYSTEM twice: the first system, whose values are switched, then "
            "the second, whose values they are switched to (-v foster -v pagat).",
        ),
    ],
    on: Annotated[
        str,
        typer.Option(
            metavar="SYSTEM",
            help="The system whose abstracted game is solved (default foster-three: "
            "Foster's rules for three players).",
        ),
    ] = "foster-three",
    seeds: Annotated[
        str, typer.Option(metavar="N,N,...", help="The seeds of the sampled deals.")
    ] = "1,2,3",
    iterations: Annotated[int, typer.Option(metavar="N", help="CFR+ iterations.", min=1)] = 400,
    cave: Annotated[int, typer.Option(metavar="N", help="Every cave.", min=1)] = 20,
    bets: Bets = "pot",
    raises: Raises = 2,
    straddles: Straddles = True,
    deals: Annotated[int, typer.Option(metavar="N", help="Deals sampled by chance.", min=1)] = 100,
    classes: Classes = 4,
    rule: Annotated[
        list[str] | None,
        typer.Option(metavar="RULE", help="Only these rules (not stored with --write)."),
    ] = None,
    write: Annotated[bool, typer.Option("--write", help="Store the bands.")] = False,
    csv_file: CsvFile = None,
    as_json: TidyJsonFlag = False,
) -> None:
    """The effect of each rule on which two systems differ, under strong play: the range
    over several CFR+ solutions (one per seed of the sampled deals) of the seats' values
    and the pools awarded, each solution's NashConv beside it.

    Each rule is switched alone to the second system's value on the solved system's
    abstracted game (docs/strong-play.md); a rule under which the game stays the same
    is reported as not acting, one the solved system already holds at the second's value
    as not switched. --write stores the bands of the documented options (those by
    default) for the site, which only reads them.

    The two systems are given as -v twice: -v A -v B switches A's rules, one at a time,
    to B's values.

    Example:  bouillotte strong bands -v foster -v pagat --rule hands.favori --deals 10 --seeds 1,2
    Example:  bouillotte strong bands -v foster -v pagat   (every rule: a long solve, ten minutes)
    """
    need_numpy("bands")
    from ..rules.variant import differing_rules
    from ..strong.abstraction import Abstraction, AbstractionError, parse_bets
    from ..strong.bands import compute_bands, write_bands
    from ..strong.core import load_variant
    from ..study.tidy_commands import bands_table

    check_tidy_targets(csv_file, as_json)
    if len(variants) != 2:
        raise UserError(f"give two systems (-v A -v B); {len(variants)} given")
    chosen_seeds = parse_seeds(seeds)
    if len(chosen_seeds) < 1 or len(set(chosen_seeds)) != len(chosen_seeds):
        raise UserError(f"--seeds: give distinct seeds (as 1,2,3), not {seeds!r}")
    if write and rule:
        raise UserError("--rule computes some rules only: it cannot be stored with --write")
    a, b, solved = (load_variant(v) for v in (*variants, on))
    check_tidy_targets(csv_file, as_json)  # again: a profile just read is an input now
    differ = differing_rules(a, b)
    if not differ:
        raise UserError(
            f"{a.id} and {b.id} differ on no rule: there is no effect to band; name two "
            "systems whose rules differ (bouillotte variants diff A B lists them)"
        )
    for i, name in enumerate(rule or []):
        if name in (rule or [])[:i]:
            raise UserError(f"--rule: {name!r} is given twice; give each rule once")
        if name not in differ:
            raise UserError(
                f"--rule: {name!r} is not a rule on which {a.id} and {b.id} differ; they "
                f"differ on {', '.join(differ)}"
            )
    _check_switched(a, b, solved, rule or differ, asked=bool(rule))
    try:
        abstraction = Abstraction(cave, parse_bets(bets), raises, straddles, deals, classes)
        if write:
            _check_documented(a, b, solved, abstraction, chosen_seeds, iterations)
        data = compute_bands(
            a,
            b,
            solved,
            abstraction,
            chosen_seeds,
            iterations,
            progress=lambda line: typer.echo(line, err=True),
            rules=rule or None,
        )
    except AbstractionError as exc:
        raise UserError(str(exc)) from None
    with Together() as stack:  # the table and the bands: both in place, or neither
        if csv_file is not None or as_json:
            write_tidy(csv_file, as_json, bands_table(data), stack)
        if write:
            path = write_bands(data, stack)
    if report_wanted(csv_file, as_json):
        _print_bands(data)
    if write:
        typer.echo(f"stored {path.name}", err=True)


def parse_seeds(text: str) -> tuple[int, ...]:
    """``--seeds``: whole numbers written as every whole number of the command line is
    (:data:`~.options.WHOLE_NUMBER`: ASCII digits, a minus at most, no space), joined by
    commas; anything else (`` 1``, an Arabic-Indic digit, ``1_000``, ``+1``, an empty item)
    is refused with one line."""
    items = text.split(",")
    for item in items:
        if not WHOLE_NUMBER.fullmatch(item):
            written = re.fullmatch(r"-?[0-9]{1,20}", item)  # 05, -0: told how to write it
            said = (
                whole_number_refusal(item)
                if written
                else f"'{escaped(item)}' is not a whole number in ASCII digits (of at most "
                "20 digits)"
            )
            raise UserError(f"--seeds: {said}; give seeds joined by commas, as 1,2,3")
    return tuple(int(item) for item in items)


def _check_switched(a: Variant, b: Variant, solved: Variant, rules: list[str], asked: bool) -> None:
    """One line where the solved system (``--on``) holds the second system's value of every
    rule asked already: nothing would be switched (never "does not act")."""
    from ..rules.variant import value_text

    if any(solved.value(rule) != b.value(rule) for rule in rules):
        return
    what = (
        f"{b.id}'s value of {rules[0]} ({value_text(b.value(rules[0]))})"
        if len(rules) == 1
        else f"{b.id}'s value of every rule "
        + ("asked" if asked else f"on which {a.id} and {b.id} differ")
        + f" ({len(rules)})"
    )
    raise UserError(
        f"--on {solved.id} already has {what}: nothing would be switched on its game; solve "
        f"a system that differs from {b.id} there (the default: foster-three)"
    )


def _check_documented(
    a: Variant,
    b: Variant,
    solved: Variant,
    abstraction: Abstraction,
    seeds: tuple[int, ...],
    iterations: int,
) -> None:
    """--write stores only the bands the site shows, those of the documented inputs: a
    file of other options would never be read (or, before, replaced what the site shows)."""
    from ..strong.bands import BANDS_ON, command, documented, inputs_key
    from ..strong.core import load_variant

    key = inputs_key(a, b, solved, abstraction, seeds, iterations)
    if key == documented(a, b, load_variant(BANDS_ON)):
        return
    given = command(a.id, b.id, solved.id, abstraction, seeds, iterations)
    options = given.removeprefix(f"bouillotte strong bands -v {a.id} -v {b.id} ")
    raise UserError(
        f"--write stores the bands the site shows, those of the documented options "
        f"(docs/strong-play.md); with {options.removesuffix(' --write')} they would never be "
        "shown: leave --write out (--csv or --json keep them)"
    )


def _print_bands(data: dict[str, object]) -> None:
    """The bands' report: a line per rule."""
    from ..strong.abstraction import counted
    from ..strong.bands import band_text

    rules: Any = data["rules"]
    typer.echo(f"{data['label']}: {counted(len(rules), 'rule')} in {data['cpu_seconds']} s of CPU")
    for entry in rules:
        if not entry["acts"]:
            typer.echo(f"{entry['rule']}: {entry['reason']}")
            continue
        band = "; ".join(f"{k} {band_text(lo, hi)}" for k, (lo, hi) in entry["band"].items())
        lo, hi = entry["nash_conv"]
        typer.echo(f"{entry['rule']}: {band}; NashConv {lo:.4f} to {hi:.4f}")
