"""head-game: a hand-built position for every rule and action card, both formats,
the simple variant, golden replays and properties over seeds.

The engine runs on the real deck (``content/head-game/cards.yaml``) but on a
made-up reference base built here, so that the positions and the golden
replays do not move when the real base grows.  Seats' knowledge is set by
hand, recall is 1 (a known matching player always comes to mind) and nobody
forgets «Выхожу один на один!» unless a test says otherwise.
"""

from __future__ import annotations

import os
import random
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.content import load_game
from cardgen.engines.footballers import Country, Player, ReferenceBase
from cardgen.engines.head_game import FACT, GEO, LAY, LAY_FIRST, POSITION, PUNISH, START, FERGIE, HeadGameEngine, HeadGameState
from cardgen.errors import SimulationError
from cardgen.simulation import CheckPolicy, apply_checked, check_state, play_checked
from cardgen.simulation.runner import read_replay, replay, replay_record, write_replay

CONTENT = Path(__file__).resolve().parents[2] / "content" / "head-game"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
AS_OF = date(2025, 6, 30)

COUNTRIES = {
    "france": "eurasia", "portugal": "eurasia", "argentina": "south-america", "england": "eurasia",
    "italy": "eurasia", "spain": "eurasia", "brazil": "south-america", "netherlands": "eurasia",
    "germany": "eurasia", "usa": "north-america", "nigeria": "africa", "japan": "eurasia",
    "australia": None,
}
CODES = ["GK", "CB", "CM", "CF", "LW", "CDM", "RB"]


def player(pid: str, country: str, position: str, **facts) -> Player:
    """A made-up player: one club at home, every fact false unless given."""
    return Player.model_validate({
        "id": pid, "name": pid, "name_ru": pid,
        "born": facts.get("born", date(1990, 1, 1)),
        "citizenship": [country], "positions": [position],
        "retired": facts.get("retired", False),
        "clubs": facts.get("clubs", [{"club": f"{pid} FC", "country": country, "from": 2010, "to": None}]),
        "national_team_trophies": facts.get("national_team_trophies", []),
        "national_league_titles": facts.get("national_league_titles", []),
        "european_club_trophies": facts.get("european_club_trophies", []),
        "ballon_dor": facts.get("ballon_dor", []),
        "scored_in_final": facts.get("scored_in_final", False),
        "captain": facts.get("captain", False),
    })


def made_up_base() -> ReferenceBase:
    """Three named players for the positions, then 400 generated ones for whole games."""
    players = [
        player("fr-forward-ballon", "france", "CF", ballon_dor=[2001]),
        player("fr-forward-captain", "france", "CF", captain=True),
        player("br-keeper-captain", "brazil", "GK", captain=True),
    ]
    rng = random.Random(2025)
    for n in range(400):
        country = rng.choice(sorted(COUNTRIES))
        homes = rng.sample(sorted(c for c in COUNTRIES if c != "australia"), rng.randint(1, 4))
        players.append(player(
            f"gen-{n}", country, rng.choice(CODES),
            born=date(rng.randint(1970, 2006), rng.randint(1, 12), 1),
            retired=rng.random() < 0.4,
            clubs=[{"club": f"club {n}-{i}", "country": c, "from": 2000 + i, "to": 2001 + i}
                   for i, c in enumerate(homes + homes[:rng.randint(0, 3)])],
            national_team_trophies=["cup"] if rng.random() < 0.4 else [],
            national_league_titles=["league"] if rng.random() < 0.6 else [],
            european_club_trophies=["ucl"] if rng.random() < 0.4 else [],
            ballon_dor=[2000] if rng.random() < 0.08 else [],
            scored_in_final=rng.random() < 0.3,
            captain=rng.random() < 0.4,
        ))
    countries = {cid: Country(id=cid, name=cid, name_ru=cid, continent=continent)
                 for cid, continent in COUNTRIES.items()}
    return ReferenceBase(as_of=AS_OF, players=tuple(players), countries=countries)


BASE = made_up_base()
BALLON, CAPTAIN, KEEPER = 1 << 0, 1 << 1, 1 << 2  # knowledge masks of the three named players


@pytest.fixture(scope="module")
def game():
    return load_game(CONTENT)


