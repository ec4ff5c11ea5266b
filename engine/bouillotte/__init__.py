"""Compare the historical rule systems of Bouillotte (Brelan).

The Python API (``docs/api.md``) is at the top level, each name imported on first use so
that ``import bouillotte`` stays cheap::

    >>> import bouillotte as b
    >>> print(b.compare("foster-sight", ["foster", "pagat"]))  # doctest: +SKIP

:func:`systems`, :func:`system`, :func:`run`, :func:`compare`, :func:`simulate`,
:func:`sweep`, :func:`odds`, :func:`matrix` and :func:`effects` (``bouillotte.api``).

The package is in layers, lowest first; each imports only from the layers below it
(checked by import-linter, see ``pyproject.toml``):

- ``rules``: the profile schema, reading profiles with ``extends:``, citations, the
  bibliography, the quoted texts and the readings of ambiguous sentences;
- ``play``: one engine that plays a deal under any variant (hands, the point, pots, the
  showdown, bonuses, the deal state machine, the outcome);
- ``study``: scenarios and sessions, simulation and sweeps, odds, comparison and
  attribution, checks and transcripts;
- ``site``: the static reference site;
- ``cli``: the ``bouillotte`` command.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: the import stays at a millisecond
if TYPE_CHECKING:
    from typing import Any

    from .api import (
        Comparison,
        Odds,
        Run,
        Simulation,
        Sweep,
        System,
        Systems,
        TidyTable,
        UserError,
        compare,
        effects,
        matrix,
        odds,
        run,
        simulate,
        sweep,
        system,
        systems,
    )

__all__ = [
    "Comparison",
    "Odds",
    "Run",
    "Simulation",
    "Sweep",
    "System",
    "Systems",
    "TidyTable",
    "UserError",
    "compare",
    "effects",
    "matrix",
    "odds",
    "run",
    "simulate",
    "sweep",
    "system",
    "systems",
]


def __getattr__(name: str) -> Any:
    """The API's names, imported from ``bouillotte.api`` when first asked for."""
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
