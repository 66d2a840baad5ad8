"""A game folder as data, for sweep workers that do not share this machine's disk.

A Dask worker on another machine has cardgen (and any engine plug-in) installed,
but not the publisher's game folder.  The sweep sends the folder along instead:
:func:`take_snapshot` reads its files once (every regular file, and symbolic links
that stay inside the folder, as the loader reads them), Dask broadcasts the
snapshot to the workers, and each worker process writes it out once into a
private temporary folder (:func:`unpack`) and loads the game from there.  (A
local cluster's workers share this machine's disk and read the folder itself.)

The engine builds from the same bytes either way, so a game plays the same
moves from the snapshot as from the folder.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from cardgen.content.safefile import UnsafeFile, inside, read_capped
from cardgen.errors import SimulationError

#: Everything a game folder may hold for a sweep (head-game's, the largest bundled one, is 0.6 MB).
SNAPSHOT_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True)
class GameSnapshot:
    """The files of one game folder: (path relative to the folder, bytes), sorted by path."""

    name: str  # the folder's name: the game's id
    digest: str  # SHA-256 over names and bytes; names the unpacked copy
    files: tuple[tuple[str, bytes], ...]

    @property
    def size(self) -> int:
        return sum(len(data) for _, data in self.files)


def take_snapshot(game_dir: Path) -> GameSnapshot:
    """Read ``game_dir`` into a snapshot; :class:`SimulationError` when it cannot be sent."""
    root = game_dir.resolve()
    files = []
    total = 0
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if not inside(path, root) or not path.is_file():
            continue  # folders; links leading out of the game, which the loader does not read either
        relative = path.relative_to(root).as_posix()
        try:  # what is left of the cap is checked before a byte is read
            data = read_capped(path, SNAPSHOT_LIMIT - total)
        except UnsafeFile as problem:
            if path.is_file() and path.stat().st_size > SNAPSHOT_LIMIT - total:
                raise SimulationError(f"the game folder {game_dir} holds more than {SNAPSHOT_LIMIT // 2**20} MB; "
                                      "a sweep on a running Dask cluster sends it to every worker and takes no "
                                      "more: keep large files (art sources) outside the game folder, or sweep "
                                      "on this machine (--scheduler local)") from None
            raise SimulationError(f"cannot read {path} to send it to the Dask workers: {problem}") from None
        total += len(data)
        digest.update(relative.encode() + b"\0" + hashlib.sha256(data).digest())
        files.append((relative, data))
    return GameSnapshot(root.name, digest.hexdigest(), tuple(files))


# -- in the worker ---------------------------------------------------------------------------------

_UNPACKED: dict[str, Path] = {}  # digest -> the game folder written from it, per process
_HOME: list[Path] = []  # this process's temporary folder, made on first use
_LOCK = threading.Lock()


def unpack(snapshot: GameSnapshot) -> Path:
    """The snapshot's game folder on this machine, written on first use in this process."""
    with _LOCK:  # a worker with several threads may start several chunks at once
        folder = _UNPACKED.get(snapshot.digest)
        if folder is not None and folder.is_dir():
            return folder
        folder = _home() / snapshot.digest[:16] / _checked(snapshot.name)
        targets = [(folder / _checked(relative), data) for relative, data in snapshot.files]
        if folder.exists():  # left half-written by a failed attempt
            shutil.rmtree(folder)
        for target, data in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _UNPACKED[snapshot.digest] = folder
        return folder


def _checked(relative: str) -> PurePosixPath:
    """A snapshot's path, refused unless it stays inside the folder it is written to."""
    path = PurePosixPath(relative)
    if path.is_absolute() or not path.parts or any(part in ("", ".", "..") for part in path.parts):
        raise SimulationError(f"a game snapshot holds the path {relative!r}, which leaves its folder")
    return path


def _home() -> Path:
    if not _HOME:
        home = Path(tempfile.mkdtemp(prefix=f"cardgen-sweep-{os.getpid()}-"))
        atexit.register(shutil.rmtree, home, ignore_errors=True)
        _HOME.append(home)
    return _HOME[0]


__all__ = ["GameSnapshot", "SNAPSHOT_LIMIT", "take_snapshot", "unpack"]
