"""card-football: a hand-built position for every rule and every priority case.

Cards are written short: ``"7S"`` is the first copy of the seven of spades,
``"7S2"`` the second; ranks 6-10, J, Q, K, A; suits S, H, D, C.  Save cards
are ``"s2S"`` (two of spades) and ``"JOKER"``.  Cards a position does not
place go to the removed pile (main) or the used save cards, so every card
stays in exactly one place and the invariant checker can run on the result.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.content import load_game
from cardgen.engines.card_football import Case, CardFootballEngine, CardFootballState
from cardgen.errors import SimulationError
from cardgen.simulation import check_state

CONTENT = Path(__file__).resolve().parents[2] / "content" / "card-football"
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}


@pytest.fixture(scope="module")
def game():
    return load_game(CONTENT)


@pytest.fixture(scope="module")
def engine(game):
    return CardFootballEngine(game)


def card(short: str) -> str:
    if short == "JOKER":
        return "save-joker-red"
    if short == "JOKER2":
        return "save-joker-black"
    if short.startswith("s"):
        return f"save-{short[1]}-{SUITS[short[2]]}"
    copy = "2" if short[-1] == "2" and len(short) > 2 and short[-2] in SUITS else "1"
    body = short[:-1] if copy == "2" else short
    rank, suit = body[:-1], body[-1]
    return f"main-{RANKS.get(rank, rank)}-{SUITS[suit]}#{copy}"


def cards(*shorts: str) -> list[str]:
    return [card(s) for s in shorts]


def position(
    engine: CardFootballEngine,
    columns: list[list[str]],
    actives: dict[tuple[int, str], list[str]] | None = None,
    save: list[str] | None = None,
    reserve: list[str] | None = None,
    penalty: dict[tuple[int, str], int] | None = None,
    to_move: int = 0,
    period: int = 0,
    score: tuple[int, int] = (0, 0),
) -> CardFootballState:
    """A state with the given columns (bottom to top), actives, save pile (top last)."""
    state = CardFootballState(engine, seed=7, deal=False)
    state.columns = [cards(*column) for column in columns] + [[] for _ in range(5 - len(columns))]
    for (player, suit), shorts in (actives or {}).items():
        state.actives[player][SUIT_INDEX[suit]] = cards(*shorts)
    for (player, suit), count in (penalty or {}).items():
        state.penalty_cards[player][SUIT_INDEX[suit]] = count
    state.reserve = cards(*(reserve or []))
    state.to_move, state.period, state.score = to_move, period, list(score)
    placed = {c for place in state.card_places().values() for c in place}
    state.removed = [c for c in engine.main_cards if c not in placed]
    state.save_pile = cards(*(save or ["s2H", "s3H", "s4H"]))
    state.save_used = [c for c in engine.save_cards if c not in state.save_pile]
    return state



def active(state, player: int, suit: str) -> list[str]:
    return state.actives[player][SUIT_INDEX[suit]]


# -- the deal, the columns and the turns ---------------------------------------------------


def test_deal_lays_five_columns_of_nine_from_the_content_deck(engine):
    state = engine.new_game(2, seed=3)
    assert [len(c) for c in state.columns] == [9] * 5
    assert len(state.reserve) == 72 - 45 and len(state.save_pile) == 18
    assert sorted(sum(state.columns, []) + state.reserve) == sorted(engine.main_cards)
    assert state.current_player() == 0 and state.legal_moves() == [0, 1, 2, 3, 4]
    assert ("shuffle", "save pile") in state.log
    check_state(engine, state)


def test_top_three_cards_are_face_up_and_short_columns_wholly(engine):
    state = position(engine, [["6S", "7S", "8S", "9S", "10S"], ["6H", "7H"]])
    assert state.face_up(0) == cards("8S", "9S", "10S")
    assert state.face_up(1) == cards("6H", "7H")
    state.apply(0)
    assert state.face_up(0) == cards("7S", "8S", "9S")  # the next card turned over


def test_engine_rejects_an_illegal_move_and_a_wrong_player_count(engine):
    state = position(engine, [["6S"], []])
    with pytest.raises(SimulationError):
        state.apply(1)
    with pytest.raises(SimulationError):
        engine.new_game(3, seed=1)


def test_plain_take_goes_to_the_suit_column_and_passes_the_turn(engine):
    state = position(engine, [["6S", "7H"], ["8D"]])
    take = state.classify(0, card("7H"))
    assert take.case is Case.PLAIN
    state.apply(0)
    assert active(state, 0, "H") == cards("7H")
    assert state.current_player() == 1
    check_state(engine, state)


def test_last_column_taken_is_unavailable_next_turn(engine):
    state = position(engine, [["6S", "7S"], ["6H", "7H"], ["6D", "7D"]])
    state.apply(0)  # player 0 from column 1
    state.apply(0)  # player 1 from column 1 too (their own last column is free)
    assert state.unavailable_columns() == {0}
    assert state.legal_moves() == [1, 2]


def test_columns_taken_during_extra_moves_all_become_unavailable(engine):
    state = position(
        engine, [["6H", "7H"], ["6D", "10S"], ["8C", "9C"], ["6C", "7C"]],
        actives={(0, "H"): ["6H2"]},  # 7H on 6H is an attack: 3 extra moves
    )
    state.apply(0)
    assert state.current_player() == 0 and state.extra_moves == 2
    state.apply(1)
    assert state.legal_moves() == [2, 3]
    state.apply(2)
    assert state.legal_moves() == [3]


def test_escape_when_every_column_is_unavailable_or_empty(engine):
    state = position(engine, [["6H", "7H"], ["6D", "10S"]], actives={(0, "H"): ["6H2"]})
    state.apply(0)  # attack: 3 extra moves
    state.apply(1)
    assert state.unavailable_columns() == {0, 1}
    assert state.legal_moves() == [0, 1]  # every column unavailable: any non-empty one
    state.apply(0)
    assert state.events["escapes"] == 1


def test_extra_moves_add_up(engine):
    state = position(
        engine, [["6H", "7H"], ["8S", "9S"], ["6C"]],
        actives={(0, "H"): ["6H2"], (0, "S"): ["8S2"]},
    )
    state.apply(0)  # attack: 3 extra moves, one used by the next take
    state.apply(1)  # 9S on 8S: another attack
    assert state.extra_moves == 2 + 3 - 1  # two left, three more, one used by the next take


# -- the priority list ---------------------------------------------------------------------


def test_1_card_of_a_sent_off_suit_is_removed_at_once(engine):
    # 7S would also make a long shot: step 1 comes first.
    state = position(
        engine, [["7S"], ["6D"]], penalty={(0, "S"): 4},
        actives={(0, "H"): ["7H"], (0, "D"): ["7D"], (0, "C"): ["7C"]},
    )
    assert state.classify(0, card("7S")).case is Case.SENT_OFF_SUIT
    state.apply(0)
    assert active(state, 0, "S") == [] and card("7S") in state.removed
    assert state.score == [0, 0] and state.events["sent_off_suit_takes"] == 1
    check_state(engine, state)


def test_2_long_shot_needs_four_ranks_anywhere_in_the_active(engine):
    state = position(
        engine, [["7S"], ["6D"]],
        actives={(0, "H"): ["7H", "9H"], (0, "D"): ["8D", "7D", "10D"], (0, "C"): ["7C"],
                 (1, "S"): ["7S2"]},  # step 4 would cancel the take: the long shot wins
        reserve=["6C", "8C"],
    )
    assert state.classify(0, card("7S")).case is Case.LONG_SHOT
    state.apply(0)
    assert state.score == [1, 0] and state.events["goals_long_shot"] == 1
    assert active(state, 0, "H") == cards("9H") and active(state, 0, "D") == cards("8D", "10D")
    assert active(state, 0, "C") == [] and active(state, 0, "S") == []
    assert active(state, 1, "S") == cards("7S2")
    assert state.columns[0] == cards("8C")  # a goal adds a card to the first column's bottom
    assert state.current_player() == 1
    check_state(engine, state)


def test_3_opponent_cards_of_the_same_rank_are_removed_and_the_scan_goes_on(engine):
    state = position(
        engine, [["7H"], ["6D"]],
        actives={(0, "H"): ["6H"], (1, "S"): ["7S", "9S"], (1, "C"): ["7C"], (1, "D"): ["8D"]},
    )
    take = state.classify(0, card("7H"))
    assert take.case is Case.ATTACK and take.removes == 2
    state.apply(0)
    assert active(state, 1, "S") == cards("9S") and active(state, 1, "C") == []
    assert active(state, 1, "D") == cards("8D")
    assert state.extra_moves == 2 and state.current_player() == 0  # the attack still counts
    check_state(engine, state)


def test_4_same_rank_and_suit_at_the_opponent_removes_the_taken_card(engine):
    state = position(
        engine, [["7S"], ["6D"]],
        actives={(0, "S"): ["6S"], (1, "S"): ["7S2"], (1, "H"): ["7H", "10H"]},
    )
    take = state.classify(0, card("7S"))
    assert take.case is Case.SAME_CARD and take.removes == 1  # also beats the attack 7 on 6
    state.apply(0)
    assert active(state, 0, "S") == cards("6S") and card("7S") in state.removed
    assert active(state, 1, "S") == cards("7S2")  # the opponent keeps their card
    assert active(state, 1, "H") == cards("10H")  # but loses the other sevens
    assert state.current_player() == 1
    check_state(engine, state)


def test_5_shot_not_saved_is_a_goal_and_the_column_goes(engine):
    state = position(
        engine, [["QS"], ["6D"]],
        actives={(0, "S"): ["6S", "8S", "10S"]},
        save=["s5S", "s2H", "s3D"],  # top is the end: 3D, then 2H - no spade, no joker
        reserve=["9C"],
    )
    assert state.classify(0, card("QS")).case is Case.SHOT
    state.apply(0)
    assert state.score == [1, 0] and active(state, 0, "S") == []
    assert state.save_pile == cards("s5S") and state.events["goals_shot"] == 1
    assert state.columns[0] == cards("9C") and state.current_player() == 1
    check_state(engine, state)


def test_5_shot_saved_by_the_first_card_costs_one_card_and_gives_one_move(engine):
    state = position(
        engine, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]}, save=["s2H", "s4S"],
    )
    state.apply(0)
    assert state.score == [0, 0] and active(state, 0, "S") == cards("6S", "8S", "10S")
    assert state.extra_moves == 0 and state.current_player() == 0  # one extra move, being used
    assert state.events["shots_saved_card1"] == 1


def test_5_shot_saved_by_the_second_card_costs_two_cards_and_gives_two_moves(engine):
    state = position(
        engine, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]}, save=["s3C", "JOKER", "s2H"],
    )
    state.apply(0)  # 2H misses, the joker saves
    assert active(state, 0, "S") == cards("6S", "8S")
    assert state.extra_moves == 1 and state.current_player() == 0  # two, one being used
    assert state.events["shots_saved_card2"] == 1


def test_5_shot_is_cancelled_when_step_3_removed_cards(engine):
    state = position(
        engine, [["QS"], ["6D"]],
        actives={(0, "S"): ["6S", "8S", "10S"], (1, "H"): ["QH"]}, save=["s2H", "s3H"],
    )
    assert state.classify(0, card("QS")).case is Case.CANCELLED_SHOT
    state.apply(0)
    assert active(state, 0, "S") == cards("6S", "8S", "10S") and card("QS") in state.removed
    assert active(state, 1, "H") == []
    assert state.extra_moves == 0 and state.current_player() == 0  # one extra move, being used
    assert state.save_pile == cards("s2H", "s3H")  # no shot was taken
    check_state(engine, state)


def test_5_shot_comes_before_a_free_kick(engine):
    state = position(engine, [["QS"]], actives={(0, "S"): ["6S", "8S", "QS2"]})
    assert state.classify(0, card("QS")).case is Case.SHOT


@pytest.mark.parametrize(
    ("rank", "save_cards", "event"),
    [("A", 1, "penalties"), ("K", 1, "penalties"), ("Q", 2, "free_kicks_2nd"), ("J", 2, "free_kicks_2nd"),
     ("10", 3, "free_kicks_3rd"), ("9", 3, "free_kicks_3rd"), ("8", 4, "free_kicks_4th"),
     ("7", 4, "free_kicks_4th"), ("6", 4, "free_kicks_4th")],
)
def test_6_free_kick_is_taken_against_save_cards_by_rank(engine, rank, save_cards, event):
    save = ["s5S", "s2H", "s3H", "s4H", "s5H"]  # no spade until the bottom card
    state = position(engine, [[f"{rank}S"], ["6D"]], actives={(0, "S"): [f"{rank}S2"]}, save=save)
    assert state.classify(0, card(f"{rank}S")).case is Case.FREE_KICK
    state.apply(0)
    assert state.score == [1, 0] and state.events[event] == 1
    assert len(state.save_pile) == 5 - save_cards
    assert active(state, 0, "S") == [] and state.current_player() == 1
    assert state.penalty_cards[1][SUIT_INDEX["S"]] == 1  # two cards in the column: one card


def test_6_saved_free_kick_still_removes_the_column_and_books_two_cards(engine):
    state = position(
        engine, [["AS"], ["6D"]], actives={(0, "S"): ["8S", "AS2"]}, save=["s2H", "s2S"],
    )
    state.apply(0)
    assert state.score == [0, 0] and state.events["free_kicks_saved"] == 1
    assert active(state, 0, "S") == [] and state.penalty_cards[1] == [2, 0, 0, 0]
    assert state.current_player() == 1


def test_6_fourth_penalty_card_sends_the_suit_off(engine):
    state = position(
        engine, [["AS"], ["6D"]],
        actives={(0, "S"): ["8S", "AS2"], (1, "S"): ["9S", "10S"]},
        penalty={(1, "S"): 3}, save=["s2S"],
    )
    state.apply(0)
    assert state.penalty_cards[1][SUIT_INDEX["S"]] == 4 and state.sent_off(1, SUIT_INDEX["S"])
    assert active(state, 1, "S") == [] and state.events["sent_off_suits"] == 1
    check_state(engine, state)


def test_6_sent_off_suit_gets_no_more_penalty_cards(engine):
    state = position(
        engine, [["AS"], ["6D"]], actives={(0, "S"): ["AS2"]}, penalty={(1, "S"): 4}, save=["s2S"],
    )
    state.apply(0)
    assert state.penalty_cards[1][SUIT_INDEX["S"]] == 4
    assert state.events["penalty_cards"] == 0 and state.events["sent_off_suits"] == 0


def test_7_attack_gives_three_extra_moves_but_not_six_on_ace(engine):
    state = position(engine, [["7H"], ["6D"], ["8C"], ["9C"]], actives={(0, "H"): ["6H"], (0, "S"): ["AS"]})
    assert state.classify(0, card("7H")).case is Case.ATTACK
    assert state.classify(0, card("6S")).case is Case.PLAIN  # six on ace is no attack
    state.apply(0)
    for column in (1, 2, 3):
        assert state.current_player() == 0
        state.apply(column)
    assert state.current_player() == 1


def test_7_attack_comes_before_a_corner(engine):
    state = position(engine, [["9H"]], actives={(0, "H"): ["9H2", "8H"]})
    assert state.classify(0, card("9H")).case is Case.ATTACK


def test_8_corner_gives_two_extra_moves(engine):
    state = position(engine, [["9H"], ["6D"], ["6C"]], actives={(0, "H"): ["9H2", "QH"]})
    assert state.classify(0, card("9H")).case is Case.CORNER
    state.apply(0)
    assert state.extra_moves == 1 and state.current_player() == 0
    assert state.events["corners"] == 1


# -- save pile, added cards, halves, extra time -------------------------------------------


def test_save_pile_is_shuffled_again_when_it_runs_out(engine):
    state = position(engine, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]}, save=["s2H"])
    state.apply(0)  # 2H misses and empties the pile; the second card comes from the reshuffle
    assert len(state.save_pile) == 17 and len(state.save_used) == 1
    assert state.events["reshuffles"] == 1 and state.log[-1] == ("shuffle", "reshuffle save pile")
    check_state(engine, state)


def test_added_cards_go_round_the_columns_and_stop_at_ten(engine):
    state = position(engine, [["6D"]], reserve=["6C", "7C"])
    state.added = 5
    state._goal(0, "shot")
    assert state.columns[0] == cards("7C", "6D")  # the 6th added card: the first column again
    state.added = 10
    state._goal(0, "shot")
    assert state.reserve == cards("6C") and state.added == 10


def test_added_cards_option_after_save_and_never(game):
    after_save = CardFootballEngine(game, {"added-cards": "after-save"})
    state = position(after_save, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]},
                     save=["s2H", "s4S"], reserve=["9C"])
    state.apply(0)
    assert state.columns[0] == cards("9C") and state.events["added_cards"] == 1
    never = CardFootballEngine(game, {"added-cards": "never"})
    state = position(never, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]},
                     save=["s2H", "s3H"], reserve=["9C"])
    state.apply(0)
    assert state.score == [1, 0] and state.reserve == cards("9C")


def test_second_half_deals_afresh_keeps_the_score_and_the_other_side_kicks_off(engine):
    state = position(engine, [["6D"]], actives={(0, "H"): ["7H"]}, penalty={(1, "S"): 2}, score=(2, 1))
    state.apply(0)
    assert state.period == 1 and state.score == [2, 1] and not state.is_over()
    assert [len(c) for c in state.columns] == [9] * 5
    assert state.actives == [[[], [], [], []], [[], [], [], []]] and state.penalty_cards == [[0] * 4] * 2
    assert state.current_player() == 1
    check_state(engine, state)


def test_full_time_level_score_is_a_draw_by_default(engine):
    state = position(engine, [["6D"]], period=1, score=(1, 1))
    state.apply(0)
    assert state.is_over() and state.outcome().draw and state.outcome().winners == ()


def test_full_time_winner(engine):
    state = position(engine, [["6D"]], period=1, score=(1, 2))
    state.apply(0)
    assert state.outcome().winners == (1,) and state.outcome().scores == (1, 2)


def test_extra_time_is_dealt_like_a_half_and_ends_at_the_first_goal(game):
    engine = CardFootballEngine(game, {"result": "extra-time"})
    state = position(engine, [["6D"]], period=1, score=(1, 1))
    state.apply(0)
    assert state.period == 2 and not state.is_over() and state.events["extra_time"] == 1
    assert state.current_player() == 0  # kick-off alternates: player 1 began the second half
    state = position(engine, [["QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]},
                     save=["s2H", "s3H"], period=2, score=(1, 1), reserve=["9C"])
    state.apply(0)
    assert state.is_over() and state.outcome().winners == (0,) and state.reserve == cards("9C")


def test_extra_time_has_a_limit(game):
    engine = CardFootballEngine(game, {"result": "extra-time"})
    last = engine.halves + engine.extra_time_max - 1
    state = position(engine, [["6D"]], period=last, score=(0, 0))
    state.apply(0)
    assert state.is_over() and state.outcome().draw and state.end_reason == "extra time limit"
    assert engine.move_bound(2) == (45 + 10) * (2 + 20)


def test_clone_is_equal_and_independent(engine):
    state = engine.new_game(2, seed=11)
    copy = state.clone()
    assert copy == state and copy is not state
    copy.apply(copy.legal_moves()[0])
    assert copy != state and state.turn == 0


# -- issue 14: readings the rulebook now states ------------------------------------------


def test_goal_from_a_shot_keeps_the_extra_moves_still_owed(engine):
    """Clarification shot-goal-turn: only a long shot, the same card and a free kick pass the turn."""
    state = position(
        engine, [["6H", "QS"], ["6D"], ["8C"]],
        actives={(0, "S"): ["6S", "8S", "10S"]},
        save=["s2H", "s3D"],  # neither saves a spade: the shot scores
    )
    state.extra_moves = 2  # owed from an earlier attack
    state.run = [2]
    state.apply(0)
    assert state.score == [1, 0] and state.events["goals_shot"] == 1
    assert state.current_player() == 0 and state.extra_moves == 1  # the goal took one move, gave none
    check_state(engine, state)


def test_goal_from_a_shot_with_no_moves_owed_passes_the_turn_as_usual(engine):
    state = position(engine, [["6H", "QS"], ["6D"]], actives={(0, "S"): ["6S", "8S", "10S"]},
                     save=["s2H", "s3D"])
    state.apply(0)
    assert state.score == [1, 0] and state.current_player() == 1


def test_first_seat_kicks_off_the_first_half_and_the_other_the_second(engine):
    """Clarification kick-off: seat 0 begins every simulated match; the halves alternate."""
    for seed in range(5):
        state = engine.new_game(2, seed)
        assert state.current_player() == 0 and state.period == 0
        while state.period == 0:
            state.apply(state.legal_moves()[0])
        assert state.is_over() or state.current_player() == 1


def test_added_cards_after_save_also_fires_on_a_saved_free_kick(game):
    """Option added-cards: after-save counts saved free kicks and penalties, as the text says."""
    after_save = CardFootballEngine(game, {"added-cards": "after-save"})
    state = position(after_save, [["AS"], ["6D"]], actives={(0, "S"): ["8S", "AS2"]},
                     save=["s2H", "s2S"], reserve=["9C"])
    assert state.classify(0, card("AS")).case is Case.FREE_KICK
    state.apply(0)
    assert state.events["free_kicks_saved"] == 1 and state.events["added_cards"] == 1
    assert state.columns[0] == cards("9C")
    for language in ("ru", "en", "de"):
        decision = game.text("clar.added-cards.d", language)
        choice = game.text("rules.options.added-cards.after-save", language)
        assert any(word in decision for word in ("штрафн", "free kick", "Freist")), language
        assert any(word in choice for word in ("штрафн", "free kick", "Freist")), language


def test_extra_time_guard_is_not_a_rule_and_is_never_reached(game):
    """extra_time_max only stops a simulated match: no player text mentions it, and
    goalless extra-time periods are rare enough that 300 matches never come near it."""
    import yaml

    keys = yaml.safe_load((CONTENT / "text" / "ru.yaml").read_text(encoding="utf-8"))["messages"]
    for language in ("ru", "en", "de"):
        for key in keys:
            assert "extra_time_max" not in game.text(key, language), (key, language)
    engine = CardFootballEngine(game, {"result": "extra-time"})
    most = 0
    for seed in range(300):
        state = engine.new_game(2, seed)
        while not state.is_over():
            state.apply(state.legal_moves()[seed % len(state.legal_moves())])
        assert state.end_reason != "extra time limit"
        most = max(most, state.events["extra_time_periods"])
    assert most < engine.extra_time_max // 4


@pytest.mark.parametrize("options", [{}, {"result": "extra-time", "added-cards": "after-save"}])
def test_the_index_the_moves_keep_matches_one_derived_afresh(game, options):
    """The moves read a rank index, the columns holding cards and the unavailable
    columns that each take keeps up to date; after every move of random and greedy
    games they equal what a clone derives from the cards where they lie."""
    import random

    engine = CardFootballEngine(game, options)
    for seed in range(24):
        state = engine.new_game(2, seed)
        choose = engine.bots()["greedy" if seed % 2 else "random"]
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(choose(state, rng))
            fresh = state.clone()
            fresh._derive_index()
            kept = (state._rank_index, state._nonempty, state._blocked)
            assert (fresh._rank_index, fresh._nonempty, fresh._blocked) == kept, (seed, state.turn)
            assert sum(map(sum, state._rank_index)) == 2 * sum(map(len, state.actives[0] + state.actives[1]))


def test_a_clone_classifies_from_its_own_cards_not_the_originals_index(engine):
    """A clone derives its own index: the hand-built position of a clone is
    classified from its cards, not from the original's index."""
    state = position(engine, [["7S"], ["6D"]], actives={(0, "H"): ["7H"], (0, "D"): ["7D"], (0, "C"): ["7C"]})
    assert state.classify(0, card("7S")).case is Case.LONG_SHOT
    copy = state.clone()
    copy.actives[0][SUIT_INDEX["C"]] = []
    copy.removed.append(card("7C"))
    assert copy.classify(0, card("7S")).case is Case.PLAIN
    assert state.classify(0, card("7S")).case is Case.LONG_SHOT
