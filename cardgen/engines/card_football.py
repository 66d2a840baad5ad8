"""Reference engine of «Карточный футбол» (card-football), two players.

Rules: seed 001 plus the clarifications in ``content/card-football``.  The
deck, the save pile and every count come from the content; this module holds
only the rules.

A move is the index of the column whose top card the player takes (an
``int``).  After the take, :meth:`CardFootballState.classify` finds the first
case of the seed's priority list that holds, and the state carries it out:

1. the taken card's suit is sent off: the card is removed;
2. long shot: four cards of the taken rank, one per suit, anywhere in the
   active (clarification long-shot-cards): a goal, the four are removed, the
   turn passes;
3. the opponent's cards of the same rank (other suits) are removed; the scan
   goes on;
4. the opponent holds the same rank *and* suit: the taken card is removed and
   the turn passes;
5. shot (the card lands fourth in its column), saved with up to 2 save cards;
   if step 3 removed anything, the card is removed instead and the player gets
   one extra move;
6. free kick (the card lands on the same rank and suit): 1 to 4 save cards by
   rank, the column is removed, the opponent gets penalty cards, the turn
   passes;
7. attack (the card lands on the rank one lower): 3 extra moves;
8. corner (the card lands third on a column whose first card has its rank):
   2 extra moves.

Every reading the seed leaves open is a clarification in the content, printed
in the rulebook: "the turn passes" forfeits extra moves still owed
(extra-moves-forfeit); extra moves granted while others are owed add up
(extra-moves-add-up); the unavailable columns are those taken from during the
player's current run of consecutive takes, or, before the run's first take,
the column of their last take (unavailable-columns); a goal from a shot does
not pass the turn (shot-goal-turn); seat 0 kicks off the first half and the
periods alternate (kick-off, actives-between-halves, extra-time).

The setting ``extra_time_max`` is no rule but a guard on simulated matches:
after that many goalless extra-time periods the match ends as a draw with the
reason "extra time limit".  About one period in twenty ends goalless, so the
guard is never reached in practice and the rulebook does not print it.
"""

from __future__ import annotations

import random
import sys
from typing import Any, Mapping, NamedTuple

from cardgen.content.loader import Game
from cardgen.engines.base import Bot, Engine, EventRandom, GameState, Outcome, play_out_own_bots, random_bot
from cardgen.errors import ContentError, Locator, SimulationError

MAIN_GROUP = "main"
SAVE_GROUP = "save"
SUITS_ATTR = "suit"
RANKS_ATTR = "rank"

#: Save cards a free kick is taken against, by the rank of the taken card
#: (seed: ace/king = penalty, queen/jack = 2nd degree, 10/9 = 3rd, 8/7/6 = 4th).
FREE_KICK_SAVE_CARDS: Mapping[str, int] = {
    "ace": 1, "king": 1, "queen": 2, "jack": 2, "10": 3, "9": 3, "8": 4, "7": 4, "6": 4,
}
FREE_KICK_EVENT = {1: "penalties", 2: "free_kicks_2nd", 3: "free_kicks_3rd", 4: "free_kicks_4th"}
SHOT_SAVE_CARDS = 2
ATTACK_EXTRA_MOVES = 3
CORNER_EXTRA_MOVES = 2
CANCELLED_SHOT_EXTRA_MOVES = 1


class Case:
    """The priority-list case a take falls under (the first that holds).

    Step 3 (removing the opponent's cards of the rank) never ends the scan,
    so it is no case of its own: ``Take.removes`` counts what it removes.

    A namespace of text constants rather than an Enum: on Python 3.11
    reading an Enum member costs about 70 ns, a plain class attribute a
    quarter of that, and every move reads several.  Compare with ``is``.
    """

    SENT_OFF_SUIT = "1 sent-off suit"
    LONG_SHOT = "2 long shot"
    SAME_CARD = "4 same card at the opponent"
    SHOT = "5 shot"
    CANCELLED_SHOT = "5 shot cancelled by step 3"
    FREE_KICK = "6 free kick"
    ATTACK = "7 attack"
    CORNER = "8 corner"
    PLAIN = "no event"


