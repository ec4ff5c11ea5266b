"""The study layer: what one does with the engine.

Scenarios and sessions played from files, policies and simulation, rule sweeps, exact
odds, comparison of outcomes across variants and the attribution of each difference to
a rule, the difference finder, the library check, transcripts and plain-text rendering.
"""
