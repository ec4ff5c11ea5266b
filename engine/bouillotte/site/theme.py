"""A site's theme (``theme:`` in ``site.yaml``): confined to its folder, its templates
checked before anything is built, and any error a template makes while the pages are
rendered told as one line at the template's file and line (exit 2).

A theme is a folder beside the configuration file (a relative path without ``..``) holding
``templates/`` and/or ``assets/``. Nothing in it may lead outside it: a link whose target
is outside the theme (a template, an asset, a folder) is refused, as is a theme folder that
is itself a link leaving the configuration's folder. Each template must be UTF-8 and valid
Jinja2, and every ``extends``, ``include`` and ``import`` it writes must name a template of
the theme or of the bundled site (Jinja2 itself refuses a name with ``..``). Every file name
of the theme is UTF-8 without a control character, and each asset a regular file the build
does not write itself. Templates are rendered in Jinja2's sandbox (``builder._environment``):
a theme reaches the values it is given, never Python's internals nor the machine's files
(:func:`reaches_the_machine`). Every message names a theme's file as the command line
reached it (``theme/templates/search.html``), never by its machine path.
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path, PurePath
from types import BuiltinMethodType, MethodType, ModuleType, TracebackType
from typing import Any

from jinja2 import (
    Environment,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
    Undefined,
    nodes,
)
from jinja2.exceptions import SecurityError
from jinja2.runtime import LoopContext
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from ..rules.errors import InputError
from ..rules.escaping import visible_controls
from ..rules.idtext import REORDERING_MARKS
from ..rules.writing import MAX_BYTES, MAX_FILES, reason, resolved
from ..rules.yamlsource import Located
from .output import as_reached
from .search import SEARCH_INDEX
from .template_bounds import (
    TooLarge,
    bound_filters_and_globals,
    check_binop,
    check_call,
    check_format,
    check_text,
    checked_call,
    sized,
    textable,
)
from .template_budget import Filters, Globals, Steps
from .template_compare import COMPARED, bound_comparisons, compared

FOLDERS = ("templates", "assets")


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_folder(theme: Path, config_file: Path, line: int | None) -> Path:
    """``theme`` (as written beside ``config_file``) resolved, once nothing in it leads
    outside it, every file name is one a site may hold and every asset one the build may
    copy (:func:`_asset_fault`)."""
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
    # Every link of the whole folder, not only of templates/ and assets/: a link there to a
    # folder elsewhere in the theme (templates/sub -> ../other) reaches what that folder's
    # own links reach (other/x.html -> /etc/passwd).
    files, size = 0, 0
    for path in _walk(real):
        fault = _name_fault(path.name)
        if fault is not None:
            raise InputError(fault, file=as_reached(path))
        if path.is_symlink() and not _within(resolved(path), real):
            raise _leaves(path, real)
        fault = _file_fault(path, real)
        if fault is not None:
            raise InputError(fault, file=as_reached(path))
        if path.is_file():
            files, size = files + 1, size + path.stat().st_size
            if files > MAX_FILES or size > MAX_BYTES:
                raise InputError(
                    f"the theme holds more than {MAX_FILES:,} files or {MAX_BYTES:,} bytes, "
                    "the most one build writes",
                    file=as_reached(theme),
                )
    return real


_ODD_IN_A_NAME = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{REORDERING_MARKS}]")
"""What a theme's file name may not hold: a line break or another control character, a
mark that reorders text (the asset is published under its name, and listed in the site's
marker one name a line)."""


def _name_fault(name: str) -> str | None:
    """Why a theme may not hold a file named ``name`` (``None``: it may)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # bytes the file system gave that are not UTF-8
        return "the file name is not UTF-8: rename it"
    if _ODD_IN_A_NAME.search(name):
        return (
            "the file name holds a control character (a line break, or a mark that "
            "reorders text): rename it"
        )
    return None


GENERATED_ASSETS = frozenset({SEARCH_INDEX})
"""The files under ``assets/`` that the build writes itself: a theme cannot replace them."""


