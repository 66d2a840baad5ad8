"""``cardgen new``: start a game of your own."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import Settings


@click.command()
@click.argument("game")
@click.option("--content", "content_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Content folder to create the game in (default: the global --content, else ./content).")
@click.option("--source-lang", "source_language", default="en", show_default=True,
              help="Language you write the game in (its source text).")
@click.option("--lang", "languages", multiple=True, metavar="LANG",
              help="A language to translate into (a PO file is made for it); repeatable.")
@click.option("--size", default="poker", show_default=True,
              help="Card size: poker, bridge, tarot, mini, square, or WIDTHxHEIGHT in mm (like 63x88).")
@click.pass_obj
def new(settings: Settings, game: str, content_dir: Path | None, source_language: str,
        languages: tuple[str, ...], size: str) -> None:
    """Create GAME: game.yaml, cards.yaml (with a card generator), the source text with every
    rulebook section as marked placeholders, a layout of its own and PO files for the other
    languages. 'cardgen validate' and 'cardgen build' work on it at once. Never overwrites.
    """
    from cardgen.project.newgame import create_game

    folder = content_dir or (settings.content_dir if settings.content_given else Path("content"))
    created = create_game(folder, game, source_language, list(languages), size)
    for path in created.written:
        click.echo(f"wrote {path}")
    for note in created.notes:
        click.secho(f"note: {note}", fg="yellow")
    click.secho(f"created '{game}' in {folder}. Next:", bold=True)
    content = "" if folder == Path("content") else f" --content {folder}"
    click.echo(f"  cardgen{content} validate {game}        check it (also reports the placeholder texts left)")
    click.echo(f"  cardgen{content} build {game} --out out  print-and-play, shop files and rulebooks")
    click.echo(f"  edit {created.folder / 'text' / (source_language + '.yaml')}, cards.yaml and layout.yaml; "
               "the guide: docs/own-game.md in cardgen's folder")
