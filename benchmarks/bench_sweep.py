"""Sweep throughput: a benchmark, not a test.

    python benchmarks/bench_sweep.py [--games 4000] [GAME ...]

For card-football (2 players) and himmel (4 players), random bots:

* ``inline``: games per CPU second of ``play_chunk`` in this process, as a
  sweep plays them (invariants on the sample: the first 20 games and every
  100th), i.e. games per second per core;
* ``bare``: the engine and bot alone, no sample, no records (the ceiling);
* ``1 worker`` and ``2 workers``: wall-clock games per second of the same
  games on a Dask LocalCluster (started before the clock runs), and the
  ratio of the two.

Targets (issue 13): >= 2,000 games per second per core, and 2 workers >= 1.8x
one.  Other load on the machine lowers the wall-clock figures; the load
average is printed beside them.  Each figure is the best of ``--repeat`` runs
(as timeit reports its best): on a shared virtual machine even CPU seconds
swing by a fifth from run to run, and interference only ever slows a run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardgen.content import load_game  # noqa: E402
from cardgen.engines import engine_for  # noqa: E402
from cardgen.simulation.sweep import SweepPlan, play_chunk  # noqa: E402

from benchmarks.common import load_average, play_bare_games  # noqa: E402

GAMES = {"card-football": 2, "himmel": 4}


def plan_for(game_id: str, players: int, games: int) -> SweepPlan:
    engine = engine_for(load_game(ROOT / "content" / game_id))
    target = f"{type(engine).__module__}:{type(engine).__qualname__}"
    return SweepPlan(ROOT / "content" / game_id, target, (players,), (), ("random",), games, seed=1)


def inline_rate(plan: SweepPlan) -> float:
    tasks = plan.tasks()
    play_chunk(tasks[0])  # builds the engine once, as a worker does
    started = time.process_time()
    for task in tasks:
        play_chunk(task)
    return plan.games / (time.process_time() - started)


def cluster_rate(plan: SweepPlan, workers: int) -> float:
    from cardgen.simulation.cluster import dask_executor

    tasks = plan.tasks()
    with dask_executor("local", workers) as (execute, _):
        execute(tasks[:workers] * 2, lambda task, records: None)  # warm: every worker builds its engine
        started = time.perf_counter()
        execute(tasks, lambda task, records: None)
        return plan.games / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: " + ", ".join(GAMES))
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept (default 3)")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    print("games/s, random bots; inline and bare per CPU second (per core), workers per wall second")
    print(f"{'game':<14} {'players':>7} {'bare':>6} {'inline':>7} {'1 worker':>9} {'2 workers':>10} {'ratio':>6}  load average")
    for game_id in args.games_to_run or list(GAMES):
        players = GAMES.get(game_id, 2)
        plan = plan_for(game_id, players, args.games)
        engine = engine_for(load_game(ROOT / "content" / game_id))
        bare = max(args.games / play_bare_games(engine, players, args.games, "random")[0] for _ in range(repeat))
        inline = max(inline_rate(plan) for _ in range(repeat))
        one = max(cluster_rate(plan, 1) for _ in range(repeat))
        two = max(cluster_rate(plan, 2) for _ in range(repeat))
        print(f"{game_id:<14} {players:>7} {bare:>6.0f} {inline:>7.0f} {one:>9.0f} {two:>10.0f} {two / one:>5.2f}x  {load_average()}")


if __name__ == "__main__":
    main()
