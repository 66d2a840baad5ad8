"""himmel: hand-built positions for the number play, the three specials, the
take and the end, and the named rule options.

Numbers are written as ints (``12`` is ``number-12``); specials as
``"R"``/``"S"``/``"T"`` (reverse, steal, raise target) with an optional copy
number (``"R2"``).  Cards a position does not place go out of play, so every
card stays in exactly one place and the invariant checker can run.
"""

from __future__ import annotations

import copy
from pathlib import Path
import random

import pytest

from cardgen.content import load_game
from cardgen.engines.himmel import HimmelEngine, HimmelState, greedy_bot, move_cost
from cardgen.errors import ContentError, SimulationError
from cardgen.simulation import check_state

CONTENT = Path(__file__).resolve().parents[2] / "content" / "himmel"
RAISE_KIND = "raise-target"
SPECIALS = {"R": "special-reverse", "S": "special-steal", "T": "special-raise-target"}


@pytest.fixture(scope="module")
def game():
    return load_game(CONTENT)


@pytest.fixture(scope="module")
def engine(game):
    return HimmelEngine(game)


def card(item: int | str) -> str:
    if isinstance(item, int):
        return f"number-{item}"
    return f"{SPECIALS[item[0]]}#{item[1:] or '1'}"


def cards(*items: int | str) -> list[str]:
    return [card(i) for i in items]


def position(
    engine: HimmelEngine,
    hands: list[list[int | str]],
    piles: tuple[list[int], list[int]] = ([], []),
    targets: tuple[list[int], list[int]] = ([50], [60]),
    deck: list[int | str] | None = None,
    marker: int = 0,
    to_move: int = 0,
) -> HimmelState:
    state = HimmelState(engine, len(hands), seed=5, deal=False)
    state.hands = [sorted(cards(*hand)) for hand in hands]
    state.piles = [cards(*pile) for pile in piles]
    state.target_stacks = [cards(*stack) for stack in targets]
    state.deck = cards(*(deck or []))
    state.marker, state.to_move = marker, to_move
    placed = {c for place in state.card_places().values() for c in place}
    state.out_of_play = [c for c in engine.deck_cards if c not in placed]
    return state



# -- the deal -------------------------------------------------------------------------------


def test_deal_gives_five_cards_each_and_two_number_targets(engine):
    for seed in range(30):
        state = engine.new_game(4, seed)
        assert [len(h) for h in state.hands] == [5] * 4
        assert all(len(stack) == 1 and stack[0] in engine.value_of for stack in state.target_stacks)
        assert len(state.deck) == 85 - 20 - 2
        assert state.marker == 0 and state.direction == 1 and state.current_player() == 0
        check_state(engine, state)


def test_special_turned_up_as_a_target_is_shuffled_back(engine):
    state = position(engine, [[1], [2], [3]], deck=[5, 6, "R"])
    assert state._starting_target() in cards(5, 6)
    assert card("R") in state.deck and len(state.deck) == 2
    assert state.events["special_target_reshuffles"] >= 1


def test_player_count_must_be_three_to_six(engine):
    with pytest.raises(SimulationError):
        engine.new_game(2, seed=1)
    with pytest.raises(SimulationError):
        engine.new_game(7, seed=1)


# -- playing numbers --------------------------------------------------------------------------


def test_number_must_lie_between_the_top_card_and_the_target(engine):
    state = position(engine, [[10, 30, 55, 59], [1], [2]], piles=([20], []), targets=([50], [60]), deck=[40])
    numbers = {(m[1], m[2]) for m in state.legal_moves() if m[0] == "number"}
    assert numbers == {
        (card(30), 0), (card(10), 1), (card(30), 1), (card(55), 1), (card(59), 1)
    }
    state.apply(("number", card(30), 0))
    assert state.piles[0] == cards(20, 30) and state.hands[0] == sorted(cards(10, 55, 59, 40))
    assert state.current_player() == 1
    check_state(engine, state)


def test_a_pile_without_a_target_has_no_upper_bound(engine):
    state = position(engine, [[70], [1], [2]], piles=([], [65]), targets=([50], []), deck=[40])
    assert ("number", card(70), 1) in state.legal_moves()
    assert ("number", card(70), 0) not in state.legal_moves()


# -- the specials -----------------------------------------------------------------------------


