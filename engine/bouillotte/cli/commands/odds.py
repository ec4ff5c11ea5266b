"""``bouillotte odds``: exact probabilities per pack and player count."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Annotated

import typer

from ...rules.profiles import Library
from ...study.odds import OddsReport, compute_odds, odds_key
from ...study.render import table
from ...study.tidy import odds_table
from ..options import CsvFile, JsonFlag, VariantsDirs, check_tidy_targets, command_app, write_csv

POINT_WORDS = {
    "all-exposed": ("the winning suit's total", "two suits or more tie"),
    "whole-hand": ("the best hand's pips", "two hands or more tie"),
}
"""How the point figures read, by ``point.counted_cards``."""


def _rows(report: OddsReport) -> list[tuple[str, Fraction]]:
    # A pair with the retourne is a hand only where it is the profile's favori.
    pair = "favori" if report.favori_recognised else "no hand in this system"
    rows: list[tuple[str, Fraction | None]] = [
        ("a given player: simple brelan", report.player_simple_brelan),
        ("a given player: brelan carré", report.player_carre),
        (f"a given player: pair of the retourne's rank ({pair})", report.player_favori),
        ("at the table: at least one brelan (simple or carré)", report.table_brelan),
        ("at the table: at least one brelan carré", report.table_carre),
        (f"at the table: a pair of the retourne's rank ({pair})", report.table_favori),
        (
            "at the table: three of a kind or a favori"
            if report.favori_recognised
            else "at the table: a brelan or a pair of the retourne's rank",
            report.table_brelan_or_favori,
        ),
        ("at the table: two or more brelans", report.table_two_or_more_brelans),
        ("a given player: brelan de Mistigri", report.player_mistigri),
        ("at the table: a brelan de Mistigri", report.table_mistigri),
        ("the point decides (no brelan the rules recognise)", report.no_brelan),
    ]
    if report.point_exact:
        total, tie = POINT_WORDS[report.point_counted]
        rows += [
            (f"given the point: mean of {total}", report.point_mean),
            (f"given the point: {tie}", report.point_tie),
            (
                "given the point: retourne's suit strictly richest",
                report.retourne_suit_strictly_richest,
            ),
        ]
    return [(label, value) for label, value in rows if value is not None]


def _text(variant_id: str, report: OddsReport) -> str:
    head = (
        f"{variant_id}: {report.players} players, {len(report.pack) * 4}-card pack "
        f"({' '.join(report.pack)}), {report.deals:,} deals"
    )
    rows = [
        [label, f"{v.numerator}/{v.denominator}", f"{float(v):.4f}"] for label, v in _rows(report)
    ]
    body = table(["", "exact", "decimal"], rows)
    if not report.point_exact:
        return (
            f"{head}\n{body}\nthe point's figures are not counted: "
            f"{report.point_not_counted}; `bouillotte simulate` estimates them"
        )
    totals = " ".join(f"{k}:{float(v):.3f}" for k, v in sorted(report.point_total.items()))
    return f"{head}\n{body}\n{POINT_WORDS[report.point_counted][0]} given no brelan: {totals}"


cli = command_app()


@cli.command("odds")
def odds_command(
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="A variant id (repeatable; default: all)."),
    ] = None,
    variants: VariantsDirs = None,
    as_json: JsonFlag = False,
    csv_file: CsvFile = None,
) -> None:
    """Exact probabilities of brelans, carrés, favoris and the point, per pack.

    Computed by combinatorics over the pack the profile deals, never by sampling;
    fractions are exact. Every hand the profile recognises is counted, the brelan de
    Mistigri included. The point follows each profile's own rule
    (point.counted_cards): the richest suit over every exposed card, or the best
    hand's pips; a point counted in each player's best suit, or where the mistigri is
    a hand, is not counted exactly and is left to `bouillotte simulate`. Variants with
    the same pack, players, hand and point rules share their numbers.

    Example:  bouillotte odds --variant foster --variant foster-five
    Example:  bouillotte odds --csv odds.csv   (one row per system and figure)
    """
    check_tidy_targets(csv_file, as_json)
    library = Library(variants or [])
    chosen = library.select(variant)
    cache: dict[str, OddsReport | str] = {}
    reports: dict[str, OddsReport | str] = {}
    for v in chosen:
        key = odds_key(v.rules)
        if key not in cache:
            try:
                cache[key] = compute_odds(v.rules)
            except ValueError as exc:  # rules whose odds cannot be counted exactly
                cache[key] = str(exc)
        reports[v.id] = cache[key]
    if csv_file is not None:
        counted = {vid: r for vid, r in reports.items() if not isinstance(r, str)}
        write_csv(csv_file, odds_table(counted))
        if str(csv_file) == "-":
            return
    if as_json:
        data = {
            vid: {"not_computed": r} if isinstance(r, str) else r.to_json()
            for vid, r in reports.items()
        }
        typer.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    typer.echo(
        "\n\n".join(
            f"{vid}: {r}" if isinstance(r, str) else _text(vid, r) for vid, r in reports.items()
        )
    )
