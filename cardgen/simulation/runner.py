"""Playing many seeded games, on one core or several, with the same results.

Game ``i`` of a run with master seed ``S`` is played with the seed
``game_seed(S, i)``, a hash of both; its bot draws from its own RNG seeded
with ``derive_seed(game seed, "bot")``.  Nothing depends on which process
plays which game, and the records are put back in index order before they are
summed, so ``--jobs 1`` and ``--jobs 4`` give identical results.

Any exception inside a game (an invariant, an illegal move, an engine bug)
becomes that game's ``violation``, naming the seed and the move number; the
other games go on.

Golden replays keep a game as (seed, moves) and the final state it must
reach: a JSON file with ``game``, ``players``, ``seed``, ``options``,
``moves`` (tuples written as lists), ``final`` (``state.to_dict()``) and
``outcome``.  Since every chance event comes from the state's seeded RNG,
replaying the moves from the seed reproduces ``final`` exactly.
"""

from __future__ import annotations

import hashlib
import json
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from cardgen.engines.base import Engine, GameState
from cardgen.errors import InvariantViolation, SimulationError
from cardgen.simulation.invariants import FULL_CHECKS, CheckPolicy, InvariantChecker

DEFAULT_CHECKS = CheckPolicy()

Progress = Callable[[int], None]  # called with the number of games just finished
CHUNK_GAMES = 100


def derive_seed(master: int | str, *parts: int | str) -> int:
    """A 63-bit seed from a master seed and labels, the same on every platform."""
    text = "/".join(map(str, (master, *parts)))  # map, not a generator: twice per simulated game
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def game_seed(master: int, index: int) -> int:
    return derive_seed(master, "game", index)


@dataclass(frozen=True)
class GameRecord:
    """The result of one simulated game, small enough to send between processes."""

    index: int
    seed: int
    turns: int
    completed: bool
    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    draw: bool = False
    events: Mapping[str, int] = field(default_factory=dict)
    violation: str | None = None


@dataclass(frozen=True)
class PlayedGame:
    """A game played to its end under the invariant checks, with its moves."""

    state: GameState
    moves: list[Any]


def play_checked(
    engine: Engine,
    players: int,
    seed: int,
    bot: "str | Callable" = "random",
    policy: CheckPolicy = FULL_CHECKS,
    *,
    between_moves: Callable[[], None] | None = None,
) -> PlayedGame:
    """Play one game with ``bot`` in every seat, checking the invariants after
    every move; raise :class:`InvariantViolation` on the first failure.

    ``between_moves`` runs before each move (tests use it to disturb the
    global RNG, which no engine may read).
    """
    choose = _bot(engine, bot)
    bot_rng = random.Random(derive_seed(seed, "bot"))
    checker = InvariantChecker(engine, players, seed, policy)
    moves: list[Any] = []
    try:
        state = engine.new_game(players, seed)
        checker.check(state, 0)
        while not state.is_over():
            if between_moves is not None:
                between_moves()
            move = choose(state, bot_rng)
            state.apply(move)
            moves.append(move)
            checker.check(state, len(moves))
    except InvariantViolation:
        raise
    except Exception as error:  # an engine bug is reported like a broken invariant
        raise checker.fail(f"{type(error).__name__}: {error}", len(moves) + 1) from error
    return PlayedGame(state, moves)


def play_game(engine: Engine, players: int, index: int, seed: int, bot: str, policy: CheckPolicy) -> GameRecord:
    """Play game ``index`` and record its result or its violation."""
    try:
        played = play_checked(engine, players, seed, bot, policy)
    except InvariantViolation as violation:
        return GameRecord(index, seed, violation.move_number, completed=False, violation=str(violation))
    state = played.state
    outcome = state.outcome()
    return GameRecord(
        index=index,
        seed=seed,
        turns=len(played.moves),
        completed=True,
        winners=tuple(outcome.winners),
        scores=tuple(float(s) for s in outcome.scores),
        draw=outcome.draw,
        events=dict(state.events),
    )


