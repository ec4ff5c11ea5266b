"""The long commands' one change to Python's garbage collector: what a command has loaded
before it plays is frozen (:func:`gc.freeze`), so the collector's full passes no longer walk
it.

``simulate``, ``sweep`` and ``effects`` load the library, its profiles and their rule sets,
then play for seconds to hours. What they loaded (the interpreter's modules, pydantic's
models, the profiles: about 39,000 objects the collector tracks) lives until the process
ends, yet every full collection walked all of it. The deals' short-lived objects trigger a
full collection every 3,000 to 4,000 plays of a sweep; walking what was loaded took 16 ms
each time, 5 to 9 % of a sweep's CPU (``docs/simulation.md``, "The garbage collector").

Frozen, those objects are never collected, which loses nothing, since they live as long as
the process; everything made after is collected as before. Worker processes (``--jobs``)
are forked from the command after it froze and keep the freeze. No result depends on it.

Only the command line does this: a program that imports the engine keeps its collector as
it set it, and a Dask worker as its owner started it.
"""

from __future__ import annotations

import gc


def freeze_what_is_loaded() -> None:
    """Collect what is garbage now, then move every object the collector tracks into its
    permanent generation. Call it once, after loading and before playing."""
    gc.collect()
    gc.freeze()