def test_reverse_turns_the_arrow_and_goes_to_the_own_heap(engine):
    state = position(engine, [["R", 1], [2], [3], [4]], deck=[40])
    state.apply(("reverse", card("R")))
    assert state.direction == -1 and state.current_player() == 3
    assert state.heaps[0] == cards("R") and state.dung_points(0) == 1
    assert state.hands[0] == sorted(cards(1, 40))


def test_only_one_copy_of_a_special_kind_is_offered(engine):
    state = position(engine, [["R", "R2"], [2], [3]], deck=[40])
    assert [m for m in state.legal_moves() if m[0] == "reverse"] == [("reverse", card("R"))]


def test_steal_takes_a_random_card_and_the_victim_draws_one(engine):
    state = position(engine, [["S"], [7, 8, 9], [3]], deck=[40, 41])
    assert {m[2] for m in state.legal_moves() if m[0] == "steal"} == {1, 2}
    state.apply(("steal", card("S"), 1))
    assert len(state.hands[1]) == 3 and card(41) in state.hands[1]  # the victim draws first
    stolen = [c for c in state.hands[0] if c != card(40)]  # then the thief refills
    assert len(stolen) == 1 and stolen[0] in cards(7, 8, 9) and card(40) in state.hands[0]
    assert state.heaps[0] == cards("S") and state.log[-1] == ("steal", 1)
    check_state(engine, state)


def test_steal_needs_a_victim_with_cards_and_an_empty_deck_gives_nothing(engine):
    state = position(engine, [["S"], [], [3]], deck=[])
    assert [m for m in state.legal_moves() if m[0] == "steal"] == [("steal", card("S"), 2)]
    state.apply(("steal", card("S"), 2))
    assert state.hands[2] == [] and state.hands[0] == cards(3)


def test_raise_target_puts_a_higher_number_on_the_target(engine):
    state = position(engine, [["T", 45, 66], [1], [2]], piles=([30], []), targets=([50], [60]), deck=[40, 41])
    raises = [m for m in state.legal_moves() if m[0] == "raise"]
    assert raises == [("raise", card("T"), 0, card(66)), ("raise", card("T"), 1, card(66))]
    state.apply(("raise", card("T"), 0, card(66)))
    assert state.target_stacks[0] == cards(50, 66) and state.heaps[0] == cards("T")
    assert state.hands[0] == sorted(cards(45, 40, 41))
    check_state(engine, state)


def test_raise_target_is_not_playable_without_a_higher_number(engine):
    state = position(engine, [["T", 45], [1], [2]], targets=([50], [60]), deck=[40])
    assert not [m for m in state.legal_moves() if m[0] == "raise"]


# -- the take -------------------------------------------------------------------------------


def test_take_moves_pile_and_target_to_the_heap_and_sets_a_new_target(engine):
    state = position(engine, [[10, 66], [1], [2]], piles=([20, 30], [61]), targets=([50], [60]), deck=[40, 41])
    state.apply(("take", card(66)))
    assert sorted(state.heaps[0]) == sorted(cards(20, 30, 50)) and state.dung_points(0) == 3
    assert state.piles[0] == [] and state.target_stacks[0] == cards(66)
    assert state.marker == 1 and state.hands[0] == sorted(cards(10, 40, 41))
    assert state.events["stuck_takes"] == 1  # neither 10 nor 66 fits anywhere
    check_state(engine, state)


def test_raised_targets_go_to_the_heap_with_the_pile(engine):
    state = position(engine, [[10], [1], [2]], piles=([20], []), targets=([50, 66], [60]), deck=[40])
    state.apply(("take", card(10)))
    assert sorted(state.heaps[0]) == sorted(cards(20, 50, 66))


def test_take_without_a_number_in_hand_turns_up_the_deck(engine):
    state = position(engine, [["R"], [1], [2]], deck=[40, 41, "S"])
    assert ("take", "") in state.legal_moves()
    state.apply(("take", ""))
    # S is turned up first and goes under the deck, then 41 becomes the target
    assert state.target_stacks[0] == cards(41) and state.deck == []
    assert state.hands[0] == sorted(cards("R", "S", 40))
    assert state.events["targets_from_deck"] == 1


def test_take_with_only_specials_left_in_the_deck_leaves_no_bound(engine):
    state = position(engine, [["R"], [1], [2]], deck=["S", "T"])
    state.apply(("take", ""))
    assert state.target_stacks[0] == [] and state.events["unbounded_targets"] == 1


