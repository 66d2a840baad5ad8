"""A cache on disk of what cardgen makes of a file's bytes.

Every command starts a new process that reads the same YAML, PO and layout files
again: parsing them with positions and checking them against the schema is most of
what ``cardgen preview`` spends before it draws (pydantic builds each model's
validator on first use).  The results depend on nothing but the bytes read, the
name shown in messages and cardgen's own code, so they are kept here keyed by a
SHA-256 of exactly those, and a changed file, a renamed folder or another version
of cardgen simply misses.  Only results without errors are kept: an error is always
found again and reported from the file as it is now.

Where: ``$CARDGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardgen``, else
``~/.cache/cardgen``; ``CARDGEN_CACHE=off`` turns it off.  An entry is a pickle, so it
is trusted only when nobody else could have written it: every level (the folder, the
version's, the kind's) must be a folder of the user's own that no one else may write
(mode 0700; otherwise that level is neither read nor written), opened without following
a symlink; the entry a regular file of the user's (a FIFO is never waited on), and signed
with an HMAC under a key of the user's kept in the folder (mode 0600), checked before
anything is unpickled, with the type it was written with.  A torn, planted, foreign or
mistyped entry is a miss and is recomputed.  Each entry is written to a temporary name
and renamed.  Each kind keeps its most recently used :data:`MAX_ENTRIES` entries.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import os
import pickle
import secrets
import stat
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from cardgen import resources

T = TypeVar("T")

#: Entries kept per kind (YAML documents, models, PO entries ...), the oldest used go first.
MAX_ENTRIES = 400
#: Folders of other cardgen versions kept (the most recently used).
KEEP_VERSIONS = 3
#: An entry larger than this is not read (the footballer base's document is about 6 MB).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
_PACKAGE = resources.PACKAGE


def cached(kind: str, parts: Iterable[bytes | str], compute: Callable[[], T],
           keep: Callable[[T], bool] = lambda value: True) -> T:
    """``compute()``, or what it returned before for the same ``kind`` and ``parts``.

    ``parts`` must hold everything the result depends on besides cardgen's code (the
    file's bytes, the path shown in its messages, the model's name).  A result for
    which ``keep`` is false (one that came with errors) is returned but not stored;
    an exception from ``compute`` goes to the caller and nothing is stored.
    """
    folder = _folder()
    if folder is None:
        return compute()
    name = _key(kind, parts)
    found = _read(folder, kind, name)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    value = compute()
    if keep(value):
        _write(folder, kind, name, value)
    return value


def digest(parts: Iterable[bytes | str]) -> str:
    """A SHA-256 of ``parts``, each length-prefixed so that no two lists of parts collide."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def _key(kind: str, parts: Iterable[bytes | str]) -> str:
    return digest([_code_version(), kind, *parts])


@lru_cache(maxsize=1)
def source_digest() -> str:
    """A SHA-256 of cardgen's own source files (their names in the package and their bytes),
    hashed once per process: equal wherever the same cardgen is installed."""
    parts: list[bytes | str] = []
    for path in sorted(_PACKAGE.rglob("*.py")):
        parts += [path.relative_to(_PACKAGE).as_posix(), path.read_bytes()]
    return digest(parts)


@lru_cache(maxsize=1)
def _code_version() -> str:
    """Changes with any of cardgen's source files, Python, or the libraries whose objects are kept."""
    import pydantic
    import pydantic_core

    return digest([sys.version, pydantic.VERSION, pydantic_core.__version__, source_digest()])


def cache_folder() -> Path | None:
    """This version's cache folder, or None when the cache is off or cannot safely be used."""
    return _folder()


@lru_cache(maxsize=1)
def _folder() -> Path | None:
    """This version's cache folder, created if need be; None when off or not safely usable."""
    if os.environ.get("CARDGEN_CACHE", "").lower() in {"off", "0", "no", "false"}:
        return None
    chosen = os.environ.get("CARDGEN_CACHE_DIR")
    if chosen:
        base = Path(chosen)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")) / "cardgen"
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(base)
    except (OSError, RuntimeError):  # no home, a read-only file system: work without a cache
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None  # another user could plant an entry, and an entry is a pickle
    # entries of another version of cardgen never match: each version has its folder, and
    # only the most recently used few are kept (two installed versions do not evict each other)
    folder = base / _code_version()[:16]
    try:
        with _Levels(folder, ".", create=True):  # this version's folder, made and checked
            pass
    except (OSError, _Unsafe):
        return None
    try:
        os.utime(folder)  # used now: pruned last
    except OSError:
        return None
    _prune_versions(base)
    return folder


