"""Reference engine of «Himmel, A... und Zwirn» (himmel), 3 to 6 players.

Rules: seed 002 plus the clarifications and rule options in
``content/himmel``.  The deck and the hand size come from the content.

A move is a tuple, sorted by its first item:

* ``("number", card, pile)`` plays a number between the pile's top and target;
* ``("raise", special, pile, card)`` plays "raise target" with a higher number;
* ``("reverse", special)`` turns the direction arrow;
* ``("steal", special, victim)`` takes a random card from the victim's hand;
* ``("take", new_target)`` takes the marked pile into the dung heap and sets
  ``new_target`` (a number card from the hand, or ``""`` when the hand has
  none or the deck is empty, in which case the take ends the game).

Only the first copy of each special kind in a hand is offered, since copies
play alike.  Rule options read from ``self.options``: ``take-when``, ``refill``, ``target-to-heap``, ``specials-count``.
"""

from __future__ import annotations

from bisect import insort
import random
import sys
from typing import Any, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Bot, Engine, EventRandom, GameState, Outcome, play_out_own_bots, random_bot
from cardgen.errors import ContentError, Locator, SimulationError

NUMBER_GROUP = "number"
SPECIAL_GROUP = "special"
TOKEN_GROUP = "token"
VALUE_ATTR = "value"
SPECIAL_ATTR = "special"
REVERSE, STEAL, RAISE = "reverse", "steal", "raise-target"
MOVE_OF_SPECIAL = {REVERSE: "reverse", STEAL: "steal", RAISE: "raise"}
NO_CARD = ""

Move = tuple
_TAKE_NO_CARD: Move = ("take", NO_CARD)


class HimmelEngine(Engine):
    id = "himmel"
    event_names = (
        "numbers_played", "specials_played", "reverses", "steals", "raises", "takes",
        "taken_cards", "stuck_takes", "voluntary_takes", "targets_from_deck", "unbounded_targets",
        "special_target_reshuffles", "reshuffles", "shuffles",
    )

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None):
        super().__init__(game, options)
        self.hand_size = int(self.setting("hand_size"))
        self.targets = int(self.setting("targets"))
        self.value_of: dict[str, int] = {}  # number cards only
        self.special_of: dict[str, str] = {}  # special cards only
        self.tokens: list[str] = []
        deck: list[str] = []
        for physical in game.physical_cards():
            # interned: the simulation's card check then matches labels by identity
            card, label = physical.card, sys.intern(physical.label)
            if card.group == NUMBER_GROUP:
                self.value_of[label] = int(card.attrs[VALUE_ATTR])
                deck.append(label)
            elif card.group == SPECIAL_GROUP:
                self.special_of[label] = str(card.attrs[SPECIAL_ATTR])
                deck.append(label)
            else:
                self.tokens.append(label)
        self.deck_cards: tuple[str, ...] = tuple(deck)
        unknown = sorted(set(self.special_of.values()) - set(MOVE_OF_SPECIAL))
        if unknown:  # the move generator knows exactly these three kinds
            raise ContentError(
                f"himmel has no rule for special kind(s) {', '.join(unknown)}; known: {', '.join(MOVE_OF_SPECIAL)}",
                Locator(file=game.root / "cards.yaml"),
            )
        # Bounds below and above every number: the open interval of a pile
        # with no top card or no target.
        self.no_floor = min(self.value_of.values(), default=0) - 1
        self.no_ceiling = max(self.value_of.values(), default=0) + 1
        self._place_names: dict[int, tuple[str, ...]] = {}
        self.take_any_time = self.options["take-when"] == "any-time"
        self.refill_to_hand_size = self.options["refill"] == "to-hand-size"
        self.target_to_heap = bool(self.options["target-to-heap"])
        self.specials_count = bool(self.options["specials-count"])
        # The moves of each number card, built once: the move generator hands
        # out these (immutable) tuples instead of building new ones every move.
        self.number_moves: dict[str, tuple[Move, ...]] = {
            card: tuple(("number", card, pile) for pile in range(self.targets)) for card in self.value_of
        }
        self.take_moves: dict[str, Move] = {card: ("take", card) for card in self.value_of}
        #: card -> (value, its number moves, its take move) for a number,
        #: (None, kind, None) for a special: one dict read per card of the hand
        self.hand_card: dict[str, tuple] = {
            **{card: (value, self.number_moves[card], self.take_moves[card]) for card, value in self.value_of.items()},
            **{card: (None, kind, None) for card, kind in self.special_of.items()},
        }
        #: every card's value, 0 for a special (below every target)
        self.value_or_zero: dict[str, int] = {card: self.value_of.get(card, 0) for card in self.deck_cards}
        # The specials' moves, built once (steals: one per possible victim).
        self.reverse_moves: dict[str, Move] = {card: ("reverse", card) for card in self.special_of}
        self.steal_moves: dict[str, tuple[Move, ...]] = {
            card: tuple(("steal", card, victim) for victim in range(game.meta.players.max)) for card in self.special_of
        }

    def place_names(self, players: int) -> tuple[str, ...]:
        names = self._place_names.get(players)
        if names is None:
            names = (
                "deck",
                *(f"hand{p}" for p in range(players)),
                *(f"heap{p}" for p in range(players)),
                *(f"pile{i}" for i in range(self.targets)),
                *(f"target{i}" for i in range(self.targets)),
                "out",
            )
            self._place_names[players] = names
        return names

    def move_bound(self, players: int) -> int:
        # Nearly every turn draws a card from the deck; once it is empty every
        # turn but the last empties a hand slot.  The factor 4 leaves room for
        # takes and steals that draw nothing.
        return 4 * (len(self.deck_cards) + players * self.hand_size)

    def new_game(self, players: int, seed: int) -> "HimmelState":
        low, high = self.game.meta.players.min, self.game.meta.players.max
        if not low <= players <= high:
            raise SimulationError(f"himmel is for {low} to {high} players, not {players}")
        return HimmelState(self, players, seed)

    def bots(self) -> dict[str, Bot]:
        return {"random": random_bot, "greedy": greedy_bot}


