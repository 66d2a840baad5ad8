"""The card artefacts of the build: print-and-play PDFs, the shop PDF and the shop PNGs.

``plan`` is registered in :data:`cardgen.build.run.PRODUCERS`; each job function runs in a
worker process, has the card drawing (:mod:`cardgen.cards`) and the print rooms
(:mod:`cardgen.printing`) make the bytes, and writes them through
:func:`cardgen.build.jobs.write_artefact`.
"""

from __future__ import annotations

from cardgen.build.jobs import Artefact, BuildOptions, Job, load_game_cached, write_artefact
from cardgen.color.ink import DEFAULT_INK, check_ink, ink_suffix


def pnp_name(game_id: str, lang: str, paper: str, options: BuildOptions, ink: str = DEFAULT_INK) -> str:
    """``<game>/<lang>/<game>-<lang>-pnp-<paper>[-fold|-short-edge][-ink-saver|-greyscale].pdf``"""
    suffix = "-fold" if options.fold else ("-short-edge" if options.duplex == "short" else "")
    return f"{game_id}/{lang}/{game_id}-{lang}-pnp-{paper}{suffix}{ink_suffix(ink)}.pdf"


def plan(options: BuildOptions, game, langs: list[str]) -> list[Job]:
    cards = sum(card.copies for card in game.cards)
    inks = [check_ink(ink) for ink in dict.fromkeys(options.inks)]
    jobs: list[Job] = []
    for lang in langs:
        for paper in options.papers:
            for ink in inks:
                label = f"{game.id} {lang} pnp {paper}" + ("" if ink == DEFAULT_INK else f" {ink}")
                jobs.append(Job("cards", label, pnp_job,
                                (("game_id", game.id), ("lang", lang), ("paper", paper), ("ink", ink)),
                                cost=0.2 + cards / 400, targets=((game.id, lang),)))
    if options.printers:
        jobs += _printer_jobs(options, game, langs, cards)
        return jobs
    for lang in langs:
        jobs.append(Job("cards", f"{game.id} {lang} shop-pdf", shop_pdf_job,
                        (("game_id", game.id), ("lang", lang)), cost=0.2 + cards / 300,
                        targets=((game.id, lang),)))
    return jobs + _png_jobs(game, langs, options.profile)