def make_engine(game, recall: float = 1.0, guess: float = 0.0, offside: float = 0.0, **options) -> HeadGameEngine:
    engine = HeadGameEngine(game, options, base=BASE, on=AS_OF)
    engine.recall, engine.guess, engine.offside_forget = recall, guess, offside
    return engine


@pytest.fixture(scope="module")
def engine(game):
    return make_engine(game)


class Labels:
    """Hands out physical labels of a design, each once."""

    def __init__(self, engine: HeadGameEngine):
        self.free = sorted(engine.cards)

    def __call__(self, design: str) -> str:
        label = next(label for label in self.free if label.split("#")[0] == design)
        self.free.remove(label)
        return label


def position(engine: HeadGameEngine, *, field: tuple[str, str, str], hands: list[list[str]],
             knowledge: list[int] | None = None, deck: list[str] | None = None,
             discard: list[str] | None = None, mover: int = 0) -> HeadGameState:
    """A state at the start of ``mover``'s turn.  ``field`` is (geo, position, fact) designs;
    cards nobody holds go to the deck (or to the discard when ``deck`` is given)."""
    players = len(hands)
    state = engine.new_game(players, seed=3)
    take = Labels(engine)
    geo, pos, fact = (engine.cards[take(design)] for design in field)
    state.field = {FACT: fact, GEO: geo, POSITION: pos}
    state.hands = [[take(design) for design in hand] for hand in hands]
    if deck is None:
        state.deck, state.discard = list(take.free), []
    else:
        state.deck = [take(design) for design in deck]
        state.discard = [take(design) for design in discard or []] + list(take.free)
    state.knowledge = list(knowledge or [0] * players)
    state._begin_turn(mover)
    check_state(engine, state)
    return state




FR_FW_BALLON = ("country-france", "position-forward", "fact-ballon-dor")
FR_FW_CAPTAIN = ("country-france", "position-forward", "fact-captain")
HAND = ["country-spain", "position-defender", "country-italy", "position-midfielder", "country-germany"]


def designs(engine: HeadGameEngine, labels: list[str]) -> list[str]:
    return sorted(engine.cards[label].design for label in labels)


# -- setup ----------------------------------------------------------------------------------


def test_the_deal_lays_one_field_card_of_each_type_and_seven_cards_each(engine):
    state = engine.new_game(3, seed=5)
    assert sorted(card.group for card in state.field.values()) == [FACT, GEO, POSITION]
    assert [len(hand) for hand in state.hands] == [7, 7, 7]
    assert len(state.deck) == 90 - 3 - 21 and state.phase == START
    check_state(engine, state)


def test_knowledge_is_a_seeded_share_of_the_base(game):
    engine = HeadGameEngine(game, base=BASE, on=AS_OF)
    state = engine.new_game(2, seed=9)
    shares = [k.bit_count() / len(BASE.players) for k in state.knowledge]
    assert all(abs(share - engine.knowledge) < 0.15 for share in shares)
    assert state.knowledge == engine.new_game(2, seed=9).knowledge


def test_player_count_outside_the_box_is_refused(engine):
    with pytest.raises(SimulationError):
        engine.new_game(9, seed=1)


# -- answering ---------------------------------------------------------------------------------


def test_a_right_answer_lays_a_card_onto_the_field_card_of_its_type(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND], knowledge=[BALLON, 0])
    apply_checked(engine, state, ("answer",))
    assert state.phase == LAY and state.named == "fr-forward-ballon" and state.events["answers_right"] == 1
    assert state.legal_moves() == [("lay", d) for d in sorted(set(HAND))]
    old_geo = state.field[GEO].label
    apply_checked(engine, state, ("lay", "country-italy"))
    assert state.field[GEO].design == "country-italy" and old_geo in state.discard
    assert len(state.hands[0]) == 4 and state.current_player() == 1


def test_a_named_footballer_cannot_be_named_again_in_the_game(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND], knowledge=[BALLON, BALLON])
    france = state.field[GEO]
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    spain = state.field[GEO]  # put the same field back for seat 1
    state.discard.remove(france.label)
    state.discard.append(spain.label)
    state.field[GEO] = france
    apply_checked(engine, state, ("answer",))
    assert state.events["answers_right"] == 1 and state.events["penalties"] == 1


