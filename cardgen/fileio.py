"""Writing files so that a failed or interrupted run never leaves half a file, nor half a folder.

**One file** (:func:`atomic_output`, :func:`write_bytes_atomic`, :func:`write_text_atomic`)
goes to a temporary file in the same folder and is renamed over the target only when
complete; the rename is atomic on POSIX.

**A folder of outputs** (the build) is updated all or nothing through :class:`StagedUpdate`:

* *Staging.*  New files are written into a staging folder on the same filesystem as the
  target, so that putting them in place is a rename: the hidden sibling
  ``<parent>/.<target-name>.cardgen-staging-<random>``.  Not inside the target, so that a
  killed run leaves the target exactly as it was; the sibling is the only trace, and the
  next update of that target removes it.  When no sibling can be made (the parent is not
  writable) or it lands on another filesystem than the target (the target is a mount
  point, e.g. a container volume), the staging folder is ``<target>/.cardgen-staging-<random>``
  instead, the one case where a killed run leaves something (that hidden folder) in the
  target until the next update.
* *Commit.*  Only when the caller says every part succeeded.  Under an exclusive lock on
  the target the caller decides (:class:`CommitPlan`) which staged files to move, which
  stale files of the target to delete and which staged file goes last (the manifest, so
  that it never lists a file not yet in place).  A journal of that plan is written into
  the staging folder (itself atomically), then the moves, the deletions and the last file
  run, then the journal and the staging folder go.  A commit is renames only, well under a
  second even for hundreds of files, but a SIGKILL can still land in it: the next update
  of the target finds the journal and *rolls forward*, redoing each step that is not done
  yet (a moved file is no longer in staging, a deleted file is gone, so every step can be
  repeated).  Forward rather than back because every staged file was complete and the
  caller had accepted them: finishing needs no copy of the old files and gives the state
  that was asked for.  SIGINT, SIGTERM and SIGHUP are held back while the journal exists
  (main thread) and delivered after it, so Ctrl-C never splits a commit.  Swapping whole
  folders instead (``renameat2(RENAME_EXCHANGE)``) would be one atomic step, but Python
  does not expose it, it is Linux-only, every untouched file would have to be hard-linked
  into the new tree and a mount point cannot be swapped at all.
* *Failure.*  An error, a KeyboardInterrupt or anything else before the journal is
  written removes the staging folder and leaves the target untouched.
* *Liveness.*  Each update holds an exclusive ``flock`` on its staging folder as long as
  it lives (not passed on to forked children, so that a dead parent frees it at once).  A
  staging folder whose lock can be taken belongs to a dead process and is stale; one whose
  lock is held belongs to an update running now and is left alone, so two builds into the
  same folder do not delete each other's staging, and their commits are serialised by the
  lock on the target.  Without ``fcntl`` (Windows) every staging folder found is taken as
  stale: concurrent updates of one folder are not supported there.

**Never through a symlink.**  A folder below the output folder that is a symlink may lead
anywhere (a folder of the user's own): the commit reaches each folder one name at a time with
``O_NOFOLLOW`` (:func:`folder_of`) and refuses, before anything moves, a plan whose files lie
behind one (:class:`SymlinkInTheWay`).  One file written into the content folder
(``atomic_output(..., inside=content)``: schemas, PO files, shared text) is refused the same way.

Durability against power loss (``fsync``) is not a goal, here as before; surviving the
death of the process is.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Callable, Iterator

from cardgen.errors import CardgenError, Locator, RenderError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

STAGING_MARK = ".cardgen-staging-"
JOURNAL = ".cardgen-commit.json"


class WriteError(CardgenError):
    """A file could not be written where it was asked for (the message names the file or folder)."""


@contextmanager
def atomic_output(target: Path, *, inside: Path | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; rename it over ``target`` on success.

    Only a regular file (or nothing) is ever replaced: renaming over ``/dev/null``, a FIFO or
    a folder would replace the device with a file, so such a target is refused up front,
    before any work, and again just before the rename.  A folder that cannot be written
    is a :class:`WriteError` naming it, not a bare ``PermissionError`` on a temporary name.

    ``inside``: the folder (the content folder) ``target`` must stay in, with no symlink on the
    way below it (``inside`` itself may be one: the user named it): a ``schema/`` or ``common/``
    linked to a folder elsewhere is refused, never written through.
    """
    target = Path(target)
    if inside is not None:
        check_no_symlink(target, inside)
    check_file_target(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise WriteError(f"cannot write into the folder {target.parent}: {error.strerror or error}",
                         Locator(file=target)) from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        if inside is not None:
            check_no_symlink(target, inside)
        check_file_target(target)
        try:
            os.replace(tmp, target)
        except OSError as error:
            raise WriteError(f"cannot replace the file: {error.strerror or error}", Locator(file=target)) from None
    finally:
        if tmp.exists():
            tmp.unlink()


def check_file_target(target: Path) -> None:
    """Raise WriteError unless ``target`` is missing or a regular file (a symlink counts as what it names)."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as error:  # a too-long name, a NUL byte, a path through a file
        raise WriteError(f"cannot write the file: {getattr(error, 'strerror', None) or error}",
                         Locator(file=target)) from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, FIFO or socket"
        raise WriteError(f"will not replace {what} with a file; name a regular file to write",
                         Locator(file=target))


def check_no_symlink(target: Path, inside: Path) -> None:
    """Raise WriteError unless ``target`` lies under ``inside`` with no symlink among the folders
    between (the file itself, when a symlink, is replaced by the rename, never written through)."""
    try:
        rel = Path(target).relative_to(inside).as_posix()
    except ValueError:
        raise WriteError(f"will not write outside the folder {inside}", Locator(file=Path(target))) from None
    if rel in ("", ".") or ".." in rel.split("/"):
        raise WriteError(f"will not write outside the folder {inside}", Locator(file=Path(target)))
    link = symlink_in_the_way(Path(inside), rel)
    if link is not None:
        raise WriteError(f"{link} is a symlink; cardgen never writes through a symlink in the folder {inside} "
                         "(remove it, or make it a folder)", Locator(file=Path(target)))


@contextmanager
def atomic_binary(target: Path, *, inside: Path | None = None) -> Iterator[BinaryIO]:
    """Like :func:`atomic_output`, but yields an open binary file."""
    with atomic_output(target, inside=inside) as tmp, open(tmp, "wb") as handle:
        yield handle


def write_bytes_atomic(target: Path, data: bytes, *, inside: Path | None = None) -> Path:
    with atomic_binary(target, inside=inside) as handle:
        handle.write(data)
    return target


def write_text_atomic(target: Path, text: str, *, inside: Path | None = None) -> Path:
    return write_bytes_atomic(target, text.encode("utf-8"), inside=inside)


@dataclass(frozen=True)
class CommitPlan:
    """What a commit does, in this order; paths are relative POSIX paths."""

    moves: tuple[str, ...]  # staged files moved to the same path in the target
    remove: tuple[str, ...] = ()  # files of the target deleted (the caller decides which), then their empty folders
    last: str | None = None  # a staged file moved after everything else (the manifest)


# File descriptors holding this process's flocks: a forked child closes its copies so
# that the locks die with the process that took them (see "Liveness" above).
_HELD_LOCKS: set[int] = set()


def _drop_inherited_locks() -> None:
    for fd in _HELD_LOCKS:
        try:
            os.close(fd)  # closing, never LOCK_UN: that would release the parent's lock too
        except OSError:
            pass
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_inherited_locks)


def _lock(folder: Path, *, wait: bool) -> int | None:
    """An exclusive lock on ``folder``: a descriptor to :func:`_unlock`, or None when another
    process holds it.  -1 where there is no ``flock`` (nothing to release)."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return -1
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    _HELD_LOCKS.add(fd)
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None and fd >= 0:
        _HELD_LOCKS.discard(fd)
        os.close(fd)


def _same_filesystem(one: Path, other: Path) -> bool:
    return os.stat(one).st_dev == os.stat(other).st_dev


def staging_folders(target: Path) -> list[Path]:
    """Every staging folder of ``target`` there is, live or stale, beside it and inside it."""
    found: list[Path] = []
    for folder, prefix in ((target.parent, f".{target.name}{STAGING_MARK}"), (target, STAGING_MARK)):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        found.extend(Path(e.path) for e in entries if e.name.startswith(prefix) and e.is_dir(follow_symlinks=False))
    return sorted(found)


def _safe_relpath(rel: object) -> str:
    """``rel`` if it is a relative POSIX path that stays inside its folder (journals are read
    back from disk: a damaged one must not move or delete files elsewhere)."""
    path = PurePosixPath(str(rel))
    if not isinstance(rel, str) or not rel or path.is_absolute() or any(p in ("", ".", "..") for p in rel.split("/")):
        raise RenderError(f"not a relative path inside the output folder: {rel!r}")
    return rel


def _shown(folder: Path, target: Path) -> str:
    """``folder`` as an error names it: the output folder itself, or a path inside it."""
    return str(target) if folder == target else f"{target}/{folder.relative_to(target).as_posix()}"


class SymlinkInTheWay(OSError):
    """A folder on the way to a file of the output is a symlink: cardgen never writes, moves or
    deletes through one (it may lead anywhere: a folder of the user's own, another disk)."""

    def __init__(self, top: Path, rel: str):
        super().__init__(f"{_shown(top / rel, top)} is a symlink; cardgen never writes or deletes through "
                         "a symlink in the output folder (remove it, or make it a folder)")
        self.rel = rel


def symlink_in_the_way(top: Path, rel: str) -> str | None:
    """The first folder of ``rel`` (a relative POSIX path of a file under ``top``) that is a
    symlink, as a path relative to ``top``; None when there is none (missing folders are fine).
    ``top`` itself may be a symlink: the user named it."""
    parts = rel.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        here = top.joinpath(*parts[:depth])
        if os.path.islink(here):
            return "/".join(parts[:depth])
        if not os.path.lexists(here):
            return None
    return None


@contextmanager
def folder_of(top: Path, rel: str, *, create: bool) -> Iterator[int | None]:
    """An open descriptor of the folder that holds ``rel`` under ``top``, reached one name at a
    time without following a symlink (``O_NOFOLLOW``): a folder swapped for a symlink after any
    earlier check is refused here, where the file is moved or deleted.  Missing folders are
    made (``create``) or give None.  Raises :class:`SymlinkInTheWay`."""
    parts = rel.split("/")[:-1]
    flags = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for depth, name in enumerate(parts, start=1):
            try:
                try:
                    child = os.open(name, flags, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        os.close(fd)
                        fd = -1
                        break
                    try:
                        os.mkdir(name, dir_fd=fd)
                    except FileExistsError:  # made meanwhile (or a symlink put there): opened below
                        pass
                    child = os.open(name, flags, dir_fd=fd)
            except OSError:  # ELOOP or ENOTDIR: a symlink (O_NOFOLLOW), or a file in the way
                if os.path.islink(top.joinpath(*parts[:depth])):
                    raise SymlinkInTheWay(top, "/".join(parts[:depth])) from None
                raise
            os.close(fd)
            fd = child
        yield fd if fd >= 0 else None
    finally:
        if fd >= 0:
            os.close(fd)


def _apply(target: Path, staging: Path, plan: CommitPlan) -> tuple[int, int]:
    """Carry out ``plan``; every step can be repeated, so this also rolls a journal forward.
    Returns how many files it moved and deleted (a step done before is not counted).

    Every file is put in place and deleted through the descriptor of its folder reached
    without following symlinks (:func:`folder_of`), so nothing lands or goes outside ``target``."""
    done = [0, 0]

    def move(rel: str) -> None:
        source = staging / rel
        if source.is_file():  # else moved already by the interrupted run
            with folder_of(target, rel, create=True) as folder:
                os.replace(source, rel.rsplit("/", 1)[-1], dst_dir_fd=folder)
            done[0] += 1

    for rel in plan.moves:
        move(rel)
    for rel in plan.remove:
        with folder_of(target, rel, create=False) as folder:
            if folder is not None:
                try:
                    os.unlink(rel.rsplit("/", 1)[-1], dir_fd=folder)
                    done[1] += 1
                except FileNotFoundError:  # deleted already by the interrupted run
                    pass
        _remove_empty_folders(target, rel)
    if plan.last:
        move(plan.last)
    return done[0], done[1]


def _remove_empty_folders(target: Path, rel: str) -> None:
    """The folders of a deleted file that it leaves empty (``png-mpc/`` after its last PNG), up to
    ``target``; never a symlink's (rmdir fails on one), never through one."""
    parts = rel.split("/")[:-1]
    while parts:
        folder = target.joinpath(*parts)
        if symlink_in_the_way(target, "/".join(parts) + "/-") is not None:
            return
        try:
            folder.rmdir()
        except OSError:
            if folder.is_dir():  # not empty: neither are the folders above it
                return
            # gone already (a commit rolled forward again): its parent may still be empty
        parts.pop()


def _read_journal(journal: Path) -> CommitPlan:
    try:
        data = json.loads(journal.read_text("utf-8"))
        return CommitPlan(tuple(_safe_relpath(r) for r in data["moves"]),
                          tuple(_safe_relpath(r) for r in data["remove"]),
                          _safe_relpath(data["last"]) if data.get("last") is not None else None)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RenderError) as error:
        raise RenderError(f"the commit journal of an interrupted build is unreadable ({error}); the output folder "
                          f"may be partly updated: check it, delete {journal.parent} and build again",
                          Locator(file=journal)) from None


def recover(target: Path, *, skip: Path | None = None, target_locked: bool = False) -> list[str]:
    """Clean up after updates of ``target`` that died: finish (roll forward) each commit that
    left a journal, remove every other stale staging folder; leave live ones alone.

    Returns one note for each thing done.  ``target_locked``: the caller holds the target's
    lock already (a second lock from this process would wait for itself).
    """
    target = target.resolve()
    candidates = [folder for folder in staging_folders(target) if folder != skip]
    if not candidates:
        return []
    notes: list[str] = []
    target_lock = _lock(target, wait=True) if not target_locked and target.is_dir() else None
    try:
        for folder in candidates:
            try:
                owner = _lock(folder, wait=False)
            except FileNotFoundError:
                continue  # removed meanwhile by another run's recovery
            if owner is None:
                continue  # an update running now
            try:
                journal = folder / JOURNAL
                if journal.is_file() and target.is_dir():
                    try:
                        moved, deleted = _apply(target, folder, _read_journal(journal))
                    except OSError as error:  # a symlink put in the way since: finish nothing through it
                        raise RenderError(f"cannot finish the interrupted commit of an earlier build ({error})",
                                          Locator(file=target)) from None
                    notes.append(f"finished the interrupted commit of an earlier build into {target} "
                                 f"({moved} file(s) put in place" + (f", {deleted} removed" if deleted else "") + ")")
                else:
                    notes.append(f"removed {folder.name}, left by an interrupted build")
                shutil.rmtree(folder, ignore_errors=True)
            finally:
                _unlock(owner)
    finally:
        _unlock(target_lock)
    return notes


@contextmanager
def _signals_held_back() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back for the duration, then deliver them (main thread only:
    Python runs signal handlers nowhere else)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None or signal.getsignal(number) is None:  # None: a handler Python cannot restore
            continue
        previous[number] = signal.signal(number, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(caught):
            signal.raise_signal(number)


class StagedUpdate:
    """An all-or-nothing update of the folder ``target`` (see the module docstring).

    ``with StagedUpdate(out) as staged:`` recovers what dead updates left, creates and locks
    a staging folder ``staged.path``; write into it, then call :meth:`commit`.  Leaving the
    block without a commit (an exception) removes the staging folder; ``target`` is untouched.
    """

    def __init__(self, target: Path):
        self.target = Path(target).resolve()
        self.path: Path | None = None
        self.recovered: list[str] = []
        self._lock_fd: int | None = None
        self._created_parents: list[Path] = []

    def __enter__(self) -> "StagedUpdate":
        target = self.target
        if not target.name:
            raise RenderError("cannot build into the root of a filesystem; name an output folder", Locator(file=target))
        if target.exists() and not target.is_dir():
            raise RenderError("the output folder is a file; expected a folder", Locator(file=target))
        self.recovered = recover(target)
        missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RenderError(f"cannot create the output folder's parent: {error}", Locator(file=target)) from None
        self._created_parents = missing
        try:
            self.path, self._lock_fd = self._make_staging()
        except BaseException:
            self._remove_created_parents()
            raise
        return self

    def _make_staging(self) -> tuple[Path, int | None]:
        target = self.target
        places = [(target.parent, f".{target.name}{STAGING_MARK}")]
        if target.is_dir():
            places.append((target, STAGING_MARK))
        problems: list[str] = []
        for parent, prefix in places:
            for _ in range(5):  # another run's recovery may take a folder between creation and lock
                try:
                    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
                except OSError as error:
                    problems.append(f"{parent}: {error.strerror or error}")
                    break
                try:
                    elsewhere = target.is_dir() and not _same_filesystem(folder, target)
                except FileNotFoundError:  # taken by another run's recovery before we locked it
                    continue
                if elsewhere:
                    problems.append(f"{parent}: another filesystem than the output folder")
                    os.rmdir(folder)
                    break
                try:
                    fd = _lock(folder, wait=False)
                except FileNotFoundError:
                    continue
                if fd is None:
                    continue
                if fd < 0 or os.path.samestat(os.fstat(fd), os.stat(folder)):
                    return folder, fd
                _unlock(fd)
        raise RenderError(f"cannot create a staging folder for the build ({'; '.join(problems) or 'lost to a race'})",
                          Locator(file=target))

    def commit(self, decide: Callable[[], CommitPlan]) -> CommitPlan:
        """Put the staged files in place.  ``decide()`` runs under the target's lock, after any
        dead update's commit is finished, and returns the plan; it may still write into
        :attr:`path` (the manifest).  Nothing in the target changes if it raises."""
        assert self.path is not None, "commit() outside the with block"
        target = self.target
        created = not target.exists()
        try:
            target.mkdir(exist_ok=True)
        except OSError as error:
            raise RenderError(f"cannot create the output folder: {error}", Locator(file=target)) from None
        target_lock = _lock(target, wait=True)
        try:
            try:
                self.recovered += recover(target, skip=self.path, target_locked=True)
                plan = decide()
                self._check(plan)
            except BaseException:
                if created:
                    _rmdir_if_empty(target)
                raise
            journal = {"target": str(target), "moves": list(plan.moves), "remove": list(plan.remove),
                       "last": plan.last}
            with _signals_held_back():
                write_text_atomic(self.path / JOURNAL, json.dumps(journal, ensure_ascii=False, indent=1) + "\n")
                try:
                    _apply(target, self.path, plan)
                except OSError as error:
                    raise RenderError(f"every file was built, but putting them in place failed ({error}); the "
                                      "output folder is partly updated: fix the cause and build again (the next "
                                      "build finishes this one first)", Locator(file=target)) from None
                (self.path / JOURNAL).unlink()
            shutil.rmtree(self.path, ignore_errors=True)
        finally:
            _unlock(target_lock)
        return plan

    def _check(self, plan: CommitPlan) -> None:
        """Refuse, before anything moves, a plan that could only fail half-way."""
        problems: list[str] = []
        for rel in (*plan.moves, *([plan.last] if plan.last else []), *plan.remove):
            link = symlink_in_the_way(self.target, _safe_relpath(rel))
            if link is not None:
                problems.append(str(SymlinkInTheWay(self.target, link)))
        for rel in (*plan.moves, *([plan.last] if plan.last else [])):
            _safe_relpath(rel)
            if not (self.path / rel).is_file():
                problems.append(f"{rel}: not staged")
            destination = self.target / rel
            if destination.is_dir():
                problems.append(f"{rel}: a folder is in the way")
            folders = [self.target.joinpath(*rel.split("/")[:depth]) for depth in range(1, rel.count("/") + 1)]
            blocking = next((f for f in folders if f.exists() and not f.is_dir()), None)
            if blocking is not None:
                problems.append(f"{rel}: {blocking.relative_to(self.target).as_posix()} is a file, not a folder")
        for rel in plan.remove:
            _safe_relpath(rel)
        problems += self._unwritable_folders(plan)
        problems = list(dict.fromkeys(problems))  # one symlink in the way of many files is said once
        if problems:
            raise RenderError(f"cannot put the built files in place, nothing was changed: {'; '.join(problems[:5])}",
                              Locator(file=self.target))

    def _unwritable_folders(self, plan: CommitPlan) -> list[str]:
        """Folders of the output that exist but may not be written (a read-only output folder):
        found before anything moves, instead of a PermissionError half-way."""
        touched = {self.target / rel for rel in (*plan.moves, *plan.remove, *([plan.last] if plan.last else []))}
        folders = set()
        for path in touched:
            folder = path.parent
            while not folder.exists() and folder != self.target:
                folder = folder.parent
            folders.add(folder)
        return [f"{_shown(folder, self.target)}: not writable (permission denied)"
                for folder in sorted(folders) if not os.access(folder, os.W_OK | os.X_OK)]

    def __exit__(self, exc_type, exc, traceback) -> None:
        try:
            # a journal left by a commit that failed half-way is kept for the next run to finish
            if self.path is not None and self.path.exists() and not (self.path / JOURNAL).exists():
                shutil.rmtree(self.path, ignore_errors=True)
                if exc_type is not None:
                    self._remove_created_parents()
        finally:
            _unlock(self._lock_fd)
            self._lock_fd = None

    def _remove_created_parents(self) -> None:
        for folder in self._created_parents:  # deepest first
            if not _rmdir_if_empty(folder):
                break


def _rmdir_if_empty(folder: Path) -> bool:
    try:
        folder.rmdir()
        return True
    except OSError:
        return False


@contextmanager
def whole_folder(folder: Path, refuse: Callable[[str], CardgenError], verb: str = "new") -> Iterator[Path]:
    """A new folder that appears at ``folder`` whole or not at all.

    The block fills the staging folder it is given (hidden, beside ``folder``, named
    ``.NAME.VERB-...``, which a content folder never reads as a game); it is renamed to
    ``folder`` when the block ends without an error and removed otherwise.  ``refuse(reason)``
    makes the error raised when the staging folder cannot be made there."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{verb}-", dir=folder.parent))
    except OSError as error:
        raise refuse(str(error.strerror or error)) from None
    try:
        yield staging
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