def _file_fault(path: Path, theme: Path) -> str | None:
    """Why the theme's file ``path`` cannot be used (``None``: it can be): a pipe, device
    or socket (a template would be skipped, an asset left out, in silence), and in
    ``assets/``, copied into the site, a link (an asset is copied, never followed) or a
    file the build writes itself."""
    if not path.is_symlink() and not path.is_dir() and not path.is_file():
        return "not a regular file (a device, pipe or socket): a theme holds files and folders"
    if path.is_file() and not path.is_symlink():
        try:  # told now, as the theme's file, not as "cannot write the site" half-way
            with open(path, "rb"):
                pass
        except OSError as exc:
            return f"cannot be read ({reason(exc)}): let the build read it, or remove it"
    if not _within(path, theme / "assets"):
        return None
    if path.is_symlink():
        return "is a link: a theme's asset must be a regular file inside its folder"
    if f"assets/{path.relative_to(theme / 'assets').as_posix()}" in GENERATED_ASSETS:
        return (
            "the build writes this asset itself (from the site's pages): a theme cannot "
            "replace it; rename it"
        )
    return None


def _walk(top: Path) -> Iterator[Path]:
    for folder, dirs, files in os.walk(top, followlinks=False):
        for name in [*dirs, *files]:
            yield Path(folder) / name


def _leaves(path: Path, theme: Path) -> InputError:
    return InputError(
        f"a link to {path.resolve()}, outside the theme ({as_reached(theme)}): a theme's "
        "templates and assets must be inside its folder",
        file=as_reached(path),
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
                file=as_reached(path),
                line=data[: exc.start].count(b"\n") + 1,
            ) from None
        try:
            tree = env.parse(source, name, str(path))
            env.get_template(name)
        except TemplateSyntaxError as exc:
            raise _syntax(exc, path) from None
        except TemplateNotFound as exc:  # an extends or include written by a bundled template
            raise InputError(f"no template named {exc.name!r}", file=as_reached(path)) from None
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
        f"template syntax error: {exc.message}",
        file=as_reached(exc.filename or path),
        line=exc.lineno,
    )


def _not_found(name: str, path: Path | str, line: int | None) -> InputError:
    return InputError(
        f"no template named {name!r} in the theme or the bundled site (a theme may name "
        "only templates inside its templates/ folder or the bundled ones)",
        file=as_reached(path),
        line=line,
    )


def render_error(exc: Exception, page: str, folders: list[Path]) -> InputError:
    """What a template did wrong while rendering ``page``, at the innermost line of a
    template (of ``folders``) that the traceback passes through; for a loop that never ends
    (``RecursionError``), at the line that repeats, the theme's own before the bundled ones
    (the innermost line is only where the stack happened to run out)."""
    found: list[tuple[int, str, int]] = []  # (folder's place, file, line), outermost first
    tb: TracebackType | None = exc.__traceback__
    roots = [str(f.resolve()) for f in folders]
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        places = [
            i for i, root in enumerate(roots) if os.path.abspath(filename).startswith(root + os.sep)
        ]
        if places:
            found.append((places[0], filename, tb.tb_lineno))
        tb = tb.tb_next
    where: tuple[str, int] | None = found[-1][1:] if found else None
    if isinstance(exc, RecursionError) and found:
        counts = Counter(found)
        most = max(counts.values())
        repeating = [frame for frame in found if counts[frame] == most]
        where = min(repeating, key=lambda frame: frame[0])[1:]
    file, line = where if where is not None else (None, None)
    if isinstance(exc, TemplateSyntaxError):
        named = exc.filename or file
        return InputError(
            f"template syntax error: {exc.message} (rendering {page})",
            file=as_reached(named) if named is not None else None,
            line=exc.lineno,
        )
    if isinstance(exc, TemplateNotFound):
        return _not_found(str(exc.name or exc), file or page, line)
    kind = "" if isinstance(exc, TemplateError) else f"{type(exc).__name__}: "
    return InputError(
        f"the template failed: {kind}{exc} (rendering {page})",
        file=as_reached(file) if file is not None else None,
        line=line,
    )


# -- bounded rendering (issue 47) ---------------------------------------------------------

PAGE_CHARACTERS = 64 * 2**20
"""The most characters one page may hold (the largest bundled page is about 2 MB)."""

STEPS = "_bouillotte_loop_steps"
"""The global every ``for`` of a template is made to iterate through (:class:`Steps`)."""


_OF_THE_MACHINE: tuple[type, ...] = (PurePath, io.IOBase, ModuleType, os.DirEntry, Located)
"""What a template is never given, nor anything reached through it: a path (``pathlib``:
``read_text``, ``write_text``, ``unlink``...), a file object, a module (``os``, ``sys``,
``builtins.open``...), a folder's entry, a loaded file (``Located``: it holds its file's
path on the builder's machine)."""


_OWNERS_OF_THE_MACHINE = (type, *_OF_THE_MACHINE)


