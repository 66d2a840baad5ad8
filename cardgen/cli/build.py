"""``cardgen build``: every artefact of the chosen games and languages, and the manifest."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen.cli import Settings
from cardgen.cli.common import echo_warnings, resolve_games
from cardgen.color.ink import INK_MODES


def _offset(ctx, param, value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        dx, dy = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter("expected two numbers in mm as X,Y (e.g. 1.5,-0.5)") from None
    return (dx, dy)


@click.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--lang", "langs", multiple=True, metavar="L", help="Language to build (repeatable; default: each game's languages).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder for the artefacts and manifest.json.")
@click.option("--paper", "papers", multiple=True, type=click.Choice(["a4", "letter"]),
              help="Paper of the print-and-play PDFs (repeatable; default: a4 and letter).")
@click.option("--short-edge", is_flag=True, help="Place backs for short-edge duplex (default: long edge).")
@click.option("--fold", is_flag=True, help="Fold-and-glue sheets (fronts and backs side by side) instead of duplex.")
@click.option("--back-offset", callback=_offset, metavar="X,Y",
              help="Shift the backs by the offset read on the alignment test strip, in mm.")
@click.option("--ink", "inks", multiple=True, type=click.Choice(INK_MODES),
              help="Ink of the print-and-play PDFs (repeatable, one file each; default: full). ink-saver: pale "
                   "areas and backs, dark text; greyscale: greys only. Shop files stay in full colour.")
@click.option("--profile", default="tgc", show_default=True,
              help="Printer of the shop PNGs written beside the RGB shop PDF when no --printer is given "
                   "(tgc, mpc, printerstudio).")
@click.option("--printer", "printers", multiple=True, metavar="NAME",
              help="Write exactly what this print shop asks for instead of the default shop files, each "
                   "file checked by 'cardgen preflight' (repeatable): tgc, mpc, printerstudio (PNG per card), "
                   "drivethrucards (CMYK PDF/X-1a per deck), eu-pdfx4 (CMYK PDF/X-4); see "
                   "templates/cards/printers.yaml.")
@click.option("--only", "producers", multiple=True, metavar="PRODUCER",
              help="Run only this producer (repeatable): cards, rulebook, rulebook-html or tabletop (default: "
                   "cards, rulebook and rulebook-html; tabletop only when asked for).")
@click.option("--tabletop", "tabletop", multiple=True, type=click.Choice(["tts", "sprites"]),
              help="Also write card sheets for digital tables into OUT/GAME/LANG/tabletop/ (repeatable): tts: "
                   "Tabletop Simulator deck sheets and a saved object; sprites: one sprite sheet with a JSON "
                   "index. Not part of a plain build; --only tabletop alone writes both.")
@click.option("--tabletop-url", metavar="URL",
              help="Address where OUT is served (https://...), for the images named in the Tabletop "
                   "Simulator saved object (default: file:// paths of OUT).")
@click.option("--strict", is_flag=True,
              help="Fail (exit 1, no file written) on missing, fuzzy or overflowing text in any language built, "
                   "and on characters no face of their font has.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: one per core).")
@click.option("--force", is_flag=True,
              help="Rebuild every file, also those whose inputs (content, layouts, options, cardgen) are unchanged.")
@click.option("--clean", is_flag=True,
              help="Remove every file of OUT/manifest.json that this build does not make (files of other "
                   "games, printers, inks, tabletop formats asked for earlier); never a file the manifest "
                   "does not list.")
@click.pass_obj
def build(settings: Settings, games: tuple[str, ...], langs: tuple[str, ...], out_dir: Path, papers: tuple[str, ...],
          short_edge: bool, fold: bool, back_offset: tuple[float, float], inks: tuple[str, ...], profile: str,
          printers: tuple[str, ...], producers: tuple[str, ...], strict: bool, jobs: int | None, tabletop: tuple[str, ...],
          tabletop_url: str | None, force: bool, clean: bool) -> None:
    """Render every artefact of GAME (default: every game): print-and-play PDFs,
    print-shop PDFs and PNGs, and what else is registered (rulebooks), then write
    OUT/manifest.json.  Card sheets for digital tables (--tabletop) are written
    only when asked for.

    Files are written into a hidden staging folder beside OUT and moved in only
    when every job succeeded, so a failed, interrupted or killed build leaves OUT
    as it was (the next build removes what a killed one left).  A language
    with missing or fuzzy translations builds with the game's source text in
    their place and a warning at the end; --strict makes that an error.

    A job whose inputs (the content and layout files it depends on, the options,
    cardgen itself) are unchanged since it wrote its files, still in OUT as
    written, is skipped and its files kept; --force rebuilds everything.

    Builds add: the files of earlier builds into OUT (other printers, ink modes,
    tabletop formats, games, languages) stay, and stay in the manifest.  A file
    goes only when the request that made it runs again and no longer makes it
    (a card or a language dropped from the game), or with --clean.
    """
    from cardgen.build import BuildOptions
    from cardgen.build import build as run_build
    from cardgen.errors import RenderError
    from cardgen.cards.layout import default_templates_dir
    from cardgen.printing.printers import printer

    # fail early on an unknown or unfit printer, among the content folder's own printers too
    shops = default_templates_dir(settings.content_dir)
    if printer(profile, shops).files != "png-per-card":
        raise RenderError(f"--profile names a printer of PNGs; '{profile}' takes PDFs: use --printer {profile}")
    for name in printers:
        if printer(name, shops).files != "png-per-card":
            from cardgen.extras import require

            require("build --printer")  # CMYK PDF/X and the preflight: cardgen[print-shops]
    options = BuildOptions(
        content_dir=settings.content_dir,
        templates_dir=shops,
        out_dir=out_dir,
        games=tuple(resolve_games(settings, games)) if games else (),
        langs=tuple(langs),
        papers=tuple(papers) or ("a4", "letter"),
        duplex="short" if short_edge else "long",
        fold=fold,
        back_offset_mm=back_offset,
        inks=tuple(dict.fromkeys(inks)) or ("full",),
        profile=profile,
        printers=tuple(dict.fromkeys(printers)),
        workers=jobs,
        producers=tuple(producers) + (("tabletop",) if tabletop and producers and "tabletop" not in producers
                                      else ()),  # --only cards --tabletop tts: both
        strict=strict,
        tabletop=tuple(dict.fromkeys(tabletop)),
        tabletop_url=tabletop_url,
        force=force,
        clean=clean,
    )
    bar = None
    if sys.stderr.isatty():
        state: dict = {}

        def progress(done: int, total: int, label: str) -> None:
            if "bar" not in state:
                state["bar"] = click.progressbar(length=total, label="building", file=sys.stderr,
                                                 item_show_func=lambda item: item)
                state["bar"].__enter__()
            state["bar"].update(done - state["bar"].pos, label or None)

        bar = state
    else:
        progress = None
    try:
        result = run_build(options, progress)
    finally:
        if bar and "bar" in bar:
            bar["bar"].__exit__(None, None, None)
    _summary(result)
    _smallest_text(result)
    _shrunk_warnings(result)
    _fallback_warnings(result)
    echo_warnings(result.warnings)
    _glyph_warnings(result)


def _smallest_text(result) -> None:
    """The smallest size text is fitted at, per game and language (the floors: 'cardgen validate')."""
    from cardgen.build import smallest_text_summary

    found = smallest_text_summary(result.artefacts)
    if found:
        click.echo("smallest card text: " + "; ".join(
            f"{game} [{lang}] {size:g} pt ({card})" for game, lang, size, card in found))


def _shrunk_warnings(result) -> None:
    """Card texts that fit only under the layout's body size (--strict fails on them)."""
    from cardgen.build import shrunk_summary

    found = shrunk_summary(result.artefacts)
    if not found:
        return
    click.secho(f"warning: {len(found)} card text(s) fit only by shrinking under the layout's body size:",
                fg="yellow", err=True)
    for message in found[:20]:
        click.secho(f"  {message}", fg="yellow", err=True)
    if len(found) > 20:
        click.secho(f"  ... and {len(found) - 20} more (manifest.json, 'shrunk')", fg="yellow", err=True)
    click.secho("  shorten them ('cardgen i18n status -v'); 'cardgen build --strict' fails on these",
                fg="yellow", err=True)


