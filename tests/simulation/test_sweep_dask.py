"""cardgen sweep on Dask: a scheduler and two workers started as a user would, on 127.0.0.1.

The sweep sent through the scheduler's address, the one on a LocalCluster
(--workers 2) and the one played in this process write the same sweep.json.
The processes are always torn down, also when the test fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GRID = ["sweep", "himmel", "--players", "3,4", "--option", "take-when=any-time,only-when-stuck",
        "--games", "300", "--seed", "1", "--no-pdf"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(*args: str, log: Path) -> subprocess.Popen:
    # a session of its own, so that teardown can stop the process and the children it starts
    return subprocess.Popen([str(BIN / "dask"), *args], cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def wait_for_workers(address: str, count: int, timeout: float = 40.0) -> None:
    from dask.distributed import Client

    with Client(address, timeout="20s") as client:
        client.wait_for_workers(count, timeout=timeout)


@pytest.fixture
def dask_cluster(tmp_path):
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = [start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
                       log=tmp_path / "scheduler.log")]
    try:
        time.sleep(1.0)
        for number in (1, 2):
            processes.append(start("worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard",
                                   "--host", "127.0.0.1", log=tmp_path / f"worker{number}.log"))
        wait_for_workers(address, 2)
        yield address
    finally:
        for process in reversed(processes):
            stop(process)


def sweep(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *GRID, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=180)


def test_sweep_through_a_scheduler_address_equals_a_local_run(dask_cluster, tmp_path):
    remote = sweep("--scheduler", dask_cluster, "--out", str(tmp_path / "remote"))
    assert remote.returncode == 0, remote.stderr
    run = json.loads((tmp_path / "remote" / "run.json").read_text())
    assert run["scheduler"] == dask_cluster and len(run["workers"]) == 2
    inline = sweep("--scheduler", "inline", "--out", str(tmp_path / "inline"))
    assert inline.returncode == 0, inline.stderr
    cluster = sweep("--workers", "2", "--out", str(tmp_path / "local"))
    assert cluster.returncode == 0, cluster.stderr
    expected = (tmp_path / "inline" / "sweep.json").read_bytes()
    assert (tmp_path / "remote" / "sweep.json").read_bytes() == expected
    assert (tmp_path / "local" / "sweep.json").read_bytes() == expected
    # the workers played from the game folder the sweep sent them, not from this checkout's
    from distributed import Client

    with Client(dask_cluster, timeout="10s") as client:
        folders = client.run(lambda: sorted({key[1] for key in __import__(
            "cardgen.simulation.sweep", fromlist=["_ENGINES"])._ENGINES}))
    assert len(folders) == 2
    for played_from in folders.values():
        assert played_from and all("cardgen-sweep-" in folder and folder.endswith("/himmel") for folder in played_from)
        assert str(ROOT / "content" / "himmel") not in played_from
    assert json.loads((tmp_path / "local" / "run.json").read_text())["scheduler"] == "local"


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    result = sweep("--scheduler", f"tcp://127.0.0.1:{free_port()}", "--out", str(tmp_path))
    assert result.returncode == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_chunk_failing_on_a_worker_is_a_clear_error_naming_it():
    """The chunks' results come back with their futures; a failed one names its chunk and cell."""
    import dataclasses

    from cardgen.errors import SimulationError
    from cardgen.simulation.cluster import dask_executor
    from cardgen.simulation.sweep import SweepPlan

    plan = SweepPlan(ROOT / "content" / "himmel", "cardgen.engines.himmel:HimmelEngine", (3,), (), ("random",),
                     games=20, seed=1, chunk_games=10)
    good, bad = plan.tasks()
    bad = dataclasses.replace(bad, bot="nobody")  # the engine builds; the chunk asks for a bot it lacks
    finished = []
    with dask_executor("local", 1) as (execute, _):
        with pytest.raises(SimulationError, match=r"a Dask worker failed on cell000-0000010-0000020 "
                                                  r"\(players=3;bot=random\): KeyError: 'nobody'"):
            execute([good, bad], lambda task, result: finished.append((task.name, result.tally.games)))
    assert finished in ([], [("cell000-0000000-0000010", 10)])


