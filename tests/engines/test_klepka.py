"""klepka: a hand-built position for every rule and prize tile, golden replays, properties.

A position is laid with :func:`position`: the tiles named go to the board
cells given, to the seats' pairs and prizes; every other tile goes to the
discard, so all 100 tiles stay in exactly one place and the invariant checker
can run on the result.  Tiles are written by label (``player-stenkin#1``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.content import load_game
from cardgen.engines.klepka import FLIP, PEEK, TAKE, TURN, WINDOW, KlepkaEngine, KlepkaState, Memory
from cardgen.errors import ContentError, SimulationError
from cardgen.simulation import CheckPolicy, apply_checked, check_state, play_checked
from cardgen.simulation.runner import read_replay, replay, replay_record, write_replay

CONTENT = Path(__file__).resolve().parents[2] / "content" / "klepka"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"

A1, A2 = "player-stenkin#1", "player-stenkin#2"  # 5 points
B1, B2 = "player-gvozdev#1", "player-gvozdev#2"  # 5 points
C1, C2 = "player-avtogol#1", "player-avtogol#2"  # 1 point
VAR, PLAY = "prize-var#1", "prize-play-game#1"
Y1, Y2, RED = "prize-yellow#1", "prize-yellow#2", "prize-red#1"


@pytest.fixture(scope="module")
def game():
    return load_game(CONTENT)


@pytest.fixture(scope="module")
def engine(game):
    return KlepkaEngine(game)


def position(engine: KlepkaEngine, board: dict[int, str], *, players: int = 2, mover: int = 0,
             pairs: dict[int, list[str]] | None = None, prizes: dict[int, list[str]] | None = None,
             memory: dict[int, dict[int, str]] | None = None) -> KlepkaState:
    """A state at the start of ``mover``'s turn with exactly the tiles given in play."""
    state = engine.new_game(players, seed=7)
    placed = set(board.values())
    state.board = [None] * (engine.rows * engine.columns)
    for cell, label in board.items():
        state.board[cell] = label
    state.hidden = sorted(board)
    state.pairs = [list((pairs or {}).get(s, [])) for s in range(players)]
    state.prizes = [list((prizes or {}).get(s, [])) for s in range(players)]
    for items in state.pairs + state.prizes:
        placed.update(items)
    state.held = [{kind: sum(engine.tiles[l].prize == kind for l in state.prizes[s])
                   for kind in ("var", "play-game", "yellow", "red")} for s in range(players)]
    state.cards_out = {kind: sum(h[kind] for h in state.held) for kind in state.cards_out}
    state.discard = sorted(set(engine.tiles) - placed)
    state.memory = [Memory((memory or {}).get(s, {}), engine.prize_designs) for s in range(players)]
    state.seen = {}
    state._begin_turn(mover)
    check_state(engine, state)
    return state




# -- setup ------------------------------------------------------------------------------


def test_new_game_lays_every_tile_on_the_ten_by_ten_grid(engine):
    state = engine.new_game(2, seed=1)
    assert len(state.board) == 100 and None not in state.board
    assert sorted(state.board) == sorted(engine.tiles)
    assert state.phase == TURN and state.current_player() == 0
    check_state(engine, state)


def test_a_larger_grid_leaves_empty_cells_and_a_smaller_one_is_refused(game):
    bigger = game.meta.model_copy(update={"settings": {**game.meta.settings, "rows": 11}})
    engine = KlepkaEngine(type(game)(game.root, bigger, game.cards, game.messages))
    state = engine.new_game(2, seed=1)
    assert len(state.board) == 110 and state.board.count(None) == 10
    smaller = game.meta.model_copy(update={"settings": {**game.meta.settings, "rows": 9}})
    with pytest.raises(ContentError, match="do not fit"):
        KlepkaEngine(type(game)(game.root, smaller, game.cards, game.messages))


def test_player_count_outside_the_box_is_refused(engine):
    with pytest.raises(SimulationError):
        engine.new_game(7, seed=1)


# -- turning tiles ----------------------------------------------------------------------


