"""The command line: ``bouillotte`` and its sub-commands (Typer).

``app.py`` holds the application, ``commands/`` one module per group of sub-commands,
``options.py`` the shared options and ``compare_text.py`` the terminal rendering of a
comparison.
"""


def main() -> None:
    """The ``bouillotte`` console script (kept at this name since the first release)."""
    from .app import main as run

    run()