def test_empty_hand_may_only_take(engine):
    state = position(engine, [[], [1], [2]], deck=[40])
    assert state.legal_moves() == [("take", "")]


def test_take_with_an_empty_deck_ends_the_game(engine):
    state = position(engine, [[10], [1, 2], [3]], piles=([20, 30], []), deck=[])
    assert ("take", "") in state.legal_moves() and ("take", card(10)) not in state.legal_moves()
    state.apply(("take", ""))
    assert state.is_over() and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome.scores == (3.0, 0.0, 0.0) and outcome.winners == (1, 2)  # a shared win
    assert outcome.ranking == (1, 2, 0)
    check_state(engine, state)


def test_greedy_plays_the_closest_number_rather_than_take(engine):
    state = position(engine, [[21, 45], [1], [2]], piles=([20], [59]), targets=([50], [60]), deck=[40])
    assert greedy_bot(state, None) == ("number", card(21), 0)


# -- rule options -----------------------------------------------------------------------------


def test_option_take_only_when_stuck(game):
    engine = HimmelEngine(game, {"take-when": "only-when-stuck"})
    state = position(engine, [[10, 20], [1], [2]], deck=[40])
    assert not [m for m in state.legal_moves() if m[0] == "take"]
    stuck = position(engine, [[55, 66], [1], [2]], targets=([50], [60]), piles=([], [61]), deck=[40])
    assert {m[0] for m in stuck.legal_moves()} == {"take"}
    stuck.apply(("take", card(66)))
    assert stuck.events["stuck_takes"] == 1


def test_option_refill_one_card(game):
    engine = HimmelEngine(game, {"refill": "one-card"})
    state = position(engine, [[10, 20], [1], [2]], deck=[40, 41, 42])
    state.apply(("number", card(10), 0))
    assert state.hands[0] == sorted(cards(20, 42))


def test_option_target_stays_out_of_the_heap(game):
    engine = HimmelEngine(game, {"target-to-heap": "false"})
    state = position(engine, [[10], [1], [2]], piles=([20], []), targets=([50], [60]), deck=[40])
    state.apply(("take", card(10)))
    assert state.heaps[0] == cards(20) and card(50) in state.out_of_play
    check_state(engine, state)


def test_option_specials_do_not_count(game):
    engine = HimmelEngine(game, {"specials-count": False})
    state = position(engine, [["R", 1], [2], [3]], deck=[40])
    state.apply(("reverse", card("R")))
    assert state.heaps[0] == cards("R") and state.dung_points(0) == 0


def test_marker_starts_on_the_first_target_drawn_and_is_no_option(game, engine):
    """Clarification marker-start: the targets are laid left to right as drawn, so
    "first drawn" and "left" are one pile; an option that changed nothing is gone."""
    state = position(engine, [[1], [2], [3]], targets=([], []), deck=[30, 20])
    state.target_stacks = [[], []]
    state.target_stacks[0].append(state._starting_target())
    state.target_stacks[1].append(state._starting_target())
    assert state.target_stacks == [cards(20), cards(30)]  # pile 0 (left) holds the first drawn
    assert engine.new_game(3, seed=9).marker == 0
    with pytest.raises(ContentError, match="unknown rule option 'marker-start'"):
        HimmelEngine(game, {"marker-start": "left"})
    assert "marker-start" not in {option.id for option in game.meta.rule_options}


def test_option_refill_one_card_never_grows_the_hand_after_a_steal(game):
    """Clarification refill: one card, never above the hand size; the thief of a full hand draws nothing."""
    engine = HimmelEngine(game, {"refill": "one-card"})
    state = position(engine, [["S", 10, 11, 12, 13], [7, 8, 9], [3]], deck=[40, 41])
    state.apply(("steal", card("S"), 1))
    assert len(state.hands[0]) == 5 and card(40) in state.deck  # the thief drew nothing
    assert len(state.hands[1]) == 3 and card(41) in state.hands[1]
    check_state(engine, state)
    for seed in range(40):  # and no hand ever holds more than five in whole games
        state = engine.new_game(3 + seed % 4, seed)
        while not state.is_over():
            moves = state.legal_moves()
            steals = [m for m in moves if m[0] == "steal"]
            state.apply(steals[0] if steals else moves[seed % len(moves)])
            assert max(len(hand) for hand in state.hands) <= engine.hand_size