def _glyph_warnings(result) -> None:
    """Characters no face of their font has: printed as empty boxes (--strict fails on them)."""
    from cardgen.build import glyph_summary

    found = glyph_summary(result.artefacts)
    if not found:
        return
    click.secho(f"warning: {len(found)} text(s) hold characters no face of their font has (printed as empty "
                "boxes):", fg="yellow", err=True)
    for message in found[:20]:
        click.secho(f"  {message}", fg="yellow", err=True)
    if len(found) > 20:
        click.secho(f"  ... and {len(found) - 20} more (manifest.json, 'glyphs')", fg="yellow", err=True)
    click.secho("  'cardgen build --strict' fails on these", fg="yellow", err=True)


def _fallback_warnings(result) -> None:
    """A short note of the languages that fell back to another (see the manifest)."""
    from cardgen.build import fallback_summary

    found = fallback_summary(result.artefacts)
    if not found:
        return
    click.secho(f"warning: {len(found)} game/language pair(s) fell back to another language (the next "
                "of the language's fallback chain, the source last) for missing or fuzzy translations:",
                fg="yellow", err=True)
    for game, lang, count, warnings in found:
        example = f" (e.g. {warnings[0]})" if warnings else ""
        click.secho(f"  {game} [{lang}]: {count} message(s){example}", fg="yellow", err=True)
    click.secho("  see 'cardgen i18n status'; 'cardgen build --strict' fails on these", fg="yellow", err=True)


