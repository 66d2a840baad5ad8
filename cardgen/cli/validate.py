"""``cardgen validate`` and ``cardgen schema``."""

from __future__ import annotations

import click

from cardgen.cli import Settings
from cardgen.cli.common import resolve_games, table


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.pass_obj
def validate(settings: Settings, games: tuple[str, ...]) -> None:
    """Check the content of GAME (default: every game) and print its composition.

    Exit code 0 when everything holds, 1 on content errors, 2 on usage errors.
    """
    from cardgen.content import composition, load_games

    loaded = load_games(settings.content_dir, resolve_games(settings, games))
    for game in loaded:
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
        click.echo()
    click.secho(f"{len(loaded)} game(s) valid.", fg="green")


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
