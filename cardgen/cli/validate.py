"""``cardgen validate`` and ``cardgen schema``."""

from __future__ import annotations

import click

from cardgen.cli import Settings
from cardgen.cli.common import echo_warnings, resolve_games, table


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option(
    "--simulate",
    "run_simulation",
    is_flag=True,
    help="Also play the games with their engine and check the playability limits in game.yaml.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes for --simulate.")
@click.option("--strict", is_flag=True,
              help="Fail on the accessibility warnings too (colours told apart, text contrast, text size).")
@click.pass_obj
def validate(settings: Settings, games: tuple[str, ...], run_simulation: bool, jobs: int, strict: bool) -> None:
    """Check the content of GAME (default: every game) and print its composition.

    With --simulate, each game that has an engine is played as its ``limits:``
    say (fixed seed) and every limit is checked, at the limits' player count and
    at each count of ``limits.by_players``; a failed limit is an error.
    With --strict, the colour-vision, contrast and text-size warnings are errors.

    Exit code 0 when everything holds, 1 on content errors, 2 on usage errors.
    """
    from cardgen.content import composition
    from cardgen.project.validation import placeholder_texts, validate_games

    warnings: list = []
    try:
        loaded = validate_games(settings.content_dir, resolve_games(settings, games), warnings=warnings,
                                strict=strict)
    finally:  # warnings are worth reading beside the errors too
        echo_warnings(warnings)
    for game in loaded:
        echo_warnings(game.warnings)
        rows = composition(game)
        click.secho(f"{game.id}: {game.text(game.meta.title)}", bold=True)
        click.echo(
            table(
                ["group", "kind", "declared", "found", ""],
                [
                    (r.group, r.kind or "", r.declared, r.found, "ok" if r.ok else "MISMATCH")
                    for r in rows
                ],
            )
        )
        _translations(settings, game.id)
        left = placeholder_texts(game)
        if left:
            click.secho(f"note: {len(left)} text(s) of text/{game.meta.source_language}.yaml still hold the "
                        f"placeholder 'cardgen new' wrote (first: {left[0]})", fg="yellow")
        click.echo()
    if run_simulation:
        check_playability(loaded, jobs)
    click.secho(f"{len(loaded)} game(s) valid.", fg="green")


def _translations(settings: Settings, game_id: str) -> None:
    """One line per translation: the game's messages and the shared strings, counted alike."""
    from cardgen.i18n.status import coverage

    for language, own, shared in coverage(settings.content_dir, [game_id]).get(game_id, []):
        total = own.total + shared.total
        done = own.translated + shared.translated
        percent = 100 * done / total if total else 100
        line = (f"translation {language}: {percent:.0f}% (game {own.translated}/{own.total}, "
                f"shared strings {shared.translated}/{shared.total})")
        click.secho(line, fg=None if done == total else "yellow")


def check_playability(loaded: list, jobs: int) -> None:
    """Simulate each game with an engine and check its limits; raise on failures."""
    from cardgen.content.model import Limits
    from cardgen.engines import engine_for
    from cardgen.errors import ContentErrors
    from cardgen.simulation import check_limits, limit_errors, measure
    from cardgen.simulation.limits import base_players, checked_player_counts

    errors = []
    for game in loaded:
        if game.meta.engine is None:  # an unknown engine already failed validation
            click.echo(f"{game.id}: no engine, playability not simulated")
            continue
        limits = game.meta.limits or Limits()
        engine = engine_for(game)
        base = base_players(engine, limits)
        counts = checked_player_counts(limits, base)
        for players in counts:
            summary = measure(engine, limits, jobs=jobs, players=players)
            checks = check_limits(limits, summary, base)
            click.secho(
                f"{game.id}: {limits.games} games, seed {limits.seed}, "
                f"{summary['players']} players, bot {limits.bot}",
                bold=True,
            )
            click.echo(table(["limit", "measured", "required", ""], [
                (c.name, _number(c.measured), c.required, "ok" if c.ok else "FAILED") for c in checks
            ]))
            click.echo()
            errors += limit_errors(game.root / "game.yaml", checks,
                                   players if len(counts) > 1 else None, limits)
            errors += [_violation_error(game, message) for message in summary["violation_examples"]]
        echo_content_report(engine.content_report())
    if errors:
        raise ContentErrors(errors)


def echo_content_report(report: dict) -> None:
    if "coverage" in report:
        from cardgen.cli.answers import echo_coverage

        echo_coverage(report["coverage"])
        click.echo()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4g}"


def _violation_error(game, message: str):
    from cardgen.errors import ContentError, Locator

    return ContentError(f"simulation: {message}", Locator(file=game.root / "game.yaml", field="engine"))


@click.command()
@click.option("--check", is_flag=True, help="Fail if the files differ from the model instead of writing.")
@click.pass_obj
def schema(settings: Settings, check: bool) -> None:
    """Write the JSON Schema files of the content model into CONTENT/schema/."""
    from cardgen.content.schema import schema_texts, write_schemas

    directory = settings.content_dir / "schema"
    if check:
        stale = [
            name
            for name, text in schema_texts().items()
            if not (directory / name).is_file() or (directory / name).read_text("utf-8") != text
        ]
        if stale:
            raise click.ClickException(f"out of date: {', '.join(stale)} (run 'cardgen schema')")
        click.echo("schema files are up to date")
        return
    for path in write_schemas(directory):
        click.echo(f"wrote {path}")
