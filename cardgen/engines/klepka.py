"""Reference engine of «Клепка», the football memory game.

Every rule comes from the seed (003) and the clarifications in
``content/klepka``; the composition (pairs, prizes, points) comes from
``cards.yaml``.  A turn is a small state machine, one decision per move:

``window``  at the start of a turn and after its first tile: every other
            holder of a Yellow or Red card, in seat order after the player to
            move, may play one or pass (clarifications ``any-moment``,
            ``yellow-target``, ``two-yellows``, ``half-played-turn``);
``turn``    the mover flips a first tile, uses VAR, or uses PLAY GAME;
``peek``    after VAR, the mover looks at two tiles (one move each);
``flip``    the second tile of the turn;
``take``    the winner of a PLAY GAME match takes one pair from the loser.

A window after the second tile would be the next turn's: the two tiles are
resolved as the seed says (a pair is kept, prizes taken) before anyone may
play a card, so the window that follows is the start of the next turn.

Flipping is two moves so that a player sees the first tile before choosing
the second, which is the whole skill of a memory game.

Memory is part of the simulated table: whenever a tile is shown, each seat
memorises it unless it forgets (probability ``forget_rate`` from the
settings, drawn from the state's RNG), so replays stay exact.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from cardgen.content.loader import Game
from cardgen.engines.base import Bot, Engine, GameState, Move, Outcome
from cardgen.errors import ContentError, Locator, SimulationError

FOOTBALLER = "footballer"
PRIZE_KINDS = ("var", "play-game", "yellow", "red")

# phases of the turn machine
WINDOW, TURN, PEEK, FLIP, TAKE, OVER = "window", "turn", "peek", "flip", "take", "over"


@dataclass(frozen=True)
class Tile:
    """What a physical tile shows: a footballer (design id, points) or a prize kind."""

    label: str
    design: str  # card id; two tiles of one footballer share it
    prize: str | None  # prize kind, None for a footballer
    points: int


class Memory(dict):
    """What one player remembers: cell -> design, plus the footballers it
    remembers on two cells (``pairs``), kept up to date so that a bot finds a
    known pair without scanning its memory every turn."""

    __slots__ = ("counts", "pairs")

    def __init__(self, cells: Mapping[int, str] | None = None, prizes: frozenset[str] = frozenset()):
        super().__init__()
        self.counts: dict[str, int] = {}
        self.pairs: set[str] = set()
        for cell, design in (cells or {}).items():
            self.remember(cell, design, design in prizes)

    def remember(self, cell: int, design: str, is_prize: bool) -> None:
        if self.get(cell) == design:
            return
        self[cell] = design
        count = self.counts.get(design, 0) + 1
        self.counts[design] = count
        if count >= 2 and not is_prize:
            self.pairs.add(design)

    def forget(self, cell: int) -> None:
        design = self.pop(cell, None)
        if design is None:
            return
        count = self.counts[design] - 1
        self.counts[design] = count
        if count < 2:
            self.pairs.discard(design)

    def known_pair(self) -> tuple[int, int] | None:
        """Two cells of one remembered footballer (the alphabetically first: sets of
        strings iterate in a per-process order, which would break replays)."""
        if not self.pairs:
            return None
        design = min(self.pairs)
        first, second = (cell for cell, known in self.items() if known == design)
        return first, second

    def copy(self) -> "Memory":
        other = Memory()
        other.update(self)
        other.counts = dict(self.counts)
        other.pairs = set(self.pairs)
        return other


class KlepkaEngine(Engine):
    id: ClassVar[str] = "klepka"
    max_moves: ClassVar[int] = 50_000

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None):
        super().__init__(game, options)
        self.rows = int(self.setting("rows"))
        self.columns = int(self.setting("columns"))
        self.die_sides = int(self.setting("die_sides"))
        self.forget_rate = float(self.setting("forget_rate"))
        self.tiles: dict[str, Tile] = {t.label: t for t in _tiles(game)}
        self.design_points = {t.design: t.points for t in self.tiles.values()}
        self.prize_designs = frozenset(t.design for t in self.tiles.values() if t.prize)
        self.flip_moves = [("flip", cell) for cell in range(self.rows * self.columns)]  # shared, immutable
        if len(self.tiles) > self.rows * self.columns:
            raise ContentError(
                f"{len(self.tiles)} tiles do not fit a {self.rows} x {self.columns} grid",
                Locator(file=game.root / "game.yaml", field="settings.rows"),
            )

    def new_game(self, players: int, seed: int) -> "KlepkaState":
        return KlepkaState(self, players, seed)

    def bots(self) -> dict[str, Bot]:
        return {"random": random_bot, "greedy": greedy_bot, "perfect": perfect_bot}


def _tiles(game: Game) -> list[Tile]:
    tiles = []
    for physical in game.physical_cards():
        card = physical.card
        if card.group == FOOTBALLER:
            tiles.append(Tile(physical.label, card.id, None, int(card.attrs["points"])))
        elif card.kind in PRIZE_KINDS:
            tiles.append(Tile(physical.label, card.id, card.kind, 0))
        else:
            raise ContentError(
                f"klepka knows footballer tiles and prizes {PRIZE_KINDS}, not '{card.kind}'",
                Locator(file=game.root / "cards.yaml", card=card.id),
            )
    return tiles


class KlepkaState(GameState):
    """One game of «Клепка» in progress."""

    engine: KlepkaEngine

    def __init__(self, engine: KlepkaEngine, players: int, seed: int):
        super().__init__(engine, players, seed)
        if not engine.game.meta.players.min <= players <= engine.game.meta.players.max:
            raise SimulationError(f"klepka is for {engine.game.meta.players.min}-"
                                  f"{engine.game.meta.players.max} players, not {players}")
        labels = sorted(engine.tiles)
        self.shuffle(labels, "lay out the grid")
        cells = engine.rows * engine.columns
        self.board: list[str | None] = labels + [None] * (cells - len(labels))
        self.hidden: list[int] = [i for i, label in enumerate(self.board) if label is not None]
        self.pairs: list[list[str]] = [[] for _ in range(players)]  # labels, two per pair
        self.prizes: list[list[str]] = [[] for _ in range(players)]
        self.held: list[dict[str, int]] = [dict.fromkeys(PRIZE_KINDS, 0) for _ in range(players)]
        self.cards_out = dict.fromkeys(PRIZE_KINDS, 0)  # prizes held by anyone, by kind
        self.discard: list[str] = []
        self.board_points = [0] * players  # points and pairs collected from the board itself
        self.board_pairs = [0] * players
        # seat -> cell -> design id: what each seat remembers; ``seen`` is perfect memory
        self.memory: list[Memory] = [Memory() for _ in range(players)]
        self.seen: dict[int, str] = {}  # every shown tile still on the board
        self.mover = 0
        self.phase = WINDOW
        self.queue: list[int] = []  # window: seats still to be asked, first is asked now
        self.resume = TURN  # the phase a window returns to when everyone passes
        self.bookings = [0] * players  # Yellows received since the last that acted as a Red
        self.skips = [0] * players  # turns a seat will lose (a Yellow played while it did not move)
        self.flipped: list[int] = []  # cells turned this turn
        self.peeked: list[int] = []
        self.var_used = False
        self.taker = -1  # PLAY GAME winner choosing a pair
        self.loser = -1
        self._begin_turn(0)

    # -- contract ------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == WINDOW:
            return self.queue[0]
        if self.phase == TAKE:
            return self.taker
        return self.mover

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> list[Move]:
        if self.phase == OVER:
            return []
        if self.phase == WINDOW:
            return self._window_moves(self.queue[0])
        if self.phase == TAKE:
            return [("take", design) for design in sorted(set(self.pair_designs(self.loser)))]
        if self.phase == PEEK:
            return [("peek", cell) for cell in self.hidden if cell not in self.peeked]
        if self.phase == FLIP:
            flips, first = self.engine.flip_moves, self.flipped[0]
            return [flips[cell] for cell in self.hidden if cell != first]
        return self._turn_moves()

    def apply(self, move: Move) -> None:
        try:
            handler = _HANDLERS[(self.phase, move[0])]  # type: ignore[index]
        except (KeyError, TypeError, IndexError):
            handler = None
        if handler is None or not (self._cell_allowed(move) if move[0] in _CELL_MOVES  # type: ignore[index]
                                   else move in self.legal_moves()):
            raise SimulationError(f"klepka: illegal move {move!r} in phase '{self.phase}'")
        self.turn += 1
        handler(self, move)

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise SimulationError("klepka: the game is not over")
        scores = tuple(float(self.points(seat)) for seat in range(self.players))
        keys = [self._rank_key(seat) for seat in range(self.players)]
        best = max(keys)
        winners = tuple(seat for seat in range(self.players) if keys[seat] == best)
        ranking = tuple(sorted(range(self.players), key=lambda s: (-keys[s][0], -keys[s][1], s)))
        reason = "points" if sorted(scores)[-1] != sorted(scores)[-2] else "tile count"
        return Outcome(winners=winners, scores=scores, ranking=ranking, reason=reason)

    def card_places(self) -> Mapping[str, list[str]]:
        places: dict[str, list[str]] = {
            "board": [label for label in self.board if label is not None],
            "discard": list(self.discard),
        }
        for seat in range(self.players):
            places[f"seat{seat}.pairs"] = list(self.pairs[seat])
            places[f"seat{seat}.prizes"] = list(self.prizes[seat])
        return places

    def standing(self) -> tuple[int, ...]:
        return tuple(self.points(seat) for seat in range(self.players))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "klepka",
            "seed": self.seed,
            "players": self.players,
            "turn": self.turn,
            "phase": self.phase,
            "mover": self.mover,
            "queue": list(self.queue),
            "resume": self.resume,
            "bookings": list(self.bookings),
            "skips": list(self.skips),
            "board": list(self.board),
            "flipped": list(self.flipped),
            "peeked": list(self.peeked),
            "var_used": self.var_used,
            "pairs": [list(p) for p in self.pairs],
            "prizes": [list(p) for p in self.prizes],
            "discard": list(self.discard),
            "board_points": list(self.board_points),
            "board_pairs": list(self.board_pairs),
            "held": [dict(h) for h in self.held],
            "cards_out": dict(self.cards_out),
            "taker": self.taker,
            "loser": self.loser,
            "memory": [sorted(m.items()) for m in self.memory],
            "events": dict(sorted(self.events.items())),
        }

    def clone(self) -> "KlepkaState":
        """Field-by-field copy: the same as the deep copy, forty times cheaper."""
        other = self.blank_copy()
        other.board = list(self.board)
        other.hidden = list(self.hidden)
        other.pairs = [list(labels) for labels in self.pairs]
        other.prizes = [list(labels) for labels in self.prizes]
        other.held = [dict(h) for h in self.held]
        other.cards_out = dict(self.cards_out)
        other.discard = list(self.discard)
        other.board_points = list(self.board_points)
        other.board_pairs = list(self.board_pairs)
        other.memory = [m.copy() for m in self.memory]
        other.seen = dict(self.seen)
        other.mover = self.mover
        other.phase = self.phase
        other.queue = list(self.queue)
        other.resume = self.resume
        other.bookings = list(self.bookings)
        other.skips = list(self.skips)
        other.flipped = list(self.flipped)
        other.peeked = list(self.peeked)
        other.var_used = self.var_used
        other.taker = self.taker
        other.loser = self.loser
        return other

    # -- queries the bots use ------------------------------------------------
    def points(self, seat: int) -> int:
        tiles = self.engine.tiles
        return sum(tiles[label].points for label in self.pairs[seat]) // 2

    def tile_count(self, seat: int) -> int:
        return len(self.pairs[seat]) + len(self.prizes[seat])

    def pair_designs(self, seat: int) -> list[str]:
        """Design ids of the seat's pairs, one entry per pair."""
        tiles = self.engine.tiles
        return [tiles[label].design for label in self.pairs[seat][::2]]

    def prize_count(self, seat: int, kind: str) -> int:
        return self.held[seat][kind]

    def design_at(self, cell: int) -> str:
        """The design on a board cell (engines and tests; bots use memory)."""
        label = self.board[cell]
        if label is None:
            raise SimulationError(f"klepka: cell {cell} is empty")
        return self.engine.tiles[label].design

    # -- turn machine --------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn, or the turn of the first seat from it not booked to lose one.

        A seat a Yellow was played on while it did not move loses its next
        turn, however that turn comes (clarification yellow-target).  Every
        booked turn lost uses one booking up, so this ends.
        """
        while self.skips[seat]:
            self.skips[seat] -= 1
            self.events["turns_skipped"] += 1
            seat = (seat + 1) % self.players
        self.mover = seat
        self.flipped = []
        self.peeked = []
        self.var_used = False
        self.events["turns"] += 1
        self._open_window(TURN)

    def _open_window(self, resume: str) -> None:
        """Ask the holders of a Yellow or a Red, in seat order after the mover, then go on in ``resume``.

        The mover is never asked: a card played on one's own turn gains
        nothing (clarification any-moment).
        """
        self.resume = resume
        held, mover = self.held, self.mover
        if not self.cards_out["yellow"] and not self.cards_out["red"]:
            self.queue = []
            self.phase = resume
            return
        order = [(mover + k) % self.players for k in range(1, self.players)]
        self.queue = [seat for seat in order if held[seat]["yellow"] or held[seat]["red"]]
        self.phase = WINDOW if self.queue else resume

    def _window_moves(self, seat: int) -> list[Move]:
        """``pass``, a Red, a Yellow on any other player: sorted order."""
        moves: list[Move] = [("pass",)]
        if self.held[seat]["red"]:
            moves.append(("red",))
        if self.held[seat]["yellow"]:
            moves += [("yellow", target) for target in range(self.players) if target != seat]
        return moves

    def _turn_moves(self) -> list[Move]:
        """Flips (cells ascending), then matches, then VAR: sorted order."""
        flips = self.engine.flip_moves
        moves: list[Move] = [flips[cell] for cell in self.hidden]
        if not self.var_used and self.pairs[self.mover] and self.prize_count(self.mover, "play-game"):
            moves += [("match", seat) for seat in range(self.players)
                      if seat != self.mover and self.pairs[seat]]
        if not self.var_used and len(self.hidden) >= 2 and self.prize_count(self.mover, "var"):
            moves.append(("var",))
        return moves

    def _cell_allowed(self, move: Move) -> bool:
        """Flips and peeks checked directly: the same test as ``legal_moves``, without the list."""
        cell = move[1] if len(move) == 2 else None  # type: ignore[arg-type,index]
        return (type(cell) is int and 0 <= cell < len(self.board)
                and self.board[cell] is not None
                and cell not in (self.flipped if move[0] == "flip" else self.peeked))  # type: ignore[index]

    # -- move handlers -------------------------------------------------------
    def _pass(self, move: Move) -> None:
        self.queue.pop(0)
        if not self.queue:
            self.phase = self.resume

    def _yellow(self, move: Move) -> None:
        seat, target = self.queue.pop(0), move[1]  # type: ignore[misc]
        self._use_prize(seat, "yellow")
        self.events["yellows_used"] += 1
        if self.resume == FLIP:
            self.events["yellows_mid_turn"] += 1
        self.bookings[target] += 1
        if self.bookings[target] == 2:  # the second on one player: the Red's rule (two-yellows)
            self.bookings[target] = 0
            self.events["double_yellows_used"] += 1
            self._give_turn_to(seat)
        elif target == self.mover:  # the turn under way is lost
            self.events["turns_lost"] += 1
            self._stop_turn()
            self._begin_turn((self.mover + 1) % self.players)
        else:  # booked: that seat loses its next turn; the window goes on
            self.skips[target] += 1
            self.events["yellows_booked"] += 1
            if not self.queue:
                self.phase = self.resume

    def _red(self, move: Move) -> None:
        seat = self.queue[0]
        self._use_prize(seat, "red")
        self.events["reds_used"] += 1
        if self.resume == FLIP:
            self.events["reds_mid_turn"] += 1
        self._give_turn_to(seat)

    def _give_turn_to(self, seat: int) -> None:
        """The Red's rule: everyone loses the turn, which goes to ``seat``; the order goes on from there."""
        self.events["turns_taken_by_red"] += 1
        self._stop_turn()
        self._begin_turn(seat)

    def _stop_turn(self) -> None:
        """End a turn a card interrupted after its first tile (clarification half-played-turn):
        as a turn without a pair, a shown footballer goes back face down where it lay
        (everyone has seen it) and a shown prize is the mover's."""
        if self.flipped:
            self.events["turns_interrupted"] += 1
            self._take_prizes()

    def _var(self, move: Move) -> None:
        self._use_prize(self.mover, "var")
        self.events["vars_used"] += 1
        self.var_used = True
        self.phase = PEEK

    def _peek(self, move: Move) -> None:
        cell = move[1]
        self.peeked.append(cell)
        design = self.design_at(cell)  # seen a moment ago: never forgotten
        self.memory[self.mover].remember(cell, design, design in self.engine.prize_designs)
        if len(self.peeked) == 2:
            self.phase = TURN

    def _flip(self, move: Move) -> None:
        cell = move[1]  # type: ignore[index]
        flipped = self.flipped
        flipped.append(cell)
        self._show(cell)
        if len(flipped) == 2 or len(self.hidden) == 1:
            self._resolve_flips()
        else:
            self._open_window(FLIP)

    def _match(self, move: Move) -> None:
        challenger, opponent = self.mover, move[1]
        self._use_prize(challenger, "play-game")
        self.events["matches_played"] += 1
        while True:  # the challenger rolls first; ties are rolled again
            goals = (self.rng.randint(1, self.engine.die_sides),
                     self.rng.randint(1, self.engine.die_sides))
            self.log.append(("dice", goals))
            if goals[0] != goals[1]:
                break
            self.events["match_rerolls"] += 1
        won = goals[0] > goals[1]
        self.taker, self.loser = (challenger, opponent) if won else (opponent, challenger)
        self.events["matches_won_by_challenger" if won else "matches_won_by_opponent"] += 1
        self.phase = TAKE

    def _take(self, move: Move) -> None:
        design = move[1]
        taken = [label for label in self.pairs[self.loser] if self.engine.tiles[label].design == design][:2]
        for label in taken:
            self.pairs[self.loser].remove(label)
            self.pairs[self.taker].append(label)
        self.events["pairs_taken_in_matches"] += 1
        self.taker = self.loser = -1
        self._begin_turn((self.mover + 1) % self.players)

    # -- helpers -------------------------------------------------------------
    def _show(self, cell: int) -> None:
        """Turn a tile face up: every seat may memorise it."""
        design = self.engine.tiles[self.board[cell]].design  # type: ignore[index]
        is_prize = design in self.engine.prize_designs
        self.seen[cell] = design
        keep = 1.0 - self.engine.forget_rate
        random = self.rng.random
        for memory in self.memory:
            if random() < keep:
                memory.remember(cell, design, is_prize)

    def _resolve_flips(self) -> None:
        tiles = self.engine.tiles
        shown = [tiles[self.board[cell]] for cell in self.flipped]  # type: ignore[index]
        if len(shown) == 2 and shown[0].prize is None and shown[0].design == shown[1].design:
            self._collect_pair()
            return
        self._take_prizes()
        if len(shown) == 2 and shown[0].prize is not None and shown[1].prize is not None:
            self.events["two_prizes_turns"] += 1
        self._next_or_over((self.mover + 1) % self.players)

    def _take_prizes(self) -> None:
        """The mover takes the prizes turned this turn; footballers go back face down."""
        tiles = self.engine.tiles
        for cell in self.flipped:
            tile = tiles[self.board[cell]]  # type: ignore[index]
            if tile.prize is not None:
                self.prizes[self.mover].append(tile.label)
                self.held[self.mover][tile.prize] += 1
                self.cards_out[tile.prize] += 1
                self.events["prizes_taken"] += 1
                self._remove(cell)
        self.flipped = []

    def _collect_pair(self) -> None:
        for cell in self.flipped:
            label = self.board[cell]
            assert label is not None
            self.pairs[self.mover].append(label)
            self._remove(cell)
        self.board_points[self.mover] += self.engine.tiles[self.pairs[self.mover][-1]].points
        self.board_pairs[self.mover] += 1
        self.events["pairs"] += 1
        if self.hidden:
            self.events["extra_turns"] += 1
        self._next_or_over(self.mover)

    def _next_or_over(self, seat: int) -> None:
        if self.hidden:
            self._begin_turn(seat)
        else:
            self._finish()

    def _remove(self, cell: int) -> None:
        self.board[cell] = None
        hidden = self.hidden
        del hidden[bisect_left(hidden, cell)]  # kept sorted: the order legal moves list cells in
        self.seen.pop(cell, None)
        for memory in self.memory:
            memory.forget(cell)

    def _use_prize(self, seat: int, kind: str) -> None:
        tiles = self.engine.tiles
        label = next(label for label in self.prizes[seat] if tiles[label].prize == kind)
        self.prizes[seat].remove(label)
        self.held[seat][kind] -= 1
        self.cards_out[kind] -= 1
        self.discard.append(label)
        self.events["prizes_used"] += 1

    def _rank_key(self, seat: int) -> tuple[int, int]:
        return (self.points(seat), self.tile_count(seat))

    def _finish(self) -> None:
        self.phase = OVER
        self.queue, self.flipped, self.peeked = [], [], []
        self._count_prize_effect()

    def _count_prize_effect(self) -> None:
        """Record how the game was decided, and whether the prizes changed the winner.

        The counterfactual winner is the one by points collected from the
        board, ties broken by pairs collected there: what the result would be
        if no match had moved a pair and unused prizes did not count as tiles.
        """
        seats = range(self.players)
        keys = [self._rank_key(s) for s in seats]
        actual = {s for s in seats if keys[s] == max(keys)}
        plain = [(self.board_points[s], self.board_pairs[s]) for s in seats]
        without = {s for s in seats if plain[s] == max(plain)}
        if actual != without:
            self.events["prizes_changed_winner"] += 1
        top_points = max(k[0] for k in keys)
        if len(actual) > 1:
            self.events["shared_wins"] += 1
        elif sum(1 for k in keys if k[0] == top_points) > 1:
            self.events["won_on_tile_count"] += 1


