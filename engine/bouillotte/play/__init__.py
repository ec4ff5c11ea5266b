"""The play layer: one engine that plays a deal under any variant.

Hands and the point, dealing, actions, pots, the showdown, bonuses and the outcome, and
the deal state machine (``deal.py``) that ties them together. It reads only a
:class:`~bouillotte.rules.variant.Variant`; it knows no YAML, no terminal and no HTML.
"""


def is_compiled() -> bool:
    """Whether the engine runs compiled by mypyc, as ``pip install .`` builds it (see
    ``hatch_build.py``), or as plain Python (an editable install): the same results."""
    from . import deal

    return not str(deal.__file__).endswith(".py")
