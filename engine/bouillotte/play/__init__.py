"""The play layer: one engine that plays a deal under any variant.

Hands and the point, dealing, actions, pots, the showdown, bonuses and the outcome, and
the deal state machine (``deal.py``: a :class:`~bouillotte.play.board.Board` with one stage
on it, and the phase graph) that ties them together. It reads only a
:class:`~bouillotte.rules.variant.Variant`; it knows no YAML, no terminal and no HTML.

The rule-read contract
----------------------

The play of a deal is a function of its cards, its players' draws and the fields of the
profile it reads, and nothing else. A sweep (``study/sweep.py``) relies on it: it notes
every field a deal reads (``study/rule_reads.py``), skips every row that changes only
fields the base's play of that deal never read (it would play the deal action for action
as the base did), counts the deals in which a row's fields were read at all (a row's
``rules_read``), and takes a row's play of a deal up from a copy of the base's made at the
last step before which none of its fields had been read. So the engine keeps one rule:

    **Read a field of the rules only in the branch its value decides, at the step where it
    decides.**

- Not ahead of time ("to have it at hand"), not for every deal when only some need it, and
  not in a condition that comes out the same whatever its value: put the facts of the deal
  first and the field last (``if excess and rules.betting.return_uncalled_excess``).
- Reading a group (``rules.betting``) notes nothing: take a stage's groups when it begins.
  A field the stage may need at several steps is a :class:`~bouillotte.play.decides.Decides`,
  the one helper for it: made when the stage begins (reading nothing), read at its first
  :meth:`~bouillotte.play.decides.Decides.value`, kept, and carried into a copy of the deal
  as it stands (``Deal.copy``).
- A value kept across deals (``caches.py``) is keyed by the fields it depends on, read
  first, so a later deal that uses it still notes them.

A read that escapes the contract does not make a sweep wrong, only slower and its counts
larger; a read that is missing (a field that decides, read through something unnoted)
would make it wrong. Moving a read changes what a sweep plays and prints (``rules_read``,
and where rows are taken up): ``tests/test_rule_reads.py`` plays deals under every bundled
system and, for each field a deal read, plays the deal again under each other value of
that field: one of them must change what was offered at some step or the outcome. It
fails when a field is read outside the branch it decides.
"""


def is_compiled() -> bool:
    """Whether the engine runs compiled by mypyc, as ``pip install .`` builds it (see
    ``hatch_build.py``), or as plain Python (an editable install): the same results."""
    from . import deal

    return not str(deal.__file__).endswith(".py")
