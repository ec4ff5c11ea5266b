"""``bouillotte site build`` and ``bouillotte site serve``: the static reference site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..options import ScenarioDirs, VariantsDirs, friendly

DEFAULT_OUT = Path("_site")


def _say(message: str) -> None:
    typer.echo(message, err=True)


def register(app: typer.Typer) -> None:
    site_app = typer.Typer(
        help="Build the static reference site, or preview it on localhost.",
        no_args_is_help=True,
    )

    @site_app.command("build")
    @friendly
    def build(
        out: Annotated[
            Path, typer.Option("--out", help="The folder to build into (replaced whole).")
        ] = DEFAULT_OUT,
        variants: VariantsDirs = None,
        scenarios: ScenarioDirs = None,
    ) -> None:
        """Build every page into OUT (default _site/); a failed build leaves OUT as it was.

        Example:  bouillotte site build --out _site --variants my-profiles
        """
        from ..sitebuild import build_site

        report = build_site(out, variants or [], scenarios or [], log=_say)
        _say(f"open {report.out / 'index.html'} in a browser, or run: bouillotte site serve")

    @site_app.command("serve")
    def serve(
        folder: Annotated[
            Path, typer.Option("--dir", help="The built site to serve.", file_okay=False)
        ] = DEFAULT_OUT,
        port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1.")] = 8000,
    ) -> None:
        """Preview a built site at http://127.0.0.1:PORT/ (localhost only).

        Example:  bouillotte site serve --port 8080
        """
        from ..sitebuild.serve import serve as run_server

        if not (folder / "index.html").is_file():
            _say(f"error: {folder}: no built site here; run: bouillotte site build --out {folder}")
            raise typer.Exit(2)
        try:
            run_server(folder, port, _say)
        except OSError as exc:
            _say(f"error: cannot serve on port {port}: {exc.strerror or exc}")
            raise typer.Exit(2) from None

    app.add_typer(site_app, name="site")
