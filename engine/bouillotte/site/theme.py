"""A site's theme (``theme:`` in ``site.yaml``): confined to its folder, its templates
checked before anything is built, and any error a template makes while the pages are
rendered told as one line at the template's file and line (exit 2).

A theme is a folder beside the configuration file (a relative path without ``..``) holding
``templates/`` and/or ``assets/``. Nothing in it may lead outside it: a link whose target
is outside the theme (a template, an asset, a folder) is refused, as is a theme folder that
is itself a link leaving the configuration's folder. Each template must be UTF-8 and valid
Jinja2, and every ``extends``, ``include`` and ``import`` it writes must name a template of
the theme or of the bundled site (Jinja2 itself refuses a name with ``..``). Templates are
rendered in Jinja2's sandbox (``builder._environment``): a theme reaches the values it is
given, never Python's internals.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from jinja2 import Environment, TemplateError, TemplateNotFound, TemplateSyntaxError, nodes

from ..rules.errors import InputError
from ..rules.writing import resolved

FOLDERS = ("templates", "assets")


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_folder(theme: Path, config_file: Path, line: int | None) -> Path:
    """``theme`` (as written beside ``config_file``) resolved, once nothing in it leads
    outside it."""
    home = resolved(config_file.parent)
    real = resolved(theme)
    if not _within(real, home):
        raise InputError(
            f"the theme folder leads outside the configuration's folder (to {real}); "
            "a theme must be a folder beside site.yaml",
            file=config_file,
            line=line,
            field="theme",
        )
    for name in FOLDERS:
        top = theme / name
        if top.is_symlink() and not _within(resolved(top), real):
            raise _leaves(top, real)
        if not top.is_dir():
            continue
        for path in _walk(top):
            if path.is_symlink() and not _within(resolved(path), real):
                raise _leaves(path, real)
    return real


def _walk(top: Path) -> Iterator[Path]:
    for folder, dirs, files in os.walk(top, followlinks=False):
        for name in [*dirs, *files]:
            yield Path(folder) / name


def _leaves(path: Path, theme: Path) -> InputError:
    return InputError(
        f"a link to {path.resolve()}, outside the theme ({theme}): a theme's templates "
        "and assets must be inside its folder",
        file=path,
    )


def check_templates(env: Environment, theme: Path) -> None:
    """Load and compile every template of ``theme/templates``, and each template it names;
    the first fault is one line at its file and line."""
    folder = theme / "templates"
    if not folder.is_dir():
        return
    for path in sorted(p for p in _walk(folder) if p.is_file()):
        name = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"the template is not UTF-8 text (byte {data[exc.start]:#04x})",
                file=path,
                line=data[: exc.start].count(b"\n") + 1,
            ) from None
        try:
            tree = env.parse(source, name, str(path))
            env.get_template(name)
        except TemplateSyntaxError as exc:
            raise _syntax(exc, path) from None
        except TemplateNotFound as exc:  # an extends or include written by a bundled template
            raise InputError(f"no template named {exc.name!r}", file=path) from None
        for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
            if isinstance(node, nodes.Include) and node.ignore_missing:
                continue
            named = getattr(node, "template", None)
            if isinstance(named, nodes.Const) and isinstance(named.value, str):
                try:
                    env.get_template(named.value)
                except TemplateNotFound:
                    raise _not_found(named.value, path, node.lineno) from None
                except TemplateSyntaxError as exc:
                    raise _syntax(exc, path) from None


def _syntax(exc: TemplateSyntaxError, path: Path) -> InputError:
    return InputError(
        f"template syntax error: {exc.message}", file=exc.filename or path, line=exc.lineno
    )


def _not_found(name: str, path: Path | str, line: int | None) -> InputError:
    return InputError(
        f"no template named {name!r} in the theme or the bundled site (a theme may name "
        "only templates inside its templates/ folder or the bundled ones)",
        file=path,
        line=line,
    )


def render_error(exc: Exception, page: str, folders: list[Path]) -> InputError:
    """What a template did wrong while rendering ``page``, at the innermost line of a
    template (of ``folders``) that the traceback passes through."""
    where: tuple[str, int] | None = None
    tb: TracebackType | None = exc.__traceback__
    roots = [str(f.resolve()) for f in folders]
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if any(os.path.abspath(filename).startswith(root + os.sep) for root in roots):
            where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    file, line = where if where is not None else (None, None)
    if isinstance(exc, TemplateSyntaxError):
        return InputError(
            f"template syntax error: {exc.message} (rendering {page})",
            file=exc.filename or file,
            line=exc.lineno,
        )
    if isinstance(exc, TemplateNotFound):
        return _not_found(str(exc.name or exc), file or page, line)
    kind = "" if isinstance(exc, TemplateError) else f"{type(exc).__name__}: "
    return InputError(
        f"the template failed: {kind}{exc} (rendering {page})",
        file=file,
        line=line,
    )
