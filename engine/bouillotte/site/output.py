"""The site's output, written safely: one build at a time into a folder (a lock), into a
temporary folder swapped in whole, and only over a folder that a build wrote (its marker)."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import json
import os
import secrets
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

from ..rules.errors import InputError
from ..rules.idtext import escaped
from ..rules.writing import absolute, interrupt_deferred, reason, resolved

MARKER = ".bouillotte-site"
"""A file at the root of every built site: only a folder holding it is ever replaced."""

PARTIAL = ".bouillotte-partial"
"""A file in a build's temporary folder until its marker is written, naming that folder
(:func:`partial_claim`): a folder holding it beside ``--out`` is the leftover of a build
that was killed, removed by the next build."""

REPLACED = ".bouillotte-replaced"
"""A file written into the previous build just before it is renamed aside
(``.<out>.old-<token>``), naming the folder it is renamed to: only a folder holding the
claim of its own name is ever removed as a leftover, never a user's folder that merely
has such a name (``.site.old-2025``, a backup made by hand)."""


def partial_claim(folder: Path) -> str:
    """What :data:`PARTIAL` holds in the temporary folder ``folder``."""
    return f"a build in progress, or killed: {escaped(folder.name)}\n"


def replaced_claim(folder: Path) -> str:
    """What :data:`REPLACED` holds in the previous build renamed to ``folder``."""
    return f"a previous build, being replaced: {escaped(folder.name)}\n"


def _claims(folder: Path, name: str, claim: str) -> bool:
    """Whether ``folder/name`` is a regular file holding exactly ``claim``."""
    try:
        fd = os.open(folder / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return os.read(fd, 4096) == claim.encode("utf-8")
    except OSError:
        return False
    finally:
        os.close(fd)


def _marked_files(out: Path) -> set[str] | None:
    """The files a previous build wrote, as its marker lists them (``None``: a marker that
    lists none, as older builds wrote it, or made by hand: then nothing in the folder is
    known to be the build's, and the folder is never replaced)."""
    lines = (out / MARKER).read_text(encoding="utf-8", errors="replace").split("\n")
    return {_unlisted(line[2:]) for line in lines if line.startswith("- ")} or None


def _listed(rel: str) -> str:
    """``rel`` as the marker lists it, on one line and read back exactly (:func:`_unlisted`):
    as it is when printable (as every build wrote it), else as a JSON string (a line break,
    a control character or bytes that are not UTF-8 in a name given by a theme)."""
    return rel if rel.isprintable() and not rel.startswith('"') else json.dumps(rel)


def _unlisted(line: str) -> str:
    if line.startswith('"'):
        with contextlib.suppress(ValueError):
            found = json.loads(line)
            if isinstance(found, str):
                return found
    return line


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_out(out: Path, inputs: Sequence[Path] = ()) -> None:
    """Refuse, before anything is built, an ``out`` that cannot or must not be replaced:
    the current folder, a folder holding an input or inside an input folder (the theme,
    whose assets the site copies, or a folder of profiles or scenarios, which a later build
    would read), a folder holding files this tool did not write, or one it could not write
    or delete."""
    if str(out).strip() in ("", "."):
        raise InputError("--out must name a folder (not the current one)", file=str(out))
    real = absolute(out)
    here = absolute(Path("."))
    if _within(here, real):
        raise InputError(
            "--out is the current folder or holds it: it would be replaced while in use",
            file=out,
        )
    for given in inputs:
        if _within(absolute(given), real) or _within(resolved(given), resolved(out)):
            raise InputError(
                f"--out holds the input {given}: building would delete it; choose another --out",
                file=out,
            )
        if given.is_dir() and (
            _within(real, absolute(given)) or _within(resolved(out), resolved(given))
        ):
            raise InputError(
                f"--out is inside the input {as_reached(given)}, which the build reads (and "
                "whose assets a theme's site copies): choose a folder outside it",
                file=out,
            )
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise InputError("the output must be a folder", file=out)
    if out.is_dir() and os.path.ismount(real):  # found out after the build, as EBUSY
        raise InputError(
            "is a mount point: a build renames a whole new folder into the place of --out, "
            f"which a mount point cannot take; build into a folder inside it ({out}/site)",
            file=out,
        )
    if out.is_dir():
        _check_replaceable(out)
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError(
            f"{as_reached(ancestor)} is a file, not a folder: the output cannot be made in it",
            file=out,
        )
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(f"cannot write into {as_reached(ancestor)}: permission denied", file=out)


def as_reached(path: Path | str) -> str:
    """A file as the command line reached it: relative to the current folder when it is
    within it (``theme/templates/search.html``), never by its machine path where the user
    gave a relative one (a path found by following links, or made absolute, is compared
    with the current folder as it is and with every link in it followed)."""
    file = Path(path)
    if not file.is_absolute():
        return str(path)
    try:
        here = Path(os.getcwd())
    except OSError:
        return str(path)
    for base in (here, here.resolve()):
        if _within(file, base):
            return os.path.relpath(file, base)
    return str(path)


def _check_replaceable(out: Path) -> None:
    if next(out.iterdir(), None) is None:
        return
    for own in (MARKER, REPLACED):  # read and written by the build: never through a link
        if os.path.lexists(out / own) and not stat.S_ISREG(os.lstat(out / own).st_mode):
            raise InputError(
                f"refusing to replace a built site whose {own} is not a regular file (a "
                "link, a folder or a pipe): move it out, or choose another --out",
                file=out,
            )
    if not (out / MARKER).is_file():
        raise InputError(
            f"refusing to replace a folder that is not a built site (it has no {MARKER} file); "
            "choose an empty or new folder with --out",
            file=out,
        )
    entries = sorted(out.rglob("*"))  # a site's only: a folder of 500,000 files that is
    # none was walked whole (12.7 s) before it was refused for having no marker
    written = _marked_files(out)
    others = [
        e.relative_to(out).as_posix()
        for e in entries
        if e.name not in (MARKER, REPLACED) or e.parent != out
    ]
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
        elif written is not None and rel not in (MARKER, REPLACED) and rel not in written:
            raise InputError(
                f"refusing to replace a built site that now holds a file it did not write "
                f"({rel}); move it out, or choose another --out",
                file=out,
            )
    if not os.access(out, os.W_OK | os.X_OK):
        raise InputError("the previous build cannot be removed: it is read-only", file=out)


_HELD: set[int] = set()
"""The descriptors of the build locks this process holds (:class:`BuildLock`)."""


def release_inherited_locks() -> None:
    """In a process forked from a build (its second process): close the build's lock, which
    the fork copied; held here, it would outlive a build killed outright and refuse every
    build after it into the same folder."""
    for fd in list(_HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


def lock_claim(out: Path) -> str:
    """What a build's lock beside ``out`` holds: how a lock file this tool made is told from
    a user's file of that name, which is never used nor deleted."""
    return f"the lock of `bouillotte site build` into {escaped(out.name)}\n"


class BuildLock:
    """Only one build at a time into a folder: ``.<name>.lock`` beside it is locked (the
    lock ends with the process, whatever becomes of it; ``<name>`` as :func:`aside_stem`
    gives it). The file is opened without following a link, holds :func:`lock_claim`, and
    is removed only if it does (a link, a folder, a pipe or a user's file of that name is
    refused, and left as it was; an empty file, as older versions left one, is used and
    left)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path = out.parent / f"{aside_stem(out)}.lock"
        self.fd: int | None = None
        self.ours = False

    def _refuse(self, what: str) -> InputError:
        return InputError(
            f"{what}, where a build into {as_reached(self.out)} keeps its lock: move it, "
            "or choose another --out",
            file=as_reached(self.path),
        )

    def _open(self) -> tuple[int, bool]:
        """The lock file's descriptor, and whether this build made it."""
        claim = lock_claim(self.out).encode("utf-8")
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK
        try:
            fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pass
        else:
            os.write(fd, claim)
            return fd, True
        try:
            found = os.lstat(self.path)
        except FileNotFoundError:  # removed meanwhile by the build that held it
            return self._open()
        if stat.S_ISLNK(found.st_mode):
            raise self._refuse("is a link")
        if stat.S_ISDIR(found.st_mode):
            raise self._refuse("is a folder")
        if not stat.S_ISREG(found.st_mode):
            raise self._refuse("is not a regular file (a device, pipe or socket)")
        try:
            fd = os.open(self.path, flags)
        except FileNotFoundError:
            return self._open()
        try:
            held = os.read(fd, len(claim) + 1)
        except OSError:
            held = claim
        if held not in (b"", claim):
            os.close(fd)
            raise self._refuse("is a file of its own, not a lock of this tool")
        return fd, held == claim

    def __enter__(self) -> BuildLock:
        while True:
            fd, ours = self._open()
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
                same = os.fstat(fd).st_ino == os.lstat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self.fd, self.ours = fd, ours
                _HELD.add(fd)
                return self
            os.close(fd)

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                if self.ours and os.lstat(self.path).st_ino == os.fstat(self.fd).st_ino:
                    self.path.unlink()
            _HELD.discard(self.fd)
            os.close(self.fd)


def aside_stem(out: Path) -> str:
    """The start of the names a build into ``out`` keeps beside it (its lock, the build in
    progress, the old copy): ``.`` and ``out``'s name, a longer name cut to 55 characters
    and its hash, so that any name the file system takes (up to 255 bytes) still takes
    them, tokens and all, and two long names never share them."""
    name = os.fsencode(out.name)  # as the file system holds it (not always UTF-8)
    if len(name) <= 64:
        return f".{out.name}"
    cut = os.fsdecode(name[:55].decode("utf-8", errors="ignore").encode("utf-8"))
    return f".{cut}-{hashlib.sha256(name).hexdigest()[:8]}"


def remove_leftovers(out: Path) -> None:
    """Old copies or half-written builds left by a build that was killed outright: only a
    folder that a build claimed as its own, by a file naming that very folder (its token
    chosen at random), is removed; a user's folder of the same shape of name is not."""
    # Exactly the names swap and mkdtemp give, so that the leftovers of a build into
    # another folder ("site.b" beside "site") never match.
    for pattern, name, claim in (
        (f"{glob.escape(aside_stem(out))}.old-{'?' * 8}", REPLACED, replaced_claim),
        (f"{glob.escape(aside_stem(out))}.{'?' * 8}.tmp", PARTIAL, partial_claim),
    ):
        for stale in out.parent.glob(pattern):
            if not stale.is_dir() or stale.is_symlink():
                continue
            if _claims(stale, name, claim(stale)):
                shutil.rmtree(stale, ignore_errors=True)
            elif name == PARTIAL and not any(stale.iterdir()):
                # A build killed between making its folder and claiming it: empty, so
                # removing it loses nothing.
                with contextlib.suppress(OSError):
                    stale.rmdir()


def make_parents(out: Path, made: list[Path]) -> None:
    """Make the folders above ``out`` that are missing, noting each in ``made`` before it is
    made (Ctrl-C landing once it exists still finds it), for :func:`remove_made`."""
    missing: list[Path] = []
    absolute(out)  # a current folder deleted, a dangling link on the way: one line
    # the path as the system will open it, ``..`` included (``y/../z`` needs ``y``, as
    # ``mkdir -p`` makes it), not as :func:`absolute` reads it for a message
    current = Path(os.path.join(os.getcwd(), out)).parent
    while not os.path.lexists(current):
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        made.append(folder)
        try:
            os.mkdir(folder)
        except FileExistsError:  # made meanwhile by another process: not this build's
            made.pop()
        except OSError:
            made.pop()
            raise


def remove_made(made: list[Path]) -> None:
    """Remove the folders a failed build made above ``--out`` (:func:`make_parents`), last
    made first, each only if it is empty (another process may have written into it)."""
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            os.rmdir(folder)
    made.clear()


def remove_build(tmp: Path) -> None:
    """Remove a failed build's temporary folder. ``shutil.rmtree`` holds a descriptor per
    level of folders, and gives up quietly when the process has none left (``ulimit -n``,
    the very failure being cleaned up); what it left is then removed by path, a descriptor
    at a time (a folder is listed, then closed, before anything in it is removed)."""
    shutil.rmtree(tmp, ignore_errors=True)
    if os.path.lexists(tmp):
        _remove_by_path(tmp)


def _remove_by_path(path: Path) -> None:
    with contextlib.suppress(OSError):
        if not stat.S_ISDIR(os.lstat(path).st_mode):  # a link is removed, never followed
            os.unlink(path)
            return
        for name in os.listdir(path):
            _remove_by_path(path / name)
        os.rmdir(path)


def write_files(
    target: Path, site_dir: Path, files: dict[str, str], theme: Path | None = None
) -> None:
    # File by file, not shutil.copytree: its error gathers every file's failure into a
    # list (a full disk lists them all), where the first is the one line to show.
    bundled_assets = site_dir / "assets"
    for asset in sorted(bundled_assets.rglob("*")):
        copy = target / "assets" / asset.relative_to(bundled_assets)
        if asset.is_dir():
            copy.mkdir(parents=True, exist_ok=True)
        else:
            copy.parent.mkdir(parents=True, exist_ok=True)
            # Its contents only: made new, with the mode the umask gives, as every page is
            # (copy2 gave every asset its source's 0644, readable by all under umask 077).
            shutil.copyfile(asset, copy)
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
        if f.is_file() and f.name not in (MARKER, PARTIAL, REPLACED)
    )
    (target / MARKER).write_text(
        "A static site built by `bouillotte site build`; safe to replace.\n"
        "The files it wrote (a folder holding any other is never replaced):\n"
        + "".join(f"- {_listed(rel)}\n" for rel in written),
        encoding="utf-8",
        newline="\n",
    )
    (target / PARTIAL).unlink(missing_ok=True)


def _write_claim(file: Path, claim: str) -> None:
    """Write ``claim`` into ``file`` without following a link (and never into a pipe)."""
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("is not a regular file: the build's claim is not written", file=file)
        os.write(fd, claim.encode("utf-8"))
    finally:
        os.close(fd)


def swap(tmp: Path, out: Path) -> str | None:
    """Put the new build in place; the old one is renamed aside to a name of this run's
    own (a random token), claimed (:data:`REPLACED`), and removed once the new one is in.
    The new site is in place whether or not the old one can then be removed: a removal
    that fails (a folder in it the user may not write, a file busy) is no failure of the
    build but a note, returned, and the copy left claimed for the next build to remove."""
    with interrupt_deferred():
        old = None
        if out.exists():
            # Checked again as the build ends: a file put in ``out`` while the site was
            # being built was removed with the old copy.
            _check_replaceable(out)
            old = out.with_name(f"{aside_stem(out)}.old-{secrets.token_hex(4)}")
            while os.path.lexists(old):
                old = out.with_name(f"{aside_stem(out)}.old-{secrets.token_hex(4)}")
            _write_claim(out / REPLACED, replaced_claim(old))
            try:
                out.rename(old)
            except OSError:
                (out / REPLACED).unlink(missing_ok=True)
                raise
        try:
            tmp.rename(out)
        except OSError:
            if old is not None:
                old.rename(out)
                (out / REPLACED).unlink(missing_ok=True)
            raise
        if old is None:
            return None
        try:
            shutil.rmtree(old)
        except OSError as exc:
            with contextlib.suppress(OSError, InputError):  # its claim may be gone first
                _write_claim(old / REPLACED, replaced_claim(old))
            return (
                f"the previous build, renamed to {as_reached(old)}, could not be removed "
                f"({reason(exc)}): the new site is in place, and the next build into "
                f"{as_reached(out)} removes it (or remove it yourself)"
            )
        return None
