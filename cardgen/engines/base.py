"""What every reference engine provides, and what the simulation relies on.

The shape follows OpenSpiel and python-chess: an :class:`Engine` is the
static description of a game built from its content (the deck comes from
``cards.yaml``, never from a list in code) plus its rule options; a
:class:`GameState` is one game in progress with its own seeded RNG.

Contract of a state, checked by the simulation after every move:

* ``legal_moves()`` returns moves in a stable, sorted order, and is empty
  only when ``is_over()``;
* ``apply(move)`` changes the state; an illegal move raises
  :class:`cardgen.errors.SimulationError`;
* every physical card is in exactly one place (``card_places()``), and the
  multiset of cards never changes;
* ``clone()`` is equal (``==``) to the original and independent of it;
* ``to_dict()`` is plain JSON-able data describing the whole state (used for
  golden replays and, by default, the equality check);
* optional fast paths the simulation uses on every move, with defaults built
  on the methods above: ``card_lists()`` (the card lists of ``card_places()``
  without their names) and ``snapshot()`` (an independent value that is
  equal exactly when the states are; default ``to_dict()``);
* all randomness comes from the state's ``rng``, seeded from the seed the
  game was started with: a ``random.Random``, or an :class:`EventRandom` for
  engines whose chance events are few; every shuffle is logged in ``log`` so
  that (seed, moves) replays a game exactly.
"""

from __future__ import annotations

import _random
import hashlib
import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Hashable, Mapping, Sequence, TypeVar

from cardgen.content.loader import Game
from cardgen.errors import ContentError, Locator, SimulationError

