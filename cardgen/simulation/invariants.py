"""The invariants every engine's states must keep, checked after every move.

:class:`InvariantChecker` holds what it needs to know about one game (its
card catalogue, the declared length bound, the seed that reproduces it) and
raises :class:`cardgen.errors.InvariantViolation` naming the seed and the move
number.  The checks are written to cost a few microseconds each, so that the
simulation can afford them on every move:

* every physical card is in exactly one place, and the number of cards never
  changes (a length sum and a set difference with the catalogue, over the
  engine's ``card_lists()``);
* the game has not passed its declared bound on moves;
* the player to move has a legal move, and a finished game has none;
* a clone equals the original and does not share its lists or its RNG (a move
  applied to the clone leaves the original unchanged).

The clone check copies the state, compares it and plays a move on the copy:
several times the cost of a move (more for engines whose RNG is a
``random.Random``, whose 625 words are copied and compared), so by default it
runs after the first move, every 25th move and the last; every other check
runs after every move.  ``FULL_CHECKS`` runs the clone check after every move too
(the tests use it; ``cardgen simulate --clone-check-every 1``).
"""

from __future__ import annotations

import sys
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping

from cardgen.engines.base import Engine, GameState
from cardgen.errors import InvariantViolation


@dataclass(frozen=True)
class CheckPolicy:
    """How thoroughly a game is checked.

    ``clone_every``: run the clone check after every n-th move (and always
    after the first and the last); 1 checks every move, 0 never.
    """

    clone_every: int = 25

    def clone_due(self, move_number: int, over: bool) -> bool:
        if self.clone_every <= 0:
            return False
        return over or move_number <= 1 or move_number % self.clone_every == 0


FULL_CHECKS = CheckPolicy(clone_every=1)


class InvariantChecker:
    """Checks one game's states; raise with the game's seed and move number."""

    def __init__(self, engine: Engine, players: int, seed: int, policy: CheckPolicy = FULL_CHECKS):
        self.game_id = engine.game.id
        self.seed = seed
        self.policy = policy
        self.bound = engine.move_bound(players)
        self.catalogue = _catalogue(engine)
        self.card_count = len(self.catalogue)

    def fail(self, message: str, move_number: int) -> InvariantViolation:
        return InvariantViolation(message, game=self.game_id, seed=self.seed, move_number=move_number)

    def check(self, state: GameState, move_number: int) -> None:
        """Every invariant of ``state`` after ``move_number`` moves (0: the deal).

        One function rather than one per invariant, since it runs after every
        move of every simulated game; the named failures are raised here too.
        """
        # Cards, over the engine's own lists (the place names are only needed
        # to describe a failure).  Two C-level operations: no catalogue card
        # is missing from the lists, and the lists hold exactly as many cards
        # as the catalogue.  By pigeonhole, each of the N cards then fills one
        # of the N slots, so none is in two places and no unknown card is
        # there.  (Removing the seen cards from a copy of the catalogue costs
        # less than building a set of them and comparing it.)
        piles = state.card_lists()
        if sum(map(len, piles)) != self.card_count or self.catalogue.difference(*piles):
            raise self.fail(self._describe_cards(state.card_places()), move_number)
        if move_number > self.bound or state.turn > self.bound:
            raise self.fail(f"game still running after {move_number} moves (declared bound {self.bound})", move_number)
        moves = state.legal_moves()
        over = state.is_over()
        if over:
            if moves:
                raise self.fail(f"the game is over but {len(moves)} legal moves remain", move_number)
        elif not moves:
            raise self.fail(f"player {state.current_player()} has no legal move", move_number)
        elif not _in_stable_order(moves):
            raise self.fail(f"legal moves are not in sorted order: {_first(map(repr, moves))}", move_number)
        if self.policy.clone_due(move_number, over):
            self.check_clone(state, move_number)

    def _describe_cards(self, places: Mapping[str, list[str]]) -> str:
        where: dict[str, list[str]] = {}
        for place, cards in places.items():
            for card in cards:
                where.setdefault(card, []).append(place)
        doubled = sorted(f"{card} in {', '.join(p)}" for card, p in where.items() if len(p) > 1)
        missing = sorted(self.catalogue - where.keys())
        unknown = sorted(where.keys() - self.catalogue)
        parts = [f"{sum(map(len, where.values()))} cards in play, expected {self.card_count}"]
        for label, items in (("in two places", doubled), ("missing", missing), ("unknown", unknown)):
            if items:
                parts.append(f"{label}: {_first(items)}")
        return "card conservation broken: " + "; ".join(parts)

    def check_clone(self, state: GameState, move_number: int) -> None:
        copy = state.clone()
        if copy is state or not copy == state:
            raise self.fail("a clone differs from the original", move_number)
        if copy.rng is state.rng:
            raise self.fail("a clone shares the original's RNG", move_number)
        if state.is_over():
            return
        # ``snapshot()`` shares nothing with the state (``to_dict()`` unless
        # the engine has a cheaper one), so it still shows the state as it was.
        before = state.snapshot()
        copy.apply(copy.legal_moves()[0])
        if state.snapshot() != before:
            raise self.fail("a move applied to a clone changed the original", move_number)


_CATALOGUES: "weakref.WeakKeyDictionary[Engine, frozenset[str]]" = weakref.WeakKeyDictionary()


def check_state(engine: Engine, state: GameState) -> None:
    """Every invariant of one state as it stands, clone check included (for
    hand-built positions in tests; a simulation keeps one checker per game)."""
    InvariantChecker(engine, state.players, state.seed, FULL_CHECKS).check(state, state.turn)


def apply_checked(engine: Engine, state: GameState, *moves: object) -> None:
    """Play ``moves`` on a hand-built position, checking every invariant after
    each one, as :func:`check_state` does (for tests)."""
    for move in moves:
        state.apply(move)
        check_state(engine, state)


def _catalogue(engine: Engine) -> frozenset[str]:
    """Every physical card label of the engine's game, built once per engine."""
    catalogue = _CATALOGUES.get(engine)
    if catalogue is None:
        # interned, like the engines' labels: the set comparison of every
        # move then matches cards by identity instead of comparing text
        catalogue = frozenset(sys.intern(card.label) for card in engine.game.physical_cards())
        _CATALOGUES[engine] = catalogue
    return catalogue


def _in_stable_order(moves: list) -> bool:
    try:
        return moves == sorted(moves)
    except TypeError:  # moves that do not compare: a repeat must give the same list
        return len(set(map(repr, moves))) == len(moves)


def _first(items: Iterable[str], count: int = 5) -> str:
    items = list(items)
    more = f" and {len(items) - count} more" if len(items) > count else ""
    return ", ".join(items[:count]) + more


def count_places(state: GameState) -> Counter[str]:
    """Cards per place; handy in tests and error reports."""
    return Counter({place: len(cards) for place, cards in state.card_places().items()})
