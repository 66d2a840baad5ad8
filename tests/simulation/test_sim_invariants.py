"""The invariant checker catches each kind of broken state, naming seed and move."""

from __future__ import annotations

import random

import pytest

from cardgen.engines.base import GameState as GameStateDefaults
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


def test_a_clone_sharing_the_rng_is_caught(engines, monkeypatch):
    engine, state = started(engines)
    original_clone = type(state).clone

    def clone_sharing_rng(self):
        other = original_clone(self)
        other.rng = self.rng  # the bug: a move on the clone would draw from the original's RNG
        return other

    monkeypatch.setattr(type(state), "clone", clone_sharing_rng)
    with pytest.raises(InvariantViolation, match="shares the original's RNG"):
        InvariantChecker(engine, 2, 4, FULL_CHECKS).check(state, 1)


@pytest.mark.parametrize(("game", "players"), [("card-football", 2), ("himmel", 4)])
def test_fast_paths_agree_with_the_contract_methods(engines, game, players):
    """card_lists() and snapshot() are the engines' fast forms of card_places()
    and to_dict(): same lists in the same order, and snapshots equal exactly
    when the dicts are, independent of the state."""
    from cardgen.engines.base import GameState

    engine = engines(game)
    state = engine.new_game(players, 11)
    rng = random.Random(5)
    while not state.is_over():
        lists = state.card_lists()
        assert [list(cards) for cards in lists] == list(state.card_places().values())
        assert lists == GameState.card_lists(state)  # the base default gives the same
        before, before_dict = state.snapshot(), state.to_dict()
        copy = state.clone()
        assert copy.snapshot() == before and copy == state
        state.apply(rng.choice(state.legal_moves()))
        assert (state.snapshot() == before) == (state.to_dict() == before_dict)
        assert copy.snapshot() == before  # the snapshot and the clone kept the old state
    assert GameState.snapshot(state) == state.to_dict()



@pytest.mark.parametrize(
    ("game", "players", "moves"), [("card-football", 2, 60), ("himmel", 4, 20), ("head-game", 3, 12), ("klepka", 2, 12)]
)
def test_a_clone_copies_every_field_and_shares_no_container(engines, game, players, moves):
    """Engines clone field by field (for speed): a field left out of clone()
    would keep its __init__ default, and a container copied shallowly would be
    shared.  Private fields are caches a clone may start without."""
    engine = engines(game)
    state = engine.new_game(players, 8)
    rng = random.Random(2)
    for _ in range(moves):  # far enough that fields have left their starting values
        state.apply(rng.choice(state.legal_moves()))
    assert not state.is_over()
    copy = state.clone()
    fields, copied = vars(state), vars(copy)
    public = {name for name in fields if not name.startswith("_")}
    assert public == {name for name in copied if not name.startswith("_")}
    assert copy.engine is state.engine
    assert copy.rng is not state.rng and copy.rng.getstate() == state.rng.getstate()
    for name in sorted(public - {"engine", "rng"}):
        assert copied[name] == fields[name], name
        assert not _shared_containers(copied[name], fields[name]), f"{name} is shared with the original"


def _shared_containers(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are, or hold at the same place, one mutable container."""
    if isinstance(a, (list, dict, set)):
        if a is b:
            return True
        if isinstance(a, dict):
            return any(_shared_containers(a[key], b[key]) for key in a)  # type: ignore[index]
        if isinstance(a, list):
            return any(_shared_containers(x, y) for x, y in zip(a, b))  # type: ignore[call-overload]
    return False

def test_copy_rng_is_equal_and_independent():
    from cardgen.engines.base import copy_rng

    original = random.Random(2024)
    original.random()
    copy = copy_rng(original)
    assert copy is not original and copy.getstate() == original.getstate()
    assert [copy.random() for _ in range(5)] == [original.random() for _ in range(5)]
    copy.random()
    assert copy.getstate() != original.getstate()



def test_event_random_copies_draw_alike_and_events_differ():
    from cardgen.engines.base import EventRandom, copy_rng

    original = EventRandom(2024)
    original.shuffle(list(range(10)))
    copy = copy_rng(original)
    assert isinstance(copy, EventRandom) and copy is not original
    assert copy.getstate() == original.getstate() == (2024, 1)
    decks = [list(range(52)) for _ in range(2)]
    copy.shuffle(decks[0])
    original.shuffle(decks[1])
    assert decks[0] == decks[1] != list(range(52))
    copy.randrange(10)
    assert copy.getstate() != original.getstate()  # the copy drew alone
    # successive events of one game, and the same event of two games, differ
    first, second, other_game = list(range(52)), list(range(52)), list(range(52))
    rng = EventRandom(7)
    rng.shuffle(first)
    rng.shuffle(second)
    EventRandom(8).shuffle(other_game)
    assert first != second and first != other_game

def test_the_default_fast_paths_serve_engines_without_them(engines):
    """An engine that implements only the contract methods (as head-game and
    klepka may) is checked through the base defaults."""
    from cardgen.engines.card_football import CardFootballState

    class PlainState(CardFootballState):
        card_lists = GameStateDefaults.card_lists
        snapshot = GameStateDefaults.snapshot
        clone = GameStateDefaults.clone

        def card_places(self):
            lists = [*self.columns, *self.actives[0], *self.actives[1]]
            lists += (self.reserve, self.removed, self.save_pile, self.save_used)
            return dict(zip(self.engine.place_names, lists))

    engine = engines("card-football")
    state = PlainState(engine, seed=4)
    checker = InvariantChecker(engine, 2, 4, FULL_CHECKS)
    checker.check(state, 0)
    state.removed.append(state.columns[0][-1])
    with pytest.raises(InvariantViolation, match="in two places"):
        checker.check(state, 1)
