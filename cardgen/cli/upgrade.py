"""``cardgen upgrade``: rewrite games written in an earlier content format in the current one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from cardgen.cli import Settings
from cardgen.cli.common import resolve_games


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--content", "content_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Content folder whose games to upgrade (default: the global --content, else ./content).")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.pass_obj
def upgrade(settings: Settings, games: tuple[str, ...], content_dir: Path | None, dry_run: bool) -> None:
    """Rewrite GAME (default: every game of --content) in the current content format.

    The files are edited as text, so comments and the order of keys stay; each change is
    shown as a diff.  A game already in the current format is left alone.  What only the
    author can put right (rulebook text a game must have since then) is listed with its
    file and line, and that game is not rewritten.  Exit 1 when such a game is left.
    """
    from cardgen.content.model import CONTENT_FORMAT
    from cardgen.project.upgrade import apply_upgrade, plan_upgrade

    if content_dir is not None:
        settings = replace(settings, content_dir=content_dir, content_given=True)
    upgrades = plan_upgrade(settings.content_dir, resolve_games(settings, games))
    left = 0
    for planned in upgrades:
        if planned.current:
            click.echo(f"{planned.game}: already in content format {CONTENT_FORMAT}")
            continue
        if planned.todo:
            left += 1
            click.secho(f"{planned.game}: content format {planned.written_in}; not rewritten, put these right "
                        "first:", fg="yellow", err=True)
            for problem in planned.todo:
                click.secho(f"  {problem}", fg="yellow", err=True)
            continue
        verb = "would rewrite" if dry_run else "rewrote"
        click.secho(f"{planned.game}: content format {planned.written_in} -> {CONTENT_FORMAT}; {verb} "
                    f"{', '.join(str(c.shown) for c in planned.changes)}: {'; '.join(planned.done)}", bold=True)
        for change in planned.changes:
            click.echo(change.diff(), nl=False)
    if not dry_run:
        apply_upgrade(upgrades)
    elif any(p.changes for p in upgrades):
        click.echo("dry run: nothing was written")
    if left:
        raise click.exceptions.Exit(1)