def test_no_answer_draws_two_then_still_lays_one(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND], knowledge=[0, 0])
    deck_before = len(state.deck)
    apply_checked(engine, state, ("answer",))
    assert state.phase == LAY and len(state.hands[0]) == 7 and len(state.deck) == deck_before - 2
    assert state.events["answers_none"] == 1
    apply_checked(engine, state, ("lay", "position-midfielder"))
    assert len(state.hands[0]) == 6 and state.current_player() == 1


def test_a_guess_is_a_wrong_answer_with_the_same_penalty(game):
    engine = make_engine(game, guess=1.0)
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND])
    apply_checked(engine, state, ("answer",))
    assert state.events["answers_wrong"] == 1 and len(state.hands[0]) == 7


# -- action cards ------------------------------------------------------------------------------


def test_block_answers_on_the_two_other_cards(engine):
    hand = HAND + ["action-block"]
    state = position(engine, field=FR_FW_BALLON, hands=[hand, HAND], knowledge=[CAPTAIN, 0])
    assert ("block", FACT) in state.legal_moves()
    apply_checked(engine, state, ("block", FACT))
    assert state.events["blocks"] == 1 and state.named == "fr-forward-captain"
    assert any(l.startswith("action-block") for l in state.discard) and state.blocked == ""
    apply_checked(engine, state, ("lay", "country-spain"))
    assert state.current_player() == 1


def test_block_still_costs_the_penalty_without_an_answer(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["action-block"], HAND])
    apply_checked(engine, state, ("block", GEO))
    assert state.events["penalties"] == 1 and len(state.hands[0]) == 7


def test_fergie_time_is_offered_when_the_main_time_runs_out(game):
    engine = make_engine(game, recall=0.5)
    saved = 0
    for seed in range(30):
        state = position(engine, field=FR_FW_CAPTAIN, hands=[HAND + ["action-fergie-time"], HAND],
                         knowledge=[CAPTAIN, 0])
        state.rng.seed(seed)
        apply_checked(engine, state, ("answer",))
        if state.phase == FERGIE:
            assert state.legal_moves() == [("fergie-time",), ("pass",)]
            apply_checked(engine, state, ("fergie-time",))
            saved += state.events["fergie_saves"]
            assert state.events["fergie_times"] == 1
    assert saved > 0


def test_fergie_time_from_the_start_doubles_the_chances(game):
    engine = make_engine(game, recall=0.5)
    right = {False: 0, True: 0}
    for seed in range(200):
        for fergie in (False, True):
            hand = HAND + ["action-fergie-time"] if fergie else list(HAND)
            state = position(engine, field=FR_FW_CAPTAIN, hands=[hand, HAND], knowledge=[CAPTAIN, 0])
            state.rng.seed(seed)
            apply_checked(engine, state, ("fergie-time",) if fergie else ("answer",))
            right[fergie] += state.events["answers_right"]
    assert 70 < right[False] < 130 and right[True] > right[False] + 30


def test_transfer_passes_the_same_field_on_without_a_penalty(engine):
    hand = HAND + ["action-transfer"]
    state = position(engine, field=FR_FW_BALLON, hands=[hand, HAND], knowledge=[0, BALLON])
    field = {g: c.label for g, c in state.field.items()}
    apply_checked(engine, state, ("transfer",))
    assert state.current_player() == 1 and len(state.hands[0]) == 5 and state.events["transfers"] == 1
    assert {g: c.label for g, c in state.field.items()} == field
    apply_checked(engine, state, ("answer",))
    assert state.events["answers_right"] == 1


def test_a_transfer_cannot_be_passed_on_the_receiver_answers_or_takes_the_penalty(engine):
    """Clarification transfer-again, the seed: «получивший трансфер отвечает…; не ответил —
    штраф (2 карты) получает он»."""
    hand = HAND + ["action-transfer"]
    state = position(engine, field=FR_FW_BALLON, hands=[hand, hand, HAND])
    apply_checked(engine, state, ("transfer",))
    assert state.current_player() == 1 and state.transfer_origin == 0
    assert ("transfer",) not in state.legal_moves() and ("answer",) in state.legal_moves()
    with pytest.raises(SimulationError):
        state.apply(("transfer",))
    apply_checked(engine, state, ("answer",))  # seat 1 knows nobody: the penalty is seat 1's
    assert len(state.hands[1]) == 6 + 2 and state.events["penalties"] == 1 and state.phase == LAY
    apply_checked(engine, state, ("lay", "country-spain"))
    assert state.current_player() == 2 and state.transfer_origin == -1


