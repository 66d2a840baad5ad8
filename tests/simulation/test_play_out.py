"""``GameState.play_out``, the sweep's unchecked game loop, plays the games the plain loop plays.

card-football and himmel override it with a faster loop for their own bots;
over the configurations of ``test_game_records.py`` (every option set,
player count and both bots) each game must end in the state, outcome and
event counts that ``apply(choose(state, rng))`` reaches, after as many moves.
"""

from __future__ import annotations

import random

import pytest

from cardgen.engines.base import GameState
from cardgen.errors import SimulationError
from cardgen.simulation.runner import derive_seed
from test_game_records import BOTS, CONFIGS, config_name

SEEDS = range(60)


def ending(state: GameState, moves: int) -> tuple:
    outcome = state.outcome()
    return (moves, state.snapshot(), outcome, sorted(state.events.items()), state.rng.getstate())


def plain_ending(engine, players: int, bot: str, seed: int) -> tuple:
    choose = engine.bots()[bot]
    state = engine.new_game(players, seed)
    rng = random.Random(derive_seed(seed, "bot"))
    moves = 0
    while not state.is_over():
        state.apply(choose(state, rng))
        moves += 1
    return ending(state, moves)


def play_out_ending(engine, players: int, bot: str, seed: int) -> tuple:
    state = engine.new_game(players, seed)
    moves = state.play_out(engine.bots()[bot], random.Random(derive_seed(seed, "bot")), engine.move_bound(players))
    return ending(state, moves)


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: config_name(*c, "").strip())
def test_play_out_plays_the_plain_loops_games(engines, config, bot):
    game, options, players = config
    engine = engines(game, **options)
    assert type(engine.new_game(players, 0)).play_out is not GameState.play_out  # the fast loop is what runs
    for seed in SEEDS:
        assert play_out_ending(engine, players, bot, seed) == plain_ending(engine, players, bot, seed), seed


@pytest.mark.parametrize("game,players", [("card-football", 2), ("himmel", 4)])
@pytest.mark.parametrize("bot", BOTS)
def test_play_out_stops_at_the_bound(engines, game, players, bot):
    engine = engines(game)
    state = engine.new_game(players, 3)
    with pytest.raises(SimulationError, match="game still running after 10 moves"):
        state.play_out(engine.bots()[bot], random.Random(1), 10)
    assert state.turn == 10 and not state.is_over()


def test_another_bot_goes_through_the_plain_loop(engines):
    """A bot the engine does not know is called on every move, as in the plain loop."""
    engine = engines("card-football")
    calls = []

    def last_column(state, rng):
        calls.append(state.turn)
        return state.legal_moves()[-1]

    state = engine.new_game(2, 5)
    moves = state.play_out(last_column, random.Random(0), engine.move_bound(2))
    assert state.is_over() and moves == state.turn == len(calls) and calls == list(range(moves))
