"""The rules layer: what a rule system *says*, before anything is played.

The profile schema (``profile.py``), reading profiles with ``extends:`` (``profiles.py``)
into a :class:`~bouillotte.rules.variant.Variant`, citations, the bibliography and the
quoted texts, the ambiguous sentences and their readings, the history of the words, the
card notation every profile and scenario writes, and YAML read with line numbers. It
imports nothing from the layers above it.
"""
