"""Sweeps: a game played over a grid of player counts, rule option values and bots.

Every cell of the grid (players x each varied option's values x bots) plays
``games`` games.  Game ``i`` of a cell is dealt with the seed
``derive_seed(master, "sweep", cell key, i)``, where the cell key names the
player count, the varied options (by name, sorted) and the bot; the bot draws
from ``derive_seed(game seed, "bot")`` as in ``cardgen simulate``.  So a
game's result depends on nothing but the grid and the master seed: not on the
scheduler, the number of workers or how the games are cut into chunks.

The work is cut into :class:`ChunkTask` s (one cell, a range of game indices)
that a process, a Dask worker on this machine or on another one plays with
:func:`run_chunk`: one compact record per game (:func:`play_chunk`), folded
into the chunk's exact tally (integer counts, histograms, sums kept as
fractions) and encoded as the chunk's file, where the chunk was played.  Each
finished chunk is saved under ``DIR/chunks/<plan>/`` at once, so an
interrupted sweep resumes from what it has (a resumed chunk's records are
tallied again), and the chunks' tallies are merged per cell, so the order in
which chunks come back does not change a single digit.

Invariants, in sweep mode, are checked on a sample of each cell's games:
the first ``check_first`` (20) and every ``check_every``-th (100) after, with
the checks of ``cardgen simulate`` (all invariants after every move, the clone
check after the first, every 25th and the last); the other games are played
bare, still failing when they pass the engine's move bound or the engine
raises.  A checked game makes the same moves as a bare one, so the sample
changes no figure unless it finds a violation.  ``simulate`` and ``validate
--simulate`` still check every game.

``sweep.json`` (:func:`sweep_document`) holds every number and nothing that
depends on the run; timings, hosts and paths go to ``run.json``.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
import math
import os
import random
import re
import stat
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from cardgen.engines.base import Engine, Outcome, _text
from cardgen.errors import InvariantViolation, SimulationError
from cardgen.simulation.invariants import CheckPolicy
from cardgen.simulation.runner import derive_seed, play_checked
from cardgen.simulation.sweep_stats import CellTally, effects, tally_summary

FORMAT = 2
CHUNK_GAMES = 250
CHECK_FIRST = 20
CHECK_EVERY = 100

# (index, turns, violation or None, winners, scores, draw, ((event, count), ...), extra): ``extra`` holds
# the winner's margin over the runner-up ("margin") and, for the games played under the checks, the
# turns that offered a choice and the legal moves summed over the turns ("decisions", "branching"),
# and where the engine keeps a running score the lead changes ("lead_changes") and the turns the
# sole winner was not leading ("behind", of "scored_turns")
Record = tuple
#: The chunk files' format; a chunk of another format (an earlier cardgen's) is played again.
CHUNK_FORMAT = 2
#: A chunk file larger than this is not read (250 games' records are a few hundred KB).
MAX_CHUNK_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Cell:
    """One configuration of the grid."""

    index: int
    players: int
    options: tuple[tuple[str, str], ...]  # the varied options, as given (name, value text)
    bot: str

    @property
    def key(self) -> str:
        """Seeds derive from this: the configuration, independent of the cell's place in the grid."""
        parts = [f"players={self.players}", *(f"{n}={v}" for n, v in sorted(self.options)), f"bot={self.bot}"]
        return ";".join(parts)

    @property
    def label(self) -> str:
        return ", ".join([f"{self.players} players", *(f"{n}={v}" for n, v in self.options), f"bot {self.bot}"])


