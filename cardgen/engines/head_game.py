"""Reference engine of «Игра головой», the football trivia card game.

Every rule comes from the seed (000) and the clarifications in
``content/head-game``; the deck comes from ``cards.yaml``, the format
(points over 3 rounds, or knock-out) and the variant (standard or simple)
are rule options.

Naming a footballer is modelled by knowledge, not by a quiz: at the deal each
seat knows a random share (``bot_knowledge``) of the reference base of real
footballers (:mod:`cardgen.engines.footballers`).  When a seat answers, each
unused player it knows who matches the field is recalled within the 30
seconds with probability ``bot_recall``; Fergie Time gives every such player
a second chance; a Block leaves only two field cards to match.  All of that is
drawn from the state's RNG, so (seed, moves) replays a game exactly.

A turn is a small state machine with one decision per move:

``lay-first``  simple variant: lay a card before answering, or play a Transfer instead
               (who transfers lays no ordinary card); not when the field came by
               Transfer: it is answered as passed, clarification 'simple-transfer';
``start``      answer, answer under a Block, answer with Fergie Time from the start,
               or pass the field on (Transfer; never a field that came by Transfer, and
               not after laying first: clarifications 'transfer-again', 'transfer-turn');
``fergie``     no answer came in the main time: play Fergie Time in its last
               seconds, or not;
``lay``        lay one regular card onto the field card of its type;
``punish``     after a right answer: play a Yellow or a Red card on the next player.

Played actions other than Block go to ``action_pile``, which is never reshuffled into
the deck (clarification 'action-pile'); a Transfer may be the last card (clarification
'last-card-transfer').

Players are matched quickly with bit masks: bit ``i`` stands for the base's
``i``-th player, and the answers to a field are the AND of three masks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Bot, Engine, GameState, Move, Outcome, random_bot
from cardgen.engines.footballers import (
    CONTINENT_CARDS,
    AnswerIndex,
    COUNTRY_CARDS,
    FACTS,
    age_date,
    POSITION_CARDS,
    ReferenceBase,
    coverage_report,
    deck_weights,
    fact_value,
    load_reference_base,
    matches_geo,
    matches_position,
)
from cardgen.errors import ContentError, Locator, SimulationError

GEO, POSITION, FACT, ACTION = "geography", "position", "fact", "action"
FIELD_GROUPS = (FACT, GEO, POSITION)  # sorted: the order moves and the field are listed in
ACTIONS = ("block", "fergie-time", "transfer", "yellow", "red")

# phases of the turn machine
LAY_FIRST, START, FERGIE, LAY, PUNISH, OVER = "lay-first", "start", "fergie", "lay", "punish", "over"


@dataclass(frozen=True)
class HeadCard:
    """One physical card: its group and what it asks for (country, position, fact, action)."""

    label: str
    design: str
    group: str
    value: str


class AnswerMasks:
    """Bit masks of the base's players answering each card, on one date."""

    def __init__(self, base: ReferenceBase, on: date):
        self.players = base.players
        self.on = on
        continents = base.continent_map
        self.all = (1 << len(base.players)) - 1
        self.masks: dict[tuple[str, str], int] = {}
        for geo in COUNTRY_CARDS + CONTINENT_CARDS:
            self.masks[(GEO, geo)] = _mask(matches_geo(p, geo, continents) for p in base.players)
        for position in POSITION_CARDS:
            self.masks[(POSITION, position)] = _mask(matches_position(p, position) for p in base.players)
        for fact in FACTS:
            self.masks[(FACT, fact)] = _mask(fact_value(p, fact, on) is True for p in base.players)

    def field_mask(self, cards: Mapping[str, "HeadCard"], blocked: str = "") -> int:
        """Players answering every field card except the ``blocked`` group."""
        masks = self.masks
        mask = self.all
        for group, card in cards.items():
            if group != blocked:
                mask &= masks[(group, card.value)]
        return mask


