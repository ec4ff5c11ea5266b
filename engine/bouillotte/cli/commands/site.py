"""``bouillotte site build`` and ``bouillotte site serve``: the static reference site."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Annotated

import typer

from ...rules.errors import InputError, UserError, shown
from ...site.output import MARKER
from ..collector import prepare_for_a_long_run
from ..options import ScenarioDirs, VariantsDirs, command_app

DEFAULT_OUT = Path("_site")


def _say(message: str) -> None:
    """A line of the build's progress: its paths and names (an ``--out`` named
    ``s\nerror: x``) escaped, so that no line can pass for one the tool did not write."""
    typer.echo(shown(message), err=True)


cli = command_app(
    help="Build the static reference site, or preview it on localhost.",
    no_args_is_help=True,
)


@cli.command("build")
def build(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="The folder to build into, replaced whole: a new or empty folder, or a "
            f"previous build (its {MARKER} file lists the files it wrote). Never the "
            "current folder, one that holds an input folder, or one holding other files.",
        ),
    ] = DEFAULT_OUT,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    no_bundled: Annotated[
        bool,
        typer.Option(
            "--no-bundled",
            help="Build from the --variants and --scenarios folders alone: no bundled "
            "profile, scenario or glossary; the bibliography is your folders' sources.yaml.",
        ),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="A site configuration file (YAML): title, intro (Markdown), language, "
            "footer, base_url (canonical links and sitemap.xml), theme (a folder whose "
            "templates/ and assets/ replace the bundled ones). See docs/site.md.",
            dir_okay=False,
        ),
    ] = None,
    allow_mismatch: Annotated[
        bool,
        typer.Option(
            "--allow-mismatch",
            help="Build even where a scenario's deal does not end as its expect block says "
            "(otherwise refused, exit 2, as bouillotte check finds it): each such page is "
            "marked, and each mismatch is listed on stderr.",
        ),
    ] = False,
) -> None:
    """Build every page into OUT (default _site/); a failed build leaves OUT as it was.

    OUT is checked before anything is built; two builds into one folder are not run at
    once (the second is refused while .OUT.lock beside it is held). A scenario whose deal
    does not end as its expect block says refuses the build (exit 2, its file and line,
    the expected and the actual value) unless --allow-mismatch.

    Example:  bouillotte site build --out _site --variants my-profiles
    Example:  bouillotte site build --no-bundled --variants mine --scenarios mine/deals
              --config mine/site.yaml --out _mysite
    """
    from ...site import build_site

    if no_bundled and not variants:
        raise InputError("--no-bundled needs at least one --variants folder of your own")
    prepare_for_a_long_run()  # the site's modules, Jinja2 and markdown-it-py are loaded now
    report = build_site(
        out,
        variants or [],
        scenarios or [],
        log=_say,
        include_bundled=not no_bundled,
        config_file=config,
        allow_mismatch=allow_mismatch,
    )
    folder = shlex.quote(str(report.out))
    index = report.out / "index.html"
    _say(f"open {index} in a browser, or run: bouillotte site serve --dir {folder}")


@cli.command("serve")
def serve(
    folder: Annotated[
        Path, typer.Option("--dir", help="The built site to serve.", file_okay=False)
    ] = DEFAULT_OUT,
    port: Annotated[
        int, typer.Option("--port", help="Port on 127.0.0.1, 1 to 65535 (0: any free port).")
    ] = 8000,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Build the site into --dir first, then rebuild it whenever a file of its "
            "inputs changes (the --variants and --scenarios folders, the --config file and "
            "its theme, and the bundled ones unless --no-bundled); a failed rebuild is one "
            "line and the last good build stays served.",
        ),
    ] = False,
    variants: VariantsDirs = None,
    scenarios: ScenarioDirs = None,
    no_bundled: Annotated[
        bool, typer.Option("--no-bundled", help="With --watch: as site build --no-bundled.")
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="With --watch: as site build --config.", dir_okay=False),
    ] = None,
    allow_mismatch: Annotated[
        bool,
        typer.Option("--allow-mismatch", help="With --watch: as site build --allow-mismatch."),
    ] = False,
) -> None:
    """Preview a built site at http://127.0.0.1:PORT/ (localhost only).

    Only the files of --dir are served, never through a link (404); a connection idle
    10 s is closed, 64 at most are served at once. Ctrl-C stops it (exit 0); SIGTERM and
    SIGHUP too, with exit 143 and 129.

    Example:  bouillotte site serve --port 8080
    Example:  bouillotte site serve --watch --config site.yaml --variants variants
              --scenarios scenarios --dir _site
    """
    from ...site.serve import serve as run_server

    if not 0 <= port <= 65535:
        raise InputError("--port must be between 0 and 65535", value=port, has_value=True)
    if not watch and (variants or scenarios or no_bundled or config or allow_mismatch):
        raise InputError(
            "--variants, --scenarios, --no-bundled, --config and --allow-mismatch say what "
            "to rebuild: give them with --watch (or build with bouillotte site build)"
        )
    if watch:
        _serve_and_watch(folder, port, variants or [], scenarios or [], no_bundled, config,
                         allow_mismatch)  # fmt: skip
        return
    if not (folder / "index.html").is_file():
        _say(f"error: {folder}: no built site here; run: bouillotte site build --out {folder}")
        raise typer.Exit(2)
    try:
        run_server(folder, port, _say)
    except OSError as exc:
        _say(f"error: cannot serve on port {port}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    _stopped_by_a_signal()


def _stopped_by_a_signal() -> None:
    """Ctrl-C stops the server as asked (``stopped``, exit 0); SIGTERM and SIGHUP, which the
    command line turns into the same interruption, stop it too, but end with their status
    (143, 129: docs/contracts.md), as every command does: a script or a scheduler that
    sent one is told it was obeyed, not that the server finished its work."""
    from .. import _terminated

    if _terminated:
        raise typer.Exit(128 + _terminated[0])


_OUT_OPTION = re.compile(r"(^|another |with )--out\b(?!-)")
"""``--out`` where a build's message names its option (``--out must name a folder``,
``choose another --out``), never within a path the message quotes."""


def _as_dir_option(exc: UserError) -> None:
    """A build's message as ``site serve --watch`` says it: the folder is its ``--dir``."""
    exc.message = _OUT_OPTION.sub(r"\1--dir", exc.message)
    exc.args = (exc.message,)


