"""Writing files so that a failed or interrupted run never leaves half a file.

Everything cardgen writes goes to a temporary file in the same folder and is
renamed over the target only when complete; the rename is atomic on POSIX.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator


@contextmanager
def atomic_output(target: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; rename it over ``target`` on success."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


@contextmanager
def atomic_binary(target: Path) -> Iterator[BinaryIO]:
    """Like :func:`atomic_output`, but yields an open binary file."""
    with atomic_output(target) as tmp, open(tmp, "wb") as handle:
        yield handle


def write_bytes_atomic(target: Path, data: bytes) -> Path:
    with atomic_binary(target) as handle:
        handle.write(data)
    return target


def write_text_atomic(target: Path, text: str) -> Path:
    return write_bytes_atomic(target, text.encode("utf-8"))
