"""Same seed, same games: a digest of every game's record, per engine, options, players and bot.

The engines' hot paths are tuned for throughput (issue 13); a change of speed
must not change a game.  For seeds 0..199 of each configuration below the
test plays the bare engine with the bot as ``cardgen simulate`` seeds it, and
hashes every game's moves, final state, outcome and event counts.  The digests
in ``tests/data/game_records.json`` were taken from the engines as they stood
after the issue 14 rule changes, before any speed work.  After a deliberate
rule change, rewrite them with ``CARDGEN_UPDATE_RECORDS=1 pytest
tests/simulation/test_game_records.py`` and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from cardgen.simulation.runner import derive_seed

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "game_records.json"
SEEDS = range(200)

_HIMMEL_OPTIONS = [
    {}, {"take-when": "only-when-stuck"}, {"refill": "one-card"},
    {"target-to-heap": False, "specials-count": False},
    {"take-when": "only-when-stuck", "refill": "one-card"},
]
#: (game, options, players)
CONFIGS = [
    *(("card-football", options, 2) for options in
      [{}, {"result": "extra-time"}, {"added-cards": "after-save"}, {"added-cards": "never"}]),
    *(("himmel", options, players) for options in _HIMMEL_OPTIONS for players in (3, 4, 6)),
]
BOTS = ("random", "greedy")


def config_name(game: str, options: dict, players: int, bot: str) -> str:
    shown = ",".join(f"{name}={value}" for name, value in sorted(options.items())) or "defaults"
    return f"{game} {players}p {shown} {bot}"


def records_digest(engine, players: int, bot: str) -> str:
    choose = engine.bots()[bot]
    digest = hashlib.sha256()
    for seed in SEEDS:
        state = engine.new_game(players, seed)
        rng = random.Random(derive_seed(seed, "bot"))
        moves = []
        while not state.is_over():
            move = choose(state, rng)
            state.apply(move)
            moves.append(move)
        outcome = state.outcome()
        record = (seed, moves, state.snapshot(), tuple(outcome.winners), tuple(outcome.scores),
                  outcome.draw, outcome.reason, sorted(state.events.items()))
        digest.update(repr(record).encode())
    return digest.hexdigest()


def all_digests(engines) -> dict[str, str]:
    return {
        config_name(game, options, players, bot): records_digest(engines(game, **options), players, bot)
        for game, options, players in CONFIGS
        for bot in BOTS
    }


def test_every_configuration_plays_the_recorded_games(engines):
    digests = all_digests(engines)
    if os.environ.get("CARDGEN_UPDATE_RECORDS") or not FIXTURE.exists():
        FIXTURE.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    changed = sorted(name for name in recorded if digests.get(name) != recorded[name])
    assert set(digests) == set(recorded) and not changed, changed


@pytest.mark.parametrize("game", ["card-football", "himmel"])
def test_the_digest_sees_a_changed_game(engines, game):
    """The digest is not blind: a game with one move changed hashes differently."""
    engine = engines(game)
    players = 2 if game == "card-football" else 4
    base = records_digest(engine, players, "random")
    first = engine.bots()["random"]
    calls = []

    def nudged(state, rng):
        calls.append(1)
        moves = state.legal_moves()
        move = first(state, rng)
        return moves[-1] if len(calls) == 5 and len(moves) > 1 and move != moves[-1] else move

    original = engine.bots
    engine.bots = lambda: {**original(), "random": nudged}
    try:
        assert records_digest(engine, players, "random") != base
    finally:
        del engine.bots
