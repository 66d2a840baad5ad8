"""Golden replays: a game as (seed, moves) and the final state it must reach.

A replay file is JSON: ``game``, ``players``, ``seed``, ``options``, ``moves``
(tuples written as lists) and ``final`` (``state.to_dict()``) with the
``outcome``.  Because every chance event comes from the state's seeded RNG,
replaying the moves from the seed must reproduce ``final`` exactly.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cardgen.engines.base import Engine, GameState


def move_to_json(move: Any) -> Any:
    return [move_to_json(part) for part in move] if isinstance(move, tuple) else move


def move_from_json(data: Any) -> Any:
    return tuple(move_from_json(part) for part in data) if isinstance(data, list) else data


def replay(engine: Engine, players: int, seed: int, moves: list[Any]) -> GameState:
    """The state reached by playing ``moves`` from the deal of ``seed``."""
    state = engine.new_game(players, seed)
    for move in moves:
        state.apply(move)
    return state


def replay_record(engine: Engine, players: int, seed: int, moves: list[Any]) -> dict[str, Any]:
    """The golden file content for a game."""
    state = replay(engine, players, seed, moves)
    outcome = asdict(state.outcome()) if state.is_over() else None
    return {
        "game": engine.game.id,
        "players": players,
        "seed": seed,
        "options": {name: engine.options[name] for name in sorted(engine.options)},
        "moves": [move_to_json(move) for move in moves],
        "final": state.to_dict(),
        "outcome": json.loads(json.dumps(outcome)),
    }


def write_replay(path: Path, record: dict[str, Any]) -> None:
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_replay(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text(encoding="utf-8"))
    record["moves"] = [move_from_json(move) for move in record["moves"]]
    return record