def _prune_versions(base: Path) -> None:
    import shutil

    try:
        with os.scandir(base) as found:
            versions = [item for item in found if item.is_dir(follow_symlinks=False)]
        versions.sort(key=lambda item: item.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
        for item in versions[KEEP_VERSIONS:]:
            shutil.rmtree(item.path, ignore_errors=True)
    except OSError:
        pass


class _Missing:
    pass


_MISSING = _Missing()
#: The first bytes of every entry (a file of another format or version is a miss).
MAGIC = b"cgmemo2\n"
#: The file in the cache folder holding this user's signing key (mode 0600).
KEY_FILE = ".key"
_KEY_BYTES = 32
_SIGNATURE_BYTES = hashlib.sha256().digest_size


class _Unsafe(Exception):
    """A level of the cache that someone else could have written: nothing in it is trusted."""


def _private_folder(fd: int) -> None:
    """Raise :class:`_Unsafe` unless the open ``fd`` is a folder of this user no one else may write."""
    info = os.fstat(fd)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise _Unsafe()


def _private_file(info: os.stat_result) -> bool:
    """A regular file of this user that no one else may write (never a FIFO, device or socket)."""
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022


class _Levels:
    """The cache folder, this version's folder and one kind's folder, open and checked.

    Each level is opened relative to the one above, never through a symlink, and checked on
    its handle: a folder swapped for a symlink or another user's folder after a check is not
    the one used.  The top folder may be reached through a symlink of the user's own (a home
    folder's ``.cache`` on another disk); it must itself be private.  ``create`` makes the
    missing levels (mode 0700), as after the folder was deleted while a process runs.
    """

    def __init__(self, folder: Path, kind: str, create: bool):
        self.fds: list[int] = []
        self.base = self._open(str(folder.parent), None, create, follow=True)
        version = self._open(folder.name, self.base, create)
        self.kind = self._open(kind, version, create)

    def _open(self, name: str, parent: int | None, create: bool, follow: bool = False) -> int:
        flags = os.O_RDONLY | os.O_DIRECTORY | (0 if follow else os.O_NOFOLLOW)
        try:
            fd = os.open(name, flags, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                self.close()
                raise
            try:
                if parent is None:
                    os.makedirs(name, mode=0o700, exist_ok=True)
                else:
                    os.mkdir(name, mode=0o700, dir_fd=parent)
            except FileExistsError:
                pass
            except OSError:
                self.close()
                raise
            fd = os.open(name, flags, dir_fd=parent)
        except OSError:
            self.close()
            raise
        self.fds.append(fd)
        try:
            _private_folder(fd)
        except (_Unsafe, OSError):
            self.close()
            raise
        return fd

    def close(self) -> None:
        while self.fds:
            os.close(self.fds.pop())

    def __enter__(self) -> "_Levels":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_SECRETS: dict[tuple[int, int], bytes] = {}  # top folder (device, inode) -> its key, read once per process


def _secret(base: int, create: bool) -> bytes | None:
    info = os.fstat(base)
    found = _SECRETS.get((info.st_dev, info.st_ino))
    if found is None:
        found = _read_secret(base, create)
        if found is not None:
            _SECRETS[(info.st_dev, info.st_ino)] = found
    return found


def _read_secret(base: int, create: bool) -> bytes | None:
    """This cache's signing key, read from :data:`KEY_FILE` in the open top folder ``base``.

    Made once (random bytes, mode 0600, written under a temporary name and linked into
    place, so two runs starting together agree on one key).  A key file that is not a
    private regular file of this user, readable by no one else, of the right length, is not
    used: without it nothing is read from the cache and nothing written.
    """
    for attempt in range(2):
        try:
            fd = os.open(KEY_FILE, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=base)
        except FileNotFoundError:
            if not create or attempt:
                return None
            _make_secret(base)
            continue
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not _private_file(info) or info.st_mode & 0o077 or info.st_size != _KEY_BYTES:
                return None
            key = handle.read(_KEY_BYTES + 1)
        return key if len(key) == _KEY_BYTES else None
    return None


def _make_secret(base: int) -> None:
    temporary = f".tmp-key-{secrets.token_hex(8)}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=base)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(_KEY_BYTES))
        try:
            os.link(temporary, KEY_FILE, src_dir_fd=base, dst_dir_fd=base, follow_symlinks=False)
        except FileExistsError:  # another run made it first: theirs is the key
            pass
    finally:
        os.unlink(temporary, dir_fd=base)


def _type_name(value: object) -> bytes:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}".encode("utf-8")


def _signature(secret: bytes, name: str, body: bytes) -> bytes:
    return hmac.new(secret, name.encode("ascii") + b"\0" + body, hashlib.sha256).digest()


def _encoded(secret: bytes, name: str, value: object) -> bytes:
    """An entry: :data:`MAGIC`, the signature, then the value's type name and its pickle."""
    body = _type_name(value) + b"\n" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return MAGIC + _signature(secret, name, body) + body


def _decoded(secret: bytes, name: str, data: bytes) -> object:
    """The value of an entry, or :data:`_MISSING`: the signature is checked before anything is
    unpickled (an entry torn, planted or moved from another key is never unpickled), and the
    value must be of the type recorded when it was written."""
    head = len(MAGIC) + _SIGNATURE_BYTES
    if len(data) <= head or not data.startswith(MAGIC):
        return _MISSING
    signature, body = data[len(MAGIC):head], data[head:]
    if not hmac.compare_digest(signature, _signature(secret, name, body)):
        return _MISSING
    written_type, _, pickled = body.partition(b"\n")
    value = _unpickled(pickled)
    return value if _type_name(value) == written_type else _MISSING


def _read(folder: Path, kind: str, name: str) -> object:
    """The value of an entry, or :data:`_MISSING` for anything but an entry this user's cardgen wrote.

    Every level is opened and checked by :class:`_Levels`; the entry must be a regular file
    of this user that no one else may write, no larger than :data:`MAX_ENTRY_BYTES`, opened
    without blocking (a FIFO planted as an entry is never waited on) and signed with this
    cache's key (:func:`_decoded`).
    """
    try:
        with _Levels(folder, kind, create=False) as levels:
            secret = _secret(levels.base, create=False)
            if secret is None:
                return _MISSING
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=levels.kind)
            try:
                info = os.fstat(fd)
                if not _private_file(info) or info.st_size > MAX_ENTRY_BYTES:
                    return _MISSING
                data = _read_all(fd, info.st_size)
            finally:
                os.close(fd)
            value = _decoded(secret, name, data)
            if value is not _MISSING:
                os.utime(name, dir_fd=levels.kind, follow_symlinks=False)  # recently used: pruned last
            return value
    except Exception:  # a missing, torn or foreign entry, a folder others may write: compute again
        return _MISSING


