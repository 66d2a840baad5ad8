"""The invariant checker catches each kind of broken state, naming seed and move."""

from __future__ import annotations

import pytest

from cardgen.errors import InvariantViolation
from cardgen.simulation import FULL_CHECKS, CheckPolicy, InvariantChecker


def started(engines, game="card-football", players=2, seed=4):
    engine = engines(game)
    return engine, engine.new_game(players, seed)


def test_a_fresh_game_passes(engines):
    engine, state = started(engines)
    InvariantChecker(engine, 2, 4, FULL_CHECKS).check(state, 0)


def test_a_card_in_two_places_is_caught_with_seed_and_move(engines):
    engine, state = started(engines)
    state.removed.append(state.columns[0][-1])
    with pytest.raises(InvariantViolation) as caught:
        InvariantChecker(engine, 2, 4).check(state, 17)
    error = caught.value
    assert error.seed == 4 and error.move_number == 17 and error.game == "card-football"
    assert "in two places" in str(error) and "seed 4" in str(error) and "move 17" in str(error)


def test_a_lost_card_is_caught(engines):
    engine, state = started(engines, "himmel", 3)
    lost = state.deck.pop()
    with pytest.raises(InvariantViolation, match=f"missing: {lost}"):
        InvariantChecker(engine, 3, 4).check(state, 1)


def test_a_swapped_card_keeps_the_count_but_is_caught(engines):
    engine, state = started(engines)
    state.columns[0][-1] = "not-a-card"
    with pytest.raises(InvariantViolation, match="unknown: not-a-card"):
        InvariantChecker(engine, 2, 4).check(state, 1)


def test_no_legal_move_while_running_is_caught(engines):
    engine, state = started(engines)
    state._legal = []
    with pytest.raises(InvariantViolation, match="no legal move"):
        InvariantChecker(engine, 2, 4).check(state, 3)


def test_legal_moves_after_the_end_are_caught(engines):
    engine, state = started(engines)
    state.over, state._legal = True, [0]
    with pytest.raises(InvariantViolation, match="over but 1 legal"):
        InvariantChecker(engine, 2, 4, CheckPolicy(0)).check(state, 3)


def test_unsorted_legal_moves_are_caught(engines):
    engine, state = started(engines)
    state._legal = [3, 1]
    with pytest.raises(InvariantViolation, match="sorted"):
        InvariantChecker(engine, 2, 4).check(state, 3)


def test_the_length_bound_is_enforced(engines):
    engine, state = started(engines)
    state.turn = engine.move_bound(2) + 1
    with pytest.raises(InvariantViolation, match="declared bound"):
        InvariantChecker(engine, 2, 4).check(state, state.turn)


def test_a_clone_sharing_lists_with_the_original_is_caught(engines, monkeypatch):
    engine, state = started(engines, "himmel", 3)
    original_clone = type(state).clone

    def shallow_clone(self):
        other = original_clone(self)
        other.hands = self.hands  # the bug: the clone shares the hands
        other.deck = self.deck
        return other

    monkeypatch.setattr(type(state), "clone", shallow_clone)
    with pytest.raises(InvariantViolation, match="clone changed the original"):
        InvariantChecker(engine, 3, 4, FULL_CHECKS).check(state, 1)


def test_the_clone_check_runs_on_its_schedule():
    policy = CheckPolicy(clone_every=25)
    assert [n for n in range(60) if policy.clone_due(n, over=False)] == [0, 1, 25, 50]
    assert policy.clone_due(37, over=True)
    assert not CheckPolicy(clone_every=0).clone_due(1, over=True)
