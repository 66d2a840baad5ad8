"""``cardgen examples``: list the games bundled with cardgen, copy one into a content folder."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import Settings


@click.group(invoke_without_command=True)
@click.pass_context
def examples(ctx: click.Context) -> None:
    """List the games bundled with cardgen (id, title, cards, languages); 'cardgen examples copy GAME DIR'
    copies one into a content folder, ready to validate and build."""
    if ctx.invoked_subcommand is not None:
        return
    from cardgen.cli.common import table
    from cardgen.project.examples import examples as bundled

    found = bundled()
    click.echo(table(["game", "title", "cards", "designs", "languages"],
                     [(game.id, game.title, game.cards, game.designs, " ".join(game.languages)) for game in found]))
    click.echo(f"\ncopy one: cardgen examples copy {found[0].id if found else 'GAME'} content")


@examples.command("copy")
@click.argument("game")
@click.argument("content_dir", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.pass_obj
def copy(settings: Settings, game: str, content_dir: Path) -> None:
    """Copy the bundled GAME into the content folder DIR (made if need be): its files, its layout
    as layout.yaml and the JSON Schemas. Never overwrites."""
    from cardgen.project.examples import copy_example, example_ids

    if game not in example_ids():
        raise click.BadParameter(f"no example game '{game}'; the examples are: {', '.join(example_ids())}",
                                 param_hint="GAME")
    written = copy_example(game, content_dir)
    click.echo(f"copied '{game}' into {content_dir / game} ({len(written)} files). Next:")
    content = "" if content_dir == Path("content") else f" --content {content_dir}"
    click.echo(f"  cardgen{content} validate {game}")
    click.echo(f"  cardgen{content} build {game} --out out")