_CELL_MOVES = frozenset({"flip", "peek"})
_HANDLERS = {
    (WINDOW, "pass"): KlepkaState._pass,
    (WINDOW, "yellow"): KlepkaState._yellow,
    (WINDOW, "red"): KlepkaState._red,
    (TURN, "flip"): KlepkaState._flip,
    (TURN, "var"): KlepkaState._var,
    (TURN, "match"): KlepkaState._match,
    (PEEK, "peek"): KlepkaState._peek,
    (FLIP, "flip"): KlepkaState._flip,
    (TAKE, "take"): KlepkaState._take,
}


# -- bots ----------------------------------------------------------------------
#
# A bot sees the public state plus its own seat's memory (``memory[seat]``);
# only ``perfect`` uses ``seen``, the memory of a player who forgets nothing.


def random_bot(state: GameState, rng: random.Random) -> Move:
    """Uniform over the legal moves; flips pick a cell directly, which is the same
    distribution without building the list of moves."""
    assert isinstance(state, KlepkaState)
    if state.phase == FLIP:
        first, hidden = state.flipped[0], state.hidden
        cell = first
        while cell == first:  # uniform over the other hidden cells
            cell = hidden[int(rng.random() * len(hidden))]
        return ("flip", cell)
    if state.phase == TURN and not _holds_turn_prize(state):
        return ("flip", rng.choice(state.hidden))
    return rng.choice(state.legal_moves())