def _serve_and_watch(
    folder: Path,
    port: int,
    variants: list[Path],
    scenarios: list[Path],
    no_bundled: bool,
    config: Path | None,
    allow_mismatch: bool,
) -> None:
    """Build, serve, and rebuild on every change of an input (``site/serve.py``)."""
    from ...rules.interrupts import heard_after_writing
    from ...rules.resources import bundled
    from ...site import build_site
    from ...site.serve import serve_and_watch
    from ...site.siteconfig import load_config

    if no_bundled and not variants:
        raise InputError("--no-bundled needs at least one --variants folder of your own")
    prepare_for_a_long_run()

    def rebuild() -> None:
        try:
            with heard_after_writing():  # Ctrl-C during the swap stops the server, as ever
                build_site(
                    folder,
                    variants,
                    scenarios,
                    log=_say,
                    include_bundled=not no_bundled,
                    config_file=config,
                    allow_mismatch=allow_mismatch,
                )
        except UserError as exc:  # the build's "--out" is this command's --dir
            _as_dir_option(exc)
            raise

    rebuild()  # a first build that fails is bad input: one line, exit 2
    watched = [*variants, *scenarios]
    if config is not None:
        watched.append(config)
        theme = load_config(config)[1]
        if theme is not None:
            watched.append(theme)
    if not no_bundled:
        watched += [bundled("variants"), bundled("scenarios")]
    watched += [bundled("site") / "templates", bundled("site") / "assets"]
    try:
        serve_and_watch(folder, port, watched, rebuild, _say)
    except OSError as exc:
        _say(f"error: cannot serve on port {port}: {exc.strerror or exc}")
        raise typer.Exit(2) from None
    _stopped_by_a_signal()
