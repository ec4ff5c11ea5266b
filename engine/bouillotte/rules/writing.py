"""The one way this tool writes a file a user asked for (issue 47): ``variants export``,
``new``, ``effects --write``, ``golden --write``, ``sweep --csv``, and the site build's
folder swapped in whole (``site/output.py``).

What every write promises:

- **whole or not at all**: each file is written under a temporary name of this run's own
  (``.bouillotte-<token>-<n>.tmp``, a token chosen at random) and renamed into place only
  once every file of the command is written; a folder made new (``new``) is built aside
  (``.<name>.<token>.tmp``) and renamed in one step. A failure (a full disk, ``/dev/full``,
  a read-only folder, the file-size limit, a name too long, too few file descriptors) or
  an interruption removes what this run made, and nothing else, so the same command can
  simply be run again (each temporary file is noted before it is made; those a writer
  killed outright left are removed by a later one, :func:`.abandoned.remove_abandoned`);
  a signal that comes as the files are renamed into place is too late to stop them: the
  command finishes (:func:`interrupt_deferred`), so "interrupted" means nothing was written;
  a rename refused half-way puts back what the files already renamed replaced, kept until
  all are in place, and so do the other outputs of the command (``together.py``);
- **confined**: every file goes inside the chosen folder; a name with ``..`` or a
  leading ``/`` is refused, and so is a link anywhere under the chosen folder (a link to a
  file, a dangling link, a linked folder), or the chosen folder being a link itself: a
  write never follows a link out of it; the folders above it are resolved as the system
  resolves them (:func:`absolute`: ``link/..`` is where ``ls`` takes it);
- **no surprise**: a target that exists is never overwritten unless the command replaces
  its own files (``golden``, ``effects``, ``--csv``), and then only a regular file (a
  named pipe, a device or a folder is refused at once, before any long work), never one
  the user made read-only (:func:`refuse_write_protected`), and never a
  file this process read as input (:func:`note_input`: ``session s.yaml --csv s.yaml``
  would replace the session with its own standings);
- **bounded**: at most :data:`MAX_FILES` files and :data:`MAX_BYTES` bytes a command;
- **one line**: every OS error is an :class:`~bouillotte.rules.errors.InputError`
  naming the file and the reason (exit 2), never a traceback.

Only the standard library and ``errors.py``: any layer may use it.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import stat
from contextlib import ExitStack, suppress
from pathlib import Path
from types import TracebackType

from .abandoned import remove_abandoned
from .errors import InputError
from .interrupts import interrupt_deferred as interrupt_deferred  # where writers find it
from .modes import current_umask, take_mode
from .together import Together, drop, keep, put_back

MAX_FILES = 100_000
"""The most files one command writes (a site of the bundled library writes about 400)."""
MAX_BYTES = 1 << 30
"""The most bytes one command writes (a site of the bundled library is about 30 MB)."""


_INPUTS: set[tuple[int, int, int, int]] = set()
"""The files this process has read as input (a profile, a scenario, a session, a text), by
device and inode, so that no path to them (a link, another spelling) is written over; with
their size and time of change, so that a new file that reuses a deleted one's inode (a
long-lived process: a notebook, the tests) is not taken for it."""


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def note_input(info: os.stat_result) -> None:
    """Note a file read as input (its ``stat``): no writer of this process replaces it."""
    _INPUTS.add(_identity(info))


def refuse_input(target: Path, shown: Path) -> None:
    """Refuse to write ``target`` (named ``shown``) if it is a file read as input."""
    try:
        info = os.stat(target)
    except OSError:
        return
    if _identity(info) in _INPUTS:
        raise InputError(
            "is an input of this command: writing there would replace what it read; "
            "name another file",
            file=shown,
        )


def reason(exc: OSError) -> str:
    """An OS error in words: ``No space left on device``, ``File too large``."""
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is too long for this file system"
    if exc.errno == errno.EMFILE:
        return "too many open files (raise the limit: ulimit -n)"
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list):
        # shutil's copies gather every file's failure in a list: the first one, in words
        first = str(exc.args[0][0][-1]) if exc.args[0] else ""
        number = re.match(r"\[Errno (\d+)\]", first)
        return os.strerror(int(number.group(1))) if number else first.split(": '")[0]
    return exc.strerror or str(exc)


def absolute(path: Path) -> Path:
    """``path`` made absolute as the system opens it: the folder it is in with every link
    followed (``link/..`` is the folder above the link's target, as ``ls`` and ``cat`` take
    it, not the folder holding the link, as text would), the last part as written (a link
    there is the writer's to refuse, never followed). A current folder that was deleted is
    one line (where Python's ``os.getcwd`` would raise)."""
    text = os.fspath(path)
    try:
        joined = text if os.path.isabs(text) else os.path.join(os.getcwd(), text)
    except FileNotFoundError:
        raise InputError(
            "the current folder no longer exists (it was deleted or moved): "
            "cd to a folder that exists and run the command again",
            file=path,
        ) from None
    folder, name = os.path.split(joined.rstrip("/") or "/")
    if name in ("", ".", ".."):
        folder, name = joined, ""
    real = os.path.realpath(folder)
    if not os.path.isdir(real):
        _refuse_dangling(folder)
    return Path(real) / name if name else Path(real)


def _refuse_dangling(folder: str) -> None:
    """Refuse a folder reached through a link that leads nowhere (the system would not
    open a file there; following it would make the folder it names, anywhere)."""
    current = folder
    while not os.path.lexists(current) and os.path.dirname(current) != current:
        current = os.path.dirname(current)
    if os.path.islink(current) and not os.path.exists(current):
        raise InputError(
            f"is a link to {os.readlink(current)}, which does not exist: refusing to make "
            "what it leads to; make that folder, or name another",
            file=current,
        )


def resolved(path: Path) -> Path:
    """``path`` with every link followed; a loop of links (a folder linked to itself) is
    one line, where Python's ``Path.resolve`` raises ``RuntimeError``."""
    try:
        return absolute(path).resolve()
    except RuntimeError:
        raise InputError(
            "is a link that leads back to itself (a loop of links): remove it", file=path
        ) from None


def refuse_links_below(
    folder: Path, rel: str, shown: Path | None = None, doing: str = "write"
) -> None:
    """Refuse ``folder/rel`` when ``folder`` or any part of ``rel`` is a link, or a part
    before the last is not a folder (a part that does not exist yet is fine); the message
    names the path as ``shown`` (the folder as the user wrote it) begins it, and what was
    refused (``doing``: ``write``, or ``delete`` for ``cache clear``)."""
    current = folder
    named = shown if shown is not None else folder
    parts = [p for p in rel.split("/") if p]
    for index, part in enumerate(["", *parts]):
        if part:
            current, named = current / part, named / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise InputError(f"cannot {doing} there: {reason(exc)}", file=named) from None
        if stat.S_ISLNK(info.st_mode):
            raise InputError(
                f"is a link: refusing to {doing} through it (a link could lead outside the "
                "chosen folder); remove it, or name the folder it leads to",
                file=named,
            )
        if index < len(parts) and not stat.S_ISDIR(info.st_mode):
            raise InputError("is not a folder", file=named)


def check_name(rel: str) -> None:
    """A file's name relative to the chosen folder: no ``..``, not absolute, no NUL."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "\0" in rel or any(p in ("", ".", "..") for p in parts):
        raise InputError("a file to write must stay inside the chosen folder", value=rel)


def is_null_device(path: Path) -> bool:
    """Whether ``path`` is ``/dev/null`` itself (not a link to it), the one device every
    Unix tool takes as "discard this output": writing there is writing nothing."""
    try:
        info, null = os.lstat(path), os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev


def refuse_write_protected(target: Path, shown: Path, what: str = "") -> None:
    """Refuse to replace the regular file ``target`` (named ``shown``) that its user may
    not write: one they made read-only (``chmod a-w``; root's own included) or one without
    write permission for them. The rename that replaces a file needs only its folder's
    permission, so without this check the protection the user set would be bypassed, where
    the shell's ``>`` refuses and ``rm`` asks."""
    try:
        info = os.lstat(target)
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode):
        return
    theirs = info.st_uid == os.geteuid()
    if (theirs and not info.st_mode & stat.S_IWUSR) or not os.access(target, os.W_OK):
        raise InputError(
            f"{what}{' ' if what else ''}is write-protected (no write permission): refusing "
            "to replace it; make it writable (chmod u+w) or name another file",
            file=shown,
        )


def check_target_file(path: Path, what: str = "the output") -> None:
    """Refuse at once, before any long work, a single output file that is not a regular
    file (a named pipe would hang the write, a device swallow it; ``/dev/null`` is taken
    as the user's word for "discard it") or that is a link; the
    folder it goes in must exist and take a new file (a file made and removed at once: a
    read-only folder or ``/proc`` is refused now, not after an hour's solve)."""
    where = absolute(path)
    if is_null_device(where):
        return
    try:
        info = os.lstat(where)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError(f"cannot write {what}: {reason(exc)}", file=path) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise InputError(
                f"{what} is a link: refusing to write through it; name the file itself",
                file=path,
            )
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            raise InputError(f"{what} must be a regular file, not {kind}", file=path)
        refuse_input(where, path)
        refuse_write_protected(where, path, what)
    if not where.parent.is_dir():
        raise InputError(f"no such folder for {what}", file=path)
    try:
        _probe(where.parent)
    except OSError as exc:
        raise InputError(
            f"cannot write {what}: its folder {where.parent} takes no new file "
            f"({reason(exc)}), and {what} is written beside it first, then renamed "
            "into place",
            file=path,
        ) from None


def _probe(folder: Path) -> None:
    """Make a file in ``folder`` and remove it (an ``OSError`` where the folder takes no new
    file: read-only, ``/proc``, out of inodes), before any long work."""
    probe = folder / f".bouillotte-{secrets.token_hex(4)}{os.getpid()}-probe.tmp"
    with interrupt_deferred(too_late=False):  # made and removed whole, then Ctrl-C is heard
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        _unlink(probe)


class Output:
    """Files written into ``folder`` all together or not at all.

    ``mode`` is ``add`` (new files beside what the folder holds; a name already there is
    refused), ``replace`` (files the user named, written again: each target may exist, if
    it is a regular file this run did not read as input), ``own`` (the tool's own files,
    written again: a stored result, a golden transcript, which this run may have read to
    see it is stale) or ``fresh`` (a folder that does not exist or is empty,
    built aside and renamed into place). Use it as a context manager: the files are put in
    place when the block ends without an error, and everything this run made is removed
    when it ends with one::

        with Output(folder, "add") as out:
            out.add("foster.yaml", data)
        out.written  # the paths, once in place
    """

    def __init__(self, folder: Path, mode: str = "add") -> None:
        if mode not in ("add", "replace", "own", "fresh"):
            raise ValueError(mode)
        self.folder = folder
        self.real = absolute(folder)
        self.mode = mode
        self.token = f"{secrets.token_hex(4)}{os.getpid()}"
        self.written: list[Path] = []
        self._staged: list[tuple[str, Path]] = []
        self._removed: list[str] = []
        self._made_folders: list[Path] = []
        self._aside: Path | None = None
        self._bytes = 0
        self._count = 0
        self._kept: list[tuple[Path, Path | None]] = []
        """Each file put in place, and the file it replaced, kept until :meth:`finish`."""
        self._together: Together | None = None

    def join(self, together: Together) -> None:
        """Be put in place together with the other outputs of ``together`` (entered on it):
        what this one replaces is kept until all are in place, and put back if one fails."""
        if self.mode == "fresh":
            raise ValueError("a folder built aside is put in place alone")
        self._together = together

    # -- setting up ---------------------------------------------------------------------

    def __enter__(self) -> Output:
        try:
            self._prepare()
        except OSError as exc:
            self._abort()
            raise InputError(f"cannot write there: {reason(exc)}", file=self.folder) from None
        except BaseException:
            self._abort()
            raise
        return self

    def _prepare(self) -> None:
        refuse_links_below(self.real, "", self.folder)
        exists = os.path.lexists(self.real)
        if exists and not self.real.is_dir():
            raise InputError("is not a folder", file=self.folder)
        if self.mode == "fresh":
            if exists and any(self.real.iterdir()):
                raise InputError(
                    "already exists and is not an empty folder; name a new folder",
                    file=self.folder,
                )
            if exists and os.path.ismount(self.real):  # the rename into place: EBUSY
                raise InputError(
                    "is a mount point: the folder is made beside it and renamed into its "
                    "place, which a mount point cannot take; name a folder inside it",
                    file=self.folder,
                )
            here = absolute(Path("."))
            if exists and (here == self.real or self.real in here.parents):
                raise InputError(  # renamed into place, it would leave the shell in no folder
                    "is the current folder or holds it: name a new folder to make",
                    file=self.folder,
                )
            self._make_parents(self.real.parent)
            short = os.fsdecode(os.fsencode(self.real.name)[:64])  # bytes: a name's limit
            self._aside = self.real.parent / f".{short}.{self.token}.tmp"
            os.mkdir(self._aside, 0o700)
        else:
            self._make_parents(self.real)
            remove_abandoned(self.real)

    def _make_parents(self, folder: Path) -> None:
        """Make ``folder`` and the folders above it that are missing, noting each made."""
        missing: list[Path] = []
        current = folder
        while not os.path.lexists(current):
            missing.append(current)
            current = current.parent
        if not current.is_dir():
            raise InputError("is not a folder", file=current)
        for made in reversed(missing):
            self._made_folders.append(made)  # noted first: an interrupt once it is made
            try:
                os.mkdir(made)
            except OSError:
                self._made_folders.pop()  # not made by this run: never removed
                raise

    # -- writing ------------------------------------------------------------------------

    def _root(self) -> Path:
        return self._aside if self._aside is not None else self.real

    def add(self, rel: str, data: bytes | str) -> Path:
        """Write ``data`` to be ``folder/rel`` once the block ends (a text as UTF-8)."""
        check_name(rel)
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self._count += 1
        self._bytes += len(raw)
        if self._count > MAX_FILES or self._bytes > MAX_BYTES:
            raise InputError(
                f"refusing to write more than {MAX_FILES:,} files or {MAX_BYTES:,} bytes "
                "in one command",
                file=self.folder,
            )
        try:
            self._refuse_target(rel)
            parent = (self._root() / rel).parent
            self._make_parents(parent)
            temp = parent / f".bouillotte-{self.token}-{self._count}.tmp"
            if self._aside is not None:
                temp = self._aside / rel
            # Staged before it is made: Ctrl-C landing once the file exists (before this
            # method returns) still finds it in the list ``_abort`` removes.
            staged = (rel, temp)
            self._staged.append(staged)
            try:
                self._write(temp, raw)
            except OSError:
                self._staged.remove(staged)
                raise
        except OSError as exc:
            raise InputError(f"cannot write: {reason(exc)}", file=self.folder / rel) from None
        return self.folder / rel

    def check(self, rel: str) -> None:
        """Refuse now, before the long work that makes its content, what :meth:`add` would
        refuse as ``folder/rel`` (a name outside the folder, a link on the way, a file there
        that is not a regular file, or was read as input, or is write-protected, or any file
        there in ``add`` mode), and a folder there that takes no new file; checked again
        when it is added."""
        check_name(rel)
        try:
            self._refuse_target(rel)
        except OSError as exc:
            raise InputError(f"cannot write: {reason(exc)}", file=self.folder / rel) from None
        folder = (self._root() / rel).parent
        try:
            if folder.is_dir():
                _probe(folder)
        except OSError as exc:
            raise InputError(
                f"cannot write: its folder takes no new file ({reason(exc)})",
                file=self.folder / rel,
            ) from None

    def _refuse_target(self, rel: str) -> None:
        """Refuse a ``folder/rel`` this mode may not replace (a folder built aside holds
        nothing to refuse)."""
        if self._aside is not None:
            return
        target = self.real / rel
        refuse_links_below(self.real, rel, self.folder)
        if self.mode == "add" and os.path.lexists(target):
            raise InputError(
                "would overwrite a file already there; choose another folder, or move it",
                file=self.folder / rel,
            )
        if self.mode in ("replace", "own") and os.path.lexists(target):
            if not stat.S_ISREG(os.lstat(target).st_mode):
                raise InputError("must be a regular file to be replaced", file=self.folder / rel)
            if self.mode == "replace":
                refuse_input(target, self.folder / rel)
            refuse_write_protected(target, self.folder / rel)

    def _write(self, temp: Path, raw: bytes) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(temp, flags, 0o666)
        try:
            view = memoryview(raw)
            while view:
                done = os.write(fd, view)
                view = view[done:]
        except BaseException:
            os.close(fd)
            _unlink(temp)  # not staged yet: nothing else would remove it
            raise
        os.close(fd)

    def remove(self, rel: str) -> None:
        """Remove ``folder/rel`` (a regular file) once the new files are in place."""
        check_name(rel)
        refuse_links_below(self.real, rel, self.folder)
        self._removed.append(rel)

    # -- ending -------------------------------------------------------------------------

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is not None:
            self._abort()
            return
        try:
            with interrupt_deferred():
                self._commit()
        except OSError as error:
            self._abort()
            raise InputError(f"cannot write: {reason(error)}", file=self.folder) from None
        except BaseException:
            self._abort()
            raise
        if self._together is not None:
            self._together.placed(self)
        else:
            self.finish()

    def _commit(self) -> None:
        if self._aside is not None:
            take_mode(self._aside, self.real, 0o777 & ~current_umask())
            os.rename(self._aside, self.real)  # over an empty folder too
            self._aside = None
            self._made_folders = []
            self.written = [self.folder / rel for rel, _ in self._staged]
            self._staged = []
            return
        self._kept = []
        try:
            for number, (rel, temp) in enumerate(self._staged):
                target = self.real / rel
                try:
                    if self.mode == "add" and os.path.lexists(target):
                        raise InputError(
                            "would overwrite a file already there; choose another folder, "
                            "or move it",
                            file=self.folder / rel,
                        )
                    # What it replaces is kept until every file is in place (together.py).
                    kept = None
                    if self.mode != "add" and os.path.lexists(target):
                        kept = keep(
                            target, temp.with_name(f".bouillotte-{self.token}-kept{number}.tmp")
                        )
                    self._kept.append((target, kept))
                    take_mode(temp, target, 0o666 & ~current_umask())
                    os.replace(temp, target)
                except OSError as error:
                    raise InputError(
                        f"cannot write: {reason(error)}", file=self.folder / rel
                    ) from None
        except BaseException:
            self.undo()
            raise
        self.written = [self.folder / rel for rel, _ in self._staged]
        self._staged = []
        self._made_folders = []

    def finish(self) -> None:
        """Every output is in place: drop the files kept, and remove those :meth:`remove`
        named."""
        for _, kept in self._kept:
            drop(kept)
        self._kept = []
        for rel in self._removed:
            _unlink(self.real / rel)
        self._removed = []

    def undo(self) -> None:
        """Put back what this output replaced (another output of the command failed)."""
        for target, kept in reversed(self._kept):
            put_back(target, kept)
        self._kept = []
        self.written = []

    def _abort(self) -> None:
        """Remove what this run made, and nothing else."""
        if self._aside is not None:
            shutil.rmtree(self._aside, ignore_errors=True)
            self._aside = None
        else:
            for _, temp in self._staged:
                _unlink(temp)
        self._staged = []
        for folder in reversed(self._made_folders):
            with suppress(OSError):
                os.rmdir(folder)
        self._made_folders = []


def _unlink(path: Path) -> None:
    with suppress(OSError):
        os.unlink(path)


def stage_file(stack: ExitStack, path: Path, data: bytes | str, what: str = "the output") -> Path:
    """One file a user named (``--csv FILE``), written aside now and put in place when
    ``stack`` closes without an error, together with every other file staged on it (a
    command's two tables, or a table and its scenario files): all of them or none."""
    check_target_file(path, what)
    where = absolute(path)
    if is_null_device(where):
        return path
    # The folder the user named may be reached through a link of theirs (/tmp on some
    # systems): the file itself is never one (check_target_file).
    out = stack.enter_context(Output(where.parent.resolve(), "replace"))
    out.add(where.name, data)
    return path


def write_file(path: Path, data: bytes | str, what: str = "the output") -> Path:
    """One file a user named (``--csv FILE``), replaced whole or not at all."""
    with Together() as stack:
        stage_file(stack, path, data, what)
    return path