class HimmelState(GameState):
    rng_class = EventRandom  # chance only at shuffles and steals: cheap to clone
    engine: HimmelEngine

    def __init__(self, engine: HimmelEngine, players: int, seed: int, *, deal: bool = True):
        super().__init__(engine, players, seed)
        self.deck: list[str] = []  # top is the end
        self.hands: list[list[str]] = [[] for _ in range(players)]  # kept sorted
        self.piles: list[list[str]] = [[] for _ in range(engine.targets)]
        self.target_stacks: list[list[str]] = [[] for _ in range(engine.targets)]  # [-1] is the target
        self.heaps: list[list[str]] = [[] for _ in range(players)]
        self.out_of_play: list[str] = []
        self.marker = 0  # the pile a take takes
        self.direction = 1  # +1 clockwise (the arrow), -1 after a reverse
        self.to_move = 0
        self.over = False
        self._legal: list[Move] | None = None
        if deal:
            self._deal()

    def _deal(self) -> None:
        engine = self.engine
        self.deck = list(engine.deck_cards)
        self.shuffle(self.deck, "deal")
        for _ in range(engine.hand_size):
            for hand in self.hands:
                hand.append(self.deck.pop())
        for hand in self.hands:
            hand.sort()
        for stack in self.target_stacks:  # laid left to right in the order drawn
            stack.append(self._starting_target())
        # Clarification marker-start: the first target drawn, which is also the
        # left one, since the targets are laid left to right as they are drawn.
        self.marker = 0

    def _starting_target(self) -> str:
        """Turn up a number for a starting target (clarification special-as-target:
        a special turned up is shuffled back into the deck)."""
        while True:
            card = self.deck.pop()
            if card in self.engine.value_of:
                return card
            self.deck.append(card)
            self.shuffle(self.deck, "reshuffle special turned up as a target")
            self.events["special_target_reshuffles"] += 1

    # -- contract --------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_over(self) -> bool:
        return self.over

    def moves(self) -> list[Move]:
        """The legal moves, typed as the tuples they are."""
        legal = self._legal
        if legal is None:  # computed once per position: the bot, apply and the checks share it
            legal = self._legal = self._compute_legal()
        return legal.copy()

    legal_moves = moves  # the contract's name; one call less on every move

    def _compute_legal(self) -> list[Move]:
        """The moves, built directly in sorted order (no sort needed).

        The hand is kept sorted, so going through it card by card and pile by
        pile gives the number moves in order; then come the kinds in their
        sorted order: "raise" < "reverse" < "steal" < "take".  The simulation
        checks after every move that the list is sorted.
        """
        if self.over:
            return []
        engine = self.engine
        player = self.to_move
        hand = self.hands[player]
        piles = self.piles
        if len(piles) == 2:
            # The content's two piles, unrolled: their bounds in locals, no
            # loop over the piles per card (its iterator, the tuple unpacking),
            # since this runs every move; _number_plays does any count of piles.
            value_of = engine.value_of
            hand_card = engine.hand_card
            no_floor, no_ceiling = engine.no_floor, engine.no_ceiling
            (cards0, cards1), (stack0, stack1) = piles, self.target_stacks
            low0 = value_of[cards0[-1]] if cards0 else no_floor
            high0 = value_of[stack0[-1]] if stack0 else no_ceiling
            low1 = value_of[cards1[-1]] if cards1 else no_floor
            high1 = value_of[stack1[-1]] if stack1 else no_ceiling
            plays: list[Move] = []
            takes: list[Move] = []  # a take per number card of the hand, in hand order
            raise_card = reverse_card = steal_card = None  # the first of each kind in the hand
            for card in hand:
                value, moves, take = hand_card[card]
                if value is None:  # a special: ``moves`` is its kind
                    if moves == REVERSE:
                        if reverse_card is None:
                            reverse_card = card
                    elif moves == STEAL:
                        if steal_card is None:
                            steal_card = card
                    elif raise_card is None:  # raise-target, the third kind (the engine knows no other)
                        raise_card = card
                    continue
                takes.append(take)
                if low0 < value < high0:
                    plays.append(moves[0])
                if low1 < value < high1:
                    plays.append(moves[1])
        else:
            plays, takes, first_of_kind = self._number_plays(hand)
            raise_card, reverse_card, steal_card = (first_of_kind.get(kind) for kind in (RAISE, REVERSE, STEAL))
        # The specials' moves inline (a call less on most moves), kinds in
        # their moves' sorted order: "raise" < "reverse" < "steal".
        if raise_card is not None:
            self._add_raise_moves(plays, player, raise_card)
        if reverse_card is not None:
            plays.append(engine.reverse_moves[reverse_card])
        if steal_card is not None:  # clarification steal-victim: any opponent with cards in hand
            steals = engine.steal_moves[steal_card]
            victim = 0
            for other in self.hands:
                if other and victim != player:
                    plays.append(steals[victim])
                victim += 1
        if engine.take_any_time or not plays:
            if takes and self.deck:
                plays += takes
            else:  # no number to set as the new target, or the last take (the deck is empty) needs none
                plays.append(_TAKE_NO_CARD)
        return plays

    def _number_plays(self, hand: list[str]) -> tuple[list[Move], list[Move], dict[str, str]]:
        """The number moves of ``hand`` on any count of piles, in sorted order,
        its takes (one per number card, in hand order) and the first card of
        each special kind in it."""
        engine = self.engine
        hand_card = engine.hand_card
        intervals = [(pile, *self._open_interval(pile)) for pile in range(len(self.piles))]
        plays: list[Move] = []
        takes: list[Move] = []
        first_of_kind: dict[str, str] = {}
        for card in hand:
            value, moves, take = hand_card[card]
            if value is None:  # a special: ``moves`` is its kind
                first_of_kind.setdefault(moves, card)
                continue
            takes.append(take)
            for pile, low, high in intervals:
                if low < value < high:
                    plays.append(moves[pile])
        return plays, takes, first_of_kind

    def _add_raise_moves(self, plays: list[Move], player: int, card: str) -> None:
        """Raise target: a number above the chosen pile's target."""
        value_of, value_or_zero = self.engine.value_of, self.engine.value_or_zero
        hand = self.hands[player]
        pile = 0
        for stack in self.target_stacks:
            if stack:  # a pile without a target has nothing to raise
                target = value_of[stack[-1]]
                for number in hand:
                    if value_or_zero[number] > target:
                        plays.append(("raise", card, pile, number))
            pile += 1

    def fits(self, pile: int, value: int) -> bool:
        """A number fits above the pile's top card and below its target (if any)."""
        low, high = self._open_interval(pile)
        return low < value < high

    def _open_interval(self, pile: int) -> tuple[int, int]:
        """The values a number must lie strictly between to fit on ``pile``."""
        engine = self.engine
        cards, stack = self.piles[pile], self.target_stacks[pile]
        low = engine.value_of[cards[-1]] if cards else engine.no_floor
        high = engine.value_of[stack[-1]] if stack else engine.no_ceiling
        return low, high

    def apply(self, move: Any) -> None:
        if self._legal is None:
            self._legal = self._compute_legal()
        legal = self._legal
        if move not in legal:
            raise SimulationError(f"illegal move {move!r}; legal: {legal}")
        self._play(move, legal)

    def play_out(self, choose: Bot, rng: random.Random, bound: int) -> int:
        return play_out_own_bots(self, choose, rng, bound, greedy=greedy_bot, greedy_move=_cheapest_move,
                                 legal_of=self._compute_legal, play=self._play)

    def _play(self, move: Move, legal: list[Move]) -> None:
        """Play ``move``, one of the ``legal`` moves of this position."""
        self.turn += 1
        self._legal = None
        player = self.to_move
        hand = self.hands[player]
        kind = move[0]
        # A number and the refill inline: one or the other runs on every move.
        if kind == "number":
            _, card, pile = move
            hand.remove(card)
            self.piles[pile].append(card)
            self.events["numbers_played"] += 1
        elif kind == "take":
            # Stuck: nothing but takes was legal (takes sort last).
            self._take(player, move[1], stuck=legal[0][0] == "take")
            if self.over:
                return
        else:
            _PLAYS[kind](self, player, move)
        deck = self.deck
        if deck:
            engine = self.engine
            wanted = engine.hand_size - len(hand)
            if wanted > 1 and not engine.refill_to_hand_size:
                wanted = 1  # clarification refill: one card, never above the hand size
            if wanted == 1:  # the common case: one card played, one drawn
                insort(hand, deck.pop())  # keeps the hand sorted, as _insert does
            else:
                while wanted > 0 and deck:
                    insort(hand, deck.pop())
                    wanted -= 1
        self.to_move = (player + self.direction) % self.players

    def outcome(self) -> Outcome:
        scores = tuple(float(self.dung_points(p)) for p in range(self.players))
        best = min(scores)
        winners = tuple(p for p, s in enumerate(scores) if s == best)
        ranking = tuple(sorted(range(self.players), key=lambda p: (scores[p], p)))
        reason = "shared win" if len(winners) > 1 else "fewest dung points"
        return Outcome(winners, scores, draw=False, ranking=ranking, reason=reason)

    def dung_points(self, player: int) -> int:
        """Cards in the heap; specials only under ``specials-count: true``."""
        heap = self.heaps[player]
        if self.engine.specials_count:
            return len(heap)
        return sum(1 for card in heap if card in self.engine.value_of)

    def card_places(self) -> dict[str, list[str]]:
        places = dict(zip(self.engine.place_names(self.players), self.card_lists()))
        places["tokens"] = list(self.engine.tokens)  # the arrow and the marker never leave the table
        return places

    def card_lists(self) -> list[list[str]]:
        """The lists of ``card_places()`` in its order, tokens last (not to be changed)."""
        return [self.deck, *self.hands, *self.heaps, *self.piles, *self.target_stacks, self.out_of_play, self.engine.tokens]

    def snapshot(self) -> tuple:
        """Everything ``to_dict()`` holds, as tuples (place names are fixed)."""
        places = tuple(map(tuple, self.card_lists()))
        return (places, self.marker, self.direction, self.to_move, self.over, self.turn)

    def standing(self) -> tuple[int, ...]:
        return tuple(-self.dung_points(p) for p in range(self.players))  # the fewest dung points leads

    def to_dict(self) -> dict[str, Any]:
        return {
            "places": {name: list(cards) for name, cards in self.card_places().items()},
            "marker": self.marker,
            "direction": self.direction,
            "to_move": self.to_move,
            "over": self.over,
            "turn": self.turn,
        }

    def clone(self) -> "HimmelState":
        other = self.blank_copy()
        other.deck = list(self.deck)
        other.hands = [list(h) for h in self.hands]
        other.piles = [list(p) for p in self.piles]
        other.target_stacks = [list(t) for t in self.target_stacks]
        other.heaps = [list(h) for h in self.heaps]
        other.out_of_play = list(self.out_of_play)
        other.marker = self.marker
        other.direction = self.direction
        other.to_move = self.to_move
        other.over = self.over
        other._legal = None
        return other

    # -- moves -----------------------------------------------------------------------
    def _play_reverse(self, player: int, move: Move) -> None:
        self._discard_special(player, move[1])
        self.direction = -self.direction
        self.events["reverses"] += 1

    def _play_steal(self, player: int, move: Move) -> None:
        _, card, victim = move
        self._discard_special(player, card)
        loot = self.hands[victim]
        stolen = loot.pop(self.rng.randrange(len(loot)))  # unseen: a random card
        self.log.append(("steal", victim))
        self._insert(self.hands[player], stolen)
        if self.deck:  # clarification robbed-empty-deck: nothing to draw from an empty deck
            self._insert(loot, self.deck.pop())
        self.events["steals"] += 1

    def _play_raise(self, player: int, move: Move) -> None:
        _, card, pile, number = move
        self._discard_special(player, card)
        self.hands[player].remove(number)
        self.target_stacks[pile].append(number)  # the old target stays underneath
        self.events["raises"] += 1

    def _discard_special(self, player: int, card: str) -> None:
        self.hands[player].remove(card)
        self.heaps[player].append(card)
        self.events["specials_played"] += 1

    def _take(self, player: int, new_target: str, *, stuck: bool) -> None:
        pile = self.marker
        taken = self.piles[pile] + (self.target_stacks[pile] if self.engine.target_to_heap else [])
        self.heaps[player].extend(taken)
        if not self.engine.target_to_heap:
            self.out_of_play.extend(self.target_stacks[pile])
        self.events["takes"] += 1
        self.events["taken_cards"] += len(taken)
        self.events["stuck_takes" if stuck else "voluntary_takes"] += 1
        self.piles[pile] = []
        self.target_stacks[pile] = []
        self.marker = (pile + 1) % len(self.piles)
        if not self.deck:  # the deck is used up and the marked pile taken: the end
            self.over = True
            return
        if new_target:
            self.hands[player].remove(new_target)
            self.target_stacks[pile].append(new_target)
        else:
            self._target_from_deck(pile)

    def _target_from_deck(self, pile: int) -> None:
        """Clarification new-target-no-number: turn up deck cards until a number,
        specials going under the deck; no number left means no upper bound."""
        value_of = self.engine.value_of
        for _ in range(len(self.deck)):
            card = self.deck.pop()
            if card in value_of:
                self.target_stacks[pile].append(card)
                self.events["targets_from_deck"] += 1
                return
            self.deck.insert(0, card)
        self.events["unbounded_targets"] += 1

    @staticmethod
    def _insert(hand: list[str], card: str) -> None:
        insort(hand, card)  # keeps the hand sorted (labels are unique)


