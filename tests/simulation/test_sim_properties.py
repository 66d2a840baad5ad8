"""Property tests: over random seeds, every invariant holds after every move,
with either bot and under each rule option; and games are deterministic even
when the global RNG is disturbed between moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.simulation import FULL_CHECKS, play_checked
from cardgen.simulation.runner import replay

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

CARD_FOOTBALL_OPTIONS = [{}, {"result": "extra-time"}, {"added-cards": "after-save"}, {"added-cards": "never"}]
HIMMEL_OPTIONS = [
    {},
    {"take-when": "only-when-stuck"},
    {"refill": "one-card"},
    {"target-to-heap": False, "specials-count": False},
    {"take-when": "only-when-stuck", "refill": "one-card"},
]


@FAST
@given(seed=SEEDS, bot=st.sampled_from(["random", "greedy"]), options=st.sampled_from(CARD_FOOTBALL_OPTIONS))
def test_card_football_invariants_hold(engines, seed, bot, options):
    engine = engines("card-football", **options)
    played = play_checked(engine, 2, seed, bot, FULL_CHECKS)
    assert played.state.is_over()
    assert set(played.state.events) <= set(engine.event_names)


@FAST
@given(seed=SEEDS, players=st.integers(3, 6), bot=st.sampled_from(["random", "greedy"]),
       options=st.sampled_from(HIMMEL_OPTIONS))
def test_himmel_invariants_hold(engines, seed, players, bot, options):
    engine = engines("himmel", **options)
    played = play_checked(engine, players, seed, bot, FULL_CHECKS)
    assert played.state.is_over()
    assert set(played.state.events) <= set(engine.event_names)


@pytest.mark.parametrize(("game", "players"), [("card-football", 2), ("himmel", 4)])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_disturbing_the_global_rng_changes_nothing(engines, game, players, bot):
    engine = engines(game)
    calm = play_checked(engine, players, 2024, bot)
    noise = random.Random(99)

    def disturb() -> None:
        random.seed(noise.random())
        random.random()

    disturbed = play_checked(engine, players, 2024, bot, between_moves=disturb)
    assert disturbed.moves == calm.moves
    assert disturbed.state.to_dict() == calm.state.to_dict()
    assert disturbed.state.log == calm.state.log


@pytest.mark.parametrize(("game", "players"), [("card-football", 2), ("himmel", 5)])
def test_seed_and_moves_replay_the_game(engines, game, players):
    engine = engines(game)
    played = play_checked(engine, players, 77, "greedy")
    again = replay(engine, players, 77, played.moves)
    assert again == played.state and again.outcome() == played.state.outcome()