class Take(NamedTuple):
    """What taking ``card`` would do, before anything random happens.

    A named tuple, so that the engine's own moves and the greedy bot can work
    on the same fields as a plain tuple (``_case``), which is cheaper still
    to build.
    """

    card: str
    case: str  # a Case constant
    removes: int  # opponent cards of the same rank, other suits (step 3)
    column_size: int  # the active column's size with the card on top


#: Builds a Take from a tuple in C: the named tuple's own ``__new__`` is a
#: Python function.
_take = tuple.__new__

# The cases as module globals for the hot paths (_case, _take_from): on
# Python 3.11 reading a class attribute looks it up on the type every time,
# a global read is specialised.
_SENT_OFF_SUIT, _LONG_SHOT, _SAME_CARD, _SHOT, _CANCELLED_SHOT = (
    Case.SENT_OFF_SUIT, Case.LONG_SHOT, Case.SAME_CARD, Case.SHOT, Case.CANCELLED_SHOT)
_FREE_KICK, _ATTACK, _CORNER, _PLAIN = Case.FREE_KICK, Case.ATTACK, Case.CORNER, Case.PLAIN


class ColumnSets(dict):
    """Column bit mask -> the columns in it, in order, as a tuple: the legal
    columns of a position are one read of this.  Built as masks are met (at
    most ``2 ** columns`` of them)."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        columns = tuple(index for index in range(mask.bit_length()) if mask >> index & 1)
        self[mask] = columns
        return columns


class CardFootballEngine(Engine):
    id = "card-football"
    event_names = (
        "goals", "goals_long_shot", "goals_shot", "goals_free_kick", "long_shots",
        "shots", "shots_saved", "shots_saved_card1", "shots_saved_card2", "shots_cancelled",
        "free_kicks", "free_kicks_saved", "penalties", "free_kicks_2nd", "free_kicks_3rd",
        "free_kicks_4th", "penalty_cards", "sent_off_suits", "sent_off_suit_takes",
        "rank_removals", "same_card_cancels", "attacks", "corners", "added_cards", "escapes",
        "extra_time", "extra_time_periods", "reshuffles", "shuffles",
    )

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None):
        super().__init__(game, options)
        self.columns = int(self.setting("columns"))
        self.column_depth = int(self.setting("column_depth"))
        self.face_up = int(self.setting("face_up"))
        self.halves = int(self.setting("halves"))
        self.added_cards_max = int(self.setting("added_cards_max"))
        self.suspension_cards = int(self.setting("suspension_cards"))
        self.extra_time_max = int(self.setting("extra_time_max"))
        self.suits: tuple[str, ...] = tuple(str(v) for v in game.meta.attributes[SUITS_ATTR].values or ())
        rank_order = [str(v) for v in game.meta.attributes[RANKS_ATTR].values or ()]
        self.main_cards: tuple[str, ...] = ()
        self.save_cards: tuple[str, ...] = ()
        self.suit_of: dict[str, int] = {}  # label -> suit index; save jokers absent
        self.rank_of: dict[str, int] = {}  # label -> position in the rank order
        self.rank_name: dict[str, str] = {}
        self._read_deck(game, rank_order)
        #: suit index -> the other suits' indices, in order: the scans of
        #: classify() then need no "is this the taken card's suit?" test per card
        self.other_suits: tuple[tuple[int, ...], ...] = tuple(
            tuple(other for other in range(len(self.suits)) if other != suit) for suit in range(len(self.suits))
        )
        self._index_slots(len(rank_order))
        #: the legal columns of each set of columns (a bit mask): built as met
        self.column_sets = ColumnSets()
        self.place_names: tuple[str, ...] = (
            *(f"column{i + 1}" for i in range(self.columns)),
            *(f"active{player}.{suit}" for player in range(2) for suit in self.suits),
            "reserve", "removed", "save.pile", "save.used",
        )
        if len(self.main_cards) < self.columns * self.column_depth:
            raise ContentError(
                f"card-football needs at least {self.columns * self.column_depth} main cards, "
                f"found {len(self.main_cards)}",
                Locator(file=game.root / "cards.yaml"),
            )

    def _index_slots(self, ranks: int) -> None:
        """Where each main card counts in a player's rank index (see
        :meth:`CardFootballState._derive_index`): one slot per (rank, suit) and
        one per rank for its total, ``suits + 1`` slots a rank."""
        suits = len(self.suits)
        width = suits + 1
        self.index_size = ranks * width
        #: main card label -> (its slot, its rank's total slot)
        self.count_slots: dict[str, tuple[int, int]] = {}
        #: main card label -> (suit, rank, slot, total slot, the other suits' slots of
        #: its rank, the other suits with those slots): what a take needs of its
        #: card, in one dict read
        self.take_facts: dict[str, tuple[int, int, int, int, tuple[int, ...], tuple[tuple[int, int], ...]]] = {}
        for label in self.main_cards:
            suit, rank = self.suit_of[label], self.rank_of[label]
            base = rank * width
            others = tuple((other, base + other) for other in self.other_suits[suit])
            self.count_slots[label] = (base + suit, base + suits)
            self.take_facts[label] = (suit, rank, base + suit, base + suits, tuple(s for _, s in others), others)

    def _read_deck(self, game: Game, rank_order: list[str]) -> None:
        main: list[str] = []
        save: list[str] = []
        for physical in game.physical_cards():
            # interned: the simulation's card check then matches labels by identity
            card, label = physical.card, sys.intern(physical.label)
            if card.group == MAIN_GROUP:
                main.append(label)
                self.suit_of[label] = self.suits.index(str(card.attrs[SUITS_ATTR]))
                self.rank_of[label] = rank_order.index(str(card.attrs[RANKS_ATTR]))
                self.rank_name[label] = str(card.attrs[RANKS_ATTR])
            elif card.group == SAVE_GROUP:
                save.append(label)
                if SUITS_ATTR in card.attrs:  # jokers have no suit and save any shot
                    self.suit_of[label] = self.suits.index(str(card.attrs[SUITS_ATTR]))
        self.main_cards, self.save_cards = tuple(main), tuple(save)

    def move_bound(self, players: int) -> int:
        per_period = self.columns * self.column_depth + self.added_cards_max
        periods = self.halves + (self.extra_time_max if self.options["result"] == "extra-time" else 0)
        return per_period * periods

    def new_game(self, players: int, seed: int) -> "CardFootballState":
        if players != 2:
            raise SimulationError(f"card-football is a game for 2 players, not {players}")
        return CardFootballState(self, seed)

    def bots(self) -> dict[str, Bot]:
        return {"random": random_bot, "greedy": greedy_bot}


class CardFootballState(GameState):
    rng_class = EventRandom  # chance only at shuffles: cheap to clone
    engine: CardFootballEngine

    def __init__(self, engine: CardFootballEngine, seed: int, *, deal: bool = True):
        super().__init__(engine, 2, seed)
        suits = len(engine.suits)
        self.period = 0  # 0 and 1 are the halves, 2... extra time
        self.score = [0, 0]
        self.columns: list[list[str]] = [[] for _ in range(engine.columns)]  # bottom .. top
        self.reserve: list[str] = []  # the undealt main cards of this period
        self.actives: list[list[list[str]]] = [[[] for _ in range(suits)] for _ in range(2)]
        self.penalty_cards = [[0] * suits for _ in range(2)]
        self.removed: list[str] = []
        self.save_pile: list[str] = []  # top is the end
        self.save_used: list[str] = []
        self.to_move = 0
        self.extra_moves = 0
        self.run: list[int] = []  # columns taken in the current run of consecutive takes
        self.last_column: list[int | None] = [None, None]
        self.added = 0
        self.over = False
        self.end_reason = ""
        self._legal: tuple[int, ...] | None = None
        # What the moves read instead of scanning the columns and actives,
        # kept up to date by every change the engine makes; None: to be
        # derived from the fields on first use (a hand-built position sets the
        # columns and actives directly; a clone derives its own).
        self._rank_index: list[list[int]] | None = None  # see _derive_index
        self._nonempty = 0  # bit mask of the columns holding cards
        self._blocked = 0  # bit mask of the unavailable columns
        if deal:
            self.save_pile = list(engine.save_cards)
            self.shuffle(self.save_pile, "save pile")
            self._deal()

    # -- contract --------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_over(self) -> bool:
        return self.over

    def legal_columns(self) -> list[int]:
        """The legal moves, typed: the columns the player may take from."""
        legal = self._legal
        if legal is None:  # computed once per position: the bot, apply and the checks share it
            if self.over:
                return []
            self._legal = legal = self._open_columns()
        return list(legal)

    def _open_columns(self) -> tuple[int, ...]:
        """The legal columns of a game not over (a shared tuple: not to be changed)."""
        if self._rank_index is None:
            self._derive_index()
        nonempty = self._nonempty
        sets = self.engine.column_sets
        # the escape: when every column with cards is unavailable, all of them are legal
        return sets[nonempty & ~self._blocked] or sets[nonempty]

    legal_moves = legal_columns  # the contract's name; one call less on every move

    def unavailable_columns(self) -> set[int]:
        if self.run:
            return set(self.run)
        last = self.last_column[self.to_move]
        return set() if last is None else {last}

    def apply(self, move: Any) -> None:
        legal = self._legal if self._legal is not None else self.legal_moves()
        if move not in legal:
            raise SimulationError(f"illegal move {move!r}; legal: {list(legal)}")
        self._take_from(move)
        self._legal = None  # here, not in every take of play_out, which never reads it

    def play_out(self, choose: Bot, rng: random.Random, bound: int) -> int:
        self._legal = None  # the takes below leave it alone: no longer this position's
        return play_out_own_bots(self, choose, rng, bound, greedy=greedy_bot, greedy_move=_best_column,
                                 legal_of=self._open_columns, play=self._take_from)

    def _take_from(self, move: int, legal: Any = None) -> None:
        """Play a legal take: classify it and carry out its case (``legal`` is not
        needed here; it is :func:`play_out_own_bots`' shared signature).

        The move comes from the legal columns, so :meth:`_open_columns` has
        derived the index.  The caller drops the cached legal columns
        (``_legal``).  The carrying out is inline rather than a method of its
        own: one call less on every move.
        """
        index: list[list[int]] = self._rank_index  # type: ignore[assignment]
        player = self.to_move
        bit = 1 << move
        blocked = self._blocked
        if blocked & bit:
            self.events["escapes"] += 1  # legal only because every column was unavailable
        run = self.run
        # the run's columns are unavailable now; before its first take, the last take's column was
        self._blocked = blocked | bit if run else bit
        run.append(move)
        self.turn += 1
        column = self.columns[move]
        card = column.pop()
        if not column:
            self._nonempty ^= bit
        facts = self.engine.take_facts[card]
        take = self._case(player, card, facts)
        _, case, removes, _ = take
        if case is _SENT_OFF_SUIT:
            self.removed.append(card)
            self.events["sent_off_suit_takes"] += 1
            passes = False
        else:
            suit, rank, slot, total, _, other_places = facts
            self.actives[player][suit].append(card)
            counts = index[player]
            counts[slot] += 1
            counts[total] += 1
            if case is _LONG_SHOT:
                self._long_shot(player, card)
                passes = True
            else:
                if removes:
                    self._remove_rank(1 - player, rank, total, other_places, removes)
                # most takes are plain: no handler to look up
                passes = case is not _PLAIN and _CASE_HANDLERS[case](self, player, suit, take)
        if self.over:
            return
        if not column and not self._nonempty:
            self._end_period()
        elif passes or self.extra_moves == 0:
            # the turn passes (inline: it happens on most moves)
            self.last_column[player] = move
            self.run = []
            self.extra_moves = 0
            self.to_move = opponent = 1 - player
            last = self.last_column[opponent]
            self._blocked = 0 if last is None else 1 << last
        else:
            self.extra_moves -= 1

    def _derive_index(self) -> list[list[int]]:
        """Derive what the moves read from the state's fields: the rank index,
        the columns holding cards and the unavailable columns.

        The rank index holds, per player, a count for each (rank, suit) of the
        cards of that rank in the suit's active column and one for each rank
        of all of them (slots in ``engine.count_slots``): the priority list's
        questions are then reads of it, not scans of eight columns per take.
        """
        engine = self.engine
        index = [[0] * engine.index_size for _ in range(2)]
        for counts, active in zip(index, self.actives):
            for cards in active:
                for card in cards:
                    slot, total = engine.count_slots[card]
                    counts[slot] += 1
                    counts[total] += 1
        self._rank_index = index
        self._nonempty = sum(1 << number for number, column in enumerate(self.columns) if column)
        unavailable = self.run or [self.last_column[self.to_move]]
        self._blocked = sum(1 << column for column in set(unavailable) if column is not None)
        return index

    def outcome(self) -> Outcome:
        home, away = self.score
        if home == away:
            return Outcome((), (home, away), draw=True, ranking=(), reason=self.end_reason)
        winner = 0 if home > away else 1
        return Outcome((winner,), (home, away), ranking=(winner, 1 - winner), reason=self.end_reason)

    def card_places(self) -> dict[str, list[str]]:
        return dict(zip(self.engine.place_names, self.card_lists()))

    def card_lists(self) -> list[list[str]]:
        """The card lists in the order of ``engine.place_names``."""
        actives = self.actives
        return [*self.columns, *actives[0], *actives[1], self.reserve, self.removed, self.save_pile, self.save_used]

    def snapshot(self) -> tuple:
        """Everything ``to_dict()`` holds, as tuples (place names are fixed)."""
        return (
            self.period, tuple(self.score), tuple(map(tuple, self.card_lists())),
            tuple(map(tuple, self.penalty_cards)), self.to_move, self.extra_moves, tuple(self.run),
            tuple(self.last_column), self.added, self.over, self.end_reason, self.turn,
        )

    def standing(self) -> tuple[int, int]:
        return tuple(self.score)  # goals so far

    def to_dict(self) -> dict[str, Any]:
        return {
            "period": self.period,
            "score": list(self.score),
            "places": {name: list(cards) for name, cards in self.card_places().items()},
            "penalty_cards": [list(p) for p in self.penalty_cards],
            "to_move": self.to_move,
            "extra_moves": self.extra_moves,
            "run": list(self.run),
            "last_column": list(self.last_column),
            "added": self.added,
            "over": self.over,
            "end_reason": self.end_reason,
            "turn": self.turn,
        }

    def clone(self) -> "CardFootballState":
        other = self.blank_copy()
        other.period = self.period
        other.score = list(self.score)
        other.columns = [list(c) for c in self.columns]
        other.reserve = list(self.reserve)
        other.actives = [[list(c) for c in active] for active in self.actives]
        other.penalty_cards = [list(p) for p in self.penalty_cards]
        other.removed = list(self.removed)
        other.save_pile = list(self.save_pile)
        other.save_used = list(self.save_used)
        other.to_move = self.to_move
        other.extra_moves = self.extra_moves
        other.run = list(self.run)
        other.last_column = list(self.last_column)
        other.added = self.added
        other.over = self.over
        other.end_reason = self.end_reason
        other._legal = None
        other._rank_index = None  # derived on first use: shares nothing with the original's
        other._nonempty = other._blocked = 0
        return other

    # -- what the players see ---------------------------------------------------------
    def face_up(self, column: int) -> list[str]:
        """The face-up cards of a column, bottom to top: its top ``face_up`` cards."""
        cards = self.columns[column]
        return cards[max(0, len(cards) - self.engine.face_up):]

    def sent_off(self, player: int, suit: int) -> bool:
        return self.penalty_cards[player][suit] >= self.engine.suspension_cards

    # -- the priority list -----------------------------------------------------------
    def classify(self, player: int, card: str) -> Take:
        """The first case of the priority list that taking ``card`` meets (no side effects)."""
        if self._rank_index is None:
            self._derive_index()
        return _take(Take, self._case(player, card, self.engine.take_facts[card]))

    def _case(self, player: int, card: str, facts: tuple) -> tuple:
        """:meth:`classify`'s fields as a plain tuple, which costs a tenth of
        a Take to build; ``facts`` are ``engine.take_facts[card]``.

        The questions about the actives are reads of the rank index, which
        must be derived (see :meth:`_derive_index`): this runs on every move
        and for every column the greedy bot weighs.
        """
        suit, rank, slot, total, other_slots, _ = facts
        engine = self.engine
        if self.penalty_cards[player][suit] >= engine.suspension_cards:
            return card, _SENT_OFF_SUIT, 0, 0
        index: list[list[int]] = self._rank_index  # type: ignore[assignment]
        column = self.actives[player][suit]
        size = len(column) + 1
        # long shot: every other suit of the active holds a card of the rank
        counts = index[player]
        for other in other_slots:
            if not counts[other]:
                break  # this suit has none: no long shot
        else:
            return card, _LONG_SHOT, 0, size
        opponent = index[1 - player]
        removes = opponent[total]  # the opponent's cards of the rank in the other suits...
        if opponent[slot]:
            return card, _SAME_CARD, removes - opponent[slot], size  # ...and in this one
        if size == 4:
            return card, _CANCELLED_SHOT if removes else _SHOT, removes, size
        if column:
            rank_of = engine.rank_of
            below = rank_of[column[-1]]
            if below == rank:
                return card, _FREE_KICK, removes, size
            if below == rank - 1:
                return card, _ATTACK, removes, size
            if size == 3 and rank_of[column[0]] == rank:
                return card, _CORNER, removes, size
        return card, _PLAIN, removes, size

    def _long_shot(self, player: int, card: str) -> None:
        rank_of = self.engine.rank_of
        rank = rank_of[card]
        for cards in self.actives[player]:
            for index in range(len(cards) - 1, -1, -1):  # the topmost card of the rank
                if rank_of[cards[index]] == rank:
                    self._forget(player, (cards[index],))
                    self.removed.append(cards.pop(index))
                    break
        self.events["long_shots"] += 1
        self._goal(player, "long_shot")

    def _remove_rank(self, player: int, rank: int, total: int, other_places: tuple, removes: int) -> None:
        """Remove ``player``'s ``removes`` cards of ``rank`` from ``other_places`` (suit, slot),
        the suits other than the taken card's; ``total`` is the rank's total slot."""
        rank_of = self.engine.rank_of
        counts = self._rank_index[player]  # type: ignore[index]  # a take derived it
        active = self.actives[player]
        removed = self.removed
        for suit, slot in other_places:
            count = counts[slot]
            if count:  # the index says which suits hold the rank and how many: only those are scanned
                cards = active[suit]
                if count == len(cards):  # every card of the column (often its only one), bottom first
                    removed.extend(cards)
                    cards.clear()
                else:
                    index = 0
                    while count:  # bottom to top, up to the last card of the rank
                        if rank_of[cards[index]] == rank:
                            removed.append(cards.pop(index))
                            count -= 1
                        else:
                            index += 1
                counts[slot] = 0
        counts[total] -= removes
        self.events["rank_removals"] += removes

    def _forget(self, player: int, cards: Any) -> None:
        """Take ``cards``, about to leave ``player``'s active, out of the rank index."""
        counts = self._rank_index[player]  # type: ignore[index]  # a take derived it
        count_slots = self.engine.count_slots
        for card in cards:
            slot, total = count_slots[card]
            counts[slot] -= 1
            counts[total] -= 1

    def _clear_active(self, player: int, suit: int) -> None:
        """Every card of the active column to the removed pile, bottom first."""
        column = self.actives[player][suit]
        self._forget(player, column)
        self.removed.extend(column)
        column.clear()

    def _drop_taken(self, player: int, suit: int) -> None:
        """The card just taken (the top of its active column) to the removed pile."""
        card = self.actives[player][suit].pop()
        self._forget(player, (card,))
        self.removed.append(card)

    def _same_card(self, player: int, suit: int, take: tuple) -> bool:
        self._drop_taken(player, suit)
        self.events["same_card_cancels"] += 1
        return True

    def _cancelled_shot(self, player: int, suit: int, take: tuple) -> bool:
        self._drop_taken(player, suit)
        self.extra_moves += CANCELLED_SHOT_EXTRA_MOVES
        self.events["shots_cancelled"] += 1
        return False

    def _shot(self, player: int, suit: int, take: tuple) -> bool:
        self.events["shots"] += 1
        column = self.actives[player][suit]
        saved_by = self._save_attempt(suit, SHOT_SAVE_CARDS)
        if saved_by:
            # Saved by the n-th save card: the top n cards go, n extra moves
            # (the seed's 2nd-card case; the 1st by clarification first-save-card).
            saved = column[-saved_by:]
            self._forget(player, saved)
            self.removed.extend(reversed(saved))
            del column[-saved_by:]
            self.extra_moves += saved_by
            self.events["shots_saved"] += 1
            self.events[f"shots_saved_card{saved_by}"] += 1
            self._after_save()
            return False
        self._clear_active(player, suit)
        self._goal(player, "shot")
        return False

    def _free_kick(self, player: int, suit: int, take: tuple) -> bool:
        save_cards = FREE_KICK_SAVE_CARDS[self.engine.rank_name[take[0]]]
        self.events["free_kicks"] += 1
        self.events[FREE_KICK_EVENT[save_cards]] += 1
        # 2 cards in the column: one penalty card; 3: two
        penalty = 1 if len(self.actives[player][suit]) == 2 else 2
        saved_by = self._save_attempt(suit, save_cards)
        self._clear_active(player, suit)
        if saved_by:
            self.events["free_kicks_saved"] += 1
            self._after_save()
        else:
            self._goal(player, "free_kick")
        if not self.over:
            self._book(1 - player, suit, penalty)
        return True

    def _attack(self, player: int, suit: int, take: tuple) -> bool:
        self.extra_moves += ATTACK_EXTRA_MOVES
        self.events["attacks"] += 1
        return False

    def _corner(self, player: int, suit: int, take: tuple) -> bool:
        self.extra_moves += CORNER_EXTRA_MOVES
        self.events["corners"] += 1
        return False

    # -- penalty cards, saves, goals -----------------------------------------------------
    def _book(self, player: int, suit: int, cards: int) -> None:
        """Give penalty cards; at the limit the suit is sent off (clarification
        removed-suit-cards: a sent-off suit gets no more cards)."""
        limit = self.engine.suspension_cards
        if self.penalty_cards[player][suit] >= limit:
            return
        given = min(cards, limit - self.penalty_cards[player][suit])
        self.penalty_cards[player][suit] += given
        self.events["penalty_cards"] += given
        if self.penalty_cards[player][suit] >= limit:
            self.events["sent_off_suits"] += 1
            self._clear_active(player, suit)

    def _save_attempt(self, suit: int, cards: int) -> int:
        """Turn up to ``cards`` save cards; the 1-based number of the one that saves, or 0."""
        for number in range(1, cards + 1):
            card = self.save_pile.pop()
            self.save_used.append(card)
            if not self.save_pile:  # the pile ran out: shuffle it again
                self.save_pile, self.save_used = self.save_used, []
                self.shuffle(self.save_pile, "reshuffle save pile")
            card_suit = self.engine.suit_of.get(card)
            if card_suit is None or card_suit == suit:
                return number
        return 0

    def _after_save(self) -> None:
        if self.engine.options["added-cards"] == "after-save":
            self._add_card()

    def _goal(self, player: int, how: str) -> None:
        self.score[player] += 1
        self.events["goals"] += 1
        self.events[f"goals_{how}"] += 1
        if self.period >= self.engine.halves:  # extra time ends at the first goal
            self._finish("golden goal")
        elif self.engine.options["added-cards"] == "after-goal":
            self._add_card()

    def _add_card(self) -> None:
        """One card of the undealt rest to the bottom of the next column in turn."""
        if self.added >= self.engine.added_cards_max or not self.reserve:
            return
        column = self.added % self.engine.columns
        self.columns[column].insert(0, self.reserve.pop())
        self._nonempty |= 1 << column
        self.added += 1
        self.events["added_cards"] += 1

    # -- turns and periods ------------------------------------------------------------
    def _end_period(self) -> None:
        engine = self.engine
        self.period += 1
        level = self.score[0] == self.score[1]
        if self.period < engine.halves:
            self._deal()
        elif not level:
            self._finish("full time" if self.period == engine.halves else "golden goal")
        elif engine.options["result"] != "extra-time":
            self._finish("draw")
        elif self.period - engine.halves >= engine.extra_time_max:
            self._finish("extra time limit")
        else:
            if self.period == engine.halves:
                self.events["extra_time"] += 1
            self.events["extra_time_periods"] += 1
            self._deal()

    def _deal(self) -> None:
        """Shuffle all main cards and lay the columns (also for extra time, by
        clarification extra-time); actives and penalty cards start afresh."""
        engine = self.engine
        cards = list(engine.main_cards)
        self.shuffle(cards, f"deal period {self.period + 1}")
        depth = engine.column_depth
        self.columns = [cards[i * depth:(i + 1) * depth] for i in range(engine.columns)]
        self.reserve = cards[engine.columns * depth:]
        self.actives = [[[] for _ in engine.suits] for _ in range(2)]
        self.penalty_cards = [[0] * len(engine.suits) for _ in range(2)]
        self.removed = []
        self.to_move = self.period % 2  # the halves (and extra-time periods) alternate the kick-off
        self.extra_moves = 0
        self.run = []
        self.last_column = [None, None]
        self.added = 0
        self._legal = None
        self._rank_index = [[0] * engine.index_size for _ in range(2)]  # the actives are empty
        self._nonempty = sum(1 << number for number, column in enumerate(self.columns) if column)
        self._blocked = 0  # no take yet

    def _finish(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        self._legal = None


_CASE_HANDLERS = {
    Case.SAME_CARD: CardFootballState._same_card,
    Case.CANCELLED_SHOT: CardFootballState._cancelled_shot,
    Case.SHOT: CardFootballState._shot,
    Case.FREE_KICK: CardFootballState._free_kick,
    Case.ATTACK: CardFootballState._attack,
    Case.CORNER: CardFootballState._corner,
}


# -- bots ----------------------------------------------------------------------------------


#: Rough worth of each case to the taker, in goals: a shot scores 4/9 of the
#: time against the save pile's 6 saving cards of 18 (a suit's four and two
#: jokers), a free kick with n save cards (2/3)**n; an extra move is worth a
#: little, and a free kick also books the opponent.
_SAVE_MISS = 12 / 18
_EXTRA_MOVE_WORTH = 0.05
_CASE_WORTH = {
    Case.SENT_OFF_SUIT: -0.02,
    Case.LONG_SHOT: 1.0,
    Case.SAME_CARD: -0.05,
    Case.SHOT: _SAVE_MISS**SHOT_SAVE_CARDS,
    Case.CANCELLED_SHOT: CANCELLED_SHOT_EXTRA_MOVES * _EXTRA_MOVE_WORTH,
    Case.ATTACK: ATTACK_EXTRA_MOVES * _EXTRA_MOVE_WORTH,
    Case.CORNER: CORNER_EXTRA_MOVES * _EXTRA_MOVE_WORTH,
    Case.PLAIN: 0.0,
}


def greedy_bot(state: GameState, rng: random.Random) -> Any:
    """Takes the visible top card worth most now; the first such column on ties.

    It looks only at what a player sees (the face-up tops and both actives),
    never at the save pile or the face-down cards.
    """
    assert isinstance(state, CardFootballState)
    return _best_column(state, state.legal_columns())


def _best_column(state: CardFootballState, legal: list[int]) -> int:
    """The greedy bot's choice among the ``legal`` columns."""
    player = state.to_move
    columns, case, take_facts = state.columns, state._case, state.engine.take_facts
    best_move, best_worth = None, float("-inf")
    for column in legal:  # the legal columns come from _open_columns: the index is derived
        top = columns[column][-1]
        worth = take_worth(state, case(player, top, take_facts[top]))
        if worth > best_worth:
            best_move, best_worth = column, worth
    return best_move


def take_worth(state: CardFootballState, take: tuple) -> float:
    """The greedy bot's estimate of a take (a :class:`Take`, or its fields as
    a plain tuple), in goals for the taker."""
    card, case, removes, column_size = take
    if case is _FREE_KICK:
        save_cards = FREE_KICK_SAVE_CARDS[state.engine.rank_name[card]]
        worth = _SAVE_MISS**save_cards + 0.05 * (1 if column_size == 2 else 2)
    else:
        worth = _CASE_WORTH[case]
    # removing the opponent's cards breaks their build-up; a 3rd card sets up a shot
    return worth + 0.03 * removes + (0.02 if column_size == 3 else 0.0)
