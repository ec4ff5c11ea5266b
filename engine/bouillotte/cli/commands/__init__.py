"""The commands, one module each: ``<name>.py`` defines ``cli``, a Typer application holding
the command ``bouillotte <name>`` (or, for ``variants`` and ``site``, its sub-commands).

The top-level application (``cli/app.py``) lists them by name and imports a module only
when its command runs, so that starting the tool costs no more than the command needs.
"""