def _mask(flags: Any) -> int:
    mask = 0
    for index, flag in enumerate(flags):
        if flag:
            mask |= 1 << index
    return mask


class HeadGameEngine(Engine):
    id: ClassVar[str] = "head-game"
    max_moves: ClassVar[int] = 20_000

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None, *,
                 base: ReferenceBase | None = None, on: date | None = None):
        super().__init__(game, options)
        self.format = str(self.options["format"])
        self.simple = self.options["variant"] == "simple"
        self.hand_size = int(self.setting("hand_size"))
        self.rounds = int(self.setting("rounds")) if self.format == "points" else 1
        self.penalty = int(self.setting("penalty_no_answer"))
        self.penalty_simple = int(self.setting("penalty_no_answer_simple"))
        self.penalty_offside = int(self.setting("penalty_offside"))
        self.draws = {"yellow": int(self.setting("yellow_draw")), "red": int(self.setting("red_draw"))}
        self.offside_forget = float(self.setting("offside_forget_rate"))
        self.knowledge = float(self.setting("bot_knowledge"))
        self.recall = float(self.setting("bot_recall"))
        self.guess = float(self.setting("bot_guess_rate"))
        self.turn_limit = int(self.setting("turn_limit"))
        self.cards: dict[str, HeadCard] = {c.label: c for c in _cards(game)}
        self.base = base if base is not None else load_reference_base(
            game.data_path("players"), game.data_path("countries"), display_root=game.display_root)
        self.on = on or age_date(str(self.setting("age_date")), self.base)
        self.answers = AnswerMasks(self.base, self.on)
        # per label lookups, so that the hot paths never touch the content model
        self.design_of = {label: card.design for label, card in self.cards.items()}
        self.action_of = {label: card.value for label, card in self.cards.items() if card.group == ACTION}
        self.design_group = {card.design: card.group for card in self.cards.values()}
        self.design_mask = {card.design: self.answers.masks[(card.group, card.value)]
                            for card in self.cards.values() if card.group != ACTION}

    def content_report(self) -> dict[str, Any]:
        """The answer coverage of the deck's fields on the engine's date."""
        index = AnswerIndex(self.base, self.on)
        return {"coverage": {"date": self.on.isoformat(), **coverage_report(index, deck_weights(self.game))}}

    def new_game(self, players: int, seed: int) -> "HeadGameState":
        return HeadGameState(self, players, seed)

    def move_bound(self, players: int) -> int:
        return self.max_moves

    def bots(self) -> dict[str, Bot]:
        return {"random": random_bot, "greedy": greedy_bot}


def _cards(game: Game) -> list[HeadCard]:
    cards = []
    for physical in game.physical_cards():
        card = physical.card
        attribute = {GEO: card.kind or "", POSITION: "position", FACT: "fact", ACTION: "action"}.get(card.group)
        value = card.attrs.get(attribute or "")
        if value is None:
            raise ContentError(f"head-game cannot read card '{card.id}' of group '{card.group}'",
                               Locator(file=game.root / "cards.yaml", card=card.id))
        cards.append(HeadCard(physical.label, card.id, card.group, str(value)))
    return cards


