"""``cardgen serve``: the local web studio."""

from __future__ import annotations

import signal
from pathlib import Path

import click

from cardgen.cli import Settings
from cardgen.studio import DEFAULT_HOST, DEFAULT_PORT, PORT_RANGE


@click.command()
@click.option("--content", "content_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of game content (default: the global --content, else ./content).")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on; anything but 127.0.0.1 (or ::1) lets other machines see your cards.")
@click.option("--port", type=click.IntRange(*PORT_RANGE), default=DEFAULT_PORT, show_default=True,
              help=f"Port, {PORT_RANGE[0]} to {PORT_RANGE[1]}; 0 picks a free one.")
@click.pass_obj
def serve(settings: Settings, content_dir: Path | None, host: str, port: int) -> None:
    """A local web studio: every card face and back of every game, per language, redrawn as
    you save.

    \b
    The gallery shows the cards by group and kind with their counts, and badges on
    cards whose text overflows its box, falls back to the source language (no
    translation) or is fuzzy. A card's page shows it in every language side by
    side, its text and where each comes from, and its lines of cards.yaml.
    Saving a YAML, PO, layout or SVG file redraws only the cards it changes and the
    open page follows within a second; a content error shows in the page with
    file, line and message until the next good save. Nothing is written to
    disk and nothing comes from the network. Ctrl-C stops.
    """
    from cardgen.extras import require
    from cardgen.studio import serve as run

    require("serve")  # watchfiles: cardgen[studio]

    folder = content_dir or settings.content_dir
    if not folder.is_dir():
        raise click.BadParameter(f"no such folder: {folder}", param_hint="--content")

    def ready(url: str) -> None:
        click.echo(f"cardgen studio: {url} (content: {folder}); Ctrl-C stops")

    # a plain `kill` stops the studio as Ctrl-C does: the watcher and the sockets are closed
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        run(folder, host, port, ready=ready)
    except KeyboardInterrupt:
        click.echo("stopped")


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
