"""The long commands' one change to Python's garbage collector: what the command has loaded
before it plays or builds is frozen (:func:`gc.freeze`), so the collector's full passes no
longer walk it.

``sweep`` and ``effects --write`` load the library, its profiles and their rule sets, then
play for seconds to hours. What they loaded (the interpreter's modules, pydantic's models,
the profiles: about 39,000 objects the collector tracks) lives until the process ends, yet
every full collection walked all of it. A sweep's memories (the shuffles and the hands'
worth its rows share) are renewed as it goes, which promotes objects to the oldest
generation and sets off a full collection every few thousand plays. Counted in
``sweep foster --all-rules --deals 1000 --policy cautious`` (compiled, twice): 18 full
collections took 392 and 420 ms of the command's 6.1 and 7.5 s of CPU; frozen, 19 (the
freeze's own among them) take 52 ms (docs/simulation.md, "The garbage collector").

Frozen, those objects are never collected, which loses nothing, since they live as long as
the process; everything made after is collected as before. Worker processes (``--jobs``)
are forked from the command after it froze and keep the freeze. No result depends on it.
``site build`` freezes once its modules, Jinja2 and markdown-it-py are imported (the
library is loaded inside the build): counted in a build of the bundled site (compiled
engine, three runs each), the full collections took 226 to 233 ms before and 119 to 150 ms
after with a warm cache, 540 and 601 ms before and 349 and 365 ms after with an empty one
(two runs), of 2.5 to 3.2 and 7.6 to 8.5 s of CPU; the pages are the same bytes.
``simulate`` does not freeze: it keeps no such memory across deals, and its runs of 20,000
to 100,000 deals made no full collection at all.

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