@dataclass(frozen=True)
class SweepPlan:
    """What to play: the grid, the games per cell and the master seed."""

    game_dir: Path
    engine: str  # "module:Class", importable wherever the chunks run
    players: tuple[int, ...]
    options: tuple[tuple[str, tuple[str, ...]], ...]  # varied option -> values, as given
    bots: tuple[str, ...]
    games: int
    seed: int
    check_first: int = CHECK_FIRST
    check_every: int = CHECK_EVERY
    chunk_games: int = CHUNK_GAMES
    #: ``None``: every cell plays ``games``.  A number: every cell plays until each seat's
    #: (or a mixed cell's first bot's) 95 % interval is at most this wide on either side, and
    #: ``games`` is the cap (:func:`run_sweep`).
    precision: float | None = None

    def cells(self) -> list[Cell]:
        names = [name for name, _ in self.options]
        combos = list(itertools.product(*(values for _, values in self.options)))
        return [
            Cell(index, players, tuple(zip(names, combo)), bot)
            for index, (players, combo, bot) in enumerate(itertools.product(self.players, combos, self.bots))
        ]

    def tasks(self) -> list["ChunkTask"]:
        """Every chunk of every cell up to ``games`` (an adaptive sweep plays a first part of them)."""
        return [task for cell in self.cells() for task in self.chunk_tasks(cell, 0, self.games)]

    def chunk_tasks(self, cell: Cell, start: int, stop: int) -> list["ChunkTask"]:
        """The chunks of games ``start .. stop-1`` of ``cell``; chunks start at multiples of
        ``chunk_games`` (``start`` is one), so a resumed or adaptive run finds them by name."""
        return [
            ChunkTask(self.engine, str(self.game_dir), cell.index, cell.key, cell.options, cell.players, cell.bot,
                      self.seed, first, min(first + self.chunk_games, stop, self.games), self.check_first,
                      self.check_every)
            for first in range(start, min(stop, self.games), self.chunk_games)
        ]

    def checked_games(self) -> int:
        return sum(1 for index in range(self.games) if is_checked(index, self.check_first, self.check_every))

    def identity(self, content: str) -> str:
        """A hash of everything the records depend on (not the chunking): names the resume folder."""
        data = [FORMAT, content, self.engine, self.players, self.options, self.bots, self.games, self.seed,
                self.check_first, self.check_every]  # not the precision: it only says how many chunks to play
        return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ChunkTask:
    """Games ``start .. stop-1`` of one cell: all a worker needs, small to send."""

    engine: str
    game_dir: str
    cell: int
    cell_key: str
    options: tuple[tuple[str, str], ...]
    players: int
    bot: str
    seed: int
    start: int
    stop: int
    check_first: int
    check_every: int

    @property
    def name(self) -> str:
        return f"cell{self.cell:03d}-{self.start:07d}-{self.stop:07d}"


def is_checked(index: int, first: int, every: int) -> bool:
    return index < first or (every > 0 and index % every == 0)


def game_seed(master: int, cell_key: str, index: int) -> int:
    return derive_seed(master, "sweep", cell_key, index)


# -- playing a chunk (runs in the worker) ------------------------------------------------------------

_ENGINES: dict[tuple, Engine] = {}  # per worker process: built once, reused by every chunk
#: Engines a worker keeps: a cluster's long-lived workers see sweep after sweep (each edit of a
#: game is a new folder), and a grid has rarely more option sets than this.
ENGINES_KEPT = 32


def worker_engine(target: str, game_dir: str, options: tuple[tuple[str, str], ...]) -> Engine:
    key = (target, game_dir, options)
    engine = _ENGINES.pop(key, None)  # put back last: the least recently used go first
    if engine is not None:
        _ENGINES[key] = engine
    else:
        while len(_ENGINES) >= ENGINES_KEPT:
            del _ENGINES[next(iter(_ENGINES))]
        from cardgen.content import load_game

        module_name, class_name = target.split(":")
        engine_class = getattr(importlib.import_module(module_name), class_name)
        engine = engine_class(load_game(Path(game_dir)), dict(options))
        _ENGINES[key] = engine
    return engine


def warm_engine(target: str, game_dir: str, options: tuple[tuple[str, str], ...]) -> None:
    """Build the engine in this worker now (imports, content), so that no chunk pays for it."""
    worker_engine(target, game_dir, options)


@dataclass
class ChunkResult:
    """A played chunk as the sweep keeps it, made where the chunk was played: the text of
    its chunk file and its exact tally.  Encoding the records and tallying them there, not in
    the process that runs the sweep, keeps that process (which shares the cores with a local
    cluster's workers) to a file write and a merge of a few counters per chunk."""

    text: str
    tally: CellTally


def run_chunk(task: ChunkTask) -> ChunkResult:
    records = play_chunk(task)
    tally = CellTally(task.players, is_mixed(task.bot))
    tally.add(records)
    return ChunkResult(chunk_text(task, records), tally)


def chunk_text(task: ChunkTask, records: list[Record]) -> str:
    """The chunk file, one line of JSON: its format, the task's name, the number of games, the
    records and a SHA-256 of the name and records (:func:`_saved` checks each)."""
    return json.dumps({"format": CHUNK_FORMAT, "task": task.name, "games": len(records), "records": records,
                       "sha256": _records_digest(task.name, records)}) + "\n"


