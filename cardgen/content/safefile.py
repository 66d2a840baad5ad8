"""Reading one data file without trusting it: a regular file, of bounded size, inside its folder.

Every content file cardgen reads (YAML, PO, SVG art, head-game's footballer base) goes
through :func:`read_capped`.  ``Path.read_bytes`` on a FIFO blocks forever and on
``/dev/zero`` never ends; a path of 5,000 characters or with a NUL byte raises
``OSError``/``ValueError`` from deep inside; a symlink may lead out of the game folder.
Each of these is an :class:`UnsafeFile` here, with a sentence the caller wraps in its own
error type (content, i18n or render error) and locator.
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
    """Whether ``path``, with every symlink followed, lies inside ``root`` (also resolved)."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):  # a symlink loop, a NUL byte
        return False


def read_capped(path: Path, limit: int = MAX_BYTES, *, root: Path | None = None) -> bytes:
    """The bytes of ``path``: a regular file of at most ``limit`` bytes (inside ``root`` if given).

    The file is opened without blocking and checked with ``fstat`` on the open handle, so
    a FIFO, a device or a folder is refused before a single byte is read, even when it
    replaced a regular file after an earlier check.
    """
    check_name(str(path))
    if root is not None and not inside(path, root):
        raise UnsafeFile("the file lies outside the game folder (through a symlink or '..')")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise UnsafeFile(_reason(exc)) from None
    try:
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