def greedy_bot(state: GameState, rng: random.Random) -> Move:
    """Plays on what its own, forgetful, memory holds (see ``forget_rate``)."""
    assert isinstance(state, KlepkaState)
    if state.phase == TURN:  # the common case first, without the dispatch below
        return _turn_choice(state, rng, state.memory[state.mover])
    return _memory_play(state, rng, state.memory[state.current_player()])


def perfect_bot(state: GameState, rng: random.Random) -> Move:
    """The greedy policy with a memory that forgets nothing."""
    assert isinstance(state, KlepkaState)
    return _memory_play(state, rng, state.seen)


def _memory_play(state: KlepkaState, rng: random.Random, memory: Mapping[int, str]) -> Move:
    if state.phase == WINDOW:
        return _window_choice(state, memory)
    if state.phase == TAKE:
        return ("take", _best_design(state, state.loser))
    if state.phase == PEEK:
        return ("peek", _unknown_cell(state, rng, memory, exclude=state.peeked[0] if state.peeked else -1))
    if state.phase == FLIP:
        return state.engine.flip_moves[_second_cell(state, rng, memory)]
    return _turn_choice(state, rng, memory)


def _window_choice(state: KlepkaState, memory: Mapping[int, str]) -> Move:
    """When a holder of a Yellow or Red interrupts (clarification memory-model).

    A Red, or a Yellow that is someone's second (the Red's rule), when the
    holder knows a pair to take with the turn; after a first tile, a Yellow
    on the mover when the holder remembers where its match lies (the mover
    may too); at a turn's start, a Yellow on a mover who leads the holder.
    """
    seat, mover = state.queue[0], state.mover
    held = state.held[seat]
    knows_pair = not state.skips[seat] and _known_pair(state, memory) is not None
    if knows_pair and held["red"]:
        return ("red",)
    if not held["yellow"]:
        return ("pass",)
    if knows_pair:
        booked = [target for target in range(state.players) if target != seat and state.bookings[target] == 1]
        if booked:
            return ("yellow", mover if mover in booked else booked[0])
    if state.flipped:
        first = state.flipped[0]
        design = state.engine.tiles[state.board[first]].design  # type: ignore[index]
        if design not in state.engine.prize_designs and _remembers(memory, design, besides=first):
            return ("yellow", mover)
        return ("pass",)
    if state.points(mover) > state.points(seat):
        return ("yellow", mover)
    return ("pass",)