#: Paths named per reason for a removal; the rest are counted.
SHOWN_PER_REASON = 20


def _removals(result) -> None:
    """What the build removed from the output folder (and the manifest), and why, one group per reason."""
    for removals, what in ((result.removed, "removed {n} {stale}file(s)"),
                           (result.left, "kept {n} file(s) changed by hand")):
        if not removals:
            continue
        clean = all(r.reason.startswith("--clean") for r in removals)
        click.echo(what.format(n=len(removals), stale="" if clean else "stale ") + ":")
        by_reason: dict[str, list[str]] = {}
        for removal in removals:
            by_reason.setdefault(removal.reason, []).append(removal.path)
        for reason, paths in sorted(by_reason.items()):
            click.echo(f"  {reason}:")
            for path in paths[:SHOWN_PER_REASON]:
                click.echo(f"    {path}")
            if len(paths) > SHOWN_PER_REASON:
                click.echo(f"    ... and {len(paths) - SHOWN_PER_REASON} more")


def _summary(result) -> None:
    from cardgen.cli.common import table

    rows: dict[tuple[str, str], list[int]] = {}
    for a in result.artefacts:
        row = rows.setdefault((a.game, a.kind), [0, 0, 0])
        row[0] += 1
        row[1] += a.pages or 0
        row[2] += a.cards
    click.echo(table(["game", "kind", "files", "pages", "cards"],
                     [(g, k, *v) for (g, k), v in sorted(rows.items())]))
    for note in result.recovered:
        click.echo(f"note: {note}")
    _removals(result)
    written = len(result.artefacts) - result.unchanged
    others = result.listed - len(result.artefacts)
    click.secho(f"{written} files written, {result.unchanged} unchanged in {result.seconds:.1f} s ({result.jobs} jobs "
                f"run on {result.workers} worker(s), {result.skipped} skipped); manifest: {result.manifest}"
                + (f" ({result.listed} files, {others} of earlier builds' other requests)" if others else ""),
                fg="green")