def test_a_pair_is_kept_and_the_player_goes_again(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2})
    apply_checked(engine, state, ("flip", 0))
    assert state.phase == FLIP and state.current_player() == 0
    apply_checked(engine, state, ("flip", 5))
    assert state.pairs[0] == [A1, A2] and state.points(0) == 5
    assert state.board[0] is None and state.board[5] is None
    assert state.current_player() == 0 and state.events["extra_turns"] == 1


def test_two_different_footballers_go_back_face_down_and_the_turn_passes(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2})
    apply_checked(engine, state, ("flip", 0), ("flip", 9))
    assert state.board[0] == A1 and state.board[9] == B1
    assert state.current_player() == 1 and state.pairs == [[], []]


def test_a_prize_and_a_footballer_the_prize_is_taken_the_footballer_goes_back(engine):
    state = position(engine, {0: A1, 5: A2, 9: VAR})
    apply_checked(engine, state, ("flip", 9), ("flip", 0))
    assert state.prizes[0] == [VAR] and state.board[9] is None and state.board[0] == A1
    assert state.current_player() == 1  # no pair, so no extra turn


def test_two_prizes_are_both_taken(engine):
    state = position(engine, {0: A1, 5: A2, 8: VAR, 9: PLAY})
    apply_checked(engine, state, ("flip", 8), ("flip", 9))
    assert sorted(state.prizes[0]) == sorted([VAR, PLAY]) and state.events["two_prizes_turns"] == 1


def test_a_last_single_tile_is_turned_alone_and_ends_the_game(engine):
    state = position(engine, {3: Y1}, pairs={1: [A1, A2]})
    apply_checked(engine, state, ("flip", 3))
    assert state.is_over() and state.prizes[0] == [Y1]
    assert state.legal_moves() == []


def test_a_tile_cannot_be_turned_twice_or_from_an_empty_cell(engine):
    state = position(engine, {0: A1, 5: A2})
    with pytest.raises(SimulationError):
        state.apply(("flip", 1))
    apply_checked(engine, state, ("flip", 0))
    with pytest.raises(SimulationError):
        state.apply(("flip", 0))


# -- memory -----------------------------------------------------------------------------


def test_every_seat_memorises_a_shown_tile_unless_it_forgets(game):
    never = KlepkaEngine(game)
    never.forget_rate = 0.0
    state = position(never, {0: A1, 5: A2, 9: B1, 11: B2}, players=3)
    apply_checked(never, state, ("flip", 0), ("flip", 9))
    assert all(m == {0: "player-stenkin", 9: "player-gvozdev"} for m in state.memory)
    always = KlepkaEngine(game)
    always.forget_rate = 1.0
    state = position(always, {0: A1, 5: A2, 9: B1, 11: B2}, players=3)
    apply_checked(always, state, ("flip", 0), ("flip", 9))
    assert state.memory == [{}, {}, {}] and state.seen == {0: "player-stenkin", 9: "player-gvozdev"}


def test_taken_tiles_leave_every_memory(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2},
                     memory={0: {0: "player-stenkin"}, 1: {0: "player-stenkin", 5: "player-stenkin"}})
    apply_checked(engine, state, ("flip", 0), ("flip", 5))
    assert 0 not in state.memory[1] and 5 not in state.memory[1]


def test_greedy_takes_a_remembered_pair(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, memory={0: {0: "player-stenkin", 5: "player-stenkin"}})
    bot = engine.bots()["greedy"]
    rng = random.Random(1)
    apply_checked(engine, state, bot(state, rng))
    apply_checked(engine, state, bot(state, rng))
    assert state.pairs[0] == [A1, A2]


# -- VAR ----------------------------------------------------------------------------------


def test_var_peeks_at_two_tiles_before_the_turn_and_is_discarded(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={0: [VAR]})
    assert ("var",) in state.legal_moves()
    apply_checked(engine, state, ("var",))
    assert state.phase == PEEK and VAR in state.discard
    apply_checked(engine, state, ("peek", 0), ("peek", 5))
    assert state.memory[0] == {0: "player-stenkin", 5: "player-stenkin"}  # a peek is never forgotten
    assert state.phase == TURN and ("var",) not in state.legal_moves()
    apply_checked(engine, state, ("flip", 0), ("flip", 5))
    assert state.pairs[0] == [A1, A2] and state.events["vars_used"] == 1