def _turn_choice(state: KlepkaState, rng: random.Random, memory: Mapping[int, str]) -> Move:
    flips = state.engine.flip_moves
    pair = _known_pair(state, memory)
    if pair is not None:
        return flips[pair[0]]
    me = state.mover
    held = state.held[me]
    if not state.var_used and held["play-game"] and state.pairs[me]:
        mine = _best_points(state, me)
        rivals = [(_best_points(state, s), s) for s in range(state.players) if s != me and state.pairs[s]]
        if rivals and max(rivals)[0] >= mine:  # an even bet on winning at least what is lost
            return ("match", max(rivals)[1])
    if not state.var_used and held["var"] and len(state.hidden) >= 2:
        return ("var",)
    return flips[_unknown_cell(state, rng, memory)]


def _second_cell(state: KlepkaState, rng: random.Random, memory: Mapping[int, str]) -> int:
    """The match of the first tile if remembered, else a remembered prize, else an unknown cell."""
    first = state.flipped[0]
    design = state.engine.tiles[state.board[first]].design  # type: ignore[index]
    prize_designs = state.engine.prize_designs
    if design not in prize_designs and _remembers(memory, design, besides=first):
        for cell, known in memory.items():
            if known == design and cell != first:
                return cell
    if any(_remembers(memory, prize, besides=first) for prize in prize_designs):
        for cell, known in memory.items():
            if known in prize_designs and cell != first:
                return cell  # no pair is possible now: at least take a prize
    return _unknown_cell(state, rng, memory, exclude=first)