def _bot(engine: Engine, name: "str | Callable") -> Callable:
    if callable(name):  # a bot already chosen (a sweep seats different bots seat by seat)
        return name
    bots = engine.bots()
    if name not in bots:
        raise SimulationError(f"engine '{engine.id}' has no bot '{name}'; bots: {', '.join(sorted(bots))}")
    return bots[name]


# -- many games --------------------------------------------------------------------------


@dataclass(frozen=True)
class RunPlan:
    """What to simulate; everything a worker process needs to rebuild the engine."""

    engine_class: type[Engine]
    game_dir: Path
    options: Mapping[str, Any]
    players: int
    bot: str
    seed: int
    policy: CheckPolicy = FULL_CHECKS

    @classmethod
    def for_engine(
        cls, engine: Engine, players: int, seed: int, bot: str = "random", policy: CheckPolicy = FULL_CHECKS
    ) -> "RunPlan":
        return cls(type(engine), engine.game.root, dict(engine.options), players, bot, seed, policy)

    def build_engine(self) -> Engine:
        from cardgen.content import load_game

        return self.engine_class(load_game(self.game_dir), self.options)


def run_games(
    engine: Engine,
    games: int,
    seed: int,
    players: int,
    bot: str = "random",
    jobs: int = 1,
    policy: CheckPolicy = DEFAULT_CHECKS,
    progress: Progress | None = None,
) -> list[GameRecord]:
    """Play ``games`` games; the records in index order whatever ``jobs`` is."""
    _bot(engine, bot)  # fail early on an unknown bot name
    engine.new_game(players, 0)  # and on a player count the game does not allow
    plan = RunPlan.for_engine(engine, players, seed, bot, policy)
    chunks = [range(start, min(start + CHUNK_GAMES, games)) for start in range(0, games, CHUNK_GAMES)]
    records: list[GameRecord] = []
    for chunk_records in _run_chunks(engine, plan, chunks, jobs):
        records.extend(chunk_records)
        if progress is not None:
            progress(len(chunk_records))
    records.sort(key=lambda record: record.index)
    return records


def _run_chunks(engine: Engine, plan: RunPlan, chunks: Sequence[range], jobs: int) -> Iterator[list[GameRecord]]:
    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield _play_chunk(engine, plan, chunk)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(plan,)) as pool:
        yield from pool.map(_play_chunk_in_worker, chunks)


def _play_chunk(engine: Engine, plan: RunPlan, chunk: range) -> list[GameRecord]:
    return [
        play_game(engine, plan.players, index, game_seed(plan.seed, index), plan.bot, plan.policy)
        for index in chunk
    ]


_worker: tuple[Engine, RunPlan] | None = None


def _start_worker(plan: RunPlan) -> None:
    global _worker
    _worker = (plan.build_engine(), plan)


def _play_chunk_in_worker(chunk: range) -> list[GameRecord]:
    assert _worker is not None, "worker process was not initialised"
    engine, plan = _worker
    return _play_chunk(engine, plan, chunk)


# -- golden replays ------------------------------------------------------------------------


def move_to_json(move: Any) -> Any:
    return [move_to_json(part) for part in move] if isinstance(move, tuple) else move


def move_from_json(data: Any) -> Any:
    return tuple(move_from_json(part) for part in data) if isinstance(data, list) else data


def replay(engine: Engine, players: int, seed: int, moves: list[Any]) -> GameState:
    """The state reached by playing ``moves`` from the deal of ``seed``."""
    state = engine.new_game(players, seed)
    for move in moves:
        state.apply(move)
    return state


def replay_record(engine: Engine, players: int, seed: int, moves: list[Any]) -> dict[str, Any]:
    """The golden file content for a game."""
    state = replay(engine, players, seed, moves)
    outcome = asdict(state.outcome()) if state.is_over() else None
    return {
        "game": engine.game.id,
        "players": players,
        "seed": seed,
        "options": {name: engine.options[name] for name in sorted(engine.options)},
        "moves": [move_to_json(move) for move in moves],
        "final": state.to_dict(),
        "outcome": json.loads(json.dumps(outcome)),
    }


def write_replay(path: Path, record: dict[str, Any]) -> None:
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_replay(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text(encoding="utf-8"))
    record["moves"] = [move_from_json(move) for move in record["moves"]]
    return record