def test_var_belongs_to_its_owner_only(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={1: [VAR]})
    assert ("var",) not in state.legal_moves()


# -- PLAY GAME ----------------------------------------------------------------------------


def test_play_game_needs_a_pair_on_both_sides(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={0: [PLAY]}, pairs={0: [B1, B2]})
    assert not [m for m in state.legal_moves() if m[0] == "match"]
    state = position(engine, {0: A1, 5: A2}, prizes={0: [PLAY]}, pairs={0: [B1, B2], 1: [C1, C2]})
    assert ("match", 1) in state.legal_moves()


def test_play_game_dice_decide_and_the_winner_takes_any_pair(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={0: [PLAY]}, pairs={0: [B1, B2], 1: [C1, C2]}, players=3)
    apply_checked(engine, state, ("match", 1))
    goals = state.log[-1][1]
    assert goals[0] != goals[1] and all(1 <= g <= 6 for g in goals)
    assert state.phase == TAKE and PLAY in state.discard
    winner, loser = (0, 1) if goals[0] > goals[1] else (1, 0)
    assert state.current_player() == winner
    wanted = state.legal_moves()[0]
    apply_checked(engine, state, wanted)
    assert len(state.pairs[loser]) == 0 and len(state.pairs[winner]) == 4
    assert state.current_player() == 1  # the match replaced seat 0's turn
    assert state.events["matches_played"] == 1


def test_play_game_ties_are_rolled_again(engine):
    rerolled = 0
    for seed in range(40):
        state = position(engine, {0: A1, 5: A2}, prizes={0: [PLAY]}, pairs={0: [B1, B2], 1: [C1, C2]})
        state.rng.seed(seed)
        apply_checked(engine, state, ("match", 1))
        rerolled += state.events["match_rerolls"]
        assert [e for e in state.log if e[0] == "dice"][-1][1][0] != [e for e in state.log if e[0] == "dice"][-1][1][1]
    assert rerolled > 0


# -- Yellow and Red -------------------------------------------------------------------------


def test_a_yellow_takes_the_turn_of_the_player_to_move(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={1: [Y1]}, players=3)
    assert state.phase == WINDOW and state.current_player() == 1
    assert state.legal_moves() == [("pass",), ("yellow", 0), ("yellow", 2)]  # any player but oneself
    apply_checked(engine, state, ("yellow", 0))
    assert state.mover == 1 and Y1 in state.discard and state.events["turns_lost"] == 1
    assert state.phase == TURN  # the holder's own turn: nobody left to ask


def test_a_yellow_on_a_player_not_moving_costs_that_player_its_next_turn(engine):
    """Clarification yellow-target: «лишить права хода любого игрока»."""
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={1: [Y1]}, players=3)
    apply_checked(engine, state, ("yellow", 2))
    assert state.skips == [0, 0, 1] and state.phase == TURN and state.mover == 0  # seat 0 moves on
    apply_checked(engine, state, ("flip", 0), ("flip", 9))
    assert state.mover == 1  # next in order
    apply_checked(engine, state, ("flip", 0), ("flip", 11))
    assert state.mover == 0 and state.skips == [0, 0, 0] and state.events["turns_skipped"] == 1


def test_the_player_to_move_is_not_asked(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={0: [Y1, RED]}, players=3)
    assert state.phase == TURN and state.current_player() == 0


def test_a_red_takes_the_turn_for_its_owner_and_play_goes_on_from_there(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={2: [RED]}, players=4)
    assert state.current_player() == 2 and ("red",) in state.legal_moves()
    apply_checked(engine, state, ("red",))
    assert state.mover == 2 and state.phase == TURN and RED in state.discard
    apply_checked(engine, state, ("flip", 0), ("flip", 9))
    assert state.mover == 3


