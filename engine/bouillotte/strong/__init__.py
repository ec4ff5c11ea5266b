"""Equilibrium play: Bouillotte as an OpenSpiel game, an abstraction that can be solved,
a CFR+ solver and the stored strategies (``docs/strong-play.md``).

A layer of its own between ``study`` and ``play``: it drives the engine (``play``) and
reads profiles (``rules``); ``study`` takes the stored strategy as the ``strong`` policy.
Importing it registers ``python_bouillotte`` with OpenSpiel where ``open_spiel`` is
installed (the ``strong`` extra); everything else here works without it.
"""

try:
    import pyspiel  # noqa: F401
except ImportError:  # the strong extra is not installed: no game to register
    pass
else:
    from . import game  # noqa: F401
