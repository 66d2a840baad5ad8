"""Seeded simulation shared by every reference engine.

An engine plugs in by implementing :class:`cardgen.engines.base.Engine` and
:class:`~cardgen.engines.base.GameState` (legal moves in sorted order,
``apply``, ``is_over``, ``outcome``, ``card_places``, ``to_dict``, ``clone``,
bots ``random`` and ``greedy``, and ``move_bound``; optionally the fast paths
``card_lists`` and ``snapshot``, which the checks use after every move) and
registering in ``cardgen.engines.ENGINES``; nothing here knows a particular
game.

* :func:`play_checked` plays one game under the invariant checks and raises
  :class:`cardgen.errors.InvariantViolation` (seed and move number);
* :func:`run_games` plays many, on ``jobs`` processes, identical for any
  ``jobs``; :func:`summarize` turns the records into the report;
* :func:`check_limits` / :func:`measure` check the content's playability
  limits; :func:`replay` and :func:`replay_record` replay and record golden games.
"""

from cardgen.simulation.invariants import FULL_CHECKS, CheckPolicy, InvariantChecker, apply_checked, check_state
from cardgen.simulation.limits import LimitCheck, check_limits, limit_errors, measure
from cardgen.simulation.runner import (
    GameRecord,
    PlayedGame,
    RunPlan,
    derive_seed,
    game_seed,
    play_checked,
    play_game,
    read_replay,
    replay,
    replay_record,
    run_games,
    write_replay,
)
from cardgen.simulation.statistics import RunInfo, summarize, turn_stats, wilson_interval

__all__ = [
    "FULL_CHECKS",
    "CheckPolicy",
    "GameRecord",
    "InvariantChecker",
    "LimitCheck",
    "PlayedGame",
    "RunInfo",
    "RunPlan",
    "apply_checked",
    "check_limits",
    "check_state",
    "derive_seed",
    "game_seed",
    "limit_errors",
    "measure",
    "play_checked",
    "play_game",
    "read_replay",
    "replay",
    "replay_record",
    "run_games",
    "summarize",
    "turn_stats",
    "wilson_interval",
    "write_replay",
]