_PLAYS = {
    "reverse": HimmelState._play_reverse,
    "steal": HimmelState._play_steal,
    "raise": HimmelState._play_raise,
}


# -- bots ----------------------------------------------------------------------------------


def greedy_bot(state: GameState, rng: random.Random) -> Any:
    """Plays the move that costs least now; the first such move on ties.

    A number costs the room it wastes on its pile (its distance above the top
    card, a tenth of a point per step); a special costs the dung point it adds
    (a steal a little less, since it brings a card); a take costs the cards it
    takes.  It sees only its hand, the piles and the heaps.
    """
    assert isinstance(state, HimmelState)
    return _cheapest_move(state, state.moves())


def _cheapest_move(state: HimmelState, legal: list[Move]) -> Move:
    """The greedy bot's choice among the ``legal`` moves."""
    engine = state.engine
    value_of = engine.value_of
    # Numbers and takes are most of the list: their costs (move_cost's
    # formulas) from the piles' top values and the marked pile's size,
    # looked up once per position.
    floors = [value_of[cards[-1]] if cards else 0 for cards in state.piles]
    marked = state.marker
    take_size = len(state.piles[marked]) + (len(state.target_stacks[marked]) if engine.target_to_heap else 0)
    best_move, best_cost = None, float("inf")
    for move in legal:
        kind = move[0]
        if kind == "number":
            cost = 0.1 * (value_of[move[1]] - floors[move[2]])
        elif kind == "take":  # no new target ("") counts as 0
            cost = take_size - 0.01 * value_of.get(move[1], 0)
        else:
            cost = move_cost(state, move)
        if cost < best_cost:
            best_move, best_cost = move, cost
    return best_move


def move_cost(state: HimmelState, move: Move) -> float:
    engine = state.engine
    kind = move[0]
    special_point = 1.0 if engine.specials_count else 0.0
    if kind == "number":
        _, card, pile = move
        top = state.piles[pile][-1] if state.piles[pile] else None
        floor = engine.value_of[top] if top else 0
        return 0.1 * (engine.value_of[card] - floor)
    if kind == "take":
        pile = state.marker
        size = len(state.piles[pile]) + (len(state.target_stacks[pile]) if engine.target_to_heap else 0)
        new_target = engine.value_of.get(move[1], 0) if move[1] else 0
        return size - 0.01 * new_target  # the highest number in hand leaves most room
    if kind == "steal":
        return special_point + 0.5
    if kind == "raise":
        return special_point + 1.5 + 0.01 * engine.value_of[move[3]]
    return special_point + 1.0  # reverse
