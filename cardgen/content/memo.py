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
``~/.cache/cardgen``; ``CARDGEN_CACHE=off`` turns it off.  The folder is the user's
own (mode 0700; one that others may write to is not used, since a cache entry is a
pickle), each entry is written to a temporary name and renamed, and anything that
cannot be read back is recomputed.  Each kind keeps its most recently used
:data:`MAX_ENTRIES` entries.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import stat
import sys
import tempfile
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
    entry = folder / kind / _key(kind, parts)
    found = _read(entry)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    value = compute()
    if keep(value):
        _write(entry, value)
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
    if folder.is_dir():
        try:
            os.utime(folder)  # used now: pruned last
        except OSError:
            return None
    else:
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
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


def _read(entry: Path) -> object:
    try:
        with open(entry, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                return _MISSING
            value = _unpickled(handle.read())
        os.utime(entry)  # recently used: pruned last
        return value
    except FileNotFoundError:
        return _MISSING
    except Exception:  # a torn or foreign entry, an object whose class moved: compute again
        return _MISSING


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


def _write(entry: Path, value: object) -> None:
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # an object that does not pickle is simply not cached
        return
    try:
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # also after the folder was deleted
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, entry)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _prune(entry.parent)
    except OSError:
        pass  # a full disk or a read-only cache costs speed, never a result


def _prune(folder: Path) -> None:
    """Keep the :data:`MAX_ENTRIES` most recently used entries of one kind."""
    with os.scandir(folder) as found:
        items = list(found)
    stale = time.time() - 3600  # a temporary file an hour old was left by a killed run
    for item in items:
        if item.name.startswith(".tmp-") and item.stat().st_mtime < stale:
            _unlink(item.path)
    entries = [item for item in items if item.is_file() and not item.name.startswith(".")]
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort(key=lambda item: item.stat().st_mtime_ns)
    for item in entries[: len(entries) - MAX_ENTRIES * 3 // 4]:
        _unlink(item.path)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:  # another run removed it first
        pass
