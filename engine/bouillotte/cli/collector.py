"""The long commands' two changes to Python's garbage collector, made once they have loaded
what they need and before they play or build (``sweep``, ``effects --write``, ``site
build``):

- What is loaded is frozen (:func:`gc.freeze`): the interpreter's modules, pydantic's
  models, the profiles, about 39,000 objects that live until the process ends, which every
  full collection walked again. A sweep's memories (the shuffles and the hands' worth its
  rows share) are renewed as it goes, which sets off a full collection every few thousand
  plays.
- The youngest generation is collected after :data:`YOUNG_EVERY` net new objects instead
  of Python's 700, which a deal's own objects alive at once passed again and again.

Counted in ``sweep foster --all-rules --deals 1000 --policy cautious`` (compiled, twice),
the collections took 638 and 708 ms of the command's 6.1 and 7.5 s of CPU before, and 69
and 74 ms after; the other commands are in docs/simulation.md, "The garbage collector".

Frozen objects are never collected, which loses nothing, since they live as long as the
process; everything made after is collected as before, only later. The engine makes no
reference cycle in play (none was left for the collector after 20 deals of a sweep), so
what waits longer is at most 10,000 objects. Worker processes (``--jobs``) are forked after
the change and keep it. No result depends on it. ``simulate`` leaves the collector as it
is: its runs of 20,000 to 100,000 deals made no full collection.

Only the command line does this: a program that imports the engine keeps its collector as
it set it, and a Dask worker as its owner started it.
"""

from __future__ import annotations

import gc

YOUNG_EVERY = 10_000
"""Net new objects between two collections of the youngest generation, in a long run
(Python 3.11's default is 700). A deal's own objects, alive at once, passed 700 again and
again: a 1,000-deal sweep under ``cautious`` made 2,246 young collections (203 to 229 ms,
four runs); now 115, most of them during start-up, before the change (12 and 13 ms)."""


def prepare_for_a_long_run() -> None:
    """Collect what is garbage now, move every object the collector tracks into its
    permanent generation, and collect the youngest generation less often
    (:data:`YOUNG_EVERY`). Call it once, after loading and before playing or building."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_EVERY, *gc.get_threshold()[1:])
