"""``cardgen preview``: one card face or back as a PNG."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import Settings
from cardgen.cards.preview import DEFAULT_DPI, DPI_RANGE


@click.command()
@click.argument("game")
@click.argument("card")
@click.option("--lang", default=None, metavar="L", help="Language of the card's text (default: the game's source language).")
@click.option("--back", is_flag=True, help="The card's back instead of its face.")
@click.option("--dpi", type=click.IntRange(*DPI_RANGE), default=DEFAULT_DPI, show_default=True,
              help=f"Resolution, {DPI_RANGE[0]} to {DPI_RANGE[1]}.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="PNG file to write (default: preview/GAME-CARD-LANG.png in the current folder, "
                   "preview/GAME-CARD-back-LANG.png with --back).")
@click.option("--simulate", type=click.Choice(["protanopia", "deuteranopia", "tritanopia"]), default=None, metavar="VISION",
              help="Show the card as a player with this colour-vision deficiency sees it: protanopia, "
                   "deuteranopia or tritanopia (full severity).")
@click.pass_obj
def preview(settings: Settings, game: str, card: str, lang: str | None, back: bool, dpi: int,
            out_path: Path | None, simulate: str | None) -> None:
    """Write CARD of GAME as a PNG, as the print shop gets it: the trim plus 3 mm bleed,
    with the trim shown as a faint dashed line. Prints the path written.
    With --simulate, the card as a player with that colour-vision deficiency sees it
    (written as preview/GAME-CARD-LANG-VISION.png unless --out names a file).
    """
    from cardgen.cards.layout import default_templates_dir
    from cardgen.cli.common import echo_warnings, resolve_games
    from cardgen.content import load_games
    from cardgen.fileio import write_bytes_atomic
    from cardgen.cards.fonts import glyph_log
    from cardgen.cards.preview import default_preview_path, render_preview

    resolve_games(settings, [game])
    loaded = load_games(settings.content_dir, [game])[0]
    echo_warnings(loaded.warnings)
    lang = lang or loaded.meta.source_language
    with glyph_log() as glyphs:
        image = render_preview(loaded, card, lang, back=back, dpi=dpi,
                               templates_dir=default_templates_dir(settings.content_dir), simulate=simulate)
    target = out_path or default_preview_path(game, card, lang, back)
    if simulate and out_path is None:
        target = target.with_name(f"{target.stem}-{simulate}.png")
    try:
        write_bytes_atomic(target, image.png)
    except OSError as error:  # a full disk: the file named, and nothing half-written left
        from cardgen.cli import WRITE_ERRNOS, write_failure

        if error.errno not in WRITE_ERRNOS:
            raise
        raise write_failure(error, target) from None
    for message in glyphs.messages():  # printed as empty boxes: never silently
        click.secho(f"warning: {message}", fg="yellow", err=True)
    click.echo(str(target))
