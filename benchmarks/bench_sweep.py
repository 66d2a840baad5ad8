"""Sweep throughput: a benchmark, not a test.

    python benchmarks/bench_sweep.py [--games 4000] [GAME ...]

For card-football (2 players) and himmel (4 players), random bots:

* ``inline``: games per CPU second of ``run_chunk`` in this process, as a
  sweep's worker plays a chunk (invariants on the sample: the first 20 games
  and every 100th; the records tallied and encoded as the chunk's file),
  i.e. games per second per core;
* ``bare``: the engine and bot alone, no sample, no records (the ceiling);
* ``1 worker`` and ``2 workers``: wall-clock games per second of
  ``run_sweep`` on a Dask LocalCluster (started, and warmed with a sweep of
  another seed, before the clock runs), as ``cardgen sweep`` runs it: every
  chunk file written and every tally merged in this process; ``ratio`` the
  two against each other;
* ``machine``: the same chunks played by two plain processes (forked, no Dask,
  nothing sent back) against one, in the same minutes: what this machine's
  two cores give this work at all.  On a shared virtual machine two busy
  cores run slower than one (a bare loop: 7-15 % here), and that varies with
  the neighbours; ``ratio`` over ``machine`` is then Dask's own efficiency.

Targets (issue 13): >= 2,000 games per second per core, and 2 workers >= 1.8x
one.  Other load on the machine lowers the wall-clock figures; the load
average is printed beside them.  Each figure is the best of ``--repeat`` runs
(as timeit reports its best; the runs of one repetition follow each other, so a
slow minute falls on all of them): on a shared virtual machine even CPU
seconds swing by a fifth from run to run, and interference only ever slows a
run.  ``paired`` is the median of the repetitions' own ratios.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardgen.content import load_game  # noqa: E402
from cardgen.engines import engine_for  # noqa: E402
from cardgen.simulation.sweep import SweepPlan, run_chunk, run_sweep  # noqa: E402

from benchmarks.common import load_average, play_bare_games  # noqa: E402

GAMES = {"card-football": 2, "himmel": 4}


def plan_for(game_id: str, players: int, games: int) -> SweepPlan:
    engine = engine_for(load_game(ROOT / "content" / game_id))
    target = f"{type(engine).__module__}:{type(engine).__qualname__}"
    return SweepPlan(ROOT / "content" / game_id, target, (players,), (), ("random",), games, seed=1)


def inline_rate(plan: SweepPlan) -> float:
    tasks = plan.tasks()
    run_chunk(tasks[0])  # builds the engine once, as a worker does
    started = time.process_time()
    for task in tasks:
        run_chunk(task)
    return plan.games / (time.process_time() - started)


def cluster_rate(plan: SweepPlan, workers: int) -> float:
    from cardgen.simulation.cluster import dask_executor

    with tempfile.TemporaryDirectory() as store, dask_executor("local", workers) as (execute, _):
        # warm: every worker builds its engine and plays a few chunks of another seed
        warm = dataclasses.replace(plan, games=2 * workers * plan.chunk_games, seed=plan.seed + 1)
        run_sweep(warm, Path(store), "bench", execute)
        started = time.perf_counter()
        result = run_sweep(plan, Path(store), "bench", execute)
        elapsed = time.perf_counter() - started
    if result.games_run != plan.games:
        raise SystemExit(f"the sweep played {result.games_run} games, not {plan.games}")
    return plan.games / elapsed


def process_rate(plan: SweepPlan, processes: int) -> float:
    """Wall-clock games per second of the plan's chunks shared out to forked processes."""
    import multiprocessing

    tasks = plan.tasks()
    run_chunk(tasks[0])  # the engine is built before the fork, as a warmed worker has it
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_play_all, args=(tasks[i::processes],)) for i in range(processes)]
    started = time.perf_counter()
    for child in children:
        child.start()
    for child in children:
        child.join()
    if any(child.exitcode for child in children):
        raise SystemExit("a plain process failed")
    return plan.games / (time.perf_counter() - started)


def _play_all(tasks: list) -> None:
    for task in tasks:
        run_chunk(task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: " + ", ".join(GAMES))
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    print("games/s, random bots; inline and bare per CPU second (per core), workers per wall second")
    print("ratio: best of 2 workers / best of 1 (paired: median of each repetition's ratio); "
          "machine: the same for plain processes")
    print(f"{'game':<14} {'players':>7} {'bare':>6} {'inline':>7} {'1 worker':>9} {'2 workers':>10} {'ratio':>6} "
          f"{'paired':>7} {'machine':>8} {'paired':>7}  load average")
    for game_id in args.games_to_run or list(GAMES):
        players = GAMES.get(game_id, 2)
        plan = plan_for(game_id, players, args.games)
        engine = engine_for(load_game(ROOT / "content" / game_id))
        bare = max(args.games / play_bare_games(engine, players, args.games, "random")[0] for _ in range(repeat))
        inline = max(inline_rate(plan) for _ in range(repeat))
        runs = [(cluster_rate(plan, 1), cluster_rate(plan, 2), process_rate(plan, 1), process_rate(plan, 2))
                for _ in range(repeat)]
        one, two, plain_one, plain_two = (max(column) for column in zip(*runs))
        paired = statistics.median(run[1] / run[0] for run in runs)
        plain_paired = statistics.median(run[3] / run[2] for run in runs)
        print(f"{game_id:<14} {players:>7} {bare:>6.0f} {inline:>7.0f} {one:>9.0f} {two:>10.0f} {two / one:>5.2f}x "
              f"{paired:>6.2f}x {plain_two / plain_one:>7.2f}x {plain_paired:>6.2f}x  {load_average()}")

if __name__ == "__main__":
    main()