def test_one_cluster_runs_sweep_after_sweep_of_the_same_game_as_inline(tmp_path):
    """Each run sends the game folder under a key of its own: the previous run's copy, being
    released, is never the one the next run's chunks wait for."""
    import dataclasses

    from cardgen.simulation.cluster import dask_executor
    from cardgen.simulation.sweep import SweepPlan, run_inline, run_sweep

    plan = SweepPlan(ROOT / "content" / "himmel", "cardgen.engines.himmel:HimmelEngine", (3, 4), (), ("random",),
                     games=40, seed=1, chunk_games=10)
    from distributed import get_client

    from cardgen.simulation.cluster import _executor

    seeds = (1, 2, 3, 4)
    with dask_executor("local", 2):
        execute = _executor(get_client(), send_game=True)  # as on a running cluster
        # back to back: the release of one run's copy races the next run's sending
        ran = [run_sweep(dataclasses.replace(plan, seed=seed), tmp_path / "dask", "x", execute) for seed in seeds]
    for seed, result in zip(seeds, ran):
        alone = run_sweep(dataclasses.replace(plan, seed=seed), tmp_path / "inline", "x", run_inline)
        assert [vars(t) for t in result.tallies] == [vars(t) for t in alone.tallies] and result.games_run == 80


def test_workers_running_other_code_are_refused_before_a_game_is_played(tmp_path):
    from distributed import get_client

    from cardgen.errors import SimulationError
    from cardgen.simulation.cluster import dask_executor, play_code_digest
    from cardgen.simulation.sweep import SweepPlan, run_sweep

    target = "cardgen.engines.himmel:HimmelEngine"
    plan = SweepPlan(ROOT / "content" / "himmel", target, (3,), (), ("random",), games=20, seed=1, chunk_games=10)
    assert play_code_digest(target) == play_code_digest(target) and len(play_code_digest(target)) == 64
    with dask_executor("local", 2) as (execute, info):
        first = info["workers"][0]["address"]

        def older_cardgen():  # as a worker with another cardgen installed would answer
            import cardgen.simulation.cluster as cluster

            cluster.play_code_digest = lambda target: "0" * 64

        get_client().run(older_cardgen, workers=[first])
        with pytest.raises(SimulationError, match=rf"the Dask worker\(s\) {first} run other code than this cardgen"):
            run_sweep(plan, tmp_path, "x", execute)
    assert not list(tmp_path.glob("*/*.json"))  # nothing was played


def test_an_engine_a_worker_cannot_build_is_named_before_a_game_is_played(tmp_path):
    from cardgen.errors import SimulationError
    from cardgen.simulation.cluster import dask_executor
    from cardgen.simulation.sweep import SweepPlan, run_sweep

    plan = SweepPlan(ROOT / "content" / "himmel", "cardgen.engines.himmel:NoSuchEngine", (3,), (), ("random",),
                     games=10, seed=1)
    with dask_executor("local", 1) as (execute, _):
        with pytest.raises(SimulationError, match=r"a Dask worker cannot build the engine "
                                                  r"cardgen.engines.himmel:NoSuchEngine for .*himmel: "
                                                  r"AttributeError: .*NoSuchEngine"):
            run_sweep(plan, tmp_path, "x", execute)
    assert not list(tmp_path.glob("*/*.json"))


SHUTDOWN_RACE = """
import sys
from pathlib import Path

import distributed.scheduler
from cardgen.simulation.cluster import dask_executor
from cardgen.simulation.sweep import SweepPlan, run_sweep

# workers heartbeat every 2 ms instead of every 0.5 s: one is nearly always under way at the close
distributed.scheduler.heartbeat_interval = lambda workers: 0.002
plan = SweepPlan(Path(sys.argv[1]), "cardgen.engines.himmel:HimmelEngine", (3,), (), ("random",), games=40, seed=1,
                 chunk_games=20)
for run in range(3):
    with dask_executor("local", 2) as (execute, _):
        run_sweep(plan, Path(sys.argv[2]) / str(run), "x", execute)
print("done")
"""


def test_a_local_cluster_closes_without_a_worker_traceback(tmp_path):
    """Before the fix, two runs in three printed a worker's heartbeat CommClosedError here."""
    result = subprocess.run([sys.executable, "-c", SHUTDOWN_RACE, str(ROOT / "content" / "himmel"), str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0 and result.stdout.strip() == "done", result.stderr
    assert "Traceback" not in result.stderr and "CommClosedError" not in result.stderr, result.stderr
    assert "ERROR" not in result.stderr, result.stderr


def test_a_successful_sweep_on_a_local_cluster_writes_nothing_to_stderr(tmp_path):
    result = sweep("--workers", "2", "--games", "60", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "Error" not in result.stderr, result.stderr
    assert (tmp_path / "sweep.json").exists()
