"""Running a sweep's chunks on Dask: a local cluster of processes, or an existing scheduler.

Imported only when a sweep uses Dask (importing ``distributed`` takes about a
second).  A local cluster binds 127.0.0.1 only and runs no dashboard; one
worker process per core, one thread each (the engines are pure Python, so
threads would only queue for the interpreter lock).  ``--scheduler
tcp://HOST:PORT`` sends the same chunks to a running cluster: its workers need
the same cardgen (and any engine plug-in) installed; the game folder travels
with the work (:mod:`cardgen.simulation.snapshot`), while a local cluster's
workers read it where it is.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import logging
import os
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from cardgen.errors import SimulationError
from cardgen.simulation.snapshot import GameSnapshot, take_snapshot, unpack
from cardgen.simulation.sweep import ChunkResult, ChunkTask, Executor, run_chunk, warm_engine

CONNECT_TIMEOUT = "10s"

#: Housekeeping intervals of a local cluster.  Its scheduler, the worker
#: processes' nannies and the client run in this process, whose background work
#: competes with the workers (one per core) for the cores.  With Dask's defaults
#: that work took 0.05-0.08 CPU seconds per wall second with the cluster idle,
#: with these 0.014-0.016 (2 workers; most of it the 20 ms tick).  None of them
#: changes what runs where: the tick only watches for a blocked event loop, the
#: monitors sample CPU and memory for a dashboard a local cluster does not run
#: (the nanny still restarts a worker past its memory limit, within a second),
#: and the chunks are queued on the scheduler, so there is little to steal.
#: Each worker's statistical profiler, which walks the task thread's stack every
#: 10 ms for that dashboard, is off: it took 4-5 % of a worker's CPU.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "200ms",  # default 20ms
    "distributed.scheduler.work-stealing-interval": "1s",  # default 100ms
    "distributed.admin.system-monitor.interval": "2s",  # default 500ms
    "distributed.worker.memory.monitor-interval": "1s",  # default 100ms
}


@contextmanager
def dask_executor(scheduler: str, workers: int | None = None) -> Iterator[tuple[Executor, dict[str, Any]]]:
    """An executor running chunks on Dask, and facts about the cluster for run.json.

    ``scheduler`` is ``"local"`` (start a LocalCluster of ``workers``
    processes, default one per core) or a scheduler address.  The cluster
    (when we started it) and the client are closed on the way out, also on
    Ctrl-C.
    """
    import dask
    from dask.distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler == "local":
            # the intervals are read as the scheduler, nannies and workers start
            with dask.config.set(LOCAL_CLUSTER_CONFIG), _workers_ignore_interrupts():
                cluster = LocalCluster(
                    n_workers=workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                client = Client(cluster)
        else:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        raise SimulationError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        known = client.scheduler_info().get("workers", {})
        info = {
            "scheduler": "local" if cluster is not None else scheduler,
            "workers": sorted(
                ({"address": address, "host": worker.get("host"), "threads": worker.get("nthreads")}
                 for address, worker in known.items()),
                key=lambda worker: worker["address"],
            ),
        }
        if not known:
            raise SimulationError(f"the Dask scheduler at {scheduler} has no workers")
        # a local cluster's workers read the game where it is; a running cluster's may be elsewhere
        yield _executor(client, send_game=cluster is None), info
    finally:
        if cluster is not None:
            _quiet_workers(client)
        client.close()
        if cluster is not None:
            cluster.close()


def _quiet_workers(client: Any) -> None:
    """Stop the heartbeats of our own local cluster's workers before closing it.

    A worker's heartbeat to the scheduler that is under way while the cluster closes fails
    with ``CommClosedError``, which the worker logs with its traceback on the terminal
    after a sweep that went well (seen by users; made certain here by heartbeats every few
    milliseconds).  With the work done, nothing needs the heartbeats (the scheduler drops a
    silent worker only after minutes).  A worker that no longer answers is closed all the same.
    """
    try:
        client.run(_stop_heartbeat)
    except Exception:  # a worker already gone: the cluster's close deals with it
        pass


async def _stop_heartbeat(dask_worker: Any) -> None:
    callback = getattr(dask_worker, "periodic_callbacks", {}).get("heartbeat")
    if callback is not None:
        callback.stop()


@contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """Worker processes started in here ignore SIGINT (an ignored signal stays ignored in a
    child, and Python then installs no KeyboardInterrupt of its own there).  Ctrl-C reaches
    every process of the terminal's group: a worker interrupted mid-chunk closes by itself
    and logs its half-closed connections as tracebacks.  The sweep, which gets it too,
    closes the client and the cluster in order and says "interrupted"."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_chunk_from(task: ChunkTask, snapshot: GameSnapshot) -> ChunkResult:
    """:func:`run_chunk` on a worker, with the game folder the snapshot unpacks to."""
    return run_chunk(dataclasses.replace(task, game_dir=str(unpack(snapshot))))