def test_holders_are_asked_in_seat_order_after_the_mover(engine):
    state = position(engine, {0: A1, 5: A2}, prizes={0: [Y1], 1: [RED], 2: [Y2]}, mover=2, players=3)
    assert state.queue == [0, 1]
    apply_checked(engine, state, ("pass",))
    assert state.current_player() == 1
    apply_checked(engine, state, ("pass",))
    assert state.phase == TURN and state.current_player() == 2


# -- issue 26: Yellow and Red at any moment -------------------------------------------------


def test_a_yellow_after_the_first_tile_blocks_a_known_match(engine):
    """Clarifications any-moment and half-played-turn: seat 1 and the mover both remember the
    second Stenkin; after the mover turns the first, seat 1's Yellow ends the turn, the shown
    tile goes back face down, and the pair stays on the board for the next player."""
    knows = {0: "player-stenkin", 5: "player-stenkin"}
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={1: [Y1]}, players=3,
                     memory={0: knows, 1: knows})
    apply_checked(engine, state, ("pass",))  # nothing to stop yet
    greedy = engine.bots()["greedy"]
    rng = random.Random(3)
    apply_checked(engine, state, greedy(state, rng))
    assert state.flipped == [0] and state.phase == WINDOW and state.current_player() == 1
    move = greedy(state, rng)
    assert move == ("yellow", 0)  # the bot interrupts: it knows the match is at 5
    apply_checked(engine, state, move)
    assert state.pairs == [[], [], []] and state.board[0] == A1 and state.board[5] == A2
    assert state.mover == 1 and state.phase == TURN and state.flipped == []
    assert state.events["turns_interrupted"] == 1 and state.events["yellows_mid_turn"] == 1


def test_a_prize_shown_before_an_interruption_is_the_movers(engine):
    state = position(engine, {0: A1, 5: A2, 9: VAR}, prizes={1: [RED]}, players=3)
    apply_checked(engine, state, ("pass",), ("flip", 9))
    assert state.phase == WINDOW
    apply_checked(engine, state, ("red",))
    assert state.prizes[0] == [VAR] and state.board[9] is None
    assert state.mover == 1 and state.events["reds_mid_turn"] == 1


def test_a_red_after_the_first_tile_gives_its_owner_a_fresh_turn(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={2: [RED]}, players=3)
    apply_checked(engine, state, ("pass",), ("flip", 0), ("red",))
    assert state.mover == 2 and state.flipped == [] and state.board[0] == A1
    apply_checked(engine, state, ("flip", 0), ("flip", 5))  # the owner turns both tiles of its turn
    assert state.pairs[2] == [A1, A2]


def test_everyone_passing_mid_turn_lets_the_mover_finish(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={1: [Y1], 2: [RED]}, players=3)
    apply_checked(engine, state, ("pass",), ("pass",), ("flip", 0))
    assert state.phase == WINDOW and state.queue == [1, 2]
    apply_checked(engine, state, ("pass",), ("pass",))
    assert state.phase == FLIP and state.current_player() == 0
    apply_checked(engine, state, ("flip", 5))
    assert state.pairs[0] == [A1, A2]


def test_no_window_after_the_second_tile_the_pair_is_kept_first(engine):
    """The two tiles are resolved before any card: a Yellow then costs the extra turn, not the pair."""
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={1: [Y1]}, players=2)
    apply_checked(engine, state, ("pass",), ("flip", 0), ("pass",), ("flip", 5))
    assert state.pairs[0] == [A1, A2] and state.mover == 0 and state.phase == WINDOW
    apply_checked(engine, state, ("yellow", 0))
    assert state.mover == 1 and state.pairs[0] == [A1, A2]