@pytest.mark.parametrize("card,drawn", [("yellow", 1), ("red", 3)])
def test_yellow_and_red_after_a_right_answer_make_the_next_player_draw_and_skip(engine, card, drawn):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + [f"action-{card}"], HAND, HAND],
                     knowledge=[BALLON, 0, 0])
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    assert state.phase == PUNISH and (card,) in state.legal_moves()
    apply_checked(engine, state, (card,))
    assert len(state.hands[1]) == 5 + drawn and state.current_player() == 2
    assert state.events["turns_skipped"] == 1 and state.events[f"{card}s"] == 1


def test_no_yellow_after_a_wrong_answer_nor_after_another_action(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["action-yellow"], HAND])
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    assert state.current_player() == 1
    hand = HAND + ["action-yellow", "action-block"]
    state = position(engine, field=FR_FW_BALLON, hands=[hand, HAND], knowledge=[CAPTAIN, 0])
    apply_checked(engine, state, ("block", FACT), ("lay", "country-spain"))
    assert state.current_player() == 1  # one action card per turn


def test_with_only_action_cards_nothing_is_laid(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[["action-block", "action-yellow"], HAND, HAND],
                     knowledge=[BALLON, 0, 0])
    apply_checked(engine, state, ("answer",))
    assert state.phase == PUNISH
    apply_checked(engine, state, ("yellow",))
    assert state.current_player() == 2 and designs(engine, state.hands[0]) == ["action-block"]


def test_a_transfer_as_the_last_card_empties_the_hand(game):
    engine = make_engine(game, format="knockout")
    state = position(engine, field=FR_FW_BALLON, hands=[["action-transfer"], HAND, HAND])
    apply_checked(engine, state, ("transfer",))
    assert state.out[0] and state.places == [0]


def test_greedy_goes_out_on_a_last_card_transfer(game):
    # clarification 'last-card-transfer': allowed, and the bot takes it
    engine = make_engine(game)
    state = position(engine, field=FR_FW_BALLON, hands=[["action-transfer"], HAND], knowledge=[BALLON, 0])
    assert engine.bots()["greedy"](state, random.Random(1)) == ("transfer",)
    apply_checked(engine, state, ("transfer",))
    assert state.out[0] and state.current_player() == 1 and state.transfer_origin == 0


def test_played_actions_but_block_go_to_the_action_pile_which_is_never_reshuffled(engine):
    # clarification 'action-pile': the seed's separate pile under the field
    hand = HAND + ["action-transfer"]
    state = position(engine, field=FR_FW_BALLON, hands=[hand, HAND + ["action-block"]], deck=[])
    transfer = next(label for label in state.hands[0] if label.startswith("action-transfer"))
    block = next(label for label in state.hands[1] if label.startswith("action-block"))
    apply_checked(engine, state, ("transfer",))
    assert state.action_pile == [transfer] and transfer not in state.discard
    apply_checked(engine, state, ("block", GEO))  # no answer: the penalty reshuffles the discard
    assert state.events["reshuffles"] == 1 and state.action_pile == [transfer]
    assert transfer not in state.deck + state.hands[1] and block in state.deck + state.hands[1]


# -- one on one, offside, the deck ---------------------------------------------------------------


def test_the_second_to_last_card_needs_one_on_one_and_offside_costs_two(game):
    for forget, expected in ((0.0, 1), (1.0, 3)):
        engine = make_engine(game, offside=forget)
        state = position(engine, field=FR_FW_BALLON, hands=[["country-spain", "fact-retired"], HAND],
                         knowledge=[BALLON, 0])
        apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
        assert len(state.hands[0]) == expected and state.events["one_on_one"] == 1
        assert state.events["offsides"] == (forget == 1.0)


def test_an_empty_deck_is_rebuilt_from_the_discard(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND], deck=["fact-retired"],
                     discard=["country-italy", "country-brazil"])
    apply_checked(engine, state, ("answer",))
    assert state.events["reshuffles"] == 1 and len(state.hands[0]) == 7
    assert ("shuffle", "reshuffle the discard") in state.log


