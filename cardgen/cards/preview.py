"""One card face or back as a PNG, for looking at a card while writing it (``cardgen preview``).

The picture is what the print shop gets -- the trim plus the shop bleed on every side --
drawn by the same :class:`~cardgen.cards.card.CardRenderer` and rasterised by the same
pdfium code (:func:`cardgen.cards.png.rasterise`) as the shop PNGs of a build, so a
preview looks exactly like the built card.  On top of it a faint dashed line marks the
trim, so the bleed that will be cut off is visible.  With ``simulate`` the picture shows
the card as a player with a colour-vision deficiency sees it (:func:`simulated_png`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.errors import Locator, RenderError

DPI_RANGE = (36, 600)
DEFAULT_DPI = 150
TRIM_LINE_GREY = 0.8  # light grey: visible on dark backs and light faces alike
TRIM_LINE_ALPHA = 0.7  # faint: half-transparent, one pixel wide


@dataclass(frozen=True)
class Preview:
    png: bytes
    width_px: int
    height_px: int
    dpi: int
    side: str  # "face" | "back"
    label: str  # card id, or "back:<id>"


def default_preview_path(game_id: str, card_id: str, lang: str, back: bool = False) -> Path:
    """``preview/GAME-CARD-LANG.png`` (``-back`` before the language for a card's back), relative."""
    return Path("preview") / f"{game_id}-{card_id}{'-back' if back else ''}-{lang}.png"


def find_card(game, card_id: str):
    """The card design ``card_id`` of ``game``; an unknown id lists the closest ones."""
    from cardgen.cards.layout import suggest

    for card in game.cards:
        if card.id == card_id:
            return card
    ids = [card.id for card in game.cards]
    hint = suggest(card_id, ids) or f"; its cards: {', '.join(ids[:8])}{', ...' if len(ids) > 8 else ''}"
    raise RenderError(f"game '{game.id}' has no card '{card_id}'{hint}", Locator(file=game.root / "cards.yaml"))


def check_language(game, lang: str) -> str:
    if lang not in game.meta.languages:
        raise RenderError(f"game '{game.id}' has no language '{lang}'; its languages: "
                          f"{', '.join(game.meta.languages)}", Locator(file=game.root / "game.yaml",
                                                                    field="languages"))
    return lang


def check_dpi(dpi: int) -> int:
    low, high = DPI_RANGE
    if not low <= dpi <= high:
        raise RenderError(f"dpi {dpi} is out of range: expected {low} to {high}")
    return dpi


def render_preview(game, card_id: str, lang: str, *, back: bool = False, dpi: int = DEFAULT_DPI,
                   templates_dir: Path | None = None, simulate: str | None = None) -> Preview:
    """The PNG of one card's face (or, with ``back``, its back) at ``dpi``, with the shop bleed;
    ``simulate`` (protanopia, deuteranopia, tritanopia) shows it as such a player sees it."""
    from cardgen.cards.card import CardRenderer

    card = find_card(game, card_id)
    check_language(game, lang)
    check_dpi(dpi)
    renderer = CardRenderer(game, lang, templates_dir)
    plan = renderer.back(card.back) if back else renderer.face(card)
    found = plan_preview(renderer, plan, dpi)
    if simulate is None or simulate == "normal":
        return found
    return Preview(simulated_png(found.png, simulate), found.width_px, found.height_px, dpi, found.side, found.label)


def simulated_png(png: bytes, vision: str) -> bytes:
    """A PNG as a player with ``vision`` sees it (Machado 2009 at full severity), same size and dpi."""
    import io

    import numpy as np
    from PIL import Image

    from cardgen.color.vision import VISIONS, simulate_pixels

    if vision not in VISIONS:
        raise RenderError(f"unknown colour vision '{vision}' (one of {', '.join(VISIONS)})")
    with Image.open(io.BytesIO(png)) as image:
        dpi = image.info.get("dpi")
        rgb = image.convert("RGB")
    pixels = simulate_pixels(np.asarray(rgb), vision)
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, "PNG", **({"dpi": dpi} if dpi else {}))
    return out.getvalue()


def plan_preview(renderer, plan, dpi: int = DEFAULT_DPI) -> Preview:
    """The PNG of one planned face or back (``renderer.face(card)`` or ``renderer.back(id)``):
    what :func:`render_preview` draws, for callers that keep their renderer and plans
    (``cardgen serve`` re-draws only the cards whose plan changed)."""
    from cardgen.cards.pdf import finish, new_canvas
    from cardgen.cards.png import STANDARD_BLEED_MM, rasterise

    check_dpi(dpi)
    size = renderer.game.meta.card_size
    bleed_mm = STANDARD_BLEED_MM  # the shop PDF's
    width_px = round((size.width_mm + 2 * bleed_mm) / 25.4 * dpi)
    height_px = round((size.height_mm + 2 * bleed_mm) / 25.4 * dpi)
    # page sized so that dpi gives exactly these pixels (as png.plans_pdf does), card centred on it
    page_w, page_h = width_px * 72.0 / dpi, height_px * 72.0 / dpi
    x, y = (page_w - plan.width) / 2, (page_h - plan.height) / 2
    c = new_canvas((page_w, page_h), f"{renderer.game.id} {plan.label} {renderer.lang} preview")
    renderer.place(c, plan, x, y)
    _trim_line(c, x, y, plan.width, plan.height, dpi)
    c.showPage()
    png = rasterise(finish(c), width_px, height_px, dpi)[0]
    return Preview(png, width_px, height_px, dpi, plan.side, plan.label)


def _trim_line(c, x: float, y: float, width: float, height: float, dpi: int) -> None:
    """A faint dashed rectangle on the trim, one pixel wide whatever the dpi."""
    pixel = 72.0 / dpi
    c.saveState()
    c.setStrokeColorRGB(TRIM_LINE_GREY, TRIM_LINE_GREY, TRIM_LINE_GREY, alpha=TRIM_LINE_ALPHA)
    c.setLineWidth(pixel)
    c.setDash(4 * pixel, 3 * pixel)
    c.rect(x, y, width, height, stroke=1, fill=0)
    c.restoreState()
