"""Engine of Tricks, the worked example of a cardgen engine plug-in.

Twelve cards, red and blue 1 to 6, dealt out to 2, 3 or 4 players.  The
leader plays a card, every other player plays one in seat order, and the
highest value takes the trick (of equal values, the first or the last played,
by the rule option ``ties``); with ``follow-suit`` a player must play the
colour led when they hold it.  The taker leads the next trick.  When the
hands are empty, the seats with the most tricks win; a tie for the most is a
draw.

A move is the label of the card to play; the engine reads the deck from the
game's ``cards.yaml``, never from a list in code.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Bot, Engine, EventRandom, GameState, Outcome, random_bot
from cardgen.errors import ContentError, Locator, SimulationError


class TricksEngine(Engine):
    id = "tricks"
    event_names = ("ties_taken",)

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None):
        super().__init__(game, options)
        self.value_of: dict[str, int] = {}
        self.color_of: dict[str, str] = {}
        for physical in game.physical_cards():
            self.value_of[physical.label] = int(physical.card.attrs["value"])
            self.color_of[physical.label] = str(physical.card.attrs["color"])
        self.deck = tuple(self.value_of)
        self.follow_suit = bool(self.options["follow-suit"])
        self.last_of_equal_wins = self.options["ties"] == "last-played"

    def new_game(self, players: int, seed: int) -> "TricksState":
        meta = self.game.meta.players
        if not meta.min <= players <= meta.max or len(self.deck) % players:
            raise ContentError(
                f"tricks deals all {len(self.deck)} cards evenly: {players} players cannot play "
                f"(game.yaml allows {meta.min} to {meta.max})",
                Locator(file=self.game.root / "game.yaml", field="players"),
            )
        return TricksState(self, players, seed)

    def move_bound(self, players: int) -> int:
        return len(self.deck)  # one move per card

    def bots(self) -> dict[str, Bot]:
        return {"random": random_bot, "greedy": greedy_bot}


class TricksState(GameState):
    rng_class = EventRandom  # one shuffle a game

    def __init__(self, engine: TricksEngine, players: int, seed: int):
        super().__init__(engine, players, seed)
        deck = list(engine.deck)
        self.shuffle(deck, "deal")
        per_seat = len(deck) // players
        self.hands = [sorted(deck[seat * per_seat:(seat + 1) * per_seat]) for seat in range(players)]
        self.trick: list[tuple[int, str]] = []  # (seat, card) in the order played
        self.taken: list[list[str]] = [[] for _ in range(players)]
        self.leader = 0

    def current_player(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal_moves(self) -> list[str]:
        hand = self.hands[self.current_player()]
        if self.engine.follow_suit and self.trick:
            led = self.engine.color_of[self.trick[0][1]]
            following = [card for card in hand if self.engine.color_of[card] == led]
            if following:
                return following
        return list(hand)  # hands are kept sorted

    def apply(self, move: str) -> None:
        if move not in self.legal_moves():
            raise SimulationError(f"tricks: {move!r} is not a legal move for seat {self.current_player()}")
        self.hands[self.current_player()].remove(move)
        self.trick.append((self.current_player(), move))
        self.turn += 1
        if len(self.trick) == self.players:
            self.leader = self._taker()
            self.taken[self.leader].extend(card for _, card in self.trick)
            self.trick = []

    def _taker(self) -> int:
        value_of = self.engine.value_of
        best = max(value_of[card] for _, card in self.trick)
        equal = [seat for seat, card in self.trick if value_of[card] == best]
        if len(equal) > 1:
            self.events["ties_taken"] += 1
        return equal[-1] if self.engine.last_of_equal_wins else equal[0]

    def is_over(self) -> bool:
        return not self.trick and not any(self.hands)

    def tricks(self) -> list[int]:
        return [len(cards) // self.players for cards in self.taken]

    def outcome(self) -> Outcome:
        tricks = self.tricks()
        most = max(tricks)
        leaders = tuple(seat for seat, count in enumerate(tricks) if count == most)
        ranking = tuple(sorted(range(self.players), key=lambda seat: (-tricks[seat], seat)))
        if len(leaders) > 1:
            return Outcome((), tuple(map(float, tricks)), draw=True, ranking=ranking, reason="tie for most tricks")
        return Outcome(leaders, tuple(map(float, tricks)), ranking=ranking, reason="most tricks")

    def card_places(self) -> dict[str, list[str]]:
        places = {f"hand {seat + 1}": hand for seat, hand in enumerate(self.hands)}
        places["trick"] = [card for _, card in self.trick]
        places.update({f"taken {seat + 1}": cards for seat, cards in enumerate(self.taken)})
        return places

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": [list(hand) for hand in self.hands],
            "trick": [[seat, card] for seat, card in self.trick],
            "taken": [list(cards) for cards in self.taken],
            "leader": self.leader,
            "turn": self.turn,
        }

    def clone(self) -> "TricksState":
        other = self.blank_copy()
        other.hands = [list(hand) for hand in self.hands]
        other.trick = list(self.trick)
        other.taken = [list(cards) for cards in self.taken]
        other.leader = self.leader
        return other


def greedy_bot(state: GameState, rng: random.Random) -> str:
    """Take the trick with the lowest card that does, else throw the lowest card."""
    assert isinstance(state, TricksState)
    value_of = state.engine.value_of
    moves = state.legal_moves()
    best = max((value_of[card] for _, card in state.trick), default=0)
    winning = [card for card in moves if value_of[card] > best]
    pool = winning or moves
    return min(pool, key=lambda card: (value_of[card], card))