def _records_digest(name: str, records: Sequence[Sequence[Any]]) -> str:
    return hashlib.sha256(json.dumps([name, records], separators=(",", ":")).encode("utf-8")).hexdigest()


def play_chunk(task: ChunkTask) -> list[Record]:
    """Play the chunk's games; one record per game, in index order."""
    engine = worker_engine(task.engine, task.game_dir, task.options)
    bots = engine.bots()
    bound = engine.move_bound(task.players)
    policy = CheckPolicy()
    records = []
    for index in range(task.start, task.stop):
        seed = game_seed(task.seed, task.cell_key, index)
        choose = seated_bot(bots, task.bot, task.players, index)
        if is_checked(index, task.check_first, task.check_every):
            records.append(_checked_record(engine, task, index, seed, policy, choose))
        else:
            records.append(_bare_record(engine, task.players, index, seed, choose, bound))
    return records


def is_mixed(bot: str) -> bool:
    """``"greedy+random"``: one greedy, the others random, greedy's seat turning game by game."""
    return "+" in bot


def seat_bots(bot: str, players: int, index: int) -> list[str]:
    """The bot of each seat in game ``index`` of a cell: a mixed cell's first bot sits in seat
    ``index % players`` (every seat equally often, whatever the chunking), the second in the rest."""
    if not is_mixed(bot):
        return [bot] * players
    lead, other = bot.split("+", 1)
    names = [other] * players
    names[index % players] = lead
    return names


def seated_bot(bots: Mapping[str, Callable], bot: str, players: int, index: int) -> Callable:
    """The engine's own bot for a plain cell (its fast loop stays on), else one that asks the
    bot of the seat to move; both draw from the game's one bot RNG."""
    if not is_mixed(bot):
        return bots[bot]
    choosers = [bots[name] for name in seat_bots(bot, players, index)]

    def by_seat(state: Any, rng: random.Random) -> Any:
        return choosers[state.current_player()](state, rng)

    return by_seat


def _finished(index: int, turns: int, state: Any, extra: dict | None = None) -> Record:
    outcome = state.outcome()
    return (index, turns, None, list(outcome.winners), [float(s) for s in outcome.scores], bool(outcome.draw),
            sorted(state.events.items()), {"margin": _number(winner_margin(outcome)), **(extra or {})})


def winner_margin(outcome: Outcome) -> float:
    """How far the winner is ahead of the runner-up, in the game's own score, read the engine's way.

    The engine says who won (``winners``) and, where the game has places, who came next
    (``ranking``): in a game where the lowest score wins, the runner-up is the second lowest.
    Without a ranking the runner-up is the other seat whose score is nearest the winner's.  A
    shared win or a draw has no margin: 0.
    """
    scores = outcome.scores
    if outcome.draw or len(outcome.winners) != 1 or len(scores) < 2:
        return 0.0
    winner = outcome.winners[0]
    others = [seat for seat in outcome.ranking if seat != winner] or sorted(
        (seat for seat in range(len(scores)) if seat != winner),
        key=lambda seat: (abs(scores[seat] - scores[winner]), seat))
    return abs(float(scores[winner]) - float(scores[others[0]]))


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _checked_record(engine: Engine, task: ChunkTask, index: int, seed: int, policy: CheckPolicy,
                    choose: Callable) -> Record:
    try:
        played = play_checked(engine, task.players, seed, choose, policy)
    except InvariantViolation as violation:
        return (index, violation.move_number, str(violation), [], [], False, [], {})
    winners = played.state.outcome().winners
    return _finished(index, len(played.moves), played.state,
                     _choices(engine, task.players, seed, played.moves, winners))


