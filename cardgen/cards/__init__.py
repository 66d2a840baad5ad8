"""Drawing one card: layouts as data, vector and raster art, text fitted to its box, cards as pictures.

The public API for other parts of cardgen (the rulebook, reports):

* :func:`card_png` -- one card side as PNG bytes at any dpi (optionally with bleed);
* :func:`card_pngs` -- several cards of one game and language at once (one PDF, faster);
* :func:`card_pdf` -- one card side as a one-page vector PDF (trim size, optional bleed);
* :class:`~cardgen.cards.card.CardRenderer` -- plans (``face(card)``, ``back(back_id)``) and
  ``place(canvas, plan, x, y)`` to draw a card on your own reportlab canvas as a Form XObject.

All of them raise :class:`~cardgen.errors.RenderError` (text that does not fit:
:class:`~cardgen.errors.TextOverflowError`) and never print.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

__all__ = ["card_pdf", "card_png", "card_pngs", "renderer_for"]

_RENDERERS: dict = {}


def renderer_for(game, lang: str, templates_dir: Path | None = None):
    """A :class:`CardRenderer` for ``game`` in ``lang``, kept for the process."""
    from cardgen.cards.card import CardRenderer

    key = (id(game), game.id, lang, templates_dir)
    renderer = _RENDERERS.get(key)
    if renderer is None or renderer.game is not game:
        if len(_RENDERERS) > 16:
            _RENDERERS.clear()
        renderer = _RENDERERS[key] = CardRenderer(game, lang, templates_dir)
    return renderer


def _plan(renderer, card_id: str, side: str):
    game = renderer.game
    card = game.card(card_id)
    if side == "front":
        return renderer.face(card)
    if side == "back":
        return renderer.back(card.back)
    from cardgen.errors import RenderError

    raise RenderError(f"side must be 'front' or 'back', not '{side}'")


def card_pngs(game, card_ids: Iterable[str], lang: str, *, side: str = "front", dpi: int = 150,
              bleed_mm: float = 0.0, templates_dir: Path | None = None) -> dict[str, bytes]:
    """PNG bytes of several cards (card id -> PNG), trim size plus ``bleed_mm`` on each side."""
    from cardgen.cards.png import plans_pdf, rasterise

    renderer = renderer_for(game, lang, templates_dir)
    ids = list(dict.fromkeys(card_ids))
    plans = [_plan(renderer, card_id, side) for card_id in ids]
    size = game.meta.card_size
    width = round((size.width_mm + 2 * bleed_mm) / 25.4 * dpi)
    height = round((size.height_mm + 2 * bleed_mm) / 25.4 * dpi)
    if not plans:
        return {}
    return dict(zip(ids, rasterise(plans_pdf(renderer, plans, width, height, dpi), width, height, dpi)))


def card_png(game, card_id: str, lang: str, *, side: str = "front", dpi: int = 150, bleed_mm: float = 0.0,
             templates_dir: Path | None = None) -> bytes:
    """One card side as PNG bytes (dpi recorded in the file)."""
    return card_pngs(game, [card_id], lang, side=side, dpi=dpi, bleed_mm=bleed_mm,
                     templates_dir=templates_dir)[card_id]


def card_pdf(game, card_id: str, lang: str, *, side: str = "front", bleed_mm: float = 0.0,
             templates_dir: Path | None = None) -> bytes:
    """One card side as a one-page vector PDF (fonts embedded); TrimBox set when there is bleed."""
    from cardgen.cards.pdf import finish, new_canvas
    from cardgen.cards.text import PT_PER_MM

    renderer = renderer_for(game, lang, templates_dir)
    plan = _plan(renderer, card_id, side)
    bleed = bleed_mm * PT_PER_MM
    w, h = plan.width + 2 * bleed, plan.height + 2 * bleed
    c = new_canvas((w, h), f"{game.id} {card_id} {side} ({lang})")
    if bleed:
        c.setBleedBox((0, 0, round(w, 4), round(h, 4)))
        c.setTrimBox((round(bleed, 4), round(bleed, 4), round(w - bleed, 4), round(h - bleed, 4)))
    renderer.place(c, plan, bleed, bleed, clip=None if bleed else (0, 0, 0, 0))
    c.showPage()
    return finish(c)
