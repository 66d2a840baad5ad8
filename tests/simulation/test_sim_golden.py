"""Golden replays: (seed, moves) must reach the recorded final state exactly.

The files live in ``tests/golden/``.  After a deliberate rule change, rewrite
them with ``CARDGEN_UPDATE_GOLDEN=1 pytest tests/simulation/test_sim_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgen.simulation import play_checked
from cardgen.simulation.runner import read_replay, replay, replay_record, write_replay

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

#: file stem -> (game, players, seed, bot, options)
CASES = {
    "card-football-seed1-random": ("card-football", 2, 1, "random", {}),
    "card-football-seed10-greedy-extra-time": ("card-football", 2, 10, "greedy", {"result": "extra-time"}),
    "card-football-seed3-greedy-after-save": ("card-football", 2, 3, "greedy", {"added-cards": "after-save"}),
    "himmel-4p-seed3-greedy": ("himmel", 4, 3, "greedy", {}),
    "himmel-6p-seed4-random-stuck-one-card": (
        "himmel", 6, 4, "random", {"take-when": "only-when-stuck", "refill": "one-card"}
    ),
    "himmel-3p-seed5-random-no-target-no-specials": (
        "himmel", 3, 5, "random", {"target-to-heap": False, "specials-count": False}
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_replay(engines, name):
    game, players, seed, bot, options = CASES[name]
    engine = engines(game, **options)
    path = GOLDEN / f"{name}.json"
    if os.environ.get("CARDGEN_UPDATE_GOLDEN") or not path.exists():
        played = play_checked(engine, players, seed, bot)
        write_replay(path, replay_record(engine, players, seed, played.moves))
    golden = read_replay(path)
    assert (golden["game"], golden["players"], golden["seed"]) == (game, players, seed)
    assert golden["options"] == {k: engine.options[k] for k in sorted(engine.options)}
    state = replay(engine, players, seed, golden["moves"])
    assert state.to_dict() == golden["final"]
    assert state.is_over() and golden["outcome"]["winners"] == list(state.outcome().winners)
