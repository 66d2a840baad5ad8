"""``cardgen sweep``: play a game over a grid of player counts, rule options and bots; write a report."""

from __future__ import annotations

import json
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click

from cardgen.cli import Settings
from cardgen.cli.common import echo_warnings, resolve_games, table


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(min=1), default=1000, show_default=True, help="Games per cell.")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed; each game's seed derives from it, the cell and the game's number.")
@click.option("--players", "players_text", default=None, metavar="N,N,...", help="Player counts (default: every count the game allows).")
@click.option("--option", "options", multiple=True, metavar="NAME=A,B,...", help="Rule option and the values to try (repeatable); the others keep their defaults.")
@click.option("--bot", "bots_text", default="random", show_default=True, metavar="BOT,...", help="Bots to try (random, greedy); A+B seats one A against B in every other seat, A's seat turning game by game (a skill table).")
@click.option("--precision", type=click.FloatRange(min=0.001, max=0.5), default=None, metavar="P", help="Play each cell until every seat's 95% interval is at most P on either side (0.01: one point), --games being the cap.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help="Output folder (default: sweeps/GAME).")
@click.option("--scheduler", default="local", show_default=True, metavar="local|inline|ADDRESS", help="local: a Dask cluster of processes on this machine; inline: this process only; tcp://HOST:PORT: a running Dask scheduler.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Worker processes of the local cluster [default: one per core].")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="Also write report.pdf (WeasyPrint).")
@click.pass_obj
def sweep(settings: Settings, game: str, count: int, seed: int, players_text: str | None, options: tuple[str, ...],
          bots_text: str, precision: float | None, out_dir: Path | None, scheduler: str, workers: int | None,
          pdf: bool) -> None:
    """Play GAME --games times in every cell of the grid (players x option values x bots).

    Writes OUT/sweep.json (every number; the same grid and seed give the same
    bytes whatever the scheduler or workers), OUT/run.json (timings, hosts),
    OUT/report.html and OUT/report.pdf.  Finished chunks are kept in
    OUT/chunks/, so an interrupted sweep resumes when run again.  Exit code 1
    when a game broke an invariant.
    """
    from cardgen.extras import require

    require("sweep")  # Dask and matplotlib: cardgen[sweep]
    from cardgen.content import load_game
    from cardgen.engines import engine_for
    from cardgen.simulation.sweep import SweepPlan, content_fingerprint, parse_values

    (game_id,) = resolve_games(settings, [game])
    loaded = load_game((settings.content_dir / game_id).resolve(), display_root=settings.content_dir.resolve().parent)
    echo_warnings(loaded.warnings)
    engine = engine_for(loaded)
    players = _players(players_text, loaded)
    varied = _options(options)
    bots = tuple(parse_values([bots_text]))
    _check_grid(loaded, players, varied, bots)
    engine_class = type(engine)
    plan = SweepPlan(loaded.root, f"{engine_class.__module__}:{engine_class.__qualname__}", players, varied, bots,
                     count, seed, precision=precision)
    out = out_dir or Path("sweeps") / game_id
    content = content_fingerprint(loaded.root, engine_class)
    cells = len(plan.cells())
    games_text = f"up to {count} games (until +-{precision * 100:g} points)" if precision else f"{count} games"
    click.secho(f"{game_id}: {cells} cell(s) x {games_text}, seed {seed}; checked games per cell: "
                f"{plan.checked_games()} (the first {plan.check_first}, then every {plan.check_every}th)", bold=True)
    started, wall = datetime.now(timezone.utc), time.perf_counter()
    try:
        result, cluster = _run(plan, out, content, scheduler, workers, f"{game_id}: {cells * count} games")
    except KeyboardInterrupt:
        click.secho(f"interrupted: the finished chunks are kept in {out / 'chunks'}; run the same command "
                    "again to resume", err=True, fg="yellow")
        raise click.exceptions.Exit(130) from None
    elapsed = time.perf_counter() - wall
    _write_outputs(result, loaded, engine, content, out, pdf, started, elapsed, cluster, plan)


def _run(plan: Any, out: Path, content: str, scheduler: str, workers: int | None, label: str):
    from cardgen.cli.simulate import progress_bar
    from cardgen.simulation.sweep import run_inline, run_sweep

    total = len(plan.cells()) * plan.games
    with progress_bar(total, label) as advance:
        if scheduler == "inline":
            return run_sweep(plan, out / "chunks", content, run_inline, advance), {"scheduler": "inline", "workers": []}
        from cardgen.simulation.cluster import dask_executor

        with dask_executor(scheduler, workers) as (execute, info):
            return run_sweep(plan, out / "chunks", content, execute, advance), info