def _png_jobs(game, langs: list[str], printer_id: str) -> list[Job]:
    designs = len(game.cards) + len(game.meta.backs)
    parts = max(1, min(4, designs // 20))
    return [Job("cards", f"{game.id} shop-png {printer_id} {part + 1}/{parts}", png_job,
                (("game_id", game.id), ("langs", tuple(langs)), ("part", part), ("parts", parts),
                 ("printer_id", printer_id)),
                cost=designs * len(langs) / 25 / parts, targets=tuple((game.id, lang) for lang in langs))
            for part in range(parts)]


def _printer_jobs(options: BuildOptions, game, langs: list[str], cards: int) -> list[Job]:
    from cardgen.printing.printers import printer

    jobs: list[Job] = []
    for printer_id in dict.fromkeys(options.printers):
        if printer(printer_id, options.templates_dir).files == "png-per-card":
            jobs += _png_jobs(game, langs, printer_id)
            continue
        for lang in langs:  # rendering plus a preflight that renders again with Ghostscript
            jobs.append(Job("cards", f"{game.id} {lang} shop-pdf {printer_id}", printer_pdf_job,
                            (("game_id", game.id), ("lang", lang), ("printer_id", printer_id)),
                            cost=0.4 + cards / 100, targets=((game.id, lang),)))
    return jobs


def pnp_job(options: BuildOptions, game_id: str, lang: str, paper: str, ink: str = DEFAULT_INK) -> list[Artefact]:
    from cardgen.printing.pnp import PnpOptions, render_pnp

    game = load_game_cached(options.content_dir, game_id)
    pnp = PnpOptions(paper=paper, duplex=options.duplex, fold=options.fold, back_offset_mm=options.back_offset_mm,
                     ink=ink)
    data, pages, cards = render_pnp(game, lang, pnp, options.templates_dir)
    return [write_artefact(options, pnp_name(game_id, lang, paper, options, ink), data, game=game_id, kind="pnp",
                           lang=lang, paper=paper, pages=pages, cards=cards, ink=ink,
                           **smallest_text(game, lang, options.templates_dir))]


def smallest_text(game, lang: str, templates_dir) -> dict:
    """The smallest size any text of the cards is fitted at in ``lang`` (manifest ``smallest_pt``,
    ``smallest_card``), which the build reports per game and language, and the card texts that
    fit only under the layout's body size (manifest ``shrunk``, a warning; ``--strict`` fails on
    them before anything is drawn)."""
    from cardgen.cards.card import CardRenderer
    from cardgen.cards.textfit import shrunk_fields

    renderer = CardRenderer(game, lang, templates_dir)
    faces = [renderer.face(card) for card in game.cards]
    plans = faces + [renderer.back(back.id) for back in game.meta.backs]
    sizes = [(op[4], plan.label) for plan in plans for op in plan.ops if op[0] == "text"]
    if not sizes:
        return {}
    size, label = min(sizes, key=lambda found: found[0])
    shrunk = [why for plan in faces for why in shrunk_fields(renderer, plan).values()]
    return {"smallest_pt": round(size, 2), "smallest_card": label, **({"shrunk": shrunk[:20]} if shrunk else {})}


def shop_pdf_job(options: BuildOptions, game_id: str, lang: str) -> list[Artefact]:
    from cardgen.printing.shop import render_shop_pdf

    game = load_game_cached(options.content_dir, game_id)
    data, pages, cards = render_shop_pdf(game, lang, options.templates_dir)
    return [write_artefact(options, f"{game_id}/{lang}/{game_id}-{lang}-shop.pdf", data, game=game_id,
                           kind="shop-pdf", lang=lang, pages=pages, cards=cards)]


def printer_pdf_job(options: BuildOptions, game_id: str, lang: str, printer_id: str) -> list[Artefact]:
    """The PDFs a printer asks for, each preflighted against its record before it is written."""
    from cardgen.errors import RenderError
    from cardgen.printing.preflight import preflight_bytes
    from cardgen.printing.printers import printer
    from cardgen.printing.shop import render_printer_pdfs

    game = load_game_cached(options.content_dir, game_id)
    shop = printer(printer_id, options.templates_dir)
    out: list[Artefact] = []
    for deck, data, pages, cards in render_printer_pdfs(game, lang, shop, options.templates_dir):
        rel = f"{game_id}/{lang}/{game_id}-{lang}-shop-{printer_id}" + (f"-{deck}" if deck else "") + ".pdf"
        report = preflight_bytes(data, shop, rel, expected_pages=pages, deck=deck is not None)
        if not report.ok:
            shown = "\n  ".join(str(f) for f in report.findings[:12])
            more = f"\n  ... and {len(report.findings) - 12} more" if len(report.findings) > 12 else ""
            raise RenderError(f"preflight for {printer_id} failed on {rel}:\n  {shown}{more}")
        extra = {"deck": deck} if deck else {}
        out.append(write_artefact(options, rel, data, game=game_id, kind="shop-pdf", lang=lang, pages=pages,
                                  cards=cards, printer=printer_id, color=shop.color, pdfx=shop.pdfx,
                                  max_tac=max(report.max_tac, default=None), **extra))
    return out


def png_job(options: BuildOptions, game_id: str, langs: tuple[str, ...], part: int = 0, parts: int = 1,
            printer_id: str | None = None) -> list[Artefact]:
    """One slice of the card designs in every language, so that pictures without text are drawn once."""
    from cardgen.printing.shop import render_pngs

    printer_id = printer_id or options.profile
    from cardgen.i18n.labels import card_label, game_lookup

    game = load_game_cached(options.content_dir, game_id)
    cache: dict = {}
    out: list[Artefact] = []
    for lang in langs:
        images, (w, h), dpi = render_pngs(game, lang, printer_id, options.templates_dir, cache,
                                          part=part, parts=parts)
        lookup = game_lookup(game, lang)
        # the card's name in that language, for the index page's alt text: longest id first, as an id may
        # end like another with its copy number
        names = sorted(((card.id, card_label(game, card, lookup).text) for card in game.cards),
                       key=lambda item: -len(item[0]))
        for stem, png, cards in images:
            rel = f"{game_id}/{lang}/png-{printer_id}/{stem}.png"
            bare = stem.split("-", 1)[1] if "-" in stem and stem.split("-", 1)[0].isdigit() else ""
            name = next((label for card_id, label in names if bare == card_id or bare.startswith(card_id + "-")), None)
            extra = {"name": name} if name else {}
            out.append(write_artefact(options, rel, png, game=game_id, kind="shop-png", lang=lang, cards=cards,
                                      pixels=[w, h], dpi=dpi, profile=printer_id, printer=printer_id, **extra))
    return out