def test_two_yellows_on_one_opponent_over_a_game_apply_the_red_rule(engine):
    """Clarification two-yellows, the football reading: seat 1 books seat 0 early in the game;
    much later seat 2 shows seat 0 a second Yellow mid-turn: the Red's rule for seat 2."""
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2, 20: C1, 21: C2}, prizes={1: [Y1], 2: [Y2]}, players=3)
    apply_checked(engine, state, ("yellow", 0))  # seat 1: seat 0 loses this turn
    assert state.mover == 1 and state.bookings == [1, 0, 0]
    assert state.queue == [2]  # seat 2 is asked at seat 1's turn
    apply_checked(engine, state, ("pass",), ("flip", 20), ("pass",), ("flip", 21))  # seat 1 pairs C
    apply_checked(engine, state, ("pass",), ("flip", 0), ("pass",), ("flip", 9))  # no pair
    assert state.mover == 2
    apply_checked(engine, state, ("flip", 9), ("flip", 5))  # seat 2, no pair
    assert state.mover == 0 and state.queue == [2]  # seat 1's card is spent; seat 2 still holds one
    apply_checked(engine, state, ("pass",), ("flip", 0))
    assert state.phase == WINDOW and state.current_player() == 2
    apply_checked(engine, state, ("yellow", 0))  # seat 0's second Yellow of the game
    assert state.mover == 2 and state.bookings == [0, 0, 0]
    assert state.events["double_yellows_used"] == 1 and state.events["turns_taken_by_red"] == 1
    assert state.skips == [0, 0, 0] and state.board[0] == A1


def test_a_first_yellow_on_a_player_is_only_a_yellow(engine):
    state = position(engine, {0: A1, 5: A2, 9: B1, 11: B2}, prizes={2: [Y2]}, players=3)
    assert Y1 in state.discard  # an earlier Yellow of another seat's, already used on nobody here
    apply_checked(engine, state, ("yellow", 0))
    assert state.mover == 1 and state.events["turns_taken_by_red"] == 0  # the next seat, not the holder


# -- the end ----------------------------------------------------------------------------------


def test_points_decide_then_the_tile_count_including_unused_prizes(engine):
    state = position(engine, {0: C1, 5: C2}, pairs={0: [A1, A2], 1: [B1, B2]}, prizes={1: [VAR]})
    apply_checked(engine, state, ("flip", 0), ("flip", 5))
    outcome = state.outcome()
    assert outcome.scores == (6.0, 5.0) and outcome.winners == (0,)
    state = position(engine, {0: C1, 5: C2}, mover=1, pairs={0: [A1, A2], 1: [B1, B2]}, prizes={0: [VAR]})
    apply_checked(engine, state, ("flip", 0), ("flip", 5))
    outcome = state.outcome()
    assert outcome.scores == (5.0, 6.0) and outcome.winners == (1,)
    state = position(engine, {0: VAR}, pairs={0: [A1, A2], 1: [B1, B2]}, prizes={1: [PLAY]})
    apply_checked(engine, state, ("flip", 0))
    assert state.outcome().winners == (0, 1) and state.events["shared_wins"] == 1


def test_outcome_before_the_end_is_an_error(engine):
    with pytest.raises(SimulationError):
        engine.new_game(2, seed=1).outcome()


# -- whole games ------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), bot=st.sampled_from(["greedy", "perfect"]))
def test_any_seed_plays_to_the_end_under_every_invariant(engine, seed, players, bot):
    played = play_checked(engine, players, seed, bot, CheckPolicy(clone_every=40))
    state = played.state
    assert state.is_over() and state.events["pairs"] == 44
    assert sum(len(p) for p in state.pairs) == 88
    again = replay(engine, players, seed, played.moves)
    assert again == state


def test_a_random_game_ends_too(engine):
    assert play_checked(engine, 2, 3, "random", CheckPolicy(clone_every=500)).state.is_over()