class HeadGameState(GameState):
    """One game of «Игра головой» in progress."""

    engine: HeadGameEngine

    def __init__(self, engine: HeadGameEngine, players: int, seed: int):
        super().__init__(engine, players, seed)
        meta = engine.game.meta
        if not meta.players.min <= players <= meta.players.max:
            raise SimulationError(f"head-game is for {meta.players.min}-{meta.players.max} players, not {players}")
        # each seat knows its own share of the base for the whole game
        keep, random_ = engine.knowledge, self.rng.random
        self.knowledge = [_mask(random_() < keep for _ in engine.base.players) for _ in range(players)]
        self.totals = [0] * players
        self.round_scores: list[list[int]] = []
        self.round = 0
        self.starter = 0
        self.places: list[int] = []  # knock-out: seats in the order they went out
        self._deal(starter=0)

    # -- dealing and rounds -------------------------------------------------------
    def _deal(self, starter: int) -> None:
        """A fresh round: one card of each field type face down, the rest shuffled, 7 each."""
        labels = sorted(self.engine.cards)
        self.shuffle(labels, "deal")
        self.field: dict[str, HeadCard] = {}
        for label in list(labels):
            card = self.engine.cards[label]
            if card.group in FIELD_GROUPS and card.group not in self.field:
                self.field[card.group] = card
                labels.remove(label)
        self.field = {group: self.field[group] for group in FIELD_GROUPS}
        self.deck: list[str] = labels
        self.discard: list[str] = []
        # played actions other than Block: the seed's separate pile under the field, out of
        # the reshuffle (clarification 'action-pile')
        self.action_pile: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        for _ in range(self.engine.hand_size):
            for seat in range(self.players):
                self.hands[seat].append(self.deck.pop())
        self.out = [False] * self.players
        self.skips = [0] * self.players
        self.used = 0  # players named this round (this game in knock-out)
        self.closing = False  # points format: someone went out, the lap is being closed
        self.transfer_origin = -1  # seat that passed the current field on by Transfer, or -1
        self.named = ""  # the last footballer named right
        self.round += 1
        self.round_turns = 0
        self.starter = starter
        self.events["rounds"] += 1
        self._begin_turn(starter)

    def _begin_turn(self, seat: int) -> None:
        self.round_turns += 1
        self.mover = seat
        self.blocked = ""
        self.action_played = False
        self.answered_right = False
        self.laid_first = False
        self.events["turns"] += 1
        # a transferred field is answered as passed, so even in the simple variant the
        # receiver answers before laying (clarification 'simple-transfer')
        if self.engine.simple and self.transfer_origin < 0 and self._regular_designs():
            self.phase = LAY_FIRST
        else:
            self.phase = START

    # -- contract -----------------------------------------------------------------
    def current_player(self) -> int:
        return self.mover

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == LAY:
            return [("lay", design) for design in self._regular_designs()]
        if phase == LAY_FIRST:  # simple variant: a Transfer instead of laying (clarification simple-transfer)
            lays: list[Move] = [("lay", design) for design in self._regular_designs()]
            return lays + [("transfer",)] if self._holds("transfer") else lays
        if phase == FERGIE:
            return [("fergie-time",), ("pass",)]
        held = self._actions_held()
        if phase == PUNISH:
            return [("pass",)] + [(kind,) for kind in ("red", "yellow") if kind in held]
        moves: list[Move] = [("answer",)]
        if "block" in held:
            moves += [("block", group) for group in FIELD_GROUPS]
        if "fergie-time" in held:
            moves.append(("fergie-time",))
        # the receiver of a Transfer answers or takes the penalty, and who laid first has
        # laid an ordinary card (clarifications transfer-again, simple-transfer)
        if "transfer" in held and self.transfer_origin < 0 and not self.laid_first:
            moves.append(("transfer",))
        return moves

    def apply(self, move: Move) -> None:
        if self.phase == OVER:
            raise SimulationError(f"head-game: the game is over, cannot play {move!r}")
        if not (isinstance(move, tuple) and move and move[0] in _HANDLERS) or not self._allowed(move):
            raise SimulationError(f"head-game: illegal move {move!r} in phase '{self.phase}'")
        self.turn += 1
        _HANDLERS[move[0]](self, move)

    def _allowed(self, move: Move) -> bool:
        """``move in legal_moves()``, with lay moves checked without building the list."""
        if move[0] == "lay" and self.phase in (LAY, LAY_FIRST):
            design_of, action_of = self.engine.design_of, self.engine.action_of
            return len(move) == 2 and any(design_of[label] == move[1] and label not in action_of
                                          for label in self.hands[self.mover])
        return move in self.legal_moves()

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise SimulationError("head-game: the game is not over")
        seats = range(self.players)
        if self.engine.format == "knockout":
            # those still holding cards follow, fewest cards first (only at the turn limit are there several)
            ranking = tuple(self.places) + tuple(sorted((s for s in seats if s not in self.places),
                                                        key=lambda s: (len(self.hands[s]), s)))
            scores = tuple(float(self.players - 1 - ranking.index(s)) for s in seats)
            return Outcome(winners=(ranking[0],), scores=scores, ranking=ranking, reason="knock-out")
        best = max(self.totals)
        winners = tuple(s for s in seats if self.totals[s] == best)
        ranking = tuple(sorted(seats, key=lambda s: (-self.totals[s], s)))
        return Outcome(winners=winners, scores=tuple(float(t) for t in self.totals), ranking=ranking,
                       reason=f"points over {self.engine.rounds} rounds")

    def card_places(self) -> Mapping[str, list[str]]:
        places = {
            "deck": list(self.deck),
            "discard": list(self.discard),
            "action-pile": list(self.action_pile),
            "field": [card.label for card in self.field.values()],
        }
        for seat in range(self.players):
            places[f"seat{seat}.hand"] = list(self.hands[seat])
        return places

    def standing(self) -> tuple[int, ...]:
        if self.engine.format == "knockout":  # the fewest cards in hand leads
            return tuple(-len(hand) for hand in self.hands)
        return tuple(self.totals)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "head-game",
            "seed": self.seed,
            "players": self.players,
            "turn": self.turn,
            "round": self.round,
            "round_turns": self.round_turns,
            "starter": self.starter,
            "phase": self.phase,
            "mover": self.mover,
            "field": {group: card.label for group, card in self.field.items()},
            "blocked": self.blocked,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "action_pile": list(self.action_pile),
            "hands": [list(hand) for hand in self.hands],
            "out": list(self.out),
            "places": list(self.places),
            "skips": list(self.skips),
            "closing": self.closing,
            "transfer_origin": self.transfer_origin,
            "named": self.named,
            "action_played": self.action_played,
            "answered_right": self.answered_right,
            "laid_first": self.laid_first,
            "used": format(self.used, "x"),
            "knowledge": [format(k, "x") for k in self.knowledge],
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "events": dict(sorted(self.events.items())),
        }

    def clone(self) -> "HeadGameState":
        """Field-by-field copy: the same as the deep copy, far cheaper."""
        other = self.blank_copy()
        other.knowledge = list(self.knowledge)
        other.totals = list(self.totals)
        other.round_scores = [list(r) for r in self.round_scores]
        other.round = self.round
        other.starter = self.starter
        other.places = list(self.places)
        other.field = dict(self.field)
        other.deck = list(self.deck)
        other.discard = list(self.discard)
        other.action_pile = list(self.action_pile)
        other.hands = [list(hand) for hand in self.hands]
        other.out = list(self.out)
        other.skips = list(self.skips)
        other.used = self.used
        other.closing = self.closing
        other.transfer_origin = self.transfer_origin
        other.named = self.named
        other.round_turns = self.round_turns
        other.mover = self.mover
        other.blocked = self.blocked
        other.action_played = self.action_played
        other.answered_right = self.answered_right
        other.laid_first = self.laid_first
        other.phase = self.phase
        return other

    # -- queries the bots use -----------------------------------------------------
    def candidates(self, seat: int, blocked: str = "") -> int:
        """Mask of the players ``seat`` knows who answer the field and may still be named."""
        mask = self.engine.answers.field_mask(self.field, blocked) & self.knowledge[seat]
        return mask if self.engine.simple else mask & ~self.used

    def field_answers(self, field: Mapping[str, HeadCard]) -> int:
        """How many players of the whole base could still answer ``field``."""
        mask = self.engine.answers.field_mask(field)
        return (mask if self.engine.simple else mask & ~self.used).bit_count()

    def _regular_designs(self) -> list[str]:
        design_of, action_of = self.engine.design_of, self.engine.action_of
        return sorted({design_of[label] for label in self.hands[self.mover] if label not in action_of})

    def _holds(self, action: str) -> bool:
        return action in self._actions_held()

    def _actions_held(self) -> set[str]:
        action_of = self.engine.action_of
        return {action_of[label] for label in self.hands[self.mover] if label in action_of}

    def _may_punish(self) -> bool:
        """Yellow and Red only after a right answer, and only as the turn's one action."""
        return self.answered_right and not self.action_played and bool(
            self._actions_held() & {"yellow", "red"})

    # -- move handlers -------------------------------------------------------------
    def _answer(self, move: Move) -> None:
        self.transfer_origin = -1  # the field is being answered: it no longer came by Transfer
        if move[0] == "block":
            self._play_action("block")
            self.blocked = move[1]
            self.events["blocks"] += 1
        if self._recalls(attempts=1):
            self._right()
        elif not self.action_played and self._holds("fergie-time"):
            self.phase = FERGIE
        else:
            self._no_answer()

    def _fergie(self, move: Move) -> None:
        if self.phase == START:  # played as the answer begins: the whole minute at once
            self.transfer_origin = -1
            self._play_action("fergie-time")
            self.events["fergie_times"] += 1
            if self._recalls(attempts=2):
                self._right()
            else:
                self._no_answer()
            return
        if move[0] == "fergie-time":
            self._play_action("fergie-time")
            self.events["fergie_times"] += 1
            if self._recalls(attempts=1):  # the added 30 seconds: one more chance for each
                self.events["fergie_saves"] += 1
                self._right()
                return
        self._no_answer()

    def _pass(self, move: Move) -> None:
        if self.phase == FERGIE:
            self._fergie(move)
        else:
            self._punish(move)

    def _transfer(self, move: Move) -> None:
        self._play_action("transfer")
        self.events["transfers"] += 1
        self.transfer_origin = self.mover
        self._end_turn()

    def _lay(self, move: Move) -> None:
        design = move[1]
        cards = self.engine.cards
        hand = self.hands[self.mover]
        label = next(label for label in hand if cards[label].design == design)
        card = cards[label]
        self._leave_hand(label)
        self.discard.append(self.field[card.group].label)
        self.field[card.group] = card
        self.transfer_origin = -1  # a new field: it did not come by Transfer
        if self.phase == LAY_FIRST:
            self.laid_first = True
            self.phase = START
        elif self._may_punish():
            self.phase = PUNISH
        else:
            self._end_turn()

    def _punish(self, move: Move) -> None:
        kind = move[0]
        if kind in ("yellow", "red"):
            self._play_action(kind)
            self.events[f"{kind}s"] += 1
            victim = self._next_active(self.mover)
            if victim is not None:
                self._draw(victim, self.engine.draws[kind])
                self.skips[victim] += 1
        self._end_turn()

    # -- answering ------------------------------------------------------------------
    def _recalls(self, attempts: int) -> bool:
        """Whether the mover recalls a known, unused player matching the field.

        Each such player comes to mind with probability ``bot_recall``; the
        one named is drawn among them.  Logged for replays.
        """
        candidates = self.candidates(self.mover, self.blocked)
        known = candidates.bit_count()
        chance = 1.0 - (1.0 - self.engine.recall) ** (known * attempts)
        if known == 0 or self.rng.random() >= chance:
            return False
        index = _nth_bit(candidates, self.rng.randrange(known))
        self.named = self.engine.base.players[index].id
        self.log.append(("named", self.named))
        if not self.engine.simple:
            self.used |= 1 << index
        return True

    def _right(self) -> None:
        self.events["answers_right"] += 1
        self.answered_right = True
        self._after_answer()

    def _no_answer(self) -> None:
        # a seat out of ideas sometimes names someone wrong; both cost the penalty
        wrong = self.rng.random() < self.engine.guess
        self.events["answers_wrong" if wrong else "answers_none"] += 1
        # one card more when the card of the turn is already on the field (simple variant)
        self._draw(self.mover, self.engine.penalty_simple if self.laid_first else self.engine.penalty)
        self.events["penalties"] += 1
        self._after_answer()

    def _after_answer(self) -> None:
        self.blocked = ""
        if self.laid_first and self.answered_right:
            # the card was laid before answering; only a Yellow or Red may follow
            if self._may_punish():
                self.phase = PUNISH
            else:
                self._end_turn()
            return
        if self._regular_designs():
            self.phase = LAY
        elif self._may_punish():
            self.phase = PUNISH  # only actions in hand: no card to lay (clarification no-matching-type)
        else:
            self._end_turn()

    # -- cards ------------------------------------------------------------------------
    def _play_action(self, action: str) -> None:
        cards = self.engine.cards
        label = next(label for label in sorted(self.hands[self.mover])
                     if cards[label].group == ACTION and cards[label].value == action)
        self._leave_hand(label)
        (self.discard if action == "block" else self.action_pile).append(label)
        self.action_played = True

    def _leave_hand(self, label: str) -> None:
        """A card leaves the mover's hand; the second-to-last one needs «Выхожу один на один!»."""
        hand = self.hands[self.mover]
        hand.remove(label)
        if len(hand) == 1:
            self.events["one_on_one"] += 1
            if self.rng.random() < self.engine.offside_forget:
                self.events["offsides"] += 1
                self._draw(self.mover, self.engine.penalty_offside)

    def _draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards, reshuffling the discard into a new deck when the deck runs out."""
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    self.events["short_draws"] += 1  # clarification empty-deck-and-discard
                    return
                self.deck, self.discard = self.discard, []
                self.shuffle(self.deck, "reshuffle the discard")
            self.hands[seat].append(self.deck.pop())

    # -- turn order -----------------------------------------------------------------
    def _next_active(self, seat: int) -> int | None:
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if not self.out[other]:
                return other
        return None

    def _end_turn(self) -> None:
        seat = self.mover
        if not self.hands[seat]:
            self._go_out(seat)
            if self.phase == OVER:
                return
        if self.round_turns >= self.engine.turn_limit:
            self.events["turn_limit_reached"] += 1  # clarification turn-limit
            self._end_round()
            return
        while True:
            following = self._next_active(seat)
            if following is None or (self.closing and self._lap_closed(seat, following)):
                self._end_round()
                return
            if self.skips[following] == 0:
                self._begin_turn(following)
                return
            self.skips[following] -= 1  # the skipped turn counts as a turn for closing the lap
            self.events["turns_skipped"] += 1
            seat = following

    def _go_out(self, seat: int) -> None:
        self.out[seat] = True
        self.events["players_out"] += 1
        if self.engine.format == "knockout":
            self.places.append(seat)
            if self.out.count(False) <= 1:
                self._finish()
        else:
            self.closing = True

    def _lap_closed(self, seat: int, following: int) -> bool:
        """Whether going from ``seat`` to ``following`` passes the seat before the round's starter."""
        def lap(s: int) -> int:
            return (s - self.starter) % self.players
        return lap(following) <= lap(seat)

    def _end_round(self) -> None:
        if self.engine.format == "knockout":  # every other seat went out
            self._finish()
            return
        scores = [self.engine.hand_size - len(hand) for hand in self.hands]
        self.round_scores.append(scores)
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        if self.round >= self.engine.rounds:
            self._finish()
            return
        self._deal(starter=self._next_starter())

    def _next_starter(self) -> int:
        """Lowest total starts; a tie goes to the first such seat clockwise after the last starter."""
        low = min(self.totals)
        for step in range(1, self.players + 1):
            seat = (self.starter + step) % self.players
            if self.totals[seat] == low:
                return seat
        raise AssertionError("unreachable: some seat has the lowest total")

    def _finish(self) -> None:
        self.phase = OVER