def test_with_deck_and_discard_empty_only_what_is_there_is_drawn(engine):
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, HAND], deck=["fact-retired"], discard=[])
    state.hands[1] += state.discard  # every other card is held: nothing to reshuffle
    state.discard = []
    check_state(engine, state)
    apply_checked(engine, state, ("answer",))
    assert len(state.hands[0]) == 6 and state.events["short_draws"] == 1


# -- formats -------------------------------------------------------------------------------------


def test_knock_out_gives_places_until_one_player_is_left(game):
    engine = make_engine(game, format="knockout")
    state = position(engine, field=FR_FW_BALLON, hands=[["country-brazil"], HAND, ["action-transfer"]],
                     knowledge=[BALLON, 0, 0])
    apply_checked(engine, state, ("answer",), ("lay", "country-brazil"))
    assert state.places == [0] and state.current_player() == 1 and not state.is_over()
    apply_checked(engine, state, ("answer",), ("lay", "position-defender"))
    apply_checked(engine, state, ("transfer",))
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.ranking == (0, 2, 1) and outcome.winners == (0,)


def test_points_round_goes_on_until_the_seat_before_the_starter_has_played(game):
    engine = make_engine(game)
    state = position(engine, field=FR_FW_BALLON, hands=[HAND, ["country-brazil"], HAND, HAND],
                     knowledge=[0, BALLON, 0, 0], mover=1)
    state.starter = 0
    apply_checked(engine, state, ("answer",), ("lay", "country-brazil"))
    assert state.out[1] and state.closing and state.current_player() == 2 and state.round == 1
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    assert state.current_player() == 3
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    assert state.round == 2  # seat 3 sits before the starter: the lap is closed
    assert state.round_scores == [[2, 7, 1, 1]] and state.totals == [2, 7, 1, 1]
    assert state.starter == 2  # lowest total; of seats 2 and 3 the first after seat 0
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7] and state.used == 0


def test_points_format_ends_after_three_rounds_with_the_highest_total(game):
    engine = make_engine(game)
    state = position(engine, field=FR_FW_BALLON, hands=[["country-spain"], HAND], knowledge=[BALLON, 0])
    state.round, state.totals = 3, [5, 9]
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))
    assert not state.is_over() and state.current_player() == 1
    apply_checked(engine, state, ("answer",), ("lay", "country-italy"))
    assert state.is_over()
    outcome = state.outcome()
    assert state.round_scores == [[7, 1]] and outcome.scores == (12.0, 10.0) and outcome.winners == (0,)


# -- the simple variant ------------------------------------------------------------------------------


def test_simple_variant_lays_first_then_answers_and_costs_three(game):
    engine = make_engine(game, variant="simple")
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["fact-captain"], HAND])
    assert state.phase == LAY_FIRST
    apply_checked(engine, state, ("lay", "fact-captain"))
    assert state.phase == START and state.field[FACT].design == "fact-captain"
    apply_checked(engine, state, ("answer",))
    assert state.phase == LAY and len(state.hands[0]) == 5 + 3
    apply_checked(engine, state, ("lay", "country-italy"))
    assert state.current_player() == 1


def test_simple_variant_allows_naming_a_footballer_again(game):
    engine = make_engine(game, variant="simple")
    hand = HAND + ["country-france"]  # laying France on France keeps the field as it was
    state = position(engine, field=FR_FW_CAPTAIN, hands=[hand, hand], knowledge=[CAPTAIN, CAPTAIN])
    apply_checked(engine, state, ("lay", "country-france"), ("answer",))
    assert state.events["answers_right"] == 1 and state.current_player() == 1
    apply_checked(engine, state, ("lay", "country-france"), ("answer",))
    assert state.events["answers_right"] == 2 and state.named == "fr-forward-captain"


