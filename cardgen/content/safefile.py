"""Reading one data file without trusting it: a regular file, of bounded size, inside its folder.

Every content file cardgen reads (YAML, PO, SVG art, head-game's footballer base) goes
through :func:`read_capped`.  ``Path.read_bytes`` on a FIFO blocks forever and on
``/dev/zero`` never ends; a path of 5,000 characters or with a NUL byte raises
``OSError``/``ValueError`` from deep inside; a symlink may lead out of the game folder.
Each of these is an :class:`UnsafeFile` here, with a sentence the caller wraps in its own
error type (content, i18n or render error) and locator.

The fence (``root``) is checked twice: on the path before opening (every symlink followed, and
a ``root`` that is itself a symlink leading out of its parent fences nothing in: a game folder
or ``common/`` linked to elsewhere), and on the file actually opened, by the path the kernel
holds for it, so a folder swapped for a symlink between the two is refused as well.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: The default cap; callers with bigger or smaller files pass their own.
MAX_BYTES = 2 * 1024 * 1024
#: Longer names are refused before the operating system sees them (ENAMETOOLONG otherwise).
MAX_PATH_CHARS = 1024


class UnsafeFile(Exception):
    """A file that cannot or must not be read; ``str()`` says why, for an error message."""


def check_name(name: str) -> None:
    """Refuse a path text that no file can have: NUL bytes, control characters, too long."""
    if "\x00" in name:
        raise UnsafeFile("the path holds a NUL byte")
    if any(ord(ch) < 32 for ch in name):
        raise UnsafeFile("the path holds a control character")
    if len(name) > MAX_PATH_CHARS:
        raise UnsafeFile(f"the path is {len(name):,} characters long (at most {MAX_PATH_CHARS:,})")


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, with every symlink followed, lies inside the fence ``root``.

    The fence is ``root`` as its real path, except that a ``root`` which is itself a symlink
    leading out of the folder it stands in (a game folder, ``common/`` or ``text/`` linked to
    elsewhere, even one swapped in while cardgen runs) fences nothing in: nothing inside it
    is read.  A top folder a user names (the content folder) is passed resolved by its callers
    and may be a symlink wherever it leads.
    """
    fence = real_fence(root)
    if fence is None:
        return False
    try:
        return Path(os.path.realpath(path)).is_relative_to(fence)
    except (OSError, ValueError, RuntimeError):  # a symlink loop, a NUL byte
        return False


def real_fence(root: Path) -> Path | None:
    """The real path of the folder ``root`` as a fence, or None when ``root`` is a symlink that
    leads out of its own parent folder (see :func:`inside`)."""
    try:
        real = Path(os.path.realpath(root))
        if os.path.islink(root) and not real.is_relative_to(os.path.realpath(Path(root).parent)):
            return None
        return real
    except (OSError, ValueError, RuntimeError):
        return None


def leads_out(folder: Path) -> bool:
    """Whether the folder ``folder`` is a symlink leading out of the folder it stands in."""
    return real_fence(folder) is None


def read_capped(path: Path, limit: int = MAX_BYTES, *, root: Path | None = None) -> bytes:
    """The bytes of ``path``: a regular file of at most ``limit`` bytes (inside ``root`` if given).

    The file is opened without blocking and checked with ``fstat`` on the open handle, so
    a FIFO, a device or a folder is refused before a single byte is read, even when it
    replaced a regular file after an earlier check.
    """
    check_name(str(path))
    if root is not None and not inside(path, root):
        raise UnsafeFile(f"the file lies outside the {_folder(root)} (through a symlink or '..')")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise UnsafeFile(_reason(exc)) from None
    try:
        if root is not None and not _opened_inside(fd, root):  # a folder swapped for a symlink meanwhile
            raise UnsafeFile(f"the file lies outside the {_folder(root)} (a folder on its path changed into a symlink)")
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("not a regular file" + (" (a folder)" if stat.S_ISDIR(info.st_mode) else ""))
        if info.st_size > limit:
            raise UnsafeFile(f"the file is {info.st_size:,} bytes; at most {_size(limit)} are read")
        chunks = []
        total = 0
        while True:  # a file growing while read stops at the cap all the same
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise UnsafeFile(f"the file is larger than {_size(limit)}")
        return b"".join(chunks)
    except OSError as exc:
        raise UnsafeFile(_reason(exc)) from None
    finally:
        os.close(fd)


def _opened_inside(fd: int, root: Path) -> bool:
    """Whether the file open as ``fd`` is, by the path the kernel holds for it, inside the fence
    ``root``: the check made before opening saw the path as it was then, this one sees the file
    actually opened (True where the system keeps no such path: no /proc)."""
    try:
        opened = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return True
    fence = real_fence(root)
    return fence is not None and Path(opened).is_relative_to(fence)


def _folder(root: Path) -> str:
    return "content folder" if Path(root).name == "common" else "game folder"


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno == errno.EISDIR:
        return "not a regular file (a folder)"
    return f"cannot read: {exc.strerror or exc}"


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit:,} bytes"
