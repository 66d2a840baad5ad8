"""Print-shop files: one card per page with bleed and boxes, and one PNG per card.

The shop PDF has, for every physical card in deck order, its face then its
back, each on a page of trim plus 3 mm bleed on every side, with TrimBox and
BleedBox set as 4-number boxes (TrimBox inside BleedBox = MediaBox).  The
PNGs are rasterised from the same vector drawing (pdfium) at the profile's
resolution and bleed, with the dpi written into the file.

:func:`render_printer_pdfs` writes the PDFs a printer record of
:mod:`cardgen.printing.printers` asks for: its bleed and page order, one file
or one per deck, CMYK (:mod:`cardgen.color.cmyk`) and PDF/X
(:mod:`cardgen.printing.pdfx`) when it says so.
"""

from __future__ import annotations

from pathlib import Path

from cardgen import resources
from cardgen.cards.card import CardPlan, CardRenderer
from cardgen.cards.pdf import finish, new_canvas
from cardgen.cards.png import STANDARD_BLEED_MM, plans_pdf, rasterise
from cardgen.cards.text import PT_PER_MM
from cardgen.errors import RenderError
from cardgen.printing.printers import Printer, printer

SHOP_BLEED_MM = STANDARD_BLEED_MM
#: littleCMS's sRGB profile (588 bytes; its date and ID zeroed, so that files stay byte-identical),
#: embedded in every shop PNG: ImageCms.createProfile("sRGB") written once into cardgen/color/icc
SRGB_PROFILE = "srgb.icc"



def _shop_page(c, renderer: CardRenderer, plan: CardPlan, bleed_pt: float) -> None:
    w, h = plan.width + 2 * bleed_pt, plan.height + 2 * bleed_pt
    c.setPageSize((w, h))
    c.setBleedBox((0, 0, round(w, 4), round(h, 4)))
    c.setTrimBox((round(bleed_pt, 4), round(bleed_pt, 4), round(w - bleed_pt, 4), round(h - bleed_pt, 4)))
    renderer.place(c, plan, bleed_pt, bleed_pt)
    c.showPage()


def render_shop_pdf(game, lang: str, templates_dir: Path | None = None) -> tuple[bytes, int, int]:
    """The shop PDF: (bytes, pages, card faces). Pages: face 1, back 1, face 2, back 2, ..."""
    renderer = CardRenderer(game, lang, templates_dir)
    title = game.text(game.meta.title, lang)
    bleed = SHOP_BLEED_MM * PT_PER_MM
    c = new_canvas((renderer.width + 2 * bleed, renderer.height + 2 * bleed), f"{title} — print shop ({lang})",
                   "print-shop: trim plus 3 mm bleed, one card side per page")
    cards = game.physical_cards()
    for pc in cards:
        _shop_page(c, renderer, renderer.face(pc.card), bleed)
        _shop_page(c, renderer, renderer.back(pc.card.back), bleed)
    return finish(c), 2 * len(cards), len(cards)


def render_printer_pdfs(game, lang: str, shop: Printer, templates_dir: Path | None = None
                        ) -> list[tuple[str | None, bytes, int, int]]:
    """The PDFs ``shop`` asks for: [(deck = back id or None for all cards, bytes, pages, card faces)].

    Bleed, page order, colour (CMYK through the printer's ink limit) and PDF/X
    version come from the printer record; ``pdf-per-deck`` makes one file per
    card back, in the order the game lists its backs.
    """
    from cardgen.color.cmyk import cmyk_canvas_class
    from cardgen.printing.pdfx import make_pdfx

    if shop.files not in ("pdf", "pdf-per-deck"):
        raise RenderError(f"printer '{shop.id}' takes {shop.files} files, not PDFs")
    renderer = CardRenderer(game, lang, templates_dir, bleed_mm=shop.bleed_mm)
    title = game.text(game.meta.title, lang)
    bleed = shop.bleed_mm * PT_PER_MM
    canvas_cls = cmyk_canvas_class(shop.tac, shop.min_line_pt, shop.intent, shop.bpc, shop.black_chroma,
                                   shop.black_lightness, shop.condition) if shop.cmyk else None
    cards = game.physical_cards()
    if shop.files == "pdf-per-deck":
        decks: list[tuple[str | None, list]] = [(b.id, [pc for pc in cards if pc.card.back == b.id])
                                                for b in game.meta.backs]
        decks = [(deck, members) for deck, members in decks if members]
    else:
        decks = [(None, cards)]
    out = []
    for deck, members in decks:
        name = f"{title} — {shop.name}" + (f", deck {deck}" if deck else "") + f" ({lang})"
        c = new_canvas((renderer.width + 2 * bleed, renderer.height + 2 * bleed), name,
                       f"print shop {shop.id}: trim plus {shop.bleed_mm:g} mm bleed, {shop.order} order",
                       canvas_cls=canvas_cls)
        c.image_dpi = shop.dpi  # raster art far above it is resampled to it (cardgen.cards.raster)
        for pc in members:
            sides = [renderer.face(pc.card), renderer.back(pc.card.back)]
            for plan in (sides if shop.order == "face-back" else sides[::-1]):
                _shop_page(c, renderer, plan, bleed)
        data = finish(c)
        if shop.pdfx != "none":
            data = make_pdfx(data, shop.pdfx, canvas_cls.converter.profile, shop.condition)
        out.append((deck, data, 2 * len(members), len(members)))
    return out


def render_pngs(game, lang: str, profile_id: str = "tgc", templates_dir: Path | None = None,
                cache: dict | None = None, part: int = 0, parts: int = 1
                ) -> tuple[list[tuple[str, bytes, int]], tuple[int, int], int]:
    """PNG images of every physical card in deck order, then one per back design.

    Returns ([(file stem, png bytes, card faces in it)], (width, height), dpi).
    ``cache`` (plan key -> png) lets a caller share images between languages;
    ``part`` of ``parts`` selects a slice of the card designs (for parallel jobs).
    """
    prof = printer(profile_id, templates_dir)
    renderer = CardRenderer(game, lang, templates_dir, bleed_mm=prof.bleed_mm)
    size = game.meta.card_size
    wpx, hpx = prof.pixels(size.width_mm, size.height_mm)
    cache = {} if cache is None else cache
    cards = game.physical_cards()
    items: list[tuple[str, CardPlan, int]] = []
    design_index = {card.id: i for i, card in enumerate(game.cards)}
    for n, pc in enumerate(cards, 1):
        if design_index[pc.card.id] % parts == part:
            items.append((f"{n:03d}-{pc.label.replace('#', '-')}", renderer.face(pc.card), 1))
    if part == 0:
        for back in game.meta.backs:
            items.append((f"back-{back.id}", renderer.back(back.id), 0))
    todo: dict[str, CardPlan] = {}
    for _, plan, _ in items:
        key = (plan.key, wpx, hpx, prof.dpi)
        if key not in cache and plan.key not in todo:
            todo[plan.key] = plan
    if todo:
        pdf = plans_pdf(renderer, list(todo.values()), wpx, hpx, prof.dpi)
        srgb = (resources.ICC_PROFILES / SRGB_PROFILE).read_bytes()  # the shop reads the pixels as sRGB
        for plan_key, png in zip(todo, rasterise(pdf, wpx, hpx, prof.dpi, icc=srgb)):
            cache[(plan_key, wpx, hpx, prof.dpi)] = png
    return [(stem, cache[(plan.key, wpx, hpx, prof.dpi)], count) for stem, plan, count in items], (wpx, hpx), prof.dpi
