"""Hostile input: the catalogue of bad inputs, generated YAML, and script payloads."""
