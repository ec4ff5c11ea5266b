"""The static reference site: pages built from the profiles, scenarios and engine.

``build_site`` renders every page with Jinja2 (autoescape on) and markdown-it-py (raw HTML
off) into a temporary folder and swaps it into place only when the whole build succeeded.
"""

from __future__ import annotations

from .builder import BuildReport, build_site

__all__ = ["BuildReport", "build_site"]
