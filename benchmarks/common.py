"""What the engine benchmarks share: playing bare games, and the machine's load.

Benchmarks are scripts run from the repository root; each puts the root on
``sys.path`` before importing this module.
"""

from __future__ import annotations

import os
import random
import time

from cardgen.engines.base import Engine


def play_bare_games(engine: Engine, players: int, games: int, bot: str) -> tuple[float, int]:
    """Play seeds ``0 .. games-1`` with the bare engine and bot, no invariant
    checks (what the rules cost), through ``play_out`` as a sweep's unchecked
    games are played; return (CPU seconds, moves played)."""
    choose = engine.bots()[bot]
    bound = engine.move_bound(players)
    moves = 0
    started = time.process_time()
    for seed in range(games):
        state = engine.new_game(players, seed)
        moves += state.play_out(choose, random.Random(seed), bound)
    return time.process_time() - started, moves


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: a loaded machine gives lower figures."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:  # not available on this platform
        return "n/a"
