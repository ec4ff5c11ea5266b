"""``bouillotte strong``: solve a profile's abstracted game with CFR+ (the ``strong``
extra) and store its strategy for the ``strong`` policy."""

from __future__ import annotations

from typing import Annotated

import typer

from ...rules.errors import UserError
from ..options import command_app

cli = command_app(
    help="Solve a system's abstracted game with CFR+ and print its NashConv in counters per "
    "deal; --write stores the average strategy for the strong policy.",
    no_args_is_help=True,
)


@cli.callback()
def strong() -> None:
    """Solve a system's abstracted game with CFR+ and print its NashConv in counters per
    deal; --write stores the average strategy for the strong policy."""


@cli.command("solve")
def solve_command(
    variant: Annotated[
        str,
        typer.Option(
            "--variant", "-v", metavar="SYSTEM", help="A variant id, or the path of your own .yaml."
        ),
    ] = "foster-three",
    iterations: Annotated[int, typer.Option(metavar="N", help="CFR+ iterations.", min=1)] = 1000,
    cave: Annotated[
        int, typer.Option(metavar="N", help="Every cave (0: the profile's).", min=0)
    ] = 20,
    bets: Annotated[
        str, typer.Option(metavar="SIZES", help="Bet sizes: min, half, pot, max joined by +.")
    ] = "pot",
    raises: Annotated[
        int, typer.Option(metavar="N", help="Most bets and raises a deal (0: no cap).", min=0)
    ] = 2,
    straddles: Annotated[bool, typer.Option(help="Offer straddles.")] = True,
    deals: Annotated[int, typer.Option(metavar="N", help="Deals sampled by chance.", min=1)] = 200,
    classes: Annotated[
        int, typer.Option(metavar="N", help="Bands of the point (0: exact cards).", min=0)
    ] = 5,
    seed: Annotated[int, typer.Option(metavar="N", help="The seed of the sampled deals.")] = 1,
    write: Annotated[bool, typer.Option("--write", help="Store the strategy.")] = False,
) -> None:
    """Solve a system's abstracted game with CFR+ and print its NashConv in counters per
    deal; --write stores the average strategy for the strong policy.

    The game is python_bouillotte's (docs/strong-play.md), played by the engine; the
    solver is the project's CFR+ over the tree's arrays (numpy, from the strong extra).
    """
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UserError(
            "bouillotte strong solve needs the strong extra: pip install 'bouillotte[strong]'"
        ) from None
    from ...strong.abstraction import Abstraction, AbstractionError, parse_bets
    from ...strong.core import table_for
    from ...strong.solve import Solution, build_tree, cfr_plus, nash_conv, payload
    from ...strong.store import address
    from ...strong.store import write as store

    try:
        abstraction = Abstraction(cave, parse_bets(bets), raises, straddles, deals, classes, seed)
        table = table_for(variant, abstraction)
    except AbstractionError as exc:
        raise UserError(str(exc)) from None
    typer.echo(f"{table.variant.id}: {abstraction.describe()}", err=True)
    tree = build_tree(table)
    typer.echo(f"tree: {len(tree.actor)} states, {len(tree.keys)} information states", err=True)
    strategy, cpu = cfr_plus(tree, iterations)
    conv, values = nash_conv(tree, strategy)
    solution = Solution(strategy, iterations, cpu, conv, values)
    typer.echo(
        f"NashConv {conv:.4f} counters per deal after {iterations} CFR+ iterations "
        f"({cpu:.1f} s of CPU); values {', '.join(f'{v:+.3f}' for v in values)}"
    )
    if write:
        path = address(table.variant, abstraction, iterations)
        store(path, payload(table, tree, solution))
        typer.echo(f"stored {path.name}", err=True)