def _write_outputs(result: Any, loaded: Any, engine: Any, content: str, out: Path, pdf: bool,
                   started: datetime, elapsed: float, cluster: dict, plan: Any) -> None:
    from importlib.metadata import version

    from cardgen.fileio import write_text_atomic
    from cardgen.simulation.report import write_report
    from cardgen.simulation.sweep import document_text, sweep_document

    document = sweep_document(result, loaded, engine.id, content, engine.options, engine.event_names)
    write_text_atomic(out / "sweep.json", document_text(document))
    run = {
        "started": started.isoformat(timespec="seconds"),
        "seconds": round(elapsed, 3),
        "games_played_now": result.games_run,
        "games_per_second": round(result.games_run / elapsed, 1) if elapsed > 0 else 0.0,
        "chunks_run": result.chunks_run,
        "chunks_reused": result.chunks_reused,
        "chunk_games": plan.chunk_games,
        **cluster,
        "out": str(out.resolve()),
        "game_dir": str(loaded.root),
        "cardgen": version("cardgen"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "host": platform.node(),
        "pid": os.getpid(),
    }
    write_text_atomic(out / "run.json", json.dumps(run, indent=1) + "\n")
    written = write_report(document, out, pdf=pdf)
    _print_cells(document)
    click.echo(f"wrote {out / 'sweep.json'}, {out / 'run.json'}, " + ", ".join(str(p) for p in written))
    click.echo(f"{run['games_played_now']} games played in {elapsed:.1f} s ({run['chunks_reused']} chunk(s) reused)")
    violations = [m for cell in document["cells"] for m in cell["violation_examples"]]
    if violations:
        for message in violations[:10]:
            click.secho(f"violation: {message}", err=True, fg="red")
        raise click.exceptions.Exit(1)


def _print_cells(document: dict) -> None:
    rows = []
    for cell in document["cells"]:
        rates = cell["win_rates"]
        verdict = cell["limits_verdict"] if len(cell["limits"]) > 1 or cell["violations"] else "not checked"
        if verdict == "outside":
            verdict = "OUTSIDE: " + ", ".join(c["name"] for c in cell["limits"] if c["verdict"] == "outside")
        rows.append((
            cell["label"], cell["completed"], f"{cell['turns']['mean']:.1f}", f"{rates[0]:.3f}", f"{rates[-1]:.3f}",
            f"{cell['fair_share']:.3f}", f"{cell['draw_rate']:.3f}", f"{cell['balance']:.3f}", verdict,
        ))
    click.echo(table(["cell", "completed", "turns", "seat 1", "last seat", "fair share", "draws", "balance", "limits"],
                     rows))


def _players(text: str | None, game: Any) -> tuple[int, ...]:
    from cardgen.simulation.sweep import parse_values

    allowed = range(game.meta.players.min, game.meta.players.max + 1)
    if text is None:
        return tuple(allowed)
    values = parse_values([text])
    if not values or not all(v.isdigit() for v in values):
        raise click.BadParameter(f"expected player counts like 3,4,5, got {text!r}", param_hint="--players")
    wrong = [v for v in values if int(v) not in allowed]
    if wrong:
        raise click.BadParameter(f"{game.id} plays with {allowed.start} to {allowed.stop - 1} players, not "
                                 f"{', '.join(wrong)}", param_hint="--players")
    return tuple(int(v) for v in values)


def _options(items: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    from cardgen.simulation.sweep import parse_values

    found: dict[str, tuple[str, ...]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        parsed = parse_values([values])
        if not sep or not name.strip() or not parsed:
            raise click.BadParameter(f"expected NAME=A,B,..., got {item!r}", param_hint="--option")
        if name.strip() in found:
            raise click.BadParameter(f"option {name.strip()!r} given twice; list its values once: "
                                     f"{name.strip()}=A,B", param_hint="--option")
        found[name.strip()] = tuple(parsed)
    return tuple(found.items())


def _check_grid(game: Any, players: tuple[int, ...], varied: tuple, bots: tuple[str, ...]) -> None:
    """Fail before any game is played: each option value, each player count and each bot."""
    from cardgen.engines import engine_for

    for name, values in varied:
        for value in values:
            engine_for(game, {name: value})  # an unknown option or value is a content error
    engine = engine_for(game)
    known = engine.bots()
    unknown = [bot for bot in bots for part in bot.split("+") if part not in known or bot.count("+") > 1]
    if not bots or unknown:
        raise click.BadParameter(f"unknown bot {', '.join(unknown) or '(none given)'}; {engine.id} has "
                                 f"{', '.join(sorted(known))}, or two of them joined by + (greedy+random)",
                                 param_hint="--bot")
    for count in players:
        engine.new_game(count, 0)  # a player count the engine cannot deal