def _read_all(fd: int, size: int) -> bytes:
    """The ``size`` bytes of an open file (what it holds past them is no part of the entry: a miss)."""
    parts, remaining = [], size
    while remaining > 0:
        chunk = os.read(fd, remaining)
        if not chunk:
            break
        parts.append(chunk)
        remaining -= len(chunk)
    return b"".join(parts)


def _unpickled(data: bytes) -> object:
    """``pickle.loads`` without the cyclic garbage collector: an entry is thousands of new
    objects, which start collections that walk every object of the process (all of pydantic
    and reportlab), ten times the unpickling itself; an entry holds no garbage to collect."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if was_enabled:
            gc.enable()


def _write(folder: Path, kind: str, name: str, value: object) -> None:
    """Keep ``value`` under ``name``: written to a temporary name in the kind's folder and renamed
    (never through a symlink); a full disk, a read-only or unsafe cache costs speed, never a result."""
    try:
        with _Levels(folder, kind, create=True) as levels:
            secret = _secret(levels.base, create=True)
            if secret is None:
                return
            try:
                data = _encoded(secret, name, value)
            except Exception:  # an object that does not pickle is simply not cached
                return
            temporary = f".tmp-{secrets.token_hex(8)}"
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=levels.kind)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(temporary, name, src_dir_fd=levels.kind, dst_dir_fd=levels.kind)
            except BaseException:
                _unlink(temporary, levels.kind)
                raise
            _prune(levels.kind)
    except (OSError, _Unsafe):
        pass


def _prune(folder: int) -> None:
    """Keep the :data:`MAX_ENTRIES` most recently used entries of one kind (its open folder)."""
    with os.scandir(folder) as found:
        items = list(found)
    stale = time.time() - 3600  # a temporary file an hour old was left by a killed run
    for item in items:
        if item.name.startswith(".tmp-") and item.stat(follow_symlinks=False).st_mtime < stale:
            _unlink(item.name, folder)
    entries = [item for item in items if item.is_file(follow_symlinks=False) and not item.name.startswith(".")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda item: item.stat(follow_symlinks=False).st_mtime_ns)
    for item in entries[: len(entries) - MAX_ENTRIES * 3 // 4]:
        _unlink(item.name, folder)


def _unlink(name: str, folder: int) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:  # another run removed it first
        pass