def test_marker_text_holds_under_both_take_when_choices(game):
    """Under take-when: only-when-stuck nobody "decides" to take: the marker's text
    and the cards section must not say so, in any language."""
    for language, words in {"ru": ("решивш", "не хочет"), "en": ("will not", "decides"),
                            "de": ("will", "entscheid")}.items():
        for key in ("card.marker.rule", "rules.cards.token"):
            text = game.text(key, language)
            assert text and not any(word in text for word in words), (language, key, text)
    for language, word in {"ru": "Только если", "en": "Only if", "de": "Nur wenn"}.items():
        assert game.text("rules.setup.3", language).count(word) == 1


def test_clone_is_equal_and_independent(engine):
    state = engine.new_game(5, seed=2)
    copy = state.clone()
    assert copy == state
    copy.apply(copy.legal_moves()[0])
    assert copy != state and state.turn == 0


def rules_moves(engine: HimmelEngine, state: HimmelState) -> list[tuple]:
    """The legal moves as the rules spell them out, pile by pile, in sorted order."""
    player, hand = state.current_player(), state.hands[state.current_player()]
    numbers = [c for c in hand if c in engine.value_of]
    expected = sorted(
        ("number", c, pile) for c in numbers for pile in range(engine.targets) if state.fits(pile, engine.value_of[c])
    )
    firsts: dict[str, str] = {}
    for c in hand:
        if c in engine.special_of:
            firsts.setdefault(engine.special_of[c], c)
    if RAISE_KIND in firsts:
        expected += [("raise", firsts[RAISE_KIND], pile, c) for pile, stack in enumerate(state.target_stacks)
                     if stack for c in numbers if engine.value_of[c] > engine.value_of[stack[-1]]]
    if "reverse" in firsts:
        expected.append(("reverse", firsts["reverse"]))
    if "steal" in firsts:
        expected += [("steal", firsts["steal"], v) for v, h in enumerate(state.hands) if h and v != player]
    if not expected or engine.take_any_time:
        expected += [("take", c) for c in numbers] if numbers and state.deck else [("take", "")]
    return expected


@pytest.mark.parametrize("targets", [2, 3])
def test_legal_moves_match_the_rules_spelled_out_on_every_move(game, targets):
    """The move generator's two-pile fast path (the content's two targets) and
    its path for any count of piles give what the rules say, in sorted order,
    at every position of seeded games (hands with and without specials, stuck
    and end positions)."""
    piles_game = copy.copy(game)  # the content with ``targets`` piles
    piles_game.meta = game.meta.model_copy(update={"settings": {**game.meta.settings, "targets": targets}})
    engine = HimmelEngine(piles_game)
    seen_specials = seen_stuck = 0
    for seed in range(25):
        state = engine.new_game(3 + seed % 4, seed)
        assert len(state.piles) == targets
        while not state.is_over():
            expected = rules_moves(engine, state)
            legal = state.legal_moves()
            assert legal == expected == sorted(expected), (seed, state.turn)
            plays, takes, first_of_kind = state._number_plays(state.hands[state.current_player()])
            assert plays == [m for m in legal if m[0] == "number"]
            assert takes == [engine.take_moves[c] for c in state.hands[state.current_player()] if c in engine.value_of]
            seen_specials += bool(first_of_kind)
            seen_stuck += legal[0][0] == "take"
            state.apply(legal[(seed + state.turn) % len(legal)])
    assert seen_specials > 100 and seen_stuck > 10  # both kinds of position were met


def test_greedy_picks_the_first_cheapest_move_by_move_cost(engine):
    """The greedy bot's inline costs of numbers and takes are move_cost's: at
    every position of seeded games it picks the first move of least move_cost."""
    takes_seen = 0
    for seed in range(20):
        state = engine.new_game(3 + seed % 4, seed)
        while not state.is_over():
            legal = state.legal_moves()
            costs = [move_cost(state, move) for move in legal]
            assert greedy_bot(state, random.Random(0)) == legal[costs.index(min(costs))], (seed, state.turn)
            takes_seen += any(move[0] == "take" for move in legal)
            state.apply(legal[(seed + state.turn) % len(legal)])
    assert takes_seen > 100
