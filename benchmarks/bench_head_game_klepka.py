"""Games per second of the head-game and klepka engines: a benchmark, not a test.

    python benchmarks/bench_head_game_klepka.py [--games 2000] [--repeat 3]

For every game, bot and player count below it plays ``--games`` seeded games
with the bare engine and bot on one core (no invariant checks: what the rules
cost) and prints games per second of CPU time, the best of ``--repeat`` runs,
as other work on a shared machine only adds time.  Targets: 1,000 games per
second per core for klepka, 500 for head-game.

The klepka ``random`` bot is listed apart: a player without memory needs
about 2,000 turns to clear a 10 x 10 grid, so its games are 17 times longer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardgen.content import load_game  # noqa: E402
from cardgen.engines import engine_for  # noqa: E402
from cardgen.engines.base import Engine  # noqa: E402

from benchmarks.common import load_average, play_bare_games  # noqa: E402

TARGETS = {"klepka": 1000.0, "head-game": 500.0}

#: (game, options, bot, players, share of --games)
CASES = [
    ("klepka", {}, "greedy", 2, 1.0),
    ("klepka", {}, "greedy", 4, 1.0),
    ("klepka", {}, "perfect", 2, 1.0),
    ("klepka", {}, "random", 2, 0.05),
    ("head-game", {}, "greedy", 2, 1.0),
    ("head-game", {}, "random", 2, 1.0),
    ("head-game", {}, "greedy", 4, 0.5),
    ("head-game", {"format": "knockout"}, "greedy", 4, 1.0),
    ("head-game", {"variant": "simple"}, "greedy", 2, 1.0),
]


def games_per_cpu_second(engine: Engine, players: int, games: int, bot: str) -> tuple[float, float]:
    """Games per CPU second and mean moves per game."""
    seconds, moves = play_bare_games(engine, players, games, bot)
    return games / seconds, moves / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engines: dict[tuple[str, str], Engine] = {}
    print(f"load average {load_average()}")
    print(f"{'game':10} {'options':26} {'bot':8} {'players':>7} {'moves/game':>10} {'games/s':>9}  target")
    for game_id, options, bot, players, share in CASES:
        key = (game_id, repr(options))
        if key not in engines:
            engines[key] = engine_for(load_game(ROOT / "content" / game_id), options)
        games = max(20, int(args.games * share))
        runs = [games_per_cpu_second(engines[key], players, games, bot) for _ in range(args.repeat)]
        rate, moves = max(runs)
        target = TARGETS[game_id]
        verdict = "" if bot == "random" and game_id == "klepka" else ("ok" if rate >= target else "BELOW")
        print(f"{game_id:10} {str(options or '-'):26} {bot:8} {players:7d} {moves:10.0f} {rate:9.0f}  "
              f"{target:.0f} {verdict}", flush=True)


if __name__ == "__main__":
    main()
