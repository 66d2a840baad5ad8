"""Small helpers the commands share: picking games, drawing tables."""

from __future__ import annotations

from typing import Sequence

import click

from cardgen.cli import Settings


def resolve_games(settings: Settings, names: Sequence[str]) -> list[str]:
    """The games to work on: those named, or every game in the content folder."""
    from cardgen.content import discover_games

    available = discover_games(settings.content_dir)
    if not available:
        raise click.UsageError(no_games_message(settings))
    unknown = [name for name in names if name not in available]
    if unknown:
        raise click.BadParameter(
            f"unknown game {', '.join(map(repr, unknown))}; available: {', '.join(available)}",
            param_hint="GAME",
        )
    return list(names) or available


def echo_warnings(warnings: Sequence[object]) -> None:
    """Warnings of the library (a game of an earlier content format ...), on stderr."""
    for warning in warnings:
        click.secho(f"warning: {warning}", fg="yellow", err=True)


def no_games_message(settings: Settings) -> str:
    """No game to work on: where cardgen looked, and the three ways to get games there."""
    folder = settings.content_dir
    if not folder.is_dir():
        where = (f"no games found: the content folder {folder} does not exist" if settings.content_given else
                 f"no games found: there is no content folder here ({folder}; --content DIR names another)")
    else:
        where = f"no games found in {folder} (no */game.yaml)"
    target = folder if settings.content_given else "content"
    option = "" if target == "content" else f" --content {target}"
    return (f"{where}. Start a game with 'cardgen{option} new GAME', or copy a bundled one with "
            f"'cardgen examples copy klepka {target}' ('cardgen examples' lists them)")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table with right-aligned numbers."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [all(_is_number(row[i]) for row in cells[1:]) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if is_num else cell.ljust(width)
            for cell, width, is_num in zip(row, widths, numeric)
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(row) for row in cells[1:])])


def _is_number(text: str) -> bool:
    return text.replace(".", "", 1).replace("-", "", 1).isdigit()