class EngineNotBuilt(Exception):
    """On a worker: the engine ``target`` could not be built, for ``reason`` (its error's type and text)."""

    def __init__(self, target: str, reason: str):
        super().__init__(target, reason)
        self.target, self.reason = target, reason


def warm_engines_from(game: GameSnapshot | str, engines: Sequence[tuple[str, tuple[tuple[str, str], ...]]]
                      ) -> dict[str, str]:
    """Build each engine (target, options) now, from a snapshot or a folder; return each
    target's :func:`play_code_digest` on this worker."""
    folder = str(unpack(game)) if isinstance(game, GameSnapshot) else game
    for target, options in engines:
        try:
            warm_engine(target, folder, options)
        except Exception as error:
            raise EngineNotBuilt(target, f"{type(error).__name__}: {error}") from None
    return {target: play_code_digest(target) for target, _ in engines}


@functools.lru_cache(maxsize=None)
def play_code_digest(target: str) -> str:
    """SHA-256 of the code that plays the games: cardgen's own modules and the engine's module
    (a plug-in's lives outside cardgen).  Equal on the workers and here, the same seeds play
    the same games there as here."""
    from cardgen.content import memo

    module = importlib.import_module(target.split(":")[0])
    return memo.digest([memo.source_digest(), Path(module.__file__).read_bytes() if module.__file__ else b""])


def _executor(client: Any, send_game: bool) -> Executor:
    """``send_game``: the workers may not share this machine's disk, so the game folder goes with
    the work (a worker elsewhere has cardgen and the engine's package installed, not the
    publisher's files)."""
    from dask.distributed import as_completed

    def execute(tasks: Sequence[ChunkTask], done: Callable[[ChunkTask, ChunkResult], None]) -> None:
        if not tasks:
            return
        folders = list(dict.fromkeys(t.game_dir for t in tasks))
        games = {folder: take_snapshot(Path(folder)) if send_game else folder for folder in folders}
        _warm_workers(client, tasks, games)
        if send_game:
            # sent once to every worker, then named by each chunk (a worker that joins later
            # fetches it); under a key of its own, since a key named by the content would be
            # the one an earlier run of the same game still releases
            shared = {folder: client.scatter(games[folder], broadcast=True, hash=False) for folder in folders}
            futures = client.map(run_chunk_from, list(tasks), [shared[t.game_dir] for t in tasks], pure=False)
        else:
            futures = client.map(run_chunk, list(tasks), pure=False)
        task_of = {future.key: task for future, task in zip(futures, tasks)}
        try:
            # results fetched by the client's event loop as they finish (0.6 ms of the
            # sweep process's CPU less per chunk than asking for each)
            for future, result in as_completed(futures, with_results=True, raise_errors=False):
                task = task_of[future.key]
                if future.status != "finished":
                    error = result[1] if future.status == "error" else result  # (type, error, traceback)
                    raise SimulationError(f"a Dask worker failed on {task.name} ({task.cell_key}): "
                                          f"{type(error).__name__}: {error}") from error
                done(task, result)
        finally:
            client.cancel([future for future in futures if not future.done()])

    return execute


def _warm_workers(client: Any, tasks: Sequence[ChunkTask], games: dict[str, GameSnapshot | str]) -> None:
    """Every worker imports cardgen and builds each cell's engine before the chunks go out
    (about a second the first time, milliseconds after): otherwise a worker that joins late
    pays it inside a chunk and the others wait for its last one.  One call per game folder,
    so a snapshot goes out once.  A worker whose code differs from ours is refused here,
    before a game is played."""
    for game_dir, game in games.items():
        engines = list(dict.fromkeys((t.engine, t.options) for t in tasks if t.game_dir == game_dir))
        try:
            codes = client.run(warm_engines_from, game, engines)
        except EngineNotBuilt as failed:
            raise SimulationError(f"a Dask worker cannot build the engine {failed.target} for {game_dir}: "
                                  f"{failed.reason}") from failed
        except Exception as error:
            raise SimulationError(f"a Dask worker cannot build the engines for {game_dir}: "
                                  f"{type(error).__name__}: {error}") from error
        for target in dict.fromkeys(target for target, _ in engines):
            others = sorted(worker for worker, code in codes.items() if code[target] != play_code_digest(target))
            if others:
                raise SimulationError(
                    f"the Dask worker(s) {', '.join(others)} run other code than this cardgen and engine "
                    f"({target}): the same seeds would not play the same games there. Install the same "
                    "cardgen, and the same engine package, on every worker")
