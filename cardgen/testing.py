"""Contract checks for any engine, bundled or plug-in, as one call a test can make.

    from cardgen.testing import check_engine

    def test_my_engine():
        check_engine(lambda: MyEngine(load_game(GAME_DIR)), games=50, seed=1)

:func:`check_engine` plays seeded games with the engine's bots and checks what
``cardgen simulate`` relies on (the contract in :mod:`cardgen.engines.base`):

* the engine offers the bots ``random`` and ``greedy``, and deals a game for
  every player count ``game.yaml`` allows (or those given);
* after every move of every game (random bot, then a few greedy games): the
  legal moves are in a stable sorted order, the same when asked twice, and
  empty exactly when the game is over; every card the engine reports
  (``card_places()``) is in exactly one place and none is lost or made up;
  the game stays within ``move_bound(players)`` moves; a clone equals the
  original and a move on the clone leaves the original unchanged (the
  checks of :class:`cardgen.simulation.InvariantChecker`, the clone check on
  every move);
* a move that is not legal raises :class:`cardgen.errors.SimulationError`;
* the outcome names seats that exist, one score per seat, no winner on a
  draw, and a ranking that is a permutation of the seats when given;
* ``to_dict()`` is plain JSON data;
* determinism: the same seed gives the same moves, final state and outcome
  in a second engine (built again when a factory is given), while the global
  ``random`` module is disturbed between moves, and replaying the moves from
  the seed reaches the same final state.

Every failure is collected (the first of each kind per player count, with
its seed and move number) and raised together as one
:class:`EngineContractError`; nothing is printed.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence, Union

from cardgen.engines.base import Engine, GameState
from cardgen.errors import CardgenError, InvariantViolation, SimulationError
from cardgen.simulation.invariants import FULL_CHECKS
from cardgen.simulation.runner import derive_seed, play_checked, replay

EngineSource = Union[Engine, Callable[[], Engine]]
GREEDY_SHARE = 5  # one greedy game for every this many random ones (at least one)
SHOWN_FAILURES = 20


class EngineContractError(SimulationError):
    """An engine broke the contract :func:`check_engine` checks; ``failures`` lists each problem."""

    def __init__(self, engine_id: str, failures: Sequence[str]):
        shown = list(failures[:SHOWN_FAILURES])
        more = f"\n  ... and {len(failures) - SHOWN_FAILURES} more" if len(failures) > SHOWN_FAILURES else ""
        super().__init__(
            f"engine '{engine_id}' breaks the engine contract ({len(failures)} problem(s)):\n  "
            + "\n  ".join(shown) + more
        )
        self.failures = list(failures)


@dataclass
class ContractReport:
    """What :func:`check_engine` played when everything held."""

    engine: str
    players: list[int]
    games: int = 0
    moves: int = 0
    checks: list[str] = field(default_factory=list)


def check_engine(
    engine_or_factory: EngineSource,
    games: int = 20,
    seed: int = 1,
    players: Sequence[int] | None = None,
) -> ContractReport:
    """Play ``games`` random-bot games (and a few greedy ones) per player
    count under every contract check; raise :class:`EngineContractError`
    listing every problem found, else return what was played."""
    if games < 1:
        raise ValueError("check_engine needs at least one game")
    engine = _build(engine_or_factory)
    counts = list(players) if players else list(range(engine.game.meta.players.min, engine.game.meta.players.max + 1))
    report = ContractReport(engine.id, counts, checks=[
        "bots random and greedy", "deal for every player count", "legal moves sorted, stable, empty only at the end",
        "card conservation", "move bound", "clone equality and independence", "illegal move raises SimulationError",
        "outcome shape", "to_dict is JSON", "determinism by seed (second engine, global RNG disturbed)", "replay",
    ])
    failures: list[str] = []
    bots = engine.bots()
    missing = [name for name in ("random", "greedy") if name not in bots]
    if missing:
        failures.append(f"bots: {', '.join(missing)} missing; the engine offers {', '.join(sorted(bots)) or 'none'}")
    second = _build(engine_or_factory) if callable(engine_or_factory) and not isinstance(engine_or_factory, Engine) else engine
    for count in counts:
        failures += _check_player_count(engine, second, count, games, seed, report, bot_names=[b for b in ("random", "greedy") if b in bots])
    if failures:
        raise EngineContractError(engine.id, failures)
    return report


def _build(source: EngineSource) -> Engine:
    engine = source if isinstance(source, Engine) else source()
    if not isinstance(engine, Engine):
        raise TypeError(f"check_engine needs an Engine or a function returning one, got {engine!r}")
    return engine


def _check_player_count(
    engine: Engine, second: Engine, players: int, games: int, seed: int, report: ContractReport, bot_names: list[str]
) -> list[str]:
    where = f"{players} players"
    try:
        engine.new_game(players, derive_seed(seed, "deal", players))
    except CardgenError as error:
        return [f"{where}: the game allows {players} players but the engine cannot deal: {error}"]
    failures: dict[str, str] = {}  # kind -> first failure of that kind

    def fail(kind: str, message: str) -> None:
        failures.setdefault(kind, f"{where}: {message}")

    plan = [("random", index) for index in range(games)]
    if "greedy" in bot_names:
        plan += [("greedy", index) for index in range(max(1, games // GREEDY_SHARE))]
    for bot, index in plan:
        if bot not in bot_names:
            continue
        game_seed = derive_seed(seed, "contract", players, bot, index)
        try:
            played = play_checked(engine, players, game_seed, bot, FULL_CHECKS)
        except InvariantViolation as violation:
            fail("invariant", f"bot {bot}: {violation}")
            continue
        report.games += 1
        report.moves += len(played.moves)
        _check_finished(played.state, players, game_seed, fail)
        if index < 3:  # the costlier checks on a few games of each bot
            _check_illegal_move(engine, players, game_seed, fail)
            _check_determinism(engine, second, players, game_seed, bot, played.moves, played.state, fail)
    return list(failures.values())


def _check_finished(state: GameState, players: int, seed: int, fail: Callable[[str, str], None]) -> None:
    at = f"seed {seed}, final state"
    outcome = state.outcome()
    if len(outcome.scores) != players:
        fail("outcome", f"outcome has {len(outcome.scores)} scores for {players} seats ({at})")
    if any(not 0 <= seat < players for seat in outcome.winners) or len(set(outcome.winners)) != len(outcome.winners):
        fail("outcome", f"outcome winners {outcome.winners} are not distinct seats 0..{players - 1} ({at})")
    if outcome.draw and outcome.winners:
        fail("outcome", f"a draw with winners {outcome.winners} ({at})")
    if outcome.ranking and sorted(outcome.ranking) != list(range(players)):
        fail("outcome", f"ranking {outcome.ranking} is not an order of the seats 0..{players - 1} ({at})")
    try:
        json.dumps(state.to_dict(), allow_nan=False)
    except (TypeError, ValueError) as error:
        fail("to_dict", f"to_dict() is not plain JSON data: {error} ({at})")


class _NotAMove:
    """A value no engine can take for a move."""

    def __repr__(self) -> str:
        return "<cardgen.testing: not a move>"


def _check_illegal_move(engine: Engine, players: int, seed: int, fail: Callable[[str, str], None]) -> None:
    state = engine.new_game(players, seed)
    if state.is_over():
        return
    try:
        state.apply(_NotAMove())
    except SimulationError:
        return
    except Exception as error:
        fail("illegal", f"an illegal move raised {type(error).__name__}: {error}, expected SimulationError (seed {seed}, move 1)")
        return
    fail("illegal", f"an illegal move was accepted instead of raising SimulationError (seed {seed}, move 1)")


def _check_determinism(
    engine: Engine, second: Engine, players: int, seed: int, bot: str,
    moves: list[Any], final: GameState, fail: Callable[[str, str], None],
) -> None:
    """Play the seed again in ``second`` with the global RNG disturbed; replay the moves."""
    choose = second.bots()[bot]
    bot_rng = random.Random(derive_seed(seed, "bot"))
    disturb = random.Random(seed)
    saved = random.getstate()
    try:
        state = second.new_game(players, seed)
        again: list[Any] = []
        while not state.is_over() and len(again) <= len(moves):
            offered = state.legal_moves()
            if offered != state.legal_moves():
                fail("stable", f"legal_moves() gave two different lists for one state (seed {seed}, move {len(again) + 1})")
                return
            random.seed(disturb.random())  # an engine that reads the global RNG now plays differently
            move = choose(state, bot_rng)
            state.apply(move)
            again.append(move)
    except Exception as error:
        fail("determinism", f"replaying seed {seed} with bot {bot} failed: {type(error).__name__}: {error}")
        return
    finally:
        random.setstate(saved)
    if again != moves or state.to_dict() != final.to_dict() or asdict(state.outcome()) != asdict(final.outcome()):
        first = next((i for i, (a, b) in enumerate(zip(again, moves)) if a != b), min(len(again), len(moves)))
        fail("determinism", f"seed {seed} with bot {bot} played differently the second time (from move {first + 1}); "
                            "all chance must come from the state's rng, none from the global random module or the engine")
        return
    try:
        replayed = replay(engine, players, seed, moves)
    except Exception as error:
        fail("replay", f"replaying the moves of seed {seed} failed: {type(error).__name__}: {error}")
        return
    if replayed.to_dict() != final.to_dict():
        fail("replay", f"replaying the moves of seed {seed} reaches a different final state")
