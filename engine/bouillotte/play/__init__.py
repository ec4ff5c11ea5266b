"""The play layer: one engine that plays a deal under any variant.

Hands and the point, dealing, actions, pots, the showdown, bonuses and the outcome, and
the deal state machine (``deal.py``) that ties them together. It reads only a
:class:`~bouillotte.rules.variant.Variant`; it knows no YAML, no terminal and no HTML.
"""
