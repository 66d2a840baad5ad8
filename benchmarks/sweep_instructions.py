"""Sweep throughput in instructions per game, counted by callgrind: a benchmark, not a test.

    python benchmarks/sweep_instructions.py [--games 200] [GAME ...]

Wall-clock games per second (``bench_sweep.py``) swing with the load other
programs put on the machine; the instructions a game takes do not.  For each
game and bot this plays games ``games .. 2*games-1`` of a 4,000-game sweep
cell through ``play_chunk`` (so the sweep's own per-game work counts, and
the invariant sample is as thin as in a real sweep: the games at multiples
of 100), under ``valgrind --tool=callgrind``, counting only the chunk itself
(startup, imports and loading the content are left out).

It runs itself under valgrind, once per bot (both at once): the chunk is
played inside ``eval``, and callgrind collects only inside that builtin
(not ``exec``, through which every import runs its module's code).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = {"card-football": 2, "himmel": 4}
SWEEP_GAMES = 4000


def child(game_id: str, players: int, games: int, bot: str) -> None:
    from benchmarks.bench_sweep import plan_for
    from cardgen.simulation.sweep import play_chunk

    plan = dataclasses.replace(plan_for(game_id, players, SWEEP_GAMES), bots=(bot,), chunk_games=games)
    play_chunk(plan.tasks()[-1])  # warm: engine built, code paths run once
    eval("play_chunk(task)", {"play_chunk": play_chunk, "task": plan.tasks()[1]})  # games `games` .. 2*games-1


def measure(game_id: str, players: int, games: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        runs = {}
        for bot in ("random", "greedy"):
            out = Path(folder) / f"callgrind.{bot}"
            runs[bot] = (out, subprocess.Popen(
                ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=builtin_eval",
                 f"--callgrind-out-file={out}", sys.executable, __file__, "--child", game_id, str(players),
                 str(games), bot],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "0"},
            ))
        figures = {}
        for bot, (out, process) in runs.items():
            if process.wait() != 0:
                raise SystemExit(f"valgrind failed for {game_id} {bot}: is valgrind installed?")
            annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(out)],
                                       check=True, capture_output=True, text=True).stdout
            match = re.search(r"^\s*([\d,]+) .*\bbuiltin_eval\b", annotated, re.MULTILINE)
            if match is None:
                raise SystemExit("callgrind_annotate shows no builtin_eval")
            figures[bot] = int(match.group(1).replace(",", "")) / games
    return figures


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: " + ", ".join(GAMES))
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print("instructions per game through play_chunk (millions)")
    print(f"{'game':<14} {'players':>7} {'random':>7} {'greedy':>7}")
    for game_id in args.games_to_run or list(GAMES):
        players = GAMES.get(game_id, 2)
        figures = measure(game_id, players, args.games)
        print(f"{game_id:<14} {players:>7} {figures['random'] / 1e6:>7.2f} {figures['greedy'] / 1e6:>7.2f}")


if __name__ == "__main__":
    main()
