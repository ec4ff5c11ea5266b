"""The options and the guard that the ``strong`` commands share (``commands/strong.py``
and ``strong_bands.py``), said once."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import typer

from ..rules.errors import UserError

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


def need_numpy(command: str) -> None:
    """One line where the ``strong`` extra is not installed (the solver needs numpy)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UserError(
            f"bouillotte strong {command} needs the strong extra: pip install 'bouillotte[strong]'"
        ) from None