def _choices(engine: Engine, players: int, seed: int, moves: Sequence[Any], winners: Sequence[int]) -> dict[str, int]:
    """The checked game played again to count its choices: the turns with more than one legal
    move, and the legal moves summed over the turns (the branching factor's numerator).  Counted on
    the checked sample only: the bare games' fast loops hand no legal moves out.

    Where the engine keeps a running score (``GameState.standing``), also the lead changes (the
    sole leader becoming another seat; a tie leaves the lead with nobody, and the next sole leader
    counts as a change only if it is another seat) and, in a game with one winner, the turns
    after which the winner was not the sole leader."""
    state = engine.new_game(players, seed)
    decisions = branching = 0
    leaders = []
    for move in moves:
        legal = len(state.legal_moves())
        decisions += legal > 1
        branching += legal
        state.apply(move)
        standing = state.standing()
        if standing is not None:
            best = max(standing)
            leading = [seat for seat, score in enumerate(standing) if score == best]
            leaders.append(leading[0] if len(leading) == 1 else None)
    found = {"decisions": decisions, "branching": branching}
    if leaders:
        sole = [seat for seat in leaders if seat is not None]
        found["lead_changes"] = sum(1 for before, after in zip(sole, sole[1:]) if before != after)
        if len(winners) == 1:
            found["behind"] = sum(1 for seat in leaders if seat != winners[0])
            found["scored_turns"] = len(leaders)
    return found


def _bare_record(engine: Engine, players: int, index: int, seed: int, choose: Callable, bound: int) -> Record:
    """The game without invariant checks (``GameState.play_out``): the same moves as
    :func:`play_checked` plays."""
    bot_rng = random.Random(derive_seed(seed, "bot"))
    state = None
    try:
        state = engine.new_game(players, seed)
        return _finished(index, state.play_out(choose, bot_rng, bound), state)
    except Exception as error:  # an engine bug is one game's violation, as in simulate
        message = f"{type(error).__name__}: {error}" if not isinstance(error, SimulationError) else str(error)
        # the failing move's number as far as the state counted it (the engines count moves in ``turn``)
        failed = getattr(state, "turn", 0) + 1
        return (index, failed, f"{message} (game {engine.game.id}, seed {seed}, move {failed})", [], [], False, [], {})


# -- running a plan --------------------------------------------------------------------------------

#: ``execute(tasks, done)`` runs every task (:func:`run_chunk`) and calls ``done(task, result)``
#: in this process as each one finishes, in any order.
Executor = Callable[[Sequence[ChunkTask], Callable[[ChunkTask, ChunkResult], None]], None]


def run_inline(tasks: Sequence[ChunkTask], done: Callable[[ChunkTask, ChunkResult], None]) -> None:
    """Play the chunks one after the other in this process."""
    for task in tasks:
        done(task, run_chunk(task))


@dataclass
class SweepResult:
    plan: SweepPlan
    cells: list[Cell]
    tallies: list[CellTally]
    chunks_run: int = 0
    chunks_reused: int = 0
    games_run: int = 0  # games played by this run (not read from saved chunks)