def _remembers(memory: Mapping[int, str], design: str, besides: int) -> bool:
    """Whether ``memory`` holds ``design`` on a cell other than ``besides`` (O(1) for a Memory)."""
    if isinstance(memory, Memory):
        return memory.counts.get(design, 0) > (memory.get(besides) == design)
    return any(known == design and cell != besides for cell, known in memory.items())


def _unknown_cell(state: KlepkaState, rng: random.Random, memory: Mapping[int, str],
                  exclude: int = -1) -> int:
    """A uniformly random hidden cell the bot does not remember (any, if it remembers all).

    Rejection sampling first: it is the same distribution as picking from the
    list of unknown cells, and far cheaper while memory covers few cells.
    """
    hidden = state.hidden
    for _ in range(8):
        cell = hidden[int(rng.random() * len(hidden))]
        if cell not in memory and cell != exclude:
            return cell
    unknown = [c for c in hidden if c not in memory and c != exclude]
    return _pick(rng, unknown or [c for c in hidden if c != exclude])


def _known_pair(state: KlepkaState, memory: Mapping[int, str]) -> tuple[int, int] | None:
    if isinstance(memory, Memory):
        return memory.known_pair()
    first_cell: dict[str, int] = {}  # perfect memory: a plain scan is cheap enough for that bot
    prize_designs = state.engine.prize_designs
    for cell, design in memory.items():
        if design in prize_designs:
            continue
        if design in first_cell:
            return first_cell[design], cell
        first_cell[design] = cell
    return None


def _best_design(state: KlepkaState, seat: int) -> str:
    points = state.engine.design_points
    return max(state.pair_designs(seat), key=lambda d: (points[d], d))


def _best_points(state: KlepkaState, seat: int) -> int:
    tiles = state.engine.tiles
    return max((tiles[label].points for label in state.pairs[seat]), default=0)


def _holds_turn_prize(state: KlepkaState) -> bool:
    held = state.held[state.mover]
    return bool(held["var"] or held["play-game"])


def _pick(rng: random.Random, cells: list[int]) -> int:
    return cells[int(rng.random() * len(cells))]