def _nth_bit(mask: int, n: int) -> int:
    """Index of the ``n``-th (0-based) set bit of ``mask``."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


_HANDLERS = {
    "answer": HeadGameState._answer,
    "block": HeadGameState._answer,
    "fergie-time": HeadGameState._fergie,
    "pass": HeadGameState._pass,
    "transfer": HeadGameState._transfer,
    "lay": HeadGameState._lay,
    "yellow": HeadGameState._punish,
    "red": HeadGameState._punish,
}


# -- bots -------------------------------------------------------------------------------
#
# The seat's knowledge decides whether an answer comes; the bots decide how to
# play the cards.  A bot may look at its own seat's knowledge (a player knows
# whether a name comes to mind) and at the public field, never at other hands.


def greedy_bot(state: GameState, rng: random.Random) -> Move:
    """Answers when it can, blocks or transfers when it cannot, lays the card
    that leaves the fewest answers for the next player, always punishes."""
    assert isinstance(state, HeadGameState)
    moves = state.legal_moves()
    if state.phase == START:
        return _greedy_start(state, moves)
    if state.phase == FERGIE:
        return ("fergie-time",) if state.candidates(state.mover) else ("pass",)
    if state.phase == PUNISH:
        return moves[1] if len(moves) > 1 else moves[0]  # red before yellow, both before pass
    if state.phase == LAY_FIRST:  # simple variant: lay for oneself, then answer
        lays = [m for m in moves if m[0] == "lay"]
        best = _easiest_lay(state, lays)
        if ("transfer",) in moves and not _masks_after(state, [best])[best[1]] & state.knowledge[state.mover]:
            return ("transfer",)  # no field it can lay leaves a name it knows: pass it on instead
        return best
    return _hardest_lay(state, moves)


def _greedy_start(state: HeadGameState, moves: list[Move]) -> Move:
    seat = state.mover
    blocks = [m for m in moves if m[0] == "block"]
    if not state._regular_designs():  # only actions left: a Transfer or a Block empties the hand
        if ("transfer",) in moves:
            return ("transfer",)
        if blocks:
            return max(blocks, key=lambda m: state.candidates(seat, m[1]).bit_count())
        if ("fergie-time",) in moves:
            return ("fergie-time",)
    if state.candidates(seat):
        return ("answer",)
    if blocks:
        best = max(blocks, key=lambda m: state.candidates(seat, m[1]).bit_count())
        if state.candidates(seat, best[1]):
            return best
    return ("transfer",) if ("transfer",) in moves else ("answer",)


def _masks_after(state: HeadGameState, moves: list[Move]) -> dict[str, int]:
    """Design of each lay move -> mask of the players answering the field it leaves."""
    engine = state.engine
    masks = engine.answers.masks
    field = state.field
    fact, geo, position = (masks[(group, field[group].value)] for group in (FACT, GEO, POSITION))
    others = {FACT: geo & position, GEO: fact & position, POSITION: fact & geo}  # the cards that stay
    design_group, design_mask = engine.design_group, engine.design_mask
    return {move[1]: design_mask[move[1]] & others[design_group[move[1]]] for move in moves}


def _hardest_lay(state: HeadGameState, moves: list[Move]) -> Move:
    # the hardest field for the next player, but not a dead one: a field nobody
    # in the base can answer stalls the whole table, the layer included
    unused = state.engine.answers.all if state.engine.simple else ~state.used
    after = _masks_after(state, moves)
    return min(moves, key=lambda m: ((after[m[1]] & unused).bit_count() or 10**6, m[1]))


def _easiest_lay(state: HeadGameState, moves: list[Move]) -> Move:
    known = state.knowledge[state.mover]
    after = _masks_after(state, moves)
    return max(moves, key=lambda m: ((after[m[1]] & known).bit_count(), m[1]))