def reaches_the_machine(value: Any) -> bool:
    """Whether a template given ``value`` could reach the machine (files, processes, Python's
    loaders) through it: one of :data:`_OF_THE_MACHINE`, a class of them (``Path``), or a
    method bound to one of them, to a module (a builtin function: ``open``), or to a class
    (a class method: a model's ``parse_file(path)`` reads any file). Checked by the sandbox
    on every attribute, item, call and result a template reaches, and every value it
    writes: the refusal is class-wide, not a list of methods."""
    if isinstance(value, _OF_THE_MACHINE):
        return True
    if isinstance(value, type):
        return issubclass(value, _OF_THE_MACHINE)
    if isinstance(value, MethodType | BuiltinMethodType):
        owner = value.__self__
        return isinstance(owner, _OWNERS_OF_THE_MACHINE)
    return False


def _machine(what: str, value: Any) -> SecurityError:
    kind = value.__name__ if isinstance(value, type) else type(value).__name__
    return SecurityError(
        f"{what} a {kind!r}, which reaches the machine's files or Python's internals: a "
        "theme may use only the values it is given"
    )


def _well_formed(value: Any) -> Any:
    """Every value a template writes (``{{ ... }}``), before it is escaped: a text's control
    characters that HTML forbids shown as escapes (:func:`visible_controls`); markup stays
    markup; another value only if its text is not too long (:func:`check_text`)."""
    if isinstance(value, str):
        shown = visible_controls(value)
        if shown is not value:
            return Markup(shown) if isinstance(value, Markup) else shown
    elif reaches_the_machine(value):
        raise _machine("a template may not write", value)
    else:
        check_text(value, "'{{ }}'")
    return value


class BoundedEnvironment(SandboxedEnvironment):
    """Jinja2's sandbox with bounds on the work a template can ask for: every loop counts
    its steps (:class:`Steps`), and ``*`` and ``**`` are refused where they would make a
    huge value (``"x" * 10**9``, ``10 ** 10 ** 10``), as are a huge format, padding, sum
    or lipsum, and writing a value whose text would be huge (a list nesting itself forty
    times: ``template_bounds.py``)."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("finalize", self._written)
        super().__init__(*args, **kwargs)
        self.steps = Steps()
        self.globals[STEPS] = self.steps
        self.globals[SIZED] = self._sized
        self.globals[MADE] = self.steps.made
        self.globals[TEXT] = textable
        bound_filters_and_globals(self)
        bound_comparisons(self)
        # Every value a page makes is counted against its budget (template_budget.py):
        # each filter's result, a captured block once joined; the site's own filters and
        # functions, set from here on, check what they are given.
        self.filters = Filters(self.filters, self.steps)
        self.globals = Globals(self.globals)
        self.concat = self.steps.joined  # type: ignore[method-assign]
        # The checks ``_generate`` puts into every template (each loop, each ``~`` and its
        # operands, each operand of a comparison): called as they are, never counted as
        # the template's calls (a comparison in a loop would have made two of them a step).
        own = (self.steps, self.globals[SIZED], self.globals[MADE], textable, compared)
        self._own_checks = own

    def _sized(self, value: Any) -> Any:
        """A ``~``'s result, bounded (``template_bounds.sized``) and counted."""
        return self.steps.made(sized(value))

    def _written(self, value: Any) -> Any:
        """A value written (``{{ }}``), checked (:func:`_well_formed`) and counted: written
        in a captured block (``{% set %}``, a macro), it is escaped into a new text."""
        return self.steps.made(_well_formed(value))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        steps = __self.steps
        if __obj in __self._own_checks:  # put in by _generate, not the template's
            return __context.call(__obj, *args, **kwargs)
        steps.call()
        # A recursive loop's ``loop(items)`` starts the loop again on new items: they are
        # counted as the first ones are, so its steps are bounded, not only its depth.
        if isinstance(__obj, LoopContext) and len(args) == 1:
            args = (steps(args[0]),)
        if reaches_the_machine(__obj):
            raise _machine("a template may not call", __obj)
        check_call(__obj, args, kwargs)
        call = SandboxedEnvironment.call
        result = checked_call(__obj, lambda: call(__self, __context, __obj, *args, **kwargs))
        if reaches_the_machine(result):
            raise _machine("a call gave the template", result)
        return steps.made(result)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # Neither an attribute of what reaches the machine, nor one that is such a thing.
        return (
            super().is_safe_attribute(obj, attr, value)
            and not reaches_the_machine(obj)
            and not reaches_the_machine(value)
        )

    def is_safe_callable(self, obj: Any) -> bool:
        return super().is_safe_callable(obj) and not reaches_the_machine(obj)

    def getitem(self, obj: Any, argument: Any) -> Any:
        value = super().getitem(obj, argument)
        if reaches_the_machine(value) or reaches_the_machine(obj):
            return self.unsafe_undefined(obj, str(argument))
        if isinstance(value, Undefined):  # its error would write the item it did not find
            try:
                check_text(argument, "")
            except TooLarge:
                return self.undefined(obj=obj, name=f"a {type(argument).__name__} too long")
        return value

    def wrap_str_format(self, value: Any) -> Any:
        # The sandbox wraps a text's format method where it is read, not called: the
        # wrapper it makes checks the format with the values it is given.
        wrapped = super().wrap_str_format(value)
        owner = getattr(value, "__self__", None)
        if wrapped is None or not isinstance(owner, str):
            return wrapped

        def checked(*args: Any, **kwargs: Any) -> Any:
            check_format(owner, args, kwargs)
            return wrapped(*args, **kwargs)

        return checked

    def _generate(self, source: Any, name: Any, filename: Any, defer_init: bool = False) -> Any:
        if isinstance(source, nodes.Template):
            # Every ``~`` checked by its result's size (a text doubled in a loop), and each of
            # its operands by the size of its text (a list that nests itself 40 times); every
            # slice (``text[::-1]``: Jinja2 takes it without ``getitem``) counted as made.
            for parent in [source, *source.find_all(nodes.Node)]:  # listed first, then changed
                for field in parent.fields:
                    value = getattr(parent, field, None)
                    if isinstance(value, nodes.Node):
                        setattr(parent, field, _rewritten(value))
                    elif isinstance(value, list):
                        value[:] = [_rewritten(v) for v in value]
            # Every operand of a comparison, and every key of a mapping written, checked by
            # the work comparing or hashing it takes (template_compare.py).
            for compare in source.find_all(nodes.Compare):
                compare.expr = _checked(COMPARED, compare.expr)
                for operand in compare.ops:
                    operand.expr = _checked(COMPARED, operand.expr)
            for pair in source.find_all(nodes.Pair):
                pair.key = _checked(COMPARED, pair.key)
            for loop in source.find_all(nodes.For):
                loop.iter = nodes.Call(
                    nodes.Name(STEPS, "load", lineno=loop.lineno),
                    [loop.iter],
                    [],
                    None,
                    None,
                    lineno=loop.lineno,
                )
        return super()._generate(source, name, filename, defer_init)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        check_binop(operator, left, right)
        # a list's or tuple's items are held already: its '+' (l + [x]) or '*' makes only
        # the list itself
        made = super().call_binop(context, operator, left, right)
        return self.steps.made(made, items=operator not in ("+", "*"))