def test_simple_variant_transfer_is_played_instead_of_laying_and_the_receiver_answers_it_first(game):
    # the seed's Transfer: «обычную не кладёшь» in the simple variant too (clarification
    # 'simple-transfer'); the receiver answers the same combination, in the standard order
    engine = make_engine(game, variant="simple")
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["fact-captain", "action-transfer"], HAND],
                     knowledge=[0, BALLON])
    assert state.phase == LAY_FIRST and ("transfer",) in state.legal_moves()
    apply_checked(engine, state, ("transfer",))
    assert "fact-captain" in designs(engine, state.hands[0]) and len(state.hands[0]) == 6  # no ordinary card laid
    assert {group: card.design for group, card in state.field.items()} == {
        GEO: "country-france", POSITION: "position-forward", FACT: "fact-ballon-dor"}
    assert state.current_player() == 1 and state.phase == START  # no card laid first
    apply_checked(engine, state, ("answer",))
    assert state.named and state.phase == LAY
    apply_checked(engine, state, ("lay", "country-italy"))
    assert state.current_player() == 0 and len(state.hands[1]) == 4


def test_simple_variant_no_transfer_once_the_card_is_laid(game):
    engine = make_engine(game, variant="simple")
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["fact-captain", "action-transfer"], HAND])
    apply_checked(engine, state, ("lay", "fact-captain"))
    assert state.phase == START and ("transfer",) not in state.legal_moves()


def test_simple_variant_receiver_without_an_answer_draws_the_standard_penalty(game):
    engine = make_engine(game, variant="simple")
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["fact-captain", "action-transfer"], HAND])
    apply_checked(engine, state, ("transfer",), ("answer",))
    assert state.phase == LAY and len(state.hands[1]) == 5 + 2


def test_simple_variant_greedy_transfers_instead_of_laying_when_no_lay_leaves_a_known_name(game):
    engine = make_engine(game, variant="simple")
    bot = engine.bots()["greedy"]
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["action-transfer"], HAND], knowledge=[0, 0])
    assert bot(state, random.Random(1)) == ("transfer",)
    hand = HAND + ["country-france", "action-transfer"]  # France on France keeps a field it can answer
    state = position(engine, field=FR_FW_BALLON, hands=[hand, HAND], knowledge=[BALLON, 0])
    assert bot(state, random.Random(1)) == ("lay", "country-france")


def test_a_tie_on_points_is_shared_by_every_seat_with_the_highest_total(game):
    # clarification 'points-tie'
    engine = make_engine(game)
    state = position(engine, field=FR_FW_BALLON, hands=[["country-spain"], HAND, ["country-italy"]],
                     knowledge=[BALLON, 0, 0])
    state.round, state.totals = 3, [5, 11, 5]
    apply_checked(engine, state, ("answer",), ("lay", "country-spain"))  # out: 7 points
    apply_checked(engine, state, ("answer",), ("lay", "country-italy"))  # no answer: 6 cards, 1 point
    apply_checked(engine, state, ("answer",))
    apply_checked(engine, state, state.legal_moves()[0])  # seat 2 closes the lap
    assert state.is_over() and state.totals[:2] == [12, 12] and state.totals[2] < 12
    assert state.outcome().winners == (0, 1)


# -- bots ------------------------------------------------------------------------------------------


def test_greedy_blocks_when_only_two_cards_have_an_answer_and_transfers_when_nothing_does(engine):
    bot = engine.bots()["greedy"]
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["action-block", "action-transfer"], HAND],
                     knowledge=[CAPTAIN, 0])
    assert bot(state, random.Random(1)) == ("block", FACT)
    state = position(engine, field=FR_FW_BALLON, hands=[HAND + ["action-block", "action-transfer"], HAND],
                     knowledge=[KEEPER, 0])
    assert bot(state, random.Random(1)) == ("transfer",)


def test_greedy_lays_the_hardest_live_field_for_the_next_player(engine):
    bot = engine.bots()["greedy"]
    state = position(engine, field=FR_FW_CAPTAIN, hands=[HAND, HAND], knowledge=[CAPTAIN, 0])
    apply_checked(engine, state, ("answer",))
    move = bot(state, random.Random(1))
    counts = {m[1]: state.field_answers({**state.field, engine.design_group[m[1]]:
                                        engine.cards[next(l for l in state.hands[0] if l.startswith(m[1]))]})
              for m in state.legal_moves()}
    live = {d: c for d, c in counts.items() if c}
    assert counts[move[1]] == min(live.values())


# -- whole games --------------------------------------------------------------------------------------

OPTIONS = [{}, {"format": "knockout"}, {"variant": "simple"}, {"format": "knockout", "variant": "simple"}]


_ENGINES: dict[int, HeadGameEngine] = {}