def run_sweep(
    plan: SweepPlan,
    store: Path,
    content: str,
    execute: Executor = run_inline,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """Play every chunk not already saved under ``store`` with ``execute``,
    saving each as it finishes; then fold all of them into per-cell tallies.

    With ``plan.precision`` the cells play in rounds: after each round a cell whose seats'
    95 % intervals are all at most ``precision`` on either side stops, the others play on to
    the number of games their win rates so far say they need (whole chunks, at most
    ``plan.games``).  A round's decision reads the cell's games 0 .. n-1 and nothing else, so
    the same seed stops every cell at the same game on any scheduler."""
    from cardgen.fileio import write_text_atomic

    folder = store / plan.identity(content)
    folder.mkdir(parents=True, exist_ok=True)
    cells = plan.cells()
    tallies = [CellTally(cell.players, is_mixed(cell.bot)) for cell in cells]
    result = SweepResult(plan, cells, tallies)

    def done(task: ChunkTask, chunk: ChunkResult) -> None:
        write_text_atomic(folder / f"{task.name}.json", chunk.text)
        tallies[task.cell].merge(chunk.tally)
        result.chunks_run += 1
        result.games_run += chunk.tally.games
        if progress is not None:
            progress(chunk.tally.games)

    played = [0] * len(cells)
    targets = [plan.games if plan.precision is None else min(plan.games, FIRST_ROUND_CHUNKS * plan.chunk_games)] * len(cells)
    while True:
        todo = []
        for cell in cells:
            for task in plan.chunk_tasks(cell, played[cell.index], targets[cell.index]):
                records = _saved(folder / f"{task.name}.json", task)
                if records is None:
                    _discard(folder / f"{task.name}.json")  # a FIFO or a symlink would refuse the new file
                    todo.append(task)
                else:
                    tallies[task.cell].add(records)
                    result.chunks_reused += 1
                    if progress is not None:
                        progress(len(records))
            played[cell.index] = targets[cell.index]
        execute(todo, done)
        if plan.precision is None:
            return result
        targets = [next_target(plan, tally, count) for tally, count in zip(tallies, played)]
        if targets == played:
            return result


#: An adaptive sweep's first round: this many chunks per cell before the first look at the data.
FIRST_ROUND_CHUNKS = 4


def next_target(plan: SweepPlan, tally: CellTally, played: int) -> int:
    """How many games the cell should have played by the end of the next round: ``played`` when
    every seat's interval is narrow enough or the cap is reached, else the count the widest
    seat needs at its present rate (a tenth more, whole chunks, at least one more chunk)."""
    from cardgen.simulation.statistics import Z_95, wilson_interval

    if played >= plan.games or not tally.completed:
        return played
    widest = max((high - low) / 2 for low, high in (wilson_interval(float(w), tally.completed) for w in tally.wins))
    if widest <= plan.precision:
        return played
    spread = max(rate * (1 - rate) for rate in (float(Fraction(w) / tally.completed) for w in tally.wins))
    needed = Z_95 ** 2 * spread / plan.precision ** 2 * 1.1 * tally.games / tally.completed
    chunks = -(-int(needed) // plan.chunk_games)
    return min(plan.games, max(played + plan.chunk_games, chunks * plan.chunk_games))


def _saved(path: Path, task: ChunkTask) -> list | None:
    """A finished chunk's records, or None when the file is not one this sweep wrote whole.

    A resumed sweep counts what it reads as results, so nothing is trusted: the file must be
    a regular file (opened without following a symlink or waiting on a FIFO, at most
    :data:`MAX_CHUNK_BYTES`), of :data:`CHUNK_FORMAT`, for this task, with as many records
    as the task has games and the digest written with them, and every record of the shape
    and range a played game gives (:func:`_sound_record`).  A chunk that fails any of it --
    torn by a crash, damaged, edited, of an earlier cardgen -- is played again.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CHUNK_BYTES:
                return None
            data = json.loads(handle.read(MAX_CHUNK_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != CHUNK_FORMAT or data.get("task") != task.name:
        return None
    records = data.get("records")
    games = task.stop - task.start
    if not isinstance(records, list) or len(records) != games or data.get("games") != games:
        return None
    if data.get("sha256") != _records_digest(task.name, records):
        return None
    if not all(_sound_record(record, index, task.players) for index, record in zip(range(task.start, task.stop), records)):
        return None
    return records


def _discard(path: Path) -> None:
    """Remove a chunk file that did not verify (a symlink itself, never what it names)."""
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
    except OSError:  # missing, or not ours to remove: writing the new chunk says so
        pass


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _sound_record(record: Any, index: int, players: int) -> bool:
    """Whether a record read back is one :func:`play_chunk` could have made for game ``index``."""
    if not isinstance(record, list) or len(record) != 8:
        return False
    number, turns, violation, winners, scores, draw, events, extra = record
    if not isinstance(extra, dict) or not all(
            isinstance(key, str) and isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0 for key, value in extra.items()):
        return False
    if number != index or not _count(number) or not _count(turns) or not isinstance(draw, bool):
        return False
    if violation is not None and not isinstance(violation, str):
        return False
    if not isinstance(winners, list) or not all(_count(seat) and seat < players for seat in winners):
        return False
    if len(set(winners)) != len(winners):
        return False
    if not isinstance(scores, list) or len(scores) > players or not all(
            isinstance(score, (int, float)) and not isinstance(score, bool) and math.isfinite(score)
            for score in scores):
        return False
    return isinstance(events, list) and all(
        isinstance(event, list) and len(event) == 2 and isinstance(event[0], str) and _count(event[1])
        for event in events)


# -- the document ----------------------------------------------------------------------------------


def sweep_document(result: SweepResult, game: Any, engine_id: str, content: str,
                   defaults: Mapping[str, Any], event_names: Sequence[str] = ()) -> dict[str, Any]:
    """Every number of the sweep, in a fixed order, free of anything run-dependent.

    ``findings`` holds the report's claims (:mod:`cardgen.simulation.findings`); ``event_names``
    are the engine's own counters, reported in every cell (zero when they never happened)."""
    from cardgen.simulation.findings import build_findings
    from cardgen.simulation.limits import cell_limit_checks

    plan = result.plan
    limits = game.meta.limits
    base_players = game.meta.players.min
    cells = []
    for cell, tally in zip(result.cells, result.tallies):
        options = {**{n: _text(v) for n, v in defaults.items()}, **dict(cell.options)}
        summary = tally_summary(tally, event_names)
        record = {"cell": cell.index, "key": cell.key, "label": cell.label, "players": cell.players,
                  "varied": dict(cell.options), "options": dict(sorted(options.items())), "bot": cell.bot,
                  "games": tally.games,
                  "checked_games": sum(1 for i in range(tally.games) if is_checked(i, plan.check_first, plan.check_every)),
                  **summary}
        checks = cell_limit_checks(limits, record, base_players)
        record["limits"] = checks
        record["within_limits"] = all(c["verdict"] != "outside" for c in checks)
        record["limits_verdict"] = ("outside" if not record["within_limits"] else
                                    "undecided" if any(c["verdict"] == "undecided" for c in checks) else "inside")
        cells.append(record)
    baselines = baselines_of(plan.options, defaults)
    return {
        "format": FORMAT,
        "game": game.id,
        "engine": engine_id,
        "content_sha256": content,
        "seed": plan.seed,
        "games_per_cell": plan.games,
        "precision": plan.precision,
        "grid": {"players": list(plan.players), "options": {n: list(v) for n, v in plan.options},
                 "bots": list(plan.bots)},
        "default_options": {n: _text(v) for n, v in sorted(defaults.items())},
        "baselines": baselines,
        "checks": {
            "sample": f"the first {plan.check_first} games of every cell and every {plan.check_every}th after"
                      if plan.check_every > 0 else f"the first {plan.check_first} games of every cell",
            "checked_games_per_cell": plan.checked_games(),
            "checks": "every invariant after every move; clone check after the first, every 25th and the last move",
            "other_games": "played without checks; a game past the move bound or an engine error is a violation",
        },
        "limits": limits.model_dump() if limits is not None else None,
        "limits_base_players": (limits.players or base_players) if limits is not None else None,
        "cells": cells,
        "findings": build_findings(cells, plan.options, baselines),
        "effects": effects(plan.options, cells),
    }


def baselines_of(options: Sequence[tuple[str, Sequence[str]]], defaults: Mapping[str, Any]) -> dict[str, str]:
    """Each varied option's value the others are compared with: the game's default when it was
    swept, else the first value given."""
    found = {}
    for name, values in options:
        default = _text(defaults[name]) if name in defaults else None
        found[name] = default if default in values else values[0]
    return found


def content_fingerprint(game_dir: Path, engine_class: type) -> str:
    """SHA-256 over the game folder's files (names and bytes) and the engine's module source:
    resumed chunks must come from the same rules and cards."""
    import inspect

    digest = hashlib.sha256()
    for path in sorted(p for p in game_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(game_dir).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    try:
        digest.update(Path(inspect.getfile(engine_class)).read_bytes())
    except (OSError, TypeError):
        digest.update(f"{engine_class.__module__}:{engine_class.__qualname__}".encode())
    return digest.hexdigest()


def document_text(document: Mapping[str, Any]) -> str:
    """Indented JSON with lists of numbers kept on one line (histograms stay readable)."""
    text = json.dumps(document, indent=1, ensure_ascii=False)
    return _NUMBER_LIST.sub(lambda m: "[" + ", ".join(m.group(1).split()).replace(",,", ",") + "]", text) + "\n"


_NUMBER_LIST = re.compile(r"\[\s*((?:-?[0-9][0-9.e+-]*,?\s*)+)\]")


def parse_values(items: Iterable[str]) -> list[str]:
    """``"a,b, c"`` -> ``["a", "b", "c"]``, no empties, order kept, duplicates dropped."""
    seen: dict[str, None] = {}
    for item in items:
        for value in item.split(","):
            if value.strip():
                seen.setdefault(value.strip(), None)
    return list(seen)


__all__ = ["Cell", "ChunkResult", "ChunkTask", "SweepPlan", "SweepResult", "content_fingerprint", "document_text",
           "game_seed", "play_chunk", "run_chunk", "run_inline", "run_sweep", "sweep_document"]