SIZED = "_bouillotte_sized"
"""The global every ``~`` of a template is made to pass its result through."""
TEXT = "_bouillotte_text"
"""The global every operand of a ``~`` is made to pass through (``textable``)."""
MADE = "_bouillotte_made"
"""The global every slice of a template is made to pass through (``Steps.made``)."""


def _call(name: str, node: nodes.Expr) -> nodes.Call:
    line = node.lineno
    return nodes.Call(nodes.Name(name, "load", lineno=line), [node], [], None, None, lineno=line)


def _checked(name: str, node: nodes.Expr) -> nodes.Expr:
    """``node`` passed through the check ``name``, unless it is a constant written in the
    template (a text or number it holds as written: nothing to check)."""
    return node if isinstance(node, nodes.Const) else _call(name, node)


def _rewritten(node: Any) -> Any:
    """``node`` as :meth:`BoundedEnvironment._generate` rewrites it: a ``~`` sized, its
    operands checked; a slice counted as made; any other node as it is."""
    if isinstance(node, nodes.Concat):
        node.nodes = [_checked(TEXT, operand) for operand in node.nodes]
        return _call(SIZED, node)
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Slice):
        return _call(MADE, node) if node.ctx == "load" else node
    return node


def render_bounded(env: Environment, template: str, context: dict[str, Any]) -> str:
    """``template`` rendered with ``context``, within its page's budget (loop steps, calls
    and the memory of the values made: ``template_budget.Steps``) and
    :data:`PAGE_CHARACTERS` characters."""
    steps = getattr(env, "steps", None)
    if isinstance(steps, Steps):
        steps.reset()
    parts: list[str] = []
    size = 0
    for part in env.get_template(template).generate(context):
        size += len(part)
        if size > PAGE_CHARACTERS:
            raise TooLarge(f"the page would hold more than {PAGE_CHARACTERS:,} characters")
        parts.append(part)
    return "".join(parts)