def engine_with(number: int) -> HeadGameEngine:
    """Engines of the property test, built once: hypothesis shows the option set by number."""
    if number not in _ENGINES:
        _ENGINES[number] = HeadGameEngine(load_game(CONTENT), OPTIONS[number], base=BASE, on=AS_OF)
    return _ENGINES[number]


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), bot=st.sampled_from(["greedy", "random"]),
       options=st.integers(0, len(OPTIONS) - 1))
def test_any_seed_plays_to_the_end_under_every_invariant(seed, players, bot, options):
    engine = engine_with(options)
    played = play_checked(engine, players, seed, bot, CheckPolicy(clone_every=20))
    state = played.state
    outcome = state.outcome()
    if engine.format == "points":
        assert state.events["rounds"] == 3 and sum(map(sum, state.round_scores)) == sum(state.totals)
    else:
        assert sorted(outcome.ranking) == list(range(players))
        assert len(state.places) == players - 1 or state.events["turn_limit_reached"] == 1
    assert replay(engine, players, seed, played.moves) == state


GOLDEN_CASES = {
    "head-game-3p-seed21-greedy-points": (3, 21, "greedy", {}),
    "head-game-4p-seed22-random-knockout": (4, 22, "random", {"format": "knockout"}),
    "head-game-2p-seed23-greedy-simple": (2, 23, "greedy", {"variant": "simple"}),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_replay(game, name):
    players, seed, bot, options = GOLDEN_CASES[name]
    engine = HeadGameEngine(game, options, base=BASE, on=AS_OF)
    path = GOLDEN / f"{name}.json"
    if os.environ.get("CARDGEN_UPDATE_GOLDEN") or not path.exists():
        played = play_checked(engine, players, seed, bot)
        write_replay(path, replay_record(engine, players, seed, played.moves))
    golden = read_replay(path)
    state = replay(engine, players, seed, golden["moves"])
    assert state.to_dict() == golden["final"]
    assert list(state.outcome().winners) == golden["outcome"]["winners"]


# -- cardgen answers -----------------------------------------------------------------------------


def test_answers_lists_the_real_ballon_dor_forwards_of_brazil():
    from click.testing import CliRunner

    from cardgen.cli import cli

    result = CliRunner().invoke(cli, ["--content", str(CONTENT.parent), "answers", "head-game",
                                      "--geo", "Brazil", "--position", "Forward", "--fact", "Ballon d'Or"])
    assert result.exit_code == 0, result.output
    assert "Ronaldinho" in result.output and "Rivaldo" in result.output


def test_answers_reports_the_coverage_of_every_field_as_json():
    import json

    from click.testing import CliRunner

    from cardgen.cli import cli

    result = CliRunner().invoke(cli, ["--content", str(CONTENT.parent), "answers", "head-game", "--json", "--date", "as-of"])
    assert result.exit_code == 0, result.output
    coverage = json.loads(result.output)["coverage"]
    assert sum(coverage["fields"].values()) == 13 * 4 * 16
    assert abs(sum(coverage["dealt_share"].values()) - 1) < 1e-3
    assert sum(coverage["fact_cards"].values()) == 30


def test_answers_refuses_an_unknown_card():
    from click.testing import CliRunner

    from cardgen.cli import cli

    result = CliRunner().invoke(cli, ["--content", str(CONTENT.parent), "answers", "head-game", "--fact", "world peace"])
    assert result.exit_code == 2 and "unknown fact card" in result.output


def test_position_codes_follow_the_seeds_notation_in_every_language(game):
    """Issue 26: the seed's codes are the Russian FIFA notation (ФРВ = striker, ЦФД = centre
    forward, ЛФА/ПФА = wingers); every language prints as many codes, in the same order, and the
    striker is a striker's code (not "SS", a second striker, nor "HS", a hanging striker)."""
    striker = {"ru": "ФРВ", "en": "ST", "de": "ST"}
    for language in ("ru", "en", "de"):
        for position in ("goalkeeper", "defender", "midfielder", "forward"):
            codes = game.text(f"card.position-{position}.codes", language)
            assert len(codes.split(", ")) == len(game.text(f"card.position-{position}.codes", "ru").split(", "))
        forward = game.text("card.position-forward.codes", language).split(", ")
        assert forward[0] == striker[language], (language, forward)
        assert not {"SS", "HS"} & set(forward)