Move = Hashable  # engines use small frozen dataclasses or tuples
_State = TypeVar("_State", bound="GameState")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` lists the seats that won (several on a shared win, none on a
    draw); ``scores`` is the game's own measure per seat (goals, dung cards,
    points); ``ranking`` orders seats from first place to last where the game
    has places.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    draw: bool = False
    ranking: tuple[int, ...] = ()
    reason: str = ""


def shuffle_like_random(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``, the same permutation from the same RNG state, in
    about 40 % of the time: ``random.Random.shuffle`` makes two Python calls
    (``_randbelow`` and ``getrandbits``) per card, this loop one C call.

    It copies CPython's algorithm (Fisher-Yates from the end, each index
    drawn by rejection from ``getrandbits(n.bit_length())``); if the running
    Python shuffles differently, :data:`_shuffle` is the library's own.
    """
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = _shuffle_steps(len(items))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher-Yates' steps for ``size`` items: (index, choices, bits per draw)."""
    steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    if size <= 1000 and len(_SHUFFLE_STEPS) < 64:  # a game shuffles a few deck sizes, many times
        _SHUFFLE_STEPS[size] = steps
    return steps


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _same_as_random_shuffle() -> bool:
    for size in (2, 18, 70, 72, 100):
        ours, theirs = list(range(size)), list(range(size))
        shuffle_like_random(random.Random(size), ours)
        random.Random(size).shuffle(theirs)
        if ours != theirs:
            return False
    return True


#: The shuffle the engines' chance events use: the fast copy when it matches
#: this Python's ``random.shuffle`` (checked once at import), else the library's.
_shuffle: Callable[[random.Random, list], None] = (
    shuffle_like_random if _same_as_random_shuffle() else random.Random.shuffle
)

_sha512 = hashlib.sha512


def _core_seeded_like_random() -> bool:
    """Whether the C generator seeded with the integer ``random.Random`` makes of
    a text seed (version 2: the text's bytes and their SHA-512, big-endian) draws
    what ``random.Random(text)`` draws."""
    for text in ("1/0", "123456789012345678/7", ""):
        data = text.encode()
        core = _random.Random(int.from_bytes(data + _sha512(data).digest(), "big"))
        reference = random.Random(text)
        if [core.getrandbits(k) for k in (1, 7, 31, 32)] != [reference.getrandbits(k) for k in (1, 7, 31, 32)]:
            return False
    return True


#: What :meth:`EventRandom.shuffle` seeds and shuffles with: the bare C
#: generator and the fast shuffle when both match ``random.Random``, else
#: ``random.Random`` itself and :data:`_shuffle`.
if _shuffle is shuffle_like_random and _core_seeded_like_random():
    _CoreRandom: Callable[[int], Any] = _random.Random
    _shuffle_with_core: Callable[[Any, list], None] = shuffle_like_random
else:  # pragma: no cover - another Python's random module
    _CoreRandom, _shuffle_with_core = random.Random, _shuffle


class EventRandom:
    """Chance for games with few chance events: each event (a shuffle, a
    random pick) draws from a fresh ``random.Random`` seeded with the game's
    seed and the event's number.

    Its whole state is that number, so copying and comparing it costs next to
    nothing, where a ``random.Random`` carries 625 words whose copy and
    comparison cost more than a card-football move (the simulation's clone
    check does both).  Seeding costs about 4 µs an event: right for a few
    shuffles a game, wrong for an engine that draws on every move.

    It offers the part of ``random.Random``'s interface the engines use,
    including ``getstate``/``setstate``, so :func:`copy_rng` and state
    equality work unchanged.
    """

    __slots__ = ("seed", "events")

    def __init__(self, seed: int):
        self.seed = seed
        self.events = 0  # chance events drawn so far

    def _next(self) -> random.Random:
        # A text seed: random.Random hashes it with SHA-512, the same on every
        # platform, and distinct (seed, event) pairs never share a seed.
        rng = random.Random(f"{self.seed}/{self.events}")
        self.events += 1
        return rng

    def shuffle(self, items: list) -> None:
        # A shuffle draws only getrandbits: the C generator seeded as
        # random.Random seeds it from the same text, without that class's
        # Python-level __init__ and seed()
        text = f"{self.seed}/{self.events}".encode()
        self.events += 1
        _shuffle_with_core(_CoreRandom(int.from_bytes(text + _sha512(text).digest(), "big")), items)

    def randrange(self, stop: int) -> int:
        return self._next().randrange(stop)

    def getstate(self) -> tuple[int, int]:
        return (self.seed, self.events)

    def setstate(self, state: tuple[int, int]) -> None:
        self.seed, self.events = state


class GameState(ABC):
    """One game in progress."""

    #: The kind of RNG the state draws from (see :class:`EventRandom`).
    rng_class: ClassVar[Callable[[int], "random.Random | EventRandom"]] = random.Random

    def __init__(self, engine: "Engine", players: int, seed: int):
        self.engine = engine
        self.players = players
        self.seed = seed
        self.rng = self.rng_class(seed)
        self.turn = 0  # moves applied so far
        self.events: Counter[str] = Counter()
        self.log: list[tuple[str, Any]] = []  # shuffles and other chance events

    # -- to implement --------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat (0-based) whose decision ``legal_moves`` offers."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move in a stable order; empty only when the game is over."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move`` for ``current_player()``."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; only valid when ``is_over()``."""

    @abstractmethod
    def card_places(self) -> Mapping[str, list[str]]:
        """Place name -> physical card labels there (see ``PhysicalCard.label``)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (RNG state excluded)."""

    # -- optional ------------------------------------------------------------
    def standing(self) -> Sequence[float] | None:
        """Each seat's score during play, oriented so that more is better (a game won on the
        fewest points gives minus its points), or ``None`` (the default) for a game that keeps
        no running score.  ``cardgen sweep`` reads it after every turn of its checked games to
        count lead changes and how long the winner trailed; it must not change the state."""
        return None

    # -- fast paths (optional) ------------------------------------------------
    def card_lists(self) -> Sequence[Sequence[str]]:
        """The card lists of ``card_places()`` in the same order, without the
        place names.

        The conservation check runs after every move and needs no names
        unless it fails; engines override this to hand over their own lists
        without building a dict.  Callers must not change the lists.
        """
        return list(self.card_places().values())

    def snapshot(self) -> Any:
        """A value equal to another state's snapshot exactly when the two
        states are equal (RNG state aside), sharing nothing mutable with the
        state, so that it can be kept and compared after the state changes.

        The default is ``to_dict()``; engines override it with a cheaper
        tuple of their fields, since the clone check compares snapshots.
        """
        return self.to_dict()

    def play_out(self, choose: "Bot", rng: random.Random, bound: int) -> int:
        """Play on to the end with ``choose`` in every seat and no invariant
        checks; return the number of moves played.

        The moves are exactly those of ``apply(choose(state, rng))`` until
        ``is_over()``.  A sweep plays most of its games through this, so an
        engine may override it with a loop that skips what the plain loop
        repeats on every move for its own bots (a copy of the legal moves for
        the bot, the legality check of a move taken from them); the override
        must make the same moves (``tests/simulation/test_play_out.py``
        plays both ways).  Raises :class:`SimulationError` when the game is
        still running after ``bound`` moves.
        """
        is_over, apply = self.is_over, self.apply  # bound once: this loop runs every move
        moves = 0
        while not is_over():
            if moves >= bound:
                raise_past_bound(moves, bound)
            apply(choose(self, rng))
            moves += 1
        return moves

    # -- shared --------------------------------------------------------------
    def clone(self) -> "GameState":
        """An equal, independent copy.

        The engine (static rules and content) is shared, not copied: it never
        changes during a game, and deep-copying the loaded content would make
        a clone cost milliseconds.  Engines may override this with a faster
        field-by-field copy that starts from :meth:`blank_copy`.
        """
        import copy

        return copy.deepcopy(self, memo={id(self.engine): self.engine})

    def blank_copy(self: _State) -> _State:
        """A new state of the same class holding copies of the fields every
        state has; an engine's ``clone()`` then copies its own fields.

        Field by field, never through ``__dict__``: reading an instance's
        ``__dict__`` turns its inline attribute storage into a dict for good,
        and on Python 3.11 the specialised attribute reads in every engine
        method then miss, for that state and the states after it (measured:
        a checked card-football game took 1,050 µs that way, 940 µs without).
        """
        other = object.__new__(type(self))
        other.engine = self.engine
        other.players = self.players
        other.seed = self.seed
        other.rng = copy_rng(self.rng)
        other.turn = self.turn
        other.events = self.events.copy()
        other.log = list(self.log)
        return other

    def shuffle(self, cards: list, why: str) -> None:
        """Shuffle in place with the game's RNG and log it for replays."""
        self.rng.shuffle(cards)
        self.log.append(("shuffle", why))
        self.events["reshuffles" if why.startswith("re") else "shuffles"] += 1

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GameState)
            and type(self) is type(other)
            and self.snapshot() == other.snapshot()
            and self.rng.getstate() == other.rng.getstate()
        )

    __hash__ = None  # type: ignore[assignment]


#: A bot picks one of ``state.legal_moves()``.  It gets its own RNG (seeded
#: by the simulation from the game's seed) and must never draw from
#: ``state.rng``: the game's chance events must not depend on who plays, so
#: that (seed, moves) replays a game whatever chose the moves.
Bot = Callable[[GameState, random.Random], Move]


def raise_past_bound(moves: int, bound: int) -> None:
    """The failure of a game that passes its engine's declared bound on moves."""
    raise SimulationError(f"game still running after {moves} moves (declared bound {bound})")


def play_out_own_bots(state: GameState, choose: "Bot", rng: random.Random, bound: int, *, greedy: "Bot",
                      greedy_move: Callable[[GameState, list], Move], legal_of: Callable[[], list],
                      play: Callable[[Move, list], None]) -> int:
    """:meth:`GameState.play_out` for an engine whose state has ``over`` and ``turn``
    (``play`` adds one to ``turn``): with :func:`random_bot` or the engine's ``greedy`` bot,
    the legal moves are computed once per move (``legal_of()``, a sequence the loop only
    reads) and the chosen one is played by ``play(move, legal)`` without the copy for the
    bot or the legality check: the same moves as the plain loop, which any other bot gets."""
    if choose is not random_bot and choose is not greedy:
        return GameState.play_out(state, choose, rng, bound)
    start = state.turn
    draw = rng.random
    for _ in range(bound):  # a range, not a count of turns compared each move
        if state.over:
            break
        legal = legal_of()
        if choose is random_bot:
            play(legal[int(draw() * len(legal))], legal)  # random_bot's draw
        else:
            play(greedy_move(state, legal), legal)
    else:
        if not state.over:
            raise_past_bound(state.turn - start, bound)
    return state.turn - start


def random_bot(state: GameState, rng: random.Random) -> Move:
    """Uniform over the legal moves: the baseline bot every engine offers.

    One float draw rather than ``rng.choice``, whose rejection loop of
    ``getrandbits`` calls in Python costs three times as much: this runs on
    every move of every simulated game.  (The bias of scaling a 53-bit float
    to a handful of moves is below 1e-15.)
    """
    moves = state.legal_moves()
    return moves[int(rng.random() * len(moves))]


class Engine(ABC):
    """A game's rules, built from its loaded content and rule options."""

    id: ClassVar[str]
    #: Declared bound on moves in one game; the simulation fails a game past it.
    max_moves: ClassVar[int] = 10_000
    #: Names of the game's own counters in ``GameState.events``; the simulation
    #: reports each of them (zero when it never happened).
    event_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game, options: Mapping[str, Any] | None = None):
        self.game = game
        self.options = resolve_options(game, options or {})

    @abstractmethod
    def new_game(self, players: int, seed: int) -> GameState: ...

    def move_bound(self, players: int) -> int:
        """Most moves one game may take; engines whose bound depends on the
        settings or the player count override this (default: ``max_moves``)."""
        return self.max_moves

    @abstractmethod
    def bots(self) -> dict[str, Bot]:
        """Named bots; at least ``random`` and ``greedy``."""

    def content_report(self) -> dict[str, Any]:
        """Figures about the content that need no play (e.g. head-game's answer
        coverage); ``simulate --json`` and ``validate --simulate`` include them."""
        return {}

    def setting(self, name: str) -> Any:
        try:
            return self.game.meta.settings[name]
        except KeyError:
            raise ContentError(
                f"engine '{self.id}' needs setting '{name}' in game.yaml settings",
                Locator(file=self.game.root / "game.yaml", field=f"settings.{name}"),
            ) from None


def copy_rng(rng: "random.Random | EventRandom") -> "random.Random | EventRandom":
    """An independent copy of ``rng`` in the same state.

    ``Random.__new__`` skips the seeding that ``Random()`` does (from the OS,
    or hashing a seed), which would cost more than the copy itself;
    ``setstate`` then sets every word of the generator and ``gauss_next``.
    """
    other = type(rng).__new__(type(rng))
    other.setstate(rng.getstate())
    return other


def resolve_options(game: Game, given: Mapping[str, Any]) -> dict[str, Any]:
    """Rule option values: the content's defaults overridden by ``given``.

    Values given as text (from ``--option NAME=VALUE``) are matched against
    the declared choices by their text form.
    """
    declared = {option.id: option for option in game.meta.rule_options}
    values = {option.id: option.default for option in game.meta.rule_options}
    for name, value in given.items():
        option = declared.get(name)
        if option is None:
            raise ContentError(
                f"unknown rule option '{name}'; {game.id} has: {', '.join(declared) or 'none'}"
            )
        matches = [c for c in option.choices if c == value or _text(c) == _text(value)]
        if not matches:
            raise ContentError(
                f"rule option '{name}' cannot be {value!r}; choices: "
                f"{', '.join(_text(c) for c in option.choices)}"
            )
        values[name] = matches[0]
    return values


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass
class EngineRegistry:
    """Engine id -> engine class, filled by ``cardgen.engines``."""

    engines: dict[str, type[Engine]] = field(default_factory=dict)

    def register(self, engine: type[Engine]) -> type[Engine]:
        self.engines[engine.id] = engine
        return engine
