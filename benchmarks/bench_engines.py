"""Games per second of the reference engines: a benchmark, not a test.

    python benchmarks/bench_engines.py [--games 3000] [--bot random] [--repeat 3] [GAME ...]

For each game it prints three figures:

* ``engine``: the bare engine and bot on one core, no checks (what the rules
  cost);
* ``simulate 1 core``: ``run_games`` as ``cardgen simulate`` runs it, with the
  invariant checks after every move (and the sampled clone check);
* ``simulate --jobs 2``: the same on two worker processes (includes starting
  the workers and loading the content in each).

Each figure is the best of ``--repeat`` runs (other processes on the machine
only ever slow a run down), and the load average is printed beside it, since
a loaded machine gives lower figures.  The simulate figures also come as
games per CPU second (``cpu``: this process and its workers), which other
load on the machine disturbs much less than the wall clock.  The target is
1,000 games per second per core.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardgen.content import load_game  # noqa: E402
from cardgen.engines import engine_for  # noqa: E402
from cardgen.engines.base import Engine  # noqa: E402
from cardgen.simulation import CheckPolicy, run_games  # noqa: E402

from benchmarks.common import load_average, play_bare_games  # noqa: E402

GAMES = {"card-football": 2, "himmel": 4}


def bare_engine_rate(engine: Engine, players: int, games: int, bot: str) -> float:
    """Games per CPU second of the bare engine and bot."""
    seconds, _ = play_bare_games(engine, players, games, bot)
    return games / seconds


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def simulate_rate(engine: Engine, players: int, games: int, bot: str, jobs: int) -> tuple[float, float]:
    """(games per wall second, games per CPU second)."""
    started, cpu_started = time.perf_counter(), cpu_seconds()
    records = run_games(engine, games, seed=1, players=players, bot=bot, jobs=jobs, policy=CheckPolicy())
    elapsed, cpu = time.perf_counter() - started, cpu_seconds() - cpu_started  # the workers have exited
    broken = sum(1 for record in records if not record.completed)
    if broken:
        print(f"  warning: {broken} games broke an invariant", file=sys.stderr)
    return games / elapsed, games / cpu


def best_of(repeat: int, rate: Callable[[], float]) -> float:
    return max(rate() for _ in range(repeat))


def best_pair(repeat: int, rate: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    runs = [rate() for _ in range(repeat)]
    return max(run[0] for run in runs), max(run[1] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: " + ", ".join(GAMES))
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown")
    args = parser.parse_args()
    print(f"games/s, bot {args.bot}, best of {args.repeat}; cpu = games per CPU second (per core)")
    print(f"{'game':<14} {'players':>7} {'engine':>7} {'1 core':>7} {'cpu':>6} {'--jobs 2':>9} {'cpu':>6}  load average")
    for game_id in args.games_to_run or list(GAMES):
        players = GAMES.get(game_id, 2)
        engine = engine_for(load_game(ROOT / "content" / game_id))
        bare = best_of(args.repeat, lambda: bare_engine_rate(engine, players, args.games, args.bot))
        one, one_cpu = best_pair(args.repeat, lambda: simulate_rate(engine, players, args.games, args.bot, jobs=1))
        two, two_cpu = best_pair(args.repeat, lambda: simulate_rate(engine, players, args.games, args.bot, jobs=2))
        print(f"{game_id:<14} {players:>7} {bare:>7.0f} {one:>7.0f} {one_cpu:>6.0f} {two:>9.0f} {two_cpu:>6.0f}  {load_average()}")


if __name__ == "__main__":
    main()
