"""``cardgen simulate``: play many seeded games with bots and report the figures."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import click

from cardgen.cli import Settings
from cardgen.cli.common import echo_warnings, resolve_games, table


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--games", "count", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed; game i plays with a seed derived from it and i.")
@click.option("--players", type=click.IntRange(min=1), default=None, help="Players per game (default: the game's minimum).")
@click.option("--bot", default="random", show_default=True, help="Bot in every seat: random or greedy.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes; results do not depend on it.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the summary as JSON.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="Rule option (repeatable).")
@click.option(
    "--clone-check-every",
    type=click.IntRange(min=0),
    default=None,
    help="Check clone == original every N moves (1: every move, 0: never) [default: 25]; the other invariants run after every move.",
)
@click.pass_obj
def simulate(
    settings: Settings,
    game: str,
    count: int,
    seed: int,
    players: int | None,
    bot: str,
    jobs: int,
    json_file: Path | None,
    options: tuple[str, ...],
    clone_check_every: int | None,
) -> None:
    """Play GAME --games times with bots, checking every invariant after every move.

    Prints a summary table; exit code 1 if any game broke an invariant.
    """
    from cardgen.content import load_game
    from cardgen.engines import engine_for
    from cardgen.simulation import CheckPolicy, RunInfo, run_games, summarize

    (game_id,) = resolve_games(settings, [game])
    loaded = load_game(settings.content_dir / game_id, display_root=settings.content_dir.parent)
    echo_warnings(loaded.warnings)
    if json_file is not None:  # refuse /dev/null, a FIFO or a folder before the games, not after
        from cardgen.fileio import check_file_target

        check_file_target(json_file)
    engine = engine_for(loaded, parse_options(options))
    seats = players or loaded.meta.players.min
    policy = CheckPolicy() if clone_check_every is None else CheckPolicy(clone_every=clone_check_every)
    started = time.perf_counter()
    with progress_bar(count, f"{game_id}: {count} games") as advance:
        records = run_games(engine, count, seed, seats, bot, jobs, policy, advance)
    elapsed = time.perf_counter() - started
    summary = summarize(RunInfo(game_id, count, seed, seats, bot, engine.options, engine.event_names), records)
    print_summary(summary, elapsed)
    report = engine.content_report()
    if report:
        summary["content"] = report
    if json_file is not None:
        from cardgen.fileio import write_text_atomic

        try:
            write_text_atomic(json_file, json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
        except OSError as error:  # a full disk: the file named, and nothing half-written left
            from cardgen.cli import WRITE_ERRNOS, write_failure

            if error.errno not in WRITE_ERRNOS:
                raise
            raise write_failure(error, json_file) from None
        click.echo(f"wrote {json_file}")
    if summary["violations"]:
        for message in summary["violation_examples"]:
            click.secho(f"violation: {message}", err=True, fg="red")
        raise click.exceptions.Exit(1)


def parse_options(options: tuple[str, ...]) -> dict[str, str]:
    parsed: dict[str, str] = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--option")
        parsed[name.strip()] = value.strip()
    return parsed


class progress_bar:
    """click's progress bar on a terminal; nothing when output is piped."""

    def __init__(self, total: int, label: str):
        self.total, self.label = total, label
        self._bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if sys.stderr.isatty():
            self._bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
            self._bar.__enter__()
            return self._bar.update
        return lambda done: None

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


def print_summary(summary: Mapping[str, Any], elapsed: float) -> None:
    turns = summary["turns"]
    low, high = summary["first_player_win_rate_ci95"]
    click.secho(
        f"{summary['game']}: {summary['games']} games, seed {summary['seed']}, "
        f"{summary['players']} players, bot {summary['bot']}",
        bold=True,
    )
    rows = [
        ("completed", f"{summary['completed']} ({summary['completion_rate']:.2%})"),
        ("violations", summary["violations"]),
        ("turns mean / p50 / p95 / max", f"{turns['mean']:.1f} / {turns['p50']} / {turns['p95']} / {turns['max']}"),
        ("draws", f"{summary['draws']} ({summary['draw_rate']:.2%})"),
        ("first player win rate", f"{summary['first_player_win_rate']:.3f} (95% {low:.3f}-{high:.3f})"),
        ("balance", f"{summary['balance']:.3f}"),
        ("speed", f"{summary['games'] / elapsed:.0f} games/s ({elapsed:.1f} s)" if elapsed > 0 else "-"),
    ]
    click.echo(table(["figure", "value"], rows))
    click.echo()
    seats = list(_seat_rows(summary))
    click.echo(table(["seat", "wins", "win rate", "mean score"], seats))
    click.echo()
    events = summary["events"]
    click.echo(table(["event", "total", "per game"], [(k, v, f"{summary['events_per_game'][k]:.3f}") for k, v in events.items()]))


def _seat_rows(summary: Mapping[str, Any]) -> Iterator[tuple[object, ...]]:
    for seat, (wins, rate, score) in enumerate(zip(summary["wins"], summary["win_rates"], summary["scores_mean"])):
        yield seat + 1, f"{wins:g}", f"{rate:.3f}", f"{score:.2f}"
