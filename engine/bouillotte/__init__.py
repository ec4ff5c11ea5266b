"""Compare the historical rule systems of Bouillotte (Brelan).

Each system is a YAML variant profile (``profile.py`` is its schema, ``profiles.py`` reads
it); one engine plays a deal under any profile (``deal.py`` and the modules it uses:
``pots``, ``showdown``, ``point``, ``hands``, ``bonuses``); scenarios (``scenario.py``) run
under every variant and are compared (``compare.py``, ``attribution.py``); the command line
is ``cli.py`` and the reference site ``sitebuild/``.
"""
