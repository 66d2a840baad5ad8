"""``cardgen i18n``: PO files for translators.

    cardgen i18n extract            write locale/<game>.pot for every game and common/
    cardgen i18n update LANG...     merge locale/LANG.po with the current source, by key
    cardgen i18n status [LANG...]   translated / fuzzy / missing / too long / broken
    cardgen i18n add LANG           add a language to every game (it builds at once)
"""

from __future__ import annotations

import click

from cardgen.cli import Settings
from cardgen.cli.common import table


@click.group()
def i18n() -> None:
    """Message catalogues and PO files for translators."""


def _domains(settings: Settings, games: tuple[str, ...]):
    """The domains, their card texts' length budgets measured in the real boxes (the PO files'
    ``max-length:N`` and "Length budget" comments)."""
    from cardgen.cards.textfit import box_capacity
    from cardgen.i18n import domains

    return domains(settings.content_dir, list(games) or None, box_capacity)


@i18n.command()
@click.option("--game", "games", multiple=True, help="Only this game (or 'common'); repeatable.")
@click.pass_obj
def extract(settings: Settings, games: tuple[str, ...]) -> None:
    """Write the POT template of every game and of the common strings."""
    from cardgen.i18n.po import write_template

    for domain in _domains(settings, games):
        path = write_template(domain)
        click.echo(f"wrote {domain.display(path)} ({len(domain.messages)} messages)")


@i18n.command()
@click.argument("languages", nargs=-1, required=True, metavar="LANG...")
@click.option("--game", "games", multiple=True, help="Only this game (or 'common'); repeatable.")
@click.pass_obj
def update(settings: Settings, languages: tuple[str, ...], games: tuple[str, ...]) -> None:
    """Merge locale/LANG.po with the current source text, by key.

    A changed source keeps the old translation, marked fuzzy, with the previous
    source shown; a removed key becomes an obsolete entry.
    """
    from cardgen.i18n import check_language
    from cardgen.i18n.po import update as merge

    selected = _domains(settings, games)
    listed = {lang for d in selected if d.game is not None for lang in d.game.meta.languages}
    for language in languages:
        check_language(language)
        for domain in selected:
            if language == domain.source_language:
                raise click.BadParameter(f"'{language}' is the source language", param_hint="LANG")
            if domain.has_own_text(language):
                click.echo(f"{domain.id}: cardgen's shared strings in '{language}' are source text; no PO file")
                continue
            wanted = domain.game.meta.languages if domain.game is not None else listed
            report = merge(domain, language, create=language in wanted)
            click.echo(
                f"{domain.display(report.path)}: {len(report.added)} new, "
                f"{len(report.fuzzied)} now fuzzy, {len(report.obsoleted)} obsolete"
            )
            for key in report.fuzzied:
                click.echo(f"  fuzzy: {key}")


@i18n.command()
@click.argument("language", metavar="LANG")
@click.pass_obj
def add(settings: Settings, language: str) -> None:
    """Add a language: an empty locale/LANG.po in every game and common/.

    The language builds at once; what is not yet translated falls back to the
    source language with a warning.
    """
    from cardgen.i18n import check_language
    from cardgen.i18n.po import update as merge

    from cardgen.i18n.languages import add_to_game_yaml

    check_language(language)
    for domain in _domains(settings, ()):
        if language == domain.source_language:
            raise click.BadParameter(f"'{language}' is the source language", param_hint="LANG")
        path = domain.po_path(language)
        if domain.has_own_text(language):
            click.echo(f"{domain.id}: cardgen's shared strings in '{language}' are ready; nothing to translate")
        elif path.is_file():
            click.echo(f"{domain.display(path)} exists; kept (use 'cardgen i18n update {language}')")
        else:
            report = merge(domain, language, create=True)
            click.echo(f"wrote {domain.display(report.path)} ({len(report.added)} messages to translate)")
        if domain.game is not None:
            game_yaml = domain.root / "game.yaml"
            if add_to_game_yaml(game_yaml, language, domain.display(game_yaml)):
                click.echo(f"added '{language}' to the languages of {domain.display(game_yaml)}")
    click.echo(f"'{language}' added; 'cardgen build' builds it now, falling back to the source text "
               "(with a warning) for everything not yet translated.")


@i18n.command()
@click.argument("languages", nargs=-1, metavar="[LANG]...")
@click.option("--game", "games", multiple=True, help="Only this game (or 'common'); repeatable.")
@click.option("-v", "--verbose", is_flag=True, help="List every problem key.")
@click.option("--check", is_flag=True, help="Exit 1 unless every listed language is complete.")
@click.pass_obj
def status(settings: Settings, languages: tuple[str, ...], games: tuple[str, ...],
           verbose: bool, check: bool) -> None:
    """Per language and game: translated, fuzzy, missing, too long, broken."""
    from cardgen.cards.textfit import card_fits
    from cardgen.i18n import status as compute

    rows = compute(settings.content_dir, list(languages) or None, list(games) or None, card_fits)
    rows.sort(key=lambda r: (r.language, r.domain))
    click.echo(
        table(
            ["lang", "game", "total", "translated", "fuzzy", "missing", "too long", "broken", "done"],
            [
                (r.language, r.domain, r.total, r.translated, r.fuzzy, r.missing, r.too_long,
                 r.broken, f"{r.percent:.0f}%")
                for r in rows
            ],
        )
    )
    chains = sorted({(r.language, r.domain, " → ".join(r.fallback)) for r in rows if r.fallback and not r.complete})
    for language, domain, chain in chains:
        click.echo(f"{language} {domain}: a missing or fuzzy entry prints {chain} (the first that has it)")
    methods = sorted({m for r in rows for m in r.methods}) or ["renderer"]
    if methods == ["renderer"]:
        click.echo("too long: measured by the card renderer (real layout, fonts and sizes): the text does not fit "
                   "at the minimum size, or fits only under the layout's body size ('shrunk').")
    else:
        click.echo(f"too long: measured by {' and '.join(methods)} (the length budget where the "
                   "renderer or a game's layout is not available).")
    if verbose:
        for row in rows:
            for kind, key, detail in row.problems:
                click.echo(f"{row.language} {row.domain} {kind}: {key}: {detail}")
    if check and not all(r.complete for r in rows):
        raise click.ClickException("some translations are incomplete")
