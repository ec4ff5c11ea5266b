"""Sub-commands that live in their own modules.

Each module here defines ``register(app)``, which adds its commands to the main Typer
application; :func:`register_all` calls every one, in module-name order.
"""

from __future__ import annotations

import importlib
import pkgutil

import typer


def register_all(app: typer.Typer) -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)
