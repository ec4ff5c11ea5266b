"""The options and the guard that the ``strong`` commands share (``commands/strong.py``
and ``strong_bands.py``), said once."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import typer

from ..rules.errors import UserError

System: TypeAlias = Annotated[
    str,
    typer.Option(
        "--variant", "-v", metavar="SYSTEM", help="A variant id, or the path of your own .yaml."
    ),
]
"""The system a ``strong`` command plays (``bands`` takes two: its own option)."""
Bets: TypeAlias = Annotated[
    str, typer.Option(metavar="SIZES", help="Bet sizes: min, half, pot, max joined by +.")
]
Raises: TypeAlias = Annotated[
    int, typer.Option(metavar="N", help="Most bets and raises a deal (0: no cap).", min=0)
]
Straddles: TypeAlias = Annotated[bool, typer.Option(help="Offer straddles.")]
Classes: TypeAlias = Annotated[
    int, typer.Option(metavar="N", help="Bands of the point (0: exact cards).", min=0)
]
"""The abstraction's options that ``solve`` and ``bands`` share."""
MaxStates: TypeAlias = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        help="Most states in the tree (about 1 KB each, 3.5 KB under a draw; the walk also "
        "stops at 3/4 of this machine's memory) [default: 2000000].",
        min=1,
        max=10**7,
        show_default=False,
    ),
]
"""The bound of the tree ``solve`` and ``exploit`` walk (``strong/solve.py``'s
``MAX_STATES`` where it is not given)."""


def need_numpy(command: str) -> None:
    """One line where the ``strong`` extra is not installed (the solver needs numpy)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UserError(
            f"bouillotte strong {command} needs the strong extra: pip install 'bouillotte[strong]'"
        ) from None