GOLDEN_CASES = {
    "klepka-2p-seed11-greedy": (2, 11, "greedy"),
    "klepka-4p-seed12-perfect": (4, 12, "perfect"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_replay(engine, name):
    players, seed, bot = GOLDEN_CASES[name]
    path = GOLDEN / f"{name}.json"
    if os.environ.get("CARDGEN_UPDATE_GOLDEN") or not path.exists():
        played = play_checked(engine, players, seed, bot)
        write_replay(path, replay_record(engine, players, seed, played.moves))
    golden = read_replay(path)
    state = replay(engine, players, seed, golden["moves"])
    assert state.to_dict() == golden["final"]
    assert list(state.outcome().winners) == golden["outcome"]["winners"]


# -- issue 14: the readings the rulebook states --------------------------------------------

LANGUAGES = ("ru", "en", "de")


def test_every_grid_the_rulebook_suggests_holds_every_tile_and_plays(game):
    import re

    for language in LANGUAGES:
        text = game.text("rules.formats.intro", language)
        grids = [(int(a), int(b)) for a, b in re.findall(r"(\d+)\s*×\s*(\d+)", text)]
        assert len(grids) >= 2, (language, text)
        for rows, columns in grids:
            meta = game.meta.model_copy(update={"settings": {**game.meta.settings, "rows": rows, "columns": columns}})
            engine = KlepkaEngine(type(game)(game.root, meta, game.cards, game.messages))
            assert rows * columns >= len(engine.tiles), (language, rows, columns)
            assert play_checked(engine, 3, rows * columns, "greedy", CheckPolicy(clone_every=500)).state.is_over()


def test_the_card_texts_say_any_moment_in_every_language(game):
    """Clarification any-moment: the card texts say the cards are played at any moment,
    also in the middle of another player's turn, in every language."""
    words = {"ru": "в любой момент чужого хода", "en": "at any moment of another", "de": "jederzeit im"}
    for language in LANGUAGES:
        for key in ("card.prize-yellow.rule", "card.prize-red.rule", "rules.card.prize-yellow",
                    "rules.card.prize-red"):
            text = game.text(key, language)
            assert words[language] in text.lower(), (language, key, text)
        assert "half-played-turn" in {c.id for c in game.meta.clarifications}


def test_a_full_tie_on_points_and_tiles_is_a_shared_win_as_the_rulebook_says(engine, game):
    state = position(engine, {0: VAR}, pairs={0: [A1, A2], 1: [B1, B2]}, prizes={1: [PLAY]})
    apply_checked(engine, state, ("flip", 0))  # seat 0 takes VAR: 5 points and 3 tiles each
    assert state.outcome().winners == (0, 1)
    assert "ties" in {c.id for c in game.meta.clarifications}
    for language, word in {"ru": "общая", "en": "shared", "de": "geteilt"}.items():
        assert word in game.text("rules.end.2", language) and word in game.text("clar.ties.d", language)


def test_simulated_games_play_yellows_and_reds_mid_turn(engine):
    """Issue 26: `cardgen simulate klepka` interrupts turns: the greedy bots play cards after a
    first tile and show second Yellows; random play also books players who are not moving."""
    from cardgen.simulation.runner import run_games

    totals = {}
    for bot in ("greedy", "random"):
        for record in run_games(engine, 30, 5, 3, bot):
            assert record.completed, record.violation
            for name in ("yellows_mid_turn", "reds_mid_turn", "double_yellows_used", "turns_interrupted",
                         "turns_skipped"):
                totals[(bot, name)] = totals.get((bot, name), 0) + record.events.get(name, 0)
    assert totals[("greedy", "yellows_mid_turn")] > 0 and totals[("greedy", "reds_mid_turn")] > 0
    assert totals[("greedy", "double_yellows_used")] > 0 and totals[("greedy", "turns_interrupted")] > 0
    assert totals[("random", "turns_skipped")] > 0


def test_greedy_takes_the_turn_with_a_red_after_a_first_tile_when_it_knows_a_pair(engine):
    knows = {5: "player-gvozdev", 11: "player-gvozdev"}
    state = position(engine, {0: A1, 3: A2, 5: B1, 11: B2}, prizes={1: [RED]}, players=3, memory={1: knows})
    apply_checked(engine, state, ("pass",), ("flip", 0))
    assert state.current_player() == 1
    assert engine.bots()["greedy"](state, random.Random(1)) == ("red",)
    state = position(engine, {0: A1, 3: A2, 5: B1, 11: B2}, prizes={1: [RED]}, players=3)
    apply_checked(engine, state, ("pass",), ("flip", 0))
    assert engine.bots()["greedy"](state, random.Random(1)) == ("pass",)  # nothing known: keep the card
