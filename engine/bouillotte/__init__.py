"""Compare the historical rule systems of Bouillotte (Brelan).

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
