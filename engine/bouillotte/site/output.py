"""The site's output, written safely: one build at a time into a folder (a lock), into a
temporary folder swapped in whole, and only over a folder that a build wrote (its marker)."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..rules.errors import InputError

MARKER = ".bouillotte-site"
"""A file at the root of every built site: only a folder holding it is ever replaced."""

PARTIAL = ".bouillotte-partial"
"""A file in a build's temporary folder until its marker is written: a folder holding it
beside ``--out`` is the leftover of a build that was killed, removed by the next build."""


def _marked_files(out: Path) -> set[str] | None:
    """The files a previous build wrote, as its marker lists them (``None``: a marker that
    lists none, as older builds wrote it, or made by hand: then nothing in the folder is
    known to be the build's, and the folder is never replaced)."""
    lines = (out / MARKER).read_text(encoding="utf-8", errors="replace").splitlines()
    return {line[2:] for line in lines if line.startswith("- ")} or None


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_out(out: Path, inputs: Sequence[Path] = ()) -> None:
    """Refuse, before anything is built, an ``out`` that cannot or must not be replaced:
    the current folder, a folder holding an input, a folder holding files this tool did not
    write, or one it could not write or delete."""
    if str(out).strip() in ("", "."):
        raise InputError("--out must name a folder (not the current one)", file=str(out))
    real = Path(os.path.abspath(out))
    here = Path.cwd()
    if _within(here, real):
        raise InputError(
            "--out is the current folder or holds it: it would be replaced while in use",
            file=out,
        )
    for given in inputs:
        if _within(Path(os.path.abspath(given)), real) or _within(given.resolve(), real.resolve()):
            raise InputError(
                f"--out holds the input {given}: building would delete it; choose another --out",
                file=out,
            )
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError("the output must be a folder", file=out)
    if out.is_dir():
        _check_replaceable(out)
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into {ancestor}: permission denied", file=out)


def _check_replaceable(out: Path) -> None:
    entries = sorted(out.rglob("*"))
    if not entries:
        return
    if not (out / MARKER).is_file():
        raise InputError(
            f"refusing to replace a folder that is not a built site (it has no {MARKER} file); "
            "choose an empty or new folder with --out",
            file=out,
        )
    written = _marked_files(out)
    others = [e.relative_to(out).as_posix() for e in entries if e.name != MARKER or e.parent != out]
    if written is None and others:
        raise InputError(
            f"refusing to replace a folder whose {MARKER} file lists no files (an older "
            f"build's, or one made by hand): nothing in it is known to be the build's, such "
            f"as {others[0]}; remove the folder yourself, or choose another --out",
            file=out,
        )
    for entry in entries:
        rel = entry.relative_to(out).as_posix()
        if entry.is_dir() and not entry.is_symlink():
            if not os.access(entry, os.W_OK | os.X_OK):
                raise InputError(
                    f"the previous build cannot be removed: {rel} is read-only", file=out
                )
        elif written is not None and rel != MARKER and rel not in written:
            raise InputError(
                f"refusing to replace a built site that now holds a file it did not write "
                f"({rel}); move it out, or choose another --out",
                file=out,
            )
    if not os.access(out, os.W_OK | os.X_OK):
        raise InputError("the previous build cannot be removed: it is read-only", file=out)


class BuildLock:
    """Only one build at a time into a folder: ``.<name>.lock`` beside it is locked (the
    lock ends with the process, whatever becomes of it)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path = out.parent / f".{out.name}.lock"
        self.fd: int | None = None

    def __enter__(self) -> BuildLock:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise InputError(
                    "another `bouillotte site build` is writing into this folder; "
                    "wait for it to finish",
                    file=self.out,
                ) from None
            try:  # the holder before us may have removed the file: lock the current one
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.fd = fd
                return self
            os.close(fd)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)


@contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) waits for the block to end, so that no half-swapped site is left
    behind; it is then handled as it would have been."""
    caught: list[int] = []
    signals = (signal.SIGINT, signal.SIGTERM)
    try:
        previous = {
            n: signal.signal(n, lambda signum, frame: caught.append(signum)) for n in signals
        }
    except ValueError:  # not the main thread: signals go elsewhere anyway
        yield
        return
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    for caught_number in caught[:1]:
        handler = previous[signal.Signals(caught_number)]
        if callable(handler):
            handler(caught_number, None)
        elif handler == signal.SIG_DFL and caught_number == signal.SIGTERM:
            os.kill(os.getpid(), caught_number)
        else:
            raise KeyboardInterrupt


def remove_leftovers(out: Path) -> None:
    """Old copies or half-written builds left by a build that was killed outright."""
    # Exactly the names swap and mkdtemp give (eight random characters), so that the
    # leftovers of a build into another folder ("site.b" beside "site") never match.
    for pattern in (f".{out.name}.old-[0-9]*", f".{out.name}.{'?' * 8}.tmp"):
        for stale in out.parent.glob(pattern):
            if not stale.is_dir() or stale.is_symlink():
                continue
            # An empty one: an older build killed before it wrote anything.
            built = (stale / MARKER).is_file() or (stale / PARTIAL).is_file()
            if built or not any(stale.iterdir()):
                shutil.rmtree(stale, ignore_errors=True)


def write_files(
    target: Path, site_dir: Path, files: dict[str, str], theme: Path | None = None
) -> None:
    shutil.copytree(site_dir / "assets", target / "assets")
    if theme is not None and (theme / "assets").is_dir():
        # A theme's asset replaces the bundled one of its name (style.css, say).
        for asset in sorted((theme / "assets").rglob("*")):
            if asset.is_file() and not asset.is_symlink():
                copy = target / "assets" / asset.relative_to(theme / "assets")
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(asset, copy)
    for rel, text in sorted(files.items()):
        file = target / rel
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8", newline="\n")
    written = sorted(
        f.relative_to(target).as_posix()
        for f in target.rglob("*")
        if f.is_file() and f.name not in (MARKER, PARTIAL)
    )
    (target / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n"
        "The files it wrote (a folder holding any other is never replaced):\n"
        + "".join(f"- {rel}\n" for rel in written),
        encoding="utf-8",
        newline="\n",
    )
    (target / PARTIAL).unlink(missing_ok=True)


def swap(tmp: Path, out: Path) -> None:
    """Put the new build in place; the old one is removed only once the new one is in."""
    with _interrupt_deferred():
        old = None
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            if old.exists():
                shutil.rmtree(old)
            out.rename(old)
        try:
            tmp.rename(out)
        except OSError:
            if old is not None:
                old.rename(out)
            raise
        if old is not None:
            shutil.rmtree(old)
